"""Biomechanic Dino Battles rulebook: builds clean, tags every catalogue rule, reads its numbers
from the YAML, keeps the provisional v0.1 with a Changes page, and states the ruled sign of a Defend.
"""

from __future__ import annotations

import re

import pytest

import cardgen.rulebook.context as rb_context
import cardgen.rulebook.jinja as rb_jinja
from cardgen.content.catalogue import load_catalogue
from cardgen.content.collection_files import collection_files, load_collection_file
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import Rulebook
from tests.conftest import (
    ROOT,
    pdf_pages,
    problems_json,
    qpdf_check,
    rulebook_pages,
    run_cli,
)
from tests.rulebooks import rulebook_build, rulebook_names, rulings

GAME = "dino_battles"
CUR = "rules/dino_battles/rulebook"
OLD = "rules/dino_battles/versions/0.1"
CATALOGUE = load_catalogue(ROOT, "dino_battles", Problems())


def flat(pages: list[str]) -> str:
    """The text in one line, quotes and apostrophes left out (the typesetter makes them curly)."""
    return re.sub(r"\s+", " ", re.sub(r"[\"'‘’“”]", "", " ".join(pages)))


@pytest.fixture(scope="module")
def built(full_build):
    return rulebook_build(full_build, GAME)


@pytest.fixture(scope="module")
def texts(built, full_build):
    return full_build.pages(built[2] / "rulebook.pdf")


def test_builds_without_problems(built):
    code, probs, out = built
    assert code == 0 and probs == [], probs
    names = rulebook_names(out)
    assert names == ["rulebook-booklet.pdf", "rulebook-designer.pdf", "rulebook-v0.1.pdf", "rulebook.pdf"]
    for name in names:
        qpdf_check(out / name)


def test_validate_stays_clean():
    code, probs = problems_json("validate", GAME)
    assert code == 0, probs


def test_every_catalogue_rule_is_tagged_and_every_ruling_printed(texts, built, full_build):
    problems = Problems()
    game = load_game(ROOT, GAME, problems)
    book = Rulebook(game, problems)
    tagged = {r for h in book.headings(book.current) for r in h.rules}
    ids = set(CATALOGUE.rules)
    assert len(ids) > 20 and ids <= tagged, sorted(ids - tagged)
    text = flat(texts)
    designer = flat(full_build.pages(built[2] / "rulebook-designer.pdf"))
    for r in rulings(game):
        assert r["id"] in designer and r["id"] not in text      # rule IDs: the designer's edition only
        assert flat([r["text"]])[:40] in text, r["id"]


def test_versions_and_changes_page(texts):
    code, out = run_cli("rules", "versions", GAME)
    assert code == 0 and "0.1" in out and "1.0" in out
    code, out = run_cli("rules", "diff", GAME, "0.1", "1.0")
    assert code == 0
    assert "~ changed  Combat › Attack and answer › Attack → Defend" in out
    assert "+ added    Clarifications" in out
    assert "Setting up › Placing your Dinosaurs" not in out           # unchanged sections are not listed
    assert any("Changes since v0.1" in t for t in texts)


def test_defend_follows_the_ruled_sign(texts):
    """BDB-CMB-5: ATK total − DEF total; positive hurts the defender, negative the attacker."""
    problems = Problems()
    cards = load_game(ROOT, GAME, problems).cards_by_id
    rex, tank = cards["chainsaw_rex"].fields, cards["ankylo_tank"].fields
    text = flat(texts)
    a, d = 5 + rex["atk"], 2 + tank["def"]                                 # the example's rolls
    assert a > d
    assert f"ATK minus DEF: {a} − {d} = {a - d}. The result is positive: the {tank['name']} loses {a - d} HP" in text
    assert f"the {tank['name']} has {tank['hp'] - (a - d)} HP left".lower() in text.lower()


def test_a_number_changed_in_yaml_changes_the_rulebook(game_copy, texts):
    before = flat(texts)
    assert "loses 10 HP, and one turn of its poison is used up" in before
    assert "Be the first player to knock out 3 of your opponent" in before
    g = game_copy(GAME)
    g.edit("rules/dino_battles/params.yaml", "poison_hp: 10 ", "poison_hp: 15 ")
    g.edit("rules/dino_battles/params.yaml", "kos_to_win: 3 ", "kos_to_win: 4 ")
    g.edit("cards/dino_battles/dinosaurs.yaml", "    atk: 8\n    eva: 2\n    def: 5\n    hp: 90",
           "    atk: 9\n    eva: 2\n    def: 5\n    hp: 90")                 # Chainsaw Rex
    after = flat(rulebook_pages(g.root, GAME))
    assert "loses 15 HP, and one turn of its poison is used up" in after
    assert "Be the first player to knock out 4 of your opponent" in after
    assert "Tom rolls 5: 5 + 9 = 14" in after and "Tom rolls 5: 5 + 8 = 13" not in after


def test_old_version_keeps_the_provisional_sign():
    problems = Problems()
    book = Rulebook(load_game(ROOT, GAME, problems), problems)
    old = next(v for v in book.versions if v.version == "0.1")
    text = flat(pdf_pages(book.pdf(old)))
    assert "Provisional Game Rules" in text
    assert "Subtract the ATK total from the DEF total" in text
    assert "Clarifications" not in text


def test_starter_decks_from_the_deck_files(monkeypatch):
    """With the deck files in the Jinja context (the proposed ``collections``), the starter decks
    chapter lists each deck's cards and counts from its file."""
    original = rb_jinja.build_context

    def with_collections(game, version, versions):
        ctx = original(game, version, versions)
        kinds: dict[str, list] = {}
        for path in collection_files(game):
            kind, body, cols = load_collection_file(path, game, Problems())
            if body is None or not cols:
                continue
            cards = [{"id": e.id, "name": e.name, "type": game.cards_by_id[e.id].type, "count": e.count}
                     for e in cols[0].entries]
            kinds.setdefault(kind, []).append({
                "file": path.stem, "name": str(body.get("name") or path.stem),
                "notes": str(body.get("notes") or ""), "cards": cards,
                "count": sum(c["count"] for c in cards)})
        ctx["collections"] = rb_context.wrap(kinds, "collections")
        return ctx

    monkeypatch.setattr(rb_jinja, "build_context", with_collections)
    text = flat(rulebook_pages(ROOT, GAME))
    assert "Steel Jaws" in text and "Iron Herd" in text
    assert "Chainsaw Rex ×2" in text and "Attack ×15" in text and "Attack ×12" in text


def test_play_mat_diagram_is_drawn(texts):
    """The seed's lost diagram of a playing field: the play mat, drawn by the board pipeline."""
    at = next(i for i, t in enumerate(texts) if "The play area\nEach player" in t)
    page = texts[at]
    assert "The play mat of one player" in page and "Play mat" in page
    table = page + texts[at + 1]        # the mat, taller with its Bench HP tracks, may push the table over
    assert "What lies there" in table and "Active Dinosaur" in table

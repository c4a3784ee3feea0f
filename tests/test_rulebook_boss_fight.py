"""Boss Fight rulebook: v0.9 (the design document) and the current 1.0 with the rulings.

Builds clean, tags every catalogue rule ID, prints every ruling, shows the presets (their stats
computed from the cards exactly as the validator computes them) and the map thumbnails, reads its
numbers from params.yaml (a number changed there changes the text), and its damage table agrees
with the playtest checker's damage formula.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.content.catalogue import load_catalogue
from cardgen.content.collection_files import collection_files, load_collection_file
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.games.boss_fight import analyse, boss_stats, damage_formula
from cardgen.rulebook import Rulebook
from tests.conftest import ROOT, flat, rulebook_pages
from tests.rulebooks import (
    assert_break_reported,
    assert_built_clean,
    assert_sources_check_clean,
    rulebook_build,
    rulings,
)

GAME = "boss_fight"
CUR = "rules/boss_fight/rulebook"
OLD = "rules/boss_fight/versions/0.9"
CATALOGUE = load_catalogue(ROOT, "boss_fight", Problems())


def current_text(root: Path) -> str:
    return flat("\n".join(rulebook_pages(root, GAME)))


@pytest.fixture(scope="module")
def built(full_build):
    return rulebook_build(full_build, GAME)


@pytest.fixture(scope="module")
def pages(built, full_build):
    _, _, out = built
    return {name: full_build.pages(out / name) for name in ("rulebook.pdf", "rulebook-v0.9.pdf",
                                                                  "rulebook-designer.pdf")}


@pytest.fixture(scope="module")
def text(pages):
    return flat("\n".join(pages["rulebook.pdf"]))


@pytest.fixture(scope="module")
def game():
    problems = Problems()
    g = load_game(ROOT, GAME, problems)
    assert not problems.has_errors
    return g


def test_builds_both_versions_without_problems(built):
    assert_built_clean(built, ["rulebook-booklet.pdf", "rulebook-designer.pdf", "rulebook-v0.9.pdf", "rulebook.pdf"])


def test_clean_sources_check_clean():
    assert_sources_check_clean(GAME)


def test_rulebook_is_a_printable():
    text = (ROOT / "rules/boss_fight/game.yaml").read_text(encoding="utf-8")
    assert re.search(r"^printables: \[.*\brulebook\b.*\]", text, re.M)


def test_every_catalogue_rule_is_tagged_and_every_ruling_printed(game, text, pages):
    book = Rulebook(game, Problems())
    tagged = {r for h in book.headings(book.current) for r in h.rules}
    ids = set(CATALOGUE.rules)
    ids |= {r for h in book.headings(book.versions[0]) for r in h.rules}
    assert len(ids) >= 30 and ids <= tagged, sorted(ids - tagged)
    clar = text.split("These rulings settle")[-1].split("Changes since v0.9 What")[0]
    assert len(clar) > 500
    designer = flat("\n".join(pages["rulebook-designer.pdf"]))
    for r in rulings(game):
        assert r["id"] in designer and r["id"] not in clar, r["id"]   # rule IDs: the designer's edition only
        assert flat(r["text"])[:40] in clar, r["id"]


def test_building_presets_and_maps_sections(pages, text):
    cur = pages["rulebook.pdf"]
    for head in ("Building the sides", "Boss Building", "Hero Building", "Action decks", "Presets",
                 "Preset bosses", "Preset parties", "Maps", "Card reference"):
        assert any(re.search(rf"^{re.escape(head)}\b", p, re.M) for p in cur[3:]), head
    # a thumbnail of every map, captioned with its name
    for stem in ("arena", "pillars", "catacombs", "keep"):
        assert (ROOT / "maps" / GAME / f"{stem}.yaml").exists()
    for caption in ("The Open Arena", "The Hall of Pillars", "The Catacombs", "The Sunken Keep"):
        assert caption in text, caption


def test_preset_sheets_show_the_computed_stats(game, text):
    """Each preset boss prints its Health, Intelligence, Strength, Agility and Slots as the
    validator computes them from its pieces, and its points against the limit."""
    limit = game.params["points_limit"]
    seen = 0
    for path in collection_files(game):
        problems = Problems()
        kind, body, _ = load_collection_file(path, game, problems)
        if kind != "boss":
            continue
        b = analyse(game, kind, body, problems)
        assert b is not None and not problems.has_errors, [p.text() for p in problems]
        s = boss_stats(b)
        want = (f"Health {s['health']} · Intelligence {s['intelligence']} · Strength {s['strength']} · "
                f"Agility {s['agility']} · Equipment Slots {s['slots']}")
        if b.name in text:
            assert want in text, (b.name, want)
            assert f"{b.name} Boss · {b.points()} points of {limit}:" in text, b.name
            seen += 1
    assert seen >= 3


def _dealt(text: str) -> list[tuple[int, int, int, int]]:
    table = text.split("Damage S T Test Dealt")[1].split("EXAMPLE")[0]
    rows = re.findall(r"(\d+) (\d+) (\d+) (?:\d+ is .+?|equal: unchanged) (\d+)(?= \d+ \d+ \d+ (?:\d+ is|equal)|\s*$)", table)
    return [tuple(map(int, r)) for r in rows]


def test_damage_table_agrees_with_the_checker(game, text):
    rows = _dealt(text)
    assert len(rows) >= 6, rows
    f = game.params["damage_formula"]
    for base, s, t, dealt in rows:
        assert damage_formula(base, s, t, f)[0] == dealt, (base, s, t, dealt)


def test_numbers_come_from_params(game_copy, game, text):
    assert "For a first game use a limit of 100 points" in text
    assert "S is higher than T: +1 damage" in text
    assert "every character draws 4 cards" in text.replace("Every character", "every character")
    g = game_copy(GAME)
    g.edit("rules/boss_fight/params.yaml", "points_limit: 100 ", "points_limit: 120 ")
    g.edit("rules/boss_fight/params.yaml", "  step: 1 ", "  step: 2 ")
    g.edit("rules/boss_fight/params.yaml", "first_round: 4,", "first_round: 5,")
    after = current_text(g.root)
    assert "For a first game use a limit of 120 points" in after and "limit of 100 points" not in after
    assert "Beginner games use a Points Limit of 120" in after          # the Clarifications too
    assert "S is higher than T: +2 damage" in after
    assert "every character draws 5 cards" in after.replace("Every character", "every character")
    f = dict(game.params["damage_formula"], step=2)
    for base, s, t, dealt in _dealt(after):
        assert damage_formula(base, s, t, f)[0] == dealt, (base, s, t, dealt)


def test_versions_and_changes_page(pages, game):
    cur, old = flat("\n".join(pages["rulebook.pdf"])), flat("\n".join(pages["rulebook-v0.9.pdf"]))
    assert "Version 1.0 · First Edition" in cur and "Version 0.9 · Design Document" in old
    assert "Changes since v0.9" in cur and "Changes since" not in old
    assert "Presets" not in old and "Clarifications" not in old
    book = Rulebook(game, Problems())
    changes = {(c.kind, c.as_dict()["section"]) for c in book.changes(book.versions[0], book.current)}
    assert ("added", "Presets") in changes and ("added", "Clarifications") in changes
    assert any(kind == "changed" and s.startswith("Combat › Working out the damage") for kind, s in changes)


BREAKS = [
    ("RULEBOOK-JINJA", f"{CUR}/05-combat.md", "{{ params.defence_miss - 1 }}", "{{ params.defense_miss - 1 }}"),
    ("RULEBOOK-CARD", f"{CUR}/05-combat.md", "card:heavy_attack", "card:heavy_atack"),
    ("RULEBOOK-BOARD", f"{CUR}/03-setup.md", "board:pillars?thumb", "board:pilars?thumb"),
    ("RULEBOOK-JINJA", f"{OLD}/04-round.md", "{{ params.", "{{ params.nope."),
    ("RULEBOOK-BOARD", f"{CUR}/04-round.md", "crop=0,0:7,6", "crop=0,0:7"),
    ("RULEBOOK-BOARD", f"{CUR}/04-round.md", "crop=0,0:7,6", "crop=40,40:47,46"),
    ("RULEBOOK-PRESET", f"{CUR}/06-presets.md", "preset:boss_ember_wyrm?", "preset:boss_ember_wyrn?"),
    ("RULEBOOK-PRESET", f"{CUR}/06-presets.md", "boss_ember_wyrm?hide=", "boss_ember_wyrm?hid="),
]


@pytest.mark.parametrize("rule,rel,old,new", BREAKS, ids=[f"{b[0]}-{b[1].split('/')[-1]}" for b in BREAKS])
def test_bad_input_reported_at_its_line(game_copy, rule, rel, old, new):
    assert_break_reported(game_copy(GAME), rule, rel, old, new)

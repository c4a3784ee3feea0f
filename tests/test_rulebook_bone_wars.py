"""Bone Wars rulebook: v0.9 (the design document as the designer left it) and the current 1.0.

Builds without problems, tags every catalogue rule ID, lists every ruling, reads its numbers from
params.yaml and the cards (a number changed there changes the text), keeps its worked examples
true to the rules (checked against stats summed here from the card data), and explains what
changed since v0.9.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.content.catalogue import load_catalogue
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import Rulebook
from tests.conftest import ROOT, flat, pdf_pages, rulebook_pages
from tests.rulebooks import (
    assert_break_reported,
    assert_built_clean,
    assert_sources_check_clean,
    rulebook_build,
    rulings,
)

GAME = "bone_wars"
CUR = "rules/bone_wars/rulebook"
OLD = "rules/bone_wars/versions/0.9"
CATALOGUE = load_catalogue(ROOT, "bone_wars", Problems())
REX = ["skull_tyrant", "torso_spino", "limbs_tyrant"]          # the examples' monsters
PLATES = ["skull_frill", "torso_stegosaur"]


def pdf_text(data: bytes) -> str:
    return "\n".join(pdf_pages(data))


def current_text(root: Path) -> str:
    return "\n".join(rulebook_pages(root, GAME))


@pytest.fixture(scope="module")
def built(full_build):
    return rulebook_build(full_build, GAME)


@pytest.fixture(scope="module")
def texts(built, full_build):
    _, _, out = built
    return {name: "\n".join(full_build.pages(out / name)) for name in ("rulebook.pdf", "rulebook-v0.9.pdf",
                                                                 "rulebook-designer.pdf")}


def test_builds_both_versions_without_problems(built):
    assert_built_clean(built, ["rulebook-booklet.pdf", "rulebook-designer.pdf", "rulebook-v0.9.pdf", "rulebook.pdf"])


def test_clean_sources_check_clean():
    assert_sources_check_clean(GAME)


def test_rulebook_is_a_printable():
    text = (ROOT / "rules/bone_wars/game.yaml").read_text(encoding="utf-8")
    assert re.search(r"^printables: \[.*\brulebook\b.*\]", text, re.M)


def test_every_catalogue_rule_is_tagged_and_every_ruling_printed(texts):
    problems = Problems()
    game = load_game(ROOT, GAME, problems)
    book = Rulebook(game, problems)
    tagged = {r for h in book.headings(book.current) for r in h.rules}
    ids = set(CATALOGUE.rules)
    ids |= {r for h in book.headings(book.versions[0]) for r in h.rules}      # at least what v0.9 tags
    assert len(ids) >= 25 and ids <= tagged, sorted(ids - tagged)
    text = flat(texts["rulebook.pdf"])
    designer = flat(texts["rulebook-designer.pdf"])
    for r in rulings(game):
        assert r["id"] in designer and r["id"] not in text      # rule IDs: the designer's edition only
        assert flat(r["text"])[:30] in text, r["id"]
    # the Trait glossary is printed once, from params.yaml (the penalty filled in)
    for key, t in game.params["traits"].items():
        assert flat(t["text"] % game.params) in text, key


def test_versions_and_changes_page(texts):
    cur, old = texts["rulebook.pdf"], texts["rulebook-v0.9.pdf"]
    assert "Version 1.0 · First Edition" in cur and "Version 0.9 · Design Document" in old
    assert "Changes since v0.9" in cur and "Changes since" not in old
    assert "Clarifications" in cur and "Clarifications" not in old
    # v0.9 is the design document: a tie is halved with no rounding, no re-roll for turn order
    assert "Atk divided by 2." in flat(old) and "rounded down" not in flat(old)
    assert "roll again" not in flat(old) and "only they roll again" in flat(cur)
    problems = Problems()
    book = Rulebook(load_game(ROOT, GAME, problems), problems)
    changes = {(c.kind, c.as_dict()["section"]) for c in book.changes(book.versions[0], book.current)}
    assert ("added", "Clarifications") in changes
    assert ("added", "Combat, step by step") in changes
    assert ("changed", "The Destruction Phase › The combat roll › Who wins") in changes
    assert ("changed", "Setting up › Who goes first") in changes
    assert not any(s == "Setting up › Players" for _, s in changes)           # an unchanged rule stays unlisted
    assert not any(s.endswith(".md") for _, s in changes)                    # no chapter-file noise


def sums(game, ids):
    cards = {c.id: c for c in game.cards}
    parts = [cards[i].fields for i in ids]
    stats = {k: sum(p[k] for p in parts) for k in ("str", "def", "atk", "hp")}
    traits = {t for p in parts for t in p.get("traits") or []}
    return stats, traits


def test_examples_follow_the_rules(texts):
    """The turn summary and combat examples, re-derived here from the card data and params."""
    problems = Problems()
    game = load_game(ROOT, GAME, problems)
    p = game.params
    rex, rex_traits = sums(game, REX)
    plates, plates_traits = sums(game, PLATES)
    text = flat(texts["rulebook.pdf"])
    # the monster built from three parts: its summed stats in the turn example's table
    assert re.search(rf"The monster 3 parts {rex['str']} {rex['def']} {rex['atk']} {rex['hp']} ", text)
    assert "haste" not in rex_traits and "vigilant" not in rex_traits and "trample" in rex_traits
    # example 1: a tie against an Intimidating blocker
    assert "intimidating" in plates_traits
    eff = rex["str"] - p["intimidating_str_penalty"]
    m = re.search(r"Ana rolls (\d+): \1 \+ (\d+) = (\d+)\. Ben rolls (\d+) and adds Plates' Def: \4 \+ (\d+) = (\d+)\.",
                  text)
    assert m, "example 1 not found"
    a, a_eff, a_tot, b, b_def, b_tot = map(int, m.groups())
    assert (a_eff, b_def) == (eff, plates["def"]) and a + eff == a_tot and b + b_def == b_tot
    assert a_tot == b_tot and 1 <= a <= p["die"] and 1 <= b <= p["die"]
    d = p["tie_damage"]["divisor"]
    dmg = rex["atk"] // d if p["tie_damage"]["rounding"] == "down" else -(-rex["atk"] // d)
    assert rex["atk"] % d, "the example should show the rounding"
    assert f"so {dmg} damage" in text and f"{plates['hp'] - dmg} are left" in text
    # example 2: unblocked, the defender's roll beats the attacker's Str
    assert f"she needs more than {plates['str']} (Plates' Str)" in text
    # example 3: the attacker wins and Trample carries the rest to Ben
    m = re.search(r"Ana rolls (\d+): \1 \+ \d+ = (\d+)\. Ben rolls (\d+): \3 \+ \d+ = (\d+)\. Rex wins", text)
    assert m and int(m.group(2)) > int(m.group(4)), "example 3 not found or not a win"
    left = plates["hp"] - dmg
    assert rex["atk"] >= left
    over = rex["atk"] - left
    assert f"{rex['atk']} − {left} = {over} damage goes through to Ben, who drops from " \
           f"{p['starting_hp']} to {p['starting_hp'] - over} HP" in text


def test_numbers_come_from_params_and_cards(game_copy, texts):
    before = flat(texts["rulebook.pdf"])
    assert "Every player starts with 20 HP." in before
    assert "the attacker has −2 Str for this roll" in before
    assert "Atk halved, rounded down" in before
    g = game_copy(GAME)
    g.edit("rules/bone_wars/params.yaml", "starting_hp: 20 ", "starting_hp: 25 ")
    g.edit("rules/bone_wars/params.yaml", "intimidating_str_penalty: 2 ", "intimidating_str_penalty: 3 ")
    g.edit("rules/bone_wars/params.yaml", "  rounding: down ", "  rounding: up ")
    g.edit("cards/bone_wars/skulls.yaml", "str: 3, def: 1, atk: 5, hp: 3, traits: [intimidating]",
           "str: 3, def: 1, atk: 7, hp: 3, traits: [intimidating]")
    after = flat(current_text(g.root))
    assert "Every player starts with 25 HP." in after and "starts with 20 HP" not in after
    assert "the attacker has −3 Str for this roll" in after
    assert "Atk halved, rounded up" in after and "rounded down" not in after.split("Clarifications")[0]
    # Rex: Atk 7 + 2 + 2 = 11; its Str 9 − 3 = 6; a tie deals 11 ÷ 2 = 5.5, rounded up: 6
    assert "The monster 3 parts 9 4 11 11 " in after
    assert "counts as 9 − 3 = 6" in after and "11 ÷ 2 = 5.5, so 6 damage" in after


BREAKS = [
    ("RULEBOOK-JINJA", f"{CUR}/05-combat-example.md", "{% set eff = r.str - pen %}", "{% set eff = r.str - params.penalty %}"),
    ("RULEBOOK-CARD", f"{CUR}/05-combat-example.md", "cards.skull_frill", "cards.skull_frills"),
    ("RULEBOOK-LINK", f"{CUR}/03-turn.md", "(#combat-step-by-step)", "(#combat-examples)"),
    ("RULEBOOK-JINJA", f"{OLD}/02-setup.md", "{{ params.hand_size }}", "{{ params.hand }}"),
]


@pytest.mark.parametrize("rule,rel,old,new", BREAKS, ids=[f"{b[0]}-{b[1].split('/')[-1]}" for b in BREAKS])
def test_bad_input_reported_at_its_line(game_copy, rule, rel, old, new):
    assert_break_reported(game_copy(GAME), rule, rel, old, new)

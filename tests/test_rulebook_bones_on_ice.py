"""Bones on Ice rulebook: v7.8 (the designer's "Polished Edition") and the current 7.9 with the rulings.

Builds without problems, tags every catalogue rule ID, lists every ruling, reads its numbers from
params.yaml and the cards (a number changed there changes the text), never prints the seed's
mis-decoded ``â‰¥``, and explains what changed since v7.8.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.content.catalogue import load_catalogue
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import Rulebook
from tests.conftest import ROOT, pdf_pages, rulebook_pages
from tests.rulebooks import (
    assert_break_reported,
    assert_built_clean,
    assert_sources_check_clean,
    rulebook_build,
    rulings,
)

GAME = "bones_on_ice"
CUR = "rules/bones_on_ice/rulebook"
OLD = "rules/bones_on_ice/versions/7.8"
CATALOGUE = load_catalogue(ROOT, "bones_on_ice", Problems())


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
    return {name: "\n".join(full_build.pages(out / name)) for name in ("rulebook.pdf", "rulebook-v7.8.pdf",
                                                                 "rulebook-designer.pdf")}


def test_builds_both_versions_without_problems(built):
    assert_built_clean(built, ["rulebook-booklet.pdf", "rulebook-designer.pdf", "rulebook-v7.8.pdf", "rulebook.pdf"])


def test_clean_sources_check_clean():
    assert_sources_check_clean(GAME)


def test_every_catalogue_rule_is_tagged_and_every_ruling_printed(texts):
    problems = Problems()
    game = load_game(ROOT, GAME, problems)
    book = Rulebook(game, problems)
    tagged = {r for h in book.headings(book.current) for r in h.rules}
    ids = set(CATALOGUE.rules)
    ids |= {r for h in book.headings(book.versions[0]) for r in h.rules}      # at least what v7.8 tags
    assert len(ids) >= 20 and ids <= tagged, sorted(ids - tagged)
    text = " ".join(texts["rulebook.pdf"].split())
    designer = " ".join(texts["rulebook-designer.pdf"].split())
    for r in rulings(game):
        assert r["id"] in designer and r["id"] not in text      # rule IDs: the designer's edition only
        assert " ".join(r["text"].split())[:30] in text, r["id"]


def test_versions_and_changes_page(texts):
    cur, old = texts["rulebook.pdf"], texts["rulebook-v7.8.pdf"]
    assert "Version 7.9" in cur and "Version 7.8 · Polished Edition" in old
    assert "Changes since v7.8" in cur and "Changes since" not in old
    assert "Clarifications" in cur and "Clarifications" not in old
    # the seed's defect is fixed, never copied: the 1v1 Save reads "≥", not "â‰¥"
    assert "â" not in cur + old and "(≥)" in old
    problems = Problems()
    book = Rulebook(load_game(ROOT, GAME, problems), problems)
    changes = {(c.kind, c.as_dict()["section"]) for c in book.changes(book.versions[0], book.current)}
    assert ("added", "Clarifications") in changes
    assert ("changed", "Winning the game › The shootout") in changes
    assert not any("Team Stamina" in s for _, s in changes)                 # an unchanged rule stays unlisted


def test_numbers_come_from_params_and_cards(game_copy, texts):
    before = texts["rulebook.pdf"]
    flat = " ".join(before.split())
    assert "starting at 20." in flat and "rounds 5, 10 and 15" in flat and "Penalty Shot" in flat
    assert re.search(r"^Pass Puck carrier · Mid-Game — 1\s+Stamina$", before, re.M)
    g = game_copy(GAME)
    g.edit("rules/bones_on_ice/params.yaml", "  start: 20\n", "  start: 18\n")
    g.edit("rules/bones_on_ice/params.yaml", "  pass: 1\n", "  pass: 2\n")
    g.edit("rules/bones_on_ice/params.yaml", "  rounds: [5, 10, 15]", "  rounds: [4, 8, 15]")
    g.edit("cards/bones_on_ice/chaos.yaml", "name: Penalty Shot,", "name: Power Shot,")
    after = current_text(g.root)
    flat = " ".join(after.split())
    assert "starting at 18." in flat and "starting at 20." not in flat
    assert re.search(r"^Pass Puck carrier · Mid-Game — 2\s+Stamina$", after, re.M)
    assert "rounds 4, 8 and 15" in flat and "rounds 5, 10 and 15" not in flat
    assert "Power Shot" in flat and "Penalty Shot" not in flat        # the Chaos Table is read from the cards


BREAKS = [
    ("RULEBOOK-TEXT", f"{CUR}/04-round.md", "The Mid-Game ends.", "Goalie â‰¥ shooter."),
    ("RULEBOOK-JINJA", f"{CUR}/03-stamina-and-rolls.md", "{{ params.stamina.start }}", "{{ params.stamina.begin }}"),
    ("RULEBOOK-CARD", f"{CUR}/04-round.md", "{% set kp = cards.titans_keeper %}", "{% set kp = cards.titans_kepper %}"),
]


@pytest.mark.parametrize("rule,rel,old,new", BREAKS, ids=[b[0] for b in BREAKS])
def test_bad_input_reported_at_its_line(game_copy, rule, rel, old, new):
    assert_break_reported(game_copy(GAME), rule, rel, old, new)


def test_chaos_and_spirit_numbers_come_from_params(game_copy):
    """The Chaos and Team Spirit effects the checker applies are the numbers their cards and the
    rulebook print: one change in params.yaml moves all three."""
    from cardgen.builder.pipeline import validate
    from cardgen.scene import Text

    g = game_copy(GAME)
    g.edit("rules/bones_on_ice/params.yaml", "level: both, amount: 6}", "level: both, amount: 4}")
    g.edit("rules/bones_on_ice/params.yaml", "{effect: opponent_die, die: 4}", "{effect: opponent_die, die: 6}")
    text = " ".join(rulebook_pages(g.root, GAME))
    flat = " ".join(text.split())
    assert "recovers 4 Stamina" in flat and "recovers 6 Stamina" not in flat
    assert "rolls a d6 instead of its own die" in flat
    problems = Problems()
    laid = validate(g.root, GAME, problems)
    assert laid is not None and not problems.has_errors, [p.text() for p in problems]

    def words(card_id: str) -> str:
        p = next(p for ps in laid.groups.values() for p in ps if p.card_id == card_id)
        return " ".join(" ".join(str(i.text) for i in p.front if isinstance(i, Text)).split())

    assert "recovers 4 Stamina" in words("chaos_second_wind")
    assert "d6 instead" in words("femurs_spirit")


def test_a_team_s_own_starting_stamina_is_printed_where_the_shared_one_is(game_copy):
    """A Team Spirit card's ``stamina`` (a project addition): the setup and the Stamina rule name
    the team that starts elsewhere; without one (the shipped teams) the text is the shared number's."""
    g = game_copy(GAME)
    flat = " ".join(current_text(g.root).split())
    assert "starting at 20." in flat and "Team Spirit card says" not in flat
    g.edit("cards/bones_on_ice/team_titans.yaml", 'color: "#7d5f1d", cost: 2,',
           'color: "#7d5f1d", cost: 2, stamina: 16,')
    flat = " ".join(current_text(g.root).split())
    assert "starting at 20 (the Tombstone Titans on 16, as their Team Spirit card says)." in flat
    assert ("marker starts on 20 (the Tombstone Titans on 16, as their Team Spirit card says), its Goals"
            in flat)

"""Card sheets laid out as they are printed (``layout.streamed``): the same files and problems as
the cards laid out first, one card's scenes held at a time, the forms foreseen."""

from __future__ import annotations

import pytest

from cardgen.builder import pipeline
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.layout.streamed import WINDOW, Streamed
from cardgen.printables import cards
from tests.conftest import ROOT


def _both(slug: str) -> tuple[tuple[dict, list], tuple[dict, list]]:
    out = []
    for lay in (pipeline.lay_out, pipeline.lay_out_streamed):
        problems = Problems()
        game = load_game(ROOT, slug, problems)
        assert game is not None
        laid = lay(game, problems)
        files = cards.build(laid, problems=problems, release=True)
        out.append((files, [p.text() for p in problems.sorted()]))
    return out[0], out[1]


@pytest.mark.parametrize("slug", ["loot_battles", "boss_fight"])
def test_streamed_sheets_are_the_laid_out_ones_byte_for_byte(slug):
    (eager, eager_problems), (streamed, streamed_problems) = _both(slug)
    assert eager.keys() == streamed.keys()
    for name in eager:
        assert eager[name] == streamed[name], name
    assert eager_problems == streamed_problems


def test_a_streamed_group_lays_cards_out_when_taken_and_keeps_only_a_window():
    problems = Problems()
    game = load_game(ROOT, "loot_battles", problems)
    assert game is not None
    laid = pipeline.lay_out_streamed(game, problems)
    group = next(iter(laid.groups.values()))
    assert isinstance(group, Streamed) and group._window == []        # nothing laid out yet
    first = group[0:2]
    assert first[0].front is first[1].front or first[0].card_id != first[1].card_id
    last = group[len(group) - 1]
    assert 0 < len(group._window) <= WINDOW and group._start + len(group._window) == len(group)
    assert last.front is group._window[-1][0]
    assert len(group) == sum(c.copies for c in game.cards if not c.dangling and
                             game.card_types[c.type].size == next(iter(laid.groups)))


def test_finish_reports_what_the_layout_finds(tmp_path):
    problems = Problems()
    game = load_game(ROOT, "loot_battles", problems)
    assert game is not None
    card = game.cards[0]
    card.fields["name"] = card.name = "Longname " * 40
    laid = pipeline.lay_out_streamed(game, problems)
    assert not problems.errors                  # nothing laid out yet: nothing found
    pipeline.finish(laid)
    assert any(p.rule == "TEXT-OVERFLOW" for p in problems.errors)

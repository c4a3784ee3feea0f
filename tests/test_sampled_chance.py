"""A game that computes its chance outcome from ``r`` (``sample_chance``) falls exactly where the
walk over its listed outcomes does — the same seed plays the same game — probed at every chance
node of seeded random games: inside each outcome, and on and one ulp either side of each of the
walk's own running sums (where rounding could part a computed index from the walk)."""

from __future__ import annotations

import math

import pytest

from cardgen.play.api import CHANCE, Action, walk
from tests.playkit import new_state, random_game

#: the games whose state overrides sample_chance, and how many seeded games to probe
GAMES = {"loot_battles": 4, "bones_on_ice": 4, "dino_battles": 3, "boss_fight": 1}
LAST = math.nextafter(1.0, 0.0)


def probes(outcomes: list[tuple[Action, float]]) -> list[float]:
    """The middle of each outcome's share, each running sum and its neighbours, 0 and just under 1."""
    out, acc = [0.0, LAST], 0.0
    for _, p in outcomes:
        out.append(acc + p / 2)
        acc += p
        out += [acc, math.nextafter(acc, 0.0), math.nextafter(acc, 2.0)]
    return [min(max(r, 0.0), LAST) for r in out]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_sampled_chance_falls_where_the_walk_does(slug: str) -> None:
    nodes = 0
    for seed in range(GAMES[slug]):
        state = new_state(slug, seed)
        for action in random_game(slug, seed).history:
            if state.current_player() == CHANCE:
                outs = state.chance_outcomes()
                for r in probes(outs):
                    got = state.sample_chance(r)
                    assert got == walk(outs, r), f"{slug} seed {seed}: sample_chance({r!r}) is {got}"
                nodes += 1
            state.apply_action(action)
    assert nodes > 10 * GAMES[slug]

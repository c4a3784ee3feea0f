"""Sampled chance (cardgen.play.dice): the index computed straight from ``r`` is the one the walk
over the listed outcomes gives, or None (walk instead) — never another. Random ``r``, and ``r``
on and a few ulps either side of the walk's own running sums, where rounding could part them."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.play.api import walk
from cardgen.play.dice import EDGE, count_index, deck_pick, draw_outcomes, pick, uniform_index, weighted_index

FAST = settings(max_examples=150, deadline=None)


def _sums(outcomes: list[tuple[int, float]]) -> list[float]:
    """The walk's running sums (its boundaries, as it computes them)."""
    acc, out = 0.0, []
    for _, p in outcomes:
        acc += p
        out.append(acc)
    return out


def _near(sums: list[float], k: int, ulps: int) -> float:
    """A value ``ulps`` representable steps from the ``k``-th running sum, kept in [0, 1)."""
    r = sums[k % len(sums)]
    step = math.inf if ulps > 0 else -math.inf
    for _ in range(abs(ulps)):
        r = math.nextafter(r, step)
    return min(max(r, 0.0), math.nextafter(1.0, 0.0))


def _uniform(n: int) -> list[tuple[int, float]]:
    return [(i, 1.0 / n) for i in range(n)]


def _weighted(weights: list[int]) -> list[tuple[int, float]]:
    total = sum(weights)
    return [(i, w / total) for i, w in enumerate(weights) if w > 0]


@FAST
@given(st.integers(1, 400), st.floats(0.0, 1.0, exclude_max=True))
def test_uniform_index_is_the_walks(n: int, r: float) -> None:
    i = uniform_index(r, n)
    assert i is None or i == walk(_uniform(n), r)


@FAST
@given(st.integers(1, 400), st.integers(0, 10**6), st.integers(-4, 4))
def test_uniform_index_at_the_boundaries(n: int, k: int, ulps: int) -> None:
    outs = _uniform(n)
    r = _near(_sums(outs), k, ulps)
    i = uniform_index(r, n)
    assert i is None or i == walk(outs, r)
    if ulps == 0 and k % n < n - 1:
        assert i is None            # exactly on a boundary: never guessed


weights = st.lists(st.integers(-2, 40), min_size=1, max_size=60).filter(lambda ws: sum(ws) > 0)


@FAST
@given(weights, st.floats(0.0, 1.0, exclude_max=True))
def test_weighted_index_is_the_walks(ws: list[int], r: float) -> None:
    i = weighted_index(r, ws, sum(ws))
    assert i is None or i == walk(_weighted(ws), r)


@FAST
@given(weights, st.integers(0, 10**6), st.integers(-4, 4))
def test_weighted_index_at_the_boundaries(ws: list[int], k: int, ulps: int) -> None:
    outs = _weighted(ws)
    r = _near(_sums(outs), k, ulps)
    i = weighted_index(r, ws, sum(ws))
    assert i is None or i == walk(outs, r)


@FAST
@given(weights, st.integers(0, 10**6), st.integers(-4, 4), st.booleans())
def test_count_index_is_the_walks(ws: list[int], k: int, ulps: int, inside: bool) -> None:
    """The counts read one by one (a deck's, without a list): the walk's index, or None."""
    outs = _weighted(ws)
    sums = _sums(outs)
    r = _near(sums, k, ulps) if not inside else (sums[k % len(sums)] - outs[k % len(outs)][1] / 2)
    i = count_index(r, iter(ws), sum(ws))
    assert i is None or i == walk(outs, r)
    if min(ws) >= 0:
        assert i == weighted_index(r, ws, sum(ws))


@FAST
@given(st.dictionaries(st.sampled_from("abcdefghijklmnop"), st.integers(0, 9), min_size=1),
       st.floats(0.0, 1.0, exclude_max=True))
def test_deck_pick_is_draw_outcomes_walk(deck: dict[str, int], r: float) -> None:
    outs = draw_outcomes("draw", Counter(deck))
    got = deck_pick(r, deck)
    if not outs:
        assert got is None
    else:
        assert got is None or got == walk(outs, r)["card"]


def test_away_from_boundaries_it_never_gives_up() -> None:
    """The fall-back is for r within EDGE of a boundary: 20,000 seeded draws never need it."""
    rng = random.Random(29)
    for _ in range(20_000):
        n = rng.randrange(1, 200)
        ws = [rng.randrange(0, 12) for _ in range(rng.randrange(1, 30))] + [1]
        r = rng.random()
        assert uniform_index(r, n) == walk(_uniform(n), r)
        assert weighted_index(r, ws, sum(ws)) == walk(_weighted(ws), r)
        assert count_index(r, iter(ws), sum(ws)) == walk(_weighted(ws), r)


def test_the_same_stream_plays_the_same() -> None:
    """A draw by index takes one rng.random(), as pick does: the streams stay in step."""
    a, b = random.Random(5), random.Random(5)
    deck = Counter({"x": 3, "y": 1, "z": 4})
    for _ in range(200):
        assert deck_pick(a.random(), deck) == pick(draw_outcomes("draw", deck), b)["card"]


def test_nothing_to_draw_and_too_many() -> None:
    assert uniform_index(0.5, 0) is None
    assert weighted_index(0.5, [0, 0], 0) is None
    assert weighted_index(0.5, [3, -1], 2) is None          # a negative count: the walk decides
    assert deck_pick(0.3, {}) is None
    assert count_index(0.9, iter([3, -1, 2]), 4) is None    # a negative count before r's: the walk decides
    assert uniform_index(0.5, 10**9) is None
    assert uniform_index(EDGE / 2, 1) is None and uniform_index(0.5, 1) == 0

"""Chance as outcomes with probabilities: dice, draws from a known composition, shuffles."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import accumulate
from typing import TypeVar

from cardgen.play.api import Action, walk

T = TypeVar("T")

#: How near (in ``r``) a boundary between two outcomes a draw may fall before a sampled index
#: gives up (None: the caller walks the listed outcomes instead). The walk's running sums stray
#: from the exact boundaries by rounding alone — under ``m``·2⁻⁵² for ``m`` outcomes — far below it.
EDGE = 1e-9
MAX_OUTCOMES = 100_000      #: beyond this many outcomes the rounding argument above is not made


def die_faces(sides: int) -> list[int]:
    return list(range(1, sides + 1))


def die_outcomes(kind: str, sides: int, field: str = "value", **fields: object) -> list[tuple[Action, float]]:
    """A fair d``sides``: each face an :class:`Action` ``kind(field=face, **fields)``."""
    p = 1.0 / sides
    return [(Action.make(kind, **fields, **{field: f}), p) for f in range(1, sides + 1)]


def draw_outcomes(kind: str, deck: Counter, field: str = "card", **fields: object) -> list[tuple[Action, float]]:
    """A draw from a deck of known composition: each distinct card with its share."""
    total = sum(deck.values())
    if total <= 0:
        return []
    return [(Action.make(kind, **fields, **{field: c}), n / total) for c, n in sorted(deck.items()) if n > 0]


@cache
def _sums(n: int) -> list[float]:
    """The walk's running totals over ``n`` equal outcomes, summed as it sums them (not ``k / n``)."""
    p, acc, out = 1.0 / n, 0.0, []
    for _ in range(n):
        acc += p
        out.append(acc)
    return out


def walk_index(n: int, r: float) -> int:
    """The index the walk gives ``r`` among ``n`` equal outcomes, exactly (its own totals bisected)."""
    return min(bisect_right(_sums(n), r), n - 1)


def off_die(value: object, sides: int) -> bool:
    """Whether ``value`` is no face of a d``sides`` (not a whole number, or outside 1–``sides``)."""
    return isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides


def die_slip(what: str, value: object, sides: int) -> str:
    """The message of a die a log records off its faces: "the d6 shows 7, but a d6 shows 1–6"."""
    return f"{what} shows {value!r}, but a d{sides} shows 1–{sides}"


def pick(outcomes: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """Sample one outcome (deterministic for a seeded ``rng``): one ``rng.random()``, walked."""
    return walk(outcomes, rng.random())


def index_below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (``n`` ≥ 1), drawn as a plain ``random.Random`` draws it — the fewest
    bits that hold ``n``, drawn again while the number is ``n`` or more — without ``randrange``'s
    checks and calls: the same index and the same draws (``tests/test_shortcuts.py`` holds the two
    side by side), for the loops that pick a random move millions of times. Another generator
    (a subclass) is asked its own ``randrange``."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    bits = rng.getrandbits
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same order and the same draws (each swap's index drawn as
    :func:`index_below` draws it, from the last place down), without a call per card — a
    search deals the unseen cards again on every playout. Another generator (a subclass)
    shuffles with its own ``shuffle``."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    bits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]


def exact(p: float) -> Fraction:
    """A probability as a fraction (for tests that sum outcomes)."""
    return Fraction(p).limit_denominator(10**6)


def uniform_index(r: float, n: int) -> int | None:
    """The index :func:`~cardgen.play.api.walk` falls on for ``r`` among ``n`` equally likely
    outcomes (each ``1.0 / n``, in their order) — computed, not walked — or None when ``r``
    lies within :data:`EDGE` of a boundary between two of them (the caller walks instead)."""
    if not 0 < n <= MAX_OUTCOMES:
        return None
    x = r * n
    i = int(x)
    f, tol = x - i, n * EDGE
    return i if tol <= f <= 1.0 - tol and i < n else None


def weighted_index(r: float, weights: Sequence[int], total: int) -> int | None:
    """The index the walk falls on for ``r`` over outcomes of integer weights, each listed with
    probability ``weight / total`` in this order (one of weight 0 is not listed: a draw's
    ``n > 0``) — a draw from a deck of counts without its list of outcomes — or None when ``r``
    lies within :data:`EDGE` of a boundary, beyond every outcome, or a weight is negative: the
    caller walks instead."""
    if total <= 0 or not weights or len(weights) > MAX_OUTCOMES or min(weights) < 0:
        return None
    sums = list(accumulate(weights))
    x = r * total
    i = bisect_right(sums, x)               # the first running sum above x: a weight > 0
    if i == len(sums):
        return None
    tol = total * EDGE
    return i if x - (sums[i - 1] if i else 0) >= tol and sums[i] - x >= tol else None


def count_index(r: float, counts: Iterable[int], total: int) -> int | None:
    """:func:`weighted_index` over counts read one by one, up to the one ``r`` falls on (a
    deck's counts need not be listed first): the same index, or None."""
    if total <= 0:
        return None
    x, tol = r * total, total * EDGE
    acc = 0
    for i, n in enumerate(counts):
        if n < 0 or i >= MAX_OUTCOMES:
            return None
        if n:
            acc += n
            if x < acc:
                return i if x - (acc - n) >= tol and acc - x >= tol else None
    return None


def deck_pick(r: float, deck: Mapping[str, int]) -> str | None:
    """The card :func:`draw_outcomes`' walk falls on for ``r`` (each card with ``n > 0`` in
    sorted order, with its share of the deck's total), or None near a boundary (walk instead)."""
    cards = sorted(deck)
    i = count_index(r, map(deck.__getitem__, cards), sum(deck.values()))
    return None if i is None else cards[i]

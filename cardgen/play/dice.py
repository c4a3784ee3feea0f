"""Chance as outcomes with probabilities: dice, draws from a known composition, shuffles."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import TypeVar

from cardgen.play.api import Action, walk

T = TypeVar("T")


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


def pick(outcomes: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """Sample one outcome (deterministic for a seeded ``rng``): one ``rng.random()``, walked."""
    return walk(outcomes, rng.random())


def exact(p: float) -> Fraction:
    """A probability as a fraction (for tests that sum outcomes)."""
    return Fraction(p).limit_denominator(10**6)

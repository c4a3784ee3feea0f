"""Hands that a log may partly hide: known cards counted, hidden ones only numbered."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import field
from itertools import accumulate

from cardgen.core.record import record
from cardgen.play.dice import shuffle

HIDDEN = "?"       #: a card the log leaves out (hidden information)


@record
class Hand:
    """A player's hand as the log reveals it: ``known`` cards by id and ``hidden`` unknowns."""

    known: Counter = field(default_factory=Counter)
    hidden: int = 0

    @property
    def size(self) -> int:
        return sum(self.known.values()) + self.hidden

    def add(self, card: str | None) -> None:
        if card is None or card == HIDDEN:
            self.hidden += 1
        else:
            self.known[card] = self.known.get(card, 0) + 1      # a Counter's __missing__ is a Python call

    def could_hold(self, card: str) -> bool:
        return self.known[card] > 0 or self.hidden > 0

    def take(self, card: str | None) -> bool:
        """Play ``card`` from the hand; a card not known to be there comes out of the hidden
        ones. False if the hand cannot have held it."""
        if card is None or card == HIDDEN:
            if self.hidden:
                self.hidden -= 1
                return True
            if self.known:
                c = next(iter(sorted(self.known)))
                self.known[c] -= 1
                if not self.known[c]:
                    del self.known[c]
                return True
            return False
        n = self.known.get(card, 0)
        if n > 0:
            if n > 1:
                self.known[card] = n - 1
            else:
                self.known.pop(card)
            return True
        if self.hidden > 0:
            self.hidden -= 1
            return True
        return False

    def cards(self) -> list[str]:
        return sorted(self.known.elements())

    def copy(self) -> Hand:
        return Hand(counts(self.known), self.hidden)


def counts(c: Counter) -> Counter:
    """A copy of ``c`` (``Counter(c)`` goes through ``update``'s checks: three times the cost)."""
    out: Counter = Counter.__new__(Counter)
    dict.update(out, c)
    return out


def redeal(pool: Counter, sizes: list[int], rng: random.Random) -> tuple[list[Counter], Counter]:
    """A determinization's deal: the cards of ``pool`` (sorted first, so two pools a player cannot
    tell apart deal alike) shuffled by ``rng`` and cut into piles of ``sizes``, each a Counter in
    card order; and the rest, in card order."""
    cards, ends = sorted(pool.elements()), list(accumulate(sizes))
    shuffle(rng, cards)
    piles = [Counter(sorted(cards[end - n:end])) for end, n in zip(ends, sizes, strict=True)]
    return piles, Counter(sorted(cards[ends[-1] if ends else 0:]))      # counted in card order

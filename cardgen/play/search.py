"""What a search agent may use: a :class:`View` of the position from one player's seat.

A plain agent (``package.Agent``) sees the observation and the legal actions. A search agent
(:class:`SearchAgent`) also needs positions to play ahead on; its :class:`View` hands out
copies of the game — for a game with hidden hands or decks, *determinizations*: copies in
which every card the player cannot see is dealt again, consistently with what they saw (the
game's ``determinize`` hook). The true state stays inside the view: a search agent decides on
what :meth:`View.sample` gives it, never on the state itself.
"""

from __future__ import annotations

import hashlib
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardgen.play.api import Action, GameState

#: An agent chooses among the legal actions from what its player may see.
Agent = Callable[[Mapping[str, Any], list[Action], random.Random], Action]
#: a game's hook: a position → each player's expected return in [0, 1] (a heuristic value of a
#: game not yet over, used where a search's playout stops short of the end)
Evaluate = Callable[[GameState], list[float]]
#: a game's hook: (state, player, rng) → a copy where the cards ``player`` cannot see are re-dealt
Determinize = Callable[[GameState, int, random.Random], GameState]


class View:
    """One player's view of a position, for search: the observation and sampled copies."""

    __slots__ = ("_state", "_determinize", "player")

    def __init__(self, state: GameState, player: int, determinize: Determinize | None):
        self._state, self._determinize, self.player = state, determinize, player

    @property
    def hidden(self) -> bool:
        """True when the game hides cards (its copies are determinizations)."""
        return self._determinize is not None

    def observation(self) -> Mapping[str, Any]:
        return self._state.observation(self.player)

    def sample(self, rng: random.Random) -> GameState:
        """A copy to search on: the state itself for a game without hidden information, else a
        determinization consistent with this player's observation."""
        if self._determinize is None:
            return self._state.clone()
        return self._determinize(self._state, self.player, rng)


class SearchAgent(ABC):
    """An agent that plays ahead on copies of the position (see :class:`View`)."""

    @abstractmethod
    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        """One of ``legal``, decided on ``view`` alone."""


def own_stream(rng: random.Random, seat: int) -> random.Random:
    """A generator of its own for the search agent at ``seat``, seeded from ``rng``'s state
    (read, never drawn from): the game's dice then do not depend on how much the search draws,
    so two agents compared on the same seeds face the same dice as far as their moves allow."""
    digest = hashlib.blake2b(repr((rng.getstate(), seat)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def shares(strength: Sequence[float], sharpness: float) -> list[float]:
    """Each player's chance to win from their strengths, for an ``evaluate`` hook: a softmax of
    ``sharpness`` × strength (two players: the logistic of the difference); equal strengths give
    equal shares, a large lead nears 1."""
    top = max(strength)
    w = [math.exp(sharpness * (x - top)) for x in strength]
    total = sum(w)
    return [x / total for x in w]

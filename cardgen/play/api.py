"""The game-state API every game's engine implements (see ``docs/engines.md``).

A :class:`GameState` is one position of one game: it knows the true hands and decks, says
who acts (a player index, :data:`CHANCE` or :data:`TERMINAL`), lists the legal actions of
the one to act — or, at a chance node, the outcomes with their probabilities — and moves on
when an action is applied. Actions are :class:`Action` values: an event kind and its fields,
the same vocabulary as the game's playtest log, so a played game *is* a log.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from cardgen.core.record import record

CHANCE = -1          #: current_player() at a chance node (a die, a draw, a shuffle)
TERMINAL = -4        #: current_player() once the game is over

T = TypeVar("T")


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A frozen field back as JSON-ready data: pairs of (name, value) become a mapping, other
    tuples lists (the inverse of how an :class:`Action` keeps its fields)."""
    if isinstance(value, tuple):
        if value and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in value):
            return {k: thaw(x) for k, x in value}
        return [thaw(x) for x in value]
    return value


@record(frozen=True)
class Action:
    """One choice (or chance outcome): an event kind and its fields, hashable.

    Fields are kept in their given order for the log; equality ignores that order.
    """

    kind: str
    items: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, kind: str, **fields: Any) -> Action:
        """An action with the given fields; fields that are None are left out."""
        return cls(kind, tuple((k, _freeze(v)) for k, v in fields.items() if v is not None))

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.items:
            if k == name:
                return v
        return default

    def __getitem__(self, name: str) -> Any:
        for k, v in self.items:
            if k == name:
                return v
        raise KeyError(name)

    def keys(self) -> Iterator[str]:
        return (k for k, _ in self.items)

    def with_fields(self, **fields: Any) -> Action:
        """A copy with fields added or replaced (None removes one)."""
        d = dict(self.items)
        for k, v in fields.items():
            if v is None:
                d.pop(k, None)
            else:
                d[k] = _freeze(v)
        return Action(self.kind, tuple(d.items()))

    def as_event(self) -> dict[str, Any]:
        """The action as a playtest-log event (JSON-ready: tuples become lists)."""
        return {"kind": self.kind, **{k: thaw(v) for k, v in self.items}}

    def key(self) -> tuple:
        """Order-independent identity (for membership tests against legal actions): made on
        first use and kept (a search hashes the same shared actions millions of times)."""
        d = self.__dict__
        k = d.get("_key")
        if k is None:
            k = d["_key"] = (self.kind, tuple(sorted(self.items)))
        return k

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Action):
            return False
        return self.kind == other.kind and (self.items == other.items or self.key() == other.key())

    def __hash__(self) -> int:
        d = self.__dict__
        h = d.get("_hash")
        if h is None:
            h = d["_hash"] = hash(self.key())
        return h

    def __reduce__(self) -> tuple[Any, ...]:
        # the fields alone: the kept key and hash stay behind (a string's hash differs from one
        # process to the next)
        return (Action, (self.kind, self.items))

    def __str__(self) -> str:
        return self.kind + "(" + ", ".join(f"{k}={v!r}" for k, v in self.items) + ")"


class Made(dict[Any, T]):
    """Actions (or tuples of them) made on first use, by a key (``make(key)`` builds the one not
    made yet): made once and shared by every state, so random play and search build none again."""

    def __init__(self, make: Callable[[Any], T]):
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> T:
        a = self[key] = self.make(key)
        return a


def walk(outcomes: Sequence[tuple[T, float]], r: float) -> T:
    """The outcome ``r`` (uniform in [0, 1)) falls on: the probabilities summed in order, the
    first whose running total passes ``r`` (the last, should rounding leave ``r`` beyond them)."""
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if r < acc:
            return outcome
    return outcomes[-1][0]


class GameState(ABC):
    """One position of a game. Subclasses implement the abstract methods.

    ``players`` are the seats' names in seat order; player indices refer to it.
    ``history`` is the list of applied actions (chance outcomes included), in order.
    """

    players: list[str]
    history: list[Action]

    # --- who acts, and what they may do ---------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The index of the player to act, :data:`CHANCE`, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every choice the rules allow the player to act now, and nothing else (empty at a
        chance node or when terminal). Deterministic order."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: each outcome with its probability (they sum to 1)."""
        return []

    def sample_chance(self, r: float) -> Action | None:
        """At a chance node: the outcome a uniform ``r`` in [0, 1) falls on, the outcomes laid end
        to end in :meth:`chance_outcomes`' order (:func:`walk`); None when there is none. Play
        and search sample chance through it. A game overrides it where listing every outcome
        costs (a draw from a big deck, a pair of dice) and must fall on exactly the outcome the
        walk would — the same seed plays the same game (``cardgen.testing`` checks it)."""
        outcomes = self.chance_outcomes()
        return walk(outcomes, r) if outcomes else None

    @abstractmethod
    def apply_action(self, action: Action) -> None:
        """Play ``action`` (a legal action, or a chance outcome) and move on."""

    # --- the end ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def returns(self) -> list[float]:
        """Per player: 1 for a win, 0 for a loss, a share for a draw/shared win (all 0 before
        the end)."""

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """The game's result as ``cardgen check`` reports it (``final``): winner, scores, HP…"""

    # --- what a player may see ----------------------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> Mapping[str, Any]:
        """What ``player`` may see: public state plus their own hidden cards, never another's."""

    # --- the game as a log ----------------------------------------------------------------
    @abstractmethod
    def log_header(self) -> dict[str, Any]:
        """The playtest-log header of this game's setup (``game``, ``players``…)."""

    def log_events(self) -> list[dict[str, Any]]:
        """The game so far as playtest-log events. By default the history, one event per
        action; a game whose log folds several actions into one event overrides it."""
        return [a.as_event() for a in self.history]

    def clone(self) -> GameState:
        """An independent copy. Override with a cheaper copy where speed matters."""
        return copy.deepcopy(self)

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

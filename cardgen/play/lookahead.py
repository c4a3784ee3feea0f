"""Reading a slip the way the rest of the log bears it out: the shared replay's look-ahead.

One wrong number in a log can often be read more than one way — a stated value the table wrote
wrong and then played on from the rules' value, or played on from as written; a die whose outcome
the table played the other way — and only the log's later events tell which. A contract whose
events may be read several ways (:class:`ReadsAhead`) keeps a :class:`LookAhead` over its log:
before it plays such an event it replays each reading on a copy (a copy of the state, and a copy
of the contract that reads the event that way: :meth:`ReadsAhead.read_as`) over the log's next
events, as far as the game says a look-ahead goes (e.g. to the end of a battle), counts the rules
they break, and follows the reading under which they break the fewest — the log as recorded on a
tie. One slip, one problem, wherever the slip lies.

The cost is bounded: a log's look-aheads replay at most :data:`PER_EVENT` events per event of
the log in all (a hostile log of one slip copied thousands of times stays linear); once that is
spent, every event is read as recorded. :func:`played` is the smaller look a contract takes
before it decides: a copy of the state with some actions played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast

from cardgen.play.api import Action, GameState
from cardgen.play.replay import GameRules, StateReferee

#: the events a log's look-aheads may replay, in all, per event of the log
PER_EVENT = 8

#: one reading to try: a fresh copy of the contract and of the state to replay it on
Reading = Callable[[], tuple[GameRules, GameState]]

S = TypeVar("S", bound=GameState)


def played(state: S, actions: Iterable[Action]) -> S | None:
    """A copy of ``state`` with ``actions`` played, to look at what they do (``state`` is left as
    it was); None when the state cannot take one of them at all (the replay names that one)."""
    c = cast(S, state.clone())
    try:
        for a in actions:
            c.apply_action(a)
    except Exception:  # noqa: BLE001 - an action the state cannot take at all: no copy to look at
        return None
    return c


class ReadsAhead(Protocol):
    """The optional hook of a :class:`~cardgen.play.replay.GameRules` whose events may be read
    more than one way. The game gives only its readings; the look-ahead is the play core's."""

    #: the log's look-ahead (where it stops: the game's ``stops`` given to it)
    look: LookAhead

    def read_as(self, reading: Mapping[str, Any]) -> GameRules:
        """A copy of this contract, in this replay's place in the log, that plays the next event
        under ``reading`` (``{}``: as recorded) and every later one as recorded (it looks no further
        ahead itself)."""
        ...


class LookAhead:
    """One log's look-ahead: the log's next events, up to the one ``stops`` says a look-ahead
    ends with, and what the look-aheads may still spend."""

    def __init__(self, stops: Callable[[Mapping[str, Any]], bool], per_event: int = PER_EVENT) -> None:
        self.stops = stops
        self.per_event = per_event
        #: the events the look-aheads may still replay (None: the log's length is not known)
        self.left: int | None = None
        self.spent = 0
        self._ahead: Iterator[Mapping[str, Any]] = iter(())
        self._window: list[dict[str, Any]] | None = []
        self._done = True               # the window read to its end

    def upcoming(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Before each event of the log: the events after it (read only as far as a look-ahead
        needs; the first time, all of them, which sets the budget)."""
        if self.left is None:
            events = list(events)
            self.left = self.per_event * (len(events) + 1)
        self._ahead, self._window = iter(events), None

    def window(self) -> list[dict[str, Any]]:
        """The log's next events, up to (and with) the one a look-ahead stops at."""
        return list(self.events())

    def events(self) -> Iterator[dict[str, Any]]:
        """The window's events one by one, read from the log only as far as they are asked for
        (and once per event of the log)."""
        if self._window is None:
            self._window, self._done = [], False
        i = 0
        while i < len(self._window) or not self._done:
            if i == len(self._window):
                e = next(self._ahead, None)
                if e is None:
                    self._done = True
                    break
                self._window.append(dict(e))
                self._done = self.stops(e)
            yield self._window[i]
            i += 1

    def choose(self, readings: Sequence[Reading], first: Sequence[Mapping[str, Any]] = ()) -> int:
        """The index of the reading under which ``first`` and the log's next events (its
        :meth:`window`) break the fewest rules: its first one, the log as recorded, on a tie — or
        when the look-aheads have spent what they may (reading the window is spent too)."""
        if len(readings) < 2 or (self.left is not None and self.left <= 0):
            return 0
        events = [*first, *self.window()]
        self._spend(len(events))
        best, cost = 0, None
        for i, make in enumerate(readings):
            rules, state = make()
            n = self.errors(rules, state, events, cost)
            if cost is None or n < cost:
                best, cost = i, n
        return best

    def read(self, rules: ReadsAhead, state: GameState, event: Mapping[str, Any],
             readings: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        """The reading of ``event`` (about to be played at ``state``) that the log's next events bear
        out best, each replayed from a copy of ``state`` under :meth:`ReadsAhead.read_as`."""
        def at(r: Mapping[str, Any]) -> Reading:
            return lambda: (rules.read_as(r), state.clone())
        return readings[self.choose([at(r) for r in readings], [dict(event)])] if readings else {}

    def _spend(self, n: int) -> None:
        self.spent += n
        if self.left is not None:
            self.left -= n

    def errors(self, rules: GameRules, state: GameState, events: Sequence[Mapping[str, Any]],
               cap: int | None = None) -> int:
        """The errors ``events`` make replayed from ``state`` through ``rules``, counted up to
        ``cap``; an event the reading cannot follow at all counts it and every later one."""
        ref = StateReferee.at(rules, state)
        n = 0
        for i, ev in enumerate(events):
            self._spend(1)
            try:
                n += sum(1 for r in ref.event(i, ev) if r.severity == "error")
            except Exception:  # noqa: BLE001 - a log this reading cannot follow at all: the worst
                return n + len(events) - i
            if cap is not None and n >= cap:
                break
        return n

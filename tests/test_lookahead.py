"""The play core's look-ahead (:mod:`cardgen.play.lookahead`) on a tiny made-up game, no real one:
a running tally whose log states the total after each addition. A stated total the rules do not
give can be read two ways — the table played on from it (as recorded), or from the rules' total
(not believed) — and the log's next events, up to the game's stop, decide: the reading under
which they break the fewest rules wins, the log as recorded on a tie; nothing past the stop is
read; and a hostile log's look-aheads stay within their budget."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from cardgen.play.api import Action, GameState
from cardgen.play.lookahead import PER_EVENT, LookAhead, played
from cardgen.play.replay import GameInfo, Rejection, StateReferee

#: the readings of a stated total the rules do not give: as recorded, or the rules' total played on
READINGS: tuple[dict[str, Any], ...] = ({}, {"believe": False})


class Tally(GameState):
    """One player adds 1–6 to a total."""

    def __init__(self) -> None:
        self.players, self.history, self.total = ["ann"], [], 0

    def current_player(self) -> int:
        return 0

    def legal_actions(self) -> list[Action]:
        return [Action.make("add", n=n) for n in range(1, 7)]

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        self.total += action["n"]

    def returns(self) -> list[float]:
        return [0.0]

    def result(self) -> dict[str, Any]:
        return {"total": self.total}

    def observation(self, player: int) -> Mapping[str, Any]:
        return {"total": self.total}

    def log_header(self) -> dict[str, Any]:
        return {"game": "tally"}


class TallyRules:
    """The tally's contract: its readings of a wrong stated total; ``end`` is where a look-ahead stops."""

    info = GameInfo("tally", 1, 1)

    def __init__(self) -> None:
        self.look = LookAhead(lambda e: e["kind"] == "end")
        self.reading: dict[str, Any] = {}
        self.next: dict[str, Any] | None = None     # a copy's reading of the first event it replays
        self.chosen: list[dict[str, Any]] = []      # the readings the look-ahead chose, in order

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        return Tally()

    def read_as(self, reading: Mapping[str, Any]) -> TallyRules:
        c = copy.copy(self)
        c.look, c.next, c.chosen = LookAhead(self.look.stops), dict(reading), []
        return c

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        assert isinstance(state, Tally)
        if event["kind"] == "end":
            return []
        if self.next is not None:                   # a copy: its reading, then every slip as recorded
            self.reading, self.next = self.next, {}
        elif event.get("total") not in (None, state.total + event["n"]):
            self.reading = dict(self.look.read(self, state, event, READINGS))
            self.chosen.append(self.reading)
        else:
            self.reading = {}
        return [Action.make("add", n=event["n"])]

    def why_not(self, state: GameState, action: Action) -> tuple[str, str]:
        return "T-ADD", f"{action['n']} is not 1–6"

    def claims(self, state: GameState, event: Mapping[str, Any]) -> tuple[str, str] | None:
        assert isinstance(state, Tally)
        stated = event.get("total")
        if event["kind"] == "end" or stated is None or stated == state.total:
            return None
        found = "T-TOT", f"the log says the total is {stated}, but the rules give {state.total}"
        if self.reading.get("believe", True):
            state.total = stated                    # as recorded
        return found


def _log(*steps: tuple[int, int] | str) -> list[dict[str, Any]]:
    return [{"kind": "end"} if s == "end" else {"kind": "add", "n": s[0], "total": s[1]} for s in steps]


def _check(events: list[dict[str, Any]], upcoming: Any = None) -> tuple[TallyRules, list[Rejection]]:
    """Replay ``events`` as ``cardgen check`` does: the log's later events given before each one."""
    rules = TallyRules()
    ref = StateReferee(rules, {})
    for i, ev in enumerate(events):
        rules.look.upcoming(upcoming(i) if upcoming is not None else iter(events[i + 1:]))
        ref.event(i, ev)
    return rules, ref.rejections


def test_the_reading_the_next_events_bear_out_best_wins() -> None:
    # 3 on top of 2 is 5, not 6; the table played on from 5: one slip, one problem
    rules, found = _check(_log((2, 2), (3, 6), (1, 6), (1, 7), "end"))
    assert rules.chosen == [{"believe": False}]
    assert [(r.step, r.rule) for r in found] == [(1, "T-TOT")]


def test_the_log_as_recorded_where_the_next_events_bear_out_every_reading_alike() -> None:
    rules, found = _check(_log((2, 2), (3, 6), "end"))
    assert rules.chosen == [{}]
    assert [(r.step, r.rule) for r in found] == [(1, "T-TOT")]
    # ... and where the table played on from the stated total, that too is the log as recorded
    rules, found = _check(_log((2, 2), (3, 6), (1, 7), "end"))
    assert rules.chosen == [{}] and [(r.step, r.rule) for r in found] == [(1, "T-TOT")]


def test_the_look_ahead_stops_where_the_game_says() -> None:
    events = _log((2, 2), (3, 6), "end", (1, 6), (1, 7))
    read: dict[int, list[int]] = {}                 # the later events read, by the event they were given to

    def upcoming(i: int) -> Iterator[dict[str, Any]]:
        for j in range(i + 1, len(events)):
            read.setdefault(i, []).append(j)
            yield events[j]

    rules, found = _check(events, upcoming)
    # what lies past the stop would say "not believed": it is not read, so the log as recorded
    assert rules.chosen[0] == {}
    assert read[1] == [2]                           # the look-ahead at the slip read up to the stop
    assert [(r.step, r.rule) for r in found][:1] == [(1, "T-TOT")]
    # without the stop the same log is read the other way
    assert _check(_log((2, 2), (3, 6), (1, 6), (1, 7)))[0].chosen == [{"believe": False}]


def test_a_hostile_log_stays_within_its_budget() -> None:
    events = _log((2, 2), *[(3, 99)] * 300)         # one slip copied 300 times, no stop
    rules, found = _check(events)
    assert len(found) == 300                        # every copy is its own slip
    look = rules.look
    assert look.left is not None and look.left <= 0
    # at most the budget, and one last look-ahead (each reading over the rest of the log) beyond it
    assert look.spent <= PER_EVENT * len(events) + (len(READINGS) + 1) * len(events)
    assert rules.chosen[-1] == {}                   # once it is spent, every slip is read as recorded


def test_played_is_a_look_at_a_copy() -> None:
    state = Tally()
    c = played(state, [Action.make("add", n=2), Action.make("add", n=3)])
    assert c is not None and c.total == 5 and c.history[-1] == Action.make("add", n=3)
    assert state.total == 0 and state.history == []          # the state itself is left as it was
    assert played(state, [Action.make("add", n=2), Action.make("add")]) is None    # one it cannot take
    assert state.total == 0

"""Boss Fight on the shared replay (:mod:`cardgen.play.replay`): the game's contract. A log's
event is the action it stands for, played as recorded; the table's rules name what it broke as
they play it (``docs/engines-boss_fight.md``, "The checker as a replay")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.content.playlog import Event
from cardgen.core.problems import Loc
from cardgen.games.boss_fight.game_state import BossFightState, blank
from cardgen.games.boss_fight.slips import Slip, Slips
from cardgen.games.boss_fight.table import Table
from cardgen.play.api import Action, GameState
from cardgen.play.replay import Finding, Findings, GameInfo


def _slips(state: BossFightState) -> Slips:
    assert isinstance(state.eng.ref, Slips)
    return state.eng.ref


def _named(found: list[Slip]) -> list[Finding]:
    """Each slip at its own place (the event's line, a field's, or an earlier draw's)."""
    return [Finding(rule, message, None, hint, at=loc) for rule, message, loc, hint in found]


class BossRules:
    """Boss Fight as a :class:`cardgen.play.replay.GameRules`."""

    #: a log's event is played as recorded; the table names what it broke (see the module docstring)
    plays_as_recorded = True

    def __init__(self, game: Game) -> None:
        self.game = game
        self.info = GameInfo.of(game, information="imperfect", utility="zero_sum")
        self.ctx: Any = None                        # the checker (header places, its referee), once bound
        self.state: BossFightState | None = None    # the table the header sets up
        self.index = -1                             # the log event being replayed

    def bind(self, ctx: Any) -> None:
        """The checker this contract replays a log for: its header's places, its referee."""
        self.ctx = ctx

    def _set_up(self, header: Mapping[str, Any]) -> BossFightState:
        if self.state is None:
            locs = dict(getattr(self.ctx, "header_locs", {}) or {})
            table = Table(self.game, dict(header), locs, Slips(True, getattr(self.ctx, "ref", None)))
            table.start()
            self.state = BossFightState(self.game, {"game": self.game.slug, **header}, table)
        return self.state

    def setup_problems(self, game: Game, header: Mapping[str, Any]
                       ) -> list[tuple[str, str, Loc | None, str | None]]:
        """What the header breaks (players, the builds' construction rules), each at its place."""
        found = _slips(self._set_up(header)).take()
        return [(rule, message, loc, hint) for rule, message, loc, hint in found]

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        return self._set_up(setup)

    def _event(self, event: Mapping[str, Any]) -> Event:
        """The log's own event (with its places) when a checker is bound, else one made of ``event``."""
        events = getattr(self.ctx, "events", None) or []
        ev = events[self.index] if 0 <= self.index < len(events) else None
        if ev is not None and ev.kind == event.get("kind"):
            return ev
        kind, n = str(event.get("kind")), self.index + 2
        return Event(self.index, kind, blank(kind, {k: v for k, v in event.items() if k != "kind"}),
                     Loc("<replay>", n, 1))

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        assert isinstance(state, BossFightState)
        self.index += 1
        _slips(state).found = []
        state.at = self._event(event)
        return [Action(str(event["kind"]), ())]

    def accepts(self, state: GameState, action: Action) -> bool:
        """Every event of a log is played as recorded: the table's rules judge an event while they
        play it, and :meth:`claims` names what it broke."""
        return True

    def why_not(self, state: GameState, action: Action) -> Findings:
        """The rules ``action`` breaks, played on a clone (the state is left as it was)."""
        assert isinstance(state, BossFightState)
        probe = state.clone()
        probe.eng.ref = Slips(True, getattr(self.ctx, "ref", None))
        probe.eng.ref.trace_lines = []
        probe.apply_action(action)
        return _named(_slips(probe).take())

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Findings | None:
        """What the event broke as the table played it: the rules of the play and the consequences
        it states (damage, Health, statuses, cells, the round's markers), each at its place."""
        assert isinstance(state, BossFightState)
        return _named(_slips(state).take())

    def finish(self, state: GameState) -> list[tuple[str, str]]:
        assert isinstance(state, BossFightState)
        state.eng.finish()
        return [(rule, message) for rule, message, _loc, _hint in _slips(state).take()]

    def final(self, state: GameState) -> dict[str, Any]:
        assert isinstance(state, BossFightState)
        return state.eng.final()

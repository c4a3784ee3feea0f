"""Biomechanic Dino Battles on the shared referee (:mod:`cardgen.play.replay`): the game's contract.
A log's event is the action it stands for, played as recorded; the table's rules name what it broke
as they play it (``docs/engines-dino_battles.md``, "Events ↔ actions")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.content.playlog import Event
from cardgen.core.problems import Loc
from cardgen.games.dino_battles.slips import Halt, Slips
from cardgen.games.dino_battles.state import DinoState
from cardgen.play.api import Action, GameState
from cardgen.play.replay import Finding, Findings, GameInfo


def _field(ev: Event | None, loc: Loc | None) -> str | None:
    """The event's field a slip is located at (None: the event as a whole)."""
    if ev is None or loc is None or loc == ev.loc:
        return None
    return next((k for k, at in ev.field_locs.items() if at == loc), None)


def _slips(eng: DinoState) -> Slips:
    assert isinstance(eng.ref, Slips)
    return eng.ref


def _named(state: DinoState) -> list[Finding]:
    """The rules the event the state last played broke, each at its field (or its own place: a
    move's die and total are judged when its answer comes, at the move's line)."""
    slips = _slips(state)
    found, slips.found = slips.found, []
    ev = state.at
    return [Finding(rule, message, _field(ev, loc), hint,
                    at=None if ev is None or loc is None or loc.line == ev.loc.line else loc)
            for rule, message, loc, hint in found]


class DinoRules:
    """Biomechanic Dino Battles as a :class:`cardgen.play.replay.GameRules`."""

    #: a log's event is played as recorded; the table names what it broke (see the module docstring)
    plays_as_recorded = True

    def __init__(self, game: Game) -> None:
        self.game = game
        self.info = GameInfo.of(game, information="imperfect", utility="zero_sum")
        self.ctx: Any = None                 # the checker's engine (header places, its trace), once bound
        self.table: DinoState | None = None  # the table the header sets up
        self.index = -1                      # the log event being replayed

    def bind(self, ctx: Any) -> None:
        """The checker this contract replays a log for: its header's places, its trace."""
        self.ctx = ctx

    def _locs(self) -> dict[str, Loc]:
        return dict(getattr(self.ctx, "header_locs", {}) or {})

    def _set_up(self, header: Mapping[str, Any]) -> DinoState:
        if self.table is None:
            ref = getattr(self.ctx, "ref", None)
            slips = Slips(True, getattr(ref, "trace", None), strict=bool(getattr(ref, "strict", False)))
            st = DinoState(self.game, dict(header), self._locs(), slips)
            try:
                st.start()
            except Halt:                   # --strict: the setup's first broken rule ends the check
                st.broken = True
            st.deal_in([{"name": s.name, "deck": s.deck_name} for s in st.sides], replaying=True)
            self.table = st
        return self.table

    def setup_problems(self, game: Game, header: Mapping[str, Any]
                       ) -> list[tuple[str, str, str | None, str | None]]:
        eng = self._set_up(header)
        locs = self._locs()
        out = []
        for rule, message, loc, hint in _slips(eng).found:
            key = next((k for k, at in locs.items() if at == loc), None)
            out.append((rule, message, key, hint))
        _slips(eng).found = []
        return out

    def playable(self, game: Game, header: Mapping[str, Any]) -> bool:
        eng = self._set_up(header)
        return not eng.broken and bool(eng.sides)

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        return self._set_up(setup)

    def _event(self, event: Mapping[str, Any]) -> Event | None:
        events = getattr(self.ctx, "events", None) or []
        ev = events[self.index] if 0 <= self.index < len(events) else None
        return ev if ev is not None and ev.kind == event.get("kind") else None

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        assert isinstance(state, DinoState)
        self.index += 1
        _slips(state).found = []
        state.at = self._event(event)
        fields = {k: v for k, v in event.items() if k != "kind"}
        return [Action.make(str(event["kind"]), **fields)]

    def why_not(self, state: GameState, action: Action) -> Findings:
        """The rules ``action`` breaks, tried on a clone (the state is left as it was)."""
        assert isinstance(state, DinoState)
        probe = state.clone()
        probe.ref = _slips(state).copy()
        probe.tracing = False
        probe.apply_action(action)
        return _named(probe)

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Findings | None:
        """What the event broke as the state played it: the rules of the play and the consequences
        it states (totals, damage, HP, sizes, the turn's markers), each at its field."""
        assert isinstance(state, DinoState)
        return _named(state)

    def finish(self, state: GameState) -> list[tuple[str, str]]:
        assert isinstance(state, DinoState)
        _slips(state).found = []           # the last event's own: named already
        state.finish()
        found = _slips(state).found
        _slips(state).found = []
        return [(rule, message) for rule, message, _loc, _hint in found]

    def final(self, state: GameState) -> dict[str, Any]:
        assert isinstance(state, DinoState)
        return state.final()

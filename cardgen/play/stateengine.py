"""``cardgen check`` over a game's one model: the shared replay as the checker's engine.

A game on the shared referee gives its package a :class:`~cardgen.play.replay.GameRules` (the
``rules`` entry of :class:`~cardgen.play.package.GamePackage`: loaded game → contract) and its
log vocabulary; :func:`state_engine` makes the engine ``cardgen check`` drives from them. No
game writes a referee class of its own: the rules live in the state, the contract translates
events into actions and names broken rules, and this module turns each rejection into a
problem at its event's line (the referee's ``allow``, ``--strict`` and trace included).

Optional hooks a contract may have beyond :class:`GameRules` (looked up by name, each with a
plain default here):

- ``bind(engine)``: the checker replaying this log (its ``header_locs``, ``events`` and referee's
  ``trace``), before any other hook: a contract whose rules write the trace as they apply;
- ``setup_problems(game, header) -> [(rule, message, header key, Loc or None[, hint])]``: the setup facts a
  header gets wrong that still let the game be played (e.g. a starting player who should not
  start); a header the game cannot be set up from at all raises ``LogError`` from ``new_state``;
- ``playable(game, header) -> bool``: False when the header's setup problems leave no table to
  play at all (e.g. no players): the events are then not replayed, as the referee's
  ``replayable`` says;
- ``describe(state, event) -> str | list[str] | None``: the trace line(s) of an event (``--trace``;
  lines after the first are written as given);
- ``finish(state) -> [(rule, message)]``: what the end of the log leaves wrong;
- ``final(state) -> dict``: the final claims ``expect`` is compared with (default:
  ``state.result()``);
- ``expect_rules(state) -> {claim: rule}``: the rule of an ``expect`` claim where the game's end
  decides it (e.g. a winner claimed where the rules call for a tie-break); default: the engine's
  ``EXPECT_RULES``.
- ``upcoming(events)``: before each event, the log's later events (an iterator, read only as far as
  needed): a game that follows the log's own markers may look ahead (was an event made out of turn,
  or does it start the next turn?);
- ``accepts(state, action) -> bool`` and ``why_not_all(state, action) -> [why]`` (see
  :class:`~cardgen.play.replay.StateReferee`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from cardgen.content.model import Game
from cardgen.content.playlog import Event, LogError
from cardgen.core.options import Opt
from cardgen.core.problems import Loc
from cardgen.play.api import GameState
from cardgen.play.referee import BaseEngine
from cardgen.play.replay import GameRules, StateReferee

#: a game's contract from its loaded game
RulesFactory = Callable[[Game], GameRules]


class StateEngine(BaseEngine):
    """Replays a log over the game's state through its contract (see the module docstring)."""

    RULES: ClassVar[RulesFactory]
    OWN_APPLY = True                    # every event goes to the contract, none to an on_<kind> method
    #: the rule an event after the end of the game breaks
    END_RULE: ClassVar[str] = "LOG-END"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.end_rule = type(self).END_RULE

    def start(self) -> None:
        self.rules: GameRules = type(self).RULES(self.game)
        bind = getattr(self.rules, "bind", None)
        if bind is not None:            # optional hook: the checker itself (the header's places, the trace)
            bind(self)
        hook = getattr(self.rules, "setup_problems", None)
        for rule, message, key, *hint in (hook(self.game, self.header) if hook else ()):
            at: Loc | None = key if isinstance(key, Loc) else (    # a place of its own (a build file's line)
                (self.header_locs.get(key) or self.header_locs.get(key.partition("[")[0])) if key else None)
            self.ref.violation(rule, message, at or self.header_locs.get("game"), hint[0] if hint else None)
        playable = getattr(self.rules, "playable", None)
        if playable is not None and not playable(self.game, self.header):
            self.replayable = False     # the setup problems above say why; no event is replayed
            return
        try:
            self.referee = StateReferee(self.rules, self.header)
        except LogError as e:           # a header the game cannot be set up from: at the header
            if e.loc is None:           # (at the header key the error names, e.g. ``players[1]``, if any)
                key = getattr(e, "key", None) or "players"
                e.loc = self.header_locs.get(key) or self.header_locs.get("game")
            raise

    @property
    def state(self) -> GameState:
        return self.referee.state

    def before(self, ev: Event) -> None:
        """The contract names an event after the end (its ``why_not`` at a terminal state)."""

    def apply(self, ev: Event) -> None:
        if not self.replayable:
            return
        event = {"kind": ev.kind, **ev.fields}
        upcoming = getattr(self.rules, "upcoming", None)
        if upcoming is not None:        # optional hook: the log's later events, read only as far as needed
            upcoming({"kind": e.kind, **e.fields} for e in self.ahead(ev))
        try:
            found = self.referee.event(ev.index, event)
        except LogError as e:           # a name the log gets wrong: at its event when the contract has no place
            if e.loc is None:
                e.loc = ev.loc
            raise
        for r in found:
            loc = r.at or (ev.at(r.field) if r.field else ev.loc)
            if r.severity == "error":
                self.ref.violation(r.rule, r.message, loc, r.hint)
            elif r.severity == "warning":
                self.ref.problems.warning(r.rule, r.message, loc, r.hint)
            else:
                self.ref.problems.note(r.rule, r.message, loc)
        describe = getattr(self.rules, "describe", None)
        text = describe(self.state, event) if describe else None
        lines = [text] if isinstance(text, str) else list(text or ())
        if lines:
            self._t(ev, lines[0])
            for line in lines[1:]:          # the event's further lines (a list from ``describe``)
                self.ref.trace(line)

    def finish(self) -> None:
        if not self.replayable:
            return
        hook = getattr(self.rules, "finish", None)
        for rule, message in (hook(self.state) if hook else ()):
            self.ref.violation(rule, message, None)
        by_end = getattr(self.rules, "expect_rules", None)
        if by_end is not None:
            self.EXPECT_RULES = {**type(self).EXPECT_RULES, **by_end(self.state)}

    def final(self) -> dict[str, Any]:
        referee = getattr(self, "referee", None)
        if referee is None:
            return {"winner": None}
        hook = getattr(self.rules, "final", None)
        return dict(hook(referee.state) if hook else referee.state.result())


def state_engine(name: str, rules: RulesFactory, header: Mapping[str, Opt],
                 events: Mapping[str, Mapping[str, Opt]], expect_rules: Mapping[str, str] | None = None,
                 end_rule: str = "LOG-END") -> type[StateEngine]:
    """The checker's engine of a game on the shared referee: its contract and its vocabulary."""
    attrs = {"RULES": staticmethod(rules), "HEADER": dict(header),
             "EVENTS": {k: dict(v) for k, v in events.items()}, "EXPECT_RULES": dict(expect_rules or {}),
             "END_RULE": end_rule, "__doc__": f"The checker of {name}: the shared replay over its state."}
    return type(f"{name}Engine", (StateEngine,), attrs)

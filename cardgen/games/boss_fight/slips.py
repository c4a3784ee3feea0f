"""Where Boss Fight's rules say what they find broken: quiet in play, collected in a log's replay.

The table applies every event as recorded and names each rule the event breaks on the way (the
rules and the naming are one code). :class:`Slips` is what it tells. While a game is played it
keeps nothing (the state's legal actions are the rules'); while a log is checked it collects
``(rule, message, loc, hint)`` for the contract to name, writes the table's trace into the
checker's, and keeps a stated value that is back in step after its slip silent (it is a
:class:`~cardgen.play.resync.ResyncReferee`: one slip, one problem). Under ``--strict`` the first
broken rule that the log does not ``allow`` ends the event where it is (:class:`Halt`).
"""

from __future__ import annotations

from cardgen.core.problems import Loc, Problems
from cardgen.play.referee import Referee
from cardgen.play.resync import ResyncReferee

#: a broken rule as the table names it: rule, message, where, hint
Slip = tuple[str, str, "Loc | None", "str | None"]


class Halt(Exception):
    """``--strict``: the first broken rule ends the event (and the check) where it is."""


class Slips(ResyncReferee):
    """What the table's rules find broken (see the module docstring)."""

    def __init__(self, replaying: bool = False, out: Referee | None = None) -> None:
        super().__init__(Problems(), dict(out.allowed) if out is not None else {},
                         bool(out is not None and out.strict))
        self.replaying = replaying
        self.found: list[Slip] = []
        self.tracing = out is not None
        if out is not None:
            self.trace_lines = out.trace_lines      # the table's trace is the checker's

    def violation(self, rule: str, message: str, loc: Loc | None, hint: str | None = None) -> None:
        if not self.replaying:
            return
        self.found.append((rule, message, loc, hint))
        if self.strict and rule not in self.allowed:
            raise Halt(rule)

    def trace(self, text: str) -> None:
        if self.tracing:
            self.trace_lines.append(text)

    def take(self) -> list[Slip]:
        """The slips named since the last call."""
        found, self.found = self.found, []
        return found

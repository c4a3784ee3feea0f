"""Where Boss Fight's rules say what they find broken: quiet in play, collected in a checked log
(one slip, one problem), ``--strict`` halting at the first one the log does not ``allow``
(``docs/engines-boss_fight.md``)."""

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

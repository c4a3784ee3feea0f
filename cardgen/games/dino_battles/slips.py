"""Where the table's rules say what they find broken: in play an :class:`EngineSlip` (a bug in the
legal actions); in a checked log collected, one slip one problem (``docs/engines-dino_battles.md``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgen.core.problems import Loc
from cardgen.play.dice import die_slip, off_die
from cardgen.play.resync import slip_settled

#: a broken rule as the table names it: rule, message, where, hint
Slip = tuple[str, str, "Loc | None", "str | None"]


class EngineSlip(Exception):
    """The state made an event its own rules reject: a bug in the legal actions."""


class Halt(Exception):
    """``--strict``: the first broken rule ends the event (and the check) where it is."""


class Slips:
    """What the table's rules find broken (see the module docstring)."""

    def __init__(self, replaying: bool = False, trace: Callable[[str], None] | None = None,
                 offsets: dict[Any, int] | None = None, strict: bool = False) -> None:
        self.replaying = replaying
        self.strict = strict
        self.found: list[Slip] = []
        self.offsets: dict[Any, int] = dict(offsets or {})
        self._trace = trace

    def copy(self) -> Slips:
        """A silent twin (no trace) with the same pending offsets: for a probe on a clone."""
        return Slips(self.replaying, None, self.offsets, self.strict)

    def violation(self, rule: str, message: str, loc: Loc | None, hint: str | None = None) -> None:
        if not self.replaying:
            raise EngineSlip(f"{rule}: {message} (event line {loc.line if loc else '?'})")
        self.found.append((rule, message, loc, hint))
        if self.strict:
            raise Halt(rule)

    def die(self, value: Any, sides: int, rule: str, loc: Loc | None, what: str = "die") -> bool:
        """A recorded die roll shows 1…sides; otherwise a slip of ``rule``."""
        if off_die(value, sides):
            self.violation(rule, die_slip(what, value, sides), loc)
            return False
        return True

    def in_step(self, what: str, stated: Any, computed: Any) -> bool:
        """Whether a stated value needs no report (a replay: back in step after its slip)."""
        return slip_settled(self.offsets, what, stated, computed) if self.replaying else stated == computed

    def claim(self, rule: str, what: str, stated: Any, computed: Any, loc: Loc | None) -> None:
        """A consequence the log states must equal the computed one."""
        if stated is not None and not self.in_step(what, stated, computed):
            self.violation(rule, f"the log says {what} is {stated!r}, but the rules give {computed!r}", loc)

    def unslipped(self, what: str, value: Any) -> Any:
        """``value`` of ``what`` as it would be without its last slip (None when none is pending)."""
        off = self.offsets.get(what)
        return None if off is None or not isinstance(value, int) else value - off

    def diverged(self, what: str, off: int) -> None:
        """A slip applied as recorded moved ``what`` by ``off`` without a statement of it."""
        if self.replaying and off:
            self.offsets[what] = self.offsets.get(what, 0) + off

    def back_in_step(self, what: str) -> None:
        self.offsets.pop(what, None)

    def trace(self, text: str) -> None:
        if self._trace is not None:
            self._trace(text)

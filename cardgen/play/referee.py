"""Replaying a playtest log over a game's engine: the referee, the engine base, the replay.

An engine (the ``engine`` of a game package, :class:`BaseEngine`) maps each log event onto
the game's state: it reports violations through the :class:`Referee` with the catalogue rule
whose condition failed, compares the consequences the log states with the computed ones, and
applies each event as recorded, then keeps in step with the log's own markers, so one slip
is one problem. Events and header fields are declared by the engine as typed options and
checked by the framework before the engine sees them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Protocol

from cardgen.content.model import Game
from cardgen.content.playlog import Event, LogError
from cardgen.core.options import Opt, check_value
from cardgen.core.problems import Loc, Problems
from cardgen.play.params import ParamError, Params


class StopReplay(Exception):
    """Raised in --strict mode at the first violation."""


class Referee:
    """Collects violations; turns allowed rules into notes; stops early in strict mode."""

    def __init__(self, problems: Problems, allowed: dict[str, str], strict: bool):
        self.problems = problems
        self.allowed = allowed
        self.strict = strict
        self.trace_lines: list[str] = []

    def violation(self, rule: str, message: str, loc: Loc | None, hint: str | None = None) -> None:
        if rule in self.allowed:
            self.problems.note(rule, f"{message} (allowed: {self.allowed[rule]})", loc)
            return
        self.problems.error(rule, message, loc, hint)
        if self.strict:
            raise StopReplay

    def die(self, value: Any, sides: int, rule: str, loc: Loc | None, what: str = "die") -> bool:
        """A recorded die roll shows 1…sides; otherwise a violation of ``rule``."""
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            self.violation(rule, f"{what} shows {value!r}, but a d{sides} shows 1–{sides}", loc)
            return False
        return True

    def claim(self, rule: str, what: str, stated: Any, computed: Any, loc: Loc | None) -> None:
        """A consequence the log states must equal the computed one."""
        if stated is not None and stated != computed:
            self.violation(rule, f"the log says {what} is {stated!r}, but the rules give {computed!r}", loc)

    def trace(self, text: str) -> None:
        self.trace_lines.append(text)

    def show_slips(self, ev: Event | None, n_problems: int, n_trace: int) -> None:
        """The problems found since ``n_problems``, each under the first trace line of the event
        that caused them (written since ``n_trace``), or at the end of the trace."""
        new = self.problems.items[n_problems:]
        if not new:
            return
        lines = self.trace_lines
        i = next((k for k in range(n_trace, len(lines)) if lines[k].startswith("L")), None)
        if i is None and ev is not None and ev.loc:
            lines.append(f"L{ev.loc.line:<4} {ev.kind}")
            i = len(lines) - 1
        at = len(lines) if i is None else i + 1
        lines[at:at] = [f"L{p.loc.line if p.loc else 0:<4}   ✗ {p.rule} {p.severity}: {p.message}" for p in new]


#: how an engine applies one kind of event: its method ``on_<kind>``, unbound
Handler = Callable[[Any, Event], None]


class _Sink(Protocol):
    def trace(self, text: str) -> None: ...


class ReadsRules:
    """What reads the rules' numbers while a log is checked (an engine, a game's table): each
    from ``params.yaml`` (see :mod:`cardgen.play.params`); a missing or mistyped one stops the
    check (``LOG-GAME``, exit 2) naming it, at the file."""

    params_file: Path
    p: Params

    def _read_rules(self, game: Game) -> None:
        self.params_file = game.rules_dir / "params.yaml"
        self.p = Params.of(game)

    def _param(self, *path: Any) -> Any:
        """``params.yaml`` value at ``path``; a missing one stops the check (exit 2) naming it."""
        try:
            return self.p.raw(".".join(str(k) for k in path))
        except ParamError as e:
            raise LogError("LOG-GAME", e.message, Loc(str(self.params_file), 1, 1),
                           "add it to the rules parameters") from None

    def _int(self, *path: Any) -> int:
        """A whole-number parameter."""
        try:
            return self.p.int(".".join(str(k) for k in path))
        except ParamError as e:
            raise LogError("LOG-GAME", e.message, Loc(str(self.params_file), 1, 1)) from None


class Traces:
    """What writes ``--trace`` lines: each under its event's log line, with the event's ``note``
    on its first line; nothing is formatted while ``tracing`` is off (a played state)."""

    ref: _Sink
    tracing = True
    _noted: Event | None = None

    def _t(self, ev: Event | None, text: str) -> None:
        """A trace line: the event's log line, the text, and (on its first line) the event's ``note``."""
        if not self.tracing:
            return
        where = f"L{ev.loc.line:<4}" if ev is not None and ev.loc else "     "
        note = ev.get("note") if ev is not None and ev is not self._noted else None
        if note:
            self._noted = ev
        self.ref.trace(f"{where} {text}" + (f"  [{note}]" if note else ""))


class BaseEngine(ReadsRules, Traces):
    """What every engine shares. Subclasses declare HEADER and EVENTS (typed options) and apply
    each kind of event with a method ``on_<kind>`` (a dash read as ``_``); the class's
    :attr:`HANDLERS` is the one table from kind to method, made — and checked complete — when the
    class is defined, so an event the engine declares but cannot apply fails at import, not in
    the middle of a log."""

    ref: Referee
    HEADER: dict[str, Opt] = {}
    EVENTS: dict[str, dict[str, Opt]] = {}
    EXPECT_RULES: dict[str, str] = {}
    #: event kind → the method that applies it (see the class's docstring)
    HANDLERS: ClassVar[dict[str, Handler]] = {}
    #: True for an engine whose ``apply`` takes every event its own way (also when it overrides
    #: ``apply`` and has no ``on_<kind>`` method at all)
    OWN_APPLY: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        own = cls.apply is not BaseEngine.apply and not any(n.startswith("on_") for n in dir(cls))
        if cls.OWN_APPLY or own:        # its own apply, and no on_<kind> method: it takes every event itself
            cls.HANDLERS = {}
            return
        table = {kind: getattr(cls, "on_" + kind.replace("-", "_"), None) for kind in cls.EVENTS}
        missing = sorted(k for k, fn in table.items() if not callable(fn))
        if missing:
            raise TypeError(f"{cls.__qualname__} declares events it has no on_<kind> method for: {missing}")
        cls.HANDLERS = {k: fn for k, fn in table.items() if callable(fn)}
    #: the event kinds the log being replayed holds (set by the replay before ``start``), so an
    #: engine knows which of its markers (round ends, turns) the log writes
    log_kinds: frozenset[str] = frozenset()

    def __init__(self, game: Game, header: dict[str, Any], header_locs: dict[str, Loc], ref: Referee):
        self.game = game
        self.params = game.params
        self.header = header
        self.header_locs = header_locs
        self.ref = ref
        self.over = False
        self.end_rule = "LOG-END"
        self.replayable = True      # False: the setup is too broken to replay (a violation says why)
        self.events: list[Event] = []   # the whole log's events (set by the replay): an engine may look
        #                                 ahead at the log's own markers to keep one slip one problem
        self._read_rules(game)

    def start(self) -> None:
        """Check the setup facts of the header."""

    def before(self, ev: Event) -> None:
        """Called before apply: no event may follow the end of the game."""
        if self.over:
            self.ref.violation(self.end_rule, f"event '{ev.kind}' after the game has ended", ev.loc)

    def ahead(self, ev: Event) -> list[Event]:
        """The log's events after ``ev`` (empty when the engine is fed events one by one)."""
        i = ev.index
        if 0 <= i < len(self.events) and self.events[i] is ev:
            return self.events[i + 1:]
        return []

    def apply(self, ev: Event) -> None:
        self.HANDLERS[ev.kind](self, ev)

    def finish(self) -> None:
        """Called after the last event."""

    def final(self) -> dict[str, Any]:
        return {"winner": None}

    def legal_next(self) -> list[str]:
        """Event kinds the current state accepts (for simulated playtests)."""
        return list(self.EVENTS)


def typed(value: Any, opt: Opt, loc: Loc | None, what: str) -> Any:
    """A value inside a free-form field of an event (a mapping of HP by name, a list of numbers)
    typed against ``opt``; one that is not is an unreadable log (``LOG-FIELD``, exit 2)."""
    where = loc if loc is not None else Loc("", 0, 0)
    probs = Problems()
    ok, v = check_value(value, opt, where, probs, what)
    if not ok:
        p = probs.errors[0]
        raise LogError("LOG-FIELD", p.message, p.loc or where)
    return v

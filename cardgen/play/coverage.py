"""Which catalogue rules a played game exercised — declared as data, never named in code.

A game's ``rules/<game>/params.yaml`` may carry ``simulate.coverage``: a list of triggers, each
naming one catalogue rule and what in a played game shows that rule came into play::

    simulate:
      coverage:
        - {rule: BOI-MID-5, action: tactical_move}            # an action of that kind
        - {rule: BOI-REC-1, event: "*", where: {stamina.*: 0}} # a log event with a field of that value
        - {rule: BOI-END-2, measure: shootout}                 # a measure the game reports (true, > 0)
        - {rule: BOI-MID-5, action: tactical_move, ruling: BOI-SETUP-2}

``ruling`` names a catalogue rule whose ruling (the project's decision where the seed is silent)
decides how often this one comes into play: the report quotes it beside a rule seldom or never
in play, saying it is the project's, not the seed's.

``action`` matches the kinds of the state's history (``*``: any kind), ``event`` the kinds of
its playtest-log events (a kind or a list of kinds); ``where`` holds dotted field paths (``*`` stands for any key or item)
and the value one of them must have. A rule is exercised as many times in a game as its
triggers match. :func:`read_triggers` checks the block (``SIM-COVERAGE`` at its file and line:
an unknown rule, an entry of the wrong shape); :func:`count` counts one finished game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.play.api import GameState
from cardgen.play.lookup import hint_for

RULE = "SIM-COVERAGE"
KEYS = ("rule", "action", "event", "measure", "where", "ruling")
ANY = "*"


@record(frozen=True)
class Trigger:
    rule: str
    action: tuple[str, ...] | None = None      # kinds (``*``: any)
    event: tuple[str, ...] | None = None
    measure: str | None = None
    where: tuple[tuple[str, Any], ...] = ()
    ruling: str | None = None     # a catalogue rule whose ruling decides how often this one comes into play


def loc_of(obj: Any, key: Any = None) -> Loc | None:
    """Where YAML read with positions put ``obj[key]`` (or ``obj``); duck-typed, so that the
    play core needs no YAML reader."""
    at = getattr(obj, "at", None)
    loc = at(key) if key is not None and callable(at) else getattr(obj, "loc", None)
    return loc if isinstance(loc, Loc) and loc.file else None


def _bad(problems: Problems, loc: Loc | None, file: Path, message: str, hint: str | None = None) -> None:
    problems.error(RULE, message, loc or Loc(str(file), 1, 1), hint)


def read_triggers(params: Mapping[str, Any], file: Path, known: Collection[str] | None,
                  problems: Problems) -> list[Trigger]:
    """The triggers of ``simulate.coverage`` (none when the block is absent); each mistake is one
    ``SIM-COVERAGE`` problem at its line, and that entry is left out."""
    block = params.get("simulate")
    entries = block.get("coverage") if isinstance(block, Mapping) else None
    if entries is None:
        return []
    if not isinstance(entries, list):
        _bad(problems, loc_of(block, "coverage"), file, "simulate.coverage must be a list of "
             "{rule, action | event | measure, where}")
        return []
    out = []
    for entry in entries:
        loc = loc_of(entry) or loc_of(entries)
        if not isinstance(entry, Mapping):
            _bad(problems, loc, file, f"a coverage entry is a mapping {{rule, action | event | measure}}, not {entry!r}")
            continue
        extra = [k for k in entry if k not in KEYS]
        rule = entry.get("rule")
        sources = [k for k in ("action", "event", "measure") if entry.get(k) is not None]
        where = entry.get("where") or {}
        if extra:
            _bad(problems, loc_of(entry, extra[0]) or loc, file, f"unknown key '{extra[0]}' in a coverage entry",
                 hint_for(str(extra[0]), KEYS))
        elif not isinstance(rule, str) or (known is not None and rule not in known):
            _bad(problems, loc_of(entry, "rule") or loc, file,
                 f"coverage names rule {rule!r}, which the game's catalogue does not hold", hint_for(str(rule), known or ()))
        elif "ruling" in entry and (not isinstance(entry["ruling"], str) or (known is not None and entry["ruling"] not in known)):
            _bad(problems, loc_of(entry, "ruling") or loc, file,
                 f"coverage of {rule}: ruling {entry['ruling']!r} names no rule of the game's catalogue",
                 hint_for(str(entry["ruling"]), known or ()))
        elif len(sources) != 1 or not (isinstance(entry["measure"], str) if sources[0] == "measure"
                                       else _kinds(entry[sources[0]]) is not None):
            _bad(problems, loc, file, f"coverage of {rule}: give exactly one of action, event (a kind or a list "
                 "of kinds) or measure (a name)")
        elif not isinstance(where, Mapping) or (where and sources[0] == "measure"):
            _bad(problems, loc_of(entry, "where") or loc, file,
                 f"coverage of {rule}: 'where' is a mapping of field paths to values, for an action or event")
        else:
            out.append(Trigger(rule, _kinds(entry.get("action")), _kinds(entry.get("event")), entry.get("measure"),
                               tuple((str(k), v) for k, v in where.items()), entry.get("ruling")))
    return out


def _kinds(value: Any) -> tuple[str, ...] | None:
    """An action/event entry's kinds: a name or a list of names (None when neither)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _values(obj: Any, path: list[str]) -> list[Any]:
    """The values at a dotted path (``*``: every key or item)."""
    if not path:
        return [obj]
    head, rest = path[0], path[1:]
    if isinstance(obj, Mapping):
        kids = list(obj.values()) if head == ANY else ([obj[head]] if head in obj else [])
    elif isinstance(obj, (list, tuple)):
        kids = list(obj) if head == ANY else ([obj[int(head)]] if head.isdigit() and int(head) < len(obj) else [])
    else:
        kids = []
    return [v for k in kids for v in _values(k, rest)]


def _matches(fields: Mapping[str, Any], where: tuple[tuple[str, Any], ...]) -> bool:
    return all(any(v == want for v in _values(fields, path.split("."))) for path, want in where)


def _measure(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return int(value > 0) if isinstance(value, float) else max(0, value)
    if isinstance(value, Mapping):
        return sum(_measure(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return len(value)
    return 0


def count(triggers: list[Trigger], state: GameState, measures: Mapping[str, Any]) -> dict[str, int]:
    """How many times each trigger's rule came into play in the finished game ``state``."""
    out: dict[str, int] = {t.rule: 0 for t in triggers}
    actions = [(a.kind, a.as_event()) for a in state.history] if any(t.action for t in triggers) else []
    events = [(str(e.get("kind")), e) for e in state.log_events()] if any(t.event for t in triggers) else []
    for t in triggers:
        if t.measure is not None:
            vs = _values(measures, t.measure.split("."))
            out[t.rule] += sum(_measure(v) for v in vs)
            continue
        kinds = (t.action if t.action is not None else t.event) or ()
        pool = actions if t.action is not None else events
        out[t.rule] += sum(1 for k, f in pool if (ANY in kinds or k in kinds) and _matches(f, t.where))
    return out

"""Playtest logs: YAML (by hand) or JSON Lines (by programs) → header, events, claims.

YAML form::

    game: <slug>              # a game folder under rules/
    rules_version: "1.0"
    players: [...]            # engine-specific header keys
    events:
      - {kind: <event kind>, player: ana, ...}
    expect: {winner: ...}
    allow:
      - {rule: <RULE-ID>, reason: "a house rule we tried this once"}

JSON Lines form: the first line is the header object (with ``game``), each further line
one event object (with ``kind``); a last line may be ``{"expect": …}`` or ``{"allow": …}``.
Unreadable logs raise :class:`LogError` (exit 2), never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import field
from pathlib import Path
from typing import Any

from cardgen.core import sources
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, YList, parse_yaml


class LogError(Exception):
    """The log cannot be read: bad YAML/JSON, wrong game, unknown event kind, missing field."""

    def __init__(self, rule: str, message: str, loc: Loc | None, hint: str | None = None):
        super().__init__(message)
        self.rule, self.message, self.loc, self.hint = rule, message, loc, hint


@record
class Event:
    index: int
    kind: str
    fields: dict[str, Any]
    loc: Loc
    field_locs: dict[str, Loc] = field(default_factory=dict)

    def at(self, name: str) -> Loc:
        return self.field_locs.get(name, self.loc)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]


@record
class PlayLog:
    path: Path
    header: dict[str, Any]
    header_locs: dict[str, Loc]
    events: list[Event]
    expect: dict[str, Any] | None
    expect_loc: Loc | None
    allow: list[dict[str, Any]]
    allow_locs: list[Loc]
    #: where each header key itself is written (``header_locs`` has its value, which may start a line
    #: later): a misspelt or unknown key is reported here
    header_key_locs: dict[str, Loc] = field(default_factory=dict)


def _from_ydict(d: YDict) -> tuple[dict, dict]:
    return dict(d), {k: d.at(k) for k in d}


def read(path: Path) -> PlayLog:
    try:
        with sources.named(path):          # the log itself is named by the user, wherever it lies
            text = sources.read_bytes(path, cap=sources.MAX_LOG_BYTES).decode("utf-8")
    except sources.SourceError as e:
        raise LogError("LOG-READ", f"cannot read the log: {e.message}", Loc(str(path), 1, 1)) from e
    except UnicodeDecodeError as e:
        raise LogError("LOG-READ", f"the log is not UTF-8 text ({e.reason} at byte {e.start})",
                       Loc(str(path), 1, 1)) from e
    if text.startswith("\ufeff"):
        text = text[1:]
    if path.suffix in (".jsonl", ".ndjson"):
        return _read_jsonl(path, text)
    problems = Problems()
    doc = parse_yaml(text, str(path), problems)
    errs = [p for p in problems if p.severity == "error"]
    if errs:
        p = errs[0]
        raise LogError("LOG-SYNTAX", p.message, p.loc or Loc(str(path), 1, 1))
    if not isinstance(doc, YDict):
        raise LogError("LOG-SYNTAX", "a playtest log must be a mapping with a header and 'events'",
                       Loc(str(path), 1, 1))
    events_raw = doc.get("events")
    if not isinstance(events_raw, YList):
        raise LogError("LOG-FIELD", "the log has no 'events' list", doc.loc)
    events = []
    for i, ev in enumerate(events_raw):
        if not isinstance(ev, YDict):
            raise LogError("LOG-EVENT", f"event {i + 1} must be a mapping with a 'kind'", events_raw.at(i))
        f, locs = _from_ydict(ev)
        events.append(Event(i, str(f.get("kind", "")), f, ev.loc, locs))
    header = {k: v for k, v in doc.items() if k not in ("events", "expect", "allow")}
    hlocs = {k: doc.at(k) for k in header}
    expect = doc.get("expect")
    allow = doc.get("allow") or []
    if not isinstance(allow, list):
        raise LogError("LOG-FIELD", "'allow' must be a list of {rule, reason}", doc.at("allow"))
    return PlayLog(path, header, hlocs, events, expect, doc.at("expect") if "expect" in doc else None,
                   list(allow), [allow.at(i) for i in range(len(allow))] if isinstance(allow, YList) else [],
                   {k: doc.key_at(k) for k in header})


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _read_jsonl(path: Path, text: str) -> PlayLog:
    header: dict | None = None
    events: list[Event] = []
    expect, expect_loc, allow, allow_locs = None, None, [], []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line, parse_constant=_no_constant)
        except json.JSONDecodeError as e:
            raise LogError("LOG-SYNTAX", f"invalid JSON: {e.msg}", Loc(str(path), n, e.colno)) from e
        except ValueError as e:         # an integer of more than 4,300 digits, NaN, Infinity
            raise LogError("LOG-SYNTAX", f"invalid JSON: {str(e)[:120]}", Loc(str(path), n, 1)) from e
        except RecursionError as e:
            raise LogError("LOG-SYNTAX", "invalid JSON: nested too deeply", Loc(str(path), n, 1)) from e
        if not isinstance(obj, dict):
            raise LogError("LOG-SYNTAX", "each line must be a JSON object", Loc(str(path), n, 1))
        loc = Loc(str(path), n, 1)
        if header is None:
            header = obj
            hloc = loc
            continue
        if "expect" in obj and "kind" not in obj:
            expect, expect_loc = obj["expect"], loc
        elif "allow" in obj and "kind" not in obj:
            if not isinstance(obj["allow"], list):
                raise LogError("LOG-FIELD", "'allow' must be a list of {rule, reason}", loc)
            allow = list(obj["allow"])
            allow_locs = [loc] * len(allow)
        else:
            events.append(Event(len(events), str(obj.get("kind", "")), obj, loc, {k: loc for k in obj}))
    if header is None:
        raise LogError("LOG-FIELD", "the log is empty: the first line must be the header", Loc(str(path), 1, 1))
    return PlayLog(path, header, {k: hloc for k in header}, events, expect, expect_loc, allow, allow_locs)

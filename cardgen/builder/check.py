"""The playtest checker: replay a log through a game's rules engine.

An engine (the ``engine`` of the game package ``cardgen.games.<game>``) is a state machine over the game's rules
YAML. The framework gives it the log header and the events one by one; the engine
reports violations through a :class:`Referee` and applies each event as recorded, so one
slip does not bury the rest. Events and header fields are declared by the engine as
typed options, and checked here before the engine sees them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardgen import gamehooks
from cardgen.content.catalogue import rule_titles
from cardgen.content.loader import load_game
from cardgen.content.model import Game
from cardgen.content.playlog import LogError, PlayLog, read
from cardgen.core import sources
from cardgen.core.options import MISSING, check_value
from cardgen.core.problems import Loc, Problem, Problems, did_you_mean, display_path, safe
from cardgen.core.record import record
from cardgen.core.yamlsrc import YList
from cardgen.play.referee import BaseEngine, Referee, StopReplay
from cardgen.play.resync import ResyncReferee


def _refused(probs: Problems, fallback: Loc) -> LogError:
    """The first problem of a field check as a LogError: a value of the wrong type is LOG-TYPE."""
    p = probs.errors[0]
    rule = "LOG-TYPE" if p.rule == "YAML-TYPE" else "LOG-FIELD"
    return LogError(rule, p.message, p.loc or fallback, p.hint)


def _empty_inside(value: Any, loc: Loc, what: str) -> None:
    """A null inside a field's lists and mappings (``hp: {ana: null}``) is no value: LOG-TYPE."""
    stack = [(value, loc, what)]
    while stack:
        v, at, name = stack.pop()
        if isinstance(v, dict):
            items = [(k, x, v.at(k) if hasattr(v, "at") else at, f"{name}[{k}]") for k, x in v.items()]
        elif isinstance(v, list):
            items = [(i, x, v.at(i) if hasattr(v, "at") else at, f"{name}[{i + 1}]") for i, x in enumerate(v)]
        else:
            continue
        for _k, x, xat, xname in items:
            if x is None:
                raise LogError("LOG-TYPE", f"{xname} is empty: give a value", xat)
            stack.append((x, xat, xname))


def _key_at(log: PlayLog, key: str) -> Loc | None:
    """Where a header key is written: its own line, not its value's (a block starts a line later)."""
    return log.header_key_locs.get(key) or log.header_locs.get(key)


def _check_shape(engine_cls: Any, log: PlayLog, slug: str) -> None:
    game_name = log.header.get("game")
    if game_name is None:
        raise LogError("LOG-GAME", f"the log header names no 'game' (this log was checked as '{slug}')",
                       Loc(str(log.path), 1, 1))
    if game_name != slug:
        raise LogError("LOG-GAME", f"the log is for game {game_name!r}, not '{slug}'",
                       log.header_locs.get("game", Loc(str(log.path), 1, 1)))
    # unknown keys first: a misspelt key is reported with its "did you mean", not as the
    # required key it was meant to be
    known = set(engine_cls.HEADER) | {"game", "rules_version", "notes", "date", "title"}
    for key in log.header:
        if key not in known:
            raise LogError("LOG-FIELD", f"unknown header key '{key}'", _key_at(log, key),
                           did_you_mean(key, known))
    probs = Problems()
    for key, opt in engine_cls.HEADER.items():
        if key not in log.header:
            if opt.required:
                # a misspelt key is the slip, not the key it stands for: name it, with the match
                typo = next((k for k in log.header if k not in known and did_you_mean(str(k), [key])), None)
                if typo is not None:
                    raise LogError("LOG-FIELD", f"unknown header key '{typo}'", _key_at(log, typo),
                                   did_you_mean(str(typo), [key]))
                raise LogError("LOG-FIELD", f"the log header lacks '{key}' ({opt.doc or opt.describe()})",
                               Loc(str(log.path), 1, 1))
            continue
        top = Loc(str(log.path), 1, 1)
        ok, v = check_value(log.header[key], opt, log.header_locs.get(key) or top, probs, f"header '{key}'")
        if not ok:
            raise _refused(probs, top)
        if opt.kind.typed:
            _empty_inside(v, log.header_locs.get(key) or top, f"header '{key}'")
        raw = log.header[key]
        if isinstance(raw, YList):      # keep each item's position: "players[1]" → its line
            for i in range(len(raw)):
                log.header_locs[f"{key}[{i}]"] = raw.at(i)
        log.header[key] = v
    for ev in log.events:
        spec = engine_cls.EVENTS.get(ev.kind)
        if spec is None:
            raise LogError("LOG-EVENT", f"unknown event kind {ev.kind!r} for {slug}", ev.loc,
                           did_you_mean(ev.kind, engine_cls.EVENTS) or f"known: {', '.join(engine_cls.EVENTS)}")
        for key in ev.fields:
            if key != "kind" and key not in spec and key not in ("note", "turn", "round"):
                raise LogError("LOG-FIELD", f"unknown field '{key}' in a '{ev.kind}' event", ev.at(key),
                               did_you_mean(key, spec))
        for key, opt in spec.items():
            if key not in ev.fields:
                if opt.required:
                    raise LogError("LOG-FIELD", f"'{ev.kind}' event lacks '{key}' ({opt.doc or opt.describe()})",
                                   ev.loc)
                ev.fields[key] = None if opt.default is MISSING else opt.default
                continue
            probs = Problems()
            ok, v = check_value(ev.fields[key], opt, ev.at(key), probs, f"'{key}' of a '{ev.kind}' event")
            if not ok:
                raise _refused(probs, ev.loc)
            if opt.kind.typed and isinstance(v, (dict, list)):
                _empty_inside(v, ev.at(key), f"'{key}' of a '{ev.kind}' event")
            ev.fields[key] = v


def replay(root: Path, slug: str, path: Path, strict: bool = False) -> tuple[Problems, dict, list[str]]:
    """Replay a log; returns (problems, final state, trace lines). Raises LogError if unreadable."""
    engine_cls = gamehooks.engine(slug)
    if engine_cls is None:
        raise LogError("LOG-GAME", f"cardgen check: not yet supported for {slug}", Loc(str(path), 1, 1))
    log = read(path)
    _check_shape(engine_cls, log, slug)
    problems = Problems()
    game = load_game(root, slug, problems)
    if game is None or problems.has_errors:
        raise LogError("LOG-GAME", f"the {slug} content has errors; run `cardgen validate {slug}`",
                       Loc(str(path), 1, 1))
    with sources.project(root), sources.beside(path):     # builds the log names beside itself
        return replay_log(game, engine_cls, log, strict)


def replay_log(game: Game, engine_cls: type[BaseEngine], log: PlayLog, strict: bool = False
               ) -> tuple[Problems, dict, list[str]]:
    """Replay a read and shape-checked log over a loaded game: (problems, final, trace)."""
    path, slug = log.path, game.slug
    problems = Problems()
    allowed, allow_at = {}, {}
    for i, a in enumerate(log.allow):
        at = log.allow_locs[i] if i < len(log.allow_locs) else Loc(str(path), 1, 1)
        if not isinstance(a, dict) or "rule" not in a or "reason" not in a:
            raise LogError("LOG-FIELD", "each 'allow' entry needs 'rule' and 'reason'", at)
        if not isinstance(a["rule"], str) or not isinstance(a["reason"], (str, int, float)):
            raise LogError("LOG-TYPE", "an 'allow' entry's 'rule' must be a rule ID and its 'reason' text", at)
        allowed[str(a["rule"])] = str(a["reason"])
        allow_at[str(a["rule"])] = at
    ref = ResyncReferee(problems, allowed, strict)
    where = Loc(str(path), 1, 1)
    try:
        engine = engine_cls(game, log.header, log.header_locs, ref)
        engine.events = log.events
        engine.log_kinds = frozenset(ev.kind for ev in log.events)
        marks = (0, 0)
        try:
            engine.start()
        finally:
            ref.show_slips(None, *marks)
        for ev in log.events:
            where = ev.loc
            marks = (len(problems.items), len(ref.trace_lines))
            try:
                engine.before(ev)
                engine.apply(ev)
            finally:
                ref.show_slips(ev, *marks)
        where = Loc(str(path), 1, 1)
        marks = (len(problems.items), len(ref.trace_lines))
        try:
            engine.finish()
        finally:
            ref.show_slips(None, *marks)
        final = engine.final()
    except StopReplay:
        final = engine.final()
    except (LogError, KeyboardInterrupt):
        raise
    except Exception as e:  # noqa: BLE001 - an engine bug must not become a traceback for the designer
        raise LogError("CHECK-INTERNAL", f"the {slug} checker failed on this event ({type(e).__name__}: {e}); "
                       "please report it with this log", where) from e
    if not engine.replayable:
        ref.trace("      the setup cannot be played out (see above): the events and 'expect' are not checked")
    elif log.expect is not None and not (strict and problems.has_errors):
        try:
            check_expect(engine, log, final, ref)
        except StopReplay:      # --strict: the first wrong claim ends the check
            pass
    if engine.replayable and not (strict and problems.has_errors):
        _unused_allows(allowed, allow_at, problems)
    return problems, final, ref.trace_lines


def _unused_allows(allowed: dict[str, str], allow_at: dict[str, Loc], problems: Problems) -> None:
    """An ``allow`` entry that no event of the log needed: a mistyped rule ID, or a stale entry."""
    used = {p.rule for p in problems.items if p.severity == "note"}
    for rule, reason in allowed.items():
        if rule not in used:
            problems.warning(rule, f"allowed ({reason}), but the log never breaks {rule}: is the rule ID right?",
                             allow_at[rule])


def check_expect(engine_cls: Any, log: PlayLog, final: dict, ref: Referee) -> None:
    """The final claims of the log (`expect`) against the final state. ``engine_cls`` is the engine
    (or its class): its ``EXPECT_RULES`` name the rule of each claim, and an engine may set them
    for the game it replayed (e.g. a winner claimed where the rules call for a tie-break)."""
    exp = log.expect
    loc = log.expect_loc
    if not isinstance(exp, dict):
        raise LogError("LOG-FIELD", "'expect' must be a mapping", loc or Loc(str(log.path), 1, 1))
    for key, claimed in exp.items():
        kloc = exp.at(key) if hasattr(exp, "at") else loc
        rule = engine_cls.EXPECT_RULES.get(key, "LOG-EXPECT")
        if key not in final:
            raise LogError("LOG-FIELD", f"'expect' claims '{key}', which the checker does not compute", kloc,
                           did_you_mean(key, final))
        actual = final[key]
        if isinstance(claimed, dict) and isinstance(actual, dict):
            for side, vals in claimed.items():
                if side not in actual:
                    ref.violation(rule, f"expect: no side '{side}' in the final state", kloc,
                                  did_you_mean(str(side), actual))
                    continue
                if isinstance(vals, dict) and isinstance(actual[side], dict):
                    for k, v in vals.items():
                        if actual[side].get(k) != v:
                            ref.violation(engine_cls.EXPECT_RULES.get(k, rule),
                                          f"expect: {side} {k} is {actual[side].get(k)!r}, not {v!r}", kloc)
                elif actual[side] != vals:
                    ref.violation(rule, f"expect: {key} of {side} is {actual[side]!r}, not {vals!r}", kloc)
        elif claimed != actual:
            ref.violation(rule, f"expect: {key} is {actual!r}, not {claimed!r}", kloc)


@record(frozen=True)
class CheckOutput:
    """What ``cardgen check`` prints: its exit code (0 legal, 1 violations, 2 unreadable), its
    standard output and its standard error. The builder prints nothing: the caller writes them."""

    code: int
    stdout: str
    stderr: str


def check_output(root: Path, slug: str, path: Path, strict: bool, trace: bool, fmt: str) -> CheckOutput:
    """The ``cardgen check`` command's outcome, as text (see :class:`CheckOutput`)."""
    try:
        problems, final, lines = replay(root, slug, path, strict)
    except LogError as e:
        where = f"{e.loc}" if e.loc else display_path(str(path))
        if fmt == "json":
            return CheckOutput(2, json.dumps({"problems": [{"rule": e.rule, "severity": "error", "file": display_path(str(path)),
                                                           "line": e.loc.line if e.loc else 0,
                                                           "column": e.loc.col if e.loc else 0, "message": e.message,
                                                           **({"hint": e.hint} if e.hint else {}),
                                                           **({"title": t} if (t := rule_titles(root).get(e.rule)) else {})}],
                                             "final": None}, ensure_ascii=False) + "\n", "")
        line = Problem(e.rule, "error", e.message, e.loc, e.hint).text()
        return CheckOutput(2, "", (line if e.loc else f"{safe(where)}{line[len('-:0:0'):]}") + "\n")
    code = 1 if problems.has_errors else 0
    if fmt == "json":
        titles = rule_titles(root)
        doc = {"problems": [p.as_dict(titles) for p in problems.sorted()], "final": final}
        if trace:
            doc["trace"] = lines
        return CheckOutput(code, json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n", "")
    out = [safe(ln) for ln in lines] if trace else []
    out += [p.text() for p in problems.sorted()]
    out.append(f"final: {json.dumps(final, ensure_ascii=False, default=str)}")
    n = len(problems.errors)
    return CheckOutput(code, "\n".join(out) + "\n", (f"{n} violation(s)" if n else "legal: no violations") + "\n")

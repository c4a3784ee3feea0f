"""Shared helpers for the playtest-checker tests (tests/test_check_*.py): writing and editing
logs, running ``cardgen check GAME LOG``, re-serialising a log as JSON Lines, the engine as a
state machine, a hypothesis strategy that breaks legal logs, and the assertions every game's
checker tests make (the rule break and its legal twin, allow, --strict, unreadable logs, replay
properties). Each takes the game's slug where it needs one; the per-game files keep their logs,
their cases and thin tests that call these."""

from __future__ import annotations

import bisect
import json
import re
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import strategies as st

from cardgen.builder import check as checker
from cardgen.builder.check import Referee, replay
from cardgen.cli import main
from cardgen.content.loader import load_game
from cardgen.content.playlog import LogError, read
from cardgen.core.problems import Problems
from tests.conftest import ROOT, has_problem, run_cli

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

CUT_MAX = 200   # a cut of this many events or more keeps the whole log, expect and all


# -- logs as text -----------------------------------------------------------------------------

def load(text: str) -> dict:
    return yaml.load(text, Loader=_Loader)


def dump(doc: dict) -> str:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


def write(tmp: Path, text: str, name: str = "log.yaml", files: dict[str, str] | None = None) -> Path:
    """Write a log to ``tmp/name``, with the files it names beside it (decks, builds)."""
    for other, content in (files or {}).items():
        (tmp / other).write_text(content, encoding="utf-8")
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return p


def line_of(text: str, needle: str, start: int = 0) -> int:
    """The 1-based line of the first ``needle`` from ``start`` on."""
    return text[: text.index(needle, start)].count("\n") + 1


def errors(problems: list[dict]) -> list[dict]:
    return [p for p in problems if p["severity"] == "error"]


def edited(base: str, old: str, new: str) -> tuple[str, int]:
    """Replace ``old`` (which occurs once) by ``new``; returns the new text and where the edit starts."""
    assert base.count(old) == 1, f"{old!r} must occur once"
    return base.replace(old, new), base.index(old)


def edit(text: str, old: str, new: str, at: str | None = None) -> tuple[str, int]:
    """Replace ``old`` (once) by ``new``; returns the new text and the line of ``at``
    (default: the first line of ``new``) in it."""
    assert text.count(old) == 1, old
    start = text.index(old)                 # the text before the edit is unchanged
    out = text[:start] + new + text[start + len(old):]
    at = at if at is not None else new.splitlines()[0]
    idx = out.find(at, start)
    idx = idx if idx >= 0 else out.index(at)
    return out, out[:idx].count("\n") + 1


def ev(s: str) -> str:
    """One event line of a YAML log: ``ev("kind: draw")`` → ``  - {kind: draw}``."""
    return "  - {" + s + "}\n"


def to_jsonl(text: str) -> str:
    """A YAML log re-serialised as JSON Lines (header, events, expect, allow)."""
    doc = load(text)
    head = {k: v for k, v in doc.items() if k not in ("events", "expect", "allow")}
    lines = [json.dumps(head, default=str)] + [json.dumps(e, default=str) for e in doc.get("events") or []]
    if doc.get("expect") is not None:
        lines.append(json.dumps({"expect": doc["expect"]}, default=str))
    if doc.get("allow"):
        lines.append(json.dumps({"allow": doc["allow"]}, default=str))
    return "\n".join(lines) + "\n"


# -- running the checker ----------------------------------------------------------------------

def check(game: str, path: Path, *extra: str, root: Path = ROOT) -> tuple[int, list[dict], dict | None]:
    """``cardgen check GAME PATH --format json`` through the CLI: exit code, problems, final state."""
    code, out = run_cli("check", game, str(path), "--format", "json", *extra, root=root)
    doc = json.loads(out)
    return code, doc["problems"], doc["final"]


def run_quiet(game: str, path: Path, strict: bool = False, fmt: str = "json",
              trace: bool = True) -> tuple[int, str, str]:
    """The checker in process (no CLI), its output captured: exit code, stdout, stderr."""
    done = checker.check_output(ROOT, game, path, strict=strict, trace=trace, fmt=fmt)
    return done.code, done.stdout, done.stderr


def cached_game_fixture(slug: str, autouse: bool = False):
    """A module-scoped ``cached_game`` fixture: the game loaded once and handed to the checker for
    every run under the project's root (the engine never changes it); other roots load their own."""

    @pytest.fixture(scope="module", autouse=autouse, name="cached_game")
    def cached_game():
        game = load_game(ROOT, slug, Problems())
        real = checker.load_game
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(checker, "load_game", lambda root, s, problems: game if Path(root) == ROOT and s == slug
                       else real(root, s, problems))
            yield game

    return cached_game


def labelled(path: Path, problems: list[dict], messages: bool = False) -> list[tuple]:
    """Problems with their place as header / event index / expect, the same in both forms
    (with their messages when ``messages``)."""
    log = read(path)
    starts = [e.loc.line for e in log.events]
    exp = log.expect_loc.line if log.expect_loc else None
    out = []
    for p in problems:
        line = p["line"]
        if exp is not None and line >= exp:
            where: object = "expect"
        elif starts and line >= starts[0]:
            where = max(i for i, s in enumerate(starts) if s <= line)
        else:
            where = "header"
        out.append((p["rule"], p["severity"], where) + ((p["message"],) if messages else ()))
    return sorted(out, key=str)


def replayed(game: str, path: Path, builds: bool = False) -> tuple[int, list[tuple], dict | None]:
    """(exit code, problems as (rule, severity, event index or 'head'/'end', message), final).
    With ``builds`` (logs that name other files), problems outside the log are placed at 'build',
    and line numbers in a read error's message are masked too."""
    try:
        probs, final, _ = replay(ROOT, game, path)
    except LogError as e:
        return 2, [(e.rule, re.sub(r"line \d+", "line N", e.message) if builds else e.message)], None
    log = read(path)
    starts = [e.loc.line for e in log.events]
    end = log.expect_loc.line if log.expect_loc is not None else None

    def where(p):
        line = p.loc.line if p.loc else 0
        if builds and (p.loc is None or Path(p.loc.file).name != path.name):
            return "build"
        if not starts or line < starts[0]:
            return "head"
        if end is not None and line >= end - 1 and line > starts[-1]:
            return "end"
        return bisect.bisect_right(starts, line) - 1

    out = [(p.rule, p.severity, where(p), re.sub(r"line \d+", "line N", p.message)) for p in probs]
    return (1 if probs.has_errors else 0), sorted(out, key=str), final


# -- the engine as a state machine ------------------------------------------------------------

def replay_engine(engine: type, game, slug: str, path: Path) -> tuple[object, list[tuple[str, list[str]]]]:
    """Feed a log's events one by one; returns the engine and (kind, legal_next before it) for each."""
    log = read(path)
    checker._check_shape(engine, log, slug)
    eng = engine(game, log.header, log.header_locs, Referee(Problems(), {}, False))
    eng.start()
    seen = []
    for e in log.events:
        seen.append((e.kind, eng.legal_next()))
        eng.before(e)
        eng.apply(e)
    return eng, seen


def assert_every_event_was_legal(seen: list[tuple[str, list[str]]]) -> None:
    for i, (kind, legal) in enumerate(seen):
        assert kind in legal, (i, kind, legal)


# -- fuzzing ----------------------------------------------------------------------------------

def set_header(keys: list[str], values: st.SearchStrategy) -> Callable:
    """A ``header`` mutation for ``mutated``: one of ``keys`` set to a drawn value."""
    def header(draw, doc: dict) -> None:
        doc[draw(st.sampled_from(keys))] = draw(values)
    return header


@st.composite
def mutated(draw, texts: list[str], ops: list[str], *, steps: int = 4, values: st.SearchStrategy,
            fields: Iterable[str] = (), kinds: Iterable[str] = (), events: dict | None = None,
            header: Callable | None = None, expect_keys: Iterable[str] = ()) -> dict:
    """One of ``texts`` broken by 1 to ``steps`` edits drawn from ``ops`` (repeat one to weigh it):
    drop, dup, swap (with the next event), swap_any (with any event), move, set (any of ``fields``),
    field (a field the event has), add (a field its kind takes, from ``events``), del, kind (one of
    ``kinds``), header (``header(draw, doc)``), expect (keys from ``expect_keys``)."""
    doc = load(draw(st.sampled_from(texts)))
    evs = doc["events"]
    for _ in range(draw(st.integers(1, steps))):
        op = draw(st.sampled_from(ops))
        if not evs:
            break
        i = draw(st.integers(0, len(evs) - 1))
        if op == "drop":
            evs.pop(i)
        elif op == "dup":
            evs.insert(i, dict(evs[i]))
        elif op == "swap" and i + 1 < len(evs):
            evs[i], evs[i + 1] = evs[i + 1], evs[i]
        elif op == "swap_any":
            j = draw(st.integers(0, len(evs) - 1))
            evs[i], evs[j] = evs[j], evs[i]
        elif op == "move":
            evs.insert(draw(st.integers(0, len(evs) - 1)), evs.pop(i))
        elif op == "set":
            evs[i][draw(st.sampled_from(sorted(fields)))] = draw(values)
        elif op == "field":
            keys = [k for k in evs[i] if k != "kind"]
            if keys:
                evs[i][draw(st.sampled_from(keys))] = draw(values)
        elif op == "add":
            spec = (events or {}).get(evs[i]["kind"], {})
            if spec:
                evs[i][draw(st.sampled_from(sorted(spec)))] = draw(values)
        elif op == "del":
            keys = [k for k in evs[i] if k != "kind"]
            if keys:
                evs[i].pop(draw(st.sampled_from(keys)))
        elif op == "kind":
            evs[i]["kind"] = draw(st.sampled_from(list(kinds)))
        elif op == "header" and header is not None:
            header(draw, doc)
        elif op == "expect":
            doc["expect"] = draw(st.dictionaries(st.sampled_from(list(expect_keys)), values, max_size=2))
    return doc


def replay_in_form(game: str, tmp: Path, doc: dict, jsonl: bool, files: dict[str, str] | None = None,
                   builds: bool = False) -> tuple[int, list[tuple], dict | None]:
    """``replayed`` of a log document written as YAML or (``jsonl``) JSON Lines."""
    text = dump(doc)
    path = write(tmp, to_jsonl(text) if jsonl else text, "log.jsonl" if jsonl else "log.yaml", files)
    return replayed(game, path, builds)


def assert_the_checker_never_raises(game: str, doc: dict, form: str, strict: bool,
                                    files: dict[str, str] | None = None) -> None:
    """A (fuzzed) log in either form: exit 0, 1 or 2, an unreadable one at a line, the same code as text;
    never an engine failure (CHECK-INTERNAL)."""
    with tempfile.TemporaryDirectory() as d:
        y = write(Path(d), yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), "log.yaml", files)
        path = y
        if form == "jsonl":
            path = write(Path(d), to_jsonl(y.read_text(encoding="utf-8")), "log.jsonl")
        code, out, _ = run_quiet(game, path, strict=strict)
        assert code in (0, 1, 2), out
        doc_out = json.loads(out)
        if code == 2:
            assert doc_out["problems"][0]["line"] >= 1, doc_out["problems"]
        assert not any(p["rule"] == "CHECK-INTERNAL" for p in doc_out["problems"]), doc_out["problems"]
        code2, _, _ = run_quiet(game, path, strict=strict, fmt="text")
        assert code2 == code, (code2, code)


# -- replay properties --------------------------------------------------------------------------

def assert_a_prefix_replays_the_same(game: str, text: str, cut: float, legal: bool,
                                     files: dict[str, str] | None = None, messages: bool = False,
                                     trace_text: bool = False) -> None:
    """A log cut at ``cut`` (0–1) of its events, re-serialised as JSON Lines, replays as its YAML
    does (exit code, final state, problems by place, the trace: its length, or with ``trace_text``
    its lines but for the line numbers); a cut ``legal`` log stays legal."""
    doc = load(text)
    doc["events"] = doc["events"][: int(len(doc["events"]) * cut)]
    doc.pop("expect", None)
    with tempfile.TemporaryDirectory() as d:
        y = write(Path(d), yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), "log.yaml", files)
        j = write(Path(d), to_jsonl(y.read_text(encoding="utf-8")), "log.jsonl")
        cy, oy, _ = run_quiet(game, y)
        cj, oj, _ = run_quiet(game, j)
        dy, dj = json.loads(oy), json.loads(oj)
        assert cy == cj and dy["final"] == dj["final"], (cy, cj, dy["final"], dj["final"])
        ly, lj = labelled(y, dy["problems"], messages), labelled(j, dj["problems"], messages)
        assert ly == lj, (ly, lj)
        if trace_text:
            assert [t[6:] for t in dy["trace"]] == [t[6:] for t in dj["trace"]], (dy["trace"], dj["trace"])
        else:
            assert len(dy["trace"]) == len(dj["trace"]), (dy["trace"], dj["trace"])
        if legal:
            assert cy == 0, dy["problems"]


def assert_yaml_and_jsonl_replay_identically(game: str, tmp: Path, text: str, cut: int,
                                             files: dict[str, str] | None = None, builds: bool = False) -> None:
    """A log re-serialised as JSON Lines (whole, or cut after event ``cut``) replays identically."""
    d = load(text)
    d["events"] = d["events"][:cut]
    if cut < CUT_MAX:
        d.pop("expect", None)
    text = dump(d)
    ya = replayed(game, write(tmp, text, "log.yaml", files), builds)
    js = replayed(game, write(tmp, to_jsonl(text), "log.jsonl", files), builds)
    assert ya == js, (ya, js)


# -- what every game's checker tests assert -----------------------------------------------------

def assert_legal(code: int, problems: list[dict], notes: bool = False) -> None:
    """Exit 0 with no problem at all (with ``notes``: no error)."""
    if notes:
        assert code == 0 and errors(problems) == [], problems
    else:
        assert (code, problems) == (0, []), problems


def assert_break_and_twin(game: str, tmp: Path, base: str, rule: str, old: str, good: str, bad: str, at: str,
                          files: dict[str, str] | None = None, notes: bool = False) -> None:
    """``good`` in place of ``old`` is legal (``assert_legal``); ``bad`` in its place fails with ``rule``
    as the first error, on the line of the first ``at`` from the edit on ('^…': from the top)."""
    text_good, _ = edited(base, old, good)
    code, probs, _ = check(game, write(tmp, text_good, "good.yaml", files))
    assert_legal(code, probs, notes)
    text_bad, start = edited(base, old, bad)
    line = line_of(text_bad, at.lstrip("^"), 0 if at.startswith("^") or not bad else start)
    code, probs, _ = check(game, write(tmp, text_bad, "bad.yaml", files))
    assert code == 1, probs
    errs = errors(probs)
    first = min(errs, key=lambda p: (p["line"], p["column"]))
    assert (first["rule"], first["line"]) == (rule, line), errs
    assert all(p["file"].endswith("bad.yaml") for p in errs), errs


def assert_reported(code: int, problems: list[dict], rule: str, line: int, file_end: str = "log.yaml") -> None:
    """Exit 1 with ``rule`` among the errors at ``line`` (an allowed rule's note does not count)."""
    assert code == 1, problems
    assert has_problem(errors(problems), rule, file_end, line), (line, problems)


def assert_broken_at(game: str, tmp: Path, base: str, rule: str, old: str, new: str, at: str | None = None,
                     files: dict[str, str] | None = None) -> None:
    """``new`` in place of ``old`` (see ``edit``) is reported as ``rule`` at the line of ``at``."""
    text, line = edit(base, old, new, at)
    code, probs, _ = check(game, write(tmp, text, "log.yaml", files))
    assert_reported(code, probs, rule, line)


def allowing(text: str, rule: str, reason: str) -> str:
    """The log with an ``allow:`` entry for ``rule`` (before its ``expect:``)."""
    return text.replace("expect:", f"allow:\n  - {{rule: {rule}, reason: {reason}}}\nexpect:")


def assert_allow_makes_notes(game: str, tmp: Path, base: str, old: str, new: str, rule: str, reason: str,
                             files: dict[str, str] | None = None) -> None:
    """``new`` in place of ``old`` breaks ``rule``; with the rule allowed, every ``rule`` problem
    is a note that gives the reason."""
    text, _ = edited(base, old, new)
    _, probs, _ = check(game, write(tmp, allowing(text, rule, reason), "log.yaml", files))
    notes = [p for p in probs if p["rule"] == rule]
    assert notes and all(p["severity"] == "note" for p in notes), probs
    assert reason in notes[0]["message"], notes


def assert_strict_stops_at_the_first(game: str, path: Path, first: str, *later: str) -> None:
    """Without --strict the errors include ``first`` and ``later``; with it, only ``first``."""
    code, probs, _ = check(game, path)
    assert {p["rule"] for p in errors(probs)} >= {first, *later}, probs
    code, probs, _ = check(game, path, "--strict")
    assert code == 1 and [p["rule"] for p in errors(probs)] == [first], (code, probs)


def assert_strict_reports_one(game: str, path: Path, line: int) -> None:
    """With --strict: exit 1 and one problem, at ``line``."""
    code, probs, _ = check(game, path, "--strict")
    assert code == 1 and len(probs) == 1 and probs[0]["line"] == line, (code, line, probs)


def assert_text_output_names_the_line(game: str, path: Path, line: int, message: str) -> None:
    """The text output: exit 1, ``FILE:LINE:`` and the rule's message."""
    code, out = run_cli("check", game, str(path))
    assert code == 1, out
    assert f"{path.name}:{line}:" in out and message in out, out


def assert_unreadable_at(game: str, tmp: Path, base: str, old: str, new: str, rule: str, at: str,
                         files: dict[str, str] | None = None) -> None:
    """``new`` in place of the first ``old`` makes the log unreadable: exit 2 with no traceback, no
    final state, and ``rule`` first, at the line of ``at``."""
    assert old in base
    text = base.replace(old, new, 1)
    path = write(tmp, text, "log.yaml", files)
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", game, str(path)])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    code, probs, final = check(game, path)
    assert code == 2 and final is None, (code, final, probs)
    assert (probs[0]["rule"], probs[0]["line"]) == (rule, line_of(text, at)), probs


def assert_exit_2_at(game: str, path: Path, rule: str, line: int) -> None:
    """Exit 2 with ``rule`` at ``line`` first."""
    code, probs, _ = check(game, path)
    assert code == 2, probs
    assert probs[0]["rule"] == rule and probs[0]["line"] == line, probs


def assert_params_decide(game: str, root: Path, text: str, rule: str, files: dict[str, str] | None = None) -> None:
    """The log, checked against the game under ``root`` (its params.yaml edited), fails with ``rule``."""
    code, probs, _ = check(game, write(root, text, "log.yaml", files), root=root)
    assert code == 1 and any(x["rule"] == rule for x in probs), probs


def assert_reports_exactly(game: str, path: Path, want: set[tuple[str, str, int]]) -> dict | None:
    """Exit 1 with exactly the problems ``want`` as (rule, severity, line); returns the final state."""
    code, probs, final = check(game, path)
    assert code == 1, probs
    got = {(p["rule"], p["severity"], p["line"]) for p in probs}
    assert got == want, (got, want)
    return final


def assert_slips_are_marked(game: str, path: Path, marker: str, errors_only: bool = False) -> list[dict]:
    """An example of table slips: exit 1; each problem's line names its rule in a comment (with
    ``errors_only``, each error's), and the lines with a ``marker`` comment are the problems' lines.
    Returns the problems."""
    code, probs, _ = check(game, path)
    assert code == 1, probs
    text = path.read_text(encoding="utf-8").splitlines()
    for p in probs:
        if p["severity"] == "error" or not errors_only:
            assert p["rule"] in text[p["line"] - 1], (p, text[p["line"] - 1])
    marked = [i + 1 for i, ln in enumerate(text) if marker in ln]
    assert sorted({p["line"] for p in probs}) == marked, (marked, probs)
    return probs

"""The playtest checker framework, game-independent: reading logs (YAML, JSON Lines), typed
events, the referee (dice, claims, allow, strict), expect, output formats, and the JSON
Schemas generated from each engine (docs/schemas/<game>.schema.json)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from cardgen import gamehooks
from cardgen.builder.check import BaseEngine, Referee, StopReplay, _check_shape, check_output, replay
from cardgen.cli import main
from cardgen.content.playlog import LogError, read
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems
from cardgen.reference import logschema
from tests import checklogs
from tests.conftest import ROOT, run_cli

SLUG = "loot_battles"     # any game with content: the test engine below ignores its cards


class Dice(BaseEngine):
    """A toy game: players roll a d6 in turn; the first to reach the target wins."""

    HEADER = {"players": Opt("list", required=True, item=Opt("str"), doc="who plays"),
              "target": Opt("int", default=10, min=1, doc="the total that wins")}
    EVENTS = {"roll": {"player": Opt("str", required=True), "die": Opt("int", required=True),
                       "total": Opt("int", doc="stated total")},
              "stop": {}}
    EXPECT_RULES = {"winner": "T-WIN", "score": "T-SUM"}

    def start(self):
        self.end_rule = "T-END"
        self.score = {p: 0 for p in self.header["players"]}
        self.target = self.header.get("target") or 10
        self.winner = None

    def on_roll(self, ev):
        p = ev["player"]
        if p not in self.score:
            raise LogError("LOG-FIELD", f"no player {p!r}", ev.at("player"))
        if self.ref.die(ev["die"], 6, "T-DIE", ev.at("die")):
            self.score[p] += ev["die"]
        self.ref.claim("T-SUM", f"{p}'s total", ev["total"], self.score[p], ev.at("total"))
        self.ref.trace(f"{p} rolls {ev['die']}: {self.score[p]}")
        if self.score[p] >= self.target:
            self.winner, self.over = p, True

    def on_stop(self, ev):
        self.over = True

    def final(self):
        return {"winner": self.winner, "score": {p: {"total": v} for p, v in self.score.items()}}


@pytest.fixture
def dice_engine(monkeypatch):
    monkeypatch.setattr(gamehooks, "engine", lambda slug: Dice)
    return Dice


LOG = """\
game: loot_battles
rules_version: "1.0"
players: [ana, bo]
target: 8
events:
  - {kind: roll, player: ana, die: 5, total: 5}
  - {kind: roll, player: bo, die: 2}
  - kind: roll
    player: ana
    die: 4
    total: 9
expect:
  winner: ana
  score: {ana: {total: 9}, bo: {total: 2}}
"""


def write(tmp: Path, text: str, name: str = "log.yaml") -> Path:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return p


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def check(path: Path, *extra: str) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", SLUG, str(path), "--format", "json", *extra],
                             catch_exceptions=False)
    return res.exit_code, json.loads(res.stdout)


# -- reading logs ----------------------------------------------------------------------------

def test_yaml_log_has_header_events_and_positions(tmp_path):
    log = read(write(tmp_path, LOG))
    assert log.header["players"] == ["ana", "bo"] and log.header["target"] == 8
    assert [e.kind for e in log.events] == ["roll", "roll", "roll"]
    assert [e.loc.line for e in log.events] == [6, 7, 8]
    assert log.events[2].at("total").line == 11
    assert log.expect["winner"] == "ana" and log.expect_loc.line == 13
    assert log.allow == []


def test_jsonl_log_has_one_line_per_event(tmp_path):
    lines = ['{"game": "loot_battles", "players": ["ana", "bo"]}', "",
             '{"kind": "roll", "player": "ana", "die": 5}', '{"kind": "stop"}',
             '{"expect": {"winner": null}}', '{"allow": [{"rule": "T-DIE", "reason": "x"}]}']
    log = read(write(tmp_path, "\n".join(lines) + "\n", "log.jsonl"))
    assert [(e.kind, e.loc.line) for e in log.events] == [("roll", 3), ("stop", 4)]
    assert log.expect == {"winner": None} and log.expect_loc.line == 5
    assert log.allow == [{"rule": "T-DIE", "reason": "x"}] and log.allow_locs[0].line == 6


@pytest.mark.parametrize("name,text,rule,line", [
    ("bad.yaml", "game: x\nevents:\n  - {kind: roll, die: [1}\n", "LOG-SYNTAX", 3),
    ("list.yaml", "- a\n- b\n", "LOG-SYNTAX", 1),
    ("noevents.yaml", "game: x\nplayers: []\n", "LOG-FIELD", 1),
    ("scalar.yaml", "game: x\nevents:\n  - roll\n", "LOG-EVENT", 3),
    ("bad.jsonl", '{"game": "x"}\n{"kind": "roll",\n', "LOG-SYNTAX", 2),
    ("array.jsonl", '{"game": "x"}\n[1, 2]\n', "LOG-SYNTAX", 2),
    ("empty.jsonl", "\n", "LOG-FIELD", 1),
])
def test_unreadable_logs_raise_log_error_with_the_line(tmp_path, name, text, rule, line):
    with pytest.raises(LogError) as e:
        read(write(tmp_path, text, name))
    assert (e.value.rule, e.value.loc.line) == (rule, line)


def test_a_file_that_is_not_text(tmp_path):
    p = tmp_path / "log.yaml"
    p.write_bytes(b"\xff\xfe\x00game")
    with pytest.raises(LogError) as e:
        read(p)
    assert e.value.rule == "LOG-READ"


# -- the shape of events, checked before the engine sees them --------------------------------

@pytest.mark.parametrize("old,new,rule,at,hint", [
    ("game: loot_battles", "game: bone_wars", "LOG-GAME", "game:", None),
    ("game: loot_battles\n", "", "LOG-GAME", "rules_version", None),            # no game: line 1
    ("{kind: roll, player: bo, die: 2}", "{kind: rol, player: bo, die: 2}", "LOG-EVENT", "kind: rol,", "roll"),
    ("{kind: roll, player: bo, die: 2}", "{kind: roll, player: bo, dye: 2}", "LOG-FIELD", "dye", "die"),
    ("{kind: roll, player: bo, die: 2}", "{kind: roll, player: bo}", "LOG-FIELD", "player: bo}", None),
    ("{kind: roll, player: bo, die: 2}", "{kind: roll, player: bo, die: two}", "LOG-TYPE", "die: two", None),
    ("target: 8", "target: 0", "LOG-FIELD", "target: 0", None),
    ("target: 8", "targt: 8", "LOG-FIELD", "targt", "target"),
    ("players: [ana, bo]\n", "", "LOG-FIELD", "game:", None),
])
def test_shape_errors_are_unreadable_logs(tmp_path, old, new, rule, at, hint):
    text = LOG.replace(old, new)
    log = read(write(tmp_path, text))
    with pytest.raises(LogError) as e:
        _check_shape(Dice, log, SLUG)
    assert (e.value.rule, e.value.loc.line) == (rule, line_of(text, at))
    if hint:
        assert hint in (e.value.hint or "")


def test_shape_fills_documented_defaults_and_keeps_item_positions(tmp_path):
    text = LOG.replace("players: [ana, bo]", "players:\n  - ana\n  - bo").replace("target: 8\n", "")
    log = read(write(tmp_path, text))
    _check_shape(Dice, log, SLUG)
    assert log.events[1].fields["total"] is None
    assert log.header_locs["players[1]"].line == line_of(text, "- bo")


def test_note_turn_and_round_are_allowed_on_any_event(tmp_path):
    text = LOG.replace("{kind: roll, player: bo, die: 2}", "{kind: roll, player: bo, die: 2, note: ok, turn: 2, round: 1}")
    log = read(write(tmp_path, text))
    _check_shape(Dice, log, SLUG)


# -- the referee ---------------------------------------------------------------------------------

def test_referee_dice_claims_allow_and_strict():
    probs = Problems()
    ref = Referee(probs, {"T-ALLOWED": "we agreed"}, strict=False)
    loc = Loc("log.yaml", 3, 5)
    assert ref.die(6, 6, "T-DIE", loc) and not ref.die(7, 6, "T-DIE", loc) and not ref.die(True, 6, "T-DIE", loc)
    assert not ref.die(0, 20, "T-DIE", loc)
    ref.claim("T-SUM", "the total", None, 5, loc)
    ref.claim("T-SUM", "the total", 5, 5, loc)
    ref.claim("T-SUM", "the total", 4, 5, loc)
    ref.violation("T-ALLOWED", "a house rule", loc)
    assert [(p.rule, p.severity) for p in probs] == [("T-DIE", "error"), ("T-DIE", "error"), ("T-DIE", "error"),
                                                      ("T-SUM", "error"), ("T-ALLOWED", "note")]
    assert "d6 shows 1–6" in probs.items[0].message and "d20" in probs.items[2].message
    assert "the log says the total is 4, but the rules give 5" in probs.items[3].message
    assert "(allowed: we agreed)" in probs.items[4].message
    strict = Referee(Problems(), {}, strict=True)
    with pytest.raises(StopReplay):
        strict.violation("T-X", "stop here", loc)


# -- replay ------------------------------------------------------------------------------------

def test_replay_goes_on_after_a_violation(dice_engine, tmp_path):
    text = LOG.replace("die: 5, total: 5", "die: 9, total: 5").replace("die: 2}", "die: 2, total: 3}")
    probs, final, trace = replay(ROOT, SLUG, write(tmp_path, text))
    assert [(p.rule, p.loc.line) for p in probs.errors] == [("T-DIE", 6), ("T-SUM", 6), ("T-SUM", 7),
                                                            ("T-SUM", 11), ("T-WIN", 13), ("T-SUM", 14)]
    assert trace[0] == "ana rolls 9: 0"


def test_strict_stops_at_the_first_violation(dice_engine, tmp_path):
    text = LOG.replace("die: 5, total: 5", "die: 9, total: 5")
    probs, final, _ = replay(ROOT, SLUG, write(tmp_path, text), strict=True)
    assert [p.rule for p in probs.errors] == ["T-DIE"]


def test_strict_with_a_wrong_expect_claim(dice_engine, tmp_path):
    text = LOG.replace("winner: ana", "winner: bo")
    probs, final, _ = replay(ROOT, SLUG, write(tmp_path, text), strict=True)
    assert [(p.rule, p.loc.line) for p in probs.errors] == [("T-WIN", 13)]


def test_events_after_the_end(dice_engine, tmp_path):
    text = LOG.replace("expect:", "  - {kind: roll, player: bo, die: 1}\nexpect:").replace("bo: {total: 2}",
                                                                                          "bo: {total: 3}")
    probs, final, _ = replay(ROOT, SLUG, write(tmp_path, text))
    assert [(p.rule, p.loc.line) for p in probs.errors] == [("T-END", 12)]


def test_expect_claims_deeper_than_the_final_state(dice_engine, tmp_path):
    text = LOG.replace("score: {ana: {total: 9}, bo: {total: 2}}", "score: {ana: {total: {x: 1}}, bo: 2}")
    text = text.replace("winner: ana", "winner: {name: ana}")
    probs, final, _ = replay(ROOT, SLUG, write(tmp_path, text))
    assert [(p.rule, p.loc.line) for p in probs.errors] == [("T-WIN", 13), ("T-SUM", 14), ("T-SUM", 14)]


def test_expect_of_something_not_computed_is_unreadable(dice_engine, tmp_path):
    text = LOG.replace("winner: ana", "winer: ana")
    with pytest.raises(LogError) as e:
        replay(ROOT, SLUG, write(tmp_path, text))
    assert e.value.loc.line == 13 and "winner" in (e.value.hint or "")


def test_allow_entries_need_a_rule_and_a_reason(dice_engine, tmp_path):
    text = LOG + "allow:\n  - {rule: T-DIE}\n"
    with pytest.raises(LogError) as e:
        replay(ROOT, SLUG, write(tmp_path, text))
    assert e.value.loc.line == line_of(text, "{rule: T-DIE}")
    text = LOG.replace("die: 5, total: 5", "die: 9, total: 0") + "allow:\n  - {rule: T-DIE, reason: a d10 by mistake}\n"
    probs, _, _ = replay(ROOT, SLUG, write(tmp_path, text))
    assert [p.rule for p in probs if p.severity == "note"] == ["T-DIE"]
    assert "T-DIE" not in [p.rule for p in probs.errors]


def test_an_allow_entry_the_log_never_needs_is_a_warning(dice_engine, tmp_path):
    """A mistyped rule ID in 'allow' does not pass unnoticed: a warning at its line, exit code unchanged."""
    text = LOG.replace("die: 5, total: 5", "die: 9, total: 0") + "allow:\n  - {rule: T-DYE, reason: a d10 by mistake}\n"
    probs, _, _ = replay(ROOT, SLUG, write(tmp_path, text))
    assert [(p.rule, p.severity, p.loc.line) for p in probs if p.rule == "T-DYE"] == \
        [("T-DYE", "warning", line_of(text, "{rule: T-DYE"))]
    assert "T-DIE" in [p.rule for p in probs.errors]
    code, out = check(write(tmp_path, LOG + "allow:\n  - {rule: T-DIE, reason: just in case}\n"))
    assert code == 0 and [(p["rule"], p["severity"]) for p in out["problems"]] == [("T-DIE", "warning")]


# -- output ------------------------------------------------------------------------------------------

def test_text_output(dice_engine, tmp_path):
    text = LOG.replace("die: 2}", "die: 2, total: 3}")
    path = write(tmp_path, text)
    done = check_output(ROOT, SLUG, path, strict=False, trace=True, fmt="text")
    assert done.code == 1
    out, err = done.stdout, done.stderr
    lines = out.splitlines()
    assert lines[0] == "ana rolls 5: 5"
    # the trace shows the slip (after the trace of its event), then the problem list names file:line
    assert lines[3] == "L7      ✗ T-SUM error: the log says bo's total is 3, but the rules give 2"
    assert any(re.fullmatch(r".*log\.yaml:7:\d+: T-SUM error: the log says bo's total is 3, but the rules give 2", ln)
               for ln in lines[4:])
    assert lines[-1].startswith("final: {") and json.loads(lines[-1][7:])["winner"] == "ana"
    assert "1 violation(s)" in err
    done = check_output(ROOT, SLUG, write(tmp_path, LOG), strict=False, trace=False, fmt="text")
    assert done.code == 0
    out, err = done.stdout, done.stderr
    assert "legal: no violations" in err and not out.startswith("ana")


def test_json_output_and_exit_codes(dice_engine, tmp_path):
    code, doc = check(write(tmp_path, LOG), "--trace")
    assert code == 0 and doc["problems"] == [] and doc["final"]["winner"] == "ana"
    assert doc["trace"][-1] == "ana rolls 4: 9"
    code, doc = check(write(tmp_path, LOG.replace("kind: roll, player: bo", "kind: rool, player: bo")))
    assert code == 2 and doc["final"] is None
    p = doc["problems"][0]
    assert (p["rule"], p["line"], p["severity"]) == ("LOG-EVENT", 7, "error") and p["hint"]


def test_unreadable_text_output_names_file_and_line(dice_engine, tmp_path):
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", SLUG,
                                    str(write(tmp_path, LOG.replace("die: 2}", "die: [2}")))])
    assert res.exit_code == 2
    assert re.search(r"log\.yaml:7:\d+: LOG-SYNTAX error:", res.stderr if hasattr(res, "stderr") else res.output)


def test_a_game_without_an_engine(monkeypatch, tmp_path):
    monkeypatch.setattr(gamehooks, "engine", lambda slug: None)
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", SLUG, str(write(tmp_path, LOG))])
    assert res.exit_code == 2 and "not yet supported" in res.output


def test_an_unknown_game(tmp_path):
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", "no_such_game", str(write(tmp_path, LOG))])
    assert res.exit_code == 2


# -- JSON Schemas, generated from the engines -------------------------------------------------------

def test_opt_schema():
    s = logschema.opt_schema
    assert s(Opt("int", min=0, doc="n")) == {"description": "n", "type": "integer", "minimum": 0}
    assert s(Opt("enum", choices=("won", "lost"))) == {"enum": ["won", "lost"]}
    assert s(Opt("list", item=Opt("int"))) == {"type": "array", "items": {"type": "integer"}}
    assert s(Opt("map", item=Opt("bool"))) == {"type": "object", "additionalProperties": {"type": "boolean"}}
    assert s(Opt("map", fields={"a": Opt("str", required=True), "b": Opt("bool", default=False)})) == {
        "type": "object", "properties": {"a": {"type": ["string", "number"]}, "b": {"type": "boolean",
                                                                                 "default": False}},
        "required": ["a"], "additionalProperties": False}
    assert s(Opt("any")) == {}


def test_log_schema_of_an_engine():
    sch = logschema.log_schema("toy", Dice, "Toy")
    assert sch["title"] == "Toy playtest log"
    assert sch["required"] == ["game", "players", "events"]
    assert sch["properties"]["game"]["const"] == "toy"
    roll = sch["$defs"]["roll"]
    assert roll["required"] == ["kind", "player", "die"] and roll["properties"]["kind"] == {"const": "roll"}
    assert {"note", "turn", "round"} <= set(roll["properties"])
    assert [r["$ref"] for r in sch["$defs"]["event"]["oneOf"]] == ["#/$defs/roll", "#/$defs/stop"]
    validate(yaml.safe_load(LOG.replace("game: loot_battles", "game: toy")), sch)
    with pytest.raises(AssertionError):
        validate({"game": "toy", "players": ["a"], "events": [{"kind": "roll", "player": "a"}]}, sch)


MODULES = logschema.module_names()      # imported in each test: one broken engine fails only its own tests


def engine(slug):
    eng = logschema.engine_of(slug)
    if eng is None:
        pytest.skip(f"cardgen.games.{slug} has no rules engine")
    return eng


@pytest.mark.parametrize("slug", MODULES)
def test_checked_in_schema_is_current(slug, update_goldens):
    eng = engine(slug)
    path = logschema.schema_path(ROOT, slug)
    want = logschema.render(logschema.log_schema(slug, eng, logschema.game_title(ROOT, slug)))
    if update_goldens:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(want, encoding="utf-8")
    assert path.exists(), f"no {path.name}: run pytest --update-goldens (or python -m cardgen.reference.logschema {slug})"
    assert path.read_text(encoding="utf-8") == want, "run pytest --update-goldens if the change is intended"


def example_logs():
    out = []
    for slug in MODULES:
        folder = ROOT / "examples" / "logs" / slug
        out += [(slug, p) for p in sorted(folder.glob("*.yaml"))] + [(slug, p) for p in sorted(folder.glob("*.jsonl"))]
    return out


@pytest.mark.parametrize("slug,path", example_logs(), ids=lambda x: getattr(x, "name", x))
def test_example_logs_follow_their_schema(slug, path):
    engine(slug)
    if not logschema.schema_path(ROOT, slug).exists():
        pytest.skip("no schema yet (test_checked_in_schema_is_current says how to write it)")
    sch = json.loads(logschema.schema_path(ROOT, slug).read_text(encoding="utf-8"))
    if path.suffix == ".jsonl":
        lines = [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        validate(lines[0], sch["$defs"]["header"], sch)
        for obj in lines[1:]:
            if "kind" in obj:
                validate(obj, sch["$defs"]["event"], sch)
    else:
        validate(yaml.safe_load(path.read_text(encoding="utf-8")), sch)


def test_docs_event_reference_is_current(update_goldens):
    path = logschema.docs_path(ROOT)
    text = path.read_text(encoding="utf-8")
    want = logschema.refresh_docs(text, logschema.docs_reference(ROOT))
    if update_goldens:
        path.write_text(want, encoding="utf-8")
        text = want
    assert text == want, "the event reference in docs/playtest-logs.md is stale: run pytest --update-goldens"
    for slug, eng in logschema.engines().items():
        assert all(f"#### `{k}`" in text for k in eng.EVENTS), slug
        guide = f"\n## {logschema.game_title(ROOT, slug)}\n"      # the game's own guide, before the reference
        assert guide in text and text.index(guide) < text.index("\n## Event reference"), (slug, guide)


def test_markdown_reference_of_an_engine():
    md = logschema.markdown_reference("toy", Dice, "Toy")
    assert md.startswith("### Toy (`toy`)")
    assert "| `players` | list of text | required | who plays |" in md
    assert "| `target` | whole number ≥ 1 | default 10 | the total that wins |" in md
    assert "#### `roll`" in md and "#### `stop`\n\nNo fields." in md
    region = logschema.refresh_docs("# Doc\n", "<gen>")
    assert region == "# Doc\n\n<gen>\n"
    again = logschema.refresh_docs(f"a\n{logschema.BEGIN}\nold\n{logschema.END}\nb\n", "new")
    assert again == "a\nnew\nb\n"


def validate(value, schema, root=None):
    """Validate with the jsonschema library (JSON Schema 2020-12); ``schema`` may be a part of
    ``root`` whose local ``$ref``s point into it. A mismatch fails as an AssertionError."""
    root = root or schema
    whole = schema if schema is root else {**schema, "$defs": root.get("$defs", {})}
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft202012Validator(whole).iter_errors(value)]
    assert not errors, errors


GOLDEN_TRACES = ROOT / "tests" / "goldens" / "traces"


def trace_of(slug: str, path: Path) -> str:
    """``cardgen check --trace`` of an example log, paths shown relative to the project."""
    _code, out = run_cli("check", slug, str(path), "--trace")
    return out.replace(str(ROOT) + "/", "")


@pytest.mark.parametrize("slug,path", [(s, p) for s, p in example_logs() if p.suffix == ".yaml"],
                         ids=lambda x: getattr(x, "name", x))
def test_example_playthrough_matches_its_golden_trace(slug, path, update_goldens):
    golden = GOLDEN_TRACES / slug / (path.stem + ".txt")
    got = trace_of(slug, path)
    if update_goldens:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), f"no golden trace for {path.name}: run pytest --update-goldens"
    assert got == golden.read_text(encoding="utf-8"), \
        f"{path.name} replays differently from {golden.name}: run pytest --update-goldens if intended"


def _complete_and_legal(trace: str) -> bool:
    """A golden trace of a game played to the end: a winner in its ``final`` line, no error."""
    final = json.loads(trace.rsplit("final: ", 1)[1]) if "\nfinal: " in trace else {}
    return final.get("winner") is not None and not re.search(r":\d+:\d+: [A-Z][A-Z0-9-]* error:", trace)


def stale_golden_traces(folder: Path = GOLDEN_TRACES, logs: set[tuple[str, str]] | None = None) -> list[Path]:
    """Golden traces whose example log is gone (or whose game is): nothing generates them any more."""
    if logs is None:
        logs = {(slug, p.stem) for slug, p in example_logs() if p.suffix == ".yaml"}
    return sorted(p for p in folder.glob("*/*.txt") if (p.parent.name, p.stem) not in logs)


def remove_stale_golden_traces(folder: Path = GOLDEN_TRACES, logs: set[tuple[str, str]] | None = None) -> None:
    """What ``make goldens`` does besides rewriting: the traces of logs that are gone go, and so do
    the folders of games left with none."""
    for p in stale_golden_traces(folder, logs):
        p.unlink()
    for sub in folder.iterdir():
        if sub.is_dir() and not any(sub.iterdir()):
            sub.rmdir()


def test_no_stale_golden_trace(update_goldens):
    """``make goldens`` removes the traces of logs that no longer exist (then the check below holds)."""
    if update_goldens:
        remove_stale_golden_traces()
    stale = stale_golden_traces()
    assert not stale, f"golden traces without their log (run `make goldens`): {[str(p) for p in stale]}"


def test_make_goldens_removes_the_traces_it_no_longer_writes(tmp_path):
    for rel in ("g/kept.txt", "g/gone.txt", "old_game/a.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x", encoding="utf-8")
    logs = {("g", "kept")}
    assert [p.relative_to(tmp_path).as_posix() for p in stale_golden_traces(tmp_path, logs)] == \
        ["g/gone.txt", "old_game/a.txt"]
    remove_stale_golden_traces(tmp_path, logs)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["g", "g/kept.txt"]
    assert not stale_golden_traces(tmp_path, logs)                  # the twin: nothing left to remove


@pytest.mark.parametrize("slug", MODULES)
def test_every_engine_has_golden_playthroughs(slug):
    engine(slug)
    goldens = sorted(p.stem for p in (GOLDEN_TRACES / slug).glob("*.txt"))
    complete = [g for g in goldens if _complete_and_legal((GOLDEN_TRACES / slug / f"{g}.txt").read_text("utf-8"))]
    assert len(complete) >= 2, f"cardgen.games.{slug} has {len(complete)} golden playthrough(s) of a complete " \
                               f"legal game ({goldens}); record two"
    logs = {p.stem for p in (ROOT / "examples" / "logs" / slug).glob("*.yaml")}
    assert set(goldens) <= logs, f"goldens without their log: {sorted(set(goldens) - logs)}"


# -- any input at all: an answer, never a traceback ------------------------------------------------

_ANY = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=6),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                    max_leaves=12)
_KEYS = ["kind", "player", "players", "teams", "card", "cards", "count", "target", "at", "to", "path", "dice"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slug=st.sampled_from(sorted(logschema.engines())), form=st.sampled_from(["yaml", "jsonl"]),
       header=st.dictionaries(st.sampled_from(_KEYS), _ANY, max_size=3),
       events=st.lists(st.one_of(_ANY, st.dictionaries(st.sampled_from(_KEYS), _ANY, max_size=4)), max_size=5))
def test_the_checker_answers_any_log_of_any_game(slug, form, header, events):
    """Whatever the file holds — a header of random values, events of any shape — every engine's
    checker exits 0, 1 or 2 with a line, and never fails inside (CHECK-INTERNAL)."""
    evs = [dict(e, kind=e.get("kind", "draw")) if isinstance(e, dict) else e for e in events]
    checklogs.assert_the_checker_never_raises(slug, {"game": slug, **header, "events": evs}, form, strict=False)


def test_an_engine_applies_each_event_through_its_table():
    """BaseEngine.HANDLERS: kind → on_<kind>, made when the class is defined; an event declared
    without its method fails then, not in the middle of a log."""
    assert Dice.HANDLERS
    assert all(fn is getattr(Dice, "on_" + k.replace("-", "_")) for k, fn in Dice.HANDLERS.items())
    assert set(Dice.HANDLERS) == set(Dice.EVENTS)
    with pytest.raises(TypeError, match=r"no on_<kind> method for: \['shout'\]"):
        type("Loud", (Dice,), {"EVENTS": {**Dice.EVENTS, "shout": {}}})

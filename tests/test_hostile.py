"""Hostile input and faults (issue 18): nothing hangs, nothing crashes, nothing outside the
project is read, nothing is half-written.

Each attack ends in one clear problem line with a rule ID and exit 1 or 2, within seconds.
Cases that could exhaust memory run in a subprocess under ``resource.setrlimit``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import cardgen
from cardgen import sources
from cardgen.problems import Loc, Problem, Problems, safe
from tests.conftest import ROOT, problems_json, run_cli
from tests.test_games_are_data import SLUG, make_project

MEM_CAP = 1 << 30      # 1 GiB of address space for a bomb subprocess


def capped(code: str, timeout: float = 30.0, mem: int = MEM_CAP) -> subprocess.CompletedProcess:
    """Run Python ``code`` in a subprocess with an address-space cap and a time limit."""
    prelude = f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))\n"
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, cwd=str(Path(__file__).resolve().parent.parent))


def cli_capped(root: Path, *args: str, timeout: float = 30.0) -> subprocess.CompletedProcess:
    """``cardgen --root ROOT args…`` in a memory-capped subprocess."""
    return capped(f"import sys; sys.argv = ['cardgen', '--root', {str(root)!r}, *{list(args)!r}]\n"
                  "from cardgen.cli import main\nmain()", timeout)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


# --- problem collection: linear de-duplication --------------------------------------------

def test_dedup_is_linear():
    probs = Problems()
    t = time.monotonic()
    for i in range(50_000):
        probs.error("X-1", f"violation {i}", Loc("log.yaml", i + 1, 1))
        probs.error("X-1", f"violation {i}", Loc("log.yaml", i + 1, 1))     # the same again: kept once
    assert len(probs) == 50_000          # a list scan would take minutes here
    assert time.monotonic() - t < 5


def test_dedup_after_items_rewritten():
    probs = Problems()
    probs.error("X-1", "a")
    probs.items[:] = [Problem("X-1", "error", "a", None, "hint")]
    probs.resync()
    probs.error("X-1", "a")
    assert len(probs) == 2


# --- terminal safety -------------------------------------------------------------------------

@pytest.mark.parametrize("evil", ["\x1b[2J", "a\nb.yaml:1:1: FAKE error: forged", "nul\x00", "\u2028", "\x9b31m"])
def test_problem_lines_carry_no_control_characters(evil):
    line = Problem(f"R{evil}", "error", f"key '{evil}'", Loc(f"f{evil}.yaml", 1, 1), hint=evil).text()
    assert "\n" not in line and "\x1b" not in line and "\x00" not in line and "\u2028" not in line
    assert "\x9b" not in line
    assert safe("plain ≥ text") == "plain ≥ text"


def test_control_characters_in_yaml_keys_are_escaped(project):
    (project / "cards" / SLUG / "runners.yaml").write_text(
        "defaults: {type: runner}\ncards:\n  - {id: hare, name: Hare, speed: 6, text: x, \"\\e[2Jevil\\nX: 1\": 1}\n",
        encoding="utf-8")
    code, out = run_cli("validate", SLUG, root=project)
    assert code == 1
    assert "\x1b" not in out and "\\x1b[2Jevil\\nX" in out


# --- escapes: nothing outside the project is read -----------------------------------------

@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the project, with files an attacker would like to be read."""
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.yaml").write_text("cards:\n  - {id: secret, name: Secret, type: runner, speed: 1, text: x}\n",
                                     encoding="utf-8")
    (out / "secret.md").write_text("# Secret\n\nTOP SECRET\n", encoding="utf-8")
    return out


@pytest.mark.parametrize("rel", [f"cards/{SLUG}/evil.yaml", f"rules/{SLUG}/params.yaml",
                                 f"rules/{SLUG}/constraints.yaml", f"templates/{SLUG}/front.yaml"])
def test_symlinked_source_out_of_the_project_is_refused(project, outside, rel):
    target = project / rel
    if target.exists():
        target.unlink()
    target.symlink_to(outside / "secret.yaml")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1
    assert any(p["rule"] == "PATH-ESCAPE" for p in probs), probs
    assert "Secret" not in str(probs)


def test_symlinked_game_folder_is_refused(project, outside):
    shutil.copytree(project / "rules" / SLUG, outside / "game")
    shutil.rmtree(project / "rules" / SLUG)
    (project / "rules" / SLUG).symlink_to(outside / "game")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and [p["rule"] for p in probs] == ["PATH-ESCAPE"]


def test_include_following_a_symlink_out_is_refused(tmp_path, outside):
    from jinja2.exceptions import TemplateError

    from cardgen.rulebook.jinja import make_environment
    book = tmp_path / "proj" / "book"
    book.mkdir(parents=True)
    (book / "link.md").symlink_to(outside / "secret.md")
    env = make_environment([book], [])
    with sources.project(tmp_path / "proj"), pytest.raises(TemplateError, match="outside the project"):
        env.from_string("{% include 'link.md' %}").render()
    with sources.project(tmp_path / "proj"), pytest.raises(TemplateError):
        env.from_string("{% include '../outside/secret.md' %}").render()


def _every_reader(path: Path) -> dict:
    """Every function of cardgen that reads a project file, applied to ``path``."""
    from cardgen import images, render_svg
    from cardgen.rulebook.jinja import ProjectLoader
    from cardgen.yamlsrc import load_yaml

    def yaml_reader():
        probs = Problems()
        load_yaml(path, probs)
        raise_first(probs)

    def jinja_reader():
        from jinja2 import Environment
        ProjectLoader([str(path.parent)]).get_source(Environment(), path.name)

    def svg_image():
        render_svg._Writer.image_href(type("W", (), {"_images": {}})(), str(path))

    return {"load_yaml": yaml_reader, "sources.read_bytes": lambda: sources.read_bytes(path),
            "images.image_size": lambda: images.image_size(path), "jinja include": jinja_reader,
            "svg image": svg_image}


def raise_first(probs: Problems) -> None:
    if probs.errors:
        raise RuntimeError(probs.errors[0].rule + ": " + probs.errors[0].message)


def test_every_reader_refuses_a_path_out_of_the_project(project, outside):
    link = project / "cards" / SLUG / "link.yaml"
    link.symlink_to(outside / "secret.yaml")
    for name, read in _every_reader(link).items():
        with sources.project(project), pytest.raises(Exception, match="outside the project") as e:
            read()
        assert "Secret" not in str(e.value), name


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_every_reader_refuses_what_is_no_regular_file(project, kind):
    path = project / "cards" / SLUG / "odd.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    for name, read in _every_reader(path).items():
        with sources.project(None), pytest.raises(Exception) as e:       # would hang or eat memory if read
            read()
        assert "regular file" in str(e.value) or "not found" in str(e.value) or "a folder" in str(e.value), name


def test_no_reader_bypasses_the_resolver():
    """A static walk: outside cardgen/sources.py (and writers), no module opens a file itself."""
    src = Path(cardgen.__file__).parent
    allowed = {"sources.py", "atomic.py", "logschema.py", "fonts.py"}     # writers; bundled fonts
    raw = re.compile(r"\.read_(bytes|text)\(|\bopen\(|Image\.open\(|FileSystemLoader\(|drawImage\(|RLImage\(|ImageReader\(")
    offenders = []
    for f in src.rglob("*.py"):
        if f.name in allowed or "engines" in f.parts or "games" in f.parts:
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if raw.search(code) and "sources." not in code and "super()" not in code \
                    and "PILImage.open(io.BytesIO" not in code and "class " not in code:
                offenders.append(f"{f.relative_to(src)}:{n}: {line.strip()}")
    assert not offenders, offenders


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_fifo_or_device_as_log_or_deck(project, tmp_path, special):
    path = tmp_path / ("log.yaml" if special == "fifo" else "zero.yaml")
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(special)
    res = cli_capped(project, "validate", SLUG, str(path), timeout=20)
    assert res.returncode in (1, 2) and "Traceback" not in res.stderr
    from cardgen.playlog import LogError, read
    with pytest.raises(LogError, match="regular file"):
        read(path)


def test_oversized_file_is_refused(project, monkeypatch):
    monkeypatch.setattr(sources, "MAX_TEXT_BYTES", 100)
    monkeypatch.setattr(sources.read_bytes, "__defaults__", (None, 100))
    probs = Problems()
    from cardgen.yamlsrc import load_yaml
    load_yaml(project / "cards" / SLUG / "runners.yaml", probs)
    assert [p.rule for p in probs] == ["FILE-SIZE"]


# --- YAML: bombs, depth, numbers, dates, NUL -------------------------------------------------

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8))


def _yaml_problems(text: str) -> list[str]:
    from cardgen.yamlsrc import parse_yaml
    probs = Problems()
    parse_yaml(text, "f.yaml", probs)
    return [p.text() for p in probs]


@pytest.mark.parametrize("text, expect", [
    (LAUGHS, "f.yaml:5:36: YAML-ALIAS error: aliases expand to more than"),
    ("a: &x {b: *x}\n", "f.yaml:1:11: YAML-ALIAS error: alias *x lies inside its own anchor"),
    ("[" * 1000 + "]" * 1000, "f.yaml:1:101: YAML-DEPTH error"),
    ("a:\n" + "".join("  " * i + "- \n" for i in range(1, 300)), "YAML-DEPTH error"),
    ("n: " + "9" * 5000 + "\n", "f.yaml:1:4: YAML-TYPE error: not a valid integer"),
    ("d: 2026-11-31\n", "f.yaml:1:4: YAML-TYPE error: not a valid date: '2026-11-31'"),
    ("d: !!timestamp 99999-01-01\n", "f.yaml:1:4: YAML-TYPE error: not a valid date"),
    ("a: 1\nb: x\x00y\n", "f.yaml:2:5: YAML-SYNTAX error: YAML syntax error: control character U+0000"),
    ("a: 1\nb: x\x1by\n", "f.yaml:2:5: YAML-SYNTAX error"),
])
def test_yaml_limits(text, expect):
    t = time.monotonic()
    lines = _yaml_problems(text)
    assert len(lines) == 1 and expect in lines[0], lines
    assert time.monotonic() - t < 5


def test_alias_bomb_and_deep_nesting_under_a_memory_cap(project):
    for text in (LAUGHS + "z: [" + ", ".join(["*i"] * 10) + "]\n", "[" * 100_000 + "]" * 100_000):
        (project / "rules" / SLUG / "params.yaml").write_text(text, encoding="utf-8")
        res = cli_capped(project, "validate", SLUG, timeout=30)
        assert res.returncode == 1, res.stderr
        assert "YAML-ALIAS" in res.stdout or "YAML-DEPTH" in res.stdout or "YAML-SYNTAX" in res.stdout, res.stdout
        assert "Traceback" not in res.stderr


def test_card_file_with_a_date_a_huge_number_and_a_nul(project):
    f = project / "cards" / SLUG / "runners.yaml"
    text = f.read_text(encoding="utf-8")
    bad = text.replace("speed: 4", "speed: " + "4" * 5000).replace("Sly.", "Sly\x00.")
    f.write_text(bad, encoding="utf-8")
    col = bad.splitlines()[4].index("\x00") + 1
    code, probs = problems_json("validate", SLUG, root=project)
    mine = [(p["rule"], p["line"], p["column"]) for p in probs if p["file"].endswith("runners.yaml")]
    assert code == 1 and mine == [("YAML-SYNTAX", 5, col)], probs          # the NUL, at its real position
    f.write_text(text.replace("speed: 4", "speed: " + "4" * 5000), encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    mine = [(p["rule"], p["line"]) for p in probs if p["file"].endswith("runners.yaml")]
    assert code == 1 and mine == [("YAML-TYPE", 5)], probs


# --- JSON Lines ------------------------------------------------------------------------------

@pytest.mark.parametrize("line, rule", [
    ('{"allow": 5}', "LOG-FIELD"),
    ('{"allow": [5]}', "LOG-FIELD"),
    ('{"allow": [{"rule": ["X"], "reason": "r"}]}', "LOG-TYPE"),
    ('{"kind": "x", "n": ' + "9" * 5000 + "}", "LOG-SYNTAX"),
    ('{"kind": "x", "n": NaN}', "LOG-SYNTAX"),
    ('{"kind": "x", "n": ' + "[" * 100_000 + "]" * 100_000 + "}", "LOG-SYNTAX"),
])
def test_jsonl_hostile_lines(tmp_path, line, rule):
    from cardgen.checker import replay_log
    from cardgen.playlog import LogError, read
    log = tmp_path / "log.jsonl"
    log.write_text('{"game": "g"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(LogError) as e:
        pl = read(log)
        replay_log(type("G", (), {"slug": "g"})(), object, pl)
    assert e.value.rule == rule and e.value.loc.line == 2, e.value.message


# --- NaN, infinity, lengths and --offset -----------------------------------------------------

@pytest.mark.parametrize("old, new", [
    ("bleed: 3mm", "bleed: .nan"), ("bleed: 3mm", "bleed: .inf"), ("bleed: 3mm", "bleed: 1e400"),
    ("crop_marks: true}", "crop_marks: true, offset: [.nan, 0]}"),
    ("crop_marks: true}", "crop_marks: true, offset: [0, -.inf]}"),
    ("width: 44mm", "width: " + "9" * 400 + "mm"),
])
def test_non_finite_lengths_are_errors(project, old, new):
    g = project / "rules" / SLUG / "game.yaml"
    g.write_text(g.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    line = 1 + g.read_text(encoding="utf-8")[: g.read_text(encoding="utf-8").index(new)].count("\n")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and [(p["rule"], p["line"]) for p in probs] == [("YAML-TYPE", line)], probs   # one mistake


@pytest.mark.parametrize("offset", ["9" * 400 + ",0", "0,-99999", "", "nan,0", "inf,0", "1,2,3", "1mm,", ",",
                                    "0x10,0"])
def test_bad_offset_is_a_usage_error(project, tmp_path, offset):
    code, _ = run_cli("build", SLUG, "--out", str(tmp_path / "out"), f"--offset={offset}", root=project)
    assert code == 2
    assert not (tmp_path / "out" / SLUG).exists()


def test_offset_within_bounds_is_accepted():
    from cardgen.cli import parse_offset
    assert parse_offset("0.5mm, -1mm") == (0.5, -1.0)


# --- Jinja: bounded ranges, powers, repetition, recursion ----------------------------------

BOMBS = [
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "{% for i in range(9999) %}{% for j in range(9999) %}{% for k in range(9999) %}{% endfor %}{% endfor %}{% endfor %}",
    "{{ 7**99999999 }}",
    "{{ 'x' * 10**10 }}",
    "{{ [1] * 10**9 }}",
    "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(1) }}",
    "{{ '%0999999999d' % 1 }}",
    "{{ '{:>999999999}'.format(1) }}",
    "{{ 'x' | center(10**9) }}",
]


@pytest.mark.parametrize("bomb", BOMBS)
def test_jinja_bombs_are_template_problems(bomb):
    from jinja2.exceptions import SecurityError

    from cardgen.templates import make_env
    t = time.monotonic()
    with pytest.raises(SecurityError):
        make_env().from_string(bomb).render()
    assert time.monotonic() - t < 5


def test_jinja_bomb_in_card_text_under_a_memory_cap(project):
    f = project / "cards" / SLUG / "runners.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace('text: "Sly."', 'text: "{{ \'x\' * 10**10 }}"'),
                 encoding="utf-8")
    tpl = project / "templates" / SLUG / "front.yaml"
    tpl.write_text(tpl.read_text(encoding="utf-8").replace('"{{ card.text }}"', '"{{ card.text | expand }}"'),
                   encoding="utf-8")
    res = cli_capped(project, "validate", SLUG, timeout=30)
    assert res.returncode == 1 and "TEMPLATE-EXPR" in res.stdout and "Traceback" not in res.stderr, res


@pytest.mark.parametrize("chapter", ["{% include 'self.md' %}", "{% extends 'self.md' %}",
                                     "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}"])
def test_chapter_including_itself_is_a_problem(tmp_path, chapter):
    from jinja2.exceptions import SecurityError

    from cardgen.rulebook.jinja import make_environment
    (tmp_path / "self.md").write_text("# Self\n\n" + chapter + "\n", encoding="utf-8")
    env = make_environment([tmp_path], [])
    t = time.monotonic()
    with sources.project(tmp_path), pytest.raises((SecurityError, Exception)) as e:
        env.get_template("self.md").render()
    assert isinstance(e.value, SecurityError) or "recursion" in str(e.value).lower(), e.value
    assert time.monotonic() - t < 5


# --- copies and counts ------------------------------------------------------------------------

def test_copies_over_the_limit(project):
    f = project / "cards" / SLUG / "runners.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("name: Fox,", "name: Fox, copies: 100000000,"),
                 encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and [(p["rule"], p["line"]) for p in probs if "copies" in p["message"]] == [("YAML-RANGE", 5)]
    g = project / "rules" / SLUG / "game.yaml"
    g.write_text(g.read_text(encoding="utf-8") + "limits: {copies: 5}\n", encoding="utf-8")
    f.write_text(f.read_text(encoding="utf-8").replace("copies: 100000000", "copies: 6"), encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    assert "above its maximum 5" in str(probs)


def test_component_count_over_the_limit(project):
    (project / "cards" / SLUG / "bits.yaml").write_text(
        "components:\n  - {id: pebble, name: Pebble, kind: token, count: 100000000}\n", encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and [(p["rule"], p["line"]) for p in probs] == [("YAML-RANGE", 2)]


# --- images opened at validate ----------------------------------------------------------------

def _png_header(w: int, h: int) -> bytes:
    import struct
    import zlib
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    def part(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return b"\x89PNG\r\n\x1a\n" + part(b"IHDR", ihdr) + part(b"IDAT", zlib.compress(b"\0" * 16)) + part(b"IEND", b"")


@pytest.mark.parametrize("content, rule", [(b"not a picture at all", "IMAGE-READ"),
                                           (_png_header(100_000, 100_000), "IMAGE-BOMB"),
                                           (_png_header(10, 10), "IMAGE-READ")])     # truncated: no data
def test_bad_images_fail_validate(project, content, rule):
    (project / "templates" / SLUG / "art.png").write_bytes(content)
    tpl = project / "templates" / SLUG / "front.yaml"
    tpl.write_text(tpl.read_text(encoding="utf-8") +
                   "  art: {kind: image, x: 2mm, y: 14mm, w: 40mm, h: 14mm, src: art.png}\n", encoding="utf-8")
    res = cli_capped(project, "validate", SLUG, timeout=30)
    assert res.returncode == 1 and rule in res.stdout and "Traceback" not in res.stderr, (res.stdout, res.stderr)
    assert res.stdout.count(rule) == 1 and "front.yaml" in res.stdout          # one problem, at the element


# --- outputs: replaced as a set, one clear error, previous outputs intact -----------------

def _build(project: Path, out: Path, *extra: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from cardgen.cli import main
    where = ["--out", str(out)] if out != project / "build" else []       # build/ by default
    res = CliRunner().invoke(main, ["--root", str(project), "build", SLUG, *where, *extra])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.stdout + res.stderr


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def built(project: Path) -> tuple[Path, Path, dict[str, bytes]]:
    out = project / "build"
    code, text = _build(project, out)
    assert code == 0, text
    return project, out, _snapshot(out / SLUG)


def test_build_dir_is_a_file(project):
    (project / "build").write_text("x")
    code, text = _build(project, project / "build")
    assert code == 1 and "is a file, not a folder" in text and "Traceback" not in text
    assert (project / "build").read_text() == "x"


def test_game_output_dir_is_a_file(project):
    (project / "build").mkdir()
    (project / "build" / SLUG).write_text("x")
    code, text = _build(project, project / "build")
    assert code == 1 and "is a file" in text
    assert (project / "build" / SLUG).read_text() == "x"


@pytest.mark.parametrize("errno_name", ["ENOSPC", "EACCES", "EROFS"])
def test_write_failure_keeps_previous_outputs(built, monkeypatch, errno_name):
    import errno

    from cardgen import atomic
    project, out, before = built

    def full(*a, **k):
        raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)))

    monkeypatch.setattr(atomic.tempfile, "mkdtemp", full)
    code, text = _build(project, out, "--offset", "1mm,0")
    assert code == 1 and "build stopped: cannot write" in text and "previous outputs" in text
    assert _snapshot(out / SLUG) == before
    assert [p.name for p in out.iterdir()] == [SLUG]


def test_kill_between_the_renames_keeps_a_whole_set(built, monkeypatch):
    from cardgen import atomic
    project, out, before = built
    real = os.replace
    calls = []

    def killed(src, dst):
        calls.append((src, dst))
        if len(calls) == 2:                # the previous set moved aside, the new one not yet in
            raise KeyboardInterrupt
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        atomic.replace_set(out / SLUG, {"cards.pdf": b"new", "cards.json": b"new"})
    monkeypatch.setattr(atomic.os, "replace", real)
    assert _snapshot(out / SLUG) == before              # the old set, whole
    assert [p.name for p in out.iterdir()] == [SLUG]


def test_next_build_recovers_what_a_killed_build_left(built):
    from cardgen import atomic
    project, out, before = built
    os.replace(out / SLUG, out / f".{SLUG}{atomic.OLD}x")          # killed after the first rename
    (out / f".{SLUG}{atomic.STAGE}y").mkdir()                     # and a staging folder left behind
    atomic.recover(out / SLUG)
    assert _snapshot(out / SLUG) == before
    (out / SLUG / ".cards.pdf.abc.tmp").write_bytes(b"half")      # a stray temp file of an old build
    code, _ = _build(project, out)
    assert code == 0 and sorted(p.name for p in out.iterdir()) == [SLUG]
    assert not list((out / SLUG).glob("*.tmp"))


def test_outputs_are_replaced_as_a_set(built):
    project, out, before = built
    code, _ = _build(project, out, "--offset", "2mm,0")
    after = _snapshot(out / SLUG)
    assert code == 0 and set(after) == set(before)


# --- start-up, project, Ctrl-C ---------------------------------------------------------------

def test_no_project_here(tmp_path):
    for args in (["--root", "/nonexistent", "validate"], ["validate"], ["--root", str(tmp_path), "build"]):
        res = subprocess.run([sys.executable, "-m", "cardgen.entry", *args], capture_output=True, text=True,
                             cwd=str(tmp_path), timeout=60)
        assert res.returncode == 2 and "no cardgen project here" in res.stderr, (args, res.stderr)


@pytest.mark.parametrize("delay", [0.4, 0.8, 1.5])
def test_ctrl_c_is_interrupted_exit_130(built, delay):
    import signal
    project, out, before = built
    proc = subprocess.Popen([sys.executable, "-m", "cardgen.entry", "--root", str(project), "build", SLUG,
                             "--offset", "3mm,0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    if "built 1 game" in stderr:        # finished before the signal: a whole new set
        assert set(_snapshot(out / SLUG)) == set(before)
        return
    if "<frozen site>" in stderr:       # the interpreter's own start-up, before cardgen's first line
        pytest.skip("the signal came before Python ran cardgen")
    assert proc.returncode == 130 and "interrupted" in stderr and "Traceback" not in stderr, stderr
    assert _snapshot(out / SLUG) == before          # nothing half-written
    assert sorted(p.name for p in out.iterdir()) == [SLUG]


@pytest.mark.parametrize("where", ["cardgen.pipeline.validate", "cardgen.atomic.replace_set"])
def test_ctrl_c_inside_a_command(built, monkeypatch, where):
    from click.testing import CliRunner

    from cardgen.cli import main
    project, out, before = built

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt

    module, name = where.rsplit(".", 1)
    monkeypatch.setattr(f"{module}.{name}", ctrl_c)
    if name == "replace_set":
        monkeypatch.setattr("cardgen.cli.replace_set", ctrl_c)
    res = CliRunner().invoke(main, ["--root", str(project), "build", SLUG])
    assert res.exit_code == 130 and "interrupted" in res.stderr
    assert _snapshot(out / SLUG) == before


# --- engine crashes: every event field typed before an engine sees it -----------------------

LOGS = ROOT / "examples" / "logs"


@pytest.mark.parametrize("game, log, old, new", [
    ("boss_fight", "boss-wins-arena.yaml", "hp: {boss: 28,", 'hp: {boss: "x",'),
    ("boss_fight", "boss-wins-arena.yaml", "stats: {agility: -1}", "stats: {agility: null}"),
    ("boss_fight", "boss-wins-arena.yaml", "stats: {agility: -1}", "stats: {agility: [1]}"),
    ("dino_battles", "ko-win.yaml", "hp: {ana: 52, bo: 81}", "hp: {ana: null, bo: 81}"),
    ("bone_wars", "duel-2p.yaml", "stats: {str: 5, def: 3, atk: 4, hp: 6}", "stats: {str: null, def: 3, atk: 4, hp: 6}"),
    ("bone_wars", "duel-2p.yaml", "stats: {str: 5, def: 3, atk: 4, hp: 6}", "stats: {str: {a: 1}, def: 3, atk: 4, hp: 6}"),
])
def test_type_swapped_event_fields_are_log_type(tmp_path, game, log, old, new):
    text = (LOGS / game / log).read_text(encoding="utf-8")
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    bad = tmp_path / log
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    code, probs = problems_json("check", game, str(bad))
    assert code == 2 and [(p["rule"], p["line"]) for p in probs] == [("LOG-TYPE", line)], probs


def test_shape_check_types_map_items_and_nulls(tmp_path):
    from cardgen.checker import _check_shape
    from cardgen.playlog import LogError, read
    from cardgen.schema import Opt

    class Engine:
        HEADER: dict = {}
        EVENTS = {"hit": {"hp": Opt("map", item=Opt("int")), "stats": Opt("map", fields={"agility": Opt("int")}),
                          "free": Opt("map"), "any": Opt("any")}}
    for field, value in [("hp", '{a: "x"}'), ("hp", "{a: null}"), ("stats", "{agility: null}"),
                         ("free", "{a: null}"), ("free", "{a: [1, null]}")]:
        log = tmp_path / "log.yaml"
        log.write_text(f"game: g\nevents:\n  - kind: hit\n    {field}: {value}\n", encoding="utf-8")
        with pytest.raises(LogError) as e:
            _check_shape(Engine, read(log), "g")
        assert e.value.rule == "LOG-TYPE" and e.value.loc.line == 4, (field, value, e.value.message)
    log.write_text("game: g\nevents:\n  - {kind: hit, hp: {a: 1}, any: {x: null}}\n", encoding="utf-8")
    pl = read(log)
    _check_shape(Engine, pl, "g")
    assert pl.events[0]["hp"] == {"a": 1}


# --- deck, party and build files: name and notes are text ------------------------------------

@pytest.mark.parametrize("key, value", [("name", "[a, b]"), ("name", "{a: 1}"), ("notes", "[x]"), ("notes", "{a: b}")])
def test_deck_name_and_notes_are_text(tmp_path, key, value):
    deck = ROOT / "cards" / "dino_battles" / "decks" / "iron_herd.yaml"
    text = deck.read_text(encoding="utf-8")
    old = next(ln for ln in text.splitlines() if ln.strip().startswith(f"{key}:"))
    line = text.splitlines().index(old) + 1
    bad = tmp_path / "deck.yaml"
    bad.write_text(text.replace(old, f"  {key}: {value}", 1), encoding="utf-8")
    code, probs = problems_json("validate", "dino_battles", str(bad))
    assert code == 1 and [(p["rule"], p["line"]) for p in probs] == [("YAML-TYPE", line)], probs


def test_terminal_safe_summaries_and_usage_errors(project):
    f = project / "cards" / SLUG / "runners.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("name: Fox", 'name: "F\\e[2J\\nox"'), encoding="utf-8")
    code, out = run_cli("cards", SLUG, root=project)
    assert code == 0 and "\x1b" not in out and "F\\x1b[2J\\nox" in out
    code, out = run_cli("validate", "\x1b[2Jnope")
    assert code == 2 and "\x1b" not in out


def test_an_output_that_is_a_folder_is_replaced_with_the_set(built):
    project, out, before = built
    (out / SLUG / "cards.pdf").unlink()
    (out / SLUG / "cards.pdf").mkdir()                  # a folder where an output file goes
    (out / SLUG / "cards.pdf" / "junk").write_text("x")
    code, text = _build(project, out)
    assert code == 0, text
    assert (out / SLUG / "cards.pdf").is_file() and set(_snapshot(out / SLUG)) == set(before)

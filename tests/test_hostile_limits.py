"""Hostile input (issue 18), limits: YAML bombs and depth, huge numbers, bad dates, NUL; JSON
Lines; NaN and infinity; --offset; Jinja bombs; copies and counts; pictures. Each case ends in
one problem with a rule ID within seconds; bombs run in a memory-capped subprocess.
"""

from __future__ import annotations

import time

import pytest

from cardgen.core import sources
from cardgen.core.problems import Problems
from tests.conftest import problems_json, run_cli
from tests.hostilekit import cli_capped, project_fixture  # noqa: F401 - the fixture
from tests.test_games_are_data import SLUG

# --- YAML: bombs, depth, numbers, dates, NUL -------------------------------------------------

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8))


def _yaml_problems(text: str) -> list[str]:
    from cardgen.core.yamlsrc import parse_yaml
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
    from cardgen.builder.check import replay_log
    from cardgen.content.playlog import LogError, read
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
    from cardgen.cli.cmd_build import parse_offset
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

    from cardgen.layout.templates import make_env
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

"""Hostile input and faults (issue 18): nothing hangs, nothing crashes, nothing outside the
project is read, nothing is half-written.

Each attack ends in one clear problem line with a rule ID and exit 1 or 2, within seconds.
Cases that could exhaust memory run in a subprocess under ``resource.setrlimit``.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

import cardgen
from cardgen.core import sources
from cardgen.core.problems import Loc, Problem, Problems, safe
from tests.conftest import ROOT, problems_json, run_cli
from tests.hostilekit import cli_capped, project_fixture  # noqa: F401 - the fixture
from tests.test_games_are_data import SLUG

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


def test_safe_escapes_each_control_and_separator_as_unicode_escape_writes_it():
    escaped = [chr(i) for i in [*range(0x20), *range(0x7f, 0xa0), 0x2028, 0x2029]]
    for ch in escaped:
        assert safe(f"a{ch}b{ch}") == f"a{ch.encode('unicode_escape').decode('ascii')}b" \
            f"{ch.encode('unicode_escape').decode('ascii')}"
    kept = "".join(chr(i) for i in range(0x20, 0x3000) if chr(i) not in escaped)
    assert safe(kept) == kept


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
    from cardgen.core import images
    from cardgen.core.sandbox import ProjectLoader
    from cardgen.core.yamlsrc import load_yaml
    from cardgen.render import svg as render_svg

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
    """A static walk: outside cardgen/core/sources.py (and writers), no module opens a file itself."""
    src = Path(cardgen.__file__).parent
    allowed = {"sources.py", "atomic.py", "logschema.py", "fonts.py"}     # writers; bundled fonts
    raw = re.compile(r"\.read_(bytes|text)\(|\bopen\(|Image\.open\(|FileSystemLoader\(|drawImage\(|RLImage\(|ImageReader\(")
    offenders = []
    for f in src.rglob("*.py"):
        if f.name in allowed or "games" in f.parts:
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
    from cardgen.content.playlog import LogError, read
    with pytest.raises(LogError, match="regular file"):
        read(path)


def test_oversized_file_is_refused(project, monkeypatch):
    monkeypatch.setattr(sources, "MAX_TEXT_BYTES", 100)
    monkeypatch.setattr(sources.read_bytes, "__defaults__", (None, 100))
    probs = Problems()
    from cardgen.core.yamlsrc import load_yaml
    load_yaml(project / "cards" / SLUG / "runners.yaml", probs)
    assert [p.rule for p in probs] == ["FILE-SIZE"]


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
    from cardgen.builder.check import _check_shape
    from cardgen.content.playlog import LogError, read
    from cardgen.core.options import Opt

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


def test_symlinked_rulebook_chapter_is_refused(tmp_path, outside):
    from cardgen import rulebook
    from cardgen.content.loader import load_game
    from tests.conftest import GameCopy
    g = GameCopy(tmp_path / "copy", "bones_on_ice")
    chapter = g.root / "rules" / "bones_on_ice" / "rulebook" / "06-winning.md"
    chapter.unlink()
    chapter.symlink_to(outside / "secret.md")
    probs = Problems()
    game = load_game(g.root, "bones_on_ice", probs)
    with sources.project(g.root):
        rulebook.check(game, probs)
    assert [(p.rule, Path(p.loc.file).name) for p in probs.errors] == [("PATH-ESCAPE", "06-winning.md")]
    assert "TOP SECRET" not in str(probs.items)

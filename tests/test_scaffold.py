"""``cardgen new PATH``: a project folder of the designer's own (cards, templates, rules, example
logs, the game's code in its ``games/<slug>/`` and its own tests on :mod:`cardgen.testing`) that
builds, checks, type-checks and passes its tests at once, with nothing written inside cardgen's
package; a bad or taken name, or a bad player range, is exit 2 with nothing written."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
import tomllib
from click.testing import CliRunner

from cardgen import gamehooks
from cardgen.cli import main
from cardgen.scaffold import ScaffoldError, parse_players, prefix_for
from tests.conftest import ROOT, run_cli
from tests.player_text import developer_text, patterns, player_pdfs

PKG = ROOT / "cardgen"


def files_of(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def run(cwd: Path, *args: str, tool: str = "cardgen") -> subprocess.CompletedProcess:
    """A command as a designer types it in the project folder (cardgen from this Python)."""
    cmd = [sys.executable, "-m", "cardgen.cli", *args] if tool == "cardgen" else [sys.executable, "-m", tool, *args]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """``cardgen new <tmp>/games/dig_deep --players 2-3`` from a folder outside any project."""
    home = tmp_path_factory.mktemp("home")
    before = files_of(PKG)
    res = run(home, "new", str(home / "games" / "dig_deep"), "--players", "2-3")
    assert res.returncode == 0, res.stdout + res.stderr
    assert files_of(PKG) == before, "cardgen new wrote inside cardgen's own package"
    return home / "games" / "dig_deep"


@pytest.mark.parametrize("args,why", [
    (["bone_wars"], "exists already"), (["Dig-Deep"], "bad game name"), (["9lives"], "bad game name"),
    (["class"], "bad game name"), (["dig__deep"], "bad game name"), (["dig_deep", "--players", "4-2"], "players"),
    (["dig_deep", "--players", "1-3"], "players"), (["dig_deep", "--players", "two"], "players"),
    (["./Bad-Name"], "bad game name"),
])
def test_a_bad_or_taken_name_is_exit_2_and_writes_nothing(tmp_path, args, why):
    for part in ("rules", "cards", "templates"):
        shutil.copytree(ROOT / part / "bone_wars", tmp_path / part / "bone_wars")
    before = files_of(tmp_path)
    res = CliRunner().invoke(main, ["--root", str(tmp_path), "new", *args])
    assert res.exit_code == 2 and why in res.output, res.output
    assert files_of(tmp_path) == before


def test_a_folder_neither_empty_nor_a_project_is_exit_2(tmp_path):
    (tmp_path / "dig_deep").mkdir()
    (tmp_path / "dig_deep" / "notes.txt").write_text("mine", encoding="utf-8")
    res = CliRunner().invoke(main, ["new", str(tmp_path / "dig_deep")])
    assert res.exit_code == 2 and "neither empty nor a cardgen project" in res.output, res.output
    assert files_of(tmp_path) == {"dig_deep/notes.txt"}


def test_nothing_is_written_inside_cardgens_package():
    res = CliRunner().invoke(main, ["new", str(PKG / "games" / "dig_deep")])
    assert res.exit_code == 2 and "inside cardgen's own package" in res.output, res.output
    assert not (PKG / "games" / "dig_deep").exists()


def test_players_and_prefixes():
    assert parse_players("2-4") == (2, 4) and parse_players("3") == (3, 3) and parse_players("2–5") == (2, 5)
    with pytest.raises(ScaffoldError):
        parse_players("1-2")
    assert prefix_for("dig_deep", {"BW", "LB"}) == "DD"
    assert prefix_for("dig_deep", {"DD"}) == "DI"
    assert prefix_for("bones", {"BO"}) == "BON"


def test_the_project_holds_the_game_and_its_code(made):
    files = files_of(made)
    assert {"games/dig_deep/__init__.py", "games/dig_deep/engine.py", "games/dig_deep/state.py",
            "tests/conftest.py", "tests/test_check_dig_deep.py", "tests/test_play_dig_deep.py", "pyproject.toml",
            ".gitignore", "rules/dig_deep/game.yaml", "cards/dig_deep/reference.yaml",
            "templates/dig_deep/reference.yaml", "examples/logs/dig_deep/first-game.yaml",
            "docs/schemas/dig_deep.schema.json"} <= files, sorted(files)
    assert "players: {min: 2, max: 3}" in (made / "rules" / "dig_deep" / "params.yaml").read_text(encoding="utf-8")
    assert not any("cardgen.games" in (made / f).read_text(encoding="utf-8") for f in files if f.endswith(".py"))
    again = run(made, "new", "dig_deep")
    assert again.returncode == 2 and "exists already" in again.stderr


def test_the_new_project_validates_builds_and_checks_from_its_folder(made):
    assert run(made, "validate").returncode == 0
    res = run(made, "build", "--format", "json")
    assert res.returncode == 0, res.stdout + res.stderr
    out = made / "build" / "dig_deep"
    assert {"cards.pdf", "rulebook.pdf"} <= {p.name for p in out.iterdir()}
    if shutil.which("qpdf"):
        for pdf in ("cards.pdf", "rulebook.pdf"):
            assert subprocess.run(["qpdf", "--check", str(out / pdf)], capture_output=True).returncode == 0, pdf
    logs = made / "examples" / "logs" / "dig_deep"
    for name in ("first-game.yaml", "second-game.yaml"):
        res = run(made, "check", "dig_deep", f"examples/logs/dig_deep/{name}", "--format", "json")
        assert res.returncode == 0 and json.loads(res.stdout)["final"]["winner"], res.stdout + res.stderr
    res = run(made, "check", "dig_deep", str(logs / "table-slips.yaml"), "--format", "json")
    probs = json.loads(res.stdout)["problems"]
    assert res.returncode == 1 and [(p["rule"], p["line"]) for p in probs] == [("DD-TURN-1", n) for n in (10, 11, 13)]
    res = run(made, "rules", "explain", "DD-TURN-1")
    assert res.returncode == 0 and "Dig Deep · Play" in res.stdout


def test_the_player_rulebook_pictures_the_card_and_shows_no_developer_text(made):
    if not (made / "build" / "dig_deep" / "rulebook.pdf").is_file():
        assert run(made, "build").returncode == 0
    pats = patterns(made, "dig_deep")
    found = []
    for pdf in player_pdfs(made / "build", "dig_deep"):
        for n, page in enumerate(pypdf.PdfReader(pdf).pages, 1):
            text = page.extract_text()
            found += [f"{pdf.name} p.{n}: {hit}" for hit in developer_text(text, pats)]
            found += [f"{pdf.name} p.{n}: a tool command"] if "cardgen " in text else []
    assert not found, found
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(made / "build" / "dig_deep" / "rulebook.pdf").pages)
    assert "The turn summary" in text and "Turn Summary" in text        # the pictured card and its caption


def test_the_generated_suite_passes_with_plain_pytest(made):
    res = run(made, "-p", "no:cacheprovider", tool="pytest")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert " passed" in res.stdout and "failed" not in res.stdout


def test_the_generated_code_type_checks_and_is_lint_clean(made):
    if shutil.which("mypy", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("mypy is not installed")
    res = run(made, "--no-incremental", "--cache-dir", os.devnull, tool="mypy")
    assert res.returncode == 0, res.stdout + res.stderr
    res = run(made, "check", "games", "tests", tool="ruff")
    assert res.returncode == 0, res.stdout + res.stderr


def test_a_second_game_joins_the_project_and_a_game_without_code_says_so(made, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(made, project, ignore=shutil.ignore_patterns("build", "__pycache__"))
    res = run(project, "new", "gem_raiders")
    assert res.returncode == 0, res.stdout + res.stderr
    assert (project / "games" / "gem_raiders" / "__init__.py").is_file()
    assert (project / "pyproject.toml").read_text(encoding="utf-8") == (made / "pyproject.toml").read_text(encoding="utf-8")
    assert run(project, "check", "gem_raiders", "examples/logs/gem_raiders/first-game.yaml").returncode == 0
    shutil.rmtree(project / "games" / "dig_deep")
    res = run(project, "check", "dig_deep", "examples/logs/dig_deep/first-game.yaml")
    assert res.returncode == 2 and "dig_deep: it has no engine" in res.stderr, res.stderr
    res = run(project, "simulate", "dig_deep", "--games", "2")
    assert res.returncode == 2 and "it has no engine" in res.stderr, res.stderr
    assert run(project, "build", "dig_deep").returncode == 0             # still a complete printable game


def test_a_projects_game_package_is_found_by_path_under_its_own_name(made, monkeypatch):
    monkeypatch.chdir(made)
    gamehooks.use_project(None)
    try:
        assert gamehooks.where("dig_deep") == made.resolve() / "games" / "dig_deep"
        m = gamehooks.module("dig_deep")
        assert m is not None and m.__name__.startswith("cardgen_project_") and m.__name__.endswith(".dig_deep")
        assert str(made) not in sys.path and "dig_deep" in gamehooks.installed()
        assert gamehooks.where("bone_wars") == PKG / "games" / "bone_wars"        # the shipped games still
    finally:
        gamehooks.use_project(None)


def test_package_data_lists_every_file_cardgen_reads_at_run_time():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    data = [p.relative_to(PKG).as_posix() for p in PKG.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts and p.name != "README.md"]
    assert data
    missing = [d for d in data if not any(fnmatch.fnmatch(d, g.replace("**/", "*")) for g in globs["cardgen"])]
    assert not missing, missing
    assert run_cli("new", "--help")[0] == 0

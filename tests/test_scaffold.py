"""``cardgen new SLUG``: a new game that validates, builds and checks at once, in a copy of the
project (its game package goes to the copy's cardgen/games/, so the copy runs as its own
Python path); a bad or taken name, or a bad player range, is exit 2 with nothing written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.scaffold import ScaffoldError, parse_players, prefix_for
from tests.conftest import ROOT, run_cli

PARTS = ("cardgen", "rules", "cards", "templates", "maps", "docs", "examples", "tests")


def files_of(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of the project: sources, docs, examples and tests, nothing built."""
    copy = tmp_path_factory.mktemp("project")
    for part in PARTS:
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for f in ("pyproject.toml", "Makefile"):
        shutil.copy(ROOT / f, copy / f)
    return copy


def cardgen(project: Path, *args: str) -> subprocess.CompletedProcess:
    """``cardgen`` run with the copy's own package first on the path."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    return subprocess.run([sys.executable, "-m", "cardgen.cli", "--root", str(project), *args], cwd=project,
                          env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("args,why", [
    (["bone_wars"], "exists already"), (["Dig-Deep"], "bad game name"), (["9lives"], "bad game name"),
    (["class"], "bad game name"), (["dig__deep"], "bad game name"), (["dig_deep", "--players", "4-2"], "players"),
    (["dig_deep", "--players", "1-3"], "players"), (["dig_deep", "--players", "two"], "players"),
])
def test_a_bad_or_taken_name_is_exit_2_and_writes_nothing(tmp_path, args, why):
    for part in ("rules", "cards", "templates"):
        shutil.copytree(ROOT / part / "bone_wars", tmp_path / part / "bone_wars")
    (tmp_path / "cardgen" / "games").mkdir(parents=True)
    before = files_of(tmp_path)
    res = CliRunner().invoke(main, ["--root", str(tmp_path), "new", *args])
    assert res.exit_code == 2 and why in res.output, res.output
    assert files_of(tmp_path) == before


def test_players_and_prefixes():
    assert parse_players("2-4") == (2, 4) and parse_players("3") == (3, 3) and parse_players("2–5") == (2, 5)
    with pytest.raises(ScaffoldError):
        parse_players("1-2")
    assert prefix_for("dig_deep", {"BW", "LB"}) == "DD"
    assert prefix_for("dig_deep", {"DD"}) == "DI"
    assert prefix_for("bones", {"BO"}) == "BON"


def test_new_game_validates_builds_checks_and_passes_its_tests(project):
    res = cardgen(project, "new", "dig_deep", "--players", "2-3")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "wrote tests/goldens/traces/dig_deep/first-game.txt" in res.stdout
    assert (project / "cardgen" / "games" / "dig_deep" / "__init__.py").is_file()
    assert "players: {min: 2, max: 3}" in (project / "rules" / "dig_deep" / "params.yaml").read_text(encoding="utf-8")
    again = cardgen(project, "new", "dig_deep")
    assert again.returncode == 2 and "exists already" in again.stderr

    assert cardgen(project, "validate", "dig_deep").returncode == 0
    out = project / "build"
    res = cardgen(project, "build", "dig_deep", "--out", str(out), "--format", "json")
    assert res.returncode == 0, res.stdout
    assert {"cards.pdf", "rulebook.pdf"} <= {p.name for p in (out / "dig_deep").iterdir()}
    logs = project / "examples" / "logs" / "dig_deep"
    for name in ("first-game.yaml", "second-game.yaml"):
        res = cardgen(project, "check", "dig_deep", str(logs / name), "--format", "json")
        assert res.returncode == 0 and json.loads(res.stdout)["final"]["winner"], res.stdout
    res = cardgen(project, "check", "dig_deep", str(logs / "table-slips.yaml"), "--format", "json")
    probs = json.loads(res.stdout)["problems"]
    assert res.returncode == 1 and [(p["rule"], p["line"]) for p in probs] == [("DD-TURN-1", n) for n in (10, 11, 13)]
    assert all(p["title"] for p in probs)
    res = cardgen(project, "rules", "explain", "DD-TURN-1")
    assert res.returncode == 0 and "Dig Deep · Play" in res.stdout and "01-how-to-play.md" in res.stdout

    # the written code is lint-clean, as `make test` asks
    if shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff"):
        lint = subprocess.run([sys.executable, "-m", "ruff", "check", "cardgen/games/dig_deep",
                               "tests/test_check_dig_deep.py", "tests/test_play_dig_deep.py"],
                              cwd=project, capture_output=True, text=True)
        assert lint.returncode == 0, lint.stdout + lint.stderr

    # the new game's own tests, and every test that means "every game", pass in the copy
    env = {**os.environ, "PYTHONPATH": str(project), "CARDGEN_PLAY_GAMES": "8"}      # the proof, not the load
    tests = ["tests/test_check_dig_deep.py", "tests/test_play_dig_deep.py", "tests/test_rule_coverage.py",
             "tests/test_rule_registry.py", "tests/test_standalone.py", "tests/test_checker_framework.py"]
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *tests,
                          "-k", "dig_deep or registry or current or golden or every or answers_any_log"],
                         cwd=project, env=env, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]


def test_the_scaffold_is_package_data():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"scaffold/**/*"' in text
    assert run_cli("new", "--help")[0] == 0

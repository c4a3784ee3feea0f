"""Hostile input and faults (issue 18): nothing hangs, nothing crashes, nothing outside the
project is read, nothing is half-written.

Each attack ends in one clear problem line with a rule ID and exit 1 or 2, within seconds.
Cases that could exhaust memory run in a subprocess under ``resource.setrlimit``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cardgen.problems import Loc, Problem, Problems, safe
from tests.conftest import problems_json, run_cli
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
    for i in range(200_000):
        probs.error("X-1", f"violation {i}", Loc("log.yaml", i + 1, 1))
        probs.error("X-1", f"violation {i}", Loc("log.yaml", i + 1, 1))     # the same again: kept once
    assert len(probs) == 200_000
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

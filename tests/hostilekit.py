"""Shared helpers of the hostile-input tests: a memory-capped subprocess and a small project."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.test_games_are_data import make_project

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


@pytest.fixture(name="project")
def project_fixture(tmp_path: Path) -> Path:
    """A small project (``pebble_race``) to break on purpose; import it to use it as ``project``."""
    return make_project(tmp_path / "proj")

"""What a build imports before it starts: no module it does not use (``ctypes``, ``subprocess``:
~12 ms under ``core.atomic``), and the swap that needs them still works when it runs; the console
script loads the command line without the collector and the command turns it on."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cardgen import cli
from cardgen.builder import build, pipeline
from cardgen.cli import cmd_build
from cardgen.core import atomic
from tests.conftest import ROOT

UNUSED = ("ctypes", "ctypes.util", "subprocess")


def test_a_build_does_not_import_what_it_does_not_use():
    code = ("import sys, cardgen.cli, cardgen.builder.build, cardgen.core.atomic\n"
            f"print(','.join(m for m in {UNUSED!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert out.stdout.strip() == ""


def test_the_collector_is_off_while_the_command_loads_and_on_when_it_runs():
    """``cardgen.entry.run`` loads the command line and the command without the collector; the
    command line turns it on (what loaded frozen out of its passes) before the command runs."""
    code = ("import atexit, gc, sys\n"
            "seen = []\n"
            "import cardgen.cli.common as common\n"
            "orig = common.Ctx.__init__\n"
            "def spy(self, *a):\n"
            "    seen.append((gc.isenabled(), gc.get_freeze_count() > 0))\n"
            "    orig(self, *a)\n"
            "common.Ctx.__init__ = spy\n"
            "atexit.register(lambda: print(seen, gc.isenabled()))\n"
            "sys.argv = ['cardgen', 'build', '--help']\n"
            "from cardgen.entry import run\n"
            "run()\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "[(True, True)] True"


def test_a_command_line_run_in_process_leaves_the_collector_as_it_was():
    """Called with the collector on (tests, a host program), the command line freezes nothing."""
    before = gc.get_freeze_count()
    res = CliRunner().invoke(cli.main, ["build", "--help"])
    assert res.exit_code == 0 and gc.isenabled() and gc.get_freeze_count() == before


def test_a_build_lays_out_without_the_collector_and_leaves_nothing_frozen(tmp_path: Path, monkeypatch):
    """The build loads, checks and lays out its games without the collector's passes, then keeps
    what that made out of them (frozen) while it prints; when it ends nothing stays frozen and the
    collector is on again (a host program, the tests, go on as before)."""
    seen: list[tuple[str, bool]] = []
    lay_out, make = pipeline.lay_out, build._make

    def laying(*a, **k):
        seen.append(("lay out", gc.isenabled()))
        return lay_out(*a, **k)

    def making(*a, **k):
        seen.append(("print", gc.get_freeze_count() > 0 and gc.isenabled()))
        return make(*a, **k)
    monkeypatch.setattr(pipeline, "lay_out", laying)
    monkeypatch.setattr(build, "_make", making)
    before = gc.get_freeze_count()
    res = CliRunner().invoke(cli.main, ["--root", str(ROOT), "build", "bone_wars", "--only", "cards",
                                        "--out", str(tmp_path / "out")], env={"CARDGEN_CACHE": "on"})
    assert res.exit_code == 0, res.output
    assert seen[0] == ("lay out", False) and len(seen) > 1 and all(s == ("print", True) for s in seen[1:])
    assert gc.isenabled() and gc.get_freeze_count() == before == 0


def test_a_terminal_is_what_the_stream_says(tmp_path: Path):
    """The build's progress: click's bar on a terminal, else "building" said once as the bar says
    it there (tests/test_cli_build.py reads it on stderr)."""
    class Tty:
        def isatty(self) -> bool:
            return True

    class Broken:
        def isatty(self) -> bool:
            raise ValueError("closed")

    with open(tmp_path / "f", "w") as f:
        assert not cmd_build._is_terminal(f)
    assert cmd_build._is_terminal(Tty())
    assert not cmd_build._is_terminal(Broken()) and not cmd_build._is_terminal(object())


def test_a_real_folder_is_swapped_for_a_link_in_one_step(tmp_path: Path):
    """An older cardgen's real output folder: ``renameat2`` (loaded on first use) swaps it in one step."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    (a / "x").write_text("a")
    b.mkdir()
    (b / "x").write_text("b")
    if not atomic._exchange(a, b):          # a kernel or libc without RENAME_EXCHANGE: the two renames
        return
    assert (a / "x").read_text() == "b" and (b / "x").read_text() == "a"
    target = tmp_path / "game"
    target.mkdir()
    (target / "cards.pdf").write_bytes(b"old")
    atomic.replace_set(target, {"cards.pdf": b"new"})
    assert target.is_symlink() and (target / "cards.pdf").read_bytes() == b"new"
    assert not atomic.leftovers(target)

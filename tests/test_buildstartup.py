"""What a build imports before it starts: no module it does not use (``ctypes``, ``subprocess``:
~12 ms under ``core.atomic``), and the swap that needs them still works when it runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cardgen.core import atomic
from tests.conftest import ROOT

UNUSED = ("ctypes", "ctypes.util", "subprocess")


def test_a_build_does_not_import_what_it_does_not_use():
    code = ("import sys, cardgen.cli, cardgen.builder.build, cardgen.core.atomic\n"
            f"print(','.join(m for m in {UNUSED!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert out.stdout.strip() == ""


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

"""Hostile faults around outputs (issue 18): a game's outputs are replaced as a set; a file in
the way, a full or read-only disk, a kill between two renames or Ctrl-C leave the previous
outputs whole; no project here is exit 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostilekit import project_fixture  # noqa: F401 - the fixture
from tests.test_games_are_data import SLUG

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

    from cardgen.core import atomic
    project, out, before = built

    def full(*a, **k):
        raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)))

    monkeypatch.setattr(atomic.tempfile, "mkdtemp", full)
    code, text = _build(project, out, "--offset", "1mm,0")
    assert code == 1 and "build stopped: cannot write" in text and "previous outputs" in text
    assert _snapshot(out / SLUG) == before
    assert [p.name for p in out.iterdir() if p.name != ".cache"] == [SLUG]   # (.cache: the build cache)


def test_kill_between_the_renames_keeps_a_whole_set(built, monkeypatch):
    from cardgen.core import atomic
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
    assert [p.name for p in out.iterdir() if p.name != ".cache"] == [SLUG]   # (.cache: the build cache)


def test_next_build_recovers_what_a_killed_build_left(built):
    from cardgen.core import atomic
    project, out, before = built
    os.replace(out / SLUG, out / f".{SLUG}{atomic.OLD}x")          # killed after the first rename
    (out / f".{SLUG}{atomic.STAGE}y").mkdir()                     # and a staging folder left behind
    atomic.recover(out / SLUG)
    assert _snapshot(out / SLUG) == before
    (out / SLUG / ".cards.pdf.abc.tmp").write_bytes(b"half")      # a stray temp file of an old build
    code, _ = _build(project, out)
    assert code == 0 and sorted(p.name for p in out.iterdir() if p.name != ".cache") == [SLUG]
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
                             "--offset", "3mm,0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "CARDGEN_CACHE": "off"})     # a build from nothing: still running
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    if "built 1 game" in stderr:        # finished before the signal: a whole new set
        assert set(_snapshot(out / SLUG)) == set(before)
        return
    if "<frozen site>" in stderr or (proc.returncode == -signal.SIGINT and not stderr.strip()):
        # the interpreter's own start-up (before its signal handler or cardgen's first line)
        pytest.skip("the signal came before Python ran cardgen")
    assert proc.returncode == 130 and "interrupted" in stderr and "Traceback" not in stderr, stderr
    code, _ = _build(project, project / "ref", "--offset", "3mm,0")         # what the new set would be
    assert code == 0
    # nothing half-written: the previous set, or (interrupted after the swap) the whole new one
    assert _snapshot(out / SLUG) in (before, _snapshot(project / "ref" / SLUG))
    assert sorted(p.name for p in out.iterdir() if p.name != ".cache") == [SLUG]


@pytest.mark.parametrize("where", ["cardgen.builder.pipeline.validate", "cardgen.core.atomic.replace_set"])
def test_ctrl_c_inside_a_command(built, monkeypatch, where):
    from click.testing import CliRunner

    from cardgen.cli import main
    project, out, before = built

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt

    module, name = where.rsplit(".", 1)
    monkeypatch.setattr(f"{module}.{name}", ctrl_c)
    if name == "replace_set":
        monkeypatch.setattr("cardgen.cli.cmd_build.replace_set", ctrl_c)
    res = CliRunner().invoke(main, ["--root", str(project), "build", SLUG, "--offset", "2mm,0"])   # not up to date
    assert res.exit_code == 130 and "interrupted" in res.stderr
    assert _snapshot(out / SLUG) == before


def test_an_output_that_is_a_folder_is_replaced_with_the_set(built):
    project, out, before = built
    (out / SLUG / "cards.pdf").unlink()
    (out / SLUG / "cards.pdf").mkdir()                  # a folder where an output file goes
    (out / SLUG / "cards.pdf" / "junk").write_text("x")
    code, text = _build(project, out)
    assert code == 0, text
    assert (out / SLUG / "cards.pdf").is_file() and set(_snapshot(out / SLUG)) == set(before)


def test_help_works_anywhere(tmp_path):
    res = subprocess.run([sys.executable, "-m", "cardgen.entry", "build", "--help"], capture_output=True, text=True,
                         cwd=str(tmp_path), timeout=60)
    assert res.returncode == 0 and "Usage" in res.stdout

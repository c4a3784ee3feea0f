"""Hostile faults around outputs (issue 18): a game's outputs are replaced as a set; a file in
the way, a full or read-only disk, a kill between two renames or Ctrl-C leave the previous
outputs whole; no project here is exit 2.
"""

from __future__ import annotations

import os
import shutil
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


def _names(out: Path) -> list[str]:
    """What the output folder shows: the games' sets (not the build cache, nor the hidden folder
    each game's symlink points at); plus anything a killed build left."""
    from cardgen.core import atomic
    return sorted([p.name for p in out.iterdir() if not p.name.startswith(".")] +
                  [p.name for p in out.iterdir() if not p.name.startswith(".") for p in atomic.leftovers(p)])


def _problem_line(text: str, path: Path) -> str:
    """The one OUTPUT-WRITE problem line of a failed build, at ``path``:0:0."""
    lines = [ln for ln in text.splitlines() if "OUTPUT-WRITE error" in ln]
    assert len(lines) == 1 and lines[0].startswith(f"{path}:0:0: OUTPUT-WRITE error: cannot write to "), text
    return lines[0]


def test_build_dir_is_a_file(project):
    (project / "build").write_text("x")
    code, text = _build(project, project / "build")
    assert code == 1 and "is a file, not a folder" in _problem_line(text, project / "build") and "Traceback" not in text
    assert (project / "build").read_text() == "x"


def test_game_output_dir_is_a_file(project):
    (project / "build").mkdir()
    (project / "build" / SLUG).write_text("x")
    code, text = _build(project, project / "build")
    assert code == 1 and "is a file" in _problem_line(text, project / "build" / SLUG)
    assert (project / "build" / SLUG).read_text() == "x"


def test_build_dir_read_only_is_a_problem_line(built):
    project, out, before = built
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    out.chmod(0o555)
    try:
        code, text = _build(project, out, "--offset", "1mm,0")
    finally:
        out.chmod(0o755)
    assert code == 1 and "permission denied" in _problem_line(text, out / SLUG)
    assert _snapshot(out / SLUG) == before


@pytest.mark.parametrize("errno_name", ["ENOSPC", "EACCES", "EROFS"])
def test_write_failure_keeps_previous_outputs(built, monkeypatch, errno_name):
    import errno

    from cardgen.core import atomic
    project, out, before = built

    def full(*a, **k):
        raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)))

    monkeypatch.setattr(atomic.tempfile, "mkdtemp", full)
    code, text = _build(project, out, "--offset", "1mm,0")
    why = {"ENOSPC": "the disk is full"}.get(errno_name, "permission denied")
    assert code == 1 and why in _problem_line(text, out / SLUG) and "previous outputs" in text
    assert text.rstrip().splitlines()[-1] == f"build stopped: the previous outputs of {SLUG} are intact."
    assert _snapshot(out / SLUG) == before
    assert _names(out) == [SLUG]


def test_a_kill_at_any_rename_keeps_a_whole_set(built, monkeypatch):
    from cardgen.core import atomic
    project, out, before = built
    real = os.replace
    calls = []

    def killed(src, dst):
        calls.append((src, dst))
        raise KeyboardInterrupt            # before the swap: the old set, whole

    monkeypatch.setattr(atomic.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        atomic.replace_set(out / SLUG, {"cards.pdf": b"new", "cards.json": b"new"})
    monkeypatch.setattr(atomic.os, "replace", real)
    assert len(calls) == 1 and _snapshot(out / SLUG) == before
    assert _names(out) == [SLUG]


def test_the_next_build_recovers_a_legacy_two_rename_swap(built):
    from cardgen.core import atomic
    project, out, before = built
    legacy = out / "legacy"
    legacy.mkdir()
    (legacy / "cards.pdf").write_bytes(b"old")
    os.replace(legacy, out / f".legacy{atomic.OLD}x")              # killed after the first rename
    (out / f".legacy{atomic.STAGE}y").mkdir()                     # and a staging folder left behind
    atomic.recover(out / "legacy")
    assert (out / "legacy" / "cards.pdf").read_bytes() == b"old" and not atomic.leftovers(out / "legacy")
    atomic.replace_set(out / "legacy", {"cards.pdf": b"new"})     # a real folder becomes the symlink
    assert (out / "legacy").is_symlink() and (out / "legacy" / "cards.pdf").read_bytes() == b"new"
    assert not atomic.leftovers(out / "legacy")


def test_next_build_recovers_what_a_killed_build_left(built):
    from cardgen.core import atomic
    project, out, before = built
    (out / f".{SLUG}{atomic.SET}y").mkdir()                       # a set never swapped in
    (out / f".{SLUG}{atomic.LINK}z").symlink_to(f".{SLUG}{atomic.SET}y")
    (out / SLUG / ".cards.pdf.abc.tmp").write_bytes(b"half")      # a stray temp file of an old build
    assert len(atomic.leftovers(out / SLUG)) == 3
    code, _ = _build(project, out)
    assert code == 0 and _names(out) == [SLUG]
    assert not list((out / SLUG).glob("*.tmp"))


KILLER = """
import os, signal, sys
from cardgen.core import atomic
real = os.replace
def replace(src, dst):
    real(src, dst)
    if os.path.basename(str(dst)) == {slug!r}:
        os.kill(os.getpid(), signal.SIGKILL)     # kill -9 right after the set's rename
atomic.os.replace = replace
sys.argv = ["cardgen", "--root", {root!r}, "build", {slug!r}, "--offset", {offset!r}]
from cardgen.cli import main
main()
"""


def test_kill_9_right_after_the_rename_leaves_the_whole_new_set(built):
    """A build SIGKILLed right after the rename that swaps its set in (a subprocess whose os.replace
    kills it): cards.pdf and cards.json are there, the new set, whole; the next build cleans up."""
    import signal
    project, out, before = built
    res = subprocess.run([sys.executable, "-c", KILLER.format(slug=SLUG, root=str(project), offset="2mm,0")],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "CARDGEN_CACHE": "off"})
    assert res.returncode == -signal.SIGKILL, res.stderr
    after = _snapshot(out / SLUG)
    assert set(after) == set(before) and after != before          # the new set, every file of it
    code, _ = _build(project, out, "--offset", "2mm,0")
    assert code == 0 and _snapshot(out / SLUG) == after and _names(out) == [SLUG]


READER = """
import json, os, sys
folder, stop = sys.argv[1], sys.argv[2]
seen = 0
while not os.path.exists(stop):
    try:
        names = set(os.listdir(folder))
        with open(os.path.join(folder, "cards.json"), "rb") as f:
            json.loads(f.read())                  # whole, not half-written
        with open(os.path.join(folder, "cards.pdf"), "rb") as f:
            pdf = f.read()
    except (OSError, ValueError) as e:
        print("BROKEN", e); sys.exit(1)
    if not {"cards.pdf", "cards.json", "duplex-calibration.pdf"} <= names or not pdf.rstrip().endswith(b"%%EOF"):
        print("MISSING", sorted(names)); sys.exit(1)
    seen += 1
print(seen)
"""


def test_a_reader_always_finds_a_whole_set(built):
    """While builds replace the set again and again, a reader polling the folder never finds a
    file of the set missing or half-written (the symlink swap is one rename; the previous set is
    kept until the next build, so a reader that resolved the old link reads it whole)."""
    project, out, before = built
    stop = project / "stop"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(out / SLUG), str(stop)], stdout=subprocess.PIPE,
                              text=True)
    try:
        for mm in ("1mm,0", "2mm,0", "3mm,0", "4mm,0", "5mm,0"):
            code, text = _build(project, out, "--offset", mm)
            assert code == 0, text
    finally:
        stop.write_text("")
        got, _ = reader.communicate(timeout=60)
    assert reader.returncode == 0 and int(got) > 0, got


def test_outputs_are_replaced_as_a_set(built):
    project, out, before = built
    code, _ = _build(project, out, "--offset", "2mm,0")
    after = _snapshot(out / SLUG)
    assert code == 0 and set(after) == set(before)


# --- start-up, project, Ctrl-C ---------------------------------------------------------------

def test_no_project_here(tmp_path):
    for args, where in ((["--root", "/nonexistent", "validate"], "/nonexistent"), (["validate"], "."),   # (cwd: ".")
                        (["--root", str(tmp_path), "build"], "."), (["rules", "explain", "X"], ".")):
        res = subprocess.run([sys.executable, "-m", "cardgen.entry", *args], capture_output=True, text=True,
                             cwd=str(tmp_path), timeout=60)
        assert res.returncode == 2, (args, res.stderr)
        assert res.stderr.splitlines() == [f"{where}:0:0: PROJECT-MISSING error: no cardgen project here: a project "
                                           "folder holds rules/ and cards/ (give it with --root)"], (args, res.stderr)


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
    assert _names(out) == [SLUG]


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
        monkeypatch.setattr("cardgen.builder.build.replace_set", ctrl_c)
    res = CliRunner().invoke(main, ["--root", str(project), "build", SLUG, "--offset", "2mm,0"])   # not up to date
    assert res.exit_code == 130 and "interrupted" in res.stderr
    assert _snapshot(out / SLUG) == before


def test_an_output_that_is_a_folder_is_an_error_and_the_folder_stays(built):
    project, out, before = built
    (out / SLUG / "cards.pdf").unlink()
    (out / SLUG / "cards.pdf").mkdir()                  # a folder where an output file goes: the user's
    (out / SLUG / "cards.pdf" / "junk").write_text("x")
    code, text = _build(project, out, "--offset", "1mm,0")
    assert code == 1 and "it is a folder" in _problem_line(text, out / SLUG / "cards.pdf")
    assert (out / SLUG / "cards.pdf" / "junk").read_text() == "x"
    shutil.rmtree(out / SLUG / "cards.pdf")             # the twin: moved away, the build writes
    code, text = _build(project, out)
    assert code == 0, text
    assert (out / SLUG / "cards.pdf").is_file() and set(_snapshot(out / SLUG)) == set(before)


def test_a_proof_whose_pdf_path_is_a_folder_is_an_error(project):
    from click.testing import CliRunner

    from cardgen.cli import main
    folder = project / "build" / "proof" / SLUG / "proof.pdf"
    folder.mkdir(parents=True)
    res = CliRunner().invoke(main, ["--root", str(project), "proof", SLUG, "hare"])
    assert res.exit_code == 1 and res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.stdout.startswith(f"{folder}:0:0: OUTPUT-WRITE error: cannot write to {folder}: it is a folder"), \
        res.stdout + res.stderr
    folder.rmdir()
    res = CliRunner().invoke(main, ["--root", str(project), "proof", SLUG, "hare"])
    assert res.exit_code == 0 and folder.is_file()


def test_help_works_anywhere(tmp_path):
    res = subprocess.run([sys.executable, "-m", "cardgen.entry", "build", "--help"], capture_output=True, text=True,
                         cwd=str(tmp_path), timeout=60)
    assert res.returncode == 0 and "Usage" in res.stdout


@pytest.mark.parametrize("args", [["schema", "bone_wars", "--out", "{out}"],
                                  ["proof", "bone_wars", "limbs_raptor", "--out", "{out}"],
                                  ["simulate", "dino_battles", "--games", "2", "--workers", "1", "--out", "{out}"],
                                  ["build", "bone_wars", "--only", "cards", "--out", "{out}"]])
def test_every_command_that_writes_says_output_write_at_the_path(tmp_path, args):
    """A file where an output folder goes, in any command that writes: one OUTPUT-WRITE problem line at
    the file, exit 1, no traceback; the twin (a folder) writes."""
    from click.testing import CliRunner

    from cardgen.cli import main
    from tests.conftest import ROOT
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    res = CliRunner().invoke(main, ["--root", str(ROOT), *[a.format(out=blocker / "sub") for a in args]])
    assert res.exit_code == 1 and res.exception is None or isinstance(res.exception, SystemExit), res.exception
    lines = [ln for ln in res.stdout.splitlines() if "OUTPUT-WRITE" in ln]
    assert lines == [f"{blocker}:0:0: OUTPUT-WRITE error: cannot write to {blocker / 'sub'}: {blocker} is a file, "
                     "not a folder"], res.stdout + res.stderr
    assert blocker.read_text() == "x"
    res = CliRunner().invoke(main, ["--root", str(ROOT), *[a.format(out=tmp_path / "ok") for a in args]])
    assert res.exit_code == 0 and any((tmp_path / "ok").rglob("*")), res.stdout + res.stderr


def test_output_write_in_json_is_a_problem_of_the_document(tmp_path):
    import json

    from click.testing import CliRunner

    from cardgen.cli import main
    from tests.conftest import ROOT
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    res = CliRunner().invoke(main, ["--root", str(ROOT), "proof", "bone_wars", "limbs_raptor", "--out",
                                    str(blocker / "sub"), "--format", "json"])
    assert res.exit_code == 1
    probs = json.loads(res.stdout)["problems"]
    assert [(p["rule"], p["file"], p["line"]) for p in probs] == [("OUTPUT-WRITE", str(blocker), 0)], probs


@pytest.mark.parametrize("where", ["fsync", "symlink"])
def test_disk_full_half_way_through_the_set_keeps_the_previous_one(built, monkeypatch, where):
    """ENOSPC while the new set's files are written (fsync) or while its link is made: one OUTPUT-WRITE
    line, exit 1, the previous set whole, nothing left behind."""
    import errno

    from cardgen.core import atomic
    project, out, before = built

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, where, full)
    code, text = _build(project, out, "--offset", "1mm,0")
    assert code == 1 and "the disk is full" in _problem_line(text, out / SLUG)
    monkeypatch.undo()
    assert _snapshot(out / SLUG) == before and _names(out) == [SLUG]


def test_a_real_folder_without_renameat2_is_swapped_by_two_renames_and_recovered(tmp_path, monkeypatch):
    """Where the kernel has no RENAME_EXCHANGE, an older cardgen's real folder becomes the symlink
    with two renames; a kill between them is undone by the next build (the previous set returns)."""
    from cardgen.core import atomic
    target = tmp_path / "game"
    target.mkdir()
    (target / "cards.pdf").write_bytes(b"old")
    monkeypatch.setattr(atomic, "_exchange", lambda a, b: False)
    real = os.symlink
    calls = []

    def killed(src, dst, *a, **k):
        calls.append(dst)
        if Path(dst) == target:                 # the second step: killed before it
            raise KeyboardInterrupt
        return real(src, dst, *a, **k)

    monkeypatch.setattr(atomic.os, "symlink", killed)
    with pytest.raises(KeyboardInterrupt):
        atomic.replace_set(target, {"cards.pdf": b"new"})
    monkeypatch.setattr(atomic.os, "symlink", real)
    atomic.recover(target)
    assert (target / "cards.pdf").read_bytes() == b"old" and not atomic.leftovers(target)
    atomic.replace_set(target, {"cards.pdf": b"new"})
    assert target.is_symlink() and (target / "cards.pdf").read_bytes() == b"new" and not atomic.leftovers(target)


def test_ctrl_c_while_a_set_is_written_waits_for_it():
    """Inside replace_set a Ctrl-C is held until the set is in place and its leftovers gone, then
    raised: no stray hidden folder."""
    import signal

    from cardgen.core import atomic
    done = []
    with pytest.raises(KeyboardInterrupt):
        with atomic.ctrl_c_after():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            done.append(True)               # still running after the signal
    assert done == [True]
    assert signal.getsignal(signal.SIGINT) is not None

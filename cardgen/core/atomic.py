"""Atomic output: a file, or a game's whole set of outputs, replaced at once.

- :func:`write_bytes`: write to a temporary file beside the target, fsync, then rename over it.
- :func:`replace_set`: a game's outputs ``build/<game>`` are one folder, ``build/.<game>.set-XXXX``,
  and ``build/<game>`` is a symlink to it. A build writes the new set into a fresh such folder
  (each file and the folder fsynced), then points a new symlink at it and renames that over
  ``build/<game>`` — one ``rename(2)``, atomic — and fsyncs ``build/``. At every instant a reader
  finds either the whole previous set or the whole new one, whenever the process is killed
  (``kill -9``, power loss after the fsyncs). The previous set's folder stays, behind the link
  ``build/.<game>.kept``, until the next build: a reader that resolved ``build/<game>`` just before
  the swap reads it whole. At most two sets are on disk.
- :func:`recover`, run by the next build (and :func:`leftovers` to see them): set folders no
  symlink points at, half-made symlinks, the legacy ``.staging-``/``.previous-`` folders and
  ``.tmp`` files of a killed build are removed; a previous set moved aside but never replaced
  (the legacy two-rename swap) is put back.

``build/<game>`` as a real folder (written by an older cardgen) is swapped for the symlink with
``renameat2(RENAME_EXCHANGE)`` where the kernel has it (Linux), else with two renames (a kill
between them is recovered by the next build).

A failure (read-only or full disk, a file where a folder must be, a folder where an output file
must be) raises :class:`OutputError` naming the path and the reason; the previous outputs stay as
they were.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cardgen.core.lazymod import lazy

# loaded when an older cardgen's output folder is first swapped for a link (~12 ms of start-up
# otherwise: ctypes.util imports subprocess)
ctypes = lazy("ctypes")
ctypes_util = lazy("ctypes.util")

STAGE, OLD, SET, LINK, KEPT = ".staging-", ".previous-", ".set-", ".link-", ".kept"


class OutputError(Exception):
    """An output that cannot be written; the message names the path and the reason, ``path`` is it."""

    def __init__(self, message: str, path: str | os.PathLike = ""):
        super().__init__(message)
        self.path = str(path)


def _why(e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return "the disk is full"
    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "permission denied (read-only?)"
    if e.errno == errno.ENOTDIR:
        return "a file stands where a folder must be"
    if e.errno == errno.EISDIR:
        return "a folder stands where a file must be"
    return e.strerror or str(e)


def failed(path: str | os.PathLike, e: OSError) -> OutputError:
    """The :class:`OutputError` of an OSError met writing ``path``."""
    return OutputError(f"cannot write to {path}: {_why(e)}", e.filename or path)


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write one file atomically. A folder at ``path`` is an :class:`OutputError` (never replaced)."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"cannot write to {target}: it is a folder, where cardgen writes a file; move it away",
                          target)
    check_folder(target.parent)
    tmp = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
        tmp = None
        _fsync_dir(target.parent)
    except OSError as e:
        raise failed(target, e) from e
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write_scratch(path: Path, parts: Iterable[bytes | memoryview]) -> None:
    """``parts`` one after another into ``path``, a scratch file its caller renames into place
    (no fsync: for a cache, whose lost entry only costs time); never joined in memory."""
    with open(path, "wb") as f:
        f.writelines(parts)


def write_text(path: str | os.PathLike, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _hidden(target: Path, kind: str) -> list[Path]:
    parent = target.parent
    if not parent.is_dir():
        return []
    return sorted(p for p in parent.iterdir() if p.name.startswith(f".{target.name}{kind}"))


def _current(target: Path, link: Path | None = None) -> Path | None:
    """The set folder ``link`` (default: ``target``, a symlink) points at, when it is one of ours."""
    link = link or target
    if not link.is_symlink():
        return None
    dest = target.parent / os.readlink(link)
    return dest if dest.parent == target.parent and dest.name.startswith(f".{target.name}{SET}") else None


def _kept(target: Path) -> Path:
    """The symlink to the previous set, kept until the next build: a reader that resolved
    ``target`` just before the swap goes on reading a whole set."""
    return target.parent / f".{target.name}{KEPT}"


def leftovers(target: str | os.PathLike) -> list[Path]:
    """What a killed build left beside or in ``target``: :func:`recover` removes it."""
    target = Path(target)
    keep = {_current(target), _current(target, _kept(target))}
    found = [p for kind in (STAGE, OLD, SET, LINK) for p in _hidden(target, kind) if p not in keep]
    if target.is_dir():
        found += sorted(target.glob(".*.tmp"))
    return found


def recover(target: Path) -> None:
    """Undo what a killed build left: put back a previous set that was moved aside but never
    replaced, and remove set folders no symlink points at, staging folders, stale previous sets,
    half-made symlinks and ``.tmp`` files."""
    olds = _hidden(target, OLD)
    if olds and not target.exists() and not target.is_symlink():
        os.replace(olds[-1], target)
    for p in leftovers(target):
        if p.is_symlink() or p.is_file():
            try:
                p.unlink()
            except OSError:
                pass
        else:
            shutil.rmtree(p, ignore_errors=True)


def check_folder(path: Path) -> None:
    """``path`` can hold outputs: no file stands at it or at any folder above it."""
    for p in [path, *path.parents]:
        if p.exists() or p.is_symlink():
            if not p.is_dir():
                raise OutputError(f"cannot write to {path}: {p} is a file, not a folder", p)
            return


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2``); False where that is not available."""
    libc_name = ctypes_util.find_library("c")
    if not libc_name:
        return False
    try:
        fn = ctypes.CDLL(libc_name, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _keep(target: Path, previous: Path) -> None:
    """Point the kept link at ``previous`` (the set just replaced) and remove the one it kept before."""
    kept = _kept(target)
    before = _current(target, kept)
    tmp = target.parent / f".{target.name}{LINK}{previous.name.rsplit('-', 1)[-1]}k"
    os.symlink(previous.name, tmp)
    os.replace(tmp, kept)
    if before is not None and before not in (previous, _current(target)):
        shutil.rmtree(before, ignore_errors=True)


@contextmanager
def ctrl_c_after() -> Iterator[None]:
    """Ctrl-C (SIGINT) while inside is held until the end, then raised: a set being written and
    swapped in is finished and cleaned up, never left half-way (a stray hidden folder). Only the
    main thread can hold it; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)
    if held:
        raise KeyboardInterrupt


def replace_set(target: str | os.PathLike, files: dict[str, bytes]) -> list[Path]:
    """Make ``target`` hold exactly ``files`` ({name: bytes}), all at once; returns the paths.
    Ctrl-C waits for the set to be in place (or the old one kept) and its leftovers gone."""
    with ctrl_c_after():
        return _replace_set(target, files)


def _replace_set(target: str | os.PathLike, files: dict[str, bytes]) -> list[Path]:
    target = Path(target)
    check_folder(target)
    for name in files:          # a folder the user put where an output goes is theirs: not replaced
        p = target / name
        if p.is_dir() and not p.is_symlink():
            raise OutputError(f"cannot write to {p}: it is a folder, where cardgen writes a file; move it away", p)
    stage = link = aside = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        recover(target)
        if (target.exists() or target.is_symlink()) and not target.is_dir():
            raise OutputError(f"cannot write to {target}: it is a file, not a folder", target)
        stage = Path(tempfile.mkdtemp(prefix=f".{target.name}{SET}", dir=target.parent))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(stage, 0o777 & ~umask)
        for name, data in files.items():
            dest = stage / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            with open(dest, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(dest, 0o666 & ~umask)
        _fsync_dir(stage)
        previous = _current(target)
        link = target.parent / f".{target.name}{LINK}{stage.name.rsplit('-', 1)[-1]}"
        os.symlink(stage.name, link)
        if target.is_symlink() or not target.exists():
            os.replace(link, target)                 # the one step: old set or new, never neither
            link = None
        elif _exchange(link, target):                # an older cardgen's real folder: swapped in one step
            previous = link
            link = None
        else:                                        # no renameat2: two renames, recovered if killed between
            os.unlink(link)
            link = None
            previous = Path(tempfile.mkdtemp(prefix=f".{target.name}{OLD}", dir=target.parent))
            os.replace(target, previous)
            aside = previous                         # (interrupted now: put back below)
            os.symlink(stage.name, target)
            aside = None
        stage = None
        _fsync_dir(target.parent)
        if previous is not None and previous.name.startswith(f".{target.name}{SET}"):
            _keep(target, previous)
        elif previous is not None:                   # an older cardgen's folder, moved aside
            shutil.rmtree(previous, ignore_errors=True)
    except OSError as e:
        raise failed(target, e) from e
    finally:
        if link is not None:
            try:
                link.unlink()
            except OSError:
                pass
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
        if aside is not None and not target.exists() and not target.is_symlink():
            os.replace(aside, target)                # between the two renames: the previous set returns
    return [target / name for name in files]

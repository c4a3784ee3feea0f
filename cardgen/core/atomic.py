"""Atomic output: a file, or a game's whole set of outputs, replaced at once.

- :func:`write_bytes`: write to a temporary file beside the target, then rename over it.
- :func:`replace_set`: a game's outputs (``build/<game>/``) are staged in a hidden sibling
  folder, then swapped in by two renames. A kill between them leaves the previous set
  under its hidden name, and the next build puts it back before anything else: a new
  cards.pdf never stands beside an old cards.json. Stray staging folders and ``.tmp``
  files of a killed build are removed by the next one.

A failure (read-only or full disk, a file where a folder must be) raises :class:`OutputError`
with one clear sentence; the previous outputs stay as they were.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path

STAGE, OLD = ".staging-", ".previous-"


class OutputError(Exception):
    """An output that cannot be written; the message names the path and the reason."""


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


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text(path: str | os.PathLike, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def _hidden(target: Path, kind: str) -> list[Path]:
    parent = target.parent
    if not parent.is_dir():
        return []
    return sorted(p for p in parent.iterdir() if p.name.startswith(f".{target.name}{kind}"))


def recover(target: Path) -> None:
    """Undo what a killed build left: put back a previous set that was moved aside but never
    replaced, and remove staging folders, stale previous sets and ``.tmp`` files."""
    olds = _hidden(target, OLD)
    if olds and not target.exists():
        os.replace(olds[-1], target)
        olds = olds[:-1]
    for p in _hidden(target, STAGE) + olds:
        shutil.rmtree(p, ignore_errors=True)
    if target.is_dir():
        for p in target.glob(".*.tmp"):
            try:
                p.unlink()
            except OSError:
                pass


def check_folder(path: Path) -> None:
    """``path`` can hold outputs: no file stands at it or at any folder above it."""
    for p in [path, *path.parents]:
        if p.exists() or p.is_symlink():
            if not p.is_dir():
                raise OutputError(f"cannot write to {path}: {p} is a file, not a folder")
            return


def replace_set(target: str | os.PathLike, files: dict[str, bytes]) -> list[Path]:
    """Make folder ``target`` hold exactly ``files`` ({name: bytes}), all at once; returns the paths."""
    target = Path(target)
    check_folder(target)
    stage = old = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        recover(target)
        if target.exists() and not target.is_dir():
            raise OutputError(f"cannot write to {target}: it is a file, not a folder")
        stage = Path(tempfile.mkdtemp(prefix=f".{target.name}{STAGE}", dir=target.parent))
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
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}{OLD}", dir=target.parent))
            os.replace(target, old)          # kill here: the next build's recover() puts it back
            os.replace(stage, target)
            stage = None
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(stage, target)
            stage = None
    except OSError as e:
        raise OutputError(f"cannot write to {target}: {_why(e)}") from e
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
            if old is not None and old.exists() and not target.exists():
                os.replace(old, target)      # interrupted between the renames: the previous set returns
    return [target / name for name in files]

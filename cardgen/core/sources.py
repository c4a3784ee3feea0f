"""The one way cardgen reads a file: resolved, inside the project, a regular file, bounded.

Every reader of the project (game settings, parameters, cards, decks, templates, maps,
rulebook chapters and their includes, images, playtest logs) goes through
:func:`resolve` or :func:`read_bytes`:

- the path is resolved (symlinks followed) and must lie inside the project root: a card
  file, a chapter or a whole ``rules/<game>`` folder that is a symlink to elsewhere is a
  ``PATH-ESCAPE`` problem, never read;
- only regular files are read: a FIFO, a device (``/dev/zero``) or a folder is ``FILE-KIND``;
- a file larger than its cap is ``FILE-SIZE``, read no further.

The project root is the one being loaded (:func:`project`, set by the loader and the command
line). Files a user names on the command line (a log, a deck to check) are read where they
are (:func:`named`), with the same kind and size checks, and so are the files a named log
names beside itself (:func:`beside`: its boss and party builds), never above its folder.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

MAX_TEXT_BYTES = 64 * 1024 * 1024      # YAML and Markdown sources
MAX_LOG_BYTES = 512 * 1024 * 1024      # a playtest log (a million events are about 100 MB)
MAX_IMAGE_BYTES = 64 * 1024 * 1024     # PNG and JPEG files (their pixels are bounded by Pillow)

_ROOT: ContextVar[Path | None] = ContextVar("cardgen_project_root", default=None)
_NAMED: ContextVar[frozenset[str]] = ContextVar("cardgen_named_files", default=frozenset())
_BESIDE: ContextVar[tuple[Path, ...]] = ContextVar("cardgen_named_folders", default=())


class SourceError(Exception):
    """A file that may not or cannot be read; ``rule`` is the problem's rule ID."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule, self.message = rule, message


def set_project(root: Path | None) -> None:
    """The project whose files are read from now on (the loader and the command line)."""
    _ROOT.set(Path(root).resolve() if root is not None else None)


def current_project() -> Path | None:
    return _ROOT.get()


@contextlib.contextmanager
def project(root: Path | None) -> Iterator[None]:
    """Within the block, reads are confined to ``root``."""
    token = _ROOT.set(Path(root).resolve() if root is not None else None)
    try:
        yield
    finally:
        _ROOT.reset(token)


@contextlib.contextmanager
def named(*paths: str | os.PathLike) -> Iterator[None]:
    """Within the block, these files (named on the command line) may lie outside the project."""
    extra = {str(Path(p).absolute()) for p in paths}
    token = _NAMED.set(_NAMED.get() | extra)
    try:
        yield
    finally:
        _NAMED.reset(token)


@contextlib.contextmanager
def beside(path: str | os.PathLike) -> Iterator[None]:
    """Within the block, files in the folder of ``path`` (a log named on the command line) may be
    read too: the boss and party builds a playtest log names relative to itself."""
    token = _BESIDE.set((*_BESIDE.get(), Path(path).absolute().parent.resolve()))
    try:
        yield
    finally:
        _BESIDE.reset(token)


def resolve(path: str | os.PathLike, root: Path | None = None, cap: int = MAX_TEXT_BYTES) -> Path:
    """``path`` resolved, checked (inside the project, a regular file, at most ``cap`` bytes)."""
    text = str(path)
    if "\0" in text:
        raise SourceError("PATH-ESCAPE", f"{text!r} is no file name (it holds a NUL byte)")
    p = Path(text)
    try:
        real = p.resolve()
    except (OSError, RuntimeError) as e:          # a symlink loop
        raise SourceError("FILE-MISSING", f"cannot read {text}: {e}") from e
    base = root if root is not None else _ROOT.get()
    if base is not None and str(p.absolute()) not in _NAMED.get():
        base = Path(base).resolve()
        if not real.is_relative_to(base) and not any(real.is_relative_to(b) for b in _BESIDE.get()):
            raise SourceError("PATH-ESCAPE", f"{text} leads outside the project folder (to {real}); "
                              "cardgen reads only files inside the project")
    try:
        st = os.stat(real)
    except OSError as e:
        raise SourceError("FILE-MISSING", f"cannot read {text}: {e.strerror or e}") from e
    _check_stat(text, st, cap)
    return real


def escapes(folder: str | os.PathLike, root: Path | None = None) -> list[tuple[Path, Path]]:
    """Every folder symlink at or under ``folder`` (the folder itself included) that leads outside the
    project, as (the link, where it leads): a game folder or a sub-folder (decks, a rulebook) that
    is a symlink to elsewhere is refused as a whole — one problem — before any file of it is listed.
    Links are not followed while looking; a missing folder has none."""
    start = Path(folder)
    real = leaves(start, root)
    if real is not None:
        return [(start, real)]
    if not start.is_dir():
        return []
    found: list[tuple[Path, Path]] = []
    for top, dirs, _files in os.walk(start, followlinks=False):     # (files: each checked as it is read)
        for name in dirs:
            p = Path(top, name)
            real = leaves(p, root)
            if real is not None:
                found.append((p, real))
    return found


def leaves(path: str | os.PathLike, root: Path | None = None) -> Path | None:
    """Where ``path``, a symlink, leads when that is outside the project; else None."""
    p = Path(path)
    if not p.is_symlink():
        return None
    try:
        real = p.resolve()
    except (OSError, RuntimeError):
        return None
    base = Path(root if root is not None else _ROOT.get() or ".").resolve()
    return None if real.is_relative_to(base) else real


def is_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a file; False for a name no file system can hold (too long, a NUL), where
    ``Path.is_file`` raises."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def _check_stat(text: str, st: os.stat_result, cap: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) else \
            "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file"
        raise SourceError("FILE-KIND", f"{text} is {what}; cardgen reads only regular files")
    if st.st_size > cap:
        raise SourceError("FILE-SIZE", f"{text} is {st.st_size:,} bytes, more than the {cap:,} bytes "
                          "cardgen reads from one file")


def read_bytes(path: str | os.PathLike, root: Path | None = None, cap: int = MAX_TEXT_BYTES) -> bytes:
    """The checked file's bytes (at most ``cap``; the file is re-checked once open)."""
    real = resolve(path, root, cap)
    try:
        fd = os.open(real, os.O_RDONLY | _OPEN_FLAGS)
    except OSError as e:
        raise SourceError("FILE-MISSING", f"cannot read {path}: {e.strerror or e}") from e
    return _read_open(fd, path, cap)


_OPEN_FLAGS = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def read_in(folder: Path, name: str, cap: int) -> bytes | None:
    """The bytes of the regular file ``name`` (no separator in it) right in ``folder`` — a
    folder the caller resolved and checked inside the project —, or None when there is none.
    A symlink there is not followed (as if absent); anything but a regular file, or more than
    ``cap`` bytes, is a :class:`SourceError`. For a caller reading thousands of files of one
    folder (the build cache's entries): :func:`read_bytes`' checks without resolving each path."""
    fd = _open_in(folder, name)
    return None if fd is None else _read_open(fd, os.path.join(folder, name), cap)


def _open_in(folder: Path, name: str) -> int | None:
    """``name`` right in ``folder`` opened for reading, symlinks not followed (None: none there)."""
    if "/" in name or os.sep in name or "\0" in name or name in ("", ".", ".."):
        raise SourceError("PATH-ESCAPE", f"{name!r} is not a file name")
    try:
        return os.open(os.path.join(folder, name), os.O_RDONLY | _OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None


def map_in(folder: Path, name: str, cap: int) -> mmap.mmap | None:
    """:func:`read_in`, the file mapped read-only instead of read (None too when it is empty): its
    pages are the system's file cache, none copied into fresh memory (the build cache's packs,
    ~20 MB for a 5,400-card deck). The map stays valid when the file is replaced by a rename; a
    file cut short in place by another program while the map is read stops the process (SIGBUS):
    only for files no one writes in place."""
    fd = _open_in(folder, name)
    if fd is None:
        return None
    try:
        st = os.fstat(fd)
        _check_stat(os.path.join(folder, name), st, cap)
        return mmap.mmap(fd, st.st_size, access=mmap.ACCESS_READ) if st.st_size else None
    finally:
        os.close(fd)


def _read_open(fd: int, path: str | os.PathLike, cap: int) -> bytes:
    """The bytes of the open file ``fd`` (``path``), checked (a regular file, at most ``cap``)."""
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        _check_stat(str(path), st, cap)       # swapped for a FIFO since the check?
        want = st.st_size + 1                  # (read(cap + 1) would allocate the whole cap first)
        data = f.read(want)
        if len(data) == want:                  # it grew since: on, up to the cap
            data += f.read(cap + 1 - want)
    if len(data) > cap:
        raise SourceError("FILE-SIZE", f"{path} holds more than the {cap:,} bytes cardgen reads from one file")
    return data


__all__ = ["MAX_IMAGE_BYTES", "MAX_LOG_BYTES", "MAX_TEXT_BYTES", "SourceError", "beside", "current_project", "escapes", "is_file", "leaves", "map_in", "named",
           "project", "read_bytes", "read_in", "resolve", "set_project"]

"""The cardgen code's fingerprint: every cached piece is keyed by it, so a new version or an edit
of any code file, template or bundled font invalidates the whole build cache.

It is a SHA-256 over each code file's path (relative to the package) and its content's SHA-256
(a font counts by its size). Reading ~300 files on every build costs ~0.035 s; with the build
cache on, each file's content digest is remembered (:func:`code_fingerprint` given the store)
together with what ``stat`` says of it — size, modification and change times in nanoseconds,
inode and device — and taken from there only when all of those are the same. Any doubt reads
the file: no entry, an entry that differs in any of them, a time of zero, a change time in the
future or under :data:`RACY_NS` before the read (a later write within the same clock tick could
leave every figure unchanged: such a file is read again until it is old enough), a memo that is
missing, corrupt or made for another copy of the code. The change time cannot be set by a user
(``touch`` sets it to now), so a file edited with its size and modification time put back is
still read again; the limit is a clock set back by hand.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path
from typing import Any, Protocol

from cardgen.core import sources

CODE_DIR = Path(__file__).resolve().parent.parent
KIND = "code"
SUFFIXES = (".py", ".ttf", ".yaml", ".json")
RACY_NS = 2_000_000_000


class MemoStore(Protocol):
    """Where the memo is kept (:class:`cardgen.layout.cachestore.Store`)."""

    def get(self, kind: str, key: str) -> Any: ...

    def put(self, kind: str, key: str, value: Any) -> bytes: ...


_FOUND: list[str] = []      # the fingerprint, once per process


def code_fingerprint(store: MemoStore | None = None) -> str:
    """The fingerprint of the code (computed once per process; ``store``: the build cache, where
    the files' digests are remembered by their ``stat``)."""
    if not _FOUND:
        _FOUND.append(fingerprint(store))
    return _FOUND[0]


def code_files(top: Path = CODE_DIR) -> list[tuple[str, Path]]:
    """The code files under ``top`` (no ``__pycache__``), by their relative paths, sorted."""
    return [(rel, Path(path)) for rel, path in _code_paths(str(top))]


def _code_paths(top: str) -> list[tuple[str, str]]:
    """:func:`code_files` as text (relative path, path): walked as ``os.walk`` walks (a folder
    linked is not entered), without a ``Path`` a file (~335 files: half the fingerprint's time)."""
    found = []
    folders = [("", top)]
    while folders:
        rel, folder = folders.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            try:
                is_dir = e.is_dir()
            except OSError:
                is_dir = False
            if not is_dir:
                if os.path.splitext(e.name)[1] in SUFFIXES:
                    found.append((rel + e.name, e.path))
            elif e.name != "__pycache__" and not e.is_symlink():
                folders.append((f"{rel}{e.name}/", e.path))
    return sorted(found)


def _signature(st: os.stat_result, now: int) -> list[int] | None:
    """What ``stat`` says of a file, or None when it is no ground to skip reading it."""
    if not stat.S_ISREG(st.st_mode) or not st.st_mtime_ns or not st.st_ctime_ns:
        return None
    if st.st_ctime_ns > now or now - st.st_ctime_ns < RACY_NS or st.st_mtime_ns > now:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def _memo_key(top: Path) -> str:
    return hashlib.sha256(f"code files of {top}".encode()).hexdigest()


def _read_memo(store: MemoStore | None, top: Path) -> dict[str, list[Any]]:
    entry = store.get(KIND, _memo_key(top)) if store is not None else None
    if not isinstance(entry, dict) or entry.get("dir") != str(top):
        return {}
    if not isinstance(entry.get("files"), dict):
        return {}
    return {rel: v for rel, v in entry["files"].items()
            if isinstance(v, list) and len(v) == 6 and all(isinstance(x, int) for x in v[:5])
            and isinstance(v[5], str)}


def fingerprint(store: MemoStore | None = None, top: Path = CODE_DIR) -> str:
    """The fingerprint of the code under ``top``, its files' digests taken from ``store``'s memo
    where their ``stat`` is unchanged (see the module docstring); the memo written again when it
    changed."""
    memo = _read_memo(store, top)
    kept: dict[str, list[Any]] = {}
    h = hashlib.sha256()
    now = time.time_ns()
    for rel, p in _code_paths(str(top)):
        h.update(rel.encode())
        if rel.endswith(".ttf"):
            h.update(str(os.stat(p).st_size).encode())
            continue
        try:
            sig = _signature(os.stat(p), now)
        except OSError:
            sig = None
        old = memo.get(rel)
        if sig is not None and old is not None and old[:5] == sig:
            sha = old[5]
        else:
            sha = hashlib.sha256(sources.read_bytes(p, top)).hexdigest()
        if sig is not None:
            kept[rel] = [*sig, sha]
        h.update(sha.encode())
    if store is not None and kept != memo:
        store.put(KIND, _memo_key(top), {"dir": str(top), "files": kept})
    return h.hexdigest()

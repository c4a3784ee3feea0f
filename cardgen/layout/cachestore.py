"""The build cache's store: entries (JSON) and blobs (bytes) in files under a folder, each checked
when read, written whole or not at all (temporary file, then rename).

Entries and blobs are checked by their SHA-256; the packs (the ``.bin`` files: the card memo's,
the card sides' and the sheets' — ~23 MB an edit of the 5,400-card deck reads) by their length and
CRC-32, ~2.3× faster here (a SHA-256 of them took ~13 ms of that edit). The check is against damage,
not against someone: whoever can write the cache can write a pack with its right check. Damage to
a file written whole and renamed into place is its length changed (cut short, grown: the length
says), or bytes changed in place — a bit flipped, a run of bytes overwritten or zeroed, a block of
another file: CRC-32 finds every change of at most 32 bits in a row and every odd number of flipped
bits, and misses any other change with a chance of one in 2³².

What an entry is keyed by, and what it depends on, is :mod:`.cache`'s; this is where the bytes
live, and the rules for reading them back: a missing, truncated, corrupt or out-of-folder file is
a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardgen.core import atomic, sources
from cardgen.layout.cachebound import touch

MAX_ENTRY = 2 * 1024 * 1024 * 1024    # a cached entry or output read back



def pack_check(parts: list[bytes | memoryview]) -> bytes:
    """The first line of a pack of ``parts`` joined (see the module): its CRC-32 and length."""
    crc, size = 0, 0
    for part in parts:
        crc = zlib.crc32(part, crc)
        size += len(part)
    return b"crc32 %08x %d" % (crc, size)


def _check(body: bytes | memoryview, suffix: str) -> bytes:
    """What the first line of a stored file with this body says (``.bin``: a pack)."""
    return pack_check([body]) if suffix == ".bin" else hashlib.sha256(body).hexdigest().encode()


def json_line(value: Any) -> bytes:
    """``value`` as compact JSON (UTF-8): a cache entry's body, or a line of one."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

class Store:
    """Entries (JSON), blobs (bytes) and packs under a folder, each checked when read."""

    def __init__(self, folder: Path, link_blobs: bool = False):
        """``link_blobs``: a new blob waits for :meth:`keep_blobs` (the build's outputs written)."""
        self.folder = folder
        self._real: Path | None = None      # the folder resolved, once
        self._dirs: dict[tuple[str, str], Path | None] = {}   # entries' folders resolved (None: lead out)
        self._made: set[Path] = set()
        self.hits = 0
        self.misses = 0
        self.blobs_used: set[str] = set()     # the blobs this build read or wrote (never collected)
        self.blobs_new = False                # a blob written: the blobs grew (see cachebound)
        self._shas: dict[int, tuple[bytes, str]] = {}     # a blob's bytes (by id): its SHA-256
        self._pending: dict[str, bytes] | None = {} if link_blobs else None    # new blobs, by SHA-256

    def sha(self, data: bytes) -> str:
        """``data``'s SHA-256 (hex), found once for the bytes of a blob this build wrote or read
        (the build's record of its outputs names them so: cards.pdf is 4.6 MB for 5,400 cards)."""
        hit = self._shas.get(id(data))
        if hit is None or hit[0] is not data:
            hit = self._shas[id(data)] = (data, hashlib.sha256(data).hexdigest())
        return hit[1]

    def note(self, kind: str, hit: bool, what: str = "") -> None:
        """CARDGEN_CACHE=debug: say what was reused and what was made anew."""
        if os.environ.get("CARDGEN_CACHE") == "debug":
            print(f"cache {'hit ' if hit else 'miss'} {what}{kind}", file=sys.stderr)

    def _entry_path(self, kind: str, key: str) -> Path:
        return self.folder / kind / key[:2] / f"{key}.json"

    def get(self, kind: str, key: str) -> Any:
        """The entry, or None (absent, corrupt, or unreadable: all a miss). An entry is read with
        one ``open`` (a first build asks for thousands, absent): its folder, resolved once per
        build, must lie inside the cache folder; the entry itself is a regular file, not a link."""
        body = self.get_bytes(kind, key, ".json")
        try:
            return json.loads(body) if body is not None else None
        except ValueError:
            return None

    def get_bytes(self, kind: str, key: str, suffix: str = ".bin") -> bytes | None:
        """What :meth:`put_bytes` stored, or None (as :meth:`get`)."""
        try:
            where = self._entries_dir(kind, key[:2])
            raw = sources.read_in(where, f"{key}{suffix}", MAX_ENTRY) if where is not None else None
        except (OSError, ValueError, sources.SourceError):
            return None
        if raw is None:
            return None
        head, _, body = raw.partition(b"\n")
        return body if _check(body, suffix) == head else None

    def get_view(self, kind: str, key: str) -> memoryview | None:
        """:meth:`get_bytes` (``.bin``) as a view of the file's bytes, mapped, not read
        (``sources.map_in``: a read of the packs made ~5,000 pages the kernel had to clear, ~6 % of a
        one-card edit's CPU): the packs of the 5,400-card deck's card sides and sheets are ~11 and ~7 MB,
        and an edit reads most of neither."""
        try:
            where = self._entries_dir(kind, key[:2])
            raw = sources.map_in(where, f"{key}.bin", MAX_ENTRY) if where is not None else None
        except (OSError, ValueError, sources.SourceError):
            return None
        at = raw.find(b"\n", 0, 80) if raw is not None else -1
        if raw is None or at < 0:
            return None
        body = memoryview(raw)[at + 1:]
        return body if pack_check([body]) == raw[:at] else None

    def put_bytes(self, kind: str, key: str, parts: list[bytes | memoryview], suffix: str = ".bin") -> None:
        """Bytes (``parts`` joined, never joined in memory) under a key (replaced by the next
        put), checked when read (:meth:`get_bytes` with the same ``suffix``; ``.bin``, a pack: by
        its length and CRC-32, see the module, and :meth:`get_view`; else by its SHA-256)."""
        if suffix == ".bin":
            check = pack_check(parts)
        else:
            h = hashlib.sha256()
            for part in parts:
                h.update(part)
            check = h.hexdigest().encode()
        self._write(self.folder / kind / key[:2] / f"{key}{suffix}", [check, b"\n", *parts])

    def _entries_dir(self, kind: str, sub: str) -> Path | None:
        """``folder/kind/sub`` resolved, or None when it leads outside the cache folder."""
        if (kind, sub) not in self._dirs:
            if self._real is None:
                self._real = self.folder.resolve()
            real = (self.folder / kind / sub).resolve()
            self._dirs[(kind, sub)] = real if real.is_relative_to(self._real) else None
        return self._dirs[(kind, sub)]

    def put(self, kind: str, key: str, value: Any) -> bytes:
        """The entry stored (and its body returned: the JSON :meth:`get` reads back)."""
        body = json_line(value)
        self._write(self._entry_path(kind, key), hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
        return body

    def put_blob(self, data: bytes) -> str:
        """The blob stored (its last use now: see :mod:`.cachebound`), by its SHA-256; a new one,
        with ``link_blobs``, when :meth:`keep_blobs` is called."""
        sha = self.sha(data)
        path = self.folder / "blobs" / sha[:2] / sha
        self.blobs_used.add(sha)
        if self._pending is not None and sha in self._pending:
            return sha
        if not touch(path):
            if self._pending is not None:
                self._pending[sha] = data
            else:
                self._write(path, data)
            self.blobs_new = True
        return sha

    def keep_blobs(self, written: Iterable[tuple[Path, bytes]] = ()) -> None:
        """The new blobs stored: each one a file the build has just written from its very bytes
        (``written``: (the file, the bytes written there)) is linked to that file, not written
        again — a card sheets' PDF and its cards.json are 6.4 MB for 5,400 cards, written
        twice at each edit; the others (and any, when a link cannot be made) written. A blob is
        checked by its SHA-256 when read, so an output changed in place later is a miss."""
        if not self._pending:
            return
        at = {id(data): (src, data) for src, data in written}
        for sha, data in self._pending.items():
            path = self.folder / "blobs" / sha[:2] / sha
            src = at.get(id(data))
            if src is None or src[1] is not data or not self._link(src[0], len(data), path):
                self._write(path, data)
        self._pending.clear()

    def _link(self, src: Path, size: int, path: Path) -> bool:
        """``path`` made a second name of the regular file ``src`` of ``size`` bytes (False: not)."""
        tmp = path.with_name(f".{path.name}.{os.getpid()}.link")
        try:
            if path.parent not in self._made:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._made.add(path.parent)
            st = os.stat(src, follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode) or st.st_size != size:
                return False
            try:
                os.unlink(tmp)          # (left by a build killed here)
            except FileNotFoundError:
                pass
            os.link(src, tmp, follow_symlinks=False)
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return False
        return True

    def get_blob(self, sha: str) -> bytes | None:
        try:
            data = sources.read_bytes(self.folder / "blobs" / sha[:2] / sha, self.folder, MAX_ENTRY)
        except (OSError, sources.SourceError):
            return None
        if self.sha(data) != sha:
            return None
        self.blobs_used.add(sha)
        touch(self.folder / "blobs" / sha[:2] / sha)
        return data

    def _write(self, path: Path, data: bytes | list[bytes | memoryview]) -> None:
        """Temporary file, then rename: a reader sees the whole entry or none (no fsync: a lost
        entry only costs time)."""
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            if path.parent not in self._made:       # each folder made once per run
                path.parent.mkdir(parents=True, exist_ok=True)
                self._made.add(path.parent)
            atomic.write_scratch(tmp, [data] if isinstance(data, bytes) else data)
            os.replace(tmp, path)
        except OSError:
            try:
                tmp.unlink()
            except OSError:
                pass


def default_folder(out: Path) -> Path:
    """build/.cache beside the outputs (CARDGEN_CACHE=off disables caching)."""
    return out / ".cache"


def enabled() -> bool:
    return os.environ.get("CARDGEN_CACHE", "on").lower() not in ("0", "off", "no", "false")

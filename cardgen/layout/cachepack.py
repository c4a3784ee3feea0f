"""A kind of the build cache's entries read from one file: the card sides a lay-out read or made,
kept together when it ends, so that the next lay-out of the game reads one file, not one per
card side (5,400 opens, checks and hashes for the 5,400-card bench deck).

The entries stay in their own files too (:class:`~cardgen.layout.cachestore.Store`); the pack holds the
same bytes, the whole file checked by its length and CRC-32 (:mod:`.cachestore`). A key the pack
lacks is read from its own file; an entry made is written there and joins the next pack.

An entry is lines: its head (JSON: what every reader needs, small), then parts kept as bytes
until a reader asks (a card side's symbols and primitives: most sides of an edit are never
decoded). JSON text holds no raw line break, so the lines are the parts; the pack's index keeps
where each entry's lines end.
"""

from __future__ import annotations

import json
from typing import Any

from cardgen.layout.cache import digest
from cardgen.layout.cachestore import MAX_ENTRY, Store, json_line

Chunk = bytes | memoryview


def read_pack(raw: memoryview | None) -> tuple[dict[str, Any], memoryview] | None:
    """A pack file's index and the bytes after it, not copied (None: no file, or not a pack). The
    file: a line with the index's length, the index (JSON: key → where its entry lies), the entries."""
    if raw is None:
        return None
    try:
        at = bytes(raw[:24]).index(b"\n") + 1
        n = int(bytes(raw[:at]))
        index = json.loads(bytes(raw[at:at + n]).decode("utf-8"))
    except ValueError:
        return None
    return (index, raw[at + n:]) if isinstance(index, dict) else None


def write_pack(store: Store, kind: str, key: str, index: Any, chunks: list[Chunk], size: int) -> None:
    """A pack file of ``index`` and its entries (``size`` bytes in all); one too big is not kept."""
    head = json_line(index)
    if len(head) + size < MAX_ENTRY:
        store.put_bytes(kind, key, [b"%d\n" % len(head), head, *chunks])


Parts = list[memoryview]


def _lines(body: memoryview, cuts: list[int]) -> Parts:
    """``body`` cut at the line breaks at ``cuts``."""
    out, at = [], 0
    for c in cuts:
        out.append(body[at:c])
        at = c + 1
    out.append(body[at:])
    return out


class Pack:
    """The entries of ``kind`` a game's lay-out reads (``name``: the game, one pack each)."""

    def __init__(self, store: Store, kind: str, name: str) -> None:
        self.store = store
        self.kind = kind
        self.key = digest("pack", kind, name)
        self._old: dict[str, list[int]] | None = None     # key → [offset, length, line breaks…] in _data
        self._data = memoryview(b"")
        # the entries of this lay-out, as stored (None: as the pack read has it, taken by :meth:`lines`)
        self._now: dict[str, tuple[Chunk, list[int]] | None] = {}
        self._changed = False
        self._heads: dict[bytes, Any] = {}       # a head's text → its value (read only: shared)

    def _load(self) -> None:
        self._old = {}
        pack = read_pack(self.store.get_view(self.kind, self.key))
        if pack is not None:
            self._old, self._data = pack

    def get(self, key: str) -> tuple[Any, Parts] | None:
        """An entry's head (parsed) and its other lines (as bytes), from the pack when it holds
        the key, else from its own file; None: absent or malformed."""
        if self._old is None:
            self._load()
        at = self._old.get(key) if self._old is not None else None
        body: memoryview
        if type(at) is list and len(at) == 4:       # (a card side's entry: a head and two parts)
            off, size, one, two = at
            if type(off) is int and type(size) is int and type(one) is int and type(two) is int \
                    and 0 <= one < two < size and off >= 0:
                body = self._data[off:off + size]
                if len(body) != size:
                    return None
                return self._head(key, body, at[2:], [body[:one], body[one + 1:two], body[two + 1:]])
        if isinstance(at, list) and len(at) >= 2 and all(type(v) is int for v in at):
            body, cuts = self._data[at[0]:at[0] + at[1]], at[2:]
            if len(body) != at[1] or any(not 0 <= c < at[1] for c in cuts):
                return None
        else:
            raw = self.store.get_bytes(self.kind, key, ".json")
            if raw is None:
                return None
            cuts, k = [], raw.find(b"\n")
            while k >= 0:
                cuts.append(k)
                k = raw.find(b"\n", k + 1)
            body = memoryview(raw)
            self._changed = True
        return self._head(key, body, cuts, _lines(body, cuts))

    def _head(self, key: str, body: memoryview, cuts: list[int], parts: Parts) -> tuple[Any, Parts] | None:
        """The entry's head parsed (once per text), and its other lines; the entry noted as read."""
        text = bytes(parts[0])
        head = self._heads.get(text)        # most sides' heads are alike (no dependencies, no problems)
        if head is None:
            try:
                head = json.loads(text.decode("utf-8"))
            except ValueError:
                return None
            if len(self._heads) < 10_000:
                self._heads[text] = head
        self._now[key] = (body, cuts)
        return head, parts[1:]

    def lines(self, keys: list[str]) -> list[memoryview | None]:
        """The last line of each card side's entry (a head and two lines) in the pack read, not
        checked but for its place (the whole pack was), or None; each entry noted as read."""
        old, data, now = self._old or {}, self._data, self._now
        end = len(data)
        out: list[memoryview | None] = []
        for key in keys:
            at = old.get(key)
            try:
                off, size, one, two = at        # type: ignore[misc]
                if not (type(off) is int and type(size) is int and type(one) is int and type(two) is int
                        and 0 <= one < two < size and 0 <= off <= end - size):
                    raise ValueError
            except (TypeError, ValueError):
                out.append(None)
                continue
            if key not in now:
                now[key] = None
            out.append(data[off + two + 1:off + size])
        return out

    def read_head(self, key: str) -> Any:
        """The head of a card side's entry (a head and two lines) this lay-out read or made (None:
        not one)."""
        got = self._now.get(key)
        if got is None or len(got[1]) != 2:
            return None
        text = bytes(got[0][:got[1][0]])
        head = self._heads.get(text)
        if head is None:
            try:
                head = json.loads(text.decode("utf-8"))
            except ValueError:
                return None
        return head

    def put(self, key: str, head: Any, parts: list[bytes]) -> None:
        """An entry (its head as JSON, then ``parts``, each a line of JSON) stored in its own file,
        joining the next pack."""
        lines = [json_line(head), *parts]
        body = b"\n".join(lines)
        cuts, end = [], -1
        for line in lines[:-1]:
            end += len(line) + 1
            cuts.append(end)
        self.store.put_bytes(self.kind, key, [body], ".json")
        self._now[key] = (body, cuts)
        self._changed = True

    def save(self) -> None:
        """The entries of this lay-out as the pack, unless the pack read holds all but a few of
        them (an edit's: they are read from their own files until the pack is written again, when
        more than one in eight differ); the pack read is let go (what is read after comes from the
        entries' own files, and joins the next)."""
        old = self._old or {}
        fresh = sum(1 for k in self._now if k not in old)          # not in the pack
        stale = len(old) - (len(self._now) - fresh)                 # in the pack, not read
        if old and fresh + stale <= len(self._now) // 8 or not self._changed and set(self._now) == set(old):
            self._old, self._data, self._now = {}, memoryview(b""), {}
            return
        index: dict[str, list[int]] = {}
        end = 0
        chunks = []
        for k, got in self._now.items():
            if got is None:             # taken by lines(): as the pack read has it
                off, size, *cuts = old[k]
                got = (self._data[off:off + size], cuts)
            body, cuts = got
            index[k] = [end, len(body), *cuts]
            chunks.append(body)
            end += len(body)
        write_pack(self.store, self.kind, self.key, index, chunks, end)
        self._old, self._data, self._now = {}, memoryview(b""), {}
        self._changed = False

"""The last build's card sheet pages, by what each depends on: a one-card edit re-draws the
pages that show the card, and the rest are written from their encoded streams
(:mod:`cardgen.render.pdfreuse` says when that gives the same bytes).

A page's key is the digest of everything its stream is made from: the game's part of the
layout (:meth:`CardLayout.static_key`: code, templates and art, settings), the forms, the
page's size and boxes, its primitives — a card side by the digest the layout cache gave it,
without encoding the side again —, and the document's state where the page starts. The pages
of one build are kept in one file per game and stem (the last build's only: the file is
replaced by each build that draws the sheets), checked as every pack is (:mod:`.cachestore`).

A whole sheet is kept too (:class:`cardgen.render.pdfreuse.Sheet`), by the same static part, what
its pages are made from (its ``sig``: the printable's, e.g. its cards' ids and sides' digests and
its page number) and the state where it starts: what was kept with it (cards.json's records of
its pages), then each page's text and its stream's text as the file had them. A page of a sheet
kept is a page kept too (its stream is read from the sheet's).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from cardgen.layout.cache import code_fingerprint, digest
from cardgen.layout.cachepack import read_pack, write_pack
from cardgen.layout.cachestore import Store
from cardgen.layout.scenecodec import KINDS, encode
from cardgen.scene import Clip, Moved, Page, Rotate, Use

KIND = "pages"
Stream = bytes | memoryview       # an encoded content stream (render.pdfreuse's)
#: a page of a sheet as the file had it (render.pdfreuse's ``ReadyPage``)
ReadyPage = tuple[str | None, list[Stream], list[str], Stream, int, int, list[str], list[list[str]]]
SHEET = "s"         # a sheet's key in the pack: this before its digest (a page's is the digest alone)
RUN = "r"           # a run of sheets' key: this before its digest
_LEAVES = frozenset(KINDS.values()) - {Clip}


class PageCache:
    """A game's card sheet pages, the last build's (read when made) and this build's (kept by
    :meth:`save`). ``static``: the digest of what every page shares (see the module);
    ``content_ids``: the card sides' digests by id, as the layout cache gave them."""

    def __init__(self, store: Store, name: str, static: str,
                 content_ids: dict[int, tuple[Sequence[Any], str]]) -> None:
        self.store = store
        self.name = digest(code_fingerprint(), KIND, name)
        self._static = static.encode()
        self.content_ids = content_ids
        self.delta = digest(self.name, "delta")
        self._old: dict[str, list] = {}         # the last full pack's index, and its bytes
        self._data = memoryview(b"")
        self._dold: dict[str, list] = {}        # the builds' since: what the full pack lacks
        self._ddata = memoryview(b"")
        self._new: dict[str, tuple] = {}       # this build's: a page's or a sheet's parts (views)
        self._prims: dict[int, tuple[Any, str]] = {}     # a primitive met before (crop marks): its code
        # a scene the layout cache did not name: its digest
        self._scenes: dict[int, tuple[Sequence[Any], str]] = {}
        self._lines: dict[int, tuple[Sequence[Any], list[str]]] = {}    # placements: their lines
        self.reused = 0         # pages written again, of those asked for
        self.asked = 0
        self._loaded = False

    def _load(self) -> None:
        """The last build's pages (read when the first page asks): the full pack, and the pack of
        what the builds since added to it (when it was written over this full pack)."""
        self._loaded = True
        pack = read_pack(self.store.get_view(KIND, self.name))
        if pack is not None:
            self._old, self._data = pack     # the streams, not copied
            delta = read_pack(self.store.get_view(KIND, self.delta))
            if delta is not None and delta[0].get(_BASE) == self._old.get(_ID) is not None:
                self._dold, self._ddata = delta

    def _row(self, key: str) -> tuple[Any, memoryview]:
        row = self._dold.get(key)
        return (row, self._ddata) if row is not None else (self._old.get(key), self._data)

    def key(self, page: Page, state: str) -> str | None:
        try:
            items = "\n".join([self._sig(it) for it in page.items])
        except (KeyError, TypeError):           # a primitive the codec does not know: drawn, not kept
            return None
        h = hashlib.sha256(self._static)
        h.update(repr((page.w, page.h, page.trim_box, page.bleed_box, state)).encode())
        h.update(items.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def _sig(self, it: Any) -> str:
        """A page's primitive as text (a card side by its digest; numbers by ``repr``, exact)."""
        t = type(it)
        if t is Moved:
            return f"M {it.dx!r} {it.dy!r} {self._scene(it.items)}"
        if t is Clip or t is Rotate:
            head = (it.x, it.y, it.w, it.h) if t is Clip else (it.cx, it.cy, it.angle)
            return f"{t.__name__} {head!r} [{' ; '.join([self._sig(i) for i in it.items])}]"
        if t is Use:            # a card's back placed by its form: made anew on every sheet
            return f"Use {it.name!r} {it.x!r} {it.y!r}"
        if t not in _LEAVES:
            raise TypeError(t)
        hit = self._prims.get(id(it))
        if hit is None or hit[0] is not it:     # its JSON (a primitive met again: crop marks)
            hit = self._prims[id(it)] = (it, json.dumps(encode([it])[0], ensure_ascii=False, default=str))
        return hit[1]

    def scene(self, items: Sequence[Any]) -> str:
        """A scene's digest (a card side's: the layout cache's)."""
        return self._scene(items)

    def card_lines(self, placements: Sequence[Any]) -> list[str]:
        """Each placement as a line (its card's id, name, copy, bleed, and its sides by their
        digests; no line break in one), made once for a list of placements: the sheets' ``sig``
        and the placements' key are made of them."""
        hit = self._lines.get(id(placements))
        if hit is not None and hit[0] is placements:
            return hit[1]
        scene = self._scene
        lines = [f"{pl.card_id!r} {pl.name!r} {pl.copy!r} {pl.bleed!r} {scene(pl.front)} {scene(pl.back)}"
                 for pl in placements]
        self._lines[id(placements)] = (placements, lines)
        return lines

    def placements_key(self, groups: dict[str, Sequence[Any]]) -> str:
        """The exact content of the card sheets' placements: each size's, as lines."""
        h = hashlib.sha256(b"placements\n")
        for size, placements in groups.items():
            lines = self.card_lines(placements)
            h.update(f"{size!r} {len(lines)}\n".encode("utf-8", "surrogatepass"))
            h.update("\n".join(lines).encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def _scene(self, items: Sequence[Any]) -> str:
        hit = self.content_ids.get(id(items)) or self._scenes.get(id(items))
        if hit is None or hit[0] is not items:
            hit = self._scenes[id(items)] = (items, digest(encode(items)))
        return hit[1]

    def get(self, key: str) -> tuple[Stream, list[str], list[list[str]]] | None:
        if not self._loaded:
            self._load()
        self.asked += 1
        row, data = self._row(key)
        try:
            at, n, forms, codes = row
            stream = data[at:at + n]
            if len(stream) != n or not all(isinstance(f, str) for f in forms) \
                    or not all(isinstance(f, str) and isinstance(cs, str) for f, cs in codes):
                return None
        except (TypeError, ValueError):
            return None
        self.reused += 1
        return stream, list(forms), [[f, cs] for f, cs in codes]

    def put(self, key: str, stream: Stream, forms: list[str], codes: list[list[str]]) -> None:
        if key in self._new:        # the same page twice (the same key): kept once
            return
        self._new[key] = (stream, forms, codes)

    def sheet_key(self, sig: str, state: str) -> str:
        h = hashlib.sha256(self._static)
        h.update(b"sheet\n")
        h.update(sig.encode("utf-8", "surrogatepass"))
        h.update(state.encode())
        return SHEET + h.hexdigest()

    def get_sheet(self, key: str) -> tuple[Stream, list[ReadyPage]] | None:
        if not self._loaded:
            self._load()
        row, data = self._row(key)
        try:
            at, n, rows = row
            records, at = data[at:at + n], at + n
            pages: list[ReadyPage] = []
            for pkey, lens, refs, size, start, length, forms, codes in rows:
                parts: list[Stream] = []
                for k in lens:
                    parts.append(data[at:at + k])
                    at += k
                body, at = data[at:at + size], at + size
                if not (pkey is None or isinstance(pkey, str)) or len(lens) != len(refs) + 1 \
                        or not all(type(r) is str for r in refs) or not all(type(f) is str for f in forms) \
                        or not all(type(f) is str and type(cs) is str for f, cs in codes) \
                        or not (type(start) is int and type(length) is int
                                and 0 <= start <= start + length <= size):
                    return None
                pages.append((pkey, parts, list(refs), body, start, length, list(forms),
                              [[f, cs] for f, cs in codes]))
            if at > len(data) or not pages:
                return None
        except (TypeError, ValueError):
            return None
        self.reused += len(pages)       # (a sheet not kept: its pages asked for one by one)
        self.asked += len(pages)
        return records, pages

    def put_sheet(self, key: str, records: Stream, pages: list[ReadyPage]) -> None:
        if key not in self._new:
            self._new[key] = (records, pages)

    def run_key(self, sigs: list[str], state: str) -> str:
        h = hashlib.sha256(self._static)
        h.update(b"run\n")
        h.update(state.encode())
        for sig in sigs:            # (a sig's lines never start with a NUL)
            h.update(b"\n\0")
            h.update(sig.encode("utf-8", "surrogatepass"))
        return RUN + h.hexdigest()

    def get_run(self, key: str) -> list[str] | None:
        if not self._loaded:
            self._load()
        row = self._row(key)[0]
        return row if type(row) is list and all(type(k) is str and k[:1] == SHEET for k in row) else None

    def put_run(self, key: str, sheets: list[str]) -> None:
        self._new.setdefault(key, (list(sheets),))

    def save(self) -> None:
        """This build's pages and sheets, for the next build (nothing kept: nothing written): the
        full pack, or (when the full pack read holds all but an eighth of them) a pack of those it
        lacks beside it; a page of a sheet is kept in the sheet's text."""
        self.store.note(KIND, bool(self.reused), f"{self.reused} of {self.asked} ")
        if not self._new:
            return
        fresh = [k for k in self._new if k not in self._old]
        if self._old.get(_ID) is not None and len(fresh) * 8 <= len(self._new):
            index, chunks, end = _layout(self._new, fresh, self._old)
            index[_BASE] = self._old[_ID]
            write_pack(self.store, KIND, self.delta, index, chunks, end)
            return
        index, chunks, end = _layout(self._new, list(self._new), {})
        index[_ID] = hashlib.sha256("\n".join(index).encode()).hexdigest()
        write_pack(self.store, KIND, self.name, index, chunks, end)


_ID, _BASE = "_id", "_base"     # a full pack's name, and the full pack a pack of additions is to


def _layout(entries: dict[str, tuple], keys: list[str],
            held: dict[str, Any]) -> tuple[dict[str, Any], list, int]:
    """The pack of ``entries``' ``keys``: its index, its chunks and their length. A page a sheet
    shows is kept in the sheet's text (unless ``held``: in the full pack already)."""
    index: dict[str, Any] = {}
    chunks: list[Stream] = []
    end = 0
    for key in keys:
        entry = entries[key]
        if len(entry) != 2:
            continue
        records, pages = entry
        at = end
        chunks.append(records)
        end += len(records)
        rows = []
        for pkey, parts, refs, body, start, length, forms, codes in pages:
            chunks += parts
            end += sum(len(p) for p in parts)
            if pkey is not None and pkey not in index and pkey not in held:
                index[pkey] = [end + start, length, forms, codes]
            chunks.append(body)
            end += len(body)
            rows.append([pkey, [len(p) for p in parts], refs, len(body), start, length, forms, codes])
        index[key] = [at, len(records), rows]
    for key in keys:
        entry = entries[key]
        if len(entry) == 1:         # a run: its sheets' keys
            index[key] = entry[0]
        elif len(entry) == 3 and key not in index:
            stream, forms, codes = entry
            index[key] = [end, len(stream), forms, codes]
            chunks.append(stream)
            end += len(stream)
    return index, chunks, end

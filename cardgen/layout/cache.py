"""The build cache: content-addressed, so a rebuild redoes only what changed.

Every cached piece — a card side's laid-out scene, a printable's output files, a slow
check's problems — is stored under the hash of exactly what it depends on: a *static*
key (the cardgen code, the files it reads, the print settings) plus the *dynamic* card
dependencies recorded while it was made (:class:`Recorder`: which cards' contents it read,
and whether it read the pool's shape — ids, types, copies, order). A lookup recomputes
those dependencies against the current game; any difference is a miss.

The cache is safe to delete (only time is lost) and never trusted blindly: every entry and
blob carries its SHA-256 (a pack its length and CRC-32: :mod:`.cachestore`) and a mismatch, a
truncated file or bad JSON is a miss, rebuilt and rewritten. Entries are JSON, never pickles:
reading one runs no code.
"""

from __future__ import annotations

import contextvars
import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.core import sources
from cardgen.core.problems import Loc
from cardgen.layout.cachestore import Store
from cardgen.layout.codeprint import code_fingerprint

# json.dumps with these options makes an encoder per call (~3 µs: a 5,400-card lay-out asks for as
# many digests); one made once writes the same text
_TEXT = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":")).encode


def digest(*parts: Any) -> str:
    """SHA-256 of the parts, as JSON (sorted keys; objects that are not JSON by their text)."""
    return hashlib.sha256(_TEXT(parts).encode("utf-8")).hexdigest()


def digest_on(parts: tuple[Any, ...], text: bytes, head: bytes | None = None) -> str:
    """``digest(*parts, *values)`` from ``text``, the values' list as :func:`digest` writes it
    (UTF-8, not empty), not encoded again (``head``: :func:`digest_head` of ``parts``, kept)."""
    return hashlib.sha256((head or digest_head(parts)) + text[1:]).hexdigest()


def digest_head(parts: tuple[Any, ...]) -> bytes:
    """What :func:`digest_on` writes before the values' text (their ``[`` left out)."""
    return _TEXT(parts).encode("utf-8")[:-1] + b","


def files_digest(paths: Iterable[Path]) -> str:
    """The names and contents of files (folders walked), in a stable order, read through the
    project's one resolver; a file it refuses counts by its refusal (the build reports it)."""
    h = hashlib.sha256()
    for top in paths:
        if sources.leaves(top) is not None:        # a folder linked out of the project (to / ?): never walked
            h.update(f"{top}!PATH-ESCAPE".encode())
            continue
        files = sorted(p for p in top.rglob("*") if p.is_file()) if top.is_dir() else [top] if top.is_file() else []
        for p in files:
            h.update(str(p).encode())
            try:
                h.update(sources.read_bytes(p))
            except sources.SourceError as e:
                h.update(f"!{e.rule}".encode())
    return h.hexdigest()


# -- dependency recording -----------------------------------------------------------------

def card_digest(card: Card) -> str:
    return digest(card.id, card.name, card.type, card.copies, card.fields)


def shape_digest(cards: Iterable[Card]) -> str:
    return digest([(c.id, c.type, c.copies) for c in cards])


_OWN = ("id", "name", "type", "copies")


def field_value(card: Card, name: str) -> Any:
    """A card's value as a template or rulebook reads it: its own keys, then its fields."""
    return getattr(card, name) if name in _OWN else card.fields.get(name)


class Recorder:
    """What a piece of work read of the card pool: whole cards, single fields of cards, and
    the pool's shape (ids, types, copies, order)."""

    def __init__(self) -> None:
        self.cards: dict[str, set[str] | None] = {}     # id → fields read (None: the whole card)
        self.shape = False

    def card(self, card_id: str) -> None:
        self.cards[card_id] = None

    def field(self, card_id: str, name: str) -> None:
        if card_id not in self.cards:
            self.cards[card_id] = {name}
        elif self.cards[card_id] is not None:
            self.cards[card_id].add(name)      # type: ignore[union-attr]

    def merge(self, deps: Mapping[str, Any]) -> None:
        for cid, d in (deps.get("cards") or {}).items():
            if isinstance(d, dict):
                for name in d.get("f") or {}:
                    self.field(cid, name)
            else:
                self.card(cid)
        self.shape = self.shape or "shape" in deps

    def deps(self, game: Game, by_id: Mapping[str, Card] | None = None) -> dict[str, Any]:
        """What was read, as digests of the game's current cards (``by_id``: the game's cards by
        id, when the caller keeps them: a layout records one card side at a time)."""
        if by_id is None:
            by_id = game.cards_by_id
        cards: dict[str, Any] = {}
        for cid in sorted(self.cards):
            c, names = by_id.get(cid), self.cards[cid]
            if c is None or names is None:
                cards[cid] = card_digest(c) if c is not None else None
            else:
                cards[cid] = {"f": {n: digest(field_value(c, n)) for n in sorted(names)}}
        out: dict[str, Any] = {"cards": cards}
        if self.shape:
            out["shape"] = shape_digest(game.cards)
        return out


_active: contextvars.ContextVar[Recorder | None] = contextvars.ContextVar("cardgen_recorder", default=None)


def active() -> Recorder | None:
    return _active.get()


def deps_hold(deps: Mapping[str, Any], game: Game, by_id: Mapping[str, Card] | None = None) -> bool:
    """Do recorded dependencies still describe the current game? (``by_id`` as for
    :meth:`Recorder.deps`.)"""
    if by_id is None:
        by_id = game.cards_by_id
    for cid, d in (deps.get("cards") or {}).items():
        c = by_id.get(cid)
        if isinstance(d, dict):
            if c is None or any(digest(field_value(c, n)) != v for n, v in (d.get("f") or {}).items()):
                return False
        elif (None if c is None else card_digest(c)) != d:
            return False
    return "shape" not in deps or deps["shape"] == shape_digest(game.cards)


class _Fields(dict):
    """A card's fields as a printable reads them: each key read is recorded."""

    def __init__(self, data: dict, rec: Recorder, card_id: str):
        super().__init__(data)
        self._rec, self._id = rec, card_id

    def __getitem__(self, key: Any) -> Any:
        self._rec.field(self._id, str(key))
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._rec.field(self._id, str(key))
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self._rec.field(self._id, str(key))
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator:
        self._rec.card(self._id)
        return dict.__iter__(self)

    def keys(self):  # type: ignore[override]
        self._rec.card(self._id)
        return dict.keys(self)

    def values(self):  # type: ignore[override]
        self._rec.card(self._id)
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self._rec.card(self._id)
        return dict.items(self)


_CARD_FIELDS = tuple(f.name for f in dataclasses.fields(Card))


class _WatchedCard(Card):
    """A card that tells the recorder what is read of it: its fields one by one (``get``,
    ``fields[…]``), the whole card for anything else; id, type and copies are the shape."""

    def __getattribute__(self, name: str) -> Any:
        if name in ("id", "type", "copies", "__class__", "__dict__", "dangling"):
            return object.__getattribute__(self, name)
        d = object.__getattribute__(self, "__dict__")
        rec: Recorder = d["_rec"]
        if name == "fields":
            return _Fields(d["fields"], rec, d["id"])
        if name == "get":
            return lambda key, default=None: _Fields(d["fields"], rec, d["id"]).get(key, default)
        if name == "name":
            rec.field(d["id"], "name")
        else:
            rec.card(d["id"])
        return object.__getattribute__(self, name)


class _WatchedCards(list):
    """The pool as a list: iterating or indexing it reads the shape."""

    def __init__(self, cards: Iterable[Card], rec: Recorder):
        super().__init__(cards)
        self._rec = rec

    def __iter__(self) -> Iterator[Card]:
        self._rec.shape = True
        return super().__iter__()

    def __len__(self) -> int:
        self._rec.shape = True
        return super().__len__()

    def __getitem__(self, i):  # type: ignore[override]
        self._rec.shape = True
        return super().__getitem__(i)


def watched(game: Game, rec: Recorder) -> Game:
    """A view of ``game`` whose cards report what is read of them to ``rec``."""
    cards = []
    for c in game.cards:
        w = _WatchedCard.__new__(_WatchedCard)
        # a card's attributes (a kept card's, content.keptcard, are made when read: read them)
        w.__dict__.update(c.__dict__ if type(c) is Card else {n: getattr(c, n) for n in _CARD_FIELDS})
        w.__dict__["_rec"] = rec
        cards.append(w)
    return dataclasses.replace(game, cards=_WatchedCards(cards, rec))


class recording:
    """``with recording(game) as (view, rec):`` — work on ``view``; ``rec`` learns what it read.
    Dependencies also flow to an enclosing recording."""

    def __init__(self, game: Game, watch: bool = True):
        self.rec = Recorder()
        self.view = watched(game, self.rec) if watch else game     # (not watched: see cached_files)

    def __enter__(self) -> tuple[Game, Recorder]:
        self._token = _active.set(self.rec)
        return self.view, self.rec

    def __exit__(self, *exc: object) -> None:
        _active.reset(self._token)
        parent = _active.get()
        if parent is not None:
            for cid, names in self.rec.cards.items():
                if names is None:
                    parent.card(cid)
                else:
                    for n in names:
                        parent.field(cid, n)
            parent.shape = parent.shape or self.rec.shape


# -- cached work ----------------------------------------------------------------------------


def cached_files(store: Store | None, kind: str, static: str, game: Game, problems: Any,
                 make: Any, watch: bool = True) -> dict[str, bytes]:
    """``make(game, problems) -> {name: bytes}``, or its cached result.

    ``static``: the digest of everything the work reads but the card pool (sources, settings);
    the card pool is recorded while it runs (``watch``: False for work that reads no card of the
    game it is given, as the card sheets, made of the laid-out sides, which recorded their own
    reads: it is given the game itself, not a view watching each card). Problems are cached with
    the files (a result that had errors is not cached)."""
    if store is None:
        return make(game, problems)
    key = digest(code_fingerprint(), kind, static)
    entry = store.get(kind, key)
    if isinstance(entry, dict) and deps_hold(entry.get("deps") or {}, game):
        files = _files(store, entry)
        if files is not None:
            store.hits += 1
            store.note(kind, True)
            for r, sev, msg, loc, hint in entry.get("problems") or []:
                problems.add(r, sev, msg, Loc(*loc) if loc else None, hint)
            return files
    store.misses += 1
    store.note(kind, False)
    before = len(problems.items)
    with recording(game, watch) as (view, rec):
        files = make(view, problems)
    new = problems.items[before:]
    if not any(p.severity == "error" for p in new):
        store.put(kind, key, {"deps": rec.deps(game), "files": {n: store.put_blob(b) for n, b in files.items()},
                              "problems": [[p.rule, p.severity, p.message,
                                            [p.loc.file, p.loc.line, p.loc.col] if p.loc else None, p.hint]
                                           for p in new]})
    return files


def _files(store: Store, entry: dict) -> dict[str, bytes] | None:
    out = {}
    try:
        for name, sha in entry["files"].items():
            data = store.get_blob(sha)
            if data is None:
                return None
            out[name] = data
    except (KeyError, AttributeError, TypeError):
        return None
    return out

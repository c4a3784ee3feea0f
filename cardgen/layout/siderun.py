"""Runs of kept cards' sides restored as one unit: a one-card edit of a 5,400-card deck keeps
5,399 cards whose sides are in the lay-out's cache, and looking each up by its own key (the
key's SHA-256, its entry in the pack, its head) is most of the edit's lay-out.

The cards laid out (in lay-out order) are cut into runs of :data:`RUN`. A run whose every card
is kept as text (``Card.values_text``: a card the card memo kept and nobody has read) is known by
one digest — the start of a side's key (the code, templates, art, settings: ``CardLayout``'s
static key, and the side) and the values texts of its cards, in order — which fixes every one of
its sides' keys. The lay-out's pack holds the run under that digest (``R`` before it): the keys
of its sides, what each places and how many primitives it has, and the forms they place. A run
is kept only when every side of it is plain (it read no other card, reported nothing, placed
forms only: the card's values and the shared part decide it), so the run's sides are those the
sides' own entries give: each is made from its entry's primitives line, undecoded.

A run is tried when the lay-out reaches its first card not yet laid out, with the forms the
lay-out holds at that moment: when one of its forms is not there yet, that card is laid out on
its own (its entry installs the form as it would without runs) and the run is tried again at
the next. So forms are installed in the same order as without runs, and the sides are the same
objects' equals. A run not found (new, edited, a card added before it: the positions move) is
laid out card by card, and kept for the next build when all its sides were plain.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Protocol

from cardgen.content.keptcard import values_text
from cardgen.content.model import Card
from cardgen.layout.cachepack import Pack
from cardgen.layout.scenecodec import decode
from cardgen.scene import Deferred

RUN = 64            # cards a run: an edit lays out its card's run one card at a time
PREFIX = "R"        # a run's key in the pack: this before its digest
_PLAIN_DEPS: dict[str, Any] = {"cards": {}}
_KEY = 64           # a side's key: a SHA-256 in hex


def decode_line(raw: Any) -> list:
    """A card side's primitives from their line of the cache entry."""
    return decode(json.loads(bytes(raw)))


class Layout(Protocol):
    """What a run needs of the lay-out (``layout.card.CardLayout``)."""

    symbols: dict[str, Any]
    content_ids: dict[int, tuple[Sequence[Any], str]]

    def key_head(self, side: str) -> bytes:
        """The start of a side's key text, before the card's values (``cache.digest_on``)."""


_Entry = tuple[list[str], list[int], list[tuple[str, ...]], frozenset]


class _Run:
    """A run of cards, its digest (None: a card not kept as text) and, once found, its entry."""

    __slots__ = ("cards", "key", "head", "done", "items")

    def __init__(self, cards: list[Card], key: str | None) -> None:
        self.cards, self.key = cards, key
        self.head: _Entry | None = None     # its sides' keys, counts and uses, its forms
        self.done = key is None         # nothing more to try
        self.items: list[Deferred | None] | None = None


class Runs:
    """The runs of one side of a lay-out (see the module)."""

    def __init__(self, layout: Layout, pack: Pack, side: str, cards: Sequence[Card]) -> None:
        self.layout, self.pack, self.side = layout, pack, side
        self.hits = 0
        self._head = layout.key_head(side)
        self._at: dict[int, tuple[_Run, int]] = {}
        self._runs: list[_Run] = []
        for start in range(0, len(cards), RUN):
            chunk = list(cards[start:start + RUN])
            texts = [c.values_text() for c in chunk]
            run = _Run(chunk, None if None in texts else self._digest(texts))    # type: ignore[arg-type]
            self._runs.append(run)
            for k, c in enumerate(chunk):
                self._at[id(c)] = (run, k)

    def _digest(self, texts: list[bytes]) -> str:
        h = hashlib.sha256(self._head)
        h.update(b"run\n")
        h.update(b"\n".join(texts))     # (JSON holds no raw line break)
        return h.hexdigest()

    def take(self, card: Card) -> Deferred | None:
        """``card``'s side from its run (None: lay it out on its own)."""
        got = self._at.get(id(card))
        if got is None or got[0].cards[got[1]] is not card:
            return None
        run, k = got
        if run.items is None and not run.done:
            self._try(run, k)
        if run.items is None:
            return None
        item, run.items[k] = run.items[k], None
        if item is not None:
            self.hits += 1
        return item

    def _try(self, run: _Run, k: int) -> None:
        """The run's sides from ``k`` on made from its entry, when the lay-out holds its forms."""
        if run.head is None:
            run.head = self._entry(run)
            if run.head is None:
                run.done = True
                return
        keys, ns, uses, forms = run.head
        if not self.layout.symbols.keys() >= forms:
            return
        items: list[Deferred | None] = [None] * len(keys)
        ids = self.layout.content_ids
        for j, line in enumerate(self.pack.lines(keys[k:]), k):
            if line is not None:        # (None: not in the pack read — an edit's side, in its own file)
                items[j] = d = Deferred(line, decode_line, ns[j], uses[j])
                ids[id(d)] = (d, keys[j])
        run.items = items
        run.done = True

    def _entry(self, run: _Run) -> _Entry | None:
        """The run's entry: its sides' keys (one text), counts, what each places (by number, in
        ``uses``) and the forms they place (None: not there, or not as written)."""
        hit = self.pack.get(PREFIX + str(run.key))
        if hit is None or not isinstance(hit[0], dict):
            return None
        try:
            keys, ns, which, table = hit[0]["keys"], hit[0]["n"], hit[0]["which"], hit[0]["uses"]
            forms = frozenset(hit[0]["forms"])
            ok = type(keys) is str and len(keys) == _KEY * len(run.cards) == _KEY * len(ns) \
                == _KEY * len(which) and all(type(n) is int for n in ns) \
                and all(type(u) is str for f in table for u in f) and all(type(f) is str for f in forms)
            table = [tuple(u) for u in table]
            uses = [table[w] for w in which]
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        return ([keys[j:j + _KEY] for j in range(0, len(keys), _KEY)], ns, uses, forms) if ok else None

    def keep(self) -> None:
        """The runs laid out card by card, kept for the next build when every side was plain."""
        for run in self._runs:
            if run.items is not None or run.head is not None:      # taken, or kept already
                continue
            texts = [c.values_text() or values_text(c).encode("utf-8") for c in run.cards]
            keys, ns, which, forms = [], [], [], set()       # (the entry: see _entry)
            table: dict[tuple, int] = {}
            for text in texts:
                key = hashlib.sha256(self._head + text[1:]).hexdigest()     # (cache.digest_on)
                head = self.pack.read_head(key)
                if not isinstance(head, dict) or head.get("deps") != _PLAIN_DEPS \
                        or head.get("problems") != [] or "locs" in head:
                    break
                keys.append(key)
                ns.append(head["n"])
                which.append(table.setdefault(tuple(head["uses"]), len(table)))
                forms.update(head["symbols"])
            else:
                self.pack.put(PREFIX + self._digest(texts), {"keys": "".join(keys), "n": ns, "which": which,
                                                             "uses": list(table), "forms": sorted(forms)}, [])

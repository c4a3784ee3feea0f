"""A card made again from the card memo's row (:mod:`.cardmemo`) without decoding its values.

A one-card edit of a 5,400-card file keeps 5,399 cards, and most of them are never read: their
sides come from the lay-out's cache, found by a key that is a digest of the card's values as
text (:meth:`Card.values_text`). A :class:`KeptCard` holds that text as the memo kept it — the
card's id, name, type, copies and fields as one sorted, compact JSON array, the very text the
lay-out's key digests — and decodes its fields, its positions and its own keys only when one of
them is first read. Once its fields have been read they may be changed in place (``tune`` does),
so from then on it has no values text: its key is made from the values, as any card's is.
"""

from __future__ import annotations

import dataclasses
import json
from operator import attrgetter
from typing import Any

from cardgen.content.model import Card
from cardgen.core.problems import Loc

# the lay-out's key digests the card's values as this encoder writes them (layout.cache.digest):
# the values text a card keeps must be exactly that text
_COMPARED = attrgetter(*(f.name for f in dataclasses.fields(Card) if f.compare))
VALUES_TEXT = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":")).encode


def values_text(card: Card) -> str:
    """A card's values as the lay-out's key reads them: ``[id, name, type, copies, fields]``."""
    return VALUES_TEXT([card.id, card.name, card.type, card.copies, card.fields])


class KeptCard(Card):
    """A kept card (see the module): ``values`` — its values text (UTF-8); ``tail`` — the JSON
    of its fields' order, its own keys, its position and its fields' positions, each position
    ``[line, col, how]`` relative to ``base[how]``."""

    def __init__(self, cid: str, name: str, ctype: str, copies: int, values: bytes, tail: bytes,
                 path: str, base: tuple[int, int, int]) -> None:
        self.id, self.name, self.type, self.copies, self.dangling = cid, name, ctype, copies, False
        self._values: bytes | None = values
        self._tail = tail
        self._path, self._base = path, base
        self._fields: dict[str, Any] | None = None
        self._locs: tuple[Loc, dict[str, Loc], frozenset] | None = None

    def values_text(self) -> bytes | None:
        return self._values if self._fields is None else None

    @property                                   # type: ignore[override]
    def fields(self) -> dict[str, Any]:
        if self._fields is None:
            decoded = json.loads(self._values or b"[]")[4]
            order = json.loads(self._tail)[0]
            self._fields = {k: decoded[k] for k in order}
        return self._fields

    @fields.setter
    def fields(self, value: dict[str, Any]) -> None:
        self._fields = value

    def _positions(self) -> tuple[Loc, dict[str, Loc], frozenset]:
        if self._locs is None:
            _, own, loc, flocs = json.loads(self._tail)
            path, base = self._path, self._base
            self._locs = (Loc(path, loc[0] + base[loc[2]], loc[1]),
                          {f: Loc(path, v[0] + base[v[2]], v[1]) for f, v in flocs.items()}, frozenset(own))
        return self._locs

    @property                                   # type: ignore[override]
    def loc(self) -> Loc:
        return self._positions()[0]

    @loc.setter
    def loc(self, value: Loc) -> None:
        self._locs = (value, *self._positions()[1:])        # type: ignore[assignment]

    @property                                   # type: ignore[override]
    def field_locs(self) -> dict[str, Loc]:
        return self._positions()[1]

    @field_locs.setter
    def field_locs(self, value: dict[str, Loc]) -> None:
        loc, _, own = self._positions()
        self._locs = (loc, value, own)

    @property                                   # type: ignore[override]
    def own(self) -> frozenset:
        return self._positions()[2]

    @own.setter
    def own(self, value: frozenset) -> None:
        loc, flocs, _ = self._positions()
        self._locs = (loc, flocs, value)

    def __eq__(self, other: object) -> bool:
        """Equal to a card (kept or parsed) of the same values, as a card is."""
        if not isinstance(other, Card):
            return NotImplemented
        return _COMPARED(self) == _COMPARED(other)

    __hash__ = None         # type: ignore[assignment]     # (as a card's: mutable, compared by value)

    def may_hold_brace(self) -> bool:
        # the values text holds one ``{`` of its own: the fields' mapping
        return self._fields is not None or self._values is None or self._values.count(b"{") > 1

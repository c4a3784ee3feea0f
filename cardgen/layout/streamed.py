"""Card placements laid out as the sheets ask for them.

A build that prints every card (no cache, no selection, no draft) need not hold every card's
laid-out scenes at once: :class:`Streamed` stands for one card size's placements, in the order
the full layout would make them, and lays out cards when a sheet takes them (a few sheets'
worth at a time) — so the scenes of all cards never exist at once. What must be known before the first page is drawn, the forms
the pages place and in which order, is known beforehand: a card side places at most its
template's form of the part that is the same on every card (:meth:`CardLayout.static_symbol`),
made for the first card of its type as the full layout makes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import overload

from cardgen.content.model import Card
from cardgen.layout.card import CardLayout
from cardgen.layout.imposition import Placement, make_placement
from cardgen.scene import Use

WINDOW = 128       # placements laid out at a time (a few sheets: ~0.4 MiB of scenes for poker cards)


class Streamed:
    """One card size's placements (each copy of each card, in order), laid out when taken,
    ``WINDOW`` at a time; a card type's back that is the same on every card is kept for the
    whole build (as the full layout shares it)."""

    def __init__(self, layout: CardLayout, bleed: float) -> None:
        self.layout = layout
        self.bleed = bleed
        self._cards: list[Card] = []            # per placement: its card, and its copy number
        self._copies: list[int] = []
        self._uses: list[tuple[list, list]] = []    # per placement: what its sides place, as scenes
        self._start = 0                         # the placements laid out: from _start, both sides
        self._window: list[tuple[list, list]] = []
        self._backs: dict[str, list] = {}
        self._checked: set[str] = set()         # card types whose first card placed the forms foreseen

    def add(self, card: Card, uses: tuple[list, list]) -> None:
        """Every copy of ``card``; ``uses``: the forms its front and back place (see :func:`uses`)."""
        for k in range(card.copies):
            self._cards.append(card)
            self._copies.append(k + 1)
            self._uses.append(uses)

    def __len__(self) -> int:
        return len(self._cards)

    @overload
    def __getitem__(self, i: int) -> Placement: ...

    @overload
    def __getitem__(self, i: slice) -> list[Placement]: ...

    def __getitem__(self, i: int | slice) -> Placement | list[Placement]:
        if isinstance(i, slice):
            return [self._placement(k) for k in range(*i.indices(len(self)))]
        return self._placement(range(len(self))[i])

    def __iter__(self) -> Iterator[Placement]:
        for k in range(len(self)):
            yield self._placement(k)

    def _placement(self, k: int) -> Placement:
        at = k - self._start
        if not 0 <= at < len(self._window):
            self._lay_out_from(k)
            at = 0
        front, back = self._window[at]
        card = self._cards[k]
        return make_placement(card.id, card.name, self._copies[k], front, back, self.bleed)

    def _lay_out_from(self, k: int) -> None:
        """Placements ``k`` on, ``WINDOW`` of them (a card's copies share its scenes), laid out
        together: layout and drawing take turns by the window, not by the card (fewer trips
        between the two, the same result); the window before is let go."""
        self._window = []
        self._start = k
        last: Card | None = None
        sides: tuple[list, list] = ([], [])
        for i in range(k, min(k + WINDOW, len(self._cards))):
            card = self._cards[i]
            if card is not last:
                sides = self._draw(card, i)
                last = card
            self._window.append(sides)

    def _draw(self, card: Card, k: int) -> tuple[list, list]:
        """Both sides of ``card`` as the full layout draws them (``pipeline.lay_out``)."""
        layout = self.layout
        front = layout.draw(card, "front")
        tpl = layout.template_for(card, "back")
        if tpl is not None and tpl.static_prefix() == len(tpl.elements):
            back = self._backs.get(card.type)
            if back is None:
                back = self._backs[card.type] = layout.draw(card, "back")
        else:
            back = layout.draw(card, "back")
        if card.type not in self._checked:      # the forms foreseen are the type's: checked once
            self._checked.add(card.type)
            for side, items, told in (("front", front, self._uses[k][0]), ("back", back, self._uses[k][1])):
                if _first_use(items) != _first_use(told):
                    raise RuntimeError(f"card '{card.id}': its {side} places {_first_use(items)!r}, "
                                       f"not {_first_use(told)!r} as foreseen")
        return front, back

    def symbol_scenes(self, per_page: int) -> Iterator[list]:
        """What the sides place, in the order the sheets put them on pages (a sheet's fronts, then
        its backs), as ``imposition.sheet_scenes`` yields the laid-out scenes: for
        ``render.pdf.used_symbols``, before any card is laid out."""
        uses = self._uses
        for start in range(0, len(uses), per_page):
            chunk = uses[start:start + per_page]
            for front, _ in chunk:
                yield front
            for _, back in chunk:
                yield back


def uses(layout: CardLayout, card: Card, made: dict[str | None, list]) -> tuple[list, list]:
    """The forms ``card``'s front and back place, each as a scene of that one ``Use`` (or empty),
    one list per form (``made``); the forms are made now, from the first card of their type."""
    sides = []
    for side in ("front", "back"):
        name = layout.static_symbol(card, side)
        scene = made.get(name)
        if scene is None:
            scene = made[name] = [Use(name, 0.0, 0.0)] if name is not None else []
        sides.append(scene)
    return sides[0], sides[1]


def _first_use(items: list) -> str | None:
    return items[0].name if items and type(items[0]) is Use else None

"""What every drawing verb receives: the card's frame of reference and where to report."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record

#: the sizes (pt) an element may print its text at: (template key, size, what it sets)
TextSizes = list[tuple[str, float, str]]


@runtime_checkable
class ElementKind(Protocol):
    """A drawing verb as the layout calls it: one module per kind (``cardgen/layout/elements/``),
    named in the one table :data:`cardgen.layout.elements.KINDS`."""

    #: its template keys, as typed options
    SPEC: Mapping[str, Opt]
    #: True when the sizes :meth:`text_sizes` gives bound every text the element draws (text
    #: over the legibility floor at those sizes need not be looked at again)
    TEXT_BOUNDED: bool

    def draw(self, v: dict[str, Any], ctx: DrawContext) -> list[Any]:
        """Scene primitives in bleed-box coordinates, for the element's normalised values."""
        ...

    def text_sizes(self, v: Mapping[str, Any]) -> TextSizes:
        """The sizes its text may print at (for the legibility floor, ``TEXT-SMALL``)."""
        ...


def no_text(v: Mapping[str, Any]) -> TextSizes:
    """``text_sizes`` of a kind that prints no text size of its own."""
    return []


@record
class DrawContext:
    """What an element draws with: the card's box, fonts, icons, problems and where things are."""

    w: float                  # trim width, mm
    h: float                  # trim height, mm
    bleed: float              # mm; element coordinates are relative to the trim's top-left
    fonts: dict[str, str]     # role → bundled font name
    icons: dict
    problems: Problems
    label: str                # "card 'rat' (Rat)" — names the card in messages
    where: Loc                # the card's source position
    field_locs: dict[str, Loc]
    element: str
    element_loc: Loc
    art_root: Path            # images resolve inside this folder
    field: str | None = None  # the card field the element shows (its first ``card.x``), if any
    art_dir: Path | None = None   # art/<game>/: card pictures (the art element) resolve inside it
    memo: dict | None = None  # the layout's memo: results that are the same on every card (resolved
    #                           image paths, text laid out without problems), per game
    remember_text: bool = True    # False: the caller remembers what the element draws for its values,
    #                               so its text is not remembered in ``memo`` as well
    icon_slips: frozenset[str] = frozenset()   # unknown icons the card's text names, reported with the content

    @property
    def what(self) -> str:
        """The card field and the element, as messages name them."""
        return (f"field '{self.field}' " if self.field else "") + f"(element '{self.element}' at {self.element_loc})"

    def ox(self, x: float) -> float:
        """Trim-relative x → bleed-box x."""
        return x + self.bleed

    def oy(self, y: float) -> float:
        return y + self.bleed

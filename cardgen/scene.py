"""The scene: a backend-neutral list of drawing primitives.

Units are millimetres; the origin is the top-left corner of the page (or of a symbol),
y grows downwards. Text sizes are in points. Colours are '#rrggbb' or None (no paint).
Renderers (PDF, SVG, PNG) draw the same scene.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import field
from typing import Any

from cardgen.core.record import maker, record


@record(frozen=True, slots=True)
class Rect:
    """A rectangle at (x, y), w × h mm, filled and/or stroked, corners rounded by ``radius``."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3          # stroke width, mm
    radius: float = 0.0


@record(frozen=True, slots=True)
class Line:
    """A straight line from (x1, y1) to (x2, y2), optionally dashed (mm on, mm off, …)."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    width: float = 0.25
    dash: tuple[float, ...] = ()


@record(frozen=True, slots=True)
class Circle:
    """A circle of radius ``r`` about (cx, cy), filled and/or stroked."""

    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3


@record(frozen=True, slots=True)
class Polygon:
    """A closed polygon through ``points``, filled and/or stroked."""

    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3


@record(frozen=True, slots=True)
class Text:
    """One line of text in one font, size and colour, anchored at (x, baseline y) per ``align``."""

    x: float                    # anchor x (left, centre or right edge, per align)
    y: float                    # baseline
    text: str
    font: str
    size: float                 # pt
    color: str = "#000000"
    align: str = "left"         # left | center | right


#: ``Text(...)`` made without the class's call, the same instance (:func:`cardgen.core.record.maker`):
#: a card's lines of text
make_text = maker(Text)


@record(frozen=True, slots=True)
class Image:
    """A picture file drawn into the box (x, y, w, h)."""

    path: str
    x: float
    y: float
    w: float
    h: float


@record(frozen=True, slots=True)
class Use:
    """Draw the symbol ``name`` with its top-left corner at (x, y)."""

    name: str
    x: float
    y: float


@record(frozen=True, slots=True)
class Link:
    """A named destination or an internal link area (renderers may ignore it)."""

    name: str
    x: float
    y: float


Primitive = Rect | Line | Circle | Polygon | Text | Image | Use | Link


@record
class Symbol:
    """A reusable drawing (a PDF form XObject, an SVG <symbol>): drawn once, placed often."""

    name: str
    w: float
    h: float
    items: list = field(default_factory=list)


@record
class Page:
    """One page: its primitives, a label, and the trim and bleed boxes a PDF records."""

    w: float
    h: float
    items: list = field(default_factory=list)
    label: str = ""
    trim_box: tuple[float, float, float, float] | None = None    # x, y, w, h (mm): the PDF's TrimBox
    bleed_box: tuple[float, float, float, float] | None = None   # and BleedBox


@record
class Document:
    """A whole output: its pages, the symbols they place, and its metadata."""

    title: str
    pages: list[Page] = field(default_factory=list)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    author: str = "cardgen"
    subject: str = ""


def translate(items: Sequence[Any], dx: float, dy: float) -> list:
    """The same primitives moved by (dx, dy)."""
    out: list = []
    for it in items:
        t = type(it)            # the common kinds first, by exact type
        if t is Text:
            out.append(Text(it.x + dx, it.y + dy, it.text, it.font, it.size, it.color, it.align))
        elif t is Rect:
            out.append(Rect(it.x + dx, it.y + dy, it.w, it.h, it.fill, it.stroke, it.width, it.radius))
        elif isinstance(it, Rect):
            out.append(Rect(it.x + dx, it.y + dy, it.w, it.h, it.fill, it.stroke, it.width, it.radius))
        elif isinstance(it, Line):
            out.append(Line(it.x1 + dx, it.y1 + dy, it.x2 + dx, it.y2 + dy, it.stroke, it.width, it.dash))
        elif isinstance(it, Circle):
            out.append(Circle(it.cx + dx, it.cy + dy, it.r, it.fill, it.stroke, it.width))
        elif isinstance(it, Polygon):
            out.append(Polygon(tuple((x + dx, y + dy) for x, y in it.points), it.fill, it.stroke, it.width))
        elif isinstance(it, Text):
            out.append(Text(it.x + dx, it.y + dy, it.text, it.font, it.size, it.color, it.align))
        elif isinstance(it, Image):
            out.append(Image(it.path, it.x + dx, it.y + dy, it.w, it.h))
        elif isinstance(it, Use):
            out.append(Use(it.name, it.x + dx, it.y + dy))
        elif isinstance(it, Link):
            out.append(Link(it.name, it.x + dx, it.y + dy))
        elif isinstance(it, Clip):
            out.append(Clip(it.x + dx, it.y + dy, it.w, it.h, tuple(translate(list(it.items), dx, dy))))
        elif isinstance(it, Rotate):
            out.append(Rotate(it.cx + dx, it.cy + dy, it.angle, tuple(translate(list(it.items), dx, dy))))
        elif isinstance(it, Moved):
            out.extend(translate(moved(it), dx, dy))
        else:  # pragma: no cover - a new primitive must be added here
            raise TypeError(type(it))
    return out


@record(frozen=True, slots=True)
class Clip:
    """Draw ``items`` clipped to the rectangle (x, y, w, h)."""

    x: float
    y: float
    w: float
    h: float
    items: tuple = ()


@record(frozen=True)
class Rotate:
    """Draw ``items`` turned by ``angle`` degrees clockwise (as seen on the page) about (cx, cy):
    a short-edge duplex back stands upside down behind its front."""

    cx: float
    cy: float
    angle: float
    items: tuple = ()


@record(frozen=True, slots=True)
class Moved:
    """``items`` moved by (dx, dy), the moved copies made only when drawn: an imposed sheet
    refers to a card's laid-out scene (shared by its copies) instead of holding a copy of it.
    Drawn exactly as ``translate(items, dx, dy)`` (:func:`moved`)."""

    dx: float
    dy: float
    items: Sequence[Any]       # a list, or a :class:`Deferred` card side


#: ``Clip(...)`` and ``Moved(...)`` made without the classes' call (:func:`cardgen.core.record.maker`):
#: a card's side placed on its sheet
make_clip = maker(Clip)
make_moved = maker(Moved)


class Deferred(Sequence[Any]):
    """A card side's primitives as the build cache keeps them (encoded), decoded on first use:
    a sheet written again from the last build's page needs only the side's digest, never its
    primitives. Iterated, indexed or measured it is the decoded list (decoded once); it is no
    ``list``, so code that would read a list's storage directly (``json``, ``str.join``) fails
    loudly instead of seeing it empty. ``uses``: the symbols it places, in the order a walk of
    its primitives meets them (:func:`uses_of`), known without decoding; ``n``: how many."""

    __slots__ = ("_raw", "_decode", "_items", "uses", "_n")

    def __init__(self, raw: Any, decode: Callable[[Any], list], n: int, uses: tuple[str, ...]) -> None:
        self._raw, self._decode = raw, decode
        self._items: list | None = None
        self.uses, self._n = uses, n

    def decoded(self) -> list:
        """The primitives (decoded now if not yet)."""
        items = self._items
        if items is None:
            items = self._items = self._decode(self._raw)
            self._raw = None
        return items

    def __iter__(self) -> Iterator[Any]:
        return iter(self.decoded())

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, k: Any) -> Any:
        return self.decoded()[k]


def uses_of(items: Sequence[Any]) -> tuple[str, ...]:
    """The names of the symbols ``items`` place, in the order a walk of them meets each (inside
    clips, turns and moves too; a symbol's own symbols not: they are its own)."""
    out: list[str] = []
    for it in items:
        t = type(it)
        if t is Text or t is Rect:
            continue
        if t is Use:
            out.append(it.name)
        else:
            out += uses_of(children(it))
    return tuple(out)


def moved(it: Moved) -> list:
    """The primitives a :class:`Moved` stands for."""
    return translate(it.items, it.dx, it.dy)


def children(it: object) -> Sequence[Any]:
    """The primitives a group primitive (Clip, Rotate, Moved) draws, as laid out (a Moved's
    before moving: the same symbols and texts); () for any other."""
    return it.items if isinstance(it, (Clip, Rotate, Moved)) else ()

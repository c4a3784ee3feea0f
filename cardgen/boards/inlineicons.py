"""A game's icons inline in platypus text (the rulebook, a game's own sheets), drawn with the same

A paragraph holds an icon as ``<onDraw>`` (reportlab calls back where the line places it)
followed by no-break spaces that keep an em of room for it; :class:`IconCanvas` draws the
pictogram in that room. The PDF's text has no character standing for the icon, only the spaces.
"""

from __future__ import annotations

import html
import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from reportlab.pdfgen.canvas import Canvas

from cardgen.content.model import Icon
from cardgen.core.fonts import PT_MM
from cardgen.layout.pictograms import DRAWINGS
from cardgen.layout.pictograms import draw as draw_pictogram
from cardgen.render.pdf import draw_items
from cardgen.scene import Rect

CALLBACK = "cardgen_icon"
ROOM = "\u00a0" * 3     # three no-break spaces: 0.83 em of the body fonts, the icon's square and a margin
_SIDE = 0.78            # the pictogram's side, in ems
_ROOM_EM = 0.834
_INLINE = re.compile(rf'<onDraw name="{CALLBACK}" label="[^"|]*\|[^"|]*\|([^"]*)"/>{ROOM}')


def drawable(icon: Icon) -> bool:
    """Whether the icon has a pictogram to draw inline (else its glyph stands in the text)."""
    return icon.draw in DRAWINGS


def markup(icon: Icon) -> str:
    """Paragraph markup drawing ``icon``'s pictogram in the line, at the size of its text."""
    label = quoteattr(f"{icon.draw}|{icon.color or '#000000'}|{icon.glyph}")
    return f'<onDraw name="{CALLBACK}" label={label}/>{ROOM}'


def swatch(color: str) -> str:
    """Paragraph markup for a square of ``color`` in the line (a colour key)."""
    return f'<onDraw name="{CALLBACK}" label={quoteattr("|" + color + "|")}/>{ROOM}'


def as_text(markup_: str) -> str:
    """Paragraph markup with each inline icon as its glyph (the text a reader of the words
    sees: a diff in a terminal) and each swatch as nothing."""
    return _INLINE.sub(lambda m: html.unescape(m.group(1)), markup_)


def by_glyph(icons: dict[str, Icon]) -> dict[str, Icon]:
    """Drawable icons by their glyph (the first icon of a glyph), but for ASCII glyphs and the
    bullet: to draw a glyph that reached text (a diff's words) as its pictogram again."""
    out: dict[str, Icon] = {}
    for ic in icons.values():
        if drawable(ic) and len(ic.glyph) == 1 and not ic.glyph.isascii() and ic.glyph != "•":
            out.setdefault(ic.glyph, ic)
    return out


def glyph_or_drawn(icon: Icon, color_attr: str = "color") -> str:
    """``icon`` inline: its pictogram, or its glyph in its colour when it has none."""
    if drawable(icon):
        return markup(icon)
    return f'<font {color_attr}="{icon.color or "#000000"}">{escape(icon.glyph)}</font>'


def draw_inline(canv: Canvas, _kind: str, label: str | None) -> None:
    """The ``<onDraw>`` callback: the pictogram in the room the no-break spaces after it keep."""
    info = getattr(canv, "_curr_tx_info", None)
    if not label or info is None:
        return
    name, color, _glyph = label.split("|", 2)
    size = info["tx"]._fontsize or info["xs"].style.fontSize
    side = size * _SIDE
    x = info["cur_x"] + (size * _ROOM_EM - side) / 2
    y = info["cur_y"] - size * 0.12
    s = side * PT_MM
    canv.saveState()
    canv.translate(x, y)
    if name:
        draw_items(canv, draw_pictogram(name, s / 2, s / 2, s, color), s)
    else:
        draw_items(canv, [Rect(s * 0.1, s * 0.1, s * 0.8, s * 0.8, fill=color)], s)
    canv.restoreState()


class IconCanvas(Canvas):
    """A reportlab canvas that draws the icons of :func:`markup` (pass it as ``canvasmaker``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setNamedCB(CALLBACK, draw_inline)

"""The graphics state a pen keeps on a reportlab canvas: the paint colours, the line width and the
font in effect, each written only when it changes, its operator written again as it was the
first time (:class:`cardgen.render.pen.Pen` draws the primitives on top of it)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from cardgen.core import fonts
from cardgen.render.pdftext import TextOps
from cardgen.render.pensvg import MM


class PenState:
    """The paint state written on one canvas (colours, line width, font), and the text operators."""

    fill: str | None
    stroke: str | None
    font: tuple[str, float] | None
    lw: float | None

    def __init__(self, c: canvas.Canvas) -> None:
        self.c = c
        self._colors: dict[str, HexColor] = {}
        self._ttf: Any = None                  # the current font (reportlab's TTFont)
        self._fonts: dict[str, Any] = {}       # TrueType fonts set before, by name (set_font)
        self._paints: dict[tuple, str] = {}    # colour operators written, by (colour, fill)
        self._widths: dict[float, str] = {}    # line width operators written, by width (mm)
        self.tx = TextOps()                    # text operators (and the font in effect)
        self._direct = False                   # the current font's text goes to self.tx
        self.reset()

    def reset(self) -> None:
        """Nothing known of the graphics state (a new page or form)."""
        self.fill = self.stroke = self.font = None
        self.lw = None
        self.tx.tf = None

    def saved(self) -> tuple:
        """The graphics state as tracked, to :meth:`restore` after a ``Q``."""
        return self.fill, self.stroke, self.font, self._ttf, self._direct, self.lw, self.tx.tf

    def restore(self, saved: tuple) -> None:
        """After a ``Q``: the state is again what it was at the matching ``q`` (reportlab's
        ``restoreState`` restores its own: the canvas's font, size and colours)."""
        self.fill, self.stroke, self.font, self._ttf, self._direct, self.lw, self.tx.tf = saved

    def color(self, h: str) -> HexColor:
        col = self._colors.get(h)
        if col is None:
            col = self._colors[h] = HexColor(h)
        return col

    def set_fill(self, h: str) -> None:
        if h != self.fill:
            self._paint(h, True)
            self.fill = h

    def set_stroke(self, h: str, width: float) -> None:
        if h != self.stroke:
            self._paint(h, False)
            self.stroke = h
        if width != self.lw:
            c = self.c
            op = self._widths.get(width)
            if op is None:          # setLineWidth's operator, remembered (written again as it wrote it)
                c.setLineWidth(width * MM)
                op = self._widths[width] = c._code[-1]
            else:
                c._lineWidth = width * MM
                c._code.append(op)
            self.lw = width

    def _paint(self, h: str, fill: bool) -> None:
        """``setFillColor`` (``setStrokeColor``) of the colour ``h``: the colour operator it wrote
        the first time is written again, with the state it sets (the colour object, its alpha)."""
        c = self.c
        col = self.color(h)
        op = self._paints.get((h, fill))
        if op is None or c._enforceColorSpace is not None or type(col) is not Color:
            n = len(c._code)
            (c.setFillColor if fill else c.setStrokeColor)(col)
            if c._enforceColorSpace is None and type(col) is Color:
                self._paints[(h, fill)] = c._code[n]
            return
        c._code.append(op)
        gs = c._extgstate.getValue      # the alpha in effect: setting it again would write nothing
        if fill:
            c._fillColorObj = col
            if col.alpha is not None and gs("ca") != col.alpha:
                c.setFillAlpha(col.alpha)
        else:
            c._strokeColorObj = col
            if col.alpha is not None and gs("CA") != col.alpha:
                c.setStrokeAlpha(col.alpha)

    def set_font(self, name: str, size: float) -> None:
        """``setFont``; for a TrueType font met before (which it writes nothing for), its state."""
        c = self.c
        ttf = self._fonts.get(name)
        if ttf is None:
            self._ttf = fonts.font(name)
            c.setFont(name, size)
            if getattr(pdfmetrics.getFont(name), "_dynamicFont", False):
                self._fonts[name] = self._ttf
        else:
            self._ttf = ttf
            c._fontname, c._fontsize, c._leading = name, size, size * 1.2
        self.font = (name, size)
        self._direct = c.bottomup and getattr(self._ttf, "_dynamicFont", False)

"""An SVG picture drawn by the pen (:mod:`cardgen.render.pen`): its form made once per document,
placed scaled into its box."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.core.artfiles import svg_digest, svg_drawing
from cardgen.core.images import ImageError
from cardgen.core.lazymod import lazy
from cardgen.scene import Image

if TYPE_CHECKING:
    from cardgen.render.pen import Pen

renderPDF = lazy("reportlab.graphics.renderPDF")   # SVG pictures only (it loads platypus)
MM = 72.0 / 25.4        # points a millimetre (the pen's, :mod:`cardgen.render.pen`)


def draw_svg(pen: Pen, it: Image, H: float) -> None:
    """An SVG picture: its form (made once per document) scaled into the box."""
    try:
        drawing = svg_drawing(it.path)
        name = "SVG" + svg_digest(it.path)      # by content: the same bytes wherever the project lies
    except ImageError:          # reported when the card was laid out
        return
    if drawing is None or not drawing.width or not drawing.height:
        return
    c = pen.c
    if name not in pen.forms:
        pen.forms.add(name)
        c.beginForm(name, 0, 0, drawing.width, drawing.height)
        renderPDF.draw(drawing, c, 0, 0)
        c.endForm()
    c.saveState()
    c.translate(it.x * MM, (H - it.y - it.h) * MM)
    c.scale(it.w * MM / drawing.width, it.h * MM / drawing.height)
    c.doForm(name)
    c.restoreState()
    pen.reset()

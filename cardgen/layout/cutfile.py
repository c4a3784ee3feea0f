"""Cutting machines: Silhouette registration marks on front sheets, and a cut file per sheet.

With ``print: registration: silhouette`` each front sheet carries Silhouette Studio's
"Type 1" marks (CAMEO, Portrait, Curio): a filled 5 mm square at the top-left and 20 mm
L-brackets at the top-right and bottom-left, 0.5 mm thick, inset 10 mm from the edges.
The machine's optical sensor finds them, and then cuts the lines of the sheet's cut file:
an SVG the size of the page (millimetre user units) holding each card's trim as a closed
rectangle, at the same place as in cards.pdf and cards.json.
"""

from __future__ import annotations

from cardgen.content.sheetfit import REG_INSET, REG_LENGTH, REG_SQUARE, REG_THICKNESS
from cardgen.render.svg import render_page
from cardgen.scene import Document, Page, Rect

INK = "#000000"
CUT = "#ff0000"          # Silhouette Studio shows cut lines red
CUT_WIDTH = 0.1          # mm: a hairline, the cut follows the line's centre


def registration_marks(page_w: float, page_h: float) -> list:
    """The three marks, as filled rectangles (top-left square; top-right and bottom-left L's
    whose outer corners sit ``REG_INSET`` from both edges)."""
    i, n, t = REG_INSET, REG_LENGTH, REG_THICKNESS
    right, bottom = page_w - i, page_h - i
    return [Rect(i, i, REG_SQUARE, REG_SQUARE, INK),
            Rect(right - n, i, n, t, INK), Rect(right - t, i, t, n, INK),           # top-right ┐
            Rect(i, bottom - t, n, t, INK), Rect(i, bottom - n, t, n, INK)]         # bottom-left └


def registration_record(page_w: float, page_h: float) -> dict:
    """The marks as cards.json states them: what to set in Silhouette Studio, and where."""
    i = REG_INSET
    return {"style": "silhouette type 1", "inset": i, "length": REG_LENGTH, "thickness": REG_THICKNESS,
            "square": [i, i, REG_SQUARE, REG_SQUARE],
            "top_right": [page_w - i, i], "bottom_left": [i, page_h - i]}


def cut_svg(page_w: float, page_h: float, trims: list[list[float]], title: str) -> bytes:
    """The cut file of one front sheet: every trim as a red hairline rectangle."""
    page = Page(page_w, page_h, [Rect(x, y, w, h, None, CUT, CUT_WIDTH) for x, y, w, h in trims], label="cut")
    return render_page(page, Document(title, subject="cut lines (card trims); registration: "
                                      f"Silhouette type 1, inset {REG_INSET:g} mm, length {REG_LENGTH:g} mm, "
                                      f"thickness {REG_THICKNESS:g} mm"))

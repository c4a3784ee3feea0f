"""duplex-calibration.pdf: find a printer's duplex offset.

The front page prints a cross through the page centre; the back page a millimetre grid
centred on the same point, printed without any offset. Held to the light, the front's
cross shows through the grid where the printer really put it: the grid reading under the
cross's centre (x right, y down, in mm) is the printer's offset: ``cardgen calibrate PRINTER
--offset X,Y`` records it in the user's printers file (``--offset X,Y`` for one build).
"""

from __future__ import annotations

from cardgen.core.fonts import font
from cardgen.render.pdf import render
from cardgen.scene import Circle, Document, Line, Page, Rect, Text

RANGE = 10         # mm either side of the centre
MARGIN_LINE = 0.2  # mm: the frame along the printer's margin
MAJOR = 5          # a labelled, darker line every MAJOR mm
INK = "#000000"
GREY = "#9a9a9a"


def front_page(W: float, H: float, bold: str, reg: str, duplex: str, margin: float = 0.0) -> Page:
    cx, cy = W / 2, H / 2
    p = Page(W, H, label="front")
    if margin > 0:          # the printer's margin, checked: a frame just inside it
        p.items += [Rect(margin + MARGIN_LINE / 2, margin + MARGIN_LINE / 2, W - 2 * margin - MARGIN_LINE,
                         H - 2 * margin - MARGIN_LINE, None, INK, MARGIN_LINE),
                    Text(cx, 19.5, f"The thin frame runs {margin:g} mm from the edges (the printer's margin). If a side "
                         "of it is missing or cut, your printer's", reg, 8, INK, "center"),
                    Text(cx, 22.8, "margin is wider: record it (cardgen calibrate PRINTER --margin 6mm); cards keep clear of it.",
                         reg, 8, INK, "center")]
    p.items += [Line(cx, 24, cx, H - 24, INK, 0.35), Line(16, cy, W - 16, cy, INK, 0.35),
                Circle(cx, cy, 3.0, None, INK, 0.35),
                Text(cx, 16, "Duplex calibration — front", bold, 16, INK, "center"),
                Text(cx, H - 14, f"Print both pages duplex, {duplex}-edge flip, at 100 % (actual size),",
                     reg, 10, INK, "center"),
                Text(cx, H - 9, "with the printer settings you print cards with. Then read the back page.",
                     reg, 10, INK, "center")]
    return p


def grid(cx: float, cy: float, reg: str, bold: str) -> list:
    """A centred millimetre grid from -RANGE to +RANGE on both axes, labelled every MAJOR mm."""
    items: list = []
    lo, hi = -RANGE, RANGE
    for k in range(lo, hi + 1):
        major = k % MAJOR == 0
        colour, width = (INK, 0.25 if k else 0.4) if major else (GREY, 0.12)
        items.append(Line(cx + k, cy + lo, cx + k, cy + hi, colour, width))
        items.append(Line(cx + lo, cy + k, cx + hi, cy + k, colour, width))
        if major:
            label = (f"+{k}" if k > 0 else f"−{-k}") if k else "0"
            items.append(Text(cx + k, cy + lo - 2.0, label, bold, 8, INK, "center"))
            items.append(Text(cx + lo - 2.0, cy + k + 1.1, label, bold, 8, INK, "right"))
    items += [Text(cx, cy + lo - 7.5, "x (mm) →", reg, 9, INK, "center"),
              Text(cx + lo - 2.0, cy + hi + 6.0, "y (mm) ↓", reg, 9, INK, "right")]
    return items


def back_page(W: float, H: float, bold: str, reg: str, slug: str) -> Page:
    cx, cy = W / 2, H / 2
    p = Page(W, H, label="back")
    p.items += grid(cx, cy, reg, bold)
    lines = [
        "1. Hold the printed sheet against a window or a lamp, this page towards you.",
        "2. The front's cross shows through. Read where its centre falls on the grid:",
        "    x on the top scale (+ is right), y on the left scale (+ is down), to 0.5 mm.",
        "3. That reading is your printer's duplex offset. Record it once for this printer:",
        "    cardgen calibrate PRINTER --offset Xmm,Ymm   (PRINTER: a name you choose)",
        "    then print every game with cardgen build --printer PRINTER.",
        "    It replaces, not adds to, an offset recorded before.",
        "A cross on the grid's centre (0, 0) needs no offset.",
    ]
    p.items.append(Text(cx, 18, "Duplex calibration — back", bold, 16, INK, "center"))
    for i, t in enumerate(lines):
        p.items.append(Text(22, cy + RANGE + 22 + 6 * i, t, reg, 10, INK, "left"))
    return p


def build(laid, **_opts) -> dict[str, bytes]:
    game = laid.game
    ps = game.print
    reg, bold = game.fonts["regular"], game.fonts["bold"]
    font(reg)
    font(bold)
    # Both pages are symmetric about the page centre, which stands behind itself for either
    # flip; the back is printed without offset, so it measures the printer as it is.
    doc = Document(f"{game.title} — duplex calibration",
                   pages=[front_page(ps.page_w, ps.page_h, bold, reg, ps.duplex, ps.margin),
                          back_page(ps.page_w, ps.page_h, bold, reg, game.slug)])
    return {"duplex-calibration.pdf": render(doc)}

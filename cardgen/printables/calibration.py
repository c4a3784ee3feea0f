"""duplex-calibration.pdf: find a printer's duplex offset.

Print both pages duplex (same settings as the cards), hold the sheet to the light and,
looking at the back page, read the two rulers where the front's centre lines show
through. Those readings (x, y in mm) are the ``print.offset`` to set.
"""

from __future__ import annotations

from ..fonts import font
from ..imposition import back_position
from ..render_pdf import render
from ..scene import Document, Line, Page, Text

RANGE = 5      # mm either side
STEP = 0.5


def build(laid, **_opts) -> dict[str, bytes]:
    ps = laid.game.print
    W, H = ps.page_w, ps.page_h
    reg, bold = laid.game.fonts["regular"], laid.game.fonts["bold"]
    font(reg)
    font(bold)
    cx, cy = W / 2, H / 2
    front = Page(W, H, label="front")
    front.items += [Line(cx, 20, cx, H - 20, "#000000", 0.2), Line(20, cy, W - 20, cy, "#000000", 0.2),
                    Text(cx, 14, "Duplex calibration — front", bold, 14, "#000000", "center"),
                    Text(cx, H - 12, f"Print both pages duplex ({ps.duplex}-edge flip) at 100 %, "
                         "with the settings you print cards with.", reg, 9, "#000000", "center")]
    back = Page(W, H, label="back")
    # The back page is printed unshifted: it measures the printer as it is.
    bx, by = back_position(cx, cy, 0, 0, type(ps)(**{**ps.__dict__, "offset": (0.0, 0.0)}))
    n = int(RANGE / STEP)
    for k in range(-n, n + 1):
        v = k * STEP
        major = k % 2 == 0
        ln = 6 if major else 3.5
        back.items.append(Line(bx + v, by - 40 - ln, bx + v, by - 40 + ln, "#000000", 0.15))
        back.items.append(Line(bx - 40 - ln, by + v, bx - 40 + ln, by + v, "#000000", 0.15))
        if major:
            back.items.append(Text(bx + v, by - 40 - ln - 1.5, f"{v:+g}", reg, 5.5, "#000000", "center"))
            back.items.append(Text(bx - 40 - ln - 1.2, by + v + 0.8, f"{v:+g}", reg, 5.5, "#000000", "right"))
    back.items += [
        Text(bx, 20, "Duplex calibration — back", bold, 14, "#000000", "center"),
        Text(bx, 28, "Hold the sheet to the light. Where the front's lines show through the rulers,",
             reg, 9, "#000000", "center"),
        Text(bx, 33, "read x (top ruler) and y (left ruler), and set print.offset: [x mm, y mm].",
             reg, 9, "#000000", "center"),
    ]
    doc = Document(f"{laid.game.title} — duplex calibration", pages=[front, back])
    return {"duplex-calibration.pdf": render(doc)}

"""What a draft build prints where a card cannot be drawn right: an error card, and the
discreet DRAFT mark outside the trim of every sheet of a draft build.

An error card is the card's size, white with a thick red frame, headed ERROR, naming the
card and each problem (rule ID, file:line, message) so the printed sheet says what to fix.
"""

from __future__ import annotations

import textwrap

from cardgen.core.problems import Problem
from cardgen.scene import Line, Rect, Text

RED = "#c0102a"
FONT = "LiberationSans-Regular"
BOLD = "LiberationSans-Bold"
PT = 25.4 / 72


def error_card(w: float, h: float, bleed: float, title: str, problems: list[Problem]) -> list:
    """Primitives (bleed-box coordinates) of an error card ``w`` × ``h`` mm."""
    x0, y0 = bleed, bleed
    items: list = [Rect(0, 0, w + 2 * bleed, h + 2 * bleed, fill="#ffffff"),
                   Rect(x0 + 1.5, y0 + 1.5, w - 3, h - 3, stroke=RED, width=1.2),
                   Line(x0 + 1.5, y0 + 1.5, x0 + w - 1.5, y0 + h - 1.5, stroke="#f3c4cb", width=0.6),
                   Text(x0 + w / 2, y0 + 10, "ERROR", BOLD, 16, RED, "center")]
    size = 7.0
    chars = max(12, int((w - 8) / (size * PT * 0.5)))
    y = y0 + 16
    lines = textwrap.wrap(title, chars)[:2]
    for ln in lines:
        items.append(Text(x0 + w / 2, y, ln, BOLD, 8, "#000000", "center"))
        y += 8 * PT * 1.3
    y += 1.5
    for p in problems[:4]:
        where = f"{p.loc.file.rsplit('/', 1)[-1]}:{p.loc.line}" if p.loc else ""
        head = f"{p.rule} · {where}"
        body = textwrap.wrap(p.message, chars)
        for k, ln in enumerate([head, *body][:5]):
            if y > y0 + h - 6:
                break
            items.append(Text(x0 + 4, y, ln, BOLD if k == 0 else FONT, size, RED if k == 0 else "#000000"))
            y += size * PT * 1.25
        y += 1.2
    if len(problems) > 4 and y <= y0 + h - 6:
        items.append(Text(x0 + 4, y, f"and {len(problems) - 4} more", FONT, size, "#000000"))
    return items


def draft_mark(page_h: float, boxes: list[list[float]]) -> Text | None:
    """'DRAFT' in small grey type in the bottom (else top) margin, outside every card's bleed
    box and away from the crop marks (centred under the first column, where none runs).
    ``boxes``: the page's bleed boxes [x, y, w, h]. None when no margin has room."""
    if not boxes:
        return None
    left = min(b[0] for b in boxes)
    first = [b for b in boxes if abs(b[0] - left) < 1e-6]
    cx = left + first[0][2] / 2
    bottom = page_h - max(b[1] + b[3] for b in boxes)
    top = min(b[1] for b in boxes)
    size = 6.0
    if bottom >= size * PT + 0.6:
        return Text(cx, page_h - bottom / 2 + size * PT * 0.35, "DRAFT", BOLD, size, "#8a8a8a", "center")
    if top >= size * PT + 0.6:
        return Text(cx, top / 2 + size * PT * 0.35, "DRAFT", BOLD, size, "#8a8a8a", "center")
    return None

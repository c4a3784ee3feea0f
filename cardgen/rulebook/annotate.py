"""An annotated example card: one card drawn large in the middle of the column, its parts named
in the margins on either side (the template's ``callout:`` words), a leader line from each name
to its part — a rulebook's "Reading the cards" picture. Names on the side of the part they
point at, in the order of the parts down the card, never overlapping."""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph

from cardgen.render.pdf import draw_items
from cardgen.rulebook.flowables import MM, CardPicture
from cardgen.scene import translate

LABEL_PT = 8.5          # the names of the parts (over the 6 pt floor at any page size)
GAP = 8 * MM            # between a name and the card
MAX_SCALE = 1.25        # enlarged: a third larger than the real card at most


def sides(card: CardPicture, s: float) -> dict[str, list[tuple[str, float, float, float]]]:
    """The callouts per side: (name, y of the name, x and y of the leader's end on the card),
    in points from the card's top-left, names at least a line apart."""
    out: dict[str, list[tuple[str, float, float, float]]] = {"left": [], "right": []}
    for name, (x, y, w, h) in card.callouts:
        cy = (y + h / 2) * MM * s
        if x + w / 2 <= card.w / 2:
            out["left"].append((name, cy, x * MM * s, cy))
        else:
            out["right"].append((name, cy, (x + w) * MM * s, cy))
    step = LABEL_PT * 1.5
    for side, items in out.items():
        items.sort(key=lambda it: it[1])
        placed: list[tuple[str, float, float, float]] = []
        for name, ly, ex, ey in items:
            ly = max(ly, placed[-1][1] + step) if placed else ly
            placed.append((name, ly, ex, ey))
        out[side] = placed
    return out


class AnnotatedCard(Flowable):
    """One card at a legible, enlarged scale with its parts named on both sides."""

    def __init__(self, card: CardPicture, caption_style, font: str, color: str = "#3a342c"):
        super().__init__()
        self.card, self.caption_style, self.font, self.color = card, caption_style, font, color
        self.caption = Paragraph(card.caption, caption_style) if card.caption else None

    def wrap(self, availWidth, availHeight):
        c = self.card
        widths = {side: max((stringWidth(n, self.font, LABEL_PT) for n, *_ in items), default=0.0)
                  for side, items in sides(c, 1.0).items()}
        margin = 2 * max(widths.values()) + 2 * GAP          # the names' room on each side
        fit = (availWidth - margin) / (c.w * MM)
        self.s = max(min(MAX_SCALE, fit), c.legible_scale(), 0.1)
        self.aw = availWidth
        self.cw, self.ch = c.w * MM * self.s, c.h * MM * self.s
        # centred, unless a side's names need more room than that leaves them
        self.x0 = min(max((availWidth - self.cw) / 2, widths["left"] + GAP),
                      availWidth - self.cw - widths["right"] - GAP)
        self.cap_h = self.caption.wrap(availWidth, availHeight)[1] + 3 if self.caption else 0.0
        self.width, self.height = availWidth, self.ch + self.cap_h
        return self.width, self.height

    def draw(self):
        cv, c, s = self.canv, self.card, self.s
        x0 = self.x0
        top = self.height
        cv.saveState()
        cv.translate(x0, top - self.ch)
        cv.scale(s, s)
        p = cv.beginPath()
        p.roundRect(0, 0, c.w * MM, c.h * MM, 3 * MM)
        cv.clipPath(p, stroke=0, fill=0)
        draw_items(cv, translate(c.items, -c.bleed, -c.bleed), c.h)
        cv.restoreState()
        cv.saveState()
        cv.setStrokeColor(HexColor(self.color))
        cv.setFillColor(HexColor(self.color))
        cv.setLineWidth(0.6)
        cv.setFont(self.font, LABEL_PT)
        for side, items in sides(c, s).items():
            for name, ly, ex, ey in items:
                y_name, y_end = top - ly, top - ey
                x_end = x0 + ex
                if side == "left":
                    x_text = x0 - GAP + 2 * MM
                    cv.drawRightString(x_text, y_name - LABEL_PT * 0.35, name)
                    cv.line(x_text + 2, y_name, x0 - 2 * MM, y_name)
                    cv.line(x0 - 2 * MM, y_name, x_end, y_end)
                else:
                    x_text = x0 + self.cw + GAP - 2 * MM
                    cv.drawString(x_text, y_name - LABEL_PT * 0.35, name)
                    cv.line(x_text - 2, y_name, x0 + self.cw + 2 * MM, y_name)
                    cv.line(x0 + self.cw + 2 * MM, y_name, x_end, y_end)
                cv.circle(x_end, y_end, 1.4, stroke=0, fill=1)
        cv.restoreState()
        if self.caption is not None:
            self.caption.wrap(self.aw, self.cap_h)
            self.caption.drawOn(cv, 0, self.cap_h - 3 - self.caption.height)

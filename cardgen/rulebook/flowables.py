"""Platypus flowables the rulebook needs beyond reportlab's own: headings that register
themselves once placed, real cards drawn from the card pipeline's primitives, full-width
tables and callout boxes."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Paragraph, Table

from cardgen.render.pdf import draw_items
from cardgen.scene import Clip, Symbol, Use, translate

MM = 72.0 / 25.4


class Heading(Paragraph):
    """A heading: a named destination where it stands, a TOC and outline entry once placed.

    The destination is set in ``draw`` (the only moment the position is known); the TOC and
    the outline are fed from the document's ``afterFlowable``, i.e. after placement, so
    page numbers never drift. A heading never splits.
    """

    def __init__(self, markup: str, style, level: int, key: str, plain: str, toc: bool = True,
                 outline: bool = True, chapter: bool = False, aliases: list[str] | None = None):
        super().__init__(markup, style)
        self.aliases = list(aliases or [])
        self.level = level
        self.key = key
        self.plain = plain
        self.toc = toc
        self.outline = outline
        self.chapter = chapter

    def draw(self):
        for name in [self.key, *self.aliases]:
            self.canv.bookmarkHorizontal(name, 0, self.height + 4)
        super().draw()

    def split(self, availWidth, availHeight):
        return []


def expand(items: list, symbols: dict[str, Symbol]) -> list:
    """Primitives with every symbol reference replaced by the symbol's own primitives."""
    out: list = []
    for it in items:
        if isinstance(it, Use):
            sym = symbols[it.name]
            out.extend(translate(expand(sym.items, symbols), it.x, it.y))
        elif isinstance(it, Clip):
            out.append(Clip(it.x, it.y, it.w, it.h, tuple(expand(list(it.items), symbols))))
        else:
            out.append(it)
    return out


@dataclass
class CardPicture:
    """One side of one card as the card pipeline laid it out (bleed-box coordinates, mm)."""

    items: list
    w: float            # trim, mm
    h: float
    bleed: float
    caption: str = ""   # Paragraph markup


class CardRow(Flowable):
    """Real cards side by side, centred, scaled to fit the column (at most ``scale``)."""

    GAP = 4 * MM

    def __init__(self, cards: list[CardPicture], caption_style, scale: float = 0.62, radius: float = 3.0):
        super().__init__()
        self.cards = cards
        self.caption_style = caption_style
        self.max_scale = scale
        self.radius = radius
        self._captions: list[Paragraph | None] = []
        self.s = scale

    def wrap(self, availWidth, availHeight):
        n = len(self.cards)
        total = sum(c.w for c in self.cards) * MM
        self.s = min(self.max_scale, (availWidth - self.GAP * (n - 1)) / total) if total else self.max_scale
        self.aw = availWidth
        self.card_h = max(c.h for c in self.cards) * MM * self.s
        cap_h = 0.0
        self._captions = []
        for c in self.cards:
            if c.caption:
                p = Paragraph(c.caption, self.caption_style)
                _, h = p.wrap(c.w * MM * self.s + self.GAP * 0.8, availHeight)
                cap_h = max(cap_h, h)
                self._captions.append(p)
            else:
                self._captions.append(None)
        self.cap_h = cap_h + (3 if cap_h else 0)
        self.width, self.height = availWidth, self.card_h + self.cap_h
        return self.width, self.height

    def draw(self):
        c = self.canv
        s = self.s
        widths = [card.w * MM * s for card in self.cards]
        x = (self.aw - sum(widths) - self.GAP * (len(widths) - 1)) / 2
        for card, w, cap in zip(self.cards, widths, self._captions):
            h = card.h * MM * s
            y = self.cap_h + (self.card_h - h)
            c.saveState()
            c.translate(x, y)
            c.scale(s, s)
            p = c.beginPath()
            p.roundRect(0, 0, card.w * MM, card.h * MM, self.radius * MM)
            c.clipPath(p, stroke=0, fill=0)
            draw_items(c, translate(card.items, -card.bleed, -card.bleed), card.h)
            c.restoreState()
            c.saveState()
            c.setStrokeColor(HexColor("#9a948a"))
            c.setLineWidth(0.4)
            c.roundRect(x, y, w, h, self.radius * MM * s, stroke=1, fill=0)
            c.restoreState()
            if cap is not None:
                cw = w + self.GAP * 0.8
                cap.wrap(cw, self.cap_h)
                cap.drawOn(c, x - self.GAP * 0.4, self.cap_h - 3 - cap.height)
            x += w + self.GAP


class GroupedTable(Table):
    """A table whose first column names groups of rows (a blank cell belongs to the group above,
    as in a team and its skaters): a part continued on the next page names its group again."""

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        if len(parts) != 2:
            return parts
        first, rest = parts
        n = self.repeatRows if isinstance(self.repeatRows, int) else len(self.repeatRows)
        if len(rest._cellvalues) <= n or not _blank(rest._cellvalues[n][0]):
            return parts
        label = next((_para(row[0]) for row in reversed(first._cellvalues[n:]) if not _blank(row[0])), None)
        if label is not None:
            rest._cellvalues[n][0] = [Paragraph(f"{label.text} <i>(continued)</i>", label.style)]
        return parts


def _para(cell) -> Paragraph | None:
    """The paragraph of a table cell (reportlab keeps a cell's flowables in a list)."""
    if isinstance(cell, (list, tuple)):
        cell = cell[0] if len(cell) == 1 else None
    return cell if isinstance(cell, Paragraph) else None


def _blank(cell) -> bool:
    p = _para(cell)
    return not (p.text.strip() if p is not None else str(cell or "").strip())


class FullWidth(Flowable):
    """A reportlab Table built at wrap time, when the column's width is known.

    ``make(width)`` returns the Table; splitting across pages is the Table's, except that a
    table no taller than ``keep`` points moves to the next page whole.
    """

    def __init__(self, make, keep: float = 0.0):
        super().__init__()
        self.make = make
        self.keep = keep
        self._t: Table | None = None

    def wrap(self, availWidth, availHeight):
        self._t = self.make(availWidth)
        self.width, self.height = self._t.wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth, availHeight):
        t = self.make(availWidth)
        if self.keep and t.wrap(availWidth, availHeight)[1] <= self.keep:
            return []
        return t.split(availWidth, availHeight)

    def draw(self):
        assert self._t is not None
        self._t.drawOn(self.canv, 0, 0)


def callout(rows: list[list], accent: str, fill: str, pad: float = 7, keep: float = 150) -> FullWidth:
    """A boxed block (examples, notes): one flowable per row, so a long one may break between
    rows — never right after its title (the title shares a cell with the first block) — and one
    no taller than ``keep`` points never breaks."""
    if len(rows) > 1 and len(rows[0]) == 1 and len(rows[1]) == 1:
        rows = [[[rows[0][0], rows[1][0]]], *rows[2:]]

    def make(width: float) -> Table:
        t = Table(rows or [[""]], colWidths=[width], splitByRow=1)
        t.setStyle([
            ("BACKGROUND", (0, 0), (-1, -1), HexColor(fill)),
            ("LINEBEFORE", (0, 0), (0, -1), 2.2, HexColor(accent)),
            ("LEFTPADDING", (0, 0), (-1, -1), pad + 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ("TOPPADDING", (0, 0), (-1, 0), pad * 0.8),
            ("BOTTOMPADDING", (0, -1), (-1, -1), pad * 0.8),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ])
        return t

    return FullWidth(make, keep)

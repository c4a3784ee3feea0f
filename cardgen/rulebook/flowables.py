"""Platypus flowables the rulebook needs beyond reportlab's own: headings that register
themselves once placed, real cards drawn from the card pipeline's primitives, full-width
tables and callout boxes."""

from __future__ import annotations

from dataclasses import field

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Paragraph, Table

from cardgen.core.fonts import METRICS, PT_MM
from cardgen.core.record import record
from cardgen.layout.legibility import MIN_PT
from cardgen.render.pdf import draw_items
from cardgen.scene import Clip, Rect, Rotate, Symbol, Text, Use, translate

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


@record
class CardPicture:
    """One side of one card as the card pipeline laid it out (bleed-box coordinates, mm)."""

    items: list
    w: float            # trim, mm
    h: float
    bleed: float
    caption: str = ""   # Paragraph markup
    min_text: float | None = None   # the card's smallest text at full size, pt; None: no legibility floor
    thumbnail: bool = False         # show the card's look: text under the floor drawn as lines, not printed
    callouts: list = field(default_factory=list)   # (name for players, (x, y, w, h) mm): its parts, to annotate

    def legible_scale(self, floor: float = MIN_PT) -> float:
        """The smallest scale at which every text of the card prints at ``floor`` pt or more."""
        return floor / self.min_text if self.min_text and not self.thumbnail else 0.0


def greeked(items: list, scale: float, floor: float = MIN_PT, color: str = "#cfc8bb") -> list:
    """``items`` with every text that would print under ``floor`` pt at ``scale`` drawn as a
    line of its width instead (a thumbnail's small print: its shape, never unreadable type)."""
    out: list = []
    for it in items:
        if isinstance(it, Clip):
            out.append(Clip(it.x, it.y, it.w, it.h, tuple(greeked(list(it.items), scale, floor, color))))
        elif isinstance(it, Rotate):
            out.append(Rotate(it.cx, it.cy, it.angle, tuple(greeked(list(it.items), scale, floor, color))))
        elif isinstance(it, Text) and it.size * scale < floor - 1e-6:
            if it.text.strip():
                w = METRICS.width_pt(it.text, it.font, it.size) * PT_MM
                x = it.x - (w / 2 if it.align == "center" else w if it.align == "right" else 0.0)
                h = it.size * PT_MM * 0.45
                out.append(Rect(x, it.y - h * 1.1, w, h, fill=color, radius=h / 2))
        else:
            out.append(it)
    return out


class CardRow(Flowable):
    """Real cards side by side, centred, scaled to fit the column (at most ``scale``) — never so
    small that a card's text prints under :data:`MIN_PT`: the scale is raised to the legible one
    and the cards run on in as many lines as the column needs (one flowable per line when split
    over a page). A thumbnail keeps its scale and draws its small print as lines."""

    GAP = 4 * MM

    def __init__(self, cards: list[CardPicture], caption_style, scale: float = 0.62, radius: float = 3.0):
        super().__init__()
        self.cards = cards
        self.caption_style = caption_style
        self.max_scale = scale
        self.radius = radius
        self._captions: list[Paragraph | None] = []
        self.s = scale
        self.lines: list[list[int]] = [list(range(len(cards)))]
        self.fixed = False          # the parts of a split row keep the row's scale

    def legible_scale(self) -> float:
        return max((c.legible_scale() for c in self.cards), default=0.0)

    def wrap(self, availWidth, availHeight):
        n = len(self.cards)
        total = sum(c.w for c in self.cards) * MM
        s = min(self.max_scale, (availWidth - self.GAP * (n - 1)) / total) if total else self.max_scale
        widest = max((c.w for c in self.cards), default=1.0) * MM
        self.s = self.max_scale if self.fixed else max(s, min(self.legible_scale(), availWidth / widest))
        self.lines = []
        line: list[int] = []
        used = 0.0
        for i, c in enumerate(self.cards):
            w = c.w * MM * self.s
            if line and used + self.GAP + w > availWidth + 1e-6:
                self.lines.append(line)
                line, used = [], 0.0
            used += (self.GAP if line else 0.0) + w
            line.append(i)
        self.lines.append(line)
        self.aw = availWidth
        self._captions = []
        for c in self.cards:
            p = Paragraph(c.caption, self.caption_style) if c.caption else None
            if p is not None:
                p.wrap(c.w * MM * self.s + self.GAP * 0.8, availHeight)
            self._captions.append(p)
        self.line_h = [self._line_height(line) for line in self.lines]
        self.width = availWidth
        self.height = sum(self.line_h) + self.GAP * (len(self.lines) - 1)
        return self.width, self.height

    def _line_height(self, line: list[int]) -> float:
        card_h = max(self.cards[i].h for i in line) * MM * self.s
        caps = [p.height for i in line if (p := self._captions[i]) is not None]
        return card_h + (max(caps) + 3 if caps else 0.0)

    def split(self, availWidth, availHeight):
        self.wrap(availWidth, availHeight)
        fit, used = 0, 0.0
        for lh in self.line_h:
            if used + lh > availHeight + 1e-6:
                break
            used += lh + self.GAP
            fit += 1
        if fit == 0 or fit == len(self.lines):
            return []
        head = [self.cards[i] for line in self.lines[:fit] for i in line]
        tail = [self.cards[i] for line in self.lines[fit:] for i in line]
        parts = [CardRow(head, self.caption_style, self.s, self.radius),
                 CardRow(tail, self.caption_style, self.s, self.radius)]
        for part in parts:
            part.fixed = True
        return parts

    def draw(self):
        top = self.height
        for line, lh in zip(self.lines, self.line_h):
            self._draw_line(line, top - lh, lh)
            top -= lh + self.GAP

    def _draw_line(self, line: list[int], base: float, line_h: float) -> None:
        c = self.canv
        s = self.s
        cards = [self.cards[i] for i in line]
        caps = [self._captions[i] for i in line]
        card_h = max(card.h for card in cards) * MM * s
        cap_h = line_h - card_h
        widths = [card.w * MM * s for card in cards]
        x = (self.aw - sum(widths) - self.GAP * (len(widths) - 1)) / 2
        for card, w, cap in zip(cards, widths, caps):
            h = card.h * MM * s
            y = base + cap_h + (card_h - h)
            items = greeked(card.items, s) if card.thumbnail else card.items
            c.saveState()
            c.translate(x, y)
            c.scale(s, s)
            p = c.beginPath()
            p.roundRect(0, 0, card.w * MM, card.h * MM, self.radius * MM)
            c.clipPath(p, stroke=0, fill=0)
            draw_items(c, translate(items, -card.bleed, -card.bleed), card.h)
            c.restoreState()
            c.saveState()
            c.setStrokeColor(HexColor("#9a948a"))
            c.setLineWidth(0.4)
            c.roundRect(x, y, w, h, self.radius * MM * s, stroke=1, fill=0)
            c.restoreState()
            if cap is not None:
                cw = w + self.GAP * 0.8
                cap.wrap(cw, cap_h)
                cap.drawOn(c, x - self.GAP * 0.4, base + cap_h - 3 - cap.height)
            x += w + self.GAP


def card_rows(cards: list[CardPicture], caption_style, scale: float, width_mm: float) -> list[CardRow]:
    """The cards as one :class:`CardRow` per line they take in a column ``width_mm`` wide (a box's
    rows break only between its flowables: each line its own)."""
    row = CardRow(cards, caption_style, scale)
    row.wrap(width_mm * MM, 1e6)
    if len(row.lines) < 2:
        return [row]
    return [CardRow([cards[i] for i in line], caption_style, row.s) for line in row.lines]


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

    def __init__(self, make, keep: float = 0.0, kind: str = "table"):
        super().__init__()
        self.make = make
        self.keep = keep
        self.kind = kind            # "table" or "box" (a callout), for the text a diff reads back
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

    return FullWidth(make, keep, kind="box")

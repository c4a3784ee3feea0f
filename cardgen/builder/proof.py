"""``cardgen proof``: named cards, front and back, at true size on one page, with the trim
(solid) and the safe area (dashed) drawn over them — the quick look before printing.

Only the named cards are laid out (no whole-game build), so a proof takes a fraction of a
second. The PNG is the PDF rasterised (pypdfium2), so both show the same drawing.
"""

from __future__ import annotations

import io

from cardgen.content.model import Card, Game
from cardgen.core.lazymod import lazy
from cardgen.core.problems import Problems
from cardgen.layout.card import CardLayout
from cardgen.render.pdf import render
from cardgen.scene import Document, Line, Page, Text, translate

pdfium = lazy("pypdfium2")     # rasterising loads it; the other commands do not

MARGIN = 10.0       # mm around the page
GAP = 8.0           # mm between front and back, and between cards
LABEL = 6.0         # mm for the label line above each card
FONT = "LiberationSans-Regular"


def document(game: Game, cards: list[Card], problems: Problems) -> Document:
    layout = CardLayout(game, problems)
    b = game.print.bleed
    safe = game.print.safe
    sizes = [game.card_types[c.type] for c in cards]
    page_w = 2 * MARGIN + GAP + 2 * max(ct.width + 2 * b for ct in sizes)
    page_h = 2 * MARGIN + sum(LABEL + ct.height + 2 * b + GAP for ct in sizes) - GAP
    page = Page(page_w, page_h, label="proof")
    y = MARGIN
    for card, ct in zip(cards, sizes):
        page.items.append(Text(MARGIN, y + 4, f"{card.name} ({card.id}) · {ct.name} · {ct.width:g} × "
                               f"{ct.height:g} mm, bleed {b:g} mm, safe area {safe:g} mm", FONT, 7))
        y += LABEL
        for k, side in enumerate(("front", "back")):
            x = MARGIN + k * (ct.width + 2 * b + GAP)
            page.items += translate(layout.draw(card, side), x, y)
            page.items += _guides(x + b, y + b, ct.width, ct.height, safe)
        y += ct.height + 2 * b + GAP
    doc = Document(f"{game.title} — proof", [page], subject="card proof")
    doc.symbols.update(layout.symbols)
    return doc


def _guides(x: float, y: float, w: float, h: float, safe: float) -> list:
    trim, cut = "#00a0e0", "#e0007a"
    out = []
    for (x1, y1, x2, y2) in _box(x, y, w, h):
        out.append(Line(x1, y1, x2, y2, stroke=trim, width=0.2))
    if 0 < safe * 2 < min(w, h):
        for (x1, y1, x2, y2) in _box(x + safe, y + safe, w - 2 * safe, h - 2 * safe):
            out.append(Line(x1, y1, x2, y2, stroke=cut, width=0.2, dash=(1.0, 1.0)))
    return out


def _box(x: float, y: float, w: float, h: float) -> list[tuple[float, float, float, float]]:
    return [(x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y)]


def pdf(doc: Document) -> bytes:
    return render(doc)


def png(pdf_bytes: bytes, dpi: int = 150) -> bytes:
    """The proof's page as PNG (rasterised from the PDF)."""
    pdfdoc = pdfium.PdfDocument(pdf_bytes)
    try:
        image = pdfdoc[0].render(scale=dpi / 72).to_pil()
    finally:
        pdfdoc.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi))
    return buf.getvalue()

"""``cardgen proof``: named cards, front and back, at true size on one page, with the trim
(solid) and the safe area (dashed) drawn over them — the quick look before printing.

Only the named cards are laid out (no whole-game build), so a proof takes a fraction of a
second. The PNG is the PDF rasterised (pypdfium2), so both show the same drawing.
"""

from __future__ import annotations

import io
from typing import Any

from cardgen.content import collection_files as cols
from cardgen.content import constraints
from cardgen.content.model import Card, CardType, Game
from cardgen.core.lazymod import lazy
from cardgen.core.problems import Problem, Problems
from cardgen.core.record import record
from cardgen.layout.card import CardLayout
from cardgen.layout.errorcard import error_card
from cardgen.render.pdf import render
from cardgen.scene import Document, Line, Page, Text, translate

pdfium = lazy("pypdfium2")     # rasterising loads it; the other commands do not

MARGIN = 10.0       # mm around the page
GAP = 8.0           # mm between front and back, and between cards
LABEL = 6.0         # mm for the label line above each card
FONT = "LiberationSans-Regular"


@record
class Broken:
    """A card that failed to load: proofed as its error card."""

    id: str
    name: str
    card_type: CardType
    problems: list[Problem]


def unread_problems(game: Game, problems: Problems) -> list[tuple[Any, list[Problem]]]:
    """Each card that failed to load (``game.unread_cards``) with the errors found inside it
    (from its first line to the next card's)."""
    starts: dict[str, list[tuple[int, Any]]] = {}
    for c in game.cards:
        starts.setdefault(c.loc.file, []).append((c.loc.line, None))
    for u in game.unread_cards:
        loc = getattr(u, "loc", None)
        if loc is not None:
            starts.setdefault(loc.file, []).append((loc.line, u))
    mine: dict[int, list[Problem]] = {}
    for p in problems.errors:
        if p.loc is None or p.loc.file not in starts:
            continue
        owner = None
        for line, unread in sorted(starts[p.loc.file], key=lambda t: t[0]):
            if line <= p.loc.line:
                owner = unread
        if owner is not None:
            mine.setdefault(id(owner), []).append(p)
    return [(u, mine.get(id(u), [])) for u in game.unread_cards]


def broken_card(game: Game, name: str, problems: Problems) -> Broken | None:
    """The card named ``name`` (id or name) that failed to load, with its problems; else None."""
    if not game.card_types:
        return None
    for u, errs in unread_problems(game, problems):
        if name in (str(u.get("id")), ) or name.lower() == str(u.get("name", "")).lower():
            ct = game.card_types.get(str(u.get("type"))) or next(iter(game.card_types.values()))
            return Broken(str(u.get("id", "?")), str(u.get("name", "?")), ct,
                          errs or [Problem("CARD-INVALID", "error", "the card failed its checks",
                                           getattr(u, "loc", None))])
    return None


def own_problems(game: Game, card: Card) -> list[Problem]:
    """The construction rules the card itself breaks (a required field left out): the problems
    of the game's constraints that stand at the card and name it (a deck count it tops is not its own)."""
    found = Problems()
    constraints.evaluate(game.constraints, {"cards": cols.pool(game), "components": cols.components(game)},
                         game.params, found)
    lines = {(loc.file, loc.line) for loc in (card.loc, *card.field_locs.values()) if loc is not None}
    return [p for p in found.errors if p.loc is not None and (p.loc.file, p.loc.line) in lines
            and (p.message.startswith(f"{card.id} (") or f"'{card.id}'" in p.message)]


def document(game: Game, cards: list[Card | Broken], problems: Problems) -> Document:
    """The proof page; a Broken card shows its error card, front and back."""
    layout = CardLayout(game, problems)
    b = game.print.bleed
    safe = game.print.safe
    sizes = [c.card_type if isinstance(c, Broken) else game.card_types[c.type] for c in cards]
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
            drawn = error_card(ct.width, ct.height, b, f"{card.name} ({card.id})", card.problems) \
                if isinstance(card, Broken) else layout.draw(card, side)
            page.items += translate(drawn, x, y)
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

"""readme.pdf: the kit's "read me first" page — what to print on which paper or stock, the
printer's settings, the order to cut in, and a checklist of every component with its count.

Everything on it comes from the game's data, as the build uses it: the game's printables, its
print settings (paper, duplex edge, offset, margin), the cards' copies per type and the sheets
they fill (the same sheet fit as cards.pdf), the tokens' counts from the token files.
"""

from __future__ import annotations

import math

from cardgen.boards import tokens
from cardgen.content.model import Game
from cardgen.content.sheetfit import Fit, fit, make_grid, mark_room, usable_margin
from cardgen.core.fonts import METRICS
from cardgen.core.problems import Problems
from cardgen.layout.foldsheet import fold_fit
from cardgen.render.pdf import render
from cardgen.scene import Document, Line, Page, Rect, Text

REG, BOLD = "LiberationSans-Regular", "LiberationSans-Bold"
INK, GREY = "#1d1a16", "#6b665e"
BODY = 9.0           # pt
LEAD = 4.4           # mm between body lines

# what each printable is printed on, and how (any printable not named here: plain paper, one-sided)
HOW = {
    "cards": ("card stock (250–300 g/m²)", "both sides: duplex, flip on the {edge} edge"),
    "duplex-calibration": ("plain paper, once, first", "both sides: duplex, flip on the {edge} edge"),
    "rulebook": ("plain paper (80–100 g/m²)", "one or both sides"),
    "tokens": ("card stock", "both sides: duplex, flip on the {edge} edge"),
    "mats": ("card stock or thick paper", "one side; trim and tape the sheets where the marks say"),
    "maps": ("card stock or thick paper", "one side; trim and tape the sheets where the marks say"),
    "board": ("card stock or thick paper", "one side; trim and tape the sheets where the marks say"),
    "reference": ("card stock", "one side, one per player"),
}
BOARDS = {"board": "The board: every page of board.pdf, taped together", "mats": "Player mats: every page of mats.pdf",
          "maps": "Maps: one PDF per map, each page taped together", "reference": "Player aids: reference.pdf"}
FILES = {"rulebook": "rulebook.pdf (rulebook-booklet.pdf: duplex, short edge, fold in half)"}


def card_counts(game: Game) -> list[tuple[str, int, int, str]]:
    """(card type's name, designs, copies, size) for each card type the game prints, in game order."""
    out: dict[str, list] = {}
    for c in game.cards:
        ct = game.card_types.get(c.type)
        if ct is None or c.copies <= 0 or c.dangling:
            continue
        row = out.setdefault(ct.key, [ct.name, 0, 0, ct.size])
        row[1] += 1
        row[2] += c.copies
    return [tuple(r) for r in out.values()]         # type: ignore[misc]


def card_fits(game: Game) -> list[tuple[int, Fit, float, float]]:
    """(copies, the sheet fit, card width, height) of each card size, as cards.pdf imposes them."""
    per_size: dict[str, int] = {}
    for _, _, copies, size in card_counts(game):
        per_size[size] = per_size.get(size, 0) + copies
    how = fold_fit if game.print.layout == "fold" else fit
    out = []
    for size, copies in per_size.items():
        w, h = next((t.width, t.height) for t in game.card_types.values() if t.size == size)
        out.append((copies, how(game.print, w, h, size), w, h))
    return out


def card_sheets(game: Game) -> int:
    """How many sheets cards.pdf fills: each card size's copies over the cards a sheet holds."""
    return sum(math.ceil(n / f.grid.per_page) for n, f, _, _ in card_fits(game) if f.grid.per_page)


def ticked(game: Game) -> bool:
    """Whether some card sheet marks cut lines by ticks where rows meet (no room at two edges)."""
    ps = game.print
    room = mark_room(ps)
    return bool(room) and any(
        f.grid.per_page > make_grid(ps.page_w, ps.page_h, f.grid.w, h, ps.bleed, ps.gutter, usable_margin(ps),
                                    room).per_page for _, f, _, h in card_fits(game))


def token_counts(game: Game) -> list[tuple[str, int]]:
    """(token's name, how many) for every token the game's token files define."""
    if "tokens" not in game.printables:
        return []
    return [(t.name, t.count) for t in tokens.all_defs(game, Problems()).values()]


def lines(game: Game) -> list[tuple[str, str]]:
    """The page's text, (style, line): style 'h' a heading, 'b' a body line, 'c' a checklist line."""
    ps = game.print
    edge = ps.duplex
    sheets = card_sheets(game)
    out: list[tuple[str, str]] = [("h", "1. What to print")]
    for name in game.printables:
        if name == "readme" or (name == "duplex-calibration" and ps.layout == "fold"):
            continue
        stock, how = HOW.get(name, ("plain paper", "one side"))
        if name == "mats" and game.print.mats == "compact":
            how = "one side; a compact mat is one sheet: cut it on its lines (no tape)"
        if name == "cards" and ps.layout == "fold":
            how = "one side only; each card's front and back side by side, to fold and glue"
        what = FILES.get(name, f"{name}.pdf")
        extra = f" — {sheets} sheets" if name == "cards" else ""
        out.append(("b", f"{what}{extra}: on {stock}, {how.format(edge=edge)}."))
    out += [("h", "2. Printer settings"),
            ("b", f"Paper: {ps.paper}. Scale: 100 % (actual size), never \"fit to page\"."),
            ("b", f"Duplex: flip on the {edge} edge. Print duplex-calibration.pdf first: its back tells you "
                  "your printer's offset, which the cards then use."
                  if "duplex-calibration" in game.printables else f"Duplex: flip on the {edge} edge."),
            ("b", f"Nothing is printed within {ps.margin:g} mm of the paper's edges."),
            ("h", "3. Cutting order"),
            ("b", "Cards: cut the long cuts first, across the whole sheet, on the marks at its edges; then cut each "
                  "strip into cards on the marks " + ("between them (small ticks where rows meet)" if ticked(game)
                                                      else "at the sheet's edges") + ". The bleed around each card "
                  "falls away." + (" Fold each pair on its dashed line, the back behind the front, and glue."
                                   if ps.layout == "fold" else "")),
            ("b", "Then tokens, then mats and boards: cut on their lines, and tape board sheets edge to edge."),
            ("h", "4. Checklist")]
    counts = card_counts(game)
    for name, designs, copies, _ in counts:
        out.append(("c", f"{name}: {copies} card{'s' * (copies != 1)} ({designs} design{'s' * (designs != 1)})"))
    if counts:
        out.append(("b", f"{sum(c[2] for c in counts)} cards in all, on {sheets} sheets."))
    for name, n in token_counts(game):
        out.append(("c", f"{name}: {n} token{'s' * (n != 1)}"))
    for kind, what in BOARDS.items():
        if kind in game.printables:
            out.append(("c", what))
    if "rulebook" in game.printables:
        out.append(("c", "Rulebook"))
    return out


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    words, out, cur = text.split(), [], ""
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if cur and METRICS.width_mm(trial, font, size) > width:
            out.append(cur)
            cur = w
        else:
            cur = trial
    return out + ([cur] if cur else [])


def page(game: Game) -> Page:
    ps = game.print
    W, H = ps.page_w, ps.page_h
    left, width = max(ps.margin, 15.0), W - 2 * max(ps.margin, 15.0)
    p = Page(W, H, label="readme")
    y = max(ps.margin, 15.0) + 8
    p.items += [Text(left, y, f"{game.title} — read me first", BOLD, 18, INK),
                Line(left, y + 3, left + width, y + 3, INK, 0.4)]
    y += 10
    for style, text in lines(game):
        if style == "h":
            y += 3
            p.items.append(Text(left, y, text, BOLD, 11, INK))
            y += LEAD + 1
            continue
        indent = 6.0 if style == "c" else 0.0
        if style == "c":           # a box to tick
            p.items.append(Rect(left + 0.5, y - 2.6, 3.0, 3.0, None, INK, 0.25))
        for part in wrap(text, REG, BODY, width - indent):
            p.items.append(Text(left + indent, y, part, REG, BODY, INK))
            y += LEAD
    p.items.append(Text(left, H - max(ps.margin, 15.0), f"Made from the game's own data by cardgen · {ps.paper}",
                        REG, 7, GREY))
    return p


def build(laid, **_opts) -> dict[str, bytes]:
    game = laid.game
    return {"readme.pdf": render(Document(f"{game.title} — read me first", pages=[page(game)],
                                          subject="what to print, how to cut, what is in the box"))}

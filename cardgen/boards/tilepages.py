"""A board tiled over printer sheets, drawn: each tile's page (window, glue strips, cut marks,
registration crosshairs, mini-map) and the assembly page (see :mod:`cardgen.boards.tiling`)."""

from __future__ import annotations

import math

from cardgen.boards.tiling import (
    COMMON_H,
    COMMON_W,
    CROSS_REACH,
    CROSS_RING,
    CUT_ROOM,
    GLUE_FILL,
    HEADER,
    INK,
    MARGIN,
    OVERLAP,
    PT_MM,
    Board,
    Tile,
    Tiling,
    col_name,
    cull,
    fit,
    rotated_box,
    scale,
    text_box,
)
from cardgen.core.units import PAPER_MM
from cardgen.scene import Circle, Clip, Line, Page, Rect, Rotate, Text, translate


def crosshair(x: float, y: float, r: float = CROSS_RING) -> list:
    """A registration crosshair centred on (x, y), with a white halo so it shows on any colour."""
    return [Circle(x, y, r, None, "#ffffff", 0.9), Line(x - r - 2, y, x + r + 2, y, "#ffffff", 0.9),
            Line(x, y - r - 2, x, y + r + 2, "#ffffff", 0.9),
            Circle(x, y, r, None, INK, 0.25), Line(x - r - 2, y, x + r + 2, y, INK, 0.25),
            Line(x, y - r - 2, x, y + r + 2, INK, 0.25)]


def _glue_label(x: float, y: float, w: float, h: float, vertical: bool, under: str, font: str) -> list:
    out: list = [Rect(x, y, w, h, GLUE_FILL, None, 0)]
    if vertical:
        word = f"GLUE · {under} ON TOP"
        size = 6.0
        step = size * PT_MM * 1.25
        n = len(word)
        top = y + (h - n * step) / 2
        if n * step < h - 20:
            for i, ch in enumerate(word):
                out.append(Text(x + w / 2, top + (i + 0.8) * step, ch, font, size, "#555555", "center"))
    else:
        out.append(Text(x + w / 2, y + h / 2 + 1.0, f"GLUE — {under} ON TOP", font, 6.0, "#555555", "center"))
    return out


def _cut_marks(x0: float, y0: float, x1: float, y1: float, left_cut: bool, top_cut: bool, font: str) -> list:
    """Marks at the window's top-left corners; dashed cut lines on the edges cut to overlap a neighbour.

    Everything stays inside the printable box: left of the window there is :data:`CUT_ROOM`, above
    it the header; the right and bottom edges lie under the next tile's glue or are the board's edge."""
    out: list = []
    ln, up, gap = CUT_ROOM - 1.0, 3.0, 1.0
    out += [Line(x0, y0 - gap - up, x0, y0 - gap, INK, 0.2), Line(x1, y0 - gap - up, x1, y0 - gap, INK, 0.2),
            Line(x0 - gap - ln, y0, x0 - gap, y0, INK, 0.2), Line(x0 - gap - ln, y1, x0 - gap, y1, INK, 0.2)]
    if left_cut:
        out.append(Line(x0, y0 - gap - up, x0, y1, INK, 0.3, (2.0, 1.5)))
        out.append(Text(x0 - 1.2, y0 + (y1 - y0) / 2 + 6, "cut", font, 5.5, INK, "right"))
    if top_cut:
        out.append(Line(x0 - gap - ln, y0, x1, y0, INK, 0.3, (2.0, 1.5)))
    return out


def _minimap(t: Tiling, tile: Tile, x: float, y: float, w: float, h: float) -> list:
    """The whole board in small, this tile filled: where the sheet goes."""
    k = min(w / t.board.w, h / t.board.h)
    out: list = [Rect(x, y, t.board.w * k, t.board.h * k, "#ffffff", INK, 0.2)]
    for other in t.tiles:
        mine = other.col == tile.col and other.row == tile.row
        out.append(Rect(x + other.x0 * k, y + other.y0 * k, other.w * k, other.h * k,
                        "#555555" if mine else None, "#777777", 0.15))
    return out




def crosshair_spots(texts: list[tuple[float, float, float, float]], axis: str, seam: float, lo: float,
                    hi: float, play: list[tuple[float, float, float, float]] | None = None) -> list[float]:
    """Where along a seam (``axis`` 'x': the vertical cut line x = ``seam``; 'y': the horizontal
    one) its two crosshairs go, between ``lo`` and ``hi``: one in each half of the way, off the
    play area (``play``: boxes where pieces stand) where the seam leaves its half room for one,
    else near its quarter (moved by up to a fifth of the way), covering no text: first of all
    the ring, then the arms."""

    def box(p: float, r: float) -> tuple[float, float, float, float]:
        return (seam - r, p - r, seam + r, p + r) if axis == "x" else (p - r, seam - r, p + r, seam + r)

    def covered(p: float, r: float, boxes) -> int:
        x0, y0, x1, y1 = box(p, r)
        return sum(1 for a, b, c, d in boxes if a < x1 and x0 < c and b < y1 and y0 < d)

    span = hi - lo
    out = []
    for f, (h0, h1) in ((0.25, (lo, lo + span / 2)), (0.75, (lo + span / 2, hi))):
        target = lo + span * f
        reach = int(span * 0.2)
        cands = [target + d for d in range(-reach, reach + 1) if lo + 8 <= target + d <= hi - 8] or [target]
        if play:
            cands += [float(p) for p in range(math.ceil(h0), math.floor(h1) + 1) if lo + 8 <= p <= hi - 8
                      and not covered(p, CROSS_REACH + 0.5, play)]
        out.append(min(cands, key=lambda p: (covered(p, CROSS_RING + 1.0, texts),
                                             bool(play) and covered(p, CROSS_REACH + 0.5, play) > 0,
                                             covered(p, CROSS_REACH + 0.5, texts), abs(p - target))))
    return out


def word_boxes(items: list) -> list[tuple[float, float, float, float]]:
    """The boxes of the board's words, turned ones (:class:`Rotate`) too: where no crosshair goes."""
    out = []
    for it in items:
        if type(it) is Text:
            out.append(text_box(it))
        elif type(it) is Rotate and any(type(c) is Text for c in it.items):
            b = rotated_box(it)
            if b is not None:
                out.append(b)
    return out


def tile_pages(t: Tiling, fonts: dict[str, str]) -> list[Page]:
    """One page per tile, left to right, top to bottom."""
    reg, bold = fonts["regular"], fonts["bold"]
    bx, by, bw, bh = t.content_box()
    wx, wy = bx + CUT_ROOM, by + HEADER
    ncols, nrows = len(t.cols), len(t.rows)
    pages = []
    n = t.sheets
    texts = word_boxes(t.board.items)
    play = t.board.play
    for idx, tile in enumerate(t.tiles):
        page = Page(t.page_w, t.page_h, label=f"tile {tile.id}")
        dx, dy = wx - tile.x0, wy - tile.y0
        content = cull(t.board.items, tile.x0, tile.y0, tile.x1, tile.y1)
        over: list = []
        seam_r = t.cols[tile.col + 1][0] if tile.col < ncols - 1 else None     # a tile to the right
        seam_b = t.rows[tile.row + 1][0] if tile.row < nrows - 1 else None     # a tile below
        # glue strips: the part of this tile the neighbour to the right / below covers
        if seam_r is not None:
            over += _glue_label(seam_r, tile.y0, tile.x1 - seam_r, tile.h, True,
                                f"{col_name(tile.col + 1)}{tile.row + 1}", bold)
        if seam_b is not None:
            over += _glue_label(tile.x0, seam_b, tile.w, tile.y1 - seam_b, False,
                                f"{col_name(tile.col)}{tile.row + 2}", bold)
        # registration crosshairs on every seam this tile touches, centred on the cut line; the
        # same places along a seam on both its tiles (they depend on the seam and the row or column only)
        ys = crosshair_spots(texts, "x", tile.x0, tile.y0, tile.y1, play) if tile.col > 0 else []
        ys_r = crosshair_spots(texts, "x", seam_r, tile.y0, tile.y1, play) if seam_r is not None else []
        xs = crosshair_spots(texts, "y", tile.y0, tile.x0, tile.x1, play) if tile.row > 0 else []
        xs_b = crosshair_spots(texts, "y", seam_b, tile.x0, tile.x1, play) if seam_b is not None else []
        if tile.col > 0:
            for y in ys:
                over += crosshair(tile.x0, y)
        if seam_r is not None:
            for y in ys_r:
                over += crosshair(seam_r, y)
        if tile.row > 0:
            for x in xs:
                over += crosshair(x, tile.y0)
        if seam_b is not None:
            for x in xs_b:
                over += crosshair(x, seam_b)
        win = Clip(wx, wy, tile.w, tile.h, tuple(translate(content + over, dx, dy)))
        page.items.append(win)
        page.items.append(Rect(wx, wy, tile.w, tile.h, None, "#888888", 0.1))
        page.items += _cut_marks(wx, wy, wx + tile.w, wy + tile.h, tile.col > 0, tile.row > 0, reg)
        # the crosshair halves outside the window, on the cut-away margin (they help while aligning)
        if tile.col > 0:
            for y in ys:
                page.items += [Line(wx - CUT_ROOM, y + dy, wx, y + dy, INK, 0.25)]
        if tile.row > 0:
            for x in xs:
                page.items += [Line(x + dx, wy - 3.0, x + dx, wy, INK, 0.25)]
        # header
        page.items.append(Text(bx, by + 9.5, tile.id, bold, 22, INK))
        page.items.append(Text(bx + 22, by + 4.5, t.board.title, bold, 9.5, INK))
        page.items.append(Text(bx + 22, by + 8, f"tile {idx + 1} of {n} · column {col_name(tile.col)} of "
                               f"{col_name(0)}–{col_name(ncols - 1)}, row {tile.row + 1} of 1–{nrows} · "
                               "print at 100 %", reg, 7, INK))
        steps = []
        if tile.col > 0 or tile.row > 0:
            steps.append("cut the dashed edge" + ("s" if tile.col > 0 and tile.row > 0 else ""))
        if seam_r is not None or seam_b is not None:
            steps.append("grey strips go under the next tile")
        if steps:
            page.items.append(Text(bx + 22, by + 11.2, "; ".join(steps) + "; match the crosshairs", reg, 7,
                                   "#444444"))
        mw = min(28.0, bw * 0.18)
        page.items += _minimap(t, tile, bx + bw - mw, by, mw, HEADER - 5.0)
        pages.append(page)
    return pages


def calibration_bar(x: float, y: float, font: str) -> list:
    """A 100 mm bar with 10 mm ticks; (x, y) is its left end, top of the bar."""
    out: list = [Rect(x, y, 100.0, 4.0, None, INK, 0.3)]
    for i in range(11):
        tick = 4.0 if i % 5 == 0 else 2.5
        out.append(Line(x + 10 * i, y, x + 10 * i, y + 4.0 + tick, INK, 0.3))
        if i % 2 == 0 and i < 10:
            out.append(Rect(x + 10 * i, y, 10.0, 4.0, INK, None, 0))
        out.append(Text(x + 10 * i, y + 4.0 + tick + 3.2, f"{10 * i}", font, 6.5, INK, "center"))
    return out


def paper_name(t: Tiling) -> str:
    """The paper the tiles are laid out for, as the assembly page names it."""
    if t.area == (COMMON_W, COMMON_H):
        return "A4 or Letter"
    size = sorted(t.area)
    return next((name for name, wh in PAPER_MM.items() if sorted(wh) == size),
                f"{size[0]:g} × {size[1]:g} mm paper")


def assembly_page(t: Tiling, fonts: dict[str, str]) -> Page:
    """The first page: what the tiles make, how they go together, and the 100 mm check."""
    reg, bold = fonts["regular"], fonts["bold"]
    pw, ph = (t.page_h, t.page_w) if t.landscape else (t.page_w, t.page_h)
    page = Page(pw, ph, label="assembly")
    aw, ah = t.area
    bx, by = (pw - (aw - 2 * MARGIN)) / 2, (ph - (ah - 2 * MARGIN)) / 2
    bw = aw - 2 * MARGIN
    b = t.board
    y = by + 7
    page.items.append(Text(bx, y, b.title, bold, 16, INK))
    y += 6.5
    page.items.append(Text(bx, y, f"Assembly: {len(t.cols)} × {len(t.rows)} = {t.sheets} sheet"
                           f"{'s' if t.sheets != 1 else ''} "
                           f"({'landscape' if t.landscape else 'portrait'}); finished size {b.w:.0f} × {b.h:.0f} mm",
                           reg, 9, INK))
    y += 9
    page.items.append(Text(bx, y, "PRINT AT 100 % (actual size) — never “fit to page”.", bold, 11, INK))
    y += 4
    page.items += calibration_bar(bx + 3, y, reg)
    page.items.append(Text(bx + 107, y + 3.5, "this bar must measure 100 mm", reg, 8, INK))
    y += 17
    # thumbnail with the tile grid
    tw, th = bw - 2.0, 120.0 * bw / (COMMON_W - 2 * MARGIN)
    k = min(tw / b.w, th / b.h)
    ox = bx + 1.0 + (tw - b.w * k) / 2
    items = b.thumbnail_items if b.thumbnail_items is not None else b.items
    page.items.append(Clip(ox, y, b.w * k, b.h * k, tuple(scale(items, k, ox, y))))
    page.items.append(Rect(ox, y, b.w * k, b.h * k, None, INK, 0.3))
    for tile in t.tiles:
        rx, ry = ox + tile.x0 * k, y + tile.y0 * k
        page.items.append(Rect(rx, ry, tile.w * k, tile.h * k, None, "#c0392b", 0.35))
        cx, cy = rx + tile.w * k / 2, ry + tile.h * k / 2
        page.items.append(Rect(cx - 6, cy - 4.2, 12, 6.4, "#ffffff", "#c0392b", 0.25, 1.0))
        page.items.append(Text(cx, cy + 0.9, tile.id, bold, 10, "#c0392b", "center"))
    y += b.h * k + 9
    paper = paper_name(t)
    steps = [
        f"1. Print every page at 100 % on {paper}; check the bar above with a ruler.",
        "2. Tiles are named column letter + row number: A1 is top left, B1 to its right, A2 below it.",
        "3. On every tile except column A, cut along the dashed left edge; except row 1, the dashed top edge.",
        f"4. Lay each tile over its left and upper neighbours' grey glue strips ({t.overlap:g} mm) so the",
        "   half crosshairs on both sheets join into whole ones; glue or tape it down.",
        "5. Trim the outer margins along the corner marks if you like.",
        *b.notes,
    ] if t.sheets > 1 else [
        f"1. Print the next page at 100 % on {paper}; check the bar above with a ruler.",
        "2. It is one sheet: nothing to join. Trim it along the corner marks.",
        *b.notes,
    ]
    for s in steps:
        page.items.append(Text(bx, y, s, reg, 8.5, INK))
        y += 4.6
    return page


def tile_document_pages(board: Board, page_w: float, page_h: float, fonts: dict[str, str],
                        overlap: float = OVERLAP) -> tuple[list[Page], Tiling]:
    """Assembly page and tile pages for one board (its text laid out clear of the seams)."""
    _, t = fit(board, page_w, page_h, overlap)
    return [assembly_page(t, fonts), *tile_pages(t, fonts)], t

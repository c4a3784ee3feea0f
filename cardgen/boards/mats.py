"""Play mats (``mats:`` files): rows of card slots and token rings, one mat per player.

A mat is rows of groups; a group is ``count`` slots of one card size (slot = card plus
``slot_margin`` on every side) under one label, or a row of rings where the game's tokens go
(``tokens: [ids]`` from the game's tokens file, drawn at the token's size), or a track of
numbered boxes a marker moves along (``track: {from: 0, to: …}``; ``to`` may be a number,
``{param: …}`` or ``{cards: FIELD, type: TYPE}``, the largest value of that field among the
game's cards). A track longer than :data:`TRACK_ROW` boxes is printed as two dials, tens and
units, each with its own marker. Counts may be ``{param: …}``, or ``{collection: KIND, most:
KEY}``: sized from the game's own files (a boss mat holds as many pieces as the largest preset
boss has). Card slots may wrap (``columns``: slots per line). Mats larger than a sheet are tiled
like every board; a seam never runs through a card slot (the slot moves past it).
"""

from __future__ import annotations

from cardgen.boards.matfile import Group, Mat
from cardgen.boards.tiling import NO_SEAMS, SLOT_PAD, Board, Seams
from cardgen.core.fonts import METRICS
from cardgen.core.record import record
from cardgen.scene import Circle, Rect, Text

LABEL_H = 14.0            # group label and its note above the slots
TRACK_BOX = 10.0          # a track box: room for a 9 mm marker or a die
TRACK_GAP = 3.0           # between the tracks of a group of several (one per Dinosaur …)
TRACK_ROW = 16            # longer tracks become two dials, tens and units
RING_GAP = 6.0
RING_LABEL = 6.0
PAD = 4.0
SLOT_RADIUS = 3.0         # a card slot's corners (what tells a slot from the other boxes)


def _track_rows(g: Group) -> list[tuple[str, list[int]]]:
    """The rows of boxes of a track: one row, or the tens and the units of a long one."""
    lo, hi = g.track or (0, 0)
    if hi - lo + 1 <= TRACK_ROW:
        return [("", list(range(lo, hi + 1)))]
    return [("×10", list(range(0, hi // 10 + 1))), ("×1", list(range(10)))]


def _ring_grid(g: Group) -> tuple[int, int, float]:
    tokens = g.tokens or []
    d = max((t.size for t in tokens), default=20.0) + 4
    cols = min(g.columns or len(tokens), len(tokens)) or 1
    rows = -(-len(tokens) // cols)
    return cols, rows, d


def _slot_grid(g: Group, m: Mat) -> tuple[int, int, float, float]:
    """Slots per line, lines, and one slot's size (card plus margin) of a group of card slots."""
    per = min(g.columns or g.count, g.count)
    return per, -(-g.count // per), g.size[0] + 2 * m.margin, g.size[1] + 2 * m.margin


def _track_lead(g: Group) -> float:
    """The column before a track's boxes: its number (one track of several) and ×10 / ×1."""
    caps = any(cap for cap, _ in _track_rows(g))
    return TRACK_BOX * ((1 if caps else 0) + (1 if g.count > 1 else 0))


def _group_size(g: Group, m: Mat) -> tuple[float, float]:
    if g.track is not None:
        track_rows = _track_rows(g)
        each = len(track_rows) * (TRACK_BOX + 2)
        return (max(_track_lead(g) + max(len(b) for _, b in track_rows) * TRACK_BOX, 40.0),
                LABEL_H + g.count * each + (g.count - 1) * TRACK_GAP)
    if g.tokens is not None:
        cols, rows, d = _ring_grid(g)
        cell_w = d + RING_GAP + 8
        return max(cols * cell_w - RING_GAP, 40.0), LABEL_H + rows * (d + RING_LABEL + 2)
    per, lines, sw, sh = _slot_grid(g, m)
    return per * sw + (per - 1) * m.gap, LABEL_H + lines * sh + (lines - 1) * m.gap


@record
class Placed:
    """A group where the mat draws it: its corner, and for card slots where each column and line
    of slots starts (moved off the seams of a tiling, so no cut runs through a slot)."""

    group: Group
    x: float
    y: float
    w: float
    h: float
    cols: list[float]
    lines: list[float]


def _off(seams: tuple[float, ...], a: float, length: float) -> float:
    """The start of a span of ``length`` at ``a`` or after, with no seam through it (nor within
    the tiling's slot pad of it)."""
    clear = SLOT_PAD + 0.5
    moved = True
    while moved:
        moved = False
        for s in seams:
            if a - clear < s < a + length + clear:
                a, moved = s + clear, True
    return a


def _fits(seams: tuple[float, ...], length: float) -> bool:
    """True when a span of ``length`` fits between every two neighbouring seams (so :func:`_off` ends)."""
    gaps = [b - a for a, b in zip(sorted(seams), sorted(seams)[1:])]
    return all(length + 2 * (SLOT_PAD + 0.5) < gp for gp in gaps)


def _place_row(row: list[Group], m: Mat, x: float, y: float, seams: Seams) -> list[Placed]:
    out = []
    for g in row:
        gw, gh = _group_size(g, m)
        if g.track is not None or g.tokens is not None:     # rings and tracks step past a seam like slots
            x = _off(seams.xs, x, gw) if _fits(seams.xs, gw) else x
            gy = _off(seams.ys, y, gh) if _fits(seams.ys, gh) else y         # with its label
            out.append(Placed(g, x, gy, gw, gh + gy - y, [], []))
            x += gw + 3 * m.gap
            continue
        per, lines, sw, sh = _slot_grid(g, m)
        cols, cx = [], x
        for _ in range(per):
            cx = _off(seams.xs, cx, sw)
            cols.append(cx)
            cx += sw + m.gap
        ys, ly = [], y + LABEL_H
        for _ in range(lines):
            ly = _off(seams.ys, ly, sh)
            ys.append(ly)
            ly += sh + m.gap
        w, h = cols[-1] + sw - x, ys[-1] + sh - y
        out.append(Placed(g, x, y, w, h, cols, ys))
        x += w + 3 * m.gap
    return out


def scene(m: Mat, copy: str, game, fonts: dict[str, str], seams: Seams | None = None) -> Board:
    """One mat as a drawing. With ``seams`` (where a tiling cuts it) every label slides within its
    slot or group off the cut lines, and card slots move past a cut line rather than straddle it;
    the board's ``relayout`` draws it again for other seams."""
    seams = seams or NO_SEAMS
    gap = m.gap
    widths = []
    for row in m.rows:
        sizes = [_group_size(g, m) for g in row]
        widths.append(sum(s[0] for s in sizes) + 3 * gap * (len(sizes) - 1))
    inner = max(widths, default=100)
    title = f"{game.title} — {m.name}" + (f" · {copy}" if copy else "")
    placed: list[Placed] = []
    y = 17.0
    for row, rw in zip(m.rows, widths):
        got = _place_row(row, m, PAD if seams.xs else PAD + (inner - rw) / 2, y, seams)
        placed += got
        y += max((p.h for p in got), default=0) + gap
    W = max([PAD + inner] + [p.x + p.w for p in placed]) + PAD
    H = y + PAD - gap
    items: list = [seams.nudge(Text(PAD, 11, title, fonts["bold"], 14, m.color), PAD, W - PAD)]
    for p in placed:
        items += _draw_group(p, m, fonts, seams)
    bg = [Rect(0, 0, W, H, m.fill, None, 0), Rect(1.5, 1.5, W - 3, H - 3, None, m.color, 0.6, 4.0)]
    board = Board(title, W, H, bg + items)
    board.avoid = [(r.x, r.y, r.x + r.w, r.y + r.h) for r in items if isinstance(r, Rect) and r.fill == "#ffffff"]
    board.slots = [(r.x, r.y, r.x + r.w, r.y + r.h) for r in items if isinstance(r, Rect) and r.radius == SLOT_RADIUS]
    # a token's ring and a track's row of boxes are kept whole too (no seam cuts a status ring)
    board.slots += [(c.cx - c.r, c.cy - c.r, c.cx + c.r, c.cy + c.r) for c in items
                    if isinstance(c, Circle) and c.fill == "#ffffff"]
    board.slots += _track_spans(placed)
    board.relayout = lambda s: scene(m, copy, game, fonts, s)
    return board


def _track_spans(placed: list[Placed]) -> list[tuple[float, float, float, float]]:
    """The box of every row of every track (its boxes, end to end)."""
    out = []
    for p in placed:
        g = p.group
        if g.track is None:
            continue
        rows = _track_rows(g)
        each = len(rows) * (TRACK_BOX + 2) + TRACK_GAP
        for t in range(g.count):
            for r, (_cap, boxes) in enumerate(rows):
                by = p.y + LABEL_H + t * each + r * (TRACK_BOX + 2)
                out.append((p.x + _track_lead(g), by, p.x + _track_lead(g) + len(boxes) * TRACK_BOX, by + TRACK_BOX))
    return out


def _draw_group(p: Placed, m: Mat, fonts, seams: Seams) -> list:
    g, x, y = p.group, p.x, p.y
    col = m.highlight if g.highlight else m.color
    gw = p.w
    out: list = [seams.nudge(Text(x, y + 5, g.label, fonts["bold"], 11, col), x, x + gw)]
    if g.note:
        out.append(seams.nudge(Text(x, y + 10, g.note, fonts["italic"], _fit(g.note, fonts["italic"], 7.5, gw),
                                    "#555555"), x, x + gw))
    y0 = y + LABEL_H
    if g.track is not None:
        rows = _track_rows(g)
        lead = _track_lead(g)
        each = len(rows) * (TRACK_BOX + 2) + TRACK_GAP
        for t in range(g.count):
            if g.count > 1:
                out.append(Text(x + TRACK_BOX / 2, y0 + t * each + TRACK_BOX / 2 + 1.8, str(t + 1), fonts["bold"], 11,
                                col, "center"))
            for r, (cap, boxes) in enumerate(rows):
                by = y0 + t * each + r * (TRACK_BOX + 2)
                if cap:
                    out.append(Text(x + lead - TRACK_BOX / 2, by + TRACK_BOX / 2 + 1.4, cap, fonts["bold"], 8, col,
                                    "center"))
                for k, n in enumerate(boxes):
                    bx = x + lead + k * TRACK_BOX
                    out.append(Rect(bx, by, TRACK_BOX, TRACK_BOX, "#ffffff", col, 0.8 if g.highlight else 0.4, 1.0))
                    out.append(Text(bx + TRACK_BOX / 2, by + TRACK_BOX / 2 + 1.4, str(n), fonts["bold"], 9,
                                    "#7a7a7a", "center"))
        return out
    if g.tokens is not None:
        cols, _rows, d = _ring_grid(g)
        cell_w = d + RING_GAP + 8
        for i, t in enumerate(g.tokens):
            r, c = divmod(i, cols)
            cx = x + c * cell_w + cell_w / 2 - RING_GAP / 2
            cy = y0 + r * (d + RING_LABEL + 2) + d / 2
            out.append(Circle(cx, cy, d / 2, "#ffffff", t.front.ink, 0.8))
            out.append(Circle(cx, cy, t.size / 2, None, "#cccccc", 0.2))
            out.append(seams.nudge(Text(cx, cy + d / 2 + 3.8, t.name, fonts["bold"],
                                        _fit(t.name, fonts["bold"], 7, cell_w - 2), col, "center"),
                                   cx - cell_w / 2, cx + cell_w / 2))
        return out
    per, _lines, sw, sh = _slot_grid(g, m)
    for k in range(g.count):
        line, c = divmod(k, per)
        sx, sy = p.cols[c], p.lines[line]
        out.append(Rect(sx, sy, sw, sh, "#ffffff", col, 1.0 if g.highlight else 0.5, SLOT_RADIUS))
        # the card's own outline inside the slot
        out.append(Rect(sx + m.margin, sy + m.margin, g.size[0], g.size[1], None, "#c8c8c8", 0.2, 2.0))
        label = g.label + (f" {k + 1}" if g.count > 1 and g.numbered else "")
        size = _fit(label, fonts["bold"], 10, sw - 8)
        out.append(seams.nudge(Text(sx + sw / 2, sy + sh / 2 + 1.5, label, fonts["bold"], size,
                                    "#9a9a9a" if not g.highlight else col, "center"), sx + 2, sx + sw - 2))
    return out


def _fit(text: str, font: str, size: float, width: float) -> float:
    while size > 5 and METRICS.width_mm(text, font, size) > width:
        size -= 0.25
    return size

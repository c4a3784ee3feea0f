"""Drawing a hex map true to scale: tiles with their patterns and labels, the legend, the board
tiled over sheets (see :mod:`cardgen.boards.maps`)."""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Any

from cardgen.boards import common
from cardgen.boards.mapmodel import INK, HexMap, Terrain
from cardgen.boards.tiling import NO_SEAMS, PT_MM, Board, Seams
from cardgen.core import hexgrid as hg
from cardgen.scene import Circle, Line, Polygon, Rect, Text

# --------------------------------------------------------------------------- drawing

TITLE_H = 16.0
PAD = 6.0
RULER = 6.0                # the band round the grid where the coordinates stand (off every hex)
RULER_PT = 8.0


def _edges(poly) -> tuple[float, list[tuple[float, float, float, float]]]:
    """The polygon's orientation (+1 counter-clockwise, -1 clockwise) and its edges
    (start x, start y, dx, dy): worked out once per polygon, not once per clipped segment."""
    n = len(poly)
    area = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    edges = []
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        edges.append((ax, ay, bx - ax, by - ay))
    return (1.0 if area > 0 else -1.0), edges


def _clip_line(p0, p1, shape: tuple[float, list[tuple[float, float, float, float]]]) -> tuple | None:
    """The part of segment p0–p1 inside the convex polygon whose :func:`_edges` are ``shape``."""
    t0, t1 = 0.0, 1.0
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    sgn, edges = shape
    for ax, ay, ex, ey in edges:
        # inside: sgn * cross(e, p - a) >= 0
        num = sgn * (ex * (p0[1] - ay) - ey * (p0[0] - ax))
        den = sgn * (ex * dy - ey * dx)
        if abs(den) < 1e-12:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return None
    return (p0[0] + t0 * dx, p0[1] + t0 * dy), (p0[0] + t1 * dx, p0[1] + t1 * dy)


def _inset(poly, cx, cy, d: float, flats: float):
    k = (flats / 2 - d) / (flats / 2)
    return [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in poly]


def pattern_items(kind: str, poly, cx: float, cy: float, flats: float, color: str) -> list:
    """The pattern's strokes inside the hexagon ``poly`` (already inset a little)."""
    out: list = []
    r = flats
    shape = _edges(poly)
    if kind in ("hatch", "crosshatch"):
        step = flats / 8
        dirs = [(1, -1)] if kind == "hatch" else [(1, -1), (1, 1)]
        for ux, uy in dirs:
            nx, ny = -uy / math.sqrt(2), ux / math.sqrt(2)
            k = -r
            while k <= r:
                ox, oy = cx + nx * k, cy + ny * k
                seg = _clip_line((ox - ux * r, oy - uy * r), (ox + ux * r, oy + uy * r), shape)
                if seg:
                    (x0, y0), (x1, y1) = seg
                    out.append(Line(x0, y0, x1, y1, color, 0.35))
                k += step
    elif kind == "dots":
        step = flats / 7
        n = int(r / step) + 1
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                x = cx + i * step + (step / 2 if j % 2 else 0)
                y = cy + j * step * 0.866
                if _inside(poly, x, y):
                    out.append(Circle(x, y, flats / 60, color, None, 0))
    elif kind == "waves":
        step = flats / 6
        k = -r
        while k <= r:
            y = cy + k
            pts = []
            x = cx - r
            while x <= cx + r:
                pts.append((x, y + math.sin((x - cx) / flats * 4 * math.pi) * flats / 40))
                x += flats / 20
            for a, b in zip(pts, pts[1:]):
                seg = _clip_line(a, b, shape)
                if seg:
                    out.append(Line(seg[0][0], seg[0][1], seg[1][0], seg[1][1], color, 0.3))
            k += step
    return out


def _inside(poly, x: float, y: float) -> bool:
    n = len(poly)
    sign = 0
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        c = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        s = 1 if c > 0 else -1 if c < 0 else 0
        if s and sign and s != sign:
            return False
        sign = sign or s
    return True



def ruler(m: HexMap) -> float:
    """The width of the coordinate band round the grid (none without labels)."""
    return RULER if m.labels else 0.0


def hex_layout(m: HexMap) -> tuple[hg.Layout, float, float]:
    """The layout placing the map's top-left hex corner inside the coordinate band at
    (PAD, TITLE_H), and the extent of the grid."""
    probe = hg.Layout(m.orientation, m.size)
    xs, ys = [], []
    for h in m.tiles:
        for x, y in hg.hex_corners(h, probe):
            xs.append(x)
            ys.append(y)
    ox, oy = PAD + ruler(m) - min(xs), TITLE_H + ruler(m) - min(ys)
    return hg.Layout(m.orientation, m.size, (ox, oy)), max(xs) - min(xs), max(ys) - min(ys)


def _tint(color: str, k: float = 0.55) -> str:
    """A colour mixed with white (a zone's pattern, lighter than its outline and letter)."""
    h = color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return "#" + "".join(f"{round(c + (255 - c) * k):02x}" for c in (r, g, b))


def draw_tile(m: HexMap, h: hg.Hex, lay: hg.Layout, fonts: dict[str, str]) -> list:
    t = m.terrain.terrain[m.tiles[h]]
    poly = hg.hex_corners(h, lay)
    cx, cy = hg.hex_to_pixel(h, lay)
    out: list = [Polygon(tuple(poly), t.fill, None, 0)]
    if t.pattern != "none":
        out += pattern_items(t.pattern, _inset(poly, cx, cy, 1.0, m.size), cx, cy, m.size, t.pattern_color)
    for zkey, cells in m.zones.items():
        if h in cells and t.passable:
            z = m.terrain.zones[zkey]
            if z.pattern != "none":
                out += pattern_items(z.pattern, _inset(poly, cx, cy, m.size * 0.09, m.size), cx, cy, m.size,
                                     _tint(z.color))
            out.append(Polygon(tuple(_inset(poly, cx, cy, m.size * 0.09, m.size)), None, z.color, 0.9))
            if z.letter:
                out.append(Text(cx, cy + m.size * 0.36, z.letter, fonts["bold"], m.size * 0.28, z.color, "center"))
    return out


def coordinates(m: HexMap, lay: hg.Layout, w: float, grid_bottom: float, fonts: dict[str, str],
                seams: Seams = NO_SEAMS) -> list:
    """The hexes' coordinates where no figure's base hides them: each column's number above the
    top row and below the bottom row, each row's number at both ends (a 25 mm base covers the
    whole of a 25 mm hex but its corners)."""
    if not m.labels or not m.offsets:
        return []
    cols = sorted({c for c, _ in m.offsets.values()})
    rows = sorted({r for _, r in m.offsets.values()})
    font, ink = fonts["bold"], "#555555"
    up = RULER_PT * PT_MM * 0.35                  # from a text's baseline to its middle
    top_y, bottom_y = TITLE_H + RULER / 2 + up, grid_bottom + RULER / 2 + up
    out: list = []
    for c in cols:
        for r, y in ((rows[0], top_y), (rows[-1], bottom_y)):
            x, _ = hg.hex_to_pixel(hg.from_offset(c, r, m.style), lay)
            out.append(seams.nudge(Text(x, y, str(c), font, RULER_PT, ink, "center"), x - m.size * 0.4,
                                   x + m.size * 0.4))
    for r in rows:
        _, y = hg.hex_to_pixel(hg.from_offset(cols[0], r, m.style), lay)
        _, y2 = hg.hex_to_pixel(hg.from_offset(cols[-1], r, m.style), lay)
        out.append(seams.nudge(Text(PAD + RULER / 2, y + up, str(r), font, RULER_PT, ink, "center"),
                               PAD - 2, PAD + RULER + 2))
        out.append(seams.nudge(Text(w - PAD - RULER / 2, y2 + up, str(r), font, RULER_PT, ink, "center"),
                               w - PAD - RULER - 2, w - PAD + 2))
    return out


LEGEND_SWATCH = 9.0
LEGEND_CELL = 84.0         # one legend entry: swatch, name and its note wrapped beside it
LEGEND_NOTE = 6.2          # pt


def legend_items(m: HexMap, x: float, y: float, width: float, fonts: dict[str, str],
                 seams: Seams = NO_SEAMS) -> tuple[list, float]:
    """Legend swatches of the terrain and zones the map uses, each with its name and its note
    wrapped beside it, flowing left to right and never across a seam; returns items and height."""
    used_t = [t for t in m.terrain.terrain.values() if t.key in set(m.tiles.values())]
    used_z = [z for k, z in m.terrain.zones.items() if m.zones.get(k)]
    entries: list[tuple[Any, str, str]] = [(t, t.name, t.note) for t in used_t]
    entries += [(z, z.name, f"start zone{' — marked ' + z.letter if z.letter else ''}") for z in used_z]
    sw, cell = LEGEND_SWATCH, min(LEGEND_CELL, width)
    lh = LEGEND_NOTE * PT_MM * 1.2
    out: list = [seams.nudge(Text(x, y + 4, "Legend", fonts["bold"], 9, INK), x, x + width)]
    row_y, row_h, cx0 = y + 7, 0.0, x
    for obj, name, note in entries:
        lines = common.wrap(note, fonts["regular"], LEGEND_NOTE, cell - sw - 4) if note else []
        h = max(sw, 3.0 + len(lines) * lh) + 2.5
        for _ in range(2):   # past a seam, or to a new row
            if cx0 + cell > x + width + 1e-6 and cx0 > x:
                cx0, row_y, row_h = x, row_y + row_h, 0.0
            crossing = [s for s in seams.xs if cx0 - seams.pad < s < cx0 + cell + seams.pad]
            if crossing:
                cx0 = max(crossing) + seams.pad
        row_h = max(row_h, h)
        cx, cy = cx0 + sw / 2, row_y + sw / 2
        lay = hg.Layout("pointy", sw, (cx, cy))
        poly = hg.hex_corners(hg.ORIGIN, lay)
        if isinstance(obj, Terrain):
            out.append(Polygon(tuple(poly), obj.fill, None, 0))
            if obj.pattern != "none":
                out += pattern_items(obj.pattern, _inset(poly, cx, cy, 0.4, sw), cx, cy, sw, obj.pattern_color)
            out.append(Polygon(tuple(poly), None, INK, 0.25))
        else:
            out.append(Polygon(tuple(poly), "#ffffff", INK, 0.25))
            out.append(Polygon(tuple(_inset(poly, cx, cy, 1.0, sw)), None, obj.color, 0.7))
            if obj.letter:
                out.append(Text(cx, cy + 1.3, obj.letter, fonts["bold"], 7, obj.color, "center"))
        tx = cx0 + sw + 2.5
        out.append(Text(tx, cy - 0.8, name, fonts["bold"], 8, INK))
        for i, ln in enumerate(lines):
            out.append(Text(tx, cy + 2.6 + i * lh, ln, fonts["regular"], LEGEND_NOTE, "#444444"))
        cx0 += cell + 4
    return out, row_y + row_h - y


def grid_items(m: HexMap, lay: hg.Layout, fonts: dict[str, str]) -> list:
    """The hexes: fills, patterns and zones, then the outlines on top (the same for any seams)."""
    items: list = []
    hexes = sorted(m.tiles, key=lambda h: (h.r, h.q))
    for h in hexes:
        items += draw_tile(m, h, lay, fonts)
    for h in hexes:
        items.append(Polygon(tuple(hg.hex_corners(h, lay)), None, INK, 0.35))
    return items


def scene(m: HexMap, fonts: dict[str, str], seams: Seams | None = None, grid: list | None = None) -> Board:
    """The whole map as one drawing: title, hexes true to scale, legend. With ``seams`` (where a
    tiling cuts it) the labels and the legend keep off the cut lines; the board's ``relayout``
    draws it again for other seams (reusing the hexes, ``grid``, which no seam moves)."""
    seams = seams or NO_SEAMS
    lay, mw, mh = hex_layout(m)
    band = ruler(m)
    width = max(mw + 2 * PAD + 2 * band, 190.0 if m.legend else 0)
    hexes_drawn = grid if grid is not None else grid_items(m, lay, fonts)
    items = list(hexes_drawn)
    head = [Text(PAD, 9, m.name, fonts["bold"], 15, INK),
            Text(PAD, 13.5, (m.description + " · " if m.description else "") +
                 f"hexes {m.size:g} mm across flats · {len(m.tiles)} tiles" +
                 (" · coordinates round the edges" if m.labels else ""), fonts["regular"],
                 7.5, "#444444")]
    grid_bottom = TITLE_H + band + mh
    items += coordinates(m, lay, width, grid_bottom, fonts, seams)
    y = grid_bottom + band + 4
    legend: list = []
    if m.legend:
        legend, lh = legend_items(m, PAD, y, width - 2 * PAD, fonts, seams)
        y += lh
    h_total = y + PAD
    frame = [Rect(0, 0, width, h_total, "#ffffff", None, 0)]
    board = Board(m.name, width, h_total, frame + head + items + legend)
    board.seam_cost = _seam_cost(m, lay)
    board.play = [(PAD + band, TITLE_H + band, PAD + band + mw, grid_bottom)]   # crosshairs keep off the hexes
    board.notes = [f"Check: a hex measures {m.size:g} mm across its flat sides."]
    board.relayout = lambda s: scene(m, fonts, s, hexes_drawn)
    return board


def _seam_cost(m: HexMap, lay: hg.Layout):
    """Cut between hex rows (in the zig-zag band) and a quarter hex from centres across them."""
    rows_y = sorted({round(hg.hex_to_pixel(h, lay)[1 if m.orientation == "pointy" else 0], 4) for h in m.tiles})
    cols_x = sorted({round(hg.hex_to_pixel(h, lay)[0 if m.orientation == "pointy" else 1], 4) for h in m.tiles})
    R = m.size / math.sqrt(3)
    along, across = ("y", "x") if m.orientation == "pointy" else ("x", "y")

    def nearest(vals, pos):
        i = bisect_left(vals, pos)
        return min((abs(vals[j] - pos) for j in (i - 1, i) if 0 <= j < len(vals)), default=1e9)

    def cost(axis: str, pos: float) -> float:
        if axis == along:
            d = nearest(rows_y, pos)
            return max(0.0, R / 2 + 0.5 - d) / R * 5
        d = nearest(cols_x, pos)
        return max(0.0, m.size / 4 - d) / m.size * 5
    return cost

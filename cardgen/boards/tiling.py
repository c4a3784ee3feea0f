"""Split a scene larger than a sheet of paper over printer pages, ready to tape together.

Every tile is laid out inside the area common to A4 and Letter (210 × 279.4 mm), centred on
the sheet, with at least :data:`MARGIN` of blank paper all round (what home printers cannot
print), so the same PDF prints on either paper. Neighbouring tiles share a glue strip
:data:`OVERLAP` wide: a tile to the right of (or below) another is cut along its left (top)
edge and laid over the neighbour's grey glue strip; registration crosshairs printed on both
tiles, centred on the cut line, join into whole crosshairs when the tiles are aligned.
Tiles are named like spreadsheet cells: column letter, row number (A1 top left).

Seams are chosen where they hurt least: a board passes a cost for cutting at each position
(hex maps prefer the gap between hex rows) and text is never cut when it can be avoided.
A board whose text can move (a legend, a table, a label inside its slot) also passes a
``relayout`` function: :func:`fit` tells it where the seams fall (:class:`Seams`), it lays its
text out clear of them, and the seams are planned again until they stay put.
An assembly page comes first: a thumbnail with the tiles, the steps, and a 100 mm
calibration bar to check the printer printed at 100 %.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..fonts import METRICS
from ..scene import Circle, Clip, Image, Line, Page, Polygon, Rect, Text, translate

COMMON_W, COMMON_H = 210.0, 279.4        # the area both A4 and Letter hold
MARGIN = 10.0                            # blank paper kept at every edge of that area
OVERLAP = 12.0                           # glue strip between neighbouring tiles
OVERLAP_RANGE = (10.0, 15.0)
HEADER = 16.0                            # tile ID, mini-map and instructions above the window
CUT_ROOM = 5.0                           # left of the window: cut marks and the cut-side crosshair halves
MAX_TILES = (6, 6)                       # the largest tiling supported: columns × rows of sheets
MIN_TILE = 40.0                          # no window narrower than this along an axis
STEP = 0.25                              # seam search step, mm
CROSS_RING = 3.0                         # a registration crosshair's ring radius
CROSS_REACH = 5.0                        # and how far its arms reach from its centre

GLUE_FILL = "#d4d4d4"
INK = "#000000"
PT_MM = 25.4 / 72.0

Cost = Callable[[str, float], float]


class TilingError(ValueError):
    """The board cannot be tiled within the supported limits (the message says why and how big)."""


@dataclass
class Board:
    """A drawing to print across pages: primitives in mm, top-left origin, ``w`` × ``h``."""

    title: str
    w: float
    h: float
    items: list
    seam_cost: Cost | None = None          # extra cost of a seam at (axis 'x' | 'y', position)
    notes: list[str] = field(default_factory=list)   # extra lines for the assembly page
    thumbnail_items: list | None = None    # what the assembly page shows (default: items)
    avoid: list[tuple[float, float, float, float]] = field(default_factory=list)  # boxes seams should miss
    relayout: Callable[[Seams], Board] | None = None   # the same board, its text laid out clear of the seams


@dataclass(frozen=True)
class Seams:
    """Where the cut lines of a tiling fall on a board (board mm): ``xs`` vertical, ``ys`` horizontal.

    A cut line through a word leaves half of it on each sheet; a board lays its text out with
    these in mind (:meth:`nudge` slides a label within its room, :meth:`gaps_x` gives the
    stretches a column of text may fill)."""

    xs: tuple[float, ...] = ()
    ys: tuple[float, ...] = ()
    pad: float = 1.5                       # clear paper between a seam and text

    def free_x(self, x0: float, x1: float) -> bool:
        """True when no vertical seam runs within ``pad`` of the span ``[x0, x1]``."""
        return not any(x0 - self.pad < s < x1 + self.pad for s in self.xs)

    def slide_x(self, x0: float, x1: float, lo: float, hi: float) -> float:
        """The smallest shift that moves ``[x0, x1]`` clear of the seams while staying inside
        ``[lo, hi]`` (0 when it is clear already or cannot be)."""
        if self.free_x(x0, x1):
            return 0.0
        shifts = sorted([s + self.pad - x0 for s in self.xs] + [s - self.pad - x1 for s in self.xs], key=abs)
        for dx in shifts:
            if lo - 1e-9 <= x0 + dx and x1 + dx <= hi + 1e-9 and self.free_x(x0 + dx + 1e-9, x1 + dx - 1e-9):
                return dx
        return 0.0

    def nudge(self, t: Text, lo: float, hi: float) -> Text:
        """Text ``t`` slid sideways, inside ``[lo, hi]``, off any vertical seam."""
        x0, _, x1, _ = text_box(t)
        dx = self.slide_x(x0, x1, lo, hi)
        return replace(t, x=t.x + dx) if dx else t

    def gaps_x(self, lo: float, hi: float) -> list[tuple[float, float]]:
        """The stretches of ``[lo, hi]`` between vertical seams (each kept ``pad`` away from them)."""
        out, a = [], lo
        for s in sorted(self.xs):
            if lo < s < hi:
                out.append((a, s - self.pad))
                a = s + self.pad
        out.append((a, hi))
        return [(a, b) for a, b in out if b > a]


NO_SEAMS = Seams()


@dataclass(frozen=True)
class Tile:
    col: int
    row: int
    x0: float          # window in board coordinates
    y0: float
    x1: float
    y1: float

    @property
    def id(self) -> str:
        return f"{col_name(self.col)}{self.row + 1}"

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0


@dataclass
class Tiling:
    board: Board
    landscape: bool
    page_w: float
    page_h: float
    cols: list[tuple[float, float]]       # windows along x
    rows: list[tuple[float, float]]       # windows along y
    overlap: float

    @property
    def tiles(self) -> list[Tile]:
        return [Tile(c, r, self.cols[c][0], self.rows[r][0], self.cols[c][1], self.rows[r][1])
                for r in range(len(self.rows)) for c in range(len(self.cols))]

    @property
    def sheets(self) -> int:
        return len(self.cols) * len(self.rows)

    def content_box(self) -> tuple[float, float, float, float]:
        """The printable box on the page (x, y, w, h): the common area less the margins."""
        cw, ch = (COMMON_H, COMMON_W) if self.landscape else (COMMON_W, COMMON_H)
        cw, ch = cw - 2 * MARGIN, ch - 2 * MARGIN
        return (self.page_w - cw) / 2, (self.page_h - ch) / 2, cw, ch


def col_name(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s


# --------------------------------------------------------------------------- geometry helpers


def text_box(t: Text) -> tuple[float, float, float, float]:
    """Approximate bounding box (x0, y0, x1, y1) of a text primitive."""
    w = METRICS.width_mm(t.text, t.font, t.size)
    x0 = t.x - (w / 2 if t.align == "center" else w if t.align == "right" else 0.0)
    return x0, t.y - t.size * PT_MM * 0.8, x0 + w, t.y + t.size * PT_MM * 0.25


def bbox(it) -> tuple[float, float, float, float] | None:
    """Bounding box of a primitive (None: unknown, always kept)."""
    t = type(it)
    if t is Rect or t is Image or t is Clip:
        pad = getattr(it, "width", 0.0) / 2 if t is Rect else 0.0
        return it.x - pad, it.y - pad, it.x + it.w + pad, it.y + it.h + pad
    if t is Line:
        p = it.width / 2
        return min(it.x1, it.x2) - p, min(it.y1, it.y2) - p, max(it.x1, it.x2) + p, max(it.y1, it.y2) + p
    if t is Circle:
        p = it.r + it.width / 2
        return it.cx - p, it.cy - p, it.cx + p, it.cy + p
    if t is Polygon:
        xs = [x for x, _ in it.points]
        ys = [y for _, y in it.points]
        p = it.width / 2
        return min(xs) - p, min(ys) - p, max(xs) + p, max(ys) + p
    if t is Text:
        return text_box(it)
    return None


def cull(items: list, x0: float, y0: float, x1: float, y1: float) -> list:
    """The primitives whose bounding box meets the rectangle."""
    out = []
    for it in items:
        b = bbox(it)
        if b is None or (b[2] >= x0 and b[0] <= x1 and b[3] >= y0 and b[1] <= y1):
            out.append(it)
    return out


def scale(items: list, k: float, dx: float = 0.0, dy: float = 0.0) -> list:
    """The primitives scaled by ``k`` about the origin, then moved by (dx, dy) (for thumbnails)."""
    out = []
    for it in items:
        t = type(it)
        if t is Rect:
            out.append(Rect(it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, it.fill, it.stroke, it.width * k,
                            it.radius * k))
        elif t is Line:
            out.append(Line(it.x1 * k + dx, it.y1 * k + dy, it.x2 * k + dx, it.y2 * k + dy, it.stroke,
                            it.width * k, tuple(d * k for d in it.dash)))
        elif t is Circle:
            out.append(Circle(it.cx * k + dx, it.cy * k + dy, it.r * k, it.fill, it.stroke, it.width * k))
        elif t is Polygon:
            out.append(Polygon(tuple((x * k + dx, y * k + dy) for x, y in it.points), it.fill, it.stroke,
                               it.width * k))
        elif t is Text:
            out.append(Text(it.x * k + dx, it.y * k + dy, it.text, it.font, it.size * k, it.color, it.align))
        elif t is Image:
            out.append(Image(it.path, it.x * k + dx, it.y * k + dy, it.w * k, it.h * k))
        elif t is Clip:
            out.append(Clip(it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, tuple(scale(list(it.items), k, dx, dy))))
        else:  # Use and Link: boards draw no symbols
            raise TypeError(f"cannot scale {t.__name__}")
    return out


# --------------------------------------------------------------------------- seams


def _text_cost(items: list) -> tuple[list, list]:
    """Intervals (lo, hi) along x and along y covered by text: a seam there cuts a word."""
    xs, ys = [], []
    for it in items:
        if type(it) is Text:
            x0, y0, x1, y1 = text_box(it)
            xs.append((x0 - 1.0, x1 + 1.0))
            ys.append((y0 - 1.0, y1 + 1.0))
    return xs, ys


def _interval_cost(intervals: list, pos: float) -> float:
    return float(sum(1 for lo, hi in intervals if lo < pos < hi))


def split_axis(total: float, window: float, overlap: float, cost: Callable[[float], float],
               prefer: tuple[float, ...] = ()) -> list[tuple[float, float]]:
    """Windows ``[(a, b), …]`` covering ``[0, total]``, each at most ``window`` long, neighbours
    overlapping by ``overlap``; as few as possible, as even as possible, seams at low cost
    (among equal costs, a position in ``prefer`` first: the seams a board was laid out for).

    Window ``k`` ends ``overlap`` after seam ``k`` (where window ``k + 1`` starts)."""
    if total <= window + 1e-9:
        return [(0.0, total)]
    adv = window - overlap
    n = max(2, math.ceil((total - overlap) / adv - 1e-9))
    while True:
        seams = _place_seams(total, window, overlap, n, cost, prefer)
        if seams is not None:
            bounds = [0.0, *seams]
            return [(bounds[k], (seams[k] + overlap) if k < len(seams) else total) for k in range(n)]
        n += 1


def _place_seams(total: float, window: float, overlap: float, n: int,
                 cost: Callable[[float], float], prefer: tuple[float, ...] = ()) -> list[float] | None:
    adv = window - overlap
    even = (total - overlap) / n
    seams: list[float] = []
    prev = 0.0
    for k in range(1, n):
        hi = prev + adv                                     # the window before the seam fits
        lo = max(total - overlap - (n - k) * adv, prev + MIN_TILE)   # the rest still fits
        if lo > hi + 1e-9:
            return None
        target = min(max(k * even, lo), hi)
        best, best_key = None, None
        steps = int((hi - lo) / STEP + 1e-9)
        for i in range(steps + 1):
            pos = lo + i * STEP
            kept = any(abs(pos - p) < STEP / 2 for p in prefer)
            key = (round(cost(pos), 6), not kept, abs(pos - target))
            if best_key is None or key < best_key:
                best, best_key = pos, key
        pos = round(best, 3)
        seams.append(pos)
        prev = pos
    if total - prev > window + 1e-9:
        return None
    return seams


def plan(board: Board, page_w: float, page_h: float, overlap: float = OVERLAP,
         orientation: str | None = None, prefer: Seams = NO_SEAMS) -> Tiling:
    """Choose the orientation and the seams; raises :class:`TilingError` when the board is too big."""
    if not OVERLAP_RANGE[0] <= overlap <= OVERLAP_RANGE[1]:
        raise TilingError(f"glue overlap must be {OVERLAP_RANGE[0]:g}–{OVERLAP_RANGE[1]:g} mm, not {overlap:g}")
    tx, ty = _text_cost(board.items)
    ax = [(x0, x1) for x0, _y0, x1, _y1 in board.avoid]
    ay = [(y0, y1) for _x0, y0, _x1, y1 in board.avoid]

    def cost(axis: str) -> Callable[[float], float]:
        spans = tx if axis == "x" else ty
        boxes = ax if axis == "x" else ay
        extra = board.seam_cost

        def f(pos: float) -> float:
            c = 10.0 * _interval_cost(spans, pos) + 3.0 * _interval_cost(boxes, pos)
            if extra is not None:
                c += extra(axis, pos)
            return c
        return f

    options = []
    for landscape in (False, True):
        if orientation and (orientation == "landscape") != landscape:
            continue
        cw, ch = (COMMON_H, COMMON_W) if landscape else (COMMON_W, COMMON_H)
        win_w, win_h = cw - 2 * MARGIN - CUT_ROOM, ch - 2 * MARGIN - HEADER
        cols = split_axis(board.w, win_w, overlap, cost("x"), prefer.xs)
        rows = split_axis(board.h, win_h, overlap, cost("y"), prefer.ys)
        pw, ph = (page_h, page_w) if landscape else (page_w, page_h)
        options.append(Tiling(board, landscape, pw, ph, cols, rows, overlap))
    best = min(options, key=lambda t: (t.sheets, t.landscape))
    mc, mr = MAX_TILES
    if len(best.cols) > mc or len(best.rows) > mr:
        win_w, win_h = COMMON_W - 2 * MARGIN - CUT_ROOM, COMMON_H - 2 * MARGIN - HEADER
        max_w = mc * (win_w - overlap) + overlap
        max_h = mr * (win_h - overlap) + overlap
        raise TilingError(
            f"'{board.title}' is {board.w:.0f} × {board.h:.0f} mm and needs {len(best.cols)} × {len(best.rows)} "
            f"sheets; the largest tiling supported is {mc} × {mr} sheets (about {max_w:.0f} × {max_h:.0f} mm "
            "portrait, or the same turned): make it smaller")
    return best


def seams_of(t: Tiling) -> Seams:
    """The cut lines of a tiling: where each tile after the first in its row / column starts."""
    return Seams(tuple(a for a, _ in t.cols[1:]), tuple(a for a, _ in t.rows[1:]))


def fit(board: Board, page_w: float, page_h: float, overlap: float = OVERLAP) -> tuple[Board, Tiling]:
    """Plan the tiling and let the board lay its text out clear of the seams (``board.relayout``),
    again until the seams stay where the text was laid out for; the board and its tiling."""
    t = plan(board, page_w, page_h, overlap)
    tried: set[Seams] = set()
    while board.relayout is not None:
        s = seams_of(t)
        if s in tried:
            break
        tried.add(s)
        board = board.relayout(s)
        t = plan(board, page_w, page_h, overlap, prefer=s)
        if seams_of(t) == s:
            break
    return board, t


# --------------------------------------------------------------------------- drawing


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
                    hi: float) -> list[float]:
    """Where along a seam (``axis`` 'x': the vertical cut line x = ``seam``; 'y': the horizontal
    one) its two crosshairs go, between ``lo`` and ``hi``: near a quarter and three quarters of
    the way, moved (by up to a fifth of the way) to a place where they cover no text: first of
    all the ring, then the arms."""

    def covered(p: float, r: float) -> int:
        x0, y0, x1, y1 = (seam - r, p - r, seam + r, p + r) if axis == "x" else (p - r, seam - r, p + r, seam + r)
        return sum(1 for a, b, c, d in texts if a < x1 and x0 < c and b < y1 and y0 < d)

    span = hi - lo
    out = []
    for f in (0.25, 0.75):
        target = lo + span * f
        reach = int(span * 0.2)
        cands = [target + d for d in range(-reach, reach + 1) if lo + 8 <= target + d <= hi - 8] or [target]
        out.append(min(cands, key=lambda p: (covered(p, CROSS_RING + 1.0), covered(p, CROSS_REACH + 0.5),
                                             abs(p - target))))
    return out


def tile_pages(t: Tiling, fonts: dict[str, str]) -> list[Page]:
    """One page per tile, left to right, top to bottom."""
    reg, bold = fonts["regular"], fonts["bold"]
    bx, by, bw, bh = t.content_box()
    wx, wy = bx + CUT_ROOM, by + HEADER
    ncols, nrows = len(t.cols), len(t.rows)
    pages = []
    n = t.sheets
    texts = [text_box(it) for it in t.board.items if type(it) is Text]
    for idx, tile in enumerate(t.tiles):
        page = Page(t.page_w, t.page_h, label=f"tile {tile.id}")
        dx, dy = wx - tile.x0, wy - tile.y0
        content = cull(t.board.items, tile.x0, tile.y0, tile.x1, tile.y1)
        over: list = []
        right = tile.col < ncols - 1
        below = tile.row < nrows - 1
        seam_r = t.cols[tile.col + 1][0] if right else None
        seam_b = t.rows[tile.row + 1][0] if below else None
        # glue strips: the part of this tile the neighbour to the right / below covers
        if right:
            over += _glue_label(seam_r, tile.y0, tile.x1 - seam_r, tile.h, True,
                                f"{col_name(tile.col + 1)}{tile.row + 1}", bold)
        if below:
            over += _glue_label(tile.x0, seam_b, tile.w, tile.y1 - seam_b, False,
                                f"{col_name(tile.col)}{tile.row + 2}", bold)
        # registration crosshairs on every seam this tile touches, centred on the cut line; the
        # same places along a seam on both its tiles (they depend on the seam and the row or column only)
        ys = crosshair_spots(texts, "x", tile.x0, tile.y0, tile.y1) if tile.col > 0 else []
        ys_r = crosshair_spots(texts, "x", seam_r, tile.y0, tile.y1) if right else []
        xs = crosshair_spots(texts, "y", tile.y0, tile.x0, tile.x1) if tile.row > 0 else []
        xs_b = crosshair_spots(texts, "y", seam_b, tile.x0, tile.x1) if below else []
        if tile.col > 0:
            for y in ys:
                over += crosshair(tile.x0, y)
        if right:
            for y in ys_r:
                over += crosshair(seam_r, y)
        if tile.row > 0:
            for x in xs:
                over += crosshair(x, tile.y0)
        if below:
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
        if right or below:
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


def assembly_page(t: Tiling, fonts: dict[str, str]) -> Page:
    """The first page: what the tiles make, how they go together, and the 100 mm check."""
    reg, bold = fonts["regular"], fonts["bold"]
    pw, ph = (t.page_h, t.page_w) if t.landscape else (t.page_w, t.page_h)
    page = Page(pw, ph, label="assembly")
    bx, by = (pw - (COMMON_W - 2 * MARGIN)) / 2, (ph - (COMMON_H - 2 * MARGIN)) / 2
    bw = COMMON_W - 2 * MARGIN
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
    tw, th = bw - 2.0, 120.0
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
    steps = [
        "1. Print every page at 100 % on A4 or Letter; check the bar above with a ruler.",
        "2. Tiles are named column letter + row number: A1 is top left, B1 to its right, A2 below it.",
        "3. On every tile except column A, cut along the dashed left edge; except row 1, the dashed top edge.",
        f"4. Lay each tile over its left and upper neighbours' grey glue strips ({t.overlap:g} mm) so the",
        "   half crosshairs on both sheets join into whole ones; glue or tape it down.",
        "5. Trim the outer margins along the corner marks if you like.",
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

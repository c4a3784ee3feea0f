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

from cardgen.core.fonts import METRICS
from cardgen.scene import Circle, Clip, Image, Line, Polygon, Rect, Text

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

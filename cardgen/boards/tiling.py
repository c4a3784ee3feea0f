"""Split a scene larger than a sheet of paper over printer pages, ready to tape together.

Every tile is laid out inside the area common to A4 and Letter (210 × 279.4 mm), centred on
the sheet, with at least :data:`MARGIN` of blank paper all round (what home printers cannot
print), so the same PDF prints on either paper; on larger paper (A3) the whole sheet less the
margins holds a tile (:func:`printable_area`), so a board takes far fewer sheets. Neighbouring tiles share a glue strip
:data:`OVERLAP` wide: a tile to the right of (or below) another is cut along its left (top)
edge and laid over the neighbour's grey glue strip; registration crosshairs printed on both
tiles, centred on the cut line, join into whole crosshairs when the tiles are aligned.
Tiles are named like spreadsheet cells: column letter, row number (A1 top left).

Seams are chosen where they hurt least: a board passes a cost for cutting at each position
(hex maps prefer the gap between hex rows) and text is never cut when it can be avoided.
A seam never runs through a card slot (``Board.slots``): the tiling takes another sheet
rather than cut one (:data:`SLOT_PAD` of clear paper either side of the cut).
A board whose text can move (a legend, a table, a label inside its slot) also passes a
``relayout`` function: :func:`fit` tells it where the seams fall (:class:`Seams`), it lays its
text out clear of them, and the seams are planned again until they stay put.
An assembly page comes first: a thumbnail with the tiles, the steps, and a 100 mm
calibration bar to check the printer printed at 100 %.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import field, replace

from cardgen.boards.geometry import PT_MM, bbox, cull, rotated_box, scale, text_box  # noqa: F401 - also read from here
from cardgen.core.record import record
from cardgen.scene import Rotate, Text

COMMON_W, COMMON_H = 210.0, 279.4        # the area both A4 and Letter hold
PAPER_A4_LETTER = (215.9, 297.0)         # the larger of A4 and Letter along each side
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
RELAYOUTS = 8                            # at most this many layouts for new seams (slots moving may not settle)
SLOT_PAD = 1.0                           # clear paper between a seam and a card slot

GLUE_FILL = "#d4d4d4"
INK = "#000000"

Cost = Callable[[str, float], float]


class TilingError(ValueError):
    """The board cannot be tiled within the supported limits (the message says why and how big)."""


@record
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
    slots: list[tuple[float, float, float, float]] = field(default_factory=list)  # card slots: never cut
    play: list[tuple[float, float, float, float]] = field(default_factory=list)   # the play area: crosshairs
    # keep off it where the seam leaves room (title bands, legends, margins)


@record(frozen=True)
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


@record(frozen=True)
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


def printable_area(page_w: float, page_h: float) -> tuple[float, float]:
    """The area (portrait, before margins) a tile is laid out in on this paper: the area common
    to A4 and Letter on either of them (or anything smaller), the whole sheet on larger paper."""
    w, h = sorted((page_w, page_h))
    if w <= PAPER_A4_LETTER[0] + 1e-6 and h <= PAPER_A4_LETTER[1] + 1e-6:
        return min(w, COMMON_W), min(h, COMMON_H)
    return w, h


@record
class Tiling:
    board: Board
    landscape: bool
    page_w: float
    page_h: float
    cols: list[tuple[float, float]]       # windows along x
    rows: list[tuple[float, float]]       # windows along y
    overlap: float
    area: tuple[float, float] = (COMMON_W, COMMON_H)   # see printable_area (portrait)

    @property
    def tiles(self) -> list[Tile]:
        return [Tile(c, r, self.cols[c][0], self.rows[r][0], self.cols[c][1], self.rows[r][1])
                for r in range(len(self.rows)) for c in range(len(self.cols))]

    @property
    def sheets(self) -> int:
        return len(self.cols) * len(self.rows)

    def content_box(self) -> tuple[float, float, float, float]:
        """The printable box on the page (x, y, w, h): the common area less the margins."""
        aw, ah = self.area
        cw, ch = (ah, aw) if self.landscape else (aw, ah)
        cw, ch = cw - 2 * MARGIN, ch - 2 * MARGIN
        return (self.page_w - cw) / 2, (self.page_h - ch) / 2, cw, ch


def col_name(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s


# --------------------------------------------------------------------------- seams


def _text_cost(items: list) -> tuple[list, list]:
    """Intervals (lo, hi) along x and along y covered by text: a seam there cuts a word."""
    xs, ys = [], []
    for it in items:
        if type(it) is Text or (type(it) is Rotate and any(type(c) is Text for c in it.items)):
            b = text_box(it) if isinstance(it, Text) else rotated_box(it)
            if b is None:
                continue
            x0, y0, x1, y1 = b
            xs.append((x0 - 1.0, x1 + 1.0))
            ys.append((y0 - 1.0, y1 + 1.0))
    return xs, ys


class _Spans:
    """How many of some open intervals (lo, hi) hold a position, in log time: every interval
    with lo < pos, less those that already ended (hi <= pos); empty intervals never count."""

    def __init__(self, intervals: list[tuple[float, float]]):
        kept = [(lo, hi) for lo, hi in intervals if lo < hi]
        self.los = sorted(lo for lo, _ in kept)
        self.his = sorted(hi for _, hi in kept)

    def count(self, pos: float) -> int:
        return bisect_left(self.los, pos) - bisect_right(self.his, pos)


def split_axis(total: float, window: float, overlap: float, cost: Callable[[float], float],
               prefer: tuple[float, ...] = (), forbidden: tuple[tuple[float, float], ...] = ()
               ) -> list[tuple[float, float]]:
    """Windows ``[(a, b), …]`` covering ``[0, total]``, each at most ``window`` long, neighbours
    overlapping by ``overlap``; as few as possible, as even as possible, seams at low cost
    (among equal costs, a position in ``prefer`` first: the seams a board was laid out for) and
    never strictly inside a ``forbidden`` span (a card slot): one more window rather than that.

    Window ``k`` ends ``overlap`` after seam ``k`` (where window ``k + 1`` starts)."""
    if total <= window + 1e-9:
        return [(0.0, total)]
    adv = window - overlap
    n = max(2, math.ceil((total - overlap) / adv - 1e-9))
    most = max(n, math.ceil(total / MIN_TILE) + 1)
    banned = forbidden
    while True:
        seams = _place_seams(total, window, overlap, n, cost, prefer, banned)
        if seams is not None:
            bounds = [0.0, *seams]
            return [(bounds[k], (seams[k] + overlap) if k < len(seams) else total) for k in range(n)]
        n += 1
        if n > most and banned:          # no tiling misses every slot (one wider than a sheet):
            n, banned = max(2, math.ceil((total - overlap) / adv - 1e-9)), ()   # cut where it costs least


def _place_seams(total: float, window: float, overlap: float, n: int,
                 cost: Callable[[float], float], prefer: tuple[float, ...] = (),
                 forbidden: tuple[tuple[float, float], ...] = ()) -> list[float] | None:
    """Seams for ``n`` windows, left to right; None when there is none that fits (a gap between
    slots, or the rest of the board, out of reach)."""
    adv = window - overlap
    even = (total - overlap) / n
    banned = _Spans(list(forbidden))
    seams: list[float] = []
    prev = 0.0
    for k in range(1, n):
        hi = prev + adv                                     # the window before the seam fits
        lo = max(total - overlap - (n - k) * adv, prev + MIN_TILE)   # the rest still fits
        if lo > hi + 1e-9:
            return None
        target = min(max(k * even, lo), hi)
        best: float | None = None        # None: every position in reach is forbidden
        best_key: tuple | None = None
        steps = int((hi - lo) / STEP + 1e-9)
        for i in range(steps + 1):
            pos = lo + i * STEP
            if banned.count(pos):
                continue
            kept = any(abs(pos - p) < STEP / 2 for p in prefer)
            key = (round(cost(pos), 6), not kept, abs(pos - target))
            if best_key is None or key < best_key:
                best, best_key = pos, key
        if best is None:
            return None
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
    sx = tuple((x0 - SLOT_PAD, x1 + SLOT_PAD) for x0, _y0, x1, _y1 in board.slots)
    sy = tuple((y0 - SLOT_PAD, y1 + SLOT_PAD) for _x0, y0, _x1, y1 in board.slots)
    area = printable_area(page_w, page_h)

    def cost(axis: str) -> Callable[[float], float]:
        spans = _Spans(tx if axis == "x" else ty)
        boxes = _Spans(ax if axis == "x" else ay)
        extra = board.seam_cost

        def f(pos: float) -> float:
            c = 10.0 * spans.count(pos) + 3.0 * boxes.count(pos)
            if extra is not None:
                c += extra(axis, pos)
            return c
        return f

    options = []
    for landscape in (False, True):
        if orientation and (orientation == "landscape") != landscape:
            continue
        cw, ch = (area[1], area[0]) if landscape else area
        win_w, win_h = cw - 2 * MARGIN - CUT_ROOM, ch - 2 * MARGIN - HEADER
        cols = split_axis(board.w, win_w, overlap, cost("x"), prefer.xs, sx)
        rows = split_axis(board.h, win_h, overlap, cost("y"), prefer.ys, sy)
        pw, ph = (page_h, page_w) if landscape else (page_w, page_h)
        options.append(Tiling(board, landscape, pw, ph, cols, rows, overlap, area))
    best = min(options, key=lambda t: (t.sheets, t.landscape))
    mc, mr = MAX_TILES
    if len(best.cols) > mc or len(best.rows) > mr:
        win_w, win_h = area[0] - 2 * MARGIN - CUT_ROOM, area[1] - 2 * MARGIN - HEADER
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


def crossed_slots(board: Board, t: Tiling) -> list[tuple[float, tuple[float, float, float, float]]]:
    """The card slots a seam of the tiling runs through: (seam position, slot box) pairs."""
    s = seams_of(t)
    return ([(x, b) for x in s.xs for b in board.slots if b[0] < x < b[2]] +
            [(y, b) for y in s.ys for b in board.slots if b[1] < y < b[3]])


def fit(board: Board, page_w: float, page_h: float, overlap: float = OVERLAP) -> tuple[Board, Tiling]:
    """Plan the tiling and let the board lay its text out clear of the seams (``board.relayout``),
    again until the seams stay where the text was laid out for; the board and its tiling.

    A board with card slots it can move is also laid out for seams packed as far apart as the
    sheets allow, in either orientation (its slots step past them): of the layouts whose seams
    cut no slot, the one on the fewest sheets wins."""
    first = board
    t = plan(board, page_w, page_h, overlap)
    tried: set[Seams] = set()
    while board.relayout is not None:
        s = seams_of(t)
        if s in tried or len(tried) >= RELAYOUTS:
            break
        tried.add(s)
        moved = board.relayout(s)
        try:
            t2 = plan(moved, page_w, page_h, overlap, prefer=s)
        except TilingError:              # slots stepping past the seams made it too big: keep the last
            break
        board, t = moved, t2
        if seams_of(t) == s:
            break
    if first.relayout is None or not first.slots:
        return board, t
    best: tuple[Board, Tiling] | None = None if crossed_slots(board, t) or _cut_words(board, t) else (board, t)
    for orientation in ("portrait", "landscape"):
        got = _packed(first, page_w, page_h, overlap, orientation)
        if got is not None and (best is None or got[1].sheets < best[1].sheets):
            best = got
    return best or (board, t)


def _packed(board: Board, page_w: float, page_h: float, overlap: float,
            orientation: str) -> tuple[Board, Tiling] | None:
    """The board laid out for seams at every full sheet's advance (less 1 mm of slack), and its
    tiling when that tiling keeps those seams and cuts no slot."""
    assert board.relayout is not None
    aw, ah = printable_area(page_w, page_h)
    cw, ch = (ah, aw) if orientation == "landscape" else (aw, ah)
    adv_x, adv_y = cw - 2 * MARGIN - CUT_ROOM - overlap - 1.0, ch - 2 * MARGIN - HEADER - overlap - 1.0
    reach = 3 * max(board.w, board.h)
    s = Seams(tuple(adv_x * k for k in range(1, int(reach / adv_x) + 1)),
              tuple(adv_y * k for k in range(1, int(reach / adv_y) + 1)))
    b = board.relayout(s)
    try:
        t = plan(b, page_w, page_h, overlap, orientation, prefer=s)
    except TilingError:
        return None
    return None if crossed_slots(b, t) or _cut_words(b, t) else (b, t)


def _cut_words(board: Board, t: Tiling) -> bool:
    """True when a seam of the tiling runs through a word of the board."""
    s = seams_of(t)
    for it in board.items:
        if type(it) is Text:
            x0, y0, x1, y1 = text_box(it)
            if any(x0 < x < x1 for x in s.xs) or any(y0 < y < y1 for y in s.ys):
                return True
    return False

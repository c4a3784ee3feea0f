"""Hex-grid geometry: coordinates, layouts, footprints, movement and line of sight.

Pure standard-library Python; nothing here knows about any particular game.

Coordinates
    A hex is ``Hex(q, r)`` in *axial* coordinates; the third cube coordinate is
    ``s = -q - r``.  The six neighbours are listed in the fixed order of
    :data:`DIRECTIONS`; direction ``i + 1`` is direction ``i`` turned by one
    60° step (see :func:`rotate`).

Layouts
    A :class:`Layout` maps hexes to a plane (millimetres, points, pixels — any
    unit).  Its ``size`` is the distance **across flats** (between two
    opposite edges, e.g. 25 mm), which is what one measures on a printed tile.
    The circumradius (centre to corner, equal to the edge length) is
    ``R = flats / √3``; the distance across corners is ``2R``.

Line of sight
    Rule: there is line of sight when some straight segment from a corner of
    the attacker's hex to a corner of the target's hex passes through the
    interior of no obstacle hex; running along an obstacle's edge or through
    its corner is allowed.  :func:`line_of_sight` decides this exactly, in
    integer *lattice* coordinates (axial coordinates times 3) where every hex
    centre and corner is an integer point (see :func:`lattice_center` and
    :func:`lattice_corners`).  The map from lattice to page is affine, so lines,
    crossings and convexity are the same on the page.  No line drawing or
    rounding is involved, and the answer is symmetric.  Consequences of the
    rule: one obstacle hex alone never blocks, and a line may pass between two
    adjacent obstacles exactly along their common edge.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "Hex",
    "ORIGIN",
    "DIRECTIONS",
    "to_cube",
    "from_cube",
    "direction",
    "neighbor",
    "neighbors",
    "are_adjacent",
    "distance",
    "ring",
    "spiral",
    "hex_range",
    "rotate",
    "reflect",
    "cube_round",
    "Orientation",
    "Layout",
    "hex_to_pixel",
    "pixel_to_hex",
    "hex_corners",
    "OffsetStyle",
    "OFFSET_STYLES",
    "to_offset",
    "from_offset",
    "Footprint",
    "HexTest",
    "footprint",
    "reanchor",
    "place",
    "is_connected",
    "fits",
    "move_costs",
    "reachable",
    "reachable_placements",
    "path_is_legal",
    "LatticePoint",
    "lattice_center",
    "lattice_corners",
    "segment_enters_hex",
    "line_of_sight",
]


# --------------------------------------------------------------------------- coordinates


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in axial coordinates ``(q, r)``; ``s = -q - r`` is the third cube coordinate."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __mul__(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    __rmul__ = __mul__

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def scale(self, k: int) -> Hex:
        """This hex vector multiplied by the integer ``k``."""
        return self * k


ORIGIN = Hex(0, 0)

#: The six unit steps, in a fixed order; ``DIRECTIONS[(i + 1) % 6] == rotate(DIRECTIONS[i], 1)``.
#: With a y-down pointy-top layout these are E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def to_cube(h: Hex) -> tuple[int, int, int]:
    """Cube coordinates ``(q, r, s)`` of ``h`` (they sum to zero)."""
    return h.q, h.r, -h.q - h.r


def from_cube(q: int, r: int, s: int) -> Hex:
    """The hex at cube coordinates ``(q, r, s)``; raises ``ValueError`` unless ``q + r + s == 0``."""
    if q + r + s != 0:
        raise ValueError(f"cube coordinates must sum to 0, got ({q}, {r}, {s})")
    return Hex(q, r)


def direction(i: int) -> Hex:
    """Unit step number ``i`` (taken modulo 6) of :data:`DIRECTIONS`."""
    return DIRECTIONS[i % 6]


def neighbor(h: Hex, i: int) -> Hex:
    """The neighbour of ``h`` in direction ``i`` (modulo 6)."""
    d = DIRECTIONS[i % 6]
    return Hex(h.q + d.q, h.r + d.r)


def neighbors(h: Hex) -> list[Hex]:
    """The six neighbours of ``h``, in :data:`DIRECTIONS` order."""
    return [Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Number of single steps from ``a`` to ``b`` on an empty grid."""
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def are_adjacent(a: Hex, b: Hex) -> bool:
    """True when ``a`` and ``b`` share an edge."""
    return distance(a, b) == 1


def ring(center: Hex, radius: int) -> list[Hex]:
    """The ``6 * radius`` hexes at exactly ``radius`` from ``center`` (``[center]`` for radius 0)."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = center + DIRECTIONS[4] * radius
    for i in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, i)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """All ``3r(r+1) + 1`` hexes within ``radius`` of ``center``: the centre, then ring 1, ring 2, …"""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


def hex_range(center: Hex, radius: int) -> set[Hex]:
    """The set of hexes within ``radius`` of ``center`` (the hexes of :func:`spiral`)."""
    return set(spiral(center, radius))


def rotate(h: Hex, steps: int, center: Hex = ORIGIN) -> Hex:
    """``h`` turned about ``center`` by ``steps`` 60° steps (any integer; 6 steps is the identity).

    One positive step takes :data:`DIRECTIONS` ``[i]`` to ``DIRECTIONS[i + 1]`` — counter-clockwise
    as seen on a y-down screen, clockwise when the layout has ``y_up=True``.
    """
    q, r = h.q - center.q, h.r - center.r
    s = -q - r
    for _ in range(steps % 6):
        q, r, s = -s, -q, -r
    return Hex(center.q + q, center.r + r)


def reflect(h: Hex, center: Hex = ORIGIN) -> Hex:
    """Mirror image of ``h`` in the line through ``center`` along :data:`DIRECTIONS` ``[0]``.

    ``(q, r)`` relative to ``center`` becomes ``(q + r, -r)``: a top-bottom flip on a pointy-top
    layout.  Combined with :func:`rotate` this gives all 12 symmetries of the grid.
    """
    q, r = h.q - center.q, h.r - center.r
    return Hex(center.q + q + r, center.r - r)


def cube_round(fq: float, fr: float) -> Hex:
    """The hex containing the fractional axial point ``(fq, fr)``; ``ValueError`` unless both are finite."""
    if not (math.isfinite(fq) and math.isfinite(fr)):
        raise ValueError(f"a point must have finite coordinates, got ({fq!r}, {fr!r})")
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


# --------------------------------------------------------------------------- layouts

Orientation = Literal["flat", "pointy"]
_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Layout:
    """How hexes sit on the page.

    ``orientation``: ``"flat"`` (flat top and bottom edges, columns of hexes) or ``"pointy"``
    (a corner at the top, rows of hexes).  ``size``: distance across flats, in any unit
    (e.g. 25 for 25 mm tiles); circumradius ``R = size / √3``.  ``origin``: where the
    centre of ``Hex(0, 0)`` goes.  ``y_up``: set when the y axis points up (PDF), so that
    ``+r`` still runs down the page.
    """

    orientation: Orientation
    size: float
    origin: tuple[float, float] = (0.0, 0.0)
    y_up: bool = False

    def __post_init__(self) -> None:
        if self.orientation not in ("flat", "pointy"):
            raise ValueError(f"orientation must be 'flat' or 'pointy', got {self.orientation!r}")
        if not (self.size > 0 and math.isfinite(self.size)):
            raise ValueError(f"size (across flats) must be a finite number > 0, got {self.size!r}")
        if not all(math.isfinite(v) for v in self.origin):
            raise ValueError(f"origin must be a finite point, got {self.origin!r}")

    @property
    def circumradius(self) -> float:
        """Centre-to-corner distance (= edge length) ``R = size / √3``."""
        return self.size / _SQRT3

    @property
    def across_corners(self) -> float:
        """Corner-to-opposite-corner distance ``2R``."""
        return 2.0 * self.size / _SQRT3


def _axial_to_xy(fq: float, fr: float, layout: Layout) -> tuple[float, float]:
    """Page position of the fractional axial point ``(fq, fr)``."""
    f = layout.size
    if layout.orientation == "pointy":
        x, y = f * (fq + fr / 2.0), f * (_SQRT3 / 2.0) * fr
    else:
        x, y = f * (_SQRT3 / 2.0) * fq, f * (fq / 2.0 + fr)
    ox, oy = layout.origin
    return ox + x, (oy - y) if layout.y_up else (oy + y)


def _xy_to_axial(x: float, y: float, layout: Layout) -> tuple[float, float]:
    """Fractional axial coordinates of the page point ``(x, y)`` (inverse of :func:`_axial_to_xy`)."""
    f = layout.size
    ox, oy = layout.origin
    px, py = x - ox, (oy - y) if layout.y_up else (y - oy)
    if layout.orientation == "pointy":
        fr = py / (f * _SQRT3 / 2.0)
        return px / f - fr / 2.0, fr
    fq = px / (f * _SQRT3 / 2.0)
    return fq, py / f - fq / 2.0


def hex_to_pixel(h: Hex, layout: Layout) -> tuple[float, float]:
    """Page position of the centre of ``h``."""
    return _axial_to_xy(h.q, h.r, layout)


def pixel_to_hex(x: float, y: float, layout: Layout) -> Hex:
    """The hex containing the page point ``(x, y)`` (points on an edge go to either side);
    ``ValueError`` for a point that is not finite."""
    fq, fr = _xy_to_axial(x, y, layout)
    return cube_round(fq, fr)


def hex_corners(h: Hex, layout: Layout) -> list[tuple[float, float]]:
    """The six corners of ``h`` on the page, in order around the hexagon.

    Corner ``i`` is the image of :func:`lattice_corners` ``(h)[i]``; it lies between
    neighbours ``i`` and ``i + 1`` of :data:`DIRECTIONS`.
    """
    return [_axial_to_xy(h.q + dq / 3.0, h.r + dr / 3.0, layout) for dq, dr in _CORNER_OFFSETS]


# --------------------------------------------------------------------------- offset coordinates

OffsetStyle = Literal["odd-q", "even-q", "odd-r", "even-r"]
#: ``*-q`` styles shove alternate columns (flat-top maps); ``*-r`` shove alternate rows (pointy-top).
OFFSET_STYLES: tuple[OffsetStyle, ...] = ("odd-q", "even-q", "odd-r", "even-r")


def _check_style(style: str) -> None:
    if style not in OFFSET_STYLES:
        raise ValueError(f"offset style must be one of {', '.join(OFFSET_STYLES)}, got {style!r}")


def to_offset(h: Hex, style: OffsetStyle) -> tuple[int, int]:
    """Offset ``(col, row)`` of ``h`` for a map file in the given style.

    ``odd-q``/``even-q``: flat-top columns, the odd/even columns pushed down half a hex.
    ``odd-r``/``even-r``: pointy-top rows, the odd/even rows pushed right half a hex.
    """
    _check_style(style)
    q, r = h.q, h.r
    if style == "odd-q":
        return q, r + (q - (q & 1)) // 2
    if style == "even-q":
        return q, r + (q + (q & 1)) // 2
    if style == "odd-r":
        return q + (r - (r & 1)) // 2, r
    return q + (r + (r & 1)) // 2, r


def from_offset(col: int, row: int, style: OffsetStyle) -> Hex:
    """The hex at offset ``(col, row)`` in the given style (inverse of :func:`to_offset`)."""
    _check_style(style)
    if style == "odd-q":
        return Hex(col, row - (col - (col & 1)) // 2)
    if style == "even-q":
        return Hex(col, row - (col + (col & 1)) // 2)
    if style == "odd-r":
        return Hex(col - (row - (row & 1)) // 2, row)
    return Hex(col - (row + (row & 1)) // 2, row)


# --------------------------------------------------------------------------- footprints

#: Cells of a multi-hex piece relative to its anchor; by convention ``Hex(0, 0)`` (the anchor) is a member.
Footprint = frozenset[Hex]
#: A hex filter: a set of allowed/blocked hexes or a predicate.
HexTest = Collection[Hex] | Callable[[Hex], bool]


def footprint(cells: Iterable[Hex]) -> Footprint:
    """A footprint from relative cells; raises ``ValueError`` unless it holds ``Hex(0, 0)`` and is connected."""
    fp = frozenset(cells)
    _check_footprint(fp)
    if not is_connected(fp):
        raise ValueError(f"footprint cells are not connected: {sorted(fp)}")
    return fp


def _check_footprint(fp: Collection[Hex]) -> None:
    if ORIGIN not in fp:
        raise ValueError("a footprint must contain its anchor Hex(0, 0)")


def reanchor(fp: Footprint, cell: Hex) -> Footprint:
    """The same shape with ``cell`` (a member, relative to the old anchor) as the new anchor."""
    if cell not in fp:
        raise ValueError(f"{cell} is not a cell of the footprint")
    return frozenset(h - cell for h in fp)


def place(fp: Footprint, anchor: Hex, rotation: int = 0) -> frozenset[Hex]:
    """Absolute cells of ``fp`` turned ``rotation`` 60° steps about its anchor, anchor put on ``anchor``."""
    _check_footprint(fp)
    return frozenset(anchor + rotate(h, rotation) for h in fp)


def is_connected(hexes: Iterable[Hex]) -> bool:
    """True when the hexes form one edge-connected group (an empty group counts as connected)."""
    cells = set(hexes)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbors(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _as_predicate(test: HexTest) -> Callable[[Hex], bool]:
    """A predicate from a hex set or a predicate."""
    if callable(test):
        return test
    return test.__contains__


def fits(cells: Iterable[Hex], allowed: HexTest) -> bool:
    """True when every cell is allowed (``allowed`` is a set of hexes or a predicate)."""
    ok = _as_predicate(allowed)
    return all(ok(h) for h in cells)


# --------------------------------------------------------------------------- movement


def _check_steps(steps: int) -> None:
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps}")


def move_costs(
    start_cells: Hex | Iterable[Hex],
    steps: int,
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
) -> dict[Hex, int]:
    """Fewest moves (at most ``steps``) to every hex a single-hex piece can reach.

    Breadth-first search from ``start_cells`` (one hex or several); a move steps to a
    neighbour that is ``passable`` and not in ``blocked``.  The start cells themselves are
    always included with cost 0, whatever stands there.
    """
    _check_steps(steps)
    starts = [start_cells] if isinstance(start_cells, Hex) else list(start_cells)
    cost = {h: 0 for h in starts}
    frontier = deque(cost)
    while frontier:
        h = frontier.popleft()
        c = cost[h]
        if c >= steps:
            continue
        for n in neighbors(h):
            if n not in cost and n not in blocked and passable(n):
                cost[n] = c + 1
                frontier.append(n)
    return cost


def reachable(
    start_cells: Hex | Iterable[Hex],
    steps: int,
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
) -> set[Hex]:
    """Hexes a single-hex piece can reach in at most ``steps`` moves, never entering or crossing
    an impassable or blocked hex (the start cells are included)."""
    return set(move_costs(start_cells, steps, passable, blocked))


def fits_turned(fp: Iterable[Hex], anchor: Hex, allowed: Callable[[Hex], bool]) -> bool:
    """True when the footprint ``fp`` with its [0, 0] on ``anchor`` lies on allowed hexes in at
    least one of its six rotations (a multi-hex piece passing a hex, turning as it goes)."""
    cells = list(fp)
    return any(all(allowed(anchor + rotate(c, k)) for c in cells) for k in range(6))


def reachable_placements(
    fp: Footprint,
    anchor: Hex,
    steps: int,
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
    rotation: int = 0,
    sweep: bool = False,
) -> set[tuple[Hex, int]]:
    """End placements ``(anchor_hex, rotation 0..5)`` of a multi-hex piece after one move.

    The anchor walks at most ``steps`` single-hex moves over passable, unblocked hexes (the
    other cells are not checked on the way); at the end the footprint, in any of the six
    rotations, must lie entirely on passable, unblocked hexes.  Staying put (0 moves) is
    included.  The piece's own current cells (``place(fp, anchor, rotation)``) are never
    treated as blocked. With ``sweep``, the whole piece must pass every hex the anchor steps
    onto, in some rotation (:func:`fits_turned`): it cannot squeeze through a gap narrower
    than itself.
    """
    _check_footprint(fp)
    own = place(fp, anchor, rotation)
    free_blocked = frozenset(blocked) - own

    def clear(h: Hex) -> bool:
        return h not in free_blocked and passable(h)

    step_ok = (lambda h: passable(h) and fits_turned(fp, h, clear)) if sweep else passable
    shapes = [[rotate(h, k) for h in fp] for k in range(6)]
    out: set[tuple[Hex, int]] = set()
    for dest in move_costs(anchor, steps, step_ok, free_blocked):
        for k, shape in enumerate(shapes):
            if all(clear(dest + h) for h in shape):
                out.add((dest, k))
    return out


def path_is_legal(
    path: Sequence[Hex],
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
    max_steps: int | None = None,
) -> bool:
    """True when ``path`` (start hex first) is a legal single-hex move.

    Consecutive hexes must be adjacent; every hex after the start must be passable and not
    blocked; with ``max_steps``, the path may have at most that many moves.  An empty path is
    not legal; a one-hex path (no move) is.
    """
    if not path:
        return False
    if max_steps is not None and len(path) - 1 > max_steps:
        return False
    for prev, h in zip(path, path[1:], strict=False):
        if not are_adjacent(prev, h) or h in blocked or not passable(h):
            return False
    return True


# --------------------------------------------------------------------------- exact line of sight
#
# Lattice coordinates: the point with fractional axial coordinates (fq, fr) has lattice
# coordinates (3*fq, 3*fr).  Hex (q, r) has its centre at (3q, 3r); its corners are the
# centroids of it and two adjacent neighbours, so they sit at the centre plus the integer
# offsets below, each shared by three hexes.  The map to the page is affine, so straight
# lines, crossings and convexity are the same here as on the page.  In these coordinates the
# open hexagon around centre C is  |2x+y| < 3, |x+2y| < 3, |x-y| < 3  with (x, y) = P - C.

LatticePoint = tuple[int, int]
_CORNER_OFFSETS: tuple[LatticePoint, ...] = ((2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1))


def lattice_center(h: Hex) -> LatticePoint:
    """Integer lattice coordinates ``(3q, 3r)`` of the centre of ``h``."""
    return 3 * h.q, 3 * h.r


def lattice_corners(h: Hex) -> list[LatticePoint]:
    """Integer lattice coordinates of the six corners of ``h`` (same order as :func:`hex_corners`)."""
    cx, cy = 3 * h.q, 3 * h.r
    return [(cx + dx, cy + dy) for dx, dy in _CORNER_OFFSETS]


def _meets_open_hexagon(px: int, py: int, dx: int, dy: int, cx: int, cy: int, k: int) -> bool:
    """True when the segment from ``(px, py)`` along ``(dx, dy)`` has a point strictly inside the
    hexagon around lattice point ``(cx, cy)`` whose corners are ``k / 3`` times a hex's corners
    (``k = 3``: the hex itself).

    Cyrus–Beck clipping with strict inequalities, in exact integers: the hexagon is
    ``|2x+y| < k, |x+2y| < k, |x-y| < k`` around its centre, so the parameters ``t`` of interior
    points form an open interval; the segment enters iff it meets ``[0, 1]``.
    """
    ux, uy = px - cx, py - cy
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1  # the interval (lo, hi) as fractions n/d with d > 0
    for u, w in ((2 * ux + uy, 2 * dx + dy), (ux + 2 * uy, dx + 2 * dy), (ux - uy, dx - dy)):
        if w == 0:
            if not -k < u < k:
                return False
            continue
        if w > 0:
            a_n, b_n, d = -k - u, k - u, w  # -k < u + t*w < k  <=>  t in (a_n/d, b_n/d)
        else:
            a_n, b_n, d = u - k, u + k, -w
        if a_n * lo_d > lo_n * d:
            lo_n, lo_d = a_n, d
        if b_n * hi_d < hi_n * d:
            hi_n, hi_d = b_n, d
        if lo_n * hi_d >= hi_n * lo_d:
            return False
    return True


def segment_enters_hex(p: LatticePoint, q: LatticePoint, h: Hex) -> bool:
    """True when some point of the segment ``p``–``q`` lies strictly inside hex ``h``.

    Exact (integers only).  Running along an edge or touching a corner is not entering.
    ``p`` and ``q`` are lattice points (see :func:`lattice_corners`).
    """
    return _meets_open_hexagon(p[0], p[1], q[0] - p[0], q[1] - p[1], 3 * h.q, 3 * h.r, 3)


def _corridor(a: Hex, b: Hex) -> Iterator[Hex]:
    """Every hex other than ``a`` and ``b`` whose interior meets the convex hull of ``a`` and ``b``
    (so it may lie across some corner-to-corner line): those whose centre is strictly inside
    the centre segment swept by a hexagon twice the hex's size."""
    ax, ay, bx, by = 3 * a.q, 3 * a.r, 3 * b.q, 3 * b.r
    dx, dy = bx - ax, by - ay
    ends = ((ax, ay), (bx, by))
    # Strict band around the centre line, |cross(D, c - ca)| < m, as a cheap row-by-row bound.
    m = 2 * max(abs(dx * oy - dy * ox) for ox, oy in _CORNER_OFFSETS)
    q_lo, q_hi = min(a.q, b.q) - 1, max(a.q, b.q) + 1
    s_lo, s_hi = min(a.s, b.s) - 1, max(a.s, b.s) + 1
    for r in range(min(a.r, b.r) - 1, max(a.r, b.r) + 2):
        lo, hi = max(q_lo, -s_hi - r), min(q_hi, -s_lo - r)
        base = dx * (3 * r - ay) + dy * ax  # cross(D, c - ca) = base - 3*dy*q
        if dy == 0:
            if not -m < base < m:
                continue
        else:
            sign = 1 if dy > 0 else -1
            d3 = 3 * dy * sign  # 3*|dy|; need base - m < 3*dy*q < base + m
            n_lo, n_hi = (base - m, base + m) if sign > 0 else (-base - m, -base + m)
            lo, hi = max(lo, n_lo // d3 + 1), min(hi, -(-n_hi // d3) - 1)
        for q in range(lo, hi + 1):
            if (3 * q, 3 * r) not in ends and _meets_open_hexagon(ax, ay, dx, dy, 3 * q, 3 * r, 6):
                yield Hex(q, r)


def _blockers(a: Hex, b: Hex, obstacles: HexTest) -> list[LatticePoint]:
    """Lattice centres of the obstacles, other than ``a`` and ``b``, that may block ``a``–``b``."""
    if not callable(obstacles) and len(obstacles) < 4 * distance(a, b):
        ax, ay, dx, dy = 3 * a.q, 3 * a.r, 3 * (b.q - a.q), 3 * (b.r - a.r)
        found = [
            h
            for h in obstacles
            if h != a and h != b and _meets_open_hexagon(ax, ay, dx, dy, 3 * h.q, 3 * h.r, 6)
        ]
    else:
        blocks = _as_predicate(obstacles)
        found = [h for h in _corridor(a, b) if blocks(h)]
    return [(3 * h.q, 3 * h.r) for h in found]


def _first_blocker(p: LatticePoint, q: LatticePoint, centres: Sequence[LatticePoint]) -> int:
    """Index of the first hex (by lattice centre) that the segment ``p``–``q`` enters, or -1."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    x0, x1 = min(px, q[0]), max(px, q[0])
    y0, y1 = min(py, q[1]), max(py, q[1])
    z0, z1 = min(-px - py, -q[0] - q[1]), max(-px - py, -q[0] - q[1])
    for i, (cx, cy) in enumerate(centres):
        # Quick reject: an open hexagon spans (c - 2, c + 2) along each of the three lattice axes.
        cz = -cx - cy
        if cx - 2 >= x1 or cx + 2 <= x0 or cy - 2 >= y1 or cy + 2 <= y0 or cz - 2 >= z1 or cz + 2 <= z0:
            continue
        if _meets_open_hexagon(px, py, dx, dy, cx, cy, 3):
            return i
    return -1


def line_of_sight(a: Hex, b: Hex, obstacles: HexTest) -> bool:
    """True when some straight line from a corner of ``a`` to a corner of ``b`` crosses the
    interior of no obstacle hex.

    Lines running along an obstacle's edge or through its corner are not blocked.  The
    result is exact (integer arithmetic) and symmetric in ``a`` and ``b``.  ``obstacles`` is a
    collection of hexes or a predicate (asked only about hexes near the line); ``a`` and ``b``
    themselves never block their own line of sight, even when listed.  A hex sees itself and
    its neighbours (they share corners).

    A consequence of the rule: one obstacle hex on its own never blocks (the two lines along
    the outer sides of the band joining ``a`` and ``b`` at most graze it), and a line may run
    along the edge shared by two adjacent obstacles.
    """
    if distance(a, b) <= 1:
        return True
    centres = _blockers(a, b, obstacles)
    if not centres:
        return True
    for p in lattice_corners(a):
        for q in lattice_corners(b):
            i = _first_blocker(p, q, centres)
            if i < 0:
                return True
            if i:  # try the hex that blocked this line first on the next one
                centres.insert(0, centres.pop(i))
    return False

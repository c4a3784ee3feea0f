"""Exact line of sight in integer lattice coordinates (see the package docstring)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cardgen.core.hexgrid.coords import _CORNER_OFFSETS, Hex, LatticePoint, distance
from cardgen.core.hexgrid.shapes import HexTest, _as_predicate

# --------------------------------------------------------------------------- exact line of sight
#
# Lattice coordinates: the point with fractional axial coordinates (fq, fr) has lattice
# coordinates (3*fq, 3*fr).  Hex (q, r) has its centre at (3q, 3r); its corners are the
# centroids of it and two adjacent neighbours, so they sit at the centre plus the integer
# offsets below, each shared by three hexes.  The map to the page is affine, so straight
# lines, crossings and convexity are the same here as on the page.  In these coordinates the
# open hexagon around centre C is  |2x+y| < 3, |x+2y| < 3, |x-y| < 3  with (x, y) = P - C.



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

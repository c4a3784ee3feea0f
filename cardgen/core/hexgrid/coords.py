"""Hex coordinates: axial ``Hex(q, r)``, cube conversions, neighbours, rings, rotation."""

from __future__ import annotations

import math

from cardgen.core.record import record

# --------------------------------------------------------------------------- coordinates


@record(frozen=True, order=True, slots=True)
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


#: a point of the integer lattice (axial coordinates × 3), where hex centres and corners are whole
LatticePoint = tuple[int, int]
#: a hex's corners, relative to its centre, in lattice units
_CORNER_OFFSETS: tuple[LatticePoint, ...] = ((2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1))

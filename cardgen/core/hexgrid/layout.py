"""Hex layouts: hexes on a plane (any unit; size across flats) and offset coordinates."""

from __future__ import annotations

import math
from typing import Literal

from cardgen.core.hexgrid.coords import _CORNER_OFFSETS, Hex, cube_round
from cardgen.core.record import record

# --------------------------------------------------------------------------- layouts

Orientation = Literal["flat", "pointy"]
_SQRT3 = math.sqrt(3.0)


@record(frozen=True)
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



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

from cardgen.core.hexgrid.coords import (
    DIRECTIONS,
    ORIGIN,
    Hex,
    LatticePoint,
    are_adjacent,
    cube_round,
    direction,
    distance,
    from_cube,
    hex_range,
    neighbor,
    neighbors,
    reflect,
    ring,
    rotate,
    spiral,
    to_cube,
)
from cardgen.core.hexgrid.layout import (
    OFFSET_STYLES,
    Layout,
    OffsetStyle,
    Orientation,
    from_offset,
    hex_corners,
    hex_to_pixel,
    pixel_to_hex,
    to_offset,
)
from cardgen.core.hexgrid.shapes import (
    Footprint,
    HexTest,
    fits,
    fits_turned,
    footprint,
    is_connected,
    move_costs,
    path_is_legal,
    place,
    reachable,
    reachable_placements,
    reanchor,
)
from cardgen.core.hexgrid.sight import lattice_center, lattice_corners, line_of_sight, segment_enters_hex

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
    "fits_turned",
    "reachable_placements",
    "path_is_legal",
    "LatticePoint",
    "lattice_center",
    "lattice_corners",
    "segment_enters_hex",
    "line_of_sight",
]

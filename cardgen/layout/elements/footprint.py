"""footprint: a small hex diagram of a footprint, fitted into its box.

``cells`` are axial ``[q, r]`` hexes (``q`` to the right, ``r`` down-right on a pointy-top
grid), given as a list or as the text a ``{{ card.footprint }}`` expression renders. A dot
marks the anchor ``[0, 0]``; a footprint with no cells draws one pale "ghost" hex with the
``empty`` caption. :func:`diagram` draws the same picture anywhere (reference sheets).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from cardgen.core import hexgrid
from cardgen.core.fonts import METRICS
from cardgen.core.options import Opt
from cardgen.layout.elements.base import no_text
from cardgen.scene import Circle, Polygon, Text

if TYPE_CHECKING:
    from cardgen.core.hexgrid import Orientation

SPEC = {
    "w": Opt("length", required=True, doc="box width"),
    "h": Opt("length", required=True, doc="box height"),
    "cells": Opt("any", required=True, doc="the hexes: a list of [q, r], or its text from an expression"),
    "hex": Opt("length", default=8.0, doc="the largest hex, across flats; smaller when the shape needs room"),
    "fill": Opt("color", default="#d9c7a3"),
    "stroke": Opt("color", default="#000000"),
    "stroke_width": Opt("length", default=0.3),
    "anchor": Opt("color", default=None, doc="colour of the dot on the anchor hex [0, 0]; absent: no dot"),
    "empty": Opt("str", default="", doc="caption of the ghost hex drawn when there are no cells"),
    "empty_fill": Opt("color", default="#ffffff"),
    "orientation": Opt("enum", choices=("pointy", "flat"), default="pointy"),
}


def parse_cells(value: Any) -> list[tuple[int, int]] | None:
    """``[[q, r], …]`` (or its JSON text) → a list of (q, r); None when malformed."""
    if isinstance(value, str):
        text = value.strip() or "[]"
        try:
            value = json.loads(text.replace("(", "[").replace(")", "]"))
        except ValueError:
            return None
    if not isinstance(value, (list, tuple)):
        return None
    out: list[tuple[int, int]] = []
    for cell in value:
        if (not isinstance(cell, (list, tuple)) or len(cell) != 2
                or not all(isinstance(c, int) and not isinstance(c, bool) for c in cell)):
            return None
        out.append((cell[0], cell[1]))
    return out


def diagram(cells: list[tuple[int, int]], x: float, y: float, w: float, h: float, *, max_hex: float = 8.0,
            fill: str = "#d9c7a3", stroke: str = "#000000", width: float = 0.3, anchor: str | None = None,
            empty: str = "", empty_fill: str = "#ffffff", orientation: Orientation = "pointy",
            font: str = "LiberationSans-Italic", fills: dict[tuple[int, int], str] | None = None) -> list:
    """Primitives of the diagram centred in the box (x, y, w, h); page or bleed-box millimetres.

    ``fills`` may colour single cells (e.g. one colour per piece of a boss).
    """
    hexes = [hexgrid.Hex(q, r) for q, r in dict.fromkeys(cells)]
    ghost = not hexes
    shown = hexes or [hexgrid.Hex(0, 0)]
    unit = hexgrid.Layout(orientation, 1.0)
    pts = [p for hx in shown for p in hexgrid.hex_corners(hx, unit)]
    if anchor and not ghost:
        pts.append(hexgrid.hex_to_pixel(hexgrid.Hex(0, 0), unit))
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    bw, bh = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
    size = min(max_hex, w / bw, h / bh)
    ox = x + (w - bw * size) / 2 - x0 * size
    oy = y + (h - bh * size) / 2 - y0 * size
    lay = hexgrid.Layout(orientation, size, origin=(ox, oy))
    out: list = []
    for hx in shown:
        corners = tuple(hexgrid.hex_corners(hx, lay))
        colour = empty_fill if ghost else (fills or {}).get((hx.q, hx.r), fill)
        out.append(Polygon(corners, colour, stroke, width))
    if ghost:
        if empty:
            cx, cy = hexgrid.hex_to_pixel(hexgrid.Hex(0, 0), lay)
            pt = min(7.0, size * 0.75 / max(METRICS.width_mm(empty, font, 1.0), 1e-9))
            out.append(Text(cx, cy + METRICS.ascent_mm(font, pt) * 0.35, empty, font, pt, stroke, "center"))
    elif anchor:
        cx, cy = hexgrid.hex_to_pixel(hexgrid.Hex(0, 0), lay)
        out.append(Circle(cx, cy, size * 0.14, anchor, None, 0))
    return out


TEXT_BOUNDED = False
text_sizes = no_text


def draw(v, ctx):
    cells = parse_cells(v["cells"])
    if cells is None:
        ctx.problems.error("YAML-TYPE", f"{ctx.label}: the cells of '{ctx.element}' must be a list of [q, r] "
                           f"pairs of whole numbers, not {v['cells']!r}", ctx.where)
        return []
    return diagram(cells, ctx.ox(v["x"]), ctx.oy(v["y"]), v["w"], v["h"], max_hex=v["hex"], fill=v["fill"],
                   stroke=v["stroke"], width=v["stroke_width"], anchor=v["anchor"], empty=v["empty"],
                   empty_fill=v["empty_fill"], orientation=v["orientation"], font=ctx.fonts["italic"])

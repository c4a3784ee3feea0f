"""badge: a stat in a shape centred on (x, y) — a value in large type and an optional caption. A value that is
one drawn icon alone (``"{skull}"`` where game.yaml gives ``skull`` a ``draw:``) is drawn."""

import math
import re
from collections.abc import Mapping
from typing import Any

from cardgen.core.options import Opt
from cardgen.layout.elements.base import TextSizes
from cardgen.layout.elements.text import layout_text
from cardgen.layout.legibility import MIN_PT
from cardgen.layout.pictograms import DRAWINGS
from cardgen.layout.pictograms import draw as draw_pictogram
from cardgen.scene import Circle, Polygon, Rect

SPEC = {
    "r": Opt("length", default=4.5, doc="half the badge's size"),
    "shape": Opt("enum", choices=("circle", "square", "diamond", "hexagon", "shield"), default="circle"),
    "fill": Opt("color", default="#ffffff"), "stroke": Opt("color", default="#000000"),
    "stroke_width": Opt("length", default=0.35),
    "value": Opt("str", required=True, doc="the number or symbol shown"),
    "size": Opt("number", default=12.0), "color": Opt("color", default="#000000"),
    "label": Opt("str", default=None, doc="caption under the badge"),
    "label_size": Opt("number", default=6.0), "label_color": Opt("color", default="#000000"),
}


_LONE_ICON = re.compile(r"^\s*\{([a-z0-9_]+)\}\s*$")


TEXT_BOUNDED = False


def text_sizes(v: Mapping[str, Any]) -> TextSizes:
    out: TextSizes = []
    if str(v.get("value") or "").strip():
        out.append(("size", float(v["size"]), "the value is set at"))
    if str(v.get("label") or "").strip():
        out.append(("label_size", float(v["label_size"]), "the label is set at"))
    return out


def shape(kind, cx, cy, r, fill, stroke, width):
    if kind == "circle":
        return Circle(cx, cy, r, fill, stroke, width)
    if kind == "square":
        return Rect(cx - r, cy - r, 2 * r, 2 * r, fill, stroke, width, r * 0.25)
    if kind == "diamond":
        return Polygon(((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), fill, stroke, width)
    if kind == "hexagon":
        pts = tuple((cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k)))
                    for k in range(6))
        return Polygon(pts, fill, stroke, width)
    pts = ((cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + 0.2 * r), (cx, cy + r), (cx - r, cy + 0.2 * r))
    return Polygon(pts, fill, stroke, width)


def draw(v, ctx):
    cx, cy, r = ctx.ox(v["x"]), ctx.oy(v["y"]), v["r"]
    out = [shape(v["shape"], cx, cy, r, v["fill"], v["stroke"], v["stroke_width"])]
    alone = _LONE_ICON.match(str(v["value"]))
    ic = ctx.icons.get(alone.group(1)) if alone else None
    if ic is not None and ic.draw in DRAWINGS:
        side = min(r * 1.25, v["size"] * 25.4 / 72 * 1.1)
        out += draw_pictogram(ic.draw, cx, cy, side, ic.color or v["color"], v["fill"] or "#ffffff")
        return out + _label(v, ctx, cx, cy, r)
    tv = {"text": v["value"], "font": "bold", "size": v["size"], "min_size": min(6.0, v["size"]),
          "color": v["color"], "align": "center", "valign": "middle", "leading": 1.0}
    out += layout_text(tv, ctx, cx - r * 0.9, cy - r * 0.8, r * 1.8, r * 1.6)
    return out + _label(v, ctx, cx, cy, r)


def _label(v, ctx, cx: float, cy: float, r: float) -> list:
    out: list = []
    if v["label"]:
        lv = {"text": v["label"], "font": "bold", "size": v["label_size"], "min_size": min(MIN_PT, v["label_size"]),
              "color": v["label_color"], "align": "center", "valign": "top", "leading": 1.0}
        out += layout_text(lv, ctx, cx - r * 1.6, cy + r + 0.4, r * 3.2, 3.2)
    return out

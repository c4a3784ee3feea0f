"""rect: a filled and/or stroked rectangle, optionally rounded or covering the bleed."""

from cardgen.core.options import Opt
from cardgen.layout.elements.base import no_text
from cardgen.scene import Rect

SPEC = {
    "w": Opt("length", default=None, doc="width"),
    "h": Opt("length", default=None, doc="height"),
    "fill": Opt("color", default=None), "stroke": Opt("color", default=None),
    "stroke_width": Opt("length", default=0.3), "radius": Opt("length", default=0.0),
    "bleed": Opt("bool", default=False, doc="cover the whole bleed box (x, y, w, h ignored)"),
}


TEXT_BOUNDED = True
text_sizes = no_text


def draw(v, ctx):
    if v["bleed"]:
        return [Rect(0, 0, ctx.w + 2 * ctx.bleed, ctx.h + 2 * ctx.bleed, v["fill"], v["stroke"],
                     v["stroke_width"], v["radius"])]
    w = v["w"] if v["w"] is not None else ctx.w - v["x"]
    h = v["h"] if v["h"] is not None else ctx.h - v["y"]
    return [Rect(ctx.ox(v["x"]), ctx.oy(v["y"]), w, h, v["fill"], v["stroke"], v["stroke_width"], v["radius"])]

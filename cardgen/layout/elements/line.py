"""line: a straight rule from (x, y) to (x2, y2)."""

from cardgen.core.options import Opt
from cardgen.layout.elements.base import no_text
from cardgen.scene import Line

SPEC = {"x2": Opt("length", required=True), "y2": Opt("length", required=True),
        "stroke": Opt("color", default="#000000"), "width": Opt("length", default=0.25)}


TEXT_BOUNDED = True
text_sizes = no_text


def draw(v, ctx):
    return [Line(ctx.ox(v["x"]), ctx.oy(v["y"]), ctx.ox(v["x2"]), ctx.oy(v["y2"]), v["stroke"], v["width"])]

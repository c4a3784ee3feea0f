"""frame: the card's colour to the bleed edge and a bordered panel inset from the trim."""

from cardgen.core.options import Opt
from cardgen.layout.elements.base import no_text
from cardgen.scene import Rect

SPEC = {
    "fill": Opt("color", required=True, doc="colour of the border area, printed into the bleed"),
    "panel": Opt("color", default=None, doc="colour inside the border"),
    "border": Opt("color", default=None, doc="line around the panel"),
    "border_width": Opt("length", default=0.4),
    "inset": Opt("length", default=3.0, doc="panel distance from the trim"),
    "radius": Opt("length", default=2.5),
}


TEXT_BOUNDED = True
text_sizes = no_text


def draw(v, ctx):
    b, i = ctx.bleed, v["inset"]
    out = [Rect(0, 0, ctx.w + 2 * b, ctx.h + 2 * b, v["fill"])]
    if v["panel"] or v["border"]:
        out.append(Rect(b + i, b + i, ctx.w - 2 * i, ctx.h - 2 * i, v["panel"], v["border"], v["border_width"],
                        v["radius"]))
    return out

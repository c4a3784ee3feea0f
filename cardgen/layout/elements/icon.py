"""icon: one of the game's icons centred on (x, y): its drawn pictogram when game.yaml gives it
one (``draw:``), else its glyph of the bundled font."""

from collections.abc import Mapping
from typing import Any

from cardgen.core.options import Opt
from cardgen.core.problems import did_you_mean
from cardgen.layout.elements.base import TextSizes
from cardgen.layout.elements.text import layout_text
from cardgen.layout.pictograms import DRAWINGS
from cardgen.layout.pictograms import draw as draw_pictogram

SPEC = {"name": Opt("str", required=True, doc="an icon of game.yaml"),
        "size": Opt("number", default=12.0, doc="pt (a drawn icon fills a square this many points across)"),
        "color": Opt("color", default=None),
        "paper": Opt("color", default="#ffffff", doc="what a drawn icon stands on (its cut-outs are painted with it)")}


TEXT_BOUNDED = False


def text_sizes(v: Mapping[str, Any]) -> TextSizes:
    return [("size", float(v["size"]), "the icon is set at")]


def draw(v, ctx):
    ic = ctx.icons.get(v["name"])
    if ic is None:
        ctx.problems.error("ICON-UNKNOWN", f"{ctx.label}: unknown icon '{v['name']}' in element '{ctx.element}'",
                           ctx.where, hint=did_you_mean(v["name"], ctx.icons))
        return []
    s = v["size"] * 25.4 / 72
    color = v["color"] or ic.color or "#000000"
    if ic.draw in DRAWINGS:
        return draw_pictogram(ic.draw, ctx.ox(v["x"]), ctx.oy(v["y"]), s, color, v["paper"])
    tv = {"text": ic.glyph, "font": "regular", "size": v["size"], "min_size": v["size"],
          "color": color, "align": "center", "valign": "middle", "leading": 1.0}
    return layout_text(tv, ctx, ctx.ox(v["x"]) - s, ctx.oy(v["y"]) - s, 2 * s, 2 * s)

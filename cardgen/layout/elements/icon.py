"""icon: one of the game's icons (a glyph of the bundled font), centred on (x, y)."""

from cardgen.core.options import Opt
from cardgen.core.problems import did_you_mean
from cardgen.layout.elements.text import layout_text

SPEC = {"name": Opt("str", required=True, doc="an icon of game.yaml"),
        "size": Opt("number", default=12.0, doc="pt"), "color": Opt("color", default=None)}


def draw(v, ctx):
    ic = ctx.icons.get(v["name"])
    if ic is None:
        ctx.problems.error("ICON-UNKNOWN", f"{ctx.label}: unknown icon '{v['name']}' in element '{ctx.element}'",
                           ctx.where, hint=did_you_mean(v["name"], ctx.icons))
        return []
    s = v["size"] * 25.4 / 72
    tv = {"text": ic.glyph, "font": "regular", "size": v["size"], "min_size": v["size"],
          "color": v["color"] or ic.color or "#000000", "align": "center", "valign": "middle", "leading": 1.0}
    return layout_text(tv, ctx, ctx.ox(v["x"]) - s, ctx.oy(v["y"]) - s, 2 * s, 2 * s)

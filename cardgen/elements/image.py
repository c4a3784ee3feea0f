"""image: a PNG or JPEG from the game's folder, fitted into its box."""

from ..images import ImageError, image_size
from ..scene import Image
from ..schema import Opt
from ..yamlsrc import inside

SPEC = {"w": Opt("length", required=True), "h": Opt("length", required=True),
        "src": Opt("str", required=True, doc="path inside the game's art folder")}


def draw(v, ctx):
    path = inside(ctx.art_root, v["src"])
    if path is None:
        ctx.problems.error("PATH-ESCAPE", f"{ctx.label}: image path '{v['src']}' leaves the project folder "
                           f"{ctx.art_root}", ctx.where)
        return []
    if not path.is_file():
        ctx.problems.error("FILE-MISSING", f"{ctx.label}: image '{v['src']}' not found in {ctx.art_root}",
                           ctx.where)
        return []
    try:
        image_size(path)
    except ImageError as e:
        if ctx.field:       # the card names the picture: the card's problem
            ctx.problems.error(e.rule, f"{ctx.label}: {e.message}", ctx.where)
        else:               # the template does, for every card: one problem, at the element
            ctx.problems.error(e.rule, f"element '{ctx.element}': {e.message}", ctx.element_loc)
        return []
    return [Image(str(path), ctx.ox(v["x"]), ctx.oy(v["y"]), v["w"], v["h"])]

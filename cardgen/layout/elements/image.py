"""image: a PNG or JPEG from the game's folder, fitted into its box."""

from cardgen.core import sources
from cardgen.core.images import ImageError, image_size
from cardgen.core.options import Opt
from cardgen.core.yamlsrc import inside
from cardgen.layout.elements.base import no_text
from cardgen.scene import Image

SPEC = {"w": Opt("length", required=True), "h": Opt("length", required=True),
        "src": Opt("str", required=True, doc="path inside the game's art folder")}


def _resolve(root, src: str):
    """(the path, whether it is a file); None for a path leaving ``root``."""
    path = inside(root, src)
    return None if path is None else (str(path), sources.is_file(path))


TEXT_BOUNDED = True
text_sizes = no_text


def draw(v, ctx):
    key = ("image", ctx.art_root, v["src"])
    memo = ctx.memo if ctx.memo is not None else {}
    found = memo[key] if key in memo else memo.setdefault(key, _resolve(ctx.art_root, v["src"]))
    if found is None:
        ctx.problems.error("PATH-ESCAPE", f"{ctx.label}: image path '{v['src']}' leaves the project folder "
                           f"{ctx.art_root}", ctx.where)
        return []
    path, is_file = found
    if not is_file:
        ctx.problems.error("FILE-MISSING", f"{ctx.label}: image '{v['src']}' not found in {ctx.art_root}",
                           ctx.where)
        return []
    err = memo[("image-check", path)] if ("image-check", path) in memo else \
        memo.setdefault(("image-check", path), _check(path))
    if err is not None:
        if ctx.field:       # the card names the picture: the card's problem
            ctx.problems.error(err.rule, f"{ctx.label}: {err.message}", ctx.where)
        else:               # the template does, for every card: one problem, at the element
            ctx.problems.error(err.rule, f"element '{ctx.element}': {err.message}", ctx.element_loc)
        return []
    return [Image(path, ctx.ox(v["x"]), ctx.oy(v["y"]), v["w"], v["h"])]


def _check(path: str) -> ImageError | None:
    """The picture decoded once (its problem, if any)."""
    try:
        image_size(path)
    except ImageError as e:
        return e
    return None

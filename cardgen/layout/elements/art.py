"""art: the card's picture (its ``art:`` field, a file under ``art/<game>/``) in a box.

``fit: cover`` fills the box and crops what overflows, keeping the focal point (``focus_x``,
``focus_y``: fractions of the picture, 0.5 is its centre) as near the box's centre as the
picture allows; ``fit: contain`` shows the whole picture, the focal point choosing where the
spare room goes. PNG and JPEG are embedded once per PDF however often they are placed; SVG
stays vector (svglib), drawn once as a form and placed by reference.

A missing file is an ``ART-MISSING`` warning and a drawn placeholder (a framed landscape
pictogram, or the game icon named by ``icon``: its drawing when game.yaml gives it a ``draw:``)
takes its place — never a letter. The file is read
through the project's checks (:mod:`cardgen.core.artfiles`): a link out of the project, a folder, an
oversized file or one that is no picture is an error under their rule IDs (the placeholder drawn). A
picture printed at under 300 DPI is an ``ART-DPI`` warning naming its effective resolution.
"""

from __future__ import annotations

from cardgen.core.artfiles import info
from cardgen.core.images import ImageError
from cardgen.core.options import Opt
from cardgen.core.yamlsrc import inside
from cardgen.layout.elements.base import no_text
from cardgen.layout.elements.text import layout_text
from cardgen.layout.pictograms import DRAWINGS
from cardgen.layout.pictograms import draw as draw_pictogram
from cardgen.scene import Circle, Clip, Image, Polygon, Rect

MIN_DPI = 300
MM_IN = 25.4

SPEC = {"w": Opt("length", required=True, doc="the box's width"),
        "h": Opt("length", required=True, doc="the box's height"),
        "src": Opt("str", required=True, doc="the picture: a path under art/<game>/, usually \"{{ card.art }}\""),
        "fit": Opt("enum", choices=("cover", "contain"), default="cover",
                   doc="cover: fill the box, cropping; contain: the whole picture inside the box"),
        "focus_x": Opt("number", default=0.5, min=0, max=1, doc="the focal point across the picture (0 left, 1 right)"),
        "focus_y": Opt("number", default=0.5, min=0, max=1, doc="the focal point down the picture (0 top, 1 bottom)"),
        "icon": Opt("str", default=None, doc="a game icon drawn on the placeholder when the picture is missing"),
        "fill": Opt("color", default="#e8e2d4", doc="the placeholder's background"),
        "color": Opt("color", default="#a89f8c", doc="the placeholder's drawing")}


def place(iw: float, ih: float, bw: float, bh: float, fit: str, fx: float, fy: float) -> tuple[float, float, float, float]:
    """Where a picture of ``iw`` × ``ih`` goes in a ``bw`` × ``bh`` box: (dx, dy, w, h) from the
    box's corner. Cover: the focal point as near the box's centre as the picture allows."""
    scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
    w, h = iw * scale, ih * scale
    if fit == "cover":
        dx = min(0.0, max(bw - w, bw / 2 - fx * w))
        dy = min(0.0, max(bh - h, bh / 2 - fy * h))
    else:
        dx, dy = (bw - w) * fx, (bh - h) * fy
    return dx, dy, w, h


TEXT_BOUNDED = False
text_sizes = no_text


def draw(v, ctx):
    x, y, bw, bh = ctx.ox(v["x"]), ctx.oy(v["y"]), v["w"], v["h"]
    root = ctx.art_dir
    src = str(v["src"]).strip()
    if root is None or not src or src == "None":
        return []
    path = inside(root, src)
    if path is None:
        ctx.problems.error("PATH-ESCAPE", f"{ctx.label}: art '{src}' leaves the game's art folder {root}", ctx.where)
        return []
    try:
        found = info(path)
    except ImageError as e:
        if e.rule == "FILE-MISSING":
            ctx.problems.warning("ART-MISSING", f"{ctx.label}: art '{src}' is not there (looked in {root}); a "
                                 "placeholder is printed", ctx.where)
        else:       # outside the project through a link, not a picture, too big: the project's own checks
            ctx.problems.error(e.rule, f"{ctx.label}: art '{src}': {e.message}", ctx.where)
        return placeholder(v, ctx, x, y, bw, bh)
    dx, dy, w, h = place(found.width, found.height, bw, bh, v["fit"], v["focus_x"], v["focus_y"])
    if not found.vector:
        dpi = min(found.width / (w / MM_IN), found.height / (h / MM_IN))
        if dpi < MIN_DPI - 0.5:
            ctx.problems.warning("ART-DPI", f"{ctx.label}: art '{src}' ({found.width:.0f} × {found.height:.0f} px) "
                                 f"prints at {w:.1f} × {h:.1f} mm, {dpi:.0f} DPI (under {MIN_DPI}): it will look "
                                 f"soft; give it at least {w / MM_IN * MIN_DPI:.0f} px across", ctx.where)
    img = Image(str(path), x + dx, y + dy, w, h)
    return [Clip(x, y, bw, bh, (img,))] if v["fit"] == "cover" else [img]


def placeholder(v, ctx, x: float, y: float, bw: float, bh: float) -> list:
    """A tinted box with a framed landscape (hills and a sun) or the game icon ``icon``."""
    ink = v["color"]
    out: list = [Rect(x, y, bw, bh, fill=v["fill"], stroke=ink, width=0.3)]
    icon = ctx.icons.get(v["icon"]) if v["icon"] else None
    s = min(bw, bh)
    cx, cy = x + bw / 2, y + bh / 2
    if icon is not None and icon.draw in DRAWINGS:
        return out + draw_pictogram(icon.draw, cx, cy, s * 0.7, icon.color or ink, v["fill"])
    if icon is not None:
        size = s * 0.45 / 25.4 * 72
        tv = {"text": icon.glyph, "font": "regular", "size": size, "min_size": size, "color": icon.color or ink,
              "align": "center", "valign": "middle", "leading": 1.0}
        return out + layout_text(tv, ctx, cx - s * 0.4, cy - s * 0.4, s * 0.8, s * 0.8)
    fw, fh = s * 0.56, s * 0.42                 # the picture frame
    fx, fy = cx - fw / 2, cy - fh / 2
    out.append(Rect(fx, fy, fw, fh, fill="#ffffff", stroke=ink, width=max(0.3, s * 0.02), radius=s * 0.02))
    base = fy + fh * 0.92
    out.append(Polygon(((fx + fw * 0.08, base), (fx + fw * 0.38, fy + fh * 0.38), (fx + fw * 0.62, base)), fill=ink))
    out.append(Polygon(((fx + fw * 0.42, base), (fx + fw * 0.66, fy + fh * 0.52), (fx + fw * 0.92, base)),
                       fill=ink))
    out.append(Circle(fx + fw * 0.75, fy + fh * 0.28, fh * 0.11, fill=ink))
    return out

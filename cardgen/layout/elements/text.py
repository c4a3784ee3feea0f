"""text: a box of wrapped text that shrinks to fit, never clipped (TEXT-OVERFLOW instead)."""

from collections.abc import Mapping
from typing import Any

from cardgen.content.icontext import positions
from cardgen.core.fonts import PT_MM, draws, glyphs_checked, missing_glyphs
from cardgen.core.options import Opt
from cardgen.core.problems import did_you_mean
from cardgen.layout.elements.base import TextSizes
from cardgen.layout.pictograms import draw as draw_pictogram
from cardgen.layout.textfit import fit, plain_fit
from cardgen.scene import Rect, Text, make_text

SPEC = {
    "w": Opt("length", required=True, doc="box width"), "h": Opt("length", required=True, doc="box height"),
    "text": Opt("str", required=True, doc="the text; **bold**, *italic*, {icon}, newline"),
    "font": Opt("enum", choices=("regular", "bold", "italic", "bolditalic"), default="regular"),
    "size": Opt("number", default=8.0, min=2, doc="largest size, pt"),
    "min_size": Opt("number", default=6.0, min=2, doc="smallest size it may shrink to, pt (under 6 pt: TEXT-SMALL)"),
    "rules": Opt("bool", default=False, doc="rules text a player reads to play (an ability, an effect): "
                 "7 pt minimum instead of 6"),
    "color": Opt("color", default="#000000"),
    "align": Opt("enum", choices=("left", "center", "right"), default="left"),
    "valign": Opt("enum", choices=("top", "middle", "bottom"), default="top"),
    "leading": Opt("number", default=1.2, min=0.8, max=3),
    "fill": Opt("color", default=None, doc="box background"), "stroke": Opt("color", default=None),
    "radius": Opt("length", default=0.0), "padding": Opt("length", default=0.0),
}


_SEEN = ("text-seen",)          # the memo's set of texts laid out once (their keys' hashes)


TEXT_BOUNDED = True         # it prints at sizes from min_size up to size only


def text_sizes(v: Mapping[str, Any]) -> TextSizes:
    size, low = float(v["size"]), float(v["min_size"])
    return [("min_size", low, "text may shrink to")] if low < size else [("size", size, "text is set at")]


def layout_text(v, ctx, x, y, w, h):
    """Fit and place ``v['text']`` in the box (x, y, w, h), bleed-box coordinates. The same text
    in the same box on another card (labels, numbers) is laid out once: the result of a layout
    that reported no problem is remembered in ``ctx.memo`` (unless the caller remembers the whole
    element: ``ctx.remember_text`` off)."""
    memo = ctx.memo
    if memo is None or not ctx.remember_text:
        return _layout_text(v, ctx, x, y, w, h)[0]
    key = ("text", x, y, w, h, id(ctx.fonts), v["text"], v["font"], v["size"], v["min_size"], v["leading"],
           v["color"], v["align"], v["valign"])
    out = memo.get(key)
    if out is None:
        out, clean = _layout_text(v, ctx, x, y, w, h)
        if clean:
            # kept from its second layout on: a text met once (a card's own name or rules) is
            # not held for the rest of the build, only its key's hash
            seen = memo.get(_SEEN)
            if seen is None or len(seen) > 200_000:
                seen = memo[_SEEN] = set()
            k = hash(key)
            if k in seen:
                if len(memo) > 50_000:
                    memo.clear()
                memo[key] = out
            else:
                seen.add(k)
    return list(out)


def _layout_text(v, ctx, x, y, w, h) -> tuple[list, bool]:
    """The Texts, and whether laying them out found no problem (then the same text in the same
    box lays out the same on any card)."""
    text = v["text"] or ""
    fonts = ctx.fonts
    if "*" not in text and "{" not in text:
        font = fonts[v["font"]]         # the style of unmarked text is the element's font
        if draws(font, text):
            return _layout_plain(text, font, v, ctx, x, y, w, h)
    base_bold = v["font"] in ("bold", "bolditalic")
    base_italic = v["font"] in ("italic", "bolditalic")
    f = fit(text, w, h, fonts, ctx.icons, v["size"], min(v["min_size"], v["size"]), v["leading"], base_bold,
            italic=base_italic)
    for name in f.unknown_icons:
        if name in ctx.icon_slips:
            continue        # the card's own text names it: reported at its line with the content
        # the template's own text: at the name in the template (else where the element is)
        at = ctx.where if ctx.field else positions(ctx.where, [name])[0]
        ctx.problems.error("ICON-UNKNOWN", f"{ctx.label}: unknown icon '{{{name}}}' in {ctx.what}",
                           at, hint=did_you_mean(name, ctx.icons))
    if not f.fits:
        _overflow(v, ctx, w, h)
        return [], False
    clean = not f.unknown_icons
    out = []
    lines = f.lines
    base = _top(v, y, h, f.height) + f.ascent
    known = glyphs_checked()
    for line in lines:
        if v["align"] == "center":
            cx = x + (w - line.width) / 2
        elif v["align"] == "right":
            cx = x + w - line.width
        else:
            cx = x
        # one Text per stretch of the same font and colour: spaces join their neighbours
        pending: list = []          # [x, text, font, colour]
        for run, rw in line.runs:
            if run.text == " ":
                if pending:
                    pending[1] += " "
                cx += rw
                continue
            if run.draw:         # an icon: its pictogram, an em square on the line's x-height
                if pending:
                    out.append(Text(pending[0], base, pending[1].rstrip(" "), pending[2], f.size, pending[3]))
                    pending = []
                em = f.size * PT_MM
                out.extend(draw_pictogram(run.draw, cx + rw / 2, base - em * 0.34, min(rw, em * 0.82),
                                          run.color or v["color"]))
                cx += rw
                continue
            font = fonts[run.style]
            miss = known.get((run.text, font))
            if miss is None:
                miss = missing_glyphs(run.text, font)
            if miss:
                clean = False
                ctx.problems.error("TEXT-GLYPH", f"{ctx.label}: the font {font} has no glyph for "
                                   f"{', '.join(repr(c) + f' (U+{ord(c):04X})' for c in miss)} in "
                                   f"{ctx.what}", ctx.where)
            color = run.color or v["color"]
            if pending and pending[2] == font and pending[3] == color:
                pending[1] += run.text
            else:
                if pending:
                    out.append(Text(pending[0], base, pending[1].rstrip(" "), pending[2], f.size, pending[3]))
                pending = [cx, run.text, font, color]
            cx += rw
        if pending:
            out.append(Text(pending[0], base, pending[1].rstrip(" "), pending[2], f.size, pending[3]))
        base += f.line_height
    return out, clean


def _overflow(v, ctx, w: float, h: float) -> None:
    ctx.problems.error("TEXT-OVERFLOW", f"{ctx.label}: text of {ctx.what} does not fit its "
                       f"{w:.1f} × {h:.1f} mm box even at {v['min_size']:g} pt", ctx.where,
                       hint="shorten the text, enlarge the box or lower min_size")


def _top(v, y: float, h: float, height: float) -> float:
    """Where the text block starts down its box (valign)."""
    if v["valign"] == "middle":
        return y + (h - height) / 2
    if v["valign"] == "bottom":
        return y + h - height
    return y


def _layout_plain(text: str, font: str, v, ctx, x, y, w, h) -> tuple[list, bool]:
    """:func:`_layout_text` for text without markup whose characters the font all draws: one
    font and colour, so a line is one Text (the lines, sizes and places the general path finds)."""
    out = plain_lines(text, font, ctx.fonts["regular"], v, x, y, w, h)
    if out is None:
        _overflow(v, ctx, w, h)
        return [], False
    return out, True


def plain_lines(text: str, font: str, regular: str, v: Mapping[str, Any], x: float, y: float, w: float,
                h: float) -> list | None:
    """The Texts of ``text`` (no markup, every character drawn by ``font``) fitted in the box
    (x, y, w, h) with ``v``'s size, leading, alignment and colour; None when it does not fit
    (nothing reported: the caller says TEXT-OVERFLOW, or lays the element out the general way)."""
    size, lines, step, ascent, height, fits = plain_fit(text, w, h, font, regular, v["size"],
                                                        min(v["min_size"], v["size"]), v["leading"])
    if not fits:
        return None
    base = _top(v, y, h, height) + ascent
    align, color = v["align"], v["color"]
    out: list = []
    add = out.append
    if align == "left":         # the common case: each line at x
        for line, _ in lines:
            if line:
                add(make_text(x, base, line, font, size, color))
            base += step
        return out
    for line, width in lines:
        if line:
            add(make_text(_line_x(align, x, w, width), base, line, font, size, color))
        base += step
    return out


def _line_x(align: str, x: float, w: float, width: float) -> float:
    if align == "center":
        return x + (w - width) / 2
    if align == "right":
        return x + w - width
    return x


def draw(v, ctx):
    x, y, w, h = ctx.ox(v["x"]), ctx.oy(v["y"]), v["w"], v["h"]
    out = []
    if v["fill"] or v["stroke"]:
        out.append(Rect(x, y, w, h, v["fill"], v["stroke"], 0.3, v["radius"]))
    p = v["padding"] or 0.0
    return out + layout_text(v, ctx, x + p, y + p, w - 2 * p, h - 2 * p)

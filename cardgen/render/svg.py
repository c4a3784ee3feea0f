"""Render scene pages to SVG with svgwrite (for screens and print shops).

The SVG's user unit is the millimetre (``viewBox`` in mm, ``width``/``height`` with an
``mm`` suffix), so a print shop gets the drawing true to scale. Text sizes, given in
points in the scene, become millimetres. Symbols become ``<symbol>``/``<use>``; clip
rectangles become ``<clipPath>``. Output is deterministic (ids are counters).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterable
from typing import Any

from cardgen.core import sources
from cardgen.core.lazymod import lazy
from cardgen.scene import (
    Circle,
    Clip,
    Document,
    Image,
    Line,
    Link,
    Moved,
    Page,
    Polygon,
    Rect,
    Rotate,
    Text,
    Use,
    children,
    moved,
)

mimetypes = lazy("mimetypes")    # a picture's type: only when an SVG embeds one (~0.5 ms of start-up)
svgwrite = lazy("svgwrite")      # a build writes SVG only for cut files: imported when one is drawn

PT_MM = 25.4 / 72.0


def _n(v: float) -> str:
    """A number with at most 3 decimals, no trailing zeros (stable output, small files)."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _font_attrs(name: str) -> dict:
    """CSS font attributes for a bundled font name such as ``LiberationSans-BoldItalic``."""
    family, _, style = name.partition("-")
    generic = "serif" if "Serif" in family else ("monospace" if "Mono" in family else "sans-serif")
    nice = {"LiberationSans": "Liberation Sans, Arial, Helvetica",
            "LiberationSerif": "Liberation Serif, Times New Roman, Times",
            "LiberationMono": "Liberation Mono, Courier New"}.get(family, family)
    attrs = {"font_family": f"{nice}, {generic}"}
    if "Bold" in style:
        attrs["font_weight"] = "bold"
    if "Italic" in style or "Oblique" in style:
        attrs["font_style"] = "italic"
    return attrs


class _Writer:
    def __init__(self, dwg: Any, doc: Document) -> None:
        self.dwg = dwg
        self.doc = doc
        self._clip = 0
        self._images: dict[str, str] = {}

    def paint(self, fill: str | None, stroke: str | None, width: float) -> dict:
        a = {"fill": fill or "none"}
        if stroke:
            a["stroke"] = stroke
            a["stroke_width"] = _n(width)
        return a

    def image_href(self, path: str) -> str:
        href = self._images.get(path)
        if href is None:
            data = sources.read_bytes(path, cap=sources.MAX_IMAGE_BYTES)
            mime = mimetypes.guess_type(path)[0] or "image/png"
            href = self._images[path] = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
        return href

    def draw(self, parent: Any, items: Iterable[Any]) -> None:
        dwg = self.dwg
        for it in items:
            t = type(it)
            if t is Rect:
                if it.fill is None and it.stroke is None:
                    continue
                kw = self.paint(it.fill, it.stroke, it.width)
                if it.radius:
                    kw["rx"] = kw["ry"] = _n(it.radius)
                parent.add(dwg.rect((_n(it.x), _n(it.y)), (_n(it.w), _n(it.h)), **kw))
            elif t is Line:
                kw = {"stroke": it.stroke, "stroke_width": _n(it.width)}
                if it.dash:
                    kw["stroke_dasharray"] = ",".join(_n(d) for d in it.dash)
                parent.add(dwg.line((_n(it.x1), _n(it.y1)), (_n(it.x2), _n(it.y2)), **kw))
            elif t is Circle:
                parent.add(dwg.circle((_n(it.cx), _n(it.cy)), _n(it.r), **self.paint(it.fill, it.stroke, it.width)))
            elif t is Polygon:
                parent.add(dwg.polygon([(_n(x), _n(y)) for x, y in it.points],
                                       **self.paint(it.fill, it.stroke, it.width)))
            elif t is Text:
                anchor = {"left": "start", "center": "middle", "right": "end"}[it.align]
                kw = {"insert": (_n(it.x), _n(it.y)), "font_size": _n(it.size * PT_MM), "fill": it.color,
                      **_font_attrs(it.font)}
                if anchor != "start":
                    kw["text_anchor"] = anchor
                parent.add(dwg.text(it.text, **kw))
            elif t is Image:
                parent.add(dwg.image(self.image_href(it.path), insert=(_n(it.x), _n(it.y)),
                                     size=(_n(it.w), _n(it.h))))
            elif t is Use:
                parent.add(dwg.use(f"#{_sym_id(it.name)}", insert=(_n(it.x), _n(it.y))))
            elif t is Clip:
                self._clip += 1
                cid = f"clip{self._clip}"
                cp = dwg.defs.add(dwg.clipPath(id=cid))
                cp.add(dwg.rect((_n(it.x), _n(it.y)), (_n(it.w), _n(it.h))))
                g = parent.add(dwg.g(clip_path=f"url(#{cid})"))
                self.draw(g, it.items)
            elif t is Rotate:
                g = parent.add(dwg.g(transform=f"rotate({_n(it.angle)} {_n(it.cx)} {_n(it.cy)})"))
                self.draw(g, it.items)
            elif t is Moved:
                self.draw(parent, moved(it))
            elif t is Link:
                continue
            else:  # pragma: no cover - a new primitive must be added here
                raise TypeError(t)


def _sym_id(name: str) -> str:
    return "s_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def render_page(page: Page, doc: Document | None = None) -> bytes:
    """One page as a standalone SVG document (UTF-8 bytes)."""
    doc = doc or Document(title="")
    dwg = svgwrite.Drawing(size=(f"{_n(page.w)}mm", f"{_n(page.h)}mm"), viewBox=f"0 0 {_n(page.w)} {_n(page.h)}",
                           profile="full", debug=False)
    if doc.title:
        dwg.set_desc(title=doc.title, desc=doc.subject or None)
    w = _Writer(dwg, doc)
    used = _used(page.items, doc)
    for name in used:
        sym = doc.symbols[name]
        s = dwg.symbol(id=_sym_id(name), overflow="visible")
        w.draw(s, sym.items)
        dwg.defs.add(s)
    w.draw(dwg, page.items)
    buf = io.StringIO()
    dwg.write(buf, pretty=False)
    return buf.getvalue().encode("utf-8")


def _used(items: Iterable[Any], doc: Document) -> list[str]:
    seen: dict[str, None] = {}

    def walk(its: Iterable[Any]) -> None:
        for it in its:
            if isinstance(it, Use) and it.name not in seen:
                seen[it.name] = None
                walk(doc.symbols[it.name].items)
            else:
                walk(children(it))
    walk(items)
    return list(seen)


def render(doc: Document) -> bytes:
    """The document's first page as SVG (an SVG holds one page)."""
    if not doc.pages:
        raise ValueError("an SVG needs a page to draw")
    return render_page(doc.pages[0], doc)

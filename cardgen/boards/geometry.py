"""Geometry of drawn primitives for the tiling (:mod:`cardgen.boards.tiling`): bounding boxes
(turned groups too), culling to a window, scaling for thumbnails."""

from __future__ import annotations

import math

from cardgen.core.fonts import METRICS
from cardgen.scene import Circle, Clip, Image, Line, Polygon, Rect, Rotate, Text

PT_MM = 25.4 / 72.0


def text_box(t: Text) -> tuple[float, float, float, float]:
    """Approximate bounding box (x0, y0, x1, y1) of a text primitive."""
    w = METRICS.width_mm(t.text, t.font, t.size)
    x0 = t.x - (w / 2 if t.align == "center" else w if t.align == "right" else 0.0)
    return x0, t.y - t.size * PT_MM * 0.8, x0 + w, t.y + t.size * PT_MM * 0.25


def bbox(it) -> tuple[float, float, float, float] | None:
    """Bounding box of a primitive (None: unknown, always kept)."""
    t = type(it)
    if t is Rect or t is Image or t is Clip:
        pad = getattr(it, "width", 0.0) / 2 if t is Rect else 0.0
        return it.x - pad, it.y - pad, it.x + it.w + pad, it.y + it.h + pad
    if t is Line:
        p = it.width / 2
        return min(it.x1, it.x2) - p, min(it.y1, it.y2) - p, max(it.x1, it.x2) + p, max(it.y1, it.y2) + p
    if t is Circle:
        p = it.r + it.width / 2
        return it.cx - p, it.cy - p, it.cx + p, it.cy + p
    if t is Polygon:
        xs = [x for x, _ in it.points]
        ys = [y for _, y in it.points]
        p = it.width / 2
        return min(xs) - p, min(ys) - p, max(xs) + p, max(ys) + p
    if t is Text:
        return text_box(it)
    if t is Rotate:
        return rotated_box(it)
    return None


def rotated_box(it: Rotate) -> tuple[float, float, float, float] | None:
    """Bounding box of a turned group: its children's boxes turned about its centre."""
    a = math.radians(it.angle)
    ca, sa = math.cos(a), math.sin(a)
    xs, ys = [], []
    for child in it.items:
        b = bbox(child)
        if b is None:
            return None
        for x, y in ((b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3])):
            dx, dy = x - it.cx, y - it.cy                 # clockwise on the page (y down)
            xs.append(it.cx + dx * ca - dy * sa)
            ys.append(it.cy + dx * sa + dy * ca)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def cull(items: list, x0: float, y0: float, x1: float, y1: float) -> list:
    """The primitives whose bounding box meets the rectangle."""
    out = []
    for it in items:
        b = bbox(it)
        if b is None or (b[2] >= x0 and b[0] <= x1 and b[3] >= y0 and b[1] <= y1):
            out.append(it)
    return out


def scale(items: list, k: float, dx: float = 0.0, dy: float = 0.0) -> list:
    """The primitives scaled by ``k`` about the origin, then moved by (dx, dy) (for thumbnails)."""
    out: list = []
    for it in items:
        t = type(it)
        if t is Rect:
            out.append(Rect(it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, it.fill, it.stroke, it.width * k,
                            it.radius * k))
        elif t is Line:
            out.append(Line(it.x1 * k + dx, it.y1 * k + dy, it.x2 * k + dx, it.y2 * k + dy, it.stroke,
                            it.width * k, tuple(d * k for d in it.dash)))
        elif t is Circle:
            out.append(Circle(it.cx * k + dx, it.cy * k + dy, it.r * k, it.fill, it.stroke, it.width * k))
        elif t is Polygon:
            out.append(Polygon(tuple((x * k + dx, y * k + dy) for x, y in it.points), it.fill, it.stroke,
                               it.width * k))
        elif t is Text:
            out.append(Text(it.x * k + dx, it.y * k + dy, it.text, it.font, it.size * k, it.color, it.align))
        elif t is Image:
            out.append(Image(it.path, it.x * k + dx, it.y * k + dy, it.w * k, it.h * k))
        elif t is Clip:
            out.append(Clip(it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, tuple(scale(list(it.items), k, dx, dy))))
        elif t is Rotate:
            out.append(Rotate(it.cx * k + dx, it.cy * k + dy, it.angle, tuple(scale(list(it.items), k, dx, dy))))
        else:  # Use and Link: boards draw no symbols
            raise TypeError(f"cannot scale {t.__name__}")
    return out

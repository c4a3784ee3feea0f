"""The pen pictograms are drawn with: a 100 × 100 unit box (y down) mapped onto a square of the
page, drawing the scene's primitives in the icon's ink or in the paper it stands on (cut-outs).

A pictogram is a function of a :class:`Pen`; it draws with ``ink`` and ``paper`` only, so the
same drawing serves any colour a game gives its icon.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardgen.scene import Circle, Polygon, Rect

Pt = tuple[float, float]


def arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 16) -> list[Pt]:
    """Points of an elliptical arc from angle ``a0`` to ``a1`` (degrees, 0 = right, 90 = down)."""
    return [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * k / n)),
             cy + ry * math.sin(math.radians(a0 + (a1 - a0) * k / n))) for k in range(n + 1)]


def star(cx: float, cy: float, r_out: float, r_in: float, points: int, turn: float = -90) -> list[Pt]:
    """A star of ``points`` tips around (cx, cy)."""
    out: list[Pt] = []
    for k in range(points * 2):
        r = r_out if k % 2 == 0 else r_in
        a = math.radians(turn + 180 * k / points)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def rotated(pts: Sequence[Pt], deg: float, cx: float = 50, cy: float = 50) -> list[Pt]:
    """``pts`` turned by ``deg`` degrees (clockwise on the page) around (cx, cy)."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in pts]


class Pen:
    """Draws in unit coordinates (0–100 across the square) onto ``side`` mm at (x, y)."""

    def __init__(self, x: float, y: float, side: float, ink: str, paper: str):
        self.x, self.y, self.k = x, y, side / 100.0
        self.ink, self.paper = ink, paper
        self.items: list = []

    def _c(self, paper: bool) -> str:
        return self.paper if paper else self.ink

    def _p(self, pt: Pt) -> Pt:
        return (self.x + pt[0] * self.k, self.y + pt[1] * self.k)

    def poly(self, pts: Sequence[Pt], paper: bool = False) -> None:
        self.items.append(Polygon(tuple(self._p(p) for p in pts), fill=self._c(paper)))

    def circle(self, cx: float, cy: float, r: float, paper: bool = False) -> None:
        x, y = self._p((cx, cy))
        self.items.append(Circle(x, y, r * self.k, fill=self._c(paper)))

    def ring(self, cx: float, cy: float, r: float, w: float, paper: bool = False) -> None:
        x, y = self._p((cx, cy))
        self.items.append(Circle(x, y, r * self.k, stroke=self._c(paper), width=w * self.k))

    def rect(self, x: float, y: float, w: float, h: float, paper: bool = False, radius: float = 0.0) -> None:
        px, py = self._p((x, y))
        self.items.append(Rect(px, py, w * self.k, h * self.k, fill=self._c(paper), radius=radius * self.k))

    def stroke(self, pts: Sequence[Pt], w: float, paper: bool = False, taper: bool = False) -> None:
        """A ribbon ``w`` units wide along ``pts`` (to a point at the end when ``taper``)."""
        left: list[Pt] = []
        right: list[Pt] = []
        n = len(pts)
        for i, (x, y) in enumerate(pts):
            ax, ay = pts[max(0, i - 1)]
            bx, by = pts[min(n - 1, i + 1)]
            dx, dy = bx - ax, by - ay
            d = math.hypot(dx, dy) or 1.0
            h = w / 2 * ((1 - i / (n - 1)) if taper and n > 1 else 1.0)
            nx, ny = -dy / d * h, dx / d * h
            left.append((x + nx, y + ny))
            right.append((x - nx, y - ny))
        self.poly(left + right[::-1], paper)

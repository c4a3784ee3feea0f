"""The small vector symbols token faces carry (a chain for Immobilised, a drop for poison …)."""

from __future__ import annotations

import math

from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.layout.pictograms import DRAWINGS
from cardgen.layout.pictograms import draw as draw_pictogram
from cardgen.scene import Circle, Line, Polygon, Rect

SYMBOLS = ("none", "star", "bolt", "drop", "cross", "dagger", "chain", "burst", "slashes", "shield", "crown",
           "puck", "diamond", "heart", "flag")


def _star(cx, cy, r, n=5, inner=0.45) -> list:
    pts = []
    for k in range(2 * n):
        a = -math.pi / 2 + k * math.pi / n
        rr = r if k % 2 == 0 else r * inner
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


ICON_MARK = "icon:"  # a face's symbol that is a game icon's pictogram: "icon:<drawing>"


def icon_symbol(name: str | None, game, problems: Problems, at: Loc | None) -> str | None:
    """A token face's ``icon:`` as its symbol (``icon:<drawing>``), drawn with the pictogram the
    cards draw; ICON-UNKNOWN for an icon the game lacks or that has no drawing."""
    if name is None:
        return None
    ic = game.icons.get(name)
    if ic is None or ic.draw not in DRAWINGS:
        problems.error("ICON-UNKNOWN", f"token face: unknown icon '{name}' (an icon of game.yaml with a drawing)",
                       at, hint=did_you_mean(name, [k for k, i in game.icons.items() if i.draw in DRAWINGS]))
        return None
    return ICON_MARK + ic.draw


def symbol_items(kind: str, cx: float, cy: float, s: float, ink: str, paper: str = "#ffffff") -> list:
    """A small vector symbol of size ``s`` centred on (cx, cy) (a game icon's pictogram for
    ``icon:<drawing>``, its cut-outs in ``paper``)."""
    if kind.startswith(ICON_MARK):
        return draw_pictogram(kind[len(ICON_MARK):], cx, cy, s, ink, paper)
    h = s / 2
    if kind == "star":
        return [Polygon(tuple(_star(cx, cy, h)), ink, None, 0)]
    if kind == "burst":
        return [Polygon(tuple(_star(cx, cy, h, 8, 0.55)), ink, None, 0)]
    if kind == "bolt":
        pts = [(0.15, -1), (-0.55, 0.1), (-0.05, 0.1), (-0.2, 1), (0.55, -0.15), (0.05, -0.15), (0.3, -1)]
        return [Polygon(tuple((cx + x * h, cy + y * h) for x, y in pts), ink, None, 0)]
    if kind == "drop":
        pts = [(0, -1)]
        for k in range(0, 19):
            a = math.pi * (-0.15 + 1.3 * k / 18)
            pts.append((math.cos(a) * 0.62, 0.3 + math.sin(a) * 0.62))
        return [Polygon(tuple((cx + x * h, cy + y * h) for x, y in pts), ink, None, 0)]
    if kind == "cross":
        w = 0.32
        pts = [(-w, -1), (w, -1), (w, -w), (1, -w), (1, w), (w, w), (w, 1), (-w, 1), (-w, w), (-1, w), (-1, -w),
               (-w, -w)]
        return [Polygon(tuple((cx + x * h, cy + y * h) for x, y in pts), ink, None, 0)]
    if kind == "dagger":
        pts = [(-0.12, -1), (0.12, -1), (0.12, -0.45), (0.6, -0.45), (0.6, -0.22), (0.12, -0.22), (0.12, 1),
               (-0.12, 1), (-0.12, -0.22), (-0.6, -0.22), (-0.6, -0.45), (-0.12, -0.45)]
        return [Polygon(tuple((cx + x * h, cy + y * h) for x, y in pts), ink, None, 0)]
    if kind == "chain":
        r = h * 0.42
        return [Circle(cx - r * 0.75, cy, r, None, ink, s * 0.1), Circle(cx + r * 0.75, cy, r, None, ink, s * 0.1)]
    if kind == "slashes":
        return [Line(cx + d * h * 0.55 - h * 0.45, cy + h * 0.8, cx + d * h * 0.55 + h * 0.45, cy - h * 0.8, ink,
                     s * 0.1) for d in (-1, 0, 1)]
    if kind == "shield":
        pts = [(-0.8, -0.9), (0.8, -0.9), (0.8, 0.1), (0, 1), (-0.8, 0.1)]
        return [Polygon(tuple((cx + x * h, cy + y * h) for x, y in pts), ink, None, 0),
                Line(cx - 0.1 * h, cy - 0.9 * h, cx + 0.15 * h, cy - 0.2 * h, "#ffffff", s * 0.06),
                Line(cx + 0.15 * h, cy - 0.2 * h, cx - 0.15 * h, cy + 0.3 * h, "#ffffff", s * 0.06)]
    if kind == "crown":
        pts = [(-0.9, 0.6), (-0.9, -0.6), (-0.45, -0.05), (0, -0.8), (0.45, -0.05), (0.9, -0.6), (0.9, 0.6)]
        return [Polygon(tuple((cx + x * h, cy + y * h) for x, y in pts), ink, None, 0)]
    if kind == "puck":
        return [Rect(cx - h, cy - h * 0.35, s, h * 0.7, ink, None, 0, h * 0.3),
                Line(cx - h * 0.8, cy - h * 0.05, cx + h * 0.8, cy - h * 0.05, "#888888", s * 0.04)]
    if kind == "diamond":
        return [Polygon(((cx, cy - h), (cx + h * 0.7, cy), (cx, cy + h), (cx - h * 0.7, cy)), ink, None, 0)]
    if kind == "heart":
        pts = []
        for k in range(40):
            t = 2 * math.pi * k / 40
            x = 16 * math.sin(t) ** 3
            y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
            pts.append((cx + x / 17 * h, cy + y / 17 * h))
        return [Polygon(tuple(pts), ink, None, 0)]
    if kind == "flag":
        return [Line(cx - 0.6 * h, cy - h, cx - 0.6 * h, cy + h, ink, s * 0.08),
                Polygon(((cx - 0.6 * h, cy - h), (cx + 0.8 * h, cy - 0.55 * h), (cx - 0.6 * h, cy - 0.1 * h)), ink,
                        None, 0)]
    return []

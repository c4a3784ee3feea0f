"""Wrap and shrink text to fit a box; report what cannot fit instead of clipping it.

Markup in text values: ``**bold**``, ``*italic*``, ``{icon}`` for a game icon
(e.g. ``{melee}`` → ■), a newline for a new paragraph. ``{{`` is left to Jinja.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .fonts import METRICS

_TOKEN = re.compile(r"\*\*|\*|\{([a-z0-9_]+)\}|[^*{]+|\{|\*")


@dataclass(frozen=True)
class Run:
    text: str
    style: str            # regular | bold | italic | bolditalic
    color: str | None     # None: the box's colour


@dataclass
class Line:
    runs: list[tuple[Run, float]]    # run and its width in mm
    width: float


@dataclass
class Fitted:
    size: float                       # chosen font size in pt
    lines: list[Line]
    line_height: float                # mm
    ascent: float                     # mm, of the first line
    height: float                     # mm, of the block
    fits: bool
    unknown_icons: list[str] = field(default_factory=list)


def _style(bold: bool, italic: bool) -> str:
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic",
            (True, True): "bolditalic"}[(bold, italic)]


def parse(text: str, icons: dict, base_bold: bool = False,
          base_italic: bool = False) -> tuple[list[list[list[Run]]], list[str]]:
    """Text → paragraphs → words → runs; unknown ``{icons}`` are returned by name."""
    paragraphs: list[list[list[Run]]] = []
    unknown: list[str] = []
    for para in text.split("\n"):
        bold, italic = base_bold, base_italic
        words: list[list[Run]] = []
        cur: list[Run] = []
        for m in _TOKEN.finditer(para):
            tok = m.group(0)
            if tok == "**":
                bold = not bold
                continue
            if tok == "*":
                italic = not italic
                continue
            if m.group(1) is not None:
                ic = icons.get(m.group(1))
                if ic is None:
                    unknown.append(m.group(1))
                    continue
                cur.append(Run(ic.glyph, _style(bold, italic), ic.color))
                continue
            parts = re.split(r"( +)", tok)
            for part in parts:
                if not part:
                    continue
                if part.startswith(" "):
                    if cur:
                        words.append(cur)
                        cur = []
                else:
                    cur.append(Run(part, _style(bold, italic), None))
        if cur:
            words.append(cur)
        paragraphs.append(words)
    return paragraphs, unknown


def _wrap(paragraphs, fonts: dict[str, str], size: float, width: float) -> list[Line] | None:
    """Greedy wrap at ``size``; None when a single word is wider than the box."""
    spaces = {st: METRICS.width_mm(" ", f, size) for st, f in fonts.items()}
    lines: list[Line] = []
    for words in paragraphs:
        cur: list[tuple[Run, float]] = []
        cur_w = 0.0
        for word in words:
            measured = [(r, METRICS.width_mm(r.text, fonts[r.style], size)) for r in word]
            ww = sum(w for _, w in measured)
            if ww > width + 1e-9:
                return None
            space = spaces[cur[-1][0].style] if cur else 0.0
            if cur and cur_w + space + ww > width + 1e-9:
                lines.append(Line(cur, cur_w))
                cur, cur_w = [], 0.0
            if cur:
                cur.append((Run(" ", cur[-1][0].style, None), space))
                cur_w += space
            cur.extend(measured)
            cur_w += ww
        lines.append(Line(cur, cur_w))
    return lines


def fit(text: str, width: float, height: float, fonts: dict[str, str], icons: dict, size: float,
        min_size: float, leading: float = 1.2, bold: bool = False, step: float = 0.5,
        italic: bool = False) -> Fitted:
    """The largest size from ``size`` down to ``min_size`` at which the text fits the box."""
    paragraphs, unknown = parse(text, icons, bold, italic)
    s = size
    last: Fitted | None = None
    while s >= min_size - 1e-9:
        lines = _wrap(paragraphs, fonts, s, width)
        asc = METRICS.ascent_mm(fonts["regular"], s)
        desc = METRICS.descent_mm(fonts["regular"], s)
        lh = s * leading * 25.4 / 72.0
        if lines is not None:
            h = (len(lines) - 1) * lh + asc + desc
            last = Fitted(s, lines, lh, asc, h, h <= height + 1e-9, unknown)
            if last.fits:
                return last
        s = round(s - step, 3)
    if last is None:
        last = Fitted(min_size, [], 0.0, 0.0, float("inf"), False, unknown)
    return last

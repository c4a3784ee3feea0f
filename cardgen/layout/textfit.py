"""Wrap and shrink text to fit a box; report what cannot fit instead of clipping it.

Markup in text values: ``**bold**``, ``*italic*``, ``{icon}`` for a game icon
(drawn as its pictogram when it has one, else its glyph), a newline for a new paragraph. ``{{`` is left to Jinja.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import field
from typing import Literal

from cardgen.core.fonts import METRICS, PT_MM
from cardgen.core.record import record
from cardgen.layout.pictograms import DRAWINGS

_TOKEN = re.compile(r"\*\*|\*|\{([a-z0-9_]+)\}|[^*{]+|\{|\*")


@record(frozen=True)
class Run:
    """A piece of text in one style and colour."""

    text: str
    style: str            # regular | bold | italic | bolditalic
    color: str | None     # None: the box's colour
    draw: str | None = None   # a pictogram drawn in the run's place (``text`` then only sets its width)


ICON_ROOM = "M"      # the width a drawn icon takes in a line of text: an em, near enough
_SPACE_RUNS = {st: Run(" ", st, None) for st in ("regular", "bold", "italic", "bolditalic")}
_RUNS: dict[str, dict[str, Run]] = {}      # style → word → its Run (runs are immutable: shared)
_PER_SIZE: dict[tuple, tuple] = {}         # (id of a fonts map, size) → (the map, space widths, width tables)


@record
class Line:
    """A fitted line: its runs with their widths, and its width (mm)."""

    runs: list[tuple[Run, float]]    # run and its width in mm
    width: float


@record
class Fitted:
    """Text fitted to a box: the size chosen, its lines and measures, and whether it fits."""

    size: float                       # chosen font size in pt
    lines: list[Line]
    line_height: float                # mm
    ascent: float                     # mm, of the first line
    height: float                     # mm, of the block
    fits: bool
    unknown_icons: list[str] = field(default_factory=list)
    plain: bool = False               # text without markup: each line alternates word, space, word …


def _style(bold: bool, italic: bool) -> str:
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic",
            (True, True): "bolditalic"}[(bold, italic)]


def parse(text: str, icons: dict, base_bold: bool = False,
          base_italic: bool = False) -> tuple[list[list[list[Run]]], list[str]]:
    """Text → paragraphs → words → runs; unknown ``{icons}`` are returned by name."""
    paragraphs: list[list[list[Run]]] = []
    unknown: list[str] = []
    if "*" not in text and "{" not in text:       # no markup: words are the runs
        style = _style(base_bold, base_italic)
        runs = _RUNS.setdefault(style, {})
        for para in text.split("\n"):
            paragraphs.append([[runs.get(w) or runs.setdefault(w, Run(w, style, None))]
                               for w in para.split(" ") if w])
        if len(runs) > 100_000:
            runs.clear()
        return paragraphs, unknown
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
                drawn = ic.draw if ic.draw in DRAWINGS else None
                cur.append(Run(ICON_ROOM if drawn else ic.glyph, _style(bold, italic), ic.color, drawn))
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


def _wrap(paragraphs: list[list[list[Run]]], fonts: dict[str, str], size: float, width: float,
          too_tall: Callable[[int], bool] | None = None, plain: str | None = None) -> list[Line] | None | Literal[False]:
    """Greedy wrap at ``size``; None when a single word is wider than the box, False as soon as
    ``too_tall(n)`` says that n + 1 lines cannot fit (the rest is not measured). ``plain``: every
    word is one run of this style (text without markup)."""
    width_pt = METRICS.width_pt
    key = (id(fonts), size)
    hit = _PER_SIZE.get(key)
    if hit is None or hit[0] is not fonts:
        if len(_PER_SIZE) > 10_000:
            _PER_SIZE.clear()
        hit = _PER_SIZE[key] = (fonts, {st: width_pt(" ", f, size) * PT_MM for st, f in fonts.items()},
                                {st: METRICS.table(f) for st, f in fonts.items()}, {st: {} for st in fonts})
    spaces, tables = hit[1], hit[2]
    limit = width + 1e-9
    lines: list[Line] = []
    if plain is not None:
        sized = hit[3][plain]
        if len(sized) > 100_000:
            sized.clear()
        return _wrap_plain(paragraphs, fonts[plain], size, spaces[plain], tables[plain], _SPACE_RUNS[plain], limit,
                           too_tall, sized)
    for words in paragraphs:
        cur: list[tuple[Run, float]] = []
        cur_w = 0.0
        for word in words:
            if len(word) == 1:
                r = word[0]
                w1 = tables[r.style].get(r.text)
                ww = (w1 * size if w1 is not None else width_pt(r.text, fonts[r.style], size)) * PT_MM
                measured: list | tuple = ((r, ww),)
            else:
                measured = [(r, width_pt(r.text, fonts[r.style], size) * PT_MM) for r in word]
                ww = sum(w for _, w in measured)
            if ww > limit:
                return None
            if cur:
                style = cur[-1][0].style
                space = spaces[style]
                if cur_w + space + ww > limit:
                    lines.append(Line(cur, cur_w))
                    if too_tall is not None and too_tall(len(lines)):
                        return False
                    cur, cur_w = [], 0.0
                else:
                    cur.append((_SPACE_RUNS[style], space))
                    cur_w += space
            cur.extend(measured)
            cur_w += ww
        lines.append(Line(cur, cur_w))
    return lines


def _wrap_plain(paragraphs, font: str, size: float, space: float, table: dict, space_run: Run, limit: float,
                too_tall: Callable[[int], bool] | None, sized: dict[str, float]) -> list[Line] | None | Literal[False]:
    """:func:`_wrap` for words of one run each, all in one style (``paragraphs``: lists of those
    runs): the same lines, the same sums. ``sized``: word → its width in mm at this font and size,
    as measured before."""
    width_pt = METRICS.width_pt
    lines: list[Line] = []
    for words in paragraphs:
        cur: list[tuple[Run, float]] = []
        cur_w = 0.0
        for r in words:
            ww = sized.get(r.text)
            if ww is None:
                w1 = table.get(r.text)
                ww = sized[r.text] = (w1 * size if w1 is not None else width_pt(r.text, font, size)) * PT_MM
            if ww > limit:
                return None
            if cur:
                if cur_w + space + ww > limit:
                    lines.append(Line(cur, cur_w))
                    if too_tall is not None and too_tall(len(lines)):
                        return False
                    cur, cur_w = [], 0.0
                else:
                    cur.append((space_run, space))
                    cur_w += space
            cur.append((r, ww))
            cur_w += ww
        lines.append(Line(cur, cur_w))
    return lines


def fit(text: str, width: float, height: float, fonts: dict[str, str], icons: dict, size: float,
        min_size: float, leading: float = 1.2, bold: bool = False, step: float = 0.5,
        italic: bool = False) -> Fitted:
    """The largest size from ``size`` down to ``min_size`` at which the text fits the box."""
    plain = _style(bold, italic) if "*" not in text and "{" not in text else None
    if plain is not None:               # as parse splits it, each word its run (not a list of one)
        runs = _RUNS.setdefault(plain, {})
        if len(runs) > 100_000:
            runs.clear()
        paragraphs: list = [[runs.get(w) or runs.setdefault(w, Run(w, plain, None)) for w in para.split(" ") if w]
                            for para in text.split("\n")]
        unknown: list[str] = []
    else:
        paragraphs, unknown = parse(text, icons, bold, italic)
    s = size
    last: Fitted | None = None
    while s >= min_size - 1e-9:
        asc = METRICS.ascent_mm(fonts["regular"], s)
        desc = METRICS.descent_mm(fonts["regular"], s)
        lh = s * leading * 25.4 / 72.0

        def too_tall(n: int, lh: float = lh, asc: float = asc, desc: float = desc) -> bool:
            return n * lh + asc + desc > height + 1e-9

        lines = _wrap(paragraphs, fonts, s, width, too_tall, plain)
        if lines:
            h = (len(lines) - 1) * lh + asc + desc
            last = Fitted(s, lines, lh, asc, h, h <= height + 1e-9, unknown, plain is not None)
            if last.fits:
                return last
        s = round(s - step, 3)
    if last is None:
        last = Fitted(min_size, [], 0.0, 0.0, float("inf"), False, unknown)
    return last


_SIZED: dict[tuple[str, float], tuple[float, dict[str, float]]] = {}   # (font, size) → (space, word → width mm)
_AT_SIZE: dict[tuple[str, float, float], tuple[float, float, float]] = {}   # (font, size, leading) → ascent,
#                                                                              descent, line height (mm)


@record
class PlainFitted:
    """:class:`Fitted` for text without markup in one font: each line its words joined by spaces."""

    size: float
    lines: list[tuple[str, float]]    # (the line's text, its width in mm)
    line_height: float
    ascent: float
    height: float
    fits: bool


def fit_plain(text: str, width: float, height: float, font: str, regular: str, size: float, min_size: float,
              leading: float = 1.2, step: float = 0.5) -> PlainFitted:
    """:func:`fit` for text without markup (no ``*``, no ``{``) set in ``font`` (``regular``: the
    font whose ascent and descent space the lines): the same size, line breaks and widths (the
    same sums in the same order), without a run per word. Each word is measured once per (font,
    size); a size stops at the first line too many."""
    return PlainFitted(*plain_fit(text, width, height, font, regular, size, min_size, leading, step))


PlainFit = tuple[float, list[tuple[str, float]], float, float, float, bool]


def plain_fit(text: str, width: float, height: float, font: str, regular: str, size: float, min_size: float,
              leading: float = 1.2, step: float = 0.5) -> PlainFit:
    """:func:`fit_plain`'s fields as a tuple (size, lines, line height, ascent, height, fits), no
    record made: the text element's hot path (a card's rules text, title and footer)."""
    if text and "\n" not in text and "  " not in text and text[0] != " " and text[-1] != " ":
        paras = [text.split(" ")]       # one paragraph, no empty word: split as it is
    else:
        paras = [[w for w in para.split(" ") if w] for para in text.split("\n")]
    limit = width + 1e-9
    room = height + 1e-9
    s = size
    last: PlainFit | None = None
    while s >= min_size - 1e-9:
        at = _AT_SIZE.get((regular, s, leading))
        if at is None:
            if len(_AT_SIZE) > 10_000:
                _AT_SIZE.clear()
            at = _AT_SIZE[(regular, s, leading)] = (METRICS.ascent_mm(regular, s), METRICS.descent_mm(regular, s),
                                                    s * leading * 25.4 / 72.0)
        asc, desc, lh = at
        breaks = _breaks(paras, font, s, limit, lh, asc, desc, room)
        if breaks:
            h = (len(breaks) - 1) * lh + asc + desc
            lines = [(" ".join(ws[i:j]), w) for ws, i, j, w in breaks]
            last = (s, lines, lh, asc, h, h <= room)
            if h <= room:
                return last
        s = round(s - step, 3)
    if last is None:
        last = (min_size, [], 0.0, 0.0, float("inf"), False)
    return last


def _breaks(paras: list[list[str]], font: str, size: float, limit: float, lh: float, asc: float, desc: float,
            room: float) -> list[tuple[list[str], int, int, float]] | None:
    """Greedy line breaks at ``size`` as :func:`_wrap_plain` finds them: (words, first, end, width)
    per line; None when a word is wider than the box or as soon as one line too many is found."""
    key = (font, size)
    hit = _SIZED.get(key)
    if hit is None:
        if len(_SIZED) > 10_000:
            _SIZED.clear()
        hit = _SIZED[key] = (METRICS.width_pt(" ", font, size) * PT_MM, {})
    space, sized = hit
    if len(sized) > 100_000:
        sized.clear()
    table = METRICS.table(font)
    width_pt = METRICS.width_pt
    get = sized.get
    out: list[tuple[list[str], int, int, float]] = []
    for ws in paras:
        first = 0
        cur_w = -1.0            # the line's width so far (-1: no word on it yet)
        for k, word in enumerate(ws):
            ww = get(word)
            if ww is None:
                w1 = table.get(word)
                ww = sized[word] = (w1 * size if w1 is not None else width_pt(word, font, size)) * PT_MM
            if ww > limit:
                return None
            if cur_w < 0.0:     # the line's first word: 0.0 + ww is ww
                cur_w = ww
                continue
            with_it = cur_w + space + ww        # (cur_w + space) + ww: the sum in its order
            if with_it > limit:
                out.append((ws, first, k, cur_w))
                if len(out) * lh + asc + desc > room:     # too_tall's sum, in its order
                    return None
                first, cur_w = k, ww
            else:
                cur_w = with_it
        out.append((ws, first, len(ws), max(cur_w, 0.0)))
    return out

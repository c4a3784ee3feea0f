"""Bundled fonts (Liberation, SIL OFL 1.1): registration, metrics and glyph coverage.

Text is measured here once per (font, word) and scaled by size, so layout never asks
for the width of the same word twice.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.core.fontface import ttfont

FONT_DIR = Path(__file__).parent.parent / "fonts"
PT_MM = 25.4 / 72.0
BASE_FONT = "LiberationSans-Regular"


def available() -> list[str]:
    return sorted(p.stem for p in FONT_DIR.glob("*.ttf"))


@cache
def font(name: str) -> TTFont:
    """Register (once) and return a bundled TrueType font; KeyError when not bundled."""
    path = FONT_DIR / f"{name}.ttf"
    if not path.exists():
        raise KeyError(name)
    f = ttfont(name, str(path))        # reportlab's TTFont, its face's tables read whole
    pdfmetrics.registerFont(f)
    return f


@cache
def base_font() -> str:
    """Make a bundled font every new reportlab canvas's and drawing's initial font (reportlab's default,
    Helvetica, would be referenced by every page and embedded by none — a preflight flags it);
    call before making a canvas or a platypus document."""
    font(BASE_FONT)
    rl_config.canvas_basefontname = BASE_FONT
    rl_config.defaultGraphicsFontName = BASE_FONT       # an SVG picture's initial font (renderPDF)
    return BASE_FONT


@cache
def charset(name: str) -> frozenset[int]:
    return frozenset(font(name).face.charToGlyph)


@cache
def drawable(name: str) -> frozenset[str]:
    """The characters the font draws, with the white space text is split at or
    :func:`missing_glyphs` lets pass: a text made of these misses no glyph."""
    return frozenset(map(chr, charset(name))) | frozenset(" \n\t\r")


_DRAWS_ASCII: dict[str, bool] = {}      # font → whether it draws every printable ASCII character


def draws(name: str, text: str) -> bool:
    """``drawable(name).issuperset(text)``: whether the font draws every character of ``text``.
    For printable ASCII text (``isascii`` reads a flag; ``isprintable`` tests each character in
    a third of what a set look-up costs) in a font that draws all of it, without the set: a
    card's rules text, 5,400 times."""
    if text.isascii() and text.isprintable():
        every = _DRAWS_ASCII.get(name)
        if every is None:           # (drawable(name) >= _PRINTABLE_ASCII, without making the set)
            cmap = font(name).face.charToGlyph
            every = _DRAWS_ASCII[name] = all(c == 0x20 or c in cmap for c in range(0x20, 0x7F))
        if every:
            return True
    return drawable(name).issuperset(text)


_MISSING: dict[tuple[str, str], str] = {}


def glyphs_checked() -> dict[tuple[str, str], str]:
    """(text, font) → :func:`missing_glyphs`' answer, for the texts checked so far (a hot loop's
    shortcut: look here first)."""
    return _MISSING


def missing_glyphs(text: str, name: str) -> str:
    """The characters of ``text`` the font cannot draw (newlines and tabs aside); remembered
    per (text, font), as cards repeat their words."""
    key = (text, name)
    miss = _MISSING.get(key)
    if miss is None:
        cs = charset(name)
        miss = "".join(sorted({ch for ch in text if ord(ch) not in cs and ch not in "\n\t\r"}))
        if len(_MISSING) > 100_000:
            _MISSING.clear()
        _MISSING[key] = miss
    return miss


class Metrics:
    """Width of text at size 1 pt, cached per (font, text); sizes scale linearly."""

    def __init__(self) -> None:
        self._w: dict[str, dict[str, float]] = {}

    def table(self, name: str) -> dict[str, float]:
        """text → width at 1 pt in font ``name``, for the texts measured so far (a hot loop's
        shortcut: look here first, then call :meth:`width_pt`)."""
        t = self._w.get(name)
        if t is None:
            font(name)
            t = self._w[name] = {}
        return t

    def width_pt(self, text: str, name: str, size: float) -> float:
        t = self._w.get(name) or self.table(name)
        w = t.get(text)
        if w is None:
            w = t[text] = pdfmetrics.stringWidth(text, name, 1.0)
        return w * size

    def width_mm(self, text: str, name: str, size: float) -> float:
        return self.width_pt(text, name, size) * PT_MM

    @staticmethod
    def ascent_mm(name: str, size: float) -> float:
        return font(name).face.ascent / 1000.0 * size * PT_MM

    @staticmethod
    def descent_mm(name: str, size: float) -> float:
        return -font(name).face.descent / 1000.0 * size * PT_MM


METRICS = Metrics()

"""A TrueType face read as reportlab reads it, its per-glyph tables unpacked whole.

reportlab's ``TTFontFile.extractInfo`` reads a font's character map, advance widths and glyph
offsets two or four bytes at a time (a slice and a ``struct.unpack`` each): for the bundled
Liberation fonts, 2,600 glyphs each, the two a card sheet uses cost ~45 million instructions more
than this reading (3 % of a 540-card build; the floor's Vera has 268 glyphs). :class:`Face` lets reportlab
read everything else (names, head, OS/2, post, hhea, maxp: a few dozen numbers), then reads the
character map when it is format 4 (every bundled font's), the horizontal metrics and the glyph
offsets with one ``unpack_from`` each, and fills the same tables in the same order, the same
numbers to the bit: ``charToGlyph``, ``glyphToChar``, ``charWidths``, ``defaultWidth``,
``hmetrics`` (a glyph past the metrics' count with the last advance *scaled*, as reportlab
leaves it) and ``glyphPos``. Any other font — another character map format, a table missing or
short — is read by reportlab's own code, all of it. ``tests/test_fontface.py`` compares the two
readings of every bundled font, attribute by attribute.

:func:`ttfont` makes reportlab's ``TTFont`` with this face: ``TTFont.__init__`` makes its face
from ``ttfonts.TTFontFace``, which names :class:`Face` while the font is made.
"""

from __future__ import annotations

import threading
from struct import error as StructError  # noqa: N812 - struct's own name for it
from struct import unpack_from
from typing import Any

from reportlab.pdfbase import ttfonts

_MAKING = threading.Lock()      # ttfonts.TTFontFace names Face while one font is made
_PLAIN = ttfonts.TTFontFace


class Face(ttfonts.TTFontFace):
    """reportlab's ``TTFontFace``, its per-glyph tables read whole (see the module)."""

    def extractInfo(self, charInfo: Any = 1) -> None:  # noqa: N802, N803 - reportlab's names
        super().extractInfo(0)          # everything but the per-glyph tables
        if not charInfo:
            return
        try:
            read = self._tables()
        except (StructError, KeyError, IndexError):
            read = False
        if not read:
            super().extractInfo(charInfo)   # reportlab's reading, all of it

    def _tables(self) -> bool:
        """The character map (format 4), metrics and glyph offsets as reportlab's ``extractInfo``
        reads them; False (nothing kept) for anything else."""
        data = self._ttf_data
        table = self.table
        if "loca" not in table or "hmtx" not in table:
            return False
        head = table["head"]["offset"]
        index_to_loc, glyph_data_format = unpack_from(">HH", data, head + 50)
        (n_metrics,) = unpack_from(">H", data, table["hhea"]["offset"] + 34)
        n_glyphs = self.numGlyphs
        if glyph_data_format != 0 or index_to_loc not in (0, 1) or n_metrics == 0 or n_metrics > n_glyphs:
            return False
        mapped = _cmap4(data, table["cmap"]["offset"])
        if mapped is None:
            return False
        char_to_glyph: dict[int, int] = {}
        glyph_to_char: dict[int, list[int]] = {}
        for u, g in mapped:
            char_to_glyph[u] = g
            glyph_to_char.setdefault(g, []).append(u)
        metrics = unpack_from(f">{2 * n_metrics}H", data, table["hmtx"]["offset"])
        rest = unpack_from(f">{n_glyphs - n_metrics}H", data, table["hmtx"]["offset"] + 4 * n_metrics)
        loca = table["loca"]["offset"]
        if index_to_loc == 0:
            glyph_pos = [v << 1 for v in unpack_from(f">{n_glyphs + 1}H", data, loca)]
        else:
            glyph_pos = list(unpack_from(f">{n_glyphs + 1}L", data, loca))
        advances = metrics[0::2]
        widths = list(map(self._pdfScale, advances))    # reportlab's scaling, its own function
        hmetrics: list[tuple[Any, int]] = list(zip(advances, metrics[1::2]))
        hmetrics += [(widths[-1], lsb) for lsb in rest]     # the last advance, scaled, as reportlab keeps it
        widths += [widths[-1]] * len(rest)
        char_widths: dict[int, Any] = {}
        for glyph in sorted(glyph_to_char):     # (reportlab's order: glyph by glyph, each one's characters)
            if glyph < n_glyphs:
                w = widths[glyph]
                for char in glyph_to_char[glyph]:
                    char_widths[char] = w
        default_width = widths[0]
        if 0x20 in char_to_glyph:
            char_to_glyph[0xA0] = char_to_glyph[0x20]
            char_widths[0xA0] = char_widths[0x20]
        elif 0xA0 in char_to_glyph:
            char_to_glyph[0x20] = char_to_glyph[0xA0]
            char_widths[0x20] = char_widths[0xA0]
        self.charToGlyph, self.glyphToChar, self.charWidths = char_to_glyph, glyph_to_char, char_widths
        self.hmetrics, self.glyphPos, self.defaultWidth = hmetrics, glyph_pos, default_width
        return True


def _cmap4(data: bytes, cmap: int) -> list[tuple[int, int]] | None:
    """The character map reportlab's ``extractInfo`` chooses (the last of its encodings it takes),
    read when it is format 4: (character, glyph) for each character of each segment in order, the
    glyph as reportlab works it out; None for any other format."""
    found = _chosen(data, cmap)
    if found is None:
        return None
    at = cmap + found
    fmt, length, _, seg2 = unpack_from(">HHHH", data, at)
    if fmt != 4:
        return None
    limit = at + length
    seg = int(seg2 / 2.0)
    ends = unpack_from(f">{seg}H", data, at + 14)
    starts = unpack_from(f">{seg}H", data, at + 16 + 2 * seg)
    deltas = unpack_from(f">{seg}h", data, at + 16 + 4 * seg)
    ranges_at = at + 16 + 6 * seg
    ranges = unpack_from(f">{seg}H", data, ranges_at)
    out: list[tuple[int, int]] = []
    add = out.append
    for n in range(seg):
        start, delta, ro = starts[n], deltas[n], ranges[n]
        if ro == 0:
            for u in range(start, ends[n] + 1):
                add((u, (u + delta) & 0xFFFF))
            continue
        for u in range(start, ends[n] + 1):
            offset = ranges_at + 2 * n + (u - start) * 2 + ro
            if offset >= limit:         # reportlab's guard for broken fonts
                add((u, 0))
                continue
            (g,) = unpack_from(">H", data, offset)
            add((u, (g + delta) & 0xFFFF if g != 0 else 0))
    return out


def _chosen(data: bytes, cmap: int) -> int | None:
    """The offset of the character map's subtable reportlab's ``extractInfo`` takes (the last of
    its encodings it takes), from the table's start; None when it takes none."""
    version, count = unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:
        count = version
    found = None
    enc = 0
    for n in range(count):
        platform, encoding, offset = unpack_from(">HHL", data, cmap + 4 + 8 * n)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            enc, found = 1, offset
        elif platform == 1 and encoding == 0 and enc != 1:
            enc, found = 2, offset
    return found


def ttfont(name: str, path: str) -> ttfonts.TTFont:
    """reportlab's ``TTFont(name, path)``, its face a :class:`Face`."""
    with _MAKING:
        ttfonts.TTFontFace = Face           # type: ignore[misc]
        try:
            return ttfonts.TTFont(name, path)
        finally:
            ttfonts.TTFontFace = _PLAIN     # type: ignore[misc]

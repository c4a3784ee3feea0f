"""core/fontface.Face reads a bundled font as reportlab's TTFontFace reads it: every attribute the
same, to the bit and in the same order (the per-glyph tables unpacked whole); a font whose
character map is not format 4 is read by reportlab's own code."""

from __future__ import annotations

import io
import struct

import pytest
from reportlab.pdfbase import ttfonts

from cardgen.core import fontface, fonts

NAMES = fonts.available()


def _seen(face) -> dict:
    out = {}
    for k, v in vars(face).items():
        if k in ("_pdfScale", "_pos"):
            continue
        out[k] = list(v.items()) if isinstance(v, dict) else v      # dicts: their order too
    return out


@pytest.mark.parametrize("name", NAMES)
def test_face_reads_as_reportlab_reads(name):
    path = str(fonts.FONT_DIR / f"{name}.ttf")
    plain, fast = ttfonts.TTFontFace(path), fontface.Face(path)
    assert _seen(fast) == _seen(plain) and fast._tables()         # (read here, not by reportlab)
    assert [type(w) for w in fast.charWidths.values()] == [type(w) for w in plain.charWidths.values()]
    assert fast.makeSubset(list(range(32, 127))) == plain.makeSubset(list(range(32, 127)))


def test_ttfont_has_the_face_and_leaves_reportlab_as_it_was():
    font = fontface.ttfont("LiberationSans-Regular-t", str(fonts.FONT_DIR / "LiberationSans-Regular.ttf"))
    assert type(font) is ttfonts.TTFont and type(font.face) is fontface.Face
    assert ttfonts.TTFontFace is not fontface.Face and font.fontName == "LiberationSans-Regular-t"


def test_another_cmap_format_is_read_by_reportlab():
    """A copy of a bundled font whose chosen character map is made to say format 6: no table is
    read here (reportlab's reading then fails on it or not, as it does for the plain face)."""
    data = bytearray((fonts.FONT_DIR / "LiberationSans-Regular.ttf").read_bytes())
    n = struct.unpack_from(">H", data, 4)[0]
    tables = {bytes(data[12 + 16 * i:16 + 16 * i]): struct.unpack_from(">L", data, 20 + 16 * i)[0]
              for i in range(n)}
    cmap = tables[b"cmap"]
    assert fontface._cmap4(bytes(data), cmap) is not None
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    last = struct.unpack_from(">L", data, cmap + 4 + 8 * (count - 1) + 4)[0]
    struct.pack_into(">H", data, cmap + last, 6)
    assert fontface._cmap4(bytes(data), cmap) is None
    seen = []
    for face in (ttfonts.TTFontFace, fontface.Face):
        try:
            seen.append(_seen(face(io.BytesIO(bytes(data)))))
        except Exception as e:  # noqa: BLE001 - the outcome is what is compared
            seen.append(repr(e))
    assert seen[0] == seen[1]

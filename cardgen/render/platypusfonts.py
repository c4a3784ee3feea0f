"""The bundled font families for reportlab's flowing text (rulebooks, card lists, preset sheets).

Registered once per process, they also stand wherever reportlab would fall back on Helvetica (a
table cell's text): every font a PDF names is embedded.
"""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.platypus import tables as _tables

from cardgen.core import fonts

SERIF = {"normal": "LiberationSerif-Regular", "bold": "LiberationSerif-Bold", "italic": "LiberationSerif-Italic",
         "boldItalic": "LiberationSerif-Bold"}
SANS = {"normal": "LiberationSans-Regular", "bold": "LiberationSans-Bold", "italic": "LiberationSans-Italic",
        "boldItalic": "LiberationSans-BoldItalic"}


def register_fonts() -> None:
    """The bundled fonts, and a bundled font wherever reportlab would fall back on Helvetica
    (a canvas's initial font, a table cell's text): every font a PDF names is embedded."""
    _tables.CellStyle.fontname = fonts.base_font()
    for fam, names in (("LiberationSerif", SERIF), ("LiberationSans", SANS)):
        for n in set(names.values()):
            fonts.font(n)
        registerFontFamily(fam, **names)

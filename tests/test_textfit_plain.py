"""fit_plain, the text element's path for text without markup, against the general fit: the same
size, line breaks, widths and heights, to the last bit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.content.fontroles import FONT_ROLES
from cardgen.layout.textfit import fit, fit_plain

WORDS = st.sampled_from(["a", "the", "Hit", "hard.", "Draw", "two", "cards;", "discard", "one", "WWWWWW",
                         "extraordinarily", "+2", "", " ", "\n", "é", "—"])


def _same(text: str, w: float, h: float, style: str, size: float, min_size: float, leading: float) -> None:
    bold, italic = style in ("bold", "bolditalic"), style in ("italic", "bolditalic")
    g = fit(text, w, h, FONT_ROLES, {}, size, min_size, leading, bold, italic=italic)
    p = fit_plain(text, w, h, FONT_ROLES[style], FONT_ROLES["regular"], size, min_size, leading)
    assert (p.fits, p.size) == (g.fits, g.size)
    if g.fits:
        assert (p.line_height, p.ascent, p.height) == (g.line_height, g.ascent, g.height)
        assert p.lines == [(" ".join(r.text for r, _ in line.runs[::2]), line.width) for line in g.lines]


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=60).map(" ".join), st.floats(3, 80), st.floats(2, 60),
       st.sampled_from(["regular", "bold", "italic", "bolditalic"]), st.sampled_from([6.0, 8.0, 11.0, 14.5]),
       st.sampled_from([2.0, 5.5, 6.0]), st.sampled_from([0.8, 1.0, 1.19, 1.2, 2.0]))
def test_fit_plain_is_fit(text, w, h, style, size, min_size, leading):
    _same(text, w, h, style, size, min_size, leading)


def test_fit_plain_examples():
    rules = "Deal 3 damage to a unit. If it dies, draw a card and gain two coins at the end of the turn " * 2
    for w, h in ((47, 31), (47, 12), (20, 40), (5, 5), (47, 1)):
        _same(rules, w, h, "regular", 8, 6, 1.19)
    _same("", 10, 10, "bold", 8, 6, 1.2)
    _same("one\n\ntwo  three", 30, 20, "italic", 8, 6, 1.2)

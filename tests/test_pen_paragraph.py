"""A paragraph's lines in a moved card side (left-aligned running text in one font, size and colour)
are written together (``TextOps.paragraph``): the same PDF bytes as writing them one by one with
``TextOps.show``, whatever the lines are (ASCII or not, short or long, colours and fonts changing
between them, steps whose relative moves are exact or not) and wherever the sides stand."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.render import pdftext
from cardgen.render.pdf import render
from cardgen.scene import Clip, Document, Moved, Page, Rect, Text

_WORDS = ["Draw", "two cards", "then discard one of them", "Ätherfeld", "x" * 17, "attack",
          "at the end of your turn gain", "(a note)", "back\\slash"]
_LINE = st.tuples(st.sampled_from(_WORDS), st.sampled_from(_WORDS),
                  st.sampled_from(["#000000", "#000000", "#aa0000"]),
                  st.sampled_from(["LiberationSans-Regular", "LiberationSans-Regular",
                                   "LiberationSans-Bold"]),
                  st.sampled_from(["left", "left", "left", "center"]))


def _doc(sides: list[list[tuple]], step: float, per_page: int) -> Document:
    doc = Document("t")
    for k in range(0, len(sides), per_page):
        page = Page(210, 297)
        for slot, lines in enumerate(sides[k:k + per_page]):
            x, y = 3 + (slot % 2) * 70, 3 + (slot // 2) * 95
            items: list = [Rect(3, 3, 60, 10, fill="#ddeeff"), Text(6, 9, "Title", "LiberationSans-Bold", 10)]
            for n, (a, b, colour, font, align) in enumerate(lines):
                items.append(Text(6, 20 + n * step, f"{a} {b}", font, 8, colour, align))
            page.items.append(Clip(x + 0.5, y + 0.5, 68, 93, (Moved(x - 3, y - 3, items),)))
        doc.pages.append(page)
    return doc


def _both(sides: list[list[tuple]], step: float, per_page: int) -> tuple[bytes, bytes, int]:
    """The document rendered with paragraphs written together and one line at a time; how many
    lines went together."""
    together = pdftext.TextOps.paragraph
    count = [0]

    def counted(self: pdftext.TextOps, *a: Any) -> int:
        n = together(self, *a)
        count[0] += n
        return n
    with pytest.MonkeyPatch.context() as m:
        m.setattr(pdftext.TextOps, "paragraph", counted)
        joined = render(_doc(sides, step, per_page))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(pdftext.TextOps, "paragraph", lambda self, *a: 0)
        alone = render(_doc(sides, step, per_page))
    return joined, alone, count[0]


def test_rules_text_on_repeated_slots_goes_together():
    lines = [("then discard one of them", "attack", "#000000", "LiberationSans-Regular", "left")] * 5
    joined, alone, together = _both([lines] * 12, 3.5278, 4)
    assert joined == alone and together > 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(_LINE, min_size=0, max_size=7), min_size=1, max_size=10),
       st.sampled_from([3.5278, 3.3, 2.9999999, 10 / 3]), st.integers(1, 4))
def test_any_paragraphs_write_the_same_bytes(sides, step, per_page):
    joined, alone, _ = _both(sides, step, per_page)
    assert joined == alone

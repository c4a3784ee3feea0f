"""A clipped card side that only places a form (a shared back) writes, at a place where one was
placed before, the operators it wrote there (``Pen.clipped``): the same PDF bytes as drawing it
each time, whatever stands around it (texts, rects, turned backs, other forms)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.render import pen as penmod
from cardgen.render.pdf import render
from cardgen.scene import Clip, Document, Moved, Page, Rect, Rotate, Symbol, Text, Use


class _Forgetful(dict):
    """A memo that keeps nothing: every side drawn the general way."""

    def __setitem__(self, key: Any, value: Any) -> None:
        return None


def _doc(sides: list[tuple[str, int, bool]], per_page: int = 4) -> Document:
    symbols = {name: Symbol(name, 69, 94, [Rect(0, 0, 69, 94, fill=colour),
                                           Text(5, 20, name, "LiberationSans-Bold", 12)])
               for name, colour in (("back", "#224466"), ("other", "#884422"))}
    doc = Document("t", symbols=symbols)
    for k in range(0, len(sides), per_page):
        page = Page(210, 297)
        for slot, (kind, _, turn) in enumerate(sides[k:k + per_page]):
            x, y = 3 + (slot % 2) * 70, 3 + (slot // 2) * 95
            if kind == "text":
                items: list = [Rect(3, 3, 20, 10, fill="#aa0000"),
                               Text(4, 10, f"card {k + slot}", "LiberationSans-Regular", 8)]
            else:
                items = [Use(kind, 0.0, 0.0)]
            side = Clip(x + 0.5, y + 0.5, 68, 93, (Moved(x - 3, y - 3, items),))
            page.items.append(Rotate(x + 34.5, y + 47, 180.0, (side,)) if turn else side)
        page.items.append(Text(100, 290, "page", "LiberationSans-Regular", 6))
        doc.pages.append(page)
    return doc


def _render_both(doc_of: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes, int]:
    """The document rendered with the memo and without; how many places the memo kept."""
    init = penmod.Pen.__init__
    pens: list[penmod.Pen] = []

    def noted(self: penmod.Pen, *a: Any) -> None:
        init(self, *a)
        pens.append(self)
    with monkeypatch.context() as m:
        m.setattr(penmod.Pen, "__init__", noted)
        kept = render(doc_of())

    def forgetful(self: penmod.Pen, *a: Any) -> None:
        init(self, *a)
        self._placed = _Forgetful()
    with monkeypatch.context() as m:
        m.setattr(penmod.Pen, "__init__", forgetful)
        drawn = render(doc_of())
    return kept, drawn, len(pens[0]._placed)


def test_backs_at_repeated_slots_write_the_same_bytes(monkeypatch):
    sides = [("back", 0, False)] * 10 + [("text", 0, False), ("back", 0, False)] * 5 \
        + [("other", 0, True)] * 6
    kept, drawn, places = _render_both(lambda: _doc(sides), monkeypatch)
    assert kept == drawn and places == 4 + 4      # the four slots of the back, of the other (turned)


_SIDE = st.tuples(st.sampled_from(["back", "other", "text"]), st.just(0), st.booleans())


@settings(max_examples=15, deadline=None)
@given(st.lists(_SIDE, min_size=1, max_size=20), st.integers(1, 4))
def test_any_mix_of_sides_writes_the_same_bytes(sides, per_page):
    with pytest.MonkeyPatch.context() as mp:
        kept, drawn, _ = _render_both(lambda: _doc(sides, per_page), mp)
    assert kept == drawn

"""fonts.draws(name, text) answers as drawable(name).issuperset(text): printable ASCII text by its
flags in a font that draws all of it, anything else (controls, line breaks, other characters, a
font missing an ASCII glyph) by the set."""

from __future__ import annotations

import random
import types

import pytest

from cardgen.core import fonts

_CHARS = [chr(c) for c in range(0x7F)] + ["\x7f", "é", "—", "ß", "😀", "\u00a0", "日", "\u2028",
                                          "\ufffd"]


@pytest.mark.parametrize("name", ["LiberationSans-Regular", "LiberationSerif-Bold"])
def test_draws_is_the_set_test(name):
    rng = random.Random(34)
    texts = ["", " ", "Draw two cards.", "a\nb", "tab\there", "x\x01", "\x7f", "Déjà vu", "#12"]
    texts += ["".join(rng.choice(_CHARS if rng.random() < 0.3 else _CHARS[0x20:0x7F])
                      for _ in range(rng.randrange(30))) for _ in range(400)]
    for text in texts:
        assert fonts.draws(name, text) == fonts.drawable(name).issuperset(text), repr(text)


def test_a_font_without_an_ascii_glyph_is_asked_by_the_set(monkeypatch):
    real = fonts.font("LiberationSans-Regular")
    cmap = {c: g for c, g in real.face.charToGlyph.items() if c != ord("q")}
    lacking = fonts.drawable("LiberationSans-Regular") - {"q"}
    face = types.SimpleNamespace(charToGlyph=cmap)
    monkeypatch.setattr(fonts, "font", lambda name: types.SimpleNamespace(face=face))
    monkeypatch.setattr(fonts, "drawable", lambda name: lacking)
    monkeypatch.setattr(fonts, "_DRAWS_ASCII", {})
    assert fonts.draws("x", "plain text") and not fonts.draws("x", "quite") and not fonts.draws("x", "q")
    assert fonts._DRAWS_ASCII == {"x": False}

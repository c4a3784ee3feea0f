"""The drawing verbs are one typed table (issue 34): every kind of ``KINDS`` is an
:class:`ElementKind` — its options, ``draw``, the sizes its text prints at — so the layout and the
legibility floor call a kind through the table and never switch on its name."""

from __future__ import annotations

import ast
import importlib

import pytest

from cardgen.layout.elements import KINDS
from cardgen.layout.elements.base import ElementKind, no_text
from tests.conftest import ROOT


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_is_an_element_kind(name: str) -> None:
    module = importlib.import_module(f"cardgen.layout.elements.{name}")
    assert isinstance(module, ElementKind)
    assert isinstance(module.TEXT_BOUNDED, bool)
    assert all(isinstance(k, str) for k in module.SPEC)


def test_the_text_sizes_of_each_kind() -> None:
    text = importlib.import_module("cardgen.layout.elements.text")
    assert text.text_sizes({"size": 9, "min_size": 5}) == [("min_size", 5.0, "text may shrink to")]
    assert text.text_sizes({"size": 9, "min_size": 9}) == [("size", 9.0, "text is set at")]
    badge = importlib.import_module("cardgen.layout.elements.badge")
    assert badge.text_sizes({"value": "3", "size": 10, "label": "", "label_size": 5}) == [
        ("size", 10.0, "the value is set at")]
    rect = importlib.import_module("cardgen.layout.elements.rect")
    assert rect.text_sizes is no_text


@pytest.mark.parametrize("path", ["cardgen/layout/legibility.py", "cardgen/layout/card.py"])
def test_the_layout_names_no_kind(path: str) -> None:
    """No comparison with a kind's name (``el.kind == "text"``) outside the kinds' own files."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    named = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Compare)
             and any(isinstance(c, ast.Constant) and c.value in KINDS for c in [n.left, *n.comparators])]
    assert not named, f"{path} switches on element kinds at lines {named}"

"""The speed work's shortcuts change no result: a text box laid out once is reused only where it
reported nothing (every card still reports its own problem), and a ``{{ card.x }}`` expression
compiled to a field lookup writes what Jinja writes, falling back to Jinja for anything else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgen.core.jsonout import dumps
from cardgen.core.problems import Loc, Problems
from cardgen.layout.elements.base import DrawContext
from cardgen.layout.elements.text import layout_text
from cardgen.layout.templates import CardField, TemplateSet

FONTS = {"regular": "LiberationSans-Regular", "bold": "LiberationSans-Bold",
         "italic": "LiberationSans-Italic", "bolditalic": "LiberationSans-BoldItalic"}
BOX = {"font": "regular", "size": 8.0, "min_size": 6.0, "leading": 1.2, "color": "#000000", "align": "left",
       "valign": "top"}


def _ctx(problems: Problems, memo: dict, card: str) -> DrawContext:
    return DrawContext(63, 88, 3, FONTS, {}, problems, f"card '{card}'", Loc("cards.yaml", 1, 1), {}, "rules",
                       Loc("t.yaml", 1, 1), Path("."), None, memo)


@pytest.mark.parametrize("text, rule", [("a snowman ☃", "TEXT-GLYPH"), ("word " * 400, "TEXT-OVERFLOW")])
def test_every_card_reports_its_own_text_problem(text, rule):
    problems, memo = Problems(), {}
    for card in ("a", "b", "a"):                    # "a" again: its problem is already known
        layout_text({**BOX, "text": text}, _ctx(problems, memo, card), 5, 5, 40, 20)
    assert sorted(p.message.split(":")[0] for p in problems if p.rule == rule) == ["card 'a'", "card 'b'"]
    layout_text({**BOX, "text": text}, _ctx(problems, memo, "c"), 5, 5, 40, 20)
    assert any("card 'c'" in p.message for p in problems if p.rule == rule)


def test_a_clean_box_is_reused_and_equal():
    problems, memo = Problems(), {}
    first = layout_text({**BOX, "text": "ATK"}, _ctx(problems, memo, "a"), 5, 5, 15, 4)
    again = layout_text({**BOX, "text": "ATK"}, _ctx(problems, memo, "b"), 5, 5, 15, 4)
    fresh = layout_text({**BOX, "text": "ATK"}, _ctx(problems, None, "c"), 5, 5, 15, 4)
    assert first == again == fresh and first and not problems.items


@pytest.mark.parametrize("src, card", [
    ("{{ card.atk }}", {"atk": 3}), ("#{{ card.id }}", {"id": "x"}), ("{{card.name}} (v)", {"name": "Ré"}),
    ("{{ card.flag }}", {"flag": True}), ("{{ card.none }}", {"none": None}), ("{{ card.f }}", {"f": 1.5})])
def test_a_field_lookup_writes_what_jinja_writes(tmp_path, src, card):
    ts = TemplateSet(tmp_path, Problems())
    compiled = ts.compile(src, None)
    assert isinstance(compiled, CardField)
    assert compiled.render({"card": card}) == ts.env.from_string(src).render({"card": card})


def test_a_missing_field_is_jinjas_error(tmp_path):
    ts = TemplateSet(tmp_path, Problems())
    assert not isinstance(ts.compile("{{ card.items }}", None), CardField)     # a dict method: Jinja's rules
    with pytest.raises(Exception, match="no attribute 'atk'"):
        ts.compile("{{ card.atk }}", None).render({"card": {}})


def test_the_manifest_writer_is_json_dumps():
    import json
    for obj in ({"a": [1, 2.5, None, True, "é\"\n"], "b": {}, "c": [], 3: {"d": (1, 2)}}, [], {},
                [float("inf"), -0.0, 10 ** 20]):
        assert dumps(obj, 1) == json.dumps(obj, indent=1, ensure_ascii=False)


def test_the_manifest_writer_writes_a_card_record_as_json_dumps():
    """Mappings at the one-line depth (cards.json's card records) written as ``json.dumps`` writes
    them: strings, whole numbers, lists of numbers shared between records (a slot's boxes), and
    anything else (left to the encoder)."""
    box = [8.3, 14.3, 63.0, 88.00000000001]
    records = [{"id": "1", "name": "é \"q\"\n ☃", "copy": 1, "side": "front", "trim": box, "bleed_box": box},
               {"id": "2", "name": "b", "copy": 10 ** 20, "side": "back", "trim": [1.0, 2.0, 3.0, 4.0],
                "bleed_box": [-0.0, 1e-7, 2]},
               {}, {"x": None}, {"y": [True, 1]}, {3: "k"}, {"z": {"q": 1}}, {"t": (1, 2)},
               {"n": [float("nan"), float("inf")]}, {"f": 2.5}, {"b": False}, {"e": []}]
    pages = [{"page": 1, "side": "front", "cards": records}, {"page": 2, "cards": records[:2]}]
    marks = [{"page": p["page"], **({"side": p["side"]} if "side" in p else {}),
              "cards": [f"@{id(r)}@" for r in p["cards"]]} for p in pages]
    want = json.dumps(marks, indent=1, ensure_ascii=False)
    for r in records:
        want = want.replace(f'"@{id(r)}@"', json.dumps(r, ensure_ascii=False))
    assert dumps(pages, 1, inline=3) == want


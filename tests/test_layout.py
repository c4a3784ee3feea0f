"""Layout units: text fitting, templates with extends, static parts as symbols; a manifest golden."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.builder.pipeline import validate
from cardgen.content.fontroles import FONT_ROLES
from cardgen.content.model import Icon
from cardgen.core.problems import Problems
from cardgen.layout.textfit import fit, parse
from tests.conftest import ROOT

ICONS = {"melee": Icon("melee", "■", "#aa0000")}


def test_text_shrinks_to_fit_then_reports():
    short = fit("Hit hard.", 40, 10, FONT_ROLES, ICONS, 10, 6)
    assert short.fits and short.size == 10
    long_text = "word " * 60
    shrunk = fit(long_text, 40, 30, FONT_ROLES, ICONS, 10, 5)
    assert shrunk.fits and shrunk.size < 10
    assert not fit(long_text * 5, 40, 30, FONT_ROLES, ICONS, 10, 6).fits


def test_every_line_fits_its_width():
    f = fit("The quick brown fox jumps over the lazy dog " * 4, 30, 60, FONT_ROLES, ICONS, 9, 6)
    assert f.fits and all(line.width <= 30 + 1e-6 for line in f.lines)


def test_markup_and_icons():
    paras, unknown = parse("**+2** {melee} damage {nope}\nnext", ICONS)
    assert unknown == ["nope"]
    assert len(paras) == 2
    first = paras[0]
    assert first[0][0].style == "bold" and first[1][0].text == "■" and first[1][0].color == "#aa0000"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80),
       st.floats(5, 80), st.floats(3, 60))
def test_fit_never_raises(text, w, h):
    fit(text, w, h, FONT_ROLES, ICONS, 9, 6)


def test_templates_extend_and_static_parts_become_symbols():
    problems = Problems()
    laid = validate(ROOT, "loot_battles", problems)
    assert not problems.has_errors
    tpl = laid.layout.templates.get("enemy")
    names = [e.name for e in tpl.elements]
    assert names[:2] == ["frame", "title_band"] and "health" in names and "emblem_ring" in names
    frame = tpl.elements[0]
    assert frame.raw["fill"] == "enemy" and frame.raw["panel"] == "parchment"   # merged with base
    assert any(name.endswith(":enemy:static") for name in laid.layout.symbols)
    assert any(name.startswith("loot_battles:back:") for name in laid.layout.symbols)


def test_manifest_golden(full_build, update_goldens):
    got = json.loads((full_build.game("loot_battles") / "cards.json").read_text())
    golden = Path(__file__).parent / "goldens" / "loot_battles.cards.json"
    if update_goldens:
        golden.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n")
    assert golden.exists(), "no golden yet: run pytest --update-goldens"
    assert got == json.loads(golden.read_text()), "run pytest --update-goldens if the change is intended"

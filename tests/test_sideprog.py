"""A template's compiled program (``layout/sideprog.py``) lays out exactly what the general
element loop lays out: the same primitives and the same problems, on every card of the five games
and on generated card sets, and the same PDF bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.layout.card import CardLayout
from cardgen.layout.sideprog import FIELDS, GENERAL, STATIC, TEXT
from cardgen.render.pdf import render
from cardgen.scene import Document, Page, Use
from tests.conftest import ROOT

GAMES = ["bone_wars", "bones_on_ice", "boss_fight", "dino_battles", "loot_battles"]


Laid = tuple[list, list[str]]       # a game's card sides, and the problems laying them out reported


def _both(game) -> tuple[Laid, Laid, CardLayout]:
    """Every card's sides and the problems, laid out with the programs and by the general loop."""
    out = []
    layout = None
    for compiled in (True, False):
        problems = Problems()
        layout = CardLayout(game, problems)
        layout.compiled = compiled
        sides = [layout.draw(c, side) for c in game.cards for side in ("front", "back")]
        out.append((sides, [str(p) for p in problems.items]))
    assert layout is not None
    return out[0], out[1], layout


def _fast(game) -> tuple[int, int]:
    layout = CardLayout(game, Problems())
    for c in game.cards:
        for side in ("front", "back"):
            layout.draw(c, side)
    progs = [p for _, p in layout.programs.values()]
    return sum(p.fast for p in progs), sum(p.slow for p in progs)


@pytest.mark.parametrize("slug", GAMES)
def test_every_template_of_the_games_lays_out_the_same(slug):
    problems = Problems()
    game = load_game(ROOT, slug, problems)
    assert game is not None
    compiled, general, _ = _both(game)
    assert compiled == general
    fast, slow = _fast(game)
    assert fast + slow > 0
    print(f"{slug}: {len(game.cards)} cards, {fast} sides by compiled steps alone, {slow} with a general one")


def _bench(tmp: Path, cards: list[dict]):
    shutil.copytree(ROOT / "bench" / "game", tmp, dirs_exist_ok=True)
    Image.new("RGB", (8, 8), "red").save(tmp / "templates" / "bench" / "icon.png")
    lines = ["defaults: {type: card}", "cards:"] + [f"  - {json.dumps(c)}" for c in cards]
    (tmp / "cards" / "bench").mkdir(parents=True, exist_ok=True)
    (tmp / "cards" / "bench" / "cards.yaml").write_text("\n".join(lines) + "\n")
    problems = Problems()
    game = load_game(tmp, "bench", problems)
    assert game is not None, problems.items
    return game


def _pdf(game, sides: list[list]) -> bytes:
    """The sides on pages of three (a card's front and back, …), rendered."""
    doc = Document("t")
    layout = CardLayout(game, Problems())
    for c in game.cards:            # the symbols the sides place
        for side in ("front", "back"):
            layout.draw(c, side)
    doc.symbols = layout.symbols
    for k in range(0, len(sides), 3):
        doc.pages.append(Page(210, 297, [it for side in sides[k:k + 3] for it in side]))
    names = [it.name for side in sides for it in side if type(it) is Use]
    assert all(n in doc.symbols for n in names)
    return render(doc)


def test_the_bench_game_takes_the_fast_path_and_writes_the_same_pdf(tmp_path):
    cards = [{"id": str(i), "name": f"Card {i}", "atk": i % 4, "def": i % 3, "cost": i % 5,
              "rules": "Draw a card. " * (1 + i % 6), "color": ["#aa0000", "#00aa00", "#0000aa"][i % 3]}
             for i in range(40)]
    game = _bench(tmp_path, cards)
    compiled, general, layout = _both(game)
    assert compiled == general
    assert _pdf(game, compiled[0]) == _pdf(game, general[0])
    assert not layout.programs       # (the general layout compiles none)
    fast, slow = _fast(game)
    # every side after the first of its template, but the fronts of the first two cards of each colour
    # (a rect filled with the card's colour is remembered from its second card on)
    assert fast + slow == 2 * 40 - 2 and slow == 6
    layout = CardLayout(game, Problems())
    layout.draw(game.cards[0], "front")
    (prog,) = [p for _, p in layout.programs.values()]
    kinds = [s[0] for s in prog.steps]
    assert kinds.count(TEXT) == 6 and STATIC in kinds and FIELDS in kinds and GENERAL not in kinds


_WORDS = st.sampled_from(["Draw", "a", "card.", "Gain", "2", "gold", "**bold**", "{sword}", "ünïcode", "√",
                          "  ", "éclair", "x" * 40, "\n", "*", "}"])
_TEXT = st.lists(_WORDS, max_size=50).map(" ".join)
_VALUE = st.integers(-5, 99)
_CARD = st.fixed_dictionaries({"name": _TEXT.filter(lambda s: s.strip()), "atk": _VALUE, "def": _VALUE,
                               "cost": _VALUE, "rules": _TEXT,
                               "color": st.sampled_from(["#aa0000", "#00aa00"])})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_CARD, min_size=1, max_size=12))
def test_generated_cards_lay_out_the_same(tmp_path_factory, cards):
    """Markup, icons, glyphs the font lacks, overflowing and empty texts, numbers and text for
    numbers, repeated values: the program's primitives and problems are the general loop's."""
    tmp = tmp_path_factory.mktemp("gen")
    game = _bench(tmp, [{"id": str(i), **c} for i, c in enumerate(cards)])
    compiled, general, _ = _both(game)
    assert compiled == general
    assert _pdf(game, compiled[0]) == _pdf(game, general[0])

"""Drawn icons instead of letter placeholders: every pictogram a distinct silhouette, every game's
drawn icons distinct from each other, no card printing a lone letter as its picture, and a
``draw:`` naming no pictogram reported at its line."""

from __future__ import annotations

import math
import unicodedata

import pytest

from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.layout.card import CardLayout
from cardgen.layout.elements.art import placeholder
from cardgen.layout.legibility import texts
from cardgen.layout.pictograms import DRAWINGS, draw
from cardgen.scene import Circle, Polygon, Rect
from tests.conftest import ROOT, has_problem

N = 28          # raster cells across the unit square


def _inside_polygon(x: float, y: float, pts) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _covers(it, x: float, y: float) -> bool | None:
    """True/False for the colour painted at (x, y) by ``it`` (True: ink), None when it misses."""
    if isinstance(it, Polygon):
        hit = _inside_polygon(x, y, list(it.points))
        return (it.fill == "ink") if hit else None
    if isinstance(it, Circle):
        d = math.hypot(x - it.cx, y - it.cy)
        if it.fill is not None:
            return (it.fill == "ink") if d <= it.r else None
        return (it.stroke == "ink") if abs(d - it.r) <= it.width / 2 else None
    if isinstance(it, Rect):
        hit = it.x <= x <= it.x + it.w and it.y <= y <= it.y + it.h
        return (it.fill == "ink") if hit else None
    raise AssertionError(f"unexpected primitive {it!r}")


def raster(name: str) -> list[bool]:
    """The pictogram painted in order on an N × N grid over a 100 mm square: True where ink shows."""
    items = draw(name, 50, 50, 100, "ink", "paper")
    cells = []
    for j in range(N):
        for i in range(N):
            x, y = (i + 0.5) * 100 / N, (j + 0.5) * 100 / N
            ink = False
            for it in items:
                got = _covers(it, x, y)
                if got is not None:
                    ink = got
            cells.append(ink)
    return cells


@pytest.fixture(scope="module")
def rasters() -> dict[str, list[bool]]:
    return {name: raster(name) for name in DRAWINGS}


def test_every_pictogram_fills_its_square_without_spilling(rasters):
    for name, cells in rasters.items():
        share = sum(cells) / len(cells)
        assert 0.06 < share < 0.75, f"{name}: ink covers {share:.0%} of its square"
        xs = [c for it in draw(name, 50, 50, 100, "ink", "paper") for c in _extent(it)]
        assert min(xs) >= -3 and max(xs) <= 103, f"{name} leaves its square: {min(xs):.1f}…{max(xs):.1f}"


def _extent(it) -> list[float]:
    if isinstance(it, Polygon):
        return [v for p in it.points for v in p]
    if isinstance(it, Circle):
        return [it.cx - it.r, it.cx + it.r, it.cy - it.r, it.cy + it.r]
    return [it.x, it.x + it.w, it.y, it.y + it.h]


def apart(a: list[bool], b: list[bool]) -> float:
    """How far two silhouettes are apart: the share of their inked cells that only one inks."""
    union = sum(x or y for x, y in zip(a, b))
    return sum(x != y for x, y in zip(a, b)) / union if union else 0.0


def test_no_two_pictograms_share_a_silhouette(rasters):
    names = sorted(rasters)
    close = []
    for a_i, a in enumerate(names):
        for b in names[a_i + 1:]:
            differ = apart(rasters[a], rasters[b])
            if differ < 0.3:
                close.append(f"{a} ~ {b}: {differ:.0%} of their ink differs")
    assert not close, close


def test_the_raster_tells_a_sword_from_a_shield(rasters):
    """The silhouette comparison above can fail: a drawing compared with itself is 0 % apart."""
    assert apart(rasters["sword"], raster("sword")) == 0
    assert apart(rasters["sword"], rasters["shield"]) > 0.6


@pytest.mark.parametrize("slug", list_games(ROOT))
def test_a_games_drawn_icons_are_distinct_and_no_glyph_is_a_letter(slug):
    game = load_game(ROOT, slug, Problems())
    drawn: dict[str, str] = {}
    for key, ic in game.icons.items():
        assert not any(unicodedata.category(ch).startswith("L") for ch in ic.glyph), \
            f"{slug}: icon '{key}' is the letter {ic.glyph!r}"
        if ic.draw:
            assert ic.draw not in drawn, f"{slug}: icons '{drawn[ic.draw]}' and '{key}' share the drawing {ic.draw}"
            drawn[ic.draw] = key


def _lone_letters(items) -> list[str]:
    """Large single letters (a name's initial standing for a picture)."""
    return [f"{t.text.strip()!r} at {t.size:g} pt" for t in texts(items)
            if t.size >= 16 and len(t.text.strip()) == 1 and unicodedata.category(t.text.strip()).startswith("L")]


@pytest.mark.parametrize("slug", list_games(ROOT))
def test_no_card_prints_a_letter_for_a_picture(slug):
    game = load_game(ROOT, slug, Problems())
    layout = CardLayout(game, Problems())
    found = []
    for card in game.cards:
        for side in ("front", "back"):
            hits = _lone_letters(layout.draw(card, side))
            if hits:
                found.append(f"{card.id} {side}: {', '.join(hits)}")
    assert not found, found[:10]


def test_the_letter_scan_can_fail():
    from cardgen.scene import Text
    assert _lone_letters([Text(0, 0, "S", "LiberationSans-Bold", 34)]) == ["'S' at 34 pt"]
    assert _lone_letters([Text(0, 0, "10", "LiberationSans-Bold", 34), Text(0, 0, "S", "x", 8)]) == []


def test_card_types_with_a_letter_once_now_draw_their_type():
    """The Loot & Battles loot emblem draws the category's pictogram: Sword, Spell and Shield differ."""
    game = load_game(ROOT, "loot_battles", Problems())
    layout = CardLayout(game, Problems())
    shapes = {}
    for cat in ("sword", "spell", "shield", "dagger", "bow"):
        card = next(c for c in game.cards if c.type == "loot" and c.fields.get("category") == cat
                    and not c.fields.get("text"))
        shapes[cat] = [it for it in layout.draw(card, "front") if isinstance(it, Polygon | Circle)]
    assert len({tuple(map(repr, v)) for v in shapes.values()}) == len(shapes)


def test_an_unknown_drawing_is_reported_at_its_line(game_copy):
    g = game_copy("loot_battles")
    line = g.edit("rules/loot_battles/game.yaml", "draw: crossed_swords,", "draw: crosed_swords,")
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "ICON-DRAWING", "game.yaml", line), probs
    p = next(p for p in probs if p["rule"] == "ICON-DRAWING")
    assert "crossed_swords" in (p.get("hint") or ""), p


def test_a_missing_picture_shows_the_icons_drawing_not_its_glyph():
    game = load_game(ROOT, "loot_battles", Problems())

    class Ctx:
        icons = game.icons
    items = placeholder({"color": "#777777", "fill": "#eeeeee", "icon": "steppons"}, Ctx(), 0, 0, 40, 20)
    assert not list(texts(items)) and len(items) > 3

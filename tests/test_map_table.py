"""Hex maps as they lie on the table: coordinates no 25 mm base hides, registration crosshairs
off the hexes where the seam leaves room, captions that say what the rules make of the map, and
no developer's words (such as "anchor") on what players print."""

from __future__ import annotations

import itertools
import math

import pytest

from cardgen.boards import maps as bmaps
from cardgen.boards import tiling
from cardgen.boards.common import fonts_of
from cardgen.boards.tilepages import crosshair_spots, tile_document_pages
from cardgen.content.loader import load_game
from cardgen.core import hexgrid as hg
from cardgen.core.problems import Problems
from tests.conftest import ROOT

BASE = 25.0                        # the miniature base the hexes are sized for (mm)


def _maps():
    g = load_game(ROOT, "boss_fight", Problems())
    p = Problems()
    ms = bmaps.load_all(g, p)
    assert ms and not p.has_errors
    return g, ms


def _dist_to_box(cx: float, cy: float, box) -> float:
    x0, y0, x1, y1 = box
    dx = max(x0 - cx, 0.0, cx - x1)
    dy = max(y0 - cy, 0.0, cy - y1)
    return math.hypot(dx, dy)


@pytest.mark.parametrize("key", ["arena", "catacombs", "keep", "pillars"])
def test_no_base_on_any_hex_hides_a_coordinate(key):
    """Every column and row number of the map is printed (top and bottom, both sides), and no
    number lies under a 25 mm base standing centred on any hex."""
    g, ms = _maps()
    (m,) = [x for x in ms if x.key == key]
    board = bmaps.scene(m, fonts_of(g))
    lay, _, _ = bmaps.hex_layout(m)
    nums = [it for it in board.items if type(it).__name__ == "Text" and it.text.isdigit()]
    cols = {c for c, _ in m.offsets.values()}
    rows = {r for _, r in m.offsets.values()}
    assert sorted(int(t.text) for t in nums) == sorted([*cols, *cols, *rows, *rows])
    for t in nums:
        box = tiling.text_box(t)
        for h in m.tiles:
            cx, cy = hg.hex_to_pixel(h, lay)
            assert _dist_to_box(cx, cy, box) > BASE / 2, (key, t.text, m.offsets[h])


def test_crosshairs_keep_off_the_hexes_where_the_seam_has_room():
    """A seam that runs into the title band or the legend carries a crosshair there, off the
    hexes; the crosshairs of every seam still register (same spots on both sheets)."""
    g, ms = _maps()
    (m,) = [x for x in ms if x.key == "pillars"]
    _pages, t = tile_document_pages(bmaps.scene(m, fonts_of(g)), 210, 297, fonts_of(g))
    (play,) = t.board.play
    seams = tiling.seams_of(t)
    assert seams.xs
    texts = [tiling.text_box(it) for it in t.board.items if type(it).__name__ == "Text"]
    top, bottom = t.rows[0], t.rows[-1]
    for s in seams.xs:
        up = crosshair_spots(texts, "x", s, top[0], top[1], [play])
        assert up[0] + tiling.CROSS_REACH <= play[1], (s, up, play)          # in the title band, above the hexes
        down = crosshair_spots(texts, "x", s, bottom[0], bottom[1], [play])
        assert down[1] - tiling.CROSS_REACH >= play[3], (s, down, play)      # in the legend, below them


def test_the_pillars_caption_is_what_the_sight_rule_makes_of_the_map():
    """A lone pillar blocks no line of sight on its own (the vertex ruling), so the caption says
    it bars the way, never the view; the twin pillars it names as cover do block sight lines,
    and so do two lone pillars in line (the caption says so too)."""
    _, ms = _maps()
    (m,) = [x for x in ms if x.key == "pillars"]
    obstacles = {h for h in m.tiles if m.blocks(h)}
    lone = {h for h in obstacles if not any(hg.distance(h, o) == 1 for o in obstacles)}
    assert lone and obstacles - lone
    clear = [h for h in m.tiles if m.passable(h)]

    def blocked(walls) -> int:
        return sum(1 for a, b in itertools.combinations(clear, 2) if not hg.line_of_sight(a, b, walls))

    assert all(blocked({h}) == 0 for h in lone)                # one pillar alone never blocks sight
    assert blocked(obstacles - lone) > 0                       # the twins do
    assert blocked(lone) > 0                                   # and lone pillars in line do
    text = m.description.lower()
    assert "lone pillar" in text and "never the view" in text and "twin pillars" in text and "in line" in text
    assert "narrow" not in text


def test_piece_cards_speak_player_words():
    """The piece card's footprint line says what the dot is in player words (no "anchor")."""
    text = (ROOT / "templates" / "boss_fight" / "piece.yaml").read_text(encoding="utf-8")
    assert "= anchor" not in text and "the dot marks its centre" in text

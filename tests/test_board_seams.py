"""Tiled boards and mats as players assemble them: no seam through a card slot on any board of
any game, on A4, Letter or A3 (the tiling geometry, and the PDFs read back); the A3 edition of
the rink on far fewer sheets; the Boss mat holding every piece of the largest preset boss."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
import yaml

from cardgen import boards
from cardgen.boards import tiling
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.core.units import PAPER_MM
from tests.conftest import ROOT, GameCopy, pdf_pages, qpdf_check

MM = 72 / 25.4
GAMES = {"boss_fight": "mats", "dino_battles": "mats", "bones_on_ice": "board"}


def _boards(slug: str, kind: str):
    g = load_game(ROOT, slug, Problems())
    p = Problems()
    got = [(model, b) for model, scenes in boards._boards(g, p)[kind] for b in scenes]
    assert got and not p.has_errors, [x.text() for x in p]
    return got


@pytest.mark.parametrize("paper", ["A4", "Letter", "A3"])
@pytest.mark.parametrize("slug", list(GAMES))
def test_no_seam_runs_through_a_card_slot(slug, paper):
    """Every tiled board and mat, as fitted to the paper: each vertical cut line misses the
    x-span of every slot and each horizontal one its y-span (by the slot pad), and no seam
    runs through a word either."""
    for _model, board in _boards(slug, GAMES[slug]):
        assert board.slots, board.title
        fitted, t = tiling.fit(board, *PAPER_MM[paper])
        s = tiling.seams_of(t)
        assert t.sheets > 1 or not (s.xs or s.ys)
        for x in s.xs:
            hit = [b for b in fitted.slots if b[0] - tiling.SLOT_PAD < x < b[2] + tiling.SLOT_PAD]
            assert not hit, (board.title, paper, "x", x, hit)
        for y in s.ys:
            hit = [b for b in fitted.slots if b[1] - tiling.SLOT_PAD < y < b[3] + tiling.SLOT_PAD]
            assert not hit, (board.title, paper, "y", y, hit)
        assert not tiling._cut_words(fitted, t), (board.title, paper)


def test_a_board_whose_slots_leave_no_lane_moves_them_rather_than_cut_one():
    """A mat with slots staggered row to row (no lane a seam could run down) is laid out again
    for the sheets: the planner alone would cut a slot, the fitted mat cuts none."""
    (_, board), *_ = _boards("boss_fight", "mats")
    t0 = tiling.plan(board, *PAPER_MM["A4"])
    assert tiling.crossed_slots(board, t0)          # the mat as drawn for no seams: a seam must cut
    fitted, t = tiling.fit(board, *PAPER_MM["A4"])
    assert not tiling.crossed_slots(fitted, t)


def test_split_axis_takes_another_window_rather_than_cut_a_slot():
    free = tiling.split_axis(400, 185, 12, lambda _p: 0.0)
    assert len(free) == 3
    banned = tuple((a, a + 70.0) for a in range(0, 400, 73))     # slots 70 wide, 3 mm gaps
    wins = tiling.split_axis(400, 185, 12, lambda _p: 0.0, forbidden=banned)
    for a, _b in wins[1:]:
        assert not any(lo < a < hi for lo, hi in banned), a
    assert wins[0][0] == 0 and wins[-1][1] == 400
    assert all(b - a <= 185 + 1e-9 for a, b in wins)


def test_the_printable_area_follows_the_paper():
    assert tiling.printable_area(*PAPER_MM["A4"]) == (tiling.COMMON_W, tiling.COMMON_H)
    assert tiling.printable_area(*PAPER_MM["Letter"]) == (tiling.COMMON_W, tiling.COMMON_H)
    assert tiling.printable_area(*PAPER_MM["A3"]) == (297.0, 420.0)
    assert tiling.printable_area(*PAPER_MM["A5"]) == (148.0, 210.0)


def _slot_rects(page) -> list[dict]:
    """Card-slot outlines on a tile page: white-filled rounded rectangles at least a poker card big."""
    return [r for r in page.rects if r.get("fill") and tuple(r.get("non_stroking_color") or ())[:3] == (1, 1, 1)
            and 60 < r["width"] / MM < 140 and 80 < r["height"] / MM < 140]


def _window(page) -> tuple[float, float, float, float]:
    frames = [r for r in page.rects if r.get("stroke") and not r.get("fill")
              and tuple(round(v, 2) for v in r.get("stroking_color") or ()) == (0.53, 0.53, 0.53)]
    r = max(frames, key=lambda r: r["width"] * r["height"])
    return r["x0"] / MM, r["top"] / MM, r["x1"] / MM, r["bottom"] / MM


def _read_back_no_slot_cut(pdf_path: Path, page_mm: tuple[float, float]) -> int:
    """Every tile page of the PDF: the page is the paper, and no slot straddles the window's cut
    edges (left, top: where the sheet is cut to lie over its neighbour). The count of tiles."""
    tiles = 0
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            w, h = sorted((page.width / MM, page.height / MM))
            assert (w, h) == pytest.approx(sorted(page_mm), abs=0.1)
            if "Assembly:" in (page.extract_text() or ""):
                continue
            tiles += 1
            x0, y0, _x1, _y1 = _window(page)
            for r in _slot_rects(page):
                rx0, rx1, top, bottom = r["x0"] / MM, r["x1"] / MM, r["top"] / MM, r["bottom"] / MM
                assert not (rx0 < x0 - 0.05 < rx1 and top < _y1 and y0 < bottom), (page.page_number, rx0, x0)
                assert not (top < y0 - 0.05 < bottom and rx0 < _x1 and x0 < rx1), (page.page_number, top, y0)
    return tiles


def test_the_a3_rink_prints_on_far_fewer_sheets_and_cuts_no_slot(tmp_path):
    gc = GameCopy(tmp_path, "bones_on_ice").only("board")
    code, problems, out = gc.build()
    assert code == 0, problems
    a4 = _read_back_no_slot_cut(out / "board.pdf", PAPER_MM["A4"])
    code, problems, out3 = GameCopy(tmp_path / "a3", "bones_on_ice").only("board").build("--paper", "A3")
    assert code == 0, problems
    qpdf_check(out3 / "board.pdf")
    a3 = _read_back_no_slot_cut(out3 / "board.pdf", PAPER_MM["A3"])
    assert a3 <= 6 and a3 * 2 <= a4, (a3, a4)
    first = pdf_pages((out3 / "board.pdf").read_bytes())[0]
    assert "Print every page at 100 % on A3" in first


def test_the_boss_mat_holds_every_piece_of_the_largest_preset_boss(tmp_path):
    g = load_game(ROOT, "boss_fight", Problems())
    most = max(len(yaml.safe_load(p.read_text())["boss"]["pieces"])
               for p in sorted((g.cards_dir / "presets").glob("boss_*.yaml")))
    (mat,) = [m for m, _b in _boards("boss_fight", "mats") if m.name == "Boss mat"][:1]
    (pieces,) = [gr for row in mat.rows for gr in row if gr.label == "Boss Pieces"]
    tarot = g.meta["card_sizes"]["tarot"]
    assert pieces.count == most >= 7
    assert pieces.size == (float(str(tarot["width"]).removesuffix("mm")), float(str(tarot["height"]).removesuffix("mm")))
    assert any(gr.tokens for row in mat.rows for gr in row)              # the boss's status rings
    code, problems, out = GameCopy(tmp_path, "boss_fight").only("mats").build()
    assert code == 0, problems
    qpdf_check(out / "mats.pdf")
    _read_back_no_slot_cut(out / "mats.pdf", PAPER_MM["A4"])
    text = " ".join(pdf_pages((out / "mats.pdf").read_bytes()))
    for k in range(1, most + 1):
        assert f"Boss Pieces {k}" in text


def test_each_team_reads_its_rink_labels_from_its_own_goal_end():
    """The players sit at the goal ends: every label of a team's slots (skaters, Goalie, Team
    Spirit) and its GOAL is turned to read from that team's end (Team A's goal on the left: a
    quarter turn clockwise; Team B's on the right: a quarter turn back)."""
    from cardgen.scene import Rotate
    ((_model, board),) = _boards("bones_on_ice", "board")
    turned = [(it.angle, c.text) for it in board.items if isinstance(it, Rotate) for c in it.items]
    assert {a for a, _ in turned} == {90.0, -90.0}
    for angle, text in turned:
        if text.startswith("Team A"):
            assert angle == 90.0, text
        elif text.startswith("Team B"):
            assert angle == -90.0, text
    names = [t for _, t in turned]
    for team in ("Team A", "Team B"):
        assert f"{team} Goalie" in names and f"{team} skater" in names and f"{team} Spirit" in names
    assert names.count("GOAL") == 2
    upright = [it.text for it in board.items if type(it).__name__ == "Text"]
    assert "Team A skater" not in upright and "Team B Goalie" not in upright


@pytest.mark.parametrize("count, ok", [("{collection: boss, most: pieces}", True),
                                       ("{collection: boss, most: wings}", False),
                                       ("{collection: [boss], most: pieces}", False),
                                       ("{collection: boss}", False)])
def test_a_mat_count_from_the_games_files_is_checked(tmp_path, count, ok):
    gc = GameCopy(tmp_path, "boss_fight")
    line = gc.edit("maps/boss_fight/mat.yaml", "count: {collection: boss, most: pieces}", f"count: {count}")
    code, probs = gc.validate()
    bad = [p for p in probs if p["file"].endswith("mat.yaml")]
    if ok:
        assert not bad, bad
    else:
        assert code == 1 and any(p["line"] == line and p["rule"] == "YAML-TYPE" for p in bad), probs

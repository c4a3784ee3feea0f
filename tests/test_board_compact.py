"""Compact mats for a home printer (issue 32): ``print: mats: compact`` prints the mats that offer a
compact layout (``compact:`` in the mats file; Boss Fight's Hero and Boss mats) on one sheet each —
every tracked value still has its printed place, the status rings are the tokens' size, and no
slot, ring or track is cut because nothing is tiled. Read back from the PDF: page count, page
sizes to 0.1 mm, every drawn element inside its page, qpdf --check."""

from __future__ import annotations

import dataclasses

import pdfplumber
import pytest

from cardgen.boards import _boards
from cardgen.boards import tokens as btokens
from cardgen.boards.common import board_files, card_size
from cardgen.boards.tiling import fit
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.core.units import PAPER_MM
from cardgen.printables import readme
from cardgen.scene import Circle, Text, children
from tests.conftest import ROOT, GameCopy, qpdf_check

MM = 72 / 25.4
GAME = "boss_fight"
TAB = "card: {width: 63mm, height: 12mm}"


def _game(mats: str = "compact", paper: str = "A4"):
    g = load_game(ROOT, GAME, Problems())
    assert g is not None
    w, h = PAPER_MM[paper]
    settings = dataclasses.replace(g.print, mats=mats, paper=paper, page_w=w, page_h=h)
    return dataclasses.replace(g, print=settings)


def _mats(g) -> list:
    """(mat, its boards) of every mat the game prints."""
    p = Problems()
    got = _boards(g, p)["mats"]
    assert not p.has_errors, [x.text() for x in p]
    return got


def _flat(items) -> list:
    out: list = []
    for it in items:
        out += [it, *_flat(children(it))]
    return out


def _built(tmp_path, paper: str = "A4", mats: str = "compact"):
    g = GameCopy(tmp_path, GAME).only("mats")
    g.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", f"  crop_marks: true\n  mats: {mats}")
    if paper != "A4":
        g.edit(f"rules/{GAME}/game.yaml", "  paper: A4", f"  paper: {paper}")
    code, probs, out = g.build()
    assert code == 0, probs
    return out / "mats.pdf"


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_each_compact_mat_is_one_sheet_and_its_assembly_page(tmp_path, paper):
    pdf = _built(tmp_path, paper)
    qpdf_check(pdf)
    mats = _mats(_game(paper=paper))
    assert [m.name for m, _ in mats] == ["Hero mat (compact)", "Boss mat (compact)"]
    w, h = PAPER_MM[paper]
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 2 * len(mats)              # per mat: the assembly page and one tile
        for page in doc.pages:
            pw, ph = float(page.width) / MM, float(page.height) / MM
            assert sorted((pw, ph)) == pytest.approx(sorted((w, h)), abs=0.1)
            drawn = page.chars + page.rects + page.curves + page.lines
            assert drawn
            for o in drawn:          # nothing runs off the paper: no element crosses a page edge
                where = (page.page_number, o.get("text"))
                assert -0.01 <= o["x0"] and o["x1"] <= float(page.width) + 0.01, where
                assert -0.01 <= o["top"] and o["bottom"] <= float(page.height) + 0.01, where
        words = " ".join(p.extract_text() or "" for p in doc.pages)
    for label in ("Hero Health", "Boss Health", "Status", "Immobilised", "Poisoned", "Expended",
                  "Action Deck"):
        assert label in words


def test_compact_saves_most_sheets_over_the_full_mats(tmp_path):
    full = _built(tmp_path / "full", mats="full")
    compact = _built(tmp_path / "compact")
    with pdfplumber.open(full) as a, pdfplumber.open(compact) as b:
        assert len(b.pages) == 4 and len(a.pages) >= 3 * len(b.pages)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_compact_mat_is_one_tile_so_no_seam_cuts_it(paper):
    g = _game(paper=paper)
    for m, boards in _mats(g):
        for b in boards:
            _, t = fit(b, g.print.page_w, g.print.page_h)
            assert t.sheets == 1, f"{m.name} needs {t.sheets} sheets on {paper}"


def test_every_tracked_value_of_the_mats_has_its_place_on_the_compact_mats():
    g = _game()
    texts = [it.text for _, boards in _mats(g) for b in boards for it in _flat(b.items)
             if isinstance(it, Text)]
    kept = [e for e in g.params["tracked"] if e["printed"] == "mats"]
    assert kept
    for e in kept:
        assert any(e["where"] in t for t in texts), \
            f"the compact mats print no '{e['where']}' for {e['value']}"


def test_the_compact_mats_status_rings_hold_the_status_tokens():
    g = _game()
    p = Problems()
    defs = btokens.all_defs(g, p, board_files(g.maps_dir, p))
    statuses = [defs[s] for s in g.params["statuses"]]
    for m, boards in _mats(g):
        rings = [c for b in boards for c in _flat(b.items) if isinstance(c, Circle) and c.fill == "#ffffff"]
        assert len(rings) == len(statuses), m.name
        for ring, tok in zip(rings, statuses):
            assert 2 * ring.r >= tok.size + 2                  # the token fits with room to pick it up
        names = {it.text for b in boards for it in _flat(b.items) if isinstance(it, Text)}
        assert {t.name for t in statuses} <= names


def test_the_full_mats_are_the_default_and_unchanged():
    assert load_game(ROOT, GAME, Problems()).print.mats == "full"
    names = [m.name for m, _ in _mats(_game(mats="full"))]
    assert names == ["Hero mat", "Boss mat"]


def test_an_unknown_mats_setting_is_reported_at_its_line(tmp_path):
    g = GameCopy(tmp_path, GAME).only("mats")
    line = g.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", "  crop_marks: true\n  mats: tiny") + 1
    code, probs = g.validate()
    assert code == 1
    assert any(p["file"].endswith("game.yaml") and p["line"] == line and "tiny" in p["message"]
               for p in probs), probs


@pytest.mark.parametrize("setting", ["full", "compact"])
def test_a_bad_tab_size_is_reported_at_its_line(tmp_path, setting):
    """A compact layout is checked whichever layout prints: a slip in it is found before it is chosen."""
    g = GameCopy(tmp_path, GAME).only("mats")
    g.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", f"  crop_marks: true\n  mats: {setting}")
    line = g.edit(f"maps/{GAME}/mat.yaml", TAB, "card: {width: wide, height: 12mm}")
    code, probs = g.validate()
    assert code == 1
    assert any(p["file"].endswith("mat.yaml") and p["line"] == line and "width, height" in p["message"]
               for p in probs), probs
    assert sum("width, height" in p["message"] for p in probs) == 1          # one slip, one problem
    # the legal twin: the compact rows as shipped read clean
    ok = GameCopy(tmp_path / "ok", GAME).only("mats")
    ok.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", "  crop_marks: true\n  mats: compact")
    code, probs = ok.validate()
    assert code == 0, probs



NO_SIZES = [[63, 12], 5, None, {"width": "40mm"}, {"width": "40mm", "height": "tall"},
            {"width": "0mm", "height": "12mm"}, {"width": "40mm", "height": "12mm", "x": 1}]


@pytest.mark.parametrize("size", NO_SIZES)
def test_a_slot_size_that_is_no_size_is_one_problem_never_a_crash(size):
    p = Problems()
    assert card_size(size, _game(), p, None) is None
    assert [x.rule for x in p] == ["YAML-TYPE"]


def test_a_slot_size_given_as_width_and_height_is_that_size():
    p = Problems()
    assert card_size({"width": "63mm", "height": "1.2cm"}, _game(), p, None) == pytest.approx((63, 12))
    assert card_size("poker", _game(), p, None) == pytest.approx((63, 88))
    assert not p.has_errors


@pytest.mark.parametrize("mats, says, never", [
    ("compact", "a compact mat is one sheet: cut it on its lines (no tape)", "trim and tape"),
    ("full", "trim and tape the sheets where the marks say", "no tape"),
])
def test_the_read_me_tells_how_the_mats_it_prints_are_made(mats, says, never):
    text = " ".join(t for _, t in readme.lines(_game(mats=mats)) if "mats.pdf" in t)
    assert says in text and never not in text


def test_a_one_sheet_mat_is_not_told_to_be_cut_and_glued(tmp_path):
    with pdfplumber.open(_built(tmp_path)) as doc:
        first = " ".join((doc.pages[0].extract_text() or "").split())
    assert "It is one sheet: nothing to join." in first
    assert "glue" not in first and "dashed left edge" not in first

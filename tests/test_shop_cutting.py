"""Cutting machines and the printer's margin, read back from the outputs: Silhouette
registration marks where Silhouette Studio looks for them, a cut file per front sheet whose
trims match cards.json, nothing printed in the marks' corners; ``print: margin``; the
Rotate group in SVG."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pdfplumber
import pytest

from cardgen.content.model import PrintSettings
from cardgen.content.sheetfit import BLEED_FLOOR, MARK_ROOM, fit, make_grid, registration_keepouts
from cardgen.layout.imposition import crop_marks
from cardgen.render.svg import render_page
from cardgen.scene import Page, Rotate, Text
from tests.conftest import GameCopy, qpdf_check

MM = 72 / 25.4
TOL = 0.1
SVG = "{http://www.w3.org/2000/svg}"


def _build(copy, *extra):
    code, probs, out = copy.build("--only", "cards", *extra)
    assert code == 0, probs
    return out, json.loads((out / "cards.json").read_text()), probs


def _rects(page) -> list[tuple[float, float, float, float]]:
    return [(r["x0"] / MM, r["top"] / MM, r["width"] / MM, r["height"] / MM) for r in page.rects]


def _has(rects, box) -> bool:
    return any(all(abs(a - b) < TOL for a, b in zip(r, box)) for r in rects)


@pytest.fixture(scope="module")
def silhouette(tmp_path_factory):
    copy = GameCopy(tmp_path_factory.mktemp("sil"), "loot_battles")
    copy.edit("rules/loot_battles/game.yaml", "print:\n", "print:\n  registration: silhouette\n")
    return _build(copy)


def test_registration_marks_where_silhouette_studio_looks(silhouette):
    out, manifest, probs = silhouette
    W, H = manifest["page_size"]
    reg = manifest["registration"]
    assert (reg["inset"], reg["length"], reg["thickness"]) == (10.0, 20.0, 0.5)
    with pdfplumber.open(out / "cards.pdf") as doc:
        for entry in manifest["pages"]:
            page = doc.pages[entry["page"] - 1]
            rects = _rects(page)
            marks = [(10, 10, 5, 5),                                 # top-left: a filled 5 mm square
                     (W - 30, 10, 20, 0.5), (W - 10.5, 10, 0.5, 20),  # top-right ┐, outer corner 10 mm in
                     (10, H - 10.5, 20, 0.5), (10, H - 30, 0.5, 20)]  # bottom-left └
            if entry["side"] == "front":
                assert all(_has(rects, m) for m in marks), entry["page"]
                assert not page.lines                                # a machine cuts: no crop marks
            else:
                assert not any(_has(rects, m) for m in marks)        # backs: none (the machine reads the front)
            # nothing else printed in the marks' corners, and every bleed 12.5 mm from the edges
            keep = registration_keepouts(W, H)
            for c in entry["cards"]:
                x, y, w, h = c["bleed_box"]
                assert x >= 12.5 - 1e-6 and y >= 12.5 - 1e-6 and x + w <= W - 12.5 + 1e-6 and y + h <= H - 12.5 + 1e-6
                for kx, ky, kw, kh in keep:
                    assert x >= kx + kw or kx >= x + w or y >= ky + kh or ky >= y + h, (c["id"], (kx, ky))
    qpdf_check(out / "cards.pdf")


def test_a_cut_file_per_front_sheet_matches_the_manifest(silhouette):
    out, manifest, _ = silhouette
    W, H = manifest["page_size"]
    fronts = [e for e in manifest["pages"] if e["side"] == "front"]
    assert sorted(p.name for p in out.glob("cards-cut-*.svg")) == sorted(e["cut_file"] for e in fronts)
    for entry in fronts:
        root = ET.parse(out / entry["cut_file"]).getroot()
        assert (root.get("width"), root.get("height"), root.get("viewBox")) == (f"{W:g}mm", f"{H:g}mm", f"0 0 {W:g} {H:g}")
        cuts = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) for r in root.iter(f"{SVG}rect")]
        assert len(cuts) == len(entry["cards"])
        for card in entry["cards"]:
            assert _has(cuts, card["trim"]), (entry["cut_file"], card["id"])
        assert all(r.get("fill") == "none" and r.get("stroke") == "#ff0000" for r in root.iter(f"{SVG}rect"))
    assert not [e for e in manifest["pages"] if e["side"] == "back" and "cut_file" in e]


def test_silhouette_sheets_say_what_the_marks_cost(silhouette):
    _, manifest, probs = silhouette
    fit = manifest["fit"]["poker"]
    assert fit["per_sheet"] == 6 and manifest["pages"][0]["grid"]["cols"] == 2   # 3 × 63 mm do not fit in 185 mm
    warn = [p for p in probs if p["rule"] == "PRINT-FIT"]
    assert len(warn) == 1 and warn[0]["severity"] == "warning" and "registration marks" in warn[0]["message"]


def test_a_smaller_margin_from_the_yaml(game_copy):
    copy = game_copy("loot_battles")
    copy.edit("rules/loot_battles/game.yaml", "print:\n", "print:\n  margin: 3mm\n")
    out, manifest, probs = _build(copy, "--paper", "Letter")
    assert manifest["margin"] == 3.0
    # crop marks on the left and right edges only: three 88 mm rows fit between 3 mm margins
    assert manifest["pages"][0]["grid"]["rows"] == 3
    copy.edit("rules/loot_battles/game.yaml", "  margin: 3mm\n", "  margin: 1.5mm\n")
    out, manifest, probs = _build(copy, "--paper", "Letter")
    assert manifest["pages"][0]["grid"] == {"cols": 3, "rows": 3, "bleed": 1.0667}
    assert not [p for p in probs if p["rule"] == "PRINT-FIT"]
    with pdfplumber.open(out / "cards.pdf") as doc:
        for ln in doc.pages[0].lines:
            assert min(ln["x0"], ln["top"]) / MM >= 1.5 - TOL
            assert ln["x1"] / MM <= 215.9 - 1.5 + TOL and ln["bottom"] / MM <= 279.4 - 1.5 + TOL


def test_a_card_too_big_for_the_margins_is_a_range_error(game_copy):
    copy = game_copy("loot_battles")
    copy.edit("rules/loot_battles/game.yaml", "print:\n", "print:\n  margin: 30mm\n")
    copy.edit("rules/loot_battles/game.yaml", "poker: {width: 63mm, height: 88mm}", "poker: {width: 63mm, height: 240mm}")
    code, probs, _ = copy.build("--only", "cards")
    assert code == 1 and any(p["rule"] == "YAML-RANGE" and "margin" in p["message"] for p in probs), probs


def test_grid_fit_maths():
    # A4 poker inside 4.2 mm margins with 3 mm room for crop marks: the sides decide the bleed
    g = make_grid(210, 297, 63, 88, 3, margin=4.2, room=3)
    assert (g.cols, g.rows) == (3, 3) and g.bleed == pytest.approx(1.1)
    assert g.trim(0, 0)[0] - g.bleed == pytest.approx(4.2 + 3)
    # Letter: a third row would leave 0.17 mm of bleed, under the 1 mm floor
    g = make_grid(215.9, 279.4, 63, 88, 3, margin=4.2, room=3)
    assert (g.cols, g.rows) == (3, 2) and g.bleed == pytest.approx((215.9 - 14.4 - 189) / 6)
    # a bleed asked under the floor is kept as asked, never widened
    g = make_grid(210, 297, 63, 88, 0.5, margin=4.2, room=3)
    assert (g.cols, g.rows, g.bleed) == (3, 3, 0.5)


def test_rotate_is_an_svg_group_transform():
    page = Page(100, 100, [Rotate(30, 40, 180.0, (Text(25, 45, "BACK", "LiberationSans-Regular", 10),))])
    root = ET.fromstring(render_page(page))
    g = next(root.iter(f"{SVG}g"))
    assert g.get("transform") == "rotate(180 30 40)"
    assert next(g.iter(f"{SVG}text")).text == "BACK"


@pytest.mark.parametrize("paper", [(210, 297), (215.9, 279.4), (148, 210), (297, 420)])
def test_every_fit_keeps_cards_and_marks_inside_the_margin(paper):
    """Over papers, card sizes, bleeds, margins, gutters, with and without crop marks: every bleed
    box and mark inside the margin, marks clear of every bleed, every cut line marked, the bleed
    between the floor and the one asked, and one more row or column would not fit."""
    W, H = paper
    checked = 0
    for w, h in [(63, 88), (70, 120), (44, 68), (88, 63), (57, 89)]:
        for bleed in (0.0, 0.5, 3.0, 5.0):
            for margin in (0.0, 3.0, 4.2, 10.0):
                for gutter in (0.0, 4.0):
                    for marks in (True, False):
                        ps = PrintSettings(page_w=W, page_h=H, bleed=bleed, margin=margin, gutter=gutter,
                                           crop_marks=marks)
                        g = fit(ps, w, h).grid
                        if not g.per_page:
                            continue
                        checked += 1
                        room = MARK_ROOM if marks else 0.0
                        assert min(bleed, BLEED_FLOOR) - 1e-9 <= g.bleed <= bleed + 1e-9
                        cells = [g.bleed_box(r, c) for r in range(g.rows) for c in range(g.cols)]
                        trims = [g.trim(r, c) for r in range(g.rows) for c in range(g.cols)]
                        for x, y, bw, bh in cells:
                            assert x >= margin - 1e-6 and y >= margin - 1e-6, (ps, g)
                            assert x + bw <= W - margin + 1e-6 and y + bh <= H - margin + 1e-6, (ps, g)
                        # crop marks run out on two outer edges at least (one axis keeps their room)
                        left = min(x for x, _, _, _ in cells)
                        top = min(y for _, y, _, _ in cells)
                        assert left >= margin + room - 1e-6 or top >= margin + room - 1e-6, (ps, g)
                        # never fewer cards than with crop-mark room on every edge
                        every = make_grid(W, H, w, h, bleed, gutter, margin, room)
                        assert g.per_page >= every.per_page, (ps, g, every)
                        if not marks:
                            continue
                        lines = crop_marks(g, W, H, None, max(margin, 0.5))
                        xs = {round(v, 4) for x, y, cw, ch in trims for v in (x, x + cw)}
                        ys = {round(v, 4) for x, y, cw, ch in trims for v in (y, y + ch)}
                        seen_x = {round(ln.x1, 4) for ln in lines if ln.x1 == ln.x2}
                        seen_y = {round(ln.y1, 4) for ln in lines if ln.y1 == ln.y2}
                        assert xs <= seen_x and ys <= seen_y, (ps, g)       # every cut line marked
                        for ln in lines:
                            x0, x1 = sorted((ln.x1, ln.x2))
                            y0, y1 = sorted((ln.y1, ln.y2))
                            assert x0 >= max(margin, 0.5) - 1e-6 and x1 <= W - max(margin, 0.5) + 1e-6
                            assert y0 >= max(margin, 0.5) - 1e-6 and y1 <= H - max(margin, 0.5) + 1e-6
                            for bx, by, bw, bh in trims:        # a mark may lie in the bleed it cuts off, never on a card
                                assert x1 <= bx + 1e-6 or x0 >= bx + bw - 1e-6 or y1 <= by + 1e-6 \
                                    or y0 >= by + bh - 1e-6, (ps, g, ln)
    assert checked > 100

"""Print geometry read back from the PDF: trim, bleed, crop marks, duplex backs — to 0.1 mm."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from cardgen.imposition import back_position, make_grid
from cardgen.model import PrintSettings
from tests.conftest import qpdf_check, run_cli

MM = 72 / 25.4
TOL = 0.1


def build(root_tmp: Path, *flags: str, root: Path | None = None) -> tuple[Path, dict]:
    out = root_tmp / "out"
    args = ["build", "loot_battles", "--out", str(out), *flags]
    code, _ = run_cli(*args) if root is None else run_cli(*args, root=root)
    assert code == 0
    pdf = out / "loot_battles" / "cards.pdf"
    return pdf, json.loads((out / "loot_battles" / "cards.json").read_text())


@pytest.fixture(scope="module")
def a4(tmp_path_factory):
    return build(tmp_path_factory.mktemp("a4"))


def boxes(page) -> list[tuple[float, float, float, float]]:
    return [(r["x0"] / MM, r["top"] / MM, r["width"] / MM, r["height"] / MM) for r in page.rects]


def test_every_card_is_63_by_88_with_3mm_bleed(a4):
    pdf, manifest = a4
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == len(manifest["pages"])
        for page, entry in zip(doc.pages, manifest["pages"]):
            assert page.width / MM == pytest.approx(210, abs=TOL)
            assert page.height / MM == pytest.approx(297, abs=TOL)
            rects = boxes(page)
            for card in entry["cards"]:
                x, y, w, h = card["trim"]
                assert (w, h) == (63.0, 88.0)
                # the card's background is printed to the bleed box, 3 mm beyond the trim all round
                bx, by, bw, bh = card["bleed_box"]
                assert (bx, by, bw, bh) == pytest.approx((x - 3, y - 3, 69, 94), abs=1e-6)
                assert any(abs(r[0] - bx) < TOL and abs(r[1] - by) < TOL and abs(r[2] - bw) < TOL
                           and abs(r[3] - bh) < TOL for r in rects), (card["id"], entry["page"])


def test_nine_cards_per_a4_sheet_and_all_copies(a4):
    _, manifest = a4
    fronts = [p for p in manifest["pages"] if p["side"] == "front"]
    assert all(len(p["cards"]) <= 9 for p in fronts)
    assert sum(len(p["cards"]) for p in fronts) == 156
    assert [p["side"] for p in manifest["pages"][:4]] == ["front", "back", "front", "back"]


def test_crop_marks_sit_on_trim_lines_outside_every_trim(a4):
    pdf, manifest = a4
    with pdfplumber.open(pdf) as doc:
        page, entry = doc.pages[0], manifest["pages"][0]
        trims = [c["trim"] for c in entry["cards"]]
        xs = {round(v, 3) for x, y, w, h in trims for v in (x, x + w)}
        ys = {round(v, 3) for x, y, w, h in trims for v in (y, y + h)}
        marks = [(ln["x0"] / MM, ln["top"] / MM, ln["x1"] / MM, ln["bottom"] / MM) for ln in page.lines]
        assert len(marks) >= 2 * len(xs) + 2 * len(ys)
        seen_x, seen_y = set(), set()
        for x0, y0, x1, y1 in marks:
            if abs(x0 - x1) < 1e-6:          # vertical mark: on a trim x
                hit = [v for v in xs if abs(v - x0) < TOL]
                assert hit, x0
                seen_x.add(hit[0])
            else:                             # horizontal mark: on a trim y
                hit = [v for v in ys if abs(v - y0) < TOL]
                assert hit, y0
                seen_y.add(hit[0])
            for x, y, w, h in trims:          # never inside a trim box
                mid = ((x0 + x1) / 2, (y0 + y1) / 2)
                assert not (x + TOL < mid[0] < x + w - TOL and y + TOL < mid[1] < y + h - TOL)
        assert seen_x == xs and seen_y == ys


def test_backs_are_mirrored_for_long_edge(a4):
    pdf, manifest = a4
    pages = manifest["pages"]
    for front, back in zip(pages[::2], pages[1::2]):
        assert [c["id"] for c in front["cards"]] == [c["id"] for c in back["cards"]]
        for f, b in zip(front["cards"], back["cards"]):
            x, y, w, h = f["trim"]
            assert b["trim"] == pytest.approx([210 - x - w, y, w, h], abs=1e-6)
    with pdfplumber.open(pdf) as doc:         # and the PDF draws them there
        rects = boxes(doc.pages[1])
        for c in pages[1]["cards"]:
            bx, by, bw, bh = c["bleed_box"]
            assert any(abs(r[0] - bx) < TOL and abs(r[1] - by) < TOL and abs(r[2] - bw) < TOL for r in rects)


def test_short_edge_and_offset(tmp_path):
    pdf, manifest = build(tmp_path, "--duplex", "short", "--offset", "0.5mm,-1mm")
    front, back = manifest["pages"][0], manifest["pages"][1]
    for f, b in zip(front["cards"], back["cards"]):
        x, y, w, h = f["trim"]
        assert b["trim"] == pytest.approx([x + 0.5, 297 - y - h - 1.0, w, h], abs=1e-6)
    with pdfplumber.open(pdf) as doc:
        rects = boxes(doc.pages[1])
        c = back["cards"][0]
        bx, by, bw, bh = c["bleed_box"]
        assert any(abs(r[0] - bx) < TOL and abs(r[1] - by) < TOL for r in rects)


def test_letter_keeps_nine_cards_with_reduced_bleed(tmp_path):
    pdf, manifest = build(tmp_path, "--paper", "Letter")
    assert manifest["page_size"] == [215.9, 279.4]
    first = manifest["pages"][0]
    assert len(first["cards"]) == 9
    b = first["grid"]["bleed"]
    assert 2.0 < b < 3.0
    for c in first["cards"]:
        x, y, w, h = c["trim"]
        assert (w, h) == (63, 88) and x - b >= -1e-6 and y - b >= -1e-6 and x + w <= 215.9 and y + h <= 279.4
    with pdfplumber.open(pdf) as doc:
        p = doc.pages[0]
        assert (p.width / MM, p.height / MM) == pytest.approx((215.9, 279.4), abs=TOL)


def test_grid_maths():
    g = make_grid(210, 297, 63, 88, 3)
    assert (g.cols, g.rows, g.bleed, g.gap_x) == (3, 3, 3, 6)
    assert g.trim(0, 0) == pytest.approx((4.5, 10.5, 63, 88))
    ps = PrintSettings(duplex="long", offset=(1.0, 2.0))
    assert back_position(4.5, 10.5, 63, 88, ps) == pytest.approx((210 - 67.5 + 1, 12.5))


def test_outputs_pass_qpdf_and_are_deterministic(a4, tmp_path):
    pdf, _ = a4
    qpdf_check(pdf)
    qpdf_check(pdf.parent / "duplex-calibration.pdf")
    pdf2, _ = build(tmp_path)
    assert pdf.read_bytes() == pdf2.read_bytes()


def test_calibration_sheet_has_a_centred_ruler(a4):
    pdf, _ = a4
    with pdfplumber.open(pdf.parent / "duplex-calibration.pdf") as doc:
        assert len(doc.pages) == 2
        front_lines = doc.pages[0].lines
        assert any(abs(ln["x0"] / MM - 105) < TOL and abs(ln["x1"] / MM - 105) < TOL for ln in front_lines)
        back_x = sorted(round(ln["x0"] / MM, 2) for ln in doc.pages[1].lines if abs(ln["x0"] - ln["x1"]) < 1e-6)
        assert 105.0 in back_x and 100.0 in back_x and 110.0 in back_x

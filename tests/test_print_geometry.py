"""Print geometry read back from the PDF: trim, bleed, crop marks, duplex backs, the printer's
margin — to 0.1 mm.

Every configuration (A4 long-edge, Letter from the flag and from the game's YAML, short-edge
with an offset) goes through the same page-by-page check against the manifest, which now
includes: nothing (bleed, mark, text) inside the 4.2 mm unprintable margin. That changed two
expectations on purpose (issue 15): A4 poker keeps 9 a sheet with its bleed narrowed from 3 to
1.1 mm (the sides are what is tight: 3 × 63 mm leave 21 mm for two margins, crop-mark room and
six bleeds); Letter poker prints 9 a sheet (issue 32): crop marks on the left and right edges,
and the column cuts marked by ticks where rows meet (a third 88 mm row leaves no room for marks
above and below the block).
"""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from cardgen.content.model import PrintSettings
from cardgen.layout.imposition import back_position, make_grid
from tests.conftest import GameCopy, problems_json, qpdf_check, run_cli

MM = 72 / 25.4
TOL = 0.1
GAME = "loot_battles"


def build(root_tmp: Path, *flags: str) -> tuple[Path, dict, list[dict]]:
    """The game's card sheets (``--only cards``) built with ``flags``: the PDF, its manifest, the problems."""
    out = root_tmp / "out"
    code, probs = problems_json("build", GAME, "--only", "cards", "--out", str(out), *flags)
    assert code == 0, probs
    pdf = out / GAME / "cards.pdf"
    return pdf, json.loads((out / GAME / "cards.json").read_text()), probs


@pytest.fixture
def a4(full_build):
    """The A4 long-edge cards of the session's build of the game's own sources."""
    out = full_build.game(GAME)
    return out / "cards.pdf", json.loads((out / "cards.json").read_text())


@pytest.fixture(scope="module")
def card_types() -> dict[str, str]:
    """card id → its type's printed name (what its back says)."""
    _, out = run_cli("cards", GAME, "--format", "json")
    return {c["id"]: c["type"] for c in json.loads(out)["cards"]}


def boxes(page) -> list[tuple[float, float, float, float]]:
    return [(r["x0"] / MM, r["top"] / MM, r["width"] / MM, r["height"] / MM) for r in page.rects]


def has_box(rects, box) -> bool:
    return any(all(abs(a - b) < TOL for a, b in zip(r, box)) for r in rects)


def clip_boxes(pdf: Path, index: int, page_h: float) -> list[tuple[float, float, float, float]]:
    """The rectangles a page's content stream clips to (x, y, w, h in mm from the top left)."""
    import re

    from pypdf import PdfReader
    data = PdfReader(pdf).pages[index].get_contents().get_data().decode("latin-1")
    num = r"(-?[\d.]+)"
    return [(float(a) / MM, page_h - (float(b) + float(d)) / MM, float(c) / MM, float(d) / MM)
            for a, b, c, d in re.findall(rf"{num} {num} {num} {num} re\s+W\*?\s+n", data)]


def words_in(page, box) -> set[str]:
    x, y, w, h = box
    return {wd["text"] for wd in page.extract_words()
            if x < wd["x0"] / MM and wd["x1"] / MM < x + w and y < wd["top"] / MM and wd["bottom"] / MM < y + h}


def turned_words(page, box) -> set[str]:
    """The words of text drawn upside down (turned 180°) inside ``box``; every character there
    must be turned, and each line reads right to left on the page."""
    x, y, w, h = box
    chars = [ch for ch in page.chars if x < ch["x0"] / MM and ch["x1"] / MM < x + w
             and y < ch["top"] / MM and ch["bottom"] / MM < y + h]
    assert chars, box
    for ch in chars:
        a, b, c, d, _, _ = ch["matrix"]
        assert a < 0 and d < 0 and abs(b) < 1e-6 and abs(c) < 1e-6, (ch["text"], ch["matrix"])
    lines: dict[float, list] = {}
    for ch in chars:
        lines.setdefault(round(ch["bottom"], 0), []).append(ch)
    return {word for line in lines.values()
            for word in "".join(ch["text"] for ch in sorted(line, key=lambda ch: -ch["x0"])).split()}


def assert_crop_marks(page, trims) -> None:
    """Marks lie on the trim lines, cover every trim line, and never reach into a card."""
    xs = {round(v, 3) for x, y, w, h in trims for v in (x, x + w)}
    ys = {round(v, 3) for x, y, w, h in trims for v in (y, y + h)}
    marks = [(ln["x0"] / MM, ln["top"] / MM, ln["x1"] / MM, ln["bottom"] / MM) for ln in page.lines]
    seen_x, seen_y = set(), set()
    for x0, y0, x1, y1 in marks:
        vertical = abs(x0 - x1) < 1e-6
        assert 1.0 <= max(x1 - x0, y1 - y0) <= 6.0 + TOL     # short marks, not lines across the sheet
        on = [v for v in (xs if vertical else ys) if abs(v - (x0 if vertical else y0)) < TOL]
        assert on, (x0, y0, x1, y1)
        (seen_x if vertical else seen_y).add(on[0])
        for x, y, w, h in trims:              # not inside a card, not along its cut edge
            if vertical:
                assert not (x - TOL <= x0 <= x + w + TOL and y0 < y + h - TOL and y1 > y + TOL), (x0, y0, y1)
            else:
                assert not (y - TOL <= y0 <= y + h + TOL and x0 < x + w - TOL and x1 > x + TOL), (y0, x0, x1)
    assert seen_x == xs and seen_y == ys


def assert_inside_margin(page, entry, W: float, H: float, margin: float) -> None:
    """No card's bleed, no crop mark and no character closer than ``margin`` to an edge."""
    def inside(x0, y0, x1, y1) -> bool:
        return x0 >= margin - TOL and y0 >= margin - TOL and x1 <= W - margin + TOL and y1 <= H - margin + TOL
    for c in entry["cards"]:
        x, y, w, h = c["bleed_box"]
        assert inside(x, y, x + w, y + h), (entry["page"], c)
    for ln in page.lines:
        assert inside(ln["x0"] / MM, ln["top"] / MM, ln["x1"] / MM, ln["bottom"] / MM), ln
    for ch in page.chars:
        assert inside(ch["x0"] / MM, ch["top"] / MM, ch["x1"] / MM, ch["bottom"] / MM), ch["text"]


def assert_sheets(pdf: Path, manifest: dict, types: dict[str, str], paper: tuple[float, float],
                  duplex: str = "long", offset: tuple[float, float] = (0.0, 0.0)) -> None:
    """Every page of cards.pdf against its manifest entry, to 0.1 mm."""
    W, H = paper
    assert manifest["page_size"] == pytest.approx([W, H])
    assert (manifest["duplex"], manifest["offset"]) == (duplex, list(offset))
    pages = manifest["pages"]
    assert [p["side"] for p in pages] == ["front", "back"] * (len(pages) // 2)
    laid = manifest["bleed"]                  # the bleed the cards are laid out with (game.yaml)
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == len(pages)
        for index, (page, entry) in enumerate(zip(doc.pages, pages)):
            assert (page.width / MM, page.height / MM) == pytest.approx((W, H), abs=TOL)
            b = entry["grid"]["bleed"]
            rects = boxes(page)
            clips = clip_boxes(pdf, index, H) if b < laid else []
            for card in entry["cards"]:
                x, y, w, h = card["trim"]
                assert (w, h) == (63.0, 88.0)
                assert card["bleed_box"] == pytest.approx([x - b, y - b, w + 2 * b, h + 2 * b], abs=1e-3)
                if b == laid:                 # the card's background is printed exactly to its bleed box
                    assert has_box(rects, card["bleed_box"]), (card["id"], entry["page"])
                else:                         # or laid out wider and clipped to the narrower bleed box
                    assert has_box(rects, (x - laid, y - laid, w + 2 * laid, h + 2 * laid)), card["id"]
                    assert has_box(clips, card["bleed_box"]), (card["id"], entry["page"])
            assert_inside_margin(page, entry, W, H, manifest["margin"])
            if entry["side"] == "front":
                assert_crop_marks(page, [c["trim"] for c in entry["cards"]])
            else:                             # no marks on backs: they are cut from the front
                assert not page.lines
        for k in range(0, len(pages), 2):
            front, back = pages[k], pages[k + 1]
            assert [c["id"] for c in front["cards"]] == [c["id"] for c in back["cards"]]
            fpage, bpage = doc.pages[k], doc.pages[k + 1]
            for f, bk in zip(front["cards"], back["cards"]):
                x, y, w, h = f["trim"]
                dx, dy = offset               # behind the front: mirrored across the flip edge, then shifted
                expect = (W - x - w + dx, y + dy) if duplex == "long" else (x + dx, H - y - h + dy)
                assert bk["trim"][:2] == pytest.approx(expect, abs=1e-3)
                # each front shows its card's name, each back its type, where the manifest says
                assert f["name"].split()[0] in words_in(fpage, f["trim"]), f
                # long-edge backs stand upright; short-edge backs upside down, so that either way a
                # cut card turned over sideways shows its back the right way up
                back_words = words_in(bpage, bk["trim"]) if duplex == "long" else turned_words(bpage, bk["trim"])
                assert types[f["id"]].upper() in back_words, bk
            assert all(ch["matrix"][0] > 0 for ch in fpage.chars)           # fronts upright
            if duplex == "long":
                assert all(ch["matrix"][0] > 0 for ch in bpage.chars)


def test_a4_long_edge(a4, card_types):
    pdf, manifest = a4
    assert manifest["paper"] == "A4" and manifest["bleed"] == 3.0 and manifest["margin"] == 4.2
    # 210 mm - 2 × 4.2 mm margin - 2 × 3 mm crop-mark room - 3 × 63 mm = 6.6 mm for six bleeds
    assert all(p["grid"] == {"cols": 3, "rows": 3, "bleed": 1.1} for p in manifest["pages"])
    fit = manifest["fit"]["poker"]
    assert (fit["per_sheet"], fit["bleed"]) == (9, 1.1)
    assert [g["what"] for g in fit["given_up"]] == ["bleed"] and "1.10 mm bleed" in fit["given_up"][0]["message"]
    assert_sheets(pdf, manifest, card_types, (210, 297))


def test_back_is_the_mirror_of_the_front_for_long_edge(a4):
    _, manifest = a4
    front, back = manifest["pages"][0], manifest["pages"][1]
    for f, b in zip(front["cards"], back["cards"]):
        x, y, w, h = f["trim"]
        assert b["trim"] == pytest.approx([210 - x - w, y, w, h], abs=1e-6)


def test_nine_cards_per_a4_sheet_and_all_copies(a4):
    _, manifest = a4
    fronts = [p for p in manifest["pages"] if p["side"] == "front"]
    assert all(len(p["cards"]) <= 9 for p in fronts) and all(len(p["cards"]) == 9 for p in fronts[:-1])
    assert sum(len(p["cards"]) for p in fronts) == 156


def test_short_edge_with_offset(tmp_path, card_types):
    pdf, manifest, _ = build(tmp_path, "--duplex", "short", "--offset", "0.5mm,-1mm")
    assert_sheets(pdf, manifest, card_types, (210, 297), "short", (0.5, -1.0))
    f, b = manifest["pages"][0]["cards"][0], manifest["pages"][1]["cards"][0]
    x, y, w, h = f["trim"]
    assert b["trim"] == pytest.approx([x + 0.5, 297 - y - h - 1.0, w, h], abs=1e-6)
    qpdf_check(pdf)


def test_letter_by_flag_prints_nine_cards_whole_inside_the_margin(tmp_path, card_types):
    pdf, manifest, probs = build(tmp_path, "--paper", "Letter", "--offset", "1mm,0.5mm")
    assert manifest["paper"] == "Letter"
    assert_sheets(pdf, manifest, card_types, (215.9, 279.4), "long", (1.0, 0.5))
    first = manifest["pages"][0]
    # three 88 mm rows leave 7 mm of the 271 mm between the margins, less twice the backs' 0.5 mm
    # offset: 1 mm bleed, no room for crop marks above and below the block — the column cuts are
    # marked where rows meet instead
    assert first["grid"] == {"cols": 3, "rows": 3, "bleed": 1.0} and len(first["cards"]) == 9
    assert manifest["fit"]["poker"]["per_sheet"] == 9
    assert not [p for p in probs if p["rule"] == "PRINT-FIT" and p["severity"] == "warning"], probs
    assert [g["what"] for g in manifest["fit"]["poker"]["given_up"]] == ["bleed"]
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        trims = [c["trim"] for c in first["cards"]]
        top = min(t[1] for t in trims) - 1.0
        bottom = max(t[1] + t[3] for t in trims) + 1.0
        vertical = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 1e-6]
        # no vertical mark above or below the block; each column cut marked in both row junctions
        assert all(top < ln["top"] / MM and ln["bottom"] / MM < bottom for ln in vertical)
        for x in {round(v, 3) for t in trims for v in (t[0], t[0] + t[2])}:
            ticks = {round(ln["top"] / MM) for ln in vertical if abs(ln["x0"] / MM - x) < TOL}
            assert len(ticks) == 2, (x, ticks)
    qpdf_check(pdf)


def test_letter_without_crop_marks_keeps_nine(tmp_path, card_types):
    g = GameCopy(tmp_path, GAME).only("cards")
    g.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", "  crop_marks: false")
    code, probs, out = g.build("--paper", "Letter")
    assert code == 0 and not [p for p in probs if p["severity"] == "warning"], probs
    manifest = json.loads((out / "cards.json").read_text())
    assert manifest["pages"][0]["grid"] == {"cols": 3, "rows": 3, "bleed": 1.1667}
    with pdfplumber.open(out / "cards.pdf") as doc:
        for entry in manifest["pages"][:2]:
            page = doc.pages[entry["page"] - 1]
            assert not page.lines
            assert_inside_margin(page, entry, 215.9, 279.4, 4.2)


def test_letter_from_the_games_yaml(tmp_path, card_types):
    g = GameCopy(tmp_path, GAME).only("cards")
    g.edit(f"rules/{GAME}/game.yaml", "  paper: A4", "  paper: Letter")
    code, probs, out = g.build()
    assert code == 0, probs
    manifest = json.loads((out / "cards.json").read_text())
    assert manifest["paper"] == "Letter"
    assert_sheets(out / "cards.pdf", manifest, card_types, (215.9, 279.4))


def test_grid_maths():
    g = make_grid(210, 297, 63, 88, 3)
    assert (g.cols, g.rows, g.bleed, g.gap_x) == (3, 3, 3, 6)
    assert g.trim(0, 0) == pytest.approx((4.5, 10.5, 63, 88))
    ps = PrintSettings(duplex="long", offset=(1.0, 2.0))
    assert back_position(4.5, 10.5, 63, 88, ps) == pytest.approx((210 - 67.5 + 1, 12.5))
    ps = PrintSettings(duplex="short", offset=(1.0, 2.0))
    assert back_position(4.5, 10.5, 63, 88, ps) == pytest.approx((5.5, 297 - 98.5 + 2))


def test_outputs_pass_qpdf(a4):
    """(That a second build gives the same bytes, these two files included, is
    tests/test_full_build.py::test_the_same_sources_give_byte_identical_outputs.)"""
    pdf, _ = a4
    qpdf_check(pdf)
    qpdf_check(pdf.parent / "duplex-calibration.pdf")


def calibration_lines(pdf: Path):
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 2
        out = []
        for page in doc.pages:
            v = sorted(round(ln["x0"] / MM, 2) for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 1e-6)
            h = sorted(round(ln["top"] / MM, 2) for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 1e-6)
            out.append((v, h, page.extract_text()))
        return out


@pytest.mark.parametrize("flags,paper", [((), (210, 297)), (("--paper", "Letter", "--duplex", "short"), (215.9, 279.4))])
def test_calibration_sheet_is_a_centred_grid_of_offsets(a4, tmp_path, flags, paper):
    if flags:
        g = GameCopy(tmp_path, GAME).only("duplex-calibration")
        code, probs, out = g.build(*flags)
        assert code == 0, probs
        sheet = out / "duplex-calibration.pdf"
    else:
        sheet = a4[0].parent / "duplex-calibration.pdf"
    W, H = paper
    (fv, fh, _), (bv, bh, text) = calibration_lines(sheet)
    assert fv == [round(W / 2, 2)] and fh == [round(H / 2, 2)]          # the front: a cross through the centre
    # the back: a grid of 1 mm steps, -10 … +10 mm around the same centre, labelled every 5 mm
    assert bv == [round(W / 2 + k, 2) for k in range(-10, 11)]
    assert bh == [round(H / 2 + k, 2) for k in range(-10, 11)]
    for label in ("−10", "−5", "0", "+5", "+10"):
        assert text.count(label) >= 2, label
    assert "cardgen calibrate PRINTER --offset" in text and "--printer PRINTER" in text and "game.yaml" not in text
    with pdfplumber.open(sheet) as doc:      # the front's frame just inside the printer's margin, to check it
        frame = [b for b in boxes(doc.pages[0]) if b[2] > W / 2]
        # a 0.2 mm line whose outer edge is the 4.2 mm margin (pdfplumber gives the line's centre)
        assert frame == [pytest.approx((4.3, 4.3, W - 8.6, H - 8.6), abs=0.01)]
        assert "4.2 mm from the edges" in doc.pages[0].extract_text()
    qpdf_check(sheet)

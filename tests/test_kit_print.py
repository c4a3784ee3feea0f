"""Paper a home printer likes (issue 32), read back from the PDFs: every font a PDF names is
embedded; each card front carries its number and edition; an ink-saver option for the backs;
the booklet's back cover keeps inside the printer's margin; a one-page readme.pdf whose
checklist agrees with what cards.pdf prints."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.printables.cardmarks import numbering
from cardgen.printables.readme import card_counts, card_sheets
from tests.conftest import ROOT, GameCopy, qpdf_check
from tests.player_text import games

MM = 72 / 25.4
GAME = "loot_battles"


def fonts_not_embedded(pdf: Path) -> list[str]:
    """The fonts ``pdffonts`` lists as not embedded (a print shop's preflight flags each)."""
    if shutil.which("pdffonts") is None:
        pytest.skip("poppler-utils (pdffonts) not installed")
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    return [r.split()[0] for r in rows if r.split()[-5] != "yes"]


def _cards_built_with(tmp_path: Path, setting: str) -> Path:
    """The game's cards built with one more line under ``print:`` (e.g. ``layout: fold``): its
    output folder."""
    g = GameCopy(tmp_path, GAME).only("cards")
    g.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", f"  crop_marks: true\n  {setting}")
    code, probs, out = g.build()
    assert code == 0, probs
    return out


@pytest.mark.parametrize("slug", games(ROOT))
def test_every_font_of_every_pdf_is_embedded(full_build, slug):
    out = full_build.game(slug)
    pdfs = sorted(out.rglob("*.pdf"))
    assert pdfs
    bad = {str(p.relative_to(out)): f for p in pdfs if (f := fonts_not_embedded(p))}
    assert not bad, bad


def test_the_font_check_finds_a_font_not_embedded(tmp_path):
    from reportlab.pdfgen import canvas
    c = canvas.Canvas(str(tmp_path / "t.pdf"), initialFontName="Helvetica")
    c.drawString(10, 10, "Helvetica, referenced and not embedded")
    c.save()
    assert fonts_not_embedded(tmp_path / "t.pdf") == ["Helvetica"]


def test_each_front_carries_its_number_and_edition(full_build):
    out = full_build.game(GAME)
    manifest = json.loads((out / "cards.json").read_text())
    game = load_game(ROOT, GAME, Problems())
    labels = numbering(game)
    assert labels[game.cards[0].id] == f"1/{len(game.cards)} · v1.0"         # rules/loot_battles/rulebook
    assert len(set(labels.values())) == len(game.cards)
    with pdfplumber.open(out / "cards.pdf") as doc:
        for entry in manifest["pages"][:4]:
            page = doc.pages[entry["page"] - 1]
            for c in entry["cards"]:
                x, y, w, h = c["trim"]
                # in the bottom-right corner of the safe area (3 mm inside the trim), on fronts only
                words = " ".join(wd["text"] for wd in page.extract_words()
                                 if x + w / 2 < wd["x0"] / MM and wd["x1"] / MM <= x + w - 3 + 0.1
                                 and y + h - 12 < wd["top"] / MM and wd["bottom"] / MM <= y + h - 3 + 0.1)
                assert (labels[c["id"]] in words) == (entry["side"] == "front"), (entry["page"], c["id"], words)
                if entry["side"] == "front":
                    assert all(ch["size"] >= 6 - 0.01 for ch in page.chars if ch["text"] == "/")


def test_numbers_can_be_turned_off(tmp_path):
    out = _cards_built_with(tmp_path, "card_numbers: false")
    with pdfplumber.open(out / "cards.pdf") as doc:
        assert "/68" not in doc.pages[0].extract_text()


def test_ink_saver_backs_are_a_light_tint_with_the_type(tmp_path):
    out = _cards_built_with(tmp_path, "ink_saver: true")
    manifest = json.loads((out / "cards.json").read_text())
    with pdfplumber.open(out / "cards.pdf") as doc:
        back = doc.pages[1]
        fills = {tuple(round(v, 2) for v in r["non_stroking_color"]) for r in back.rects if r["fill"]}
        assert fills and all(min(f) > 0.9 for f in fills), fills          # no dark full-bleed colour
        text = back.extract_text()
        for c in manifest["pages"][1]["cards"]:
            assert c["id"] in {"class_melee", "class_ranged"} or "ENEMY" in text
        assert "CLASS" in text and "Loot & Battles" in text
        front_fills = {tuple(round(v, 2) for v in r["non_stroking_color"]) for r in doc.pages[0].rects if r["fill"]}
        assert any(min(f) < 0.5 for f in front_fills)                   # the fronts keep their colour
    qpdf_check(out / "cards.pdf")


def test_the_booklets_back_cover_band_keeps_inside_the_margin_on_letter(tmp_path):
    g = GameCopy(tmp_path, GAME).only("rulebook")
    code, probs, out = g.build("--paper", "Letter")
    assert code == 0, probs
    with pdfplumber.open(out / "rulebook-booklet.pdf") as doc:
        page = doc.pages[0]                     # the cover sheet: back cover left, front cover right
        W, H = page.width / MM, page.height / MM
        bands = [r for r in page.rects if r["fill"] and r["width"] / MM > 40 and r["height"] / MM < 20]
        assert bands
        for r in bands:
            x0, top, x1, bottom = (r[k] / MM for k in ("x0", "top", "x1", "bottom"))
            assert x0 >= 4.2 - 0.05 and top >= 4.2 - 0.05 and x1 <= W - 4.2 + 0.05 and bottom <= H - 4.2 + 0.05


@pytest.mark.parametrize("slug", games(ROOT))
def test_readme_is_one_page_that_agrees_with_the_build(full_build, slug):
    out = full_build.game(slug)
    game = load_game(ROOT, slug, Problems())
    pages = full_build.pages(out / "readme.pdf")
    assert len(pages) == 1
    text = " ".join(pages[0].split())
    manifest = json.loads((out / "cards.json").read_text())
    sheets = sum(1 for p in manifest["pages"] if p["side"] == "front")
    assert card_sheets(game) == sheets
    assert f"cards.pdf — {sheets} sheets" in text and f"Paper: {game.print.paper}" in text
    assert f"flip on the {game.print.duplex} edge" in text
    printed = sum(len(p["cards"]) for p in manifest["pages"] if p["side"] == "front")
    assert f"{printed} cards in all" in text
    for name, designs, copies, _ in card_counts(game):
        assert f"{name}: {copies} card{'s' * (copies != 1)} ({designs} design" in text, name
    for name in game.printables:
        if name != "readme":
            assert name in text, name
    qpdf_check(out / "readme.pdf")


def test_fold_and_glue_puts_each_back_beside_its_front(tmp_path):
    out = _cards_built_with(tmp_path, "layout: fold")
    manifest = json.loads((out / "cards.json").read_text())
    pages = manifest["pages"]
    assert {p["side"] for p in pages} == {"fold"}
    # A4: a 126 × 88 mm pair a row, three rows — one side of the paper, no duplex
    assert pages[0]["grid"]["cols"] == 1 and pages[0]["grid"]["rows"] == 3
    assert sum(len(p["cards"]) for p in pages) == 156
    with pdfplumber.open(out / "cards.pdf") as doc:
        assert len(doc.pages) == len(pages)
        for entry in pages[:3]:
            page = doc.pages[entry["page"] - 1]
            for c in entry["cards"]:
                x, y, w, h = c["trim"]
                assert c["back_trim"] == pytest.approx([x + w, y, w, h])
                front = {wd["text"] for wd in page.extract_words() if x < wd["x0"] / MM and wd["x1"] / MM < x + w}
                back = {wd["text"] for wd in page.extract_words() if x + w < wd["x0"] / MM < x + 2 * w}
                assert c["name"].split()[0] in front and ("CLASS" in back or "ENEMY" in back), (front, back)
                fold = [ln for ln in page.lines if abs(ln["x0"] / MM - (x + w)) < 0.05]
                assert any(ln["top"] / MM < y - 0.5 for ln in fold)          # marked outside the block too
                assert any(abs(ln["top"] / MM - y) < 0.05 and abs(ln["bottom"] / MM - (y + h)) < 0.05
                           for ln in fold)                                   # the dashed fold line
    qpdf_check(out / "cards.pdf")

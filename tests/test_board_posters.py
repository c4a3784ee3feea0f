"""Large boards for a copy shop (issue 32): ``print: boards: poster`` prints each board or mat as
one page of its own size, true scale, instead of tiles to tape together; Tabloid paper (like A3)
takes the whole sheet per tile, so a mat needs far fewer sheets. Read back from the PDFs: page
count, page sizes to 0.1 mm, qpdf --check."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.boards import POSTER_MARGIN, _boards
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.core.units import PAPER_MM
from tests.conftest import ROOT, GameCopy, qpdf_check

MM = 72 / 25.4
GAME = "boss_fight"


def _sizes(pdf) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width) / MM, float(p.mediabox.height) / MM) for p in PdfReader(str(pdf)).pages]


def _mats(slug: str) -> list:
    """Every mat the game prints (one per copy), as boards: their sizes in mm."""
    game = load_game(ROOT, slug, Problems())
    return [b for _, scenes in _boards(game, Problems())["mats"] for b in scenes]


def _built(tmp_path, setting: str) -> tuple[int, list[dict], object]:
    g = GameCopy(tmp_path, GAME).only("mats")
    g.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", f"  crop_marks: true\n  {setting}")
    return g.build()


def test_a_poster_build_prints_each_mat_on_one_page_of_its_own_size(tmp_path):
    code, probs, out = _built(tmp_path, "boards: poster")
    assert code == 0, probs
    pdf = out / "mats.pdf"
    qpdf_check(pdf)
    mats = _mats(GAME)
    sizes = _sizes(pdf)
    assert len(sizes) == len(mats) >= 2
    for (w, h), b in zip(sizes, mats):
        assert w == pytest.approx(b.w + 2 * POSTER_MARGIN, abs=0.1)
        assert h == pytest.approx(b.h + 2 * POSTER_MARGIN, abs=0.1)
    trims = [p.trimbox for p in PdfReader(str(pdf)).pages]
    for t, b in zip(trims, mats):
        assert float(t.width) / MM == pytest.approx(b.w, abs=0.1)
        assert float(t.height) / MM == pytest.approx(b.h, abs=0.1)


def test_tiled_is_the_default_and_poster_saves_every_seam(tmp_path):
    code, probs, out = GameCopy(tmp_path, GAME).only("mats").build()
    assert code == 0, probs
    tiled = _sizes(out / "mats.pdf")
    a4 = PAPER_MM["A4"]
    assert all(sorted((round(w, 1), round(h, 1))) == sorted(a4) for w, h in tiled)
    assert len(tiled) > len(_mats(GAME))          # assembly pages and tiles: more sheets than mats


@pytest.mark.parametrize("paper", ["Tabloid", "A3"])
def test_large_paper_takes_fewer_sheets(tmp_path, paper):
    code, probs, out = _built(tmp_path / paper, f"boards: tiled\n  # {paper}")
    assert code == 0, probs
    a4_pages = len(_sizes(out / "mats.pdf"))
    g = GameCopy(tmp_path / f"{paper}-big", GAME).only("mats")
    g.edit(f"rules/{GAME}/game.yaml", "  paper: A4", f"  paper: {paper}")
    code, probs, big_out = g.build()
    assert code == 0, probs
    pdf = big_out / "mats.pdf"
    qpdf_check(pdf)
    sizes = _sizes(pdf)
    w, h = PAPER_MM[paper]
    assert all(sorted((w0, h0)) == pytest.approx(sorted((w, h)), abs=0.1) for w0, h0 in sizes)
    assert len(sizes) < a4_pages


def test_an_unknown_boards_setting_is_reported_at_its_line(tmp_path):
    g = GameCopy(tmp_path, GAME).only("mats")
    line = g.edit(f"rules/{GAME}/game.yaml", "  crop_marks: true", "  crop_marks: true\n  boards: posters") + 1
    code, probs = g.validate()
    assert code == 1
    assert any(p["file"].endswith("game.yaml") and p["line"] == line and "posters" in p["message"] for p in probs), probs

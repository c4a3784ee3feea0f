"""`cardgen build` of every game, as `make build` runs it: every printable each game lists is
written, every PDF passes `qpdf --check`, and a second build gives byte-identical files.

The first build is the session's shared one (``full_build``); the second, from nothing (no
cache), is the suite's one determinism test of whole builds."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess

import pytest

from cardgen.loader import list_games, load_game
from cardgen.problems import Problems
from tests.conftest import ROOT, problems_json, qpdf_check


def digest(folder) -> dict[str, str]:
    """The outputs under a folder (not the build cache, .cache)."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.relative_to(folder).parts}


GAMES = sorted(p.parent.name for p in ROOT.glob("rules/*/game.yaml"))     # every game of the project


@pytest.fixture
def full(full_build):
    return full_build.out


def test_every_game_writes_every_printable_it_lists(full):
    games = list_games(ROOT)
    assert sorted(games) == GAMES and len(GAMES) >= 5
    assert sorted(p.name for p in full.iterdir() if p.is_dir() and p.name != ".cache") == GAMES
    first_file = {"cards": "cards.pdf", "duplex-calibration": "duplex-calibration.pdf", "rulebook": "rulebook.pdf",
                  "tokens": "tokens.pdf", "mats": "mats.pdf", "board": "board.pdf", "maps": "maps"}
    for slug in games:
        game = load_game(ROOT, slug, Problems())
        for name in game.printables:
            if name in first_file:
                assert (full / slug / first_file[name]).exists(), (slug, name)
        if "cards" in game.printables:
            assert (full / slug / "cards.json").is_file()


def test_every_pdf_of_the_build_passes_qpdf(full):
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf not installed")
    pdfs = sorted(full.rglob("*.pdf"))
    assert len(pdfs) >= 30
    for pdf in pdfs:
        qpdf_check(pdf)
        assert pdf.read_bytes()[:5] == b"%PDF-" and b"%%EOF" in pdf.read_bytes()[-64:]


def test_the_same_sources_give_byte_identical_outputs(full, tmp_path):
    again = tmp_path / "build"
    os.environ["CARDGEN_CACHE"] = "off"         # a clean build, from nothing
    try:
        code, probs = problems_json("build", "--out", str(again))
    finally:
        del os.environ["CARDGEN_CACHE"]
    assert code == 0, probs
    first, second = digest(full), digest(again)
    assert first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []


def test_pdftoppm_renders_every_card_sheet(full, tmp_path):
    """The card sheets rasterise (poppler reads every page the way a print driver would)."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils not installed")
    for pdf in sorted(full.glob("*/cards.pdf")):
        r = subprocess.run(["pdftoppm", "-r", "10", "-png", str(pdf), str(tmp_path / pdf.parent.name)],
                           capture_output=True, text=True)
        assert r.returncode == 0 and not r.stderr, (pdf, r.stderr)

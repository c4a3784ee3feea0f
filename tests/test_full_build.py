"""`cardgen build` of every game of the project: every printable each game lists is written,
every PDF passes `qpdf --check`, and a second build gives byte-identical files.

The first build is the session's shared one (``full_build``: ``cardgen build GAME`` of each
game); the second, from nothing (no cache), is the suite's one determinism test of whole builds."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess

import pytest

from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from tests.conftest import ROOT, problems_json, qpdf_check
from tests.test_games_are_data import SLUG, make_project


def digest(folder) -> dict[str, str]:
    """The outputs under a folder (not the build cache, .cache)."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.relative_to(folder).parts}


GAMES = sorted(p.parent.name for p in ROOT.glob("rules/*/game.yaml"))     # every game of the project


def test_every_game_writes_every_printable_it_lists(full_build):
    games = list_games(ROOT)
    assert sorted(games) == GAMES and len(GAMES) >= 5
    first_file = {"cards": "cards.pdf", "duplex-calibration": "duplex-calibration.pdf", "rulebook": "rulebook.pdf",
                  "tokens": "tokens.pdf", "mats": "mats.pdf", "board": "board.pdf", "maps": "maps",
                  "readme": "readme.pdf"}
    for slug, out in full_build.games(games).items():
        game = load_game(ROOT, slug, Problems())
        assert full_build.code(slug) == 0 and not [p for p in full_build.problems(slug) if p["severity"] == "error"]
        for name in game.printables:
            if name in first_file:
                assert (out / first_file[name]).exists(), (slug, name)
        if "cards" in game.printables:
            assert (out / "cards.json").is_file()


def test_every_pdf_of_the_build_passes_qpdf(full_build):
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf not installed")
    pdfs = sorted(pdf for out in full_build.games(GAMES).values() for pdf in out.rglob("*.pdf"))
    assert len(pdfs) >= 30
    for pdf in pdfs:
        qpdf_check(pdf)
        assert pdf.read_bytes()[:5] == b"%PDF-" and b"%%EOF" in pdf.read_bytes()[-64:]


def widest_game() -> str:
    """The game that prints the most kinds of printable (the first by name among equals): its
    build runs the most of cardgen's output code."""
    return max(GAMES, key=lambda slug: (len(load_game(ROOT, slug, Problems()).printables), [-ord(c) for c in slug]))


def test_the_same_sources_give_byte_identical_outputs(full_build, tmp_path):
    """The suite's one determinism test of whole builds: the widest game built again from
    nothing, in this process, compared byte for byte with the session's build (made first by
    whichever worker asked for it)."""
    slug = widest_game()
    again = tmp_path / "build"
    os.environ["CARDGEN_CACHE"] = "off"         # a clean build, from nothing
    try:
        code, probs = problems_json("build", slug, "--out", str(again))
    finally:
        del os.environ["CARDGEN_CACHE"]
    assert code == 0, probs
    first, second = digest(full_build.game(slug)), digest(again / slug)
    assert first.keys() == second.keys() and first
    assert [name for name in first if first[name] != second[name]] == []


def test_pdftoppm_renders_every_card_sheet(full_build, tmp_path):
    """The card sheets rasterise (poppler reads every page the way a print driver would)."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils not installed")
    sheets = [full_build.game(slug) / "cards.pdf" for slug in GAMES]
    for pdf in [p for p in sheets if p.is_file()]:
        r = subprocess.run(["pdftoppm", "-r", "10", "-png", str(pdf), str(tmp_path / pdf.parent.name)],
                           capture_output=True, text=True)
        assert r.returncode == 0 and not r.stderr, (pdf, r.stderr)


def test_build_without_a_game_builds_every_game_as_each_alone(tmp_path):
    """``cardgen build`` naming no game (``make build``) builds every game of the project, each
    byte for byte as ``cardgen build GAME`` does (what the shared per-game builds stand on)."""
    project = make_project(tmp_path / "proj")
    for part in ("rules", "cards", "templates"):
        shutil.copytree(project / part / SLUG, project / part / "pebble_twin")
    code, probs = problems_json("build", "--out", str(tmp_path / "all"), root=project)
    assert code == 0, probs
    assert sorted(p.name for p in (tmp_path / "all").iterdir() if not p.name.startswith(".")) == ["pebble_race", "pebble_twin"]
    for slug in ("pebble_race", "pebble_twin"):
        code, probs = problems_json("build", slug, "--out", str(tmp_path / slug), root=project)
        assert code == 0, probs
        alone = digest(tmp_path / slug / slug)
        assert alone and digest(tmp_path / "all" / slug) == alone

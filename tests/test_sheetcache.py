"""Whole card sheets written again from the last build (printables.cards' sheets, layout.pagecache,
render.pdfreuse): a sheet whose cards did not change is put in the file as the last build's file
had its pages (no imposition, no drawing, no formatting), with its records in cards.json; the file
is byte for byte a clean build's, and an edit changes exactly the sheet that shows the card."""

from __future__ import annotations

import json
import re
import zlib
from base64 import a85decode
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main

SLUG = "bone_wars"
FILE = "cards/bone_wars/limbs.yaml"
TORSOS = "cards/bone_wars/torsos.yaml"


def build(root: Path, out: Path, cache: str = "debug") -> tuple[int, str, str]:
    res = CliRunner().invoke(main, ["--root", str(root), "build", SLUG, "--out", str(out),
                                    "--format", "json"], env={"CARDGEN_CACHE": cache})
    return res.exit_code, res.stdout, res.stderr


def reused(log: str) -> tuple[int, int]:
    """(pages reused, pages looked for) as CARDGEN_CACHE=debug tells them."""
    line = next(ln for ln in log.splitlines() if ln.startswith("cache ") and ln.endswith(" pages"))
    words = line.split()
    return int(words[2]), int(words[4])


def streams(pdf: bytes) -> list[bytes]:
    """Each page's operators, in page order (cardgen's pages: one ASCII85 + Flate stream each)."""
    objs = {int(m.group(1)): m.end() for m in re.finditer(rb"\n(\d+) 0 obj\n", pdf)}
    out = []
    for m in re.finditer(rb"/Contents (\d+) 0 R", pdf):
        at = objs[int(m.group(1))]
        start = pdf.index(b"stream\n", at) + 7
        out.append(zlib.decompress(a85decode(pdf[start:pdf.index(b"~>endstream", start) + 2], adobe=True)))
    return out


def card_pages(manifest: bytes, card: str) -> set[int]:
    return {p["page"] for p in json.loads(manifest)["pages"] for c in p["cards"] if c["id"] == card}


def edit_and_build(project, out: Path, rel: str, old: str, new: str) -> tuple[int, int, str]:
    """``old`` edited to ``new`` in ``rel``, built again into ``out``: the pages reused, asked, the log."""
    project.edit(rel, old, new)
    code, _, log = build(project.root, out)
    assert code == 0, log
    return (*reused(log), log)


def assert_clean(project, out: Path, clean: Path, edit: str = "") -> None:
    """The cards.pdf and cards.json ``out`` holds are those a clean build (no cache) writes."""
    assert build(project.root, clean, cache="off")[0] == 0
    for name in ("cards.pdf", "cards.json"):
        assert (out / SLUG / name).read_bytes() == (clean / SLUG / name).read_bytes(), (edit, name)


@pytest.fixture
def project(game_copy):
    return game_copy(SLUG).only("cards")


def test_an_edit_changes_exactly_its_sheet_and_equals_a_clean_build(project, tmp_path):
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert build(project.root, out)[0] == 0
    pdf0 = (out / SLUG / "cards.pdf").read_bytes()
    manifest = (out / SLUG / "cards.json").read_bytes()
    pages = card_pages(manifest, "torso_spino")
    assert pages and min(pages) > 2             # not the first sheet (whose first page names the fonts)
    sheet = {p for n in pages for p in (n - (n + 1) % 2, n - (n + 1) % 2 + 1)}
    project.edit(TORSOS, "Sail Spine", "Sail Spin")         # characters already in the document
    code, _, log = build(project.root, out)
    assert code == 0
    got, asked = reused(log)
    total = len(json.loads(manifest)["pages"])
    assert asked == total and got >= total - len(sheet), log
    assert_clean(project, out, clean)
    before, after = streams(pdf0), streams((out / SLUG / "cards.pdf").read_bytes())
    assert len(before) == len(after) == total
    changed = {k + 1 for k, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
    assert changed and changed <= sheet, (changed, sheet)
    project.edit(TORSOS, "Sail Spin", "Sail Spine")         # and back: the first build's bytes
    assert build(project.root, out)[0] == 0
    assert (out / SLUG / "cards.pdf").read_bytes() == pdf0
    assert (out / SLUG / "cards.json").read_bytes() == manifest


def test_a_breaking_edit_reports_what_a_clean_build_does_and_its_twin_builds_the_same(project, tmp_path):
    """With the sheets of the last build kept: a card given a bad value stops the build with the
    problems a clean build reports, at the same FILE:LINE:COL; its legal twin (another value) is
    written as a clean build writes it."""
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert build(project.root, out)[0] == 0
    project.edit(FILE, "atk: 1, hp: 4", 'atk: "lots", hp: 4')
    code, text, _ = build(project.root, out)
    code_clean, text_clean, _ = build(project.root, clean, cache="off")
    assert code == code_clean == 1
    problems = json.loads(text)["problems"]
    assert problems == json.loads(text_clean)["problems"]
    assert any(p["file"].endswith("limbs.yaml") and p["line"] == 6 for p in problems), problems
    project.edit(FILE, 'atk: "lots", hp: 4', "atk: 4, hp: 4")
    assert build(project.root, out)[0] == 0
    assert_clean(project, out, clean)


def test_a_sheet_after_a_new_character_is_drawn_again(project, tmp_path):
    """A character new to the document takes a code: the sheets after it start from another
    state and are drawn (a clean build's bytes); the sheets before it are written again."""
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert build(project.root, out)[0] == 0
    got, asked, log = edit_and_build(project, out, FILE, "Tyrant Hindlegs", "Tyrant Hindlegs Ж")
    assert 0 < got < asked, log
    assert_clean(project, out, clean)


def test_edit_after_edit_each_equals_a_clean_build(project, tmp_path):
    """Edits on one sheet after another: the sheets of the builds since the last full pack are
    read from the pack beside it, which is written whole again when it grows; every build is a
    clean build's bytes, and the sheets not edited are written again."""
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert build(project.root, out)[0] == 0
    edits = [(TORSOS, "Sail Spine", "Sail Spin"), (FILE, "Scythe Arms", "Scythe Arm"),
             (TORSOS, "Sail Spin", "Sail Spine"), (FILE, "Scythe Arm", "Scythe Arms"),
             (TORSOS, "Iguanodon Ribs", "Iguanodon Rib")]
    for rel, old, new in edits:
        got, asked, log = edit_and_build(project, out, rel, old, new)
        assert asked - got <= 3, (new, log)         # the first page (it names the fonts), the sheet edited
        assert_clean(project, out, clean, new)


def test_the_first_sheet_written_again_gives_the_page_tree_its_number_first(project, tmp_path):
    """Without card numbers the fonts are named by the forms, so the first sheet is kept too: the
    first page formatted is one written again, and the page tree must be numbered before its
    stream, as reportlab numbers them for a page it formats (caught: the two swapped)."""
    project.edit(f"rules/{SLUG}/game.yaml", "print:\n", "print:\n  card_numbers: false\n")
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert build(project.root, out)[0] == 0
    got, asked, log = edit_and_build(project, out, TORSOS, "Sail Spine", "Sail Spin")
    assert asked - got == 1, log                # the edited card's front alone drawn
    assert_clean(project, out, clean)

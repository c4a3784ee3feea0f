"""Every game's rulebook, read back from its PDFs: the current version, each older version and
the A5 booklet are written; the contents list the headings with the pages they stand on; the
running header and footer name the game, the version and the page; no page holds mis-decoded
text; every catalogue ruling is printed under its rule in the Clarifications; and
``cardgen rules diff`` compares the versions of every game.

The per-game files (test_rulebook_<game>.py, test_rulebook.py for Loot & Battles) test each
book's content; this one holds what every rulebook must do alike.
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

import cardgen.boards  # noqa: F401 - registers the board: images
from cardgen.content.catalogue import load_catalogue
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import Rulebook
from tests.conftest import ROOT, flat, run_cli
from tests.rulebooks import assert_toc_matches, outline, rulebook_names

GAMES = sorted(p.parent.name for p in (ROOT / "rules").glob("*/rulebook"))   # every game with a rulebook
MOJIBAKE = re.compile("[âÃÂ\ufffd]")       # UTF-8 read as cp1252/latin-1 (â‰¥ for ≥) or lost bytes
_BOOKS: dict[str, tuple[Rulebook, dict[str, bytes], dict[str, list[str]]]] = {}


@pytest.fixture
def book(full_build):
    """``book(slug)``: the game's rulebook, every file it wrote in the session's build of every
    game and the text of their pages (read once)."""
    def get(slug: str) -> tuple[Rulebook, dict[str, bytes], dict[str, list[str]]]:
        if slug not in _BOOKS:
            problems = Problems()
            rb = Rulebook(load_game(ROOT, slug, problems), problems)
            rb.check()
            out = full_build.game(slug)
            files = {name: (out / name).read_bytes() for name in rulebook_names(out)}
            assert files and not problems.has_errors, [p.text() for p in problems]
            _BOOKS[slug] = (rb, files, {name: full_build.pages(out / name) for name in files})
        return _BOOKS[slug]
    return get


def catalogue_rulings(slug: str) -> list[str]:
    """The rule IDs the catalogue gives rulings."""
    cat = load_catalogue(ROOT, slug, Problems())
    return [r.id for r in cat.rules.values() if r.rulings] if cat else []


@pytest.mark.parametrize("slug", GAMES)
def test_current_older_versions_and_booklet_are_written(book, slug):
    rb, files, _ = book(slug)
    older = [v.pdf_name for v in rb.versions if v is not rb.current]
    if not older:                                   # a new game's first draft: the current version only
        assert sorted(files) in (["rulebook-designer.pdf", "rulebook.pdf"],
                                 ["rulebook-booklet.pdf", "rulebook-designer.pdf", "rulebook.pdf"]), sorted(files)
        if "rulebook-booklet.pdf" not in files:
            return
    assert sorted(files) == sorted(["rulebook.pdf", "rulebook-booklet.pdf", "rulebook-designer.pdf", *older])
    booklet = PdfReader(io.BytesIO(files["rulebook-booklet.pdf"]))
    assert len(booklet.pages) % 2 == 0                                 # half pages padded to a multiple of 4
    w, h = float(booklet.pages[0].mediabox.width), float(booklet.pages[0].mediabox.height)
    assert w > h                                                       # two half pages side by side


def test_a_version_typesets_again_to_the_same_bytes(book):
    rb, files, _ = book(GAMES[0])
    first = rb.pdf(rb.current)
    assert rb.pdf(rb.current) == first == files["rulebook.pdf"]     # a story is spent by typesetting: built anew


@pytest.mark.parametrize("slug", GAMES)
def test_contents_match_headings_and_pages(book, slug):
    rb, files, texts = book(slug)
    for v in rb.versions:
        heads = [h.text for h in rb.headings(v) if h.level <= 2]
        prev = rb.previous(v)
        assert_toc_matches(files[v.pdf_name], texts[v.pdf_name], heads, prev.version if prev else None)


@pytest.mark.parametrize("slug", GAMES)
def test_outline_links_header_and_footer(book, slug):
    rb, files, texts = book(slug)
    cur = rb.current
    reader = PdfReader(io.BytesIO(files["rulebook.pdf"]))
    entries = outline(reader)
    if rb.previous(cur) is not None:                # the changes page closes a book with an older version
        assert [t for lvl, t, _ in entries if lvl == 0][-1] == f"Changes since v{rb.previous(cur).version}"
    assert [p for _, _, p in entries] == sorted(p for _, _, p in entries)
    annots = [a.get_object() for page in reader.pages for a in page.get("/Annots") or []]
    assert any(a.get("/Subtype") == "/Link" and "/Dest" in a for a in annots)       # internal links
    for n, text in enumerate(texts["rulebook.pdf"][1:], start=2):
        assert f"{cur.title} — Rulebook" in text, n
        assert f"Version {cur.version} · {cur.edition}" in text, n
        assert re.search(rf"(^|\s){n}\s*$", text), n


@pytest.mark.parametrize("slug", GAMES)
def test_no_mis_decoded_or_template_text_in_any_pdf(book, slug):
    _, _, texts = book(slug)
    for name, pages in texts.items():
        for n, text in enumerate(pages, start=1):
            assert not MOJIBAKE.search(text), (name, n, MOJIBAKE.findall(text))
            assert not re.search(r"\{\{|\}\}|\{%|%\}", text), (name, n)       # every card and ruling text expanded


@pytest.mark.parametrize("slug", GAMES)
def test_every_catalogue_ruling_is_clarified_under_its_rule(book, slug):
    rb, _, texts = book(slug)
    ids = {r["id"] for r in rb.game.params["rulings"]}
    missing = [i for i in catalogue_rulings(slug) if i not in ids]
    assert not missing, missing
    pages = texts["rulebook-designer.pdf"]         # the designer's edition keys them by rule ID
    start = next(i for i, t in enumerate(pages) if re.search(r"^Clarifications$", t, re.M))
    end = next((i for i, t in enumerate(pages) if i > start and re.search(r"^Changes since", t, re.M)), len(pages))
    lines = [ln.strip() for t in pages[start:end] for ln in t.splitlines()]
    terms = [ln for ln in lines if re.fullmatch(r"[A-Z0-9]+-[A-Z0-9]+-\d+", ln)]
    assert sorted(terms) == sorted(ids)                                # each rule once, every ruling's rule
    assert "{{" not in flat(" ".join(lines)) and "params." not in " ".join(lines)


@pytest.mark.parametrize("slug", GAMES)
def test_rules_diff_between_versions(book, slug):
    rb, _, _ = book(slug)
    if len(rb.versions) < 2:
        pytest.skip(f"{slug} has one rulebook version: nothing to compare")
    old = rb.versions[0].version
    code, out = run_cli("rules", "diff", slug, old, "current")
    assert code == 0
    assert re.search(r"^~ changed  ", out, re.M) and re.search(r"^\+ added    Clarifications$", out, re.M)

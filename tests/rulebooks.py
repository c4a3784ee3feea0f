"""Shared assertions of the per-game rulebook tests (tests/test_rulebook_*.py): the rulebook and
its older versions build clean, the sources check clean, and a broken source is reported at its
line."""

from __future__ import annotations

import io
import re
from pathlib import Path

from pypdf import PdfReader

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import check
from tests.conftest import ROOT, GameCopy, has_problem, qpdf_check
from tests.sharedbuild import Build


def rulebook_build(build: Build, slug: str) -> tuple[int, list[dict], Path]:
    """The session's build of the game (``full_build``): (exit code, problems, output folder)."""
    return build.code(slug), build.problems(slug), build.game(slug)


def rulebook_names(out: Path) -> list[str]:
    """The rulebook's files among a game's outputs (every one is named rulebook*.pdf)."""
    return sorted(p.name for p in out.iterdir() if p.name.startswith("rulebook"))


def assert_built_clean(built: tuple[int, list[dict], Path], names: list[str]) -> None:
    """The build (:func:`rulebook_build`) reported no problem and wrote exactly ``names`` as the
    rulebook, each a sound PDF."""
    code, probs, out = built
    assert code == 0 and not probs, probs
    assert rulebook_names(out) == sorted(names)
    for name in names:
        qpdf_check(out / name)


def assert_sources_check_clean(slug: str) -> None:
    problems = Problems()
    check(load_game(ROOT, slug, problems), problems)
    assert not problems.has_errors, [p.text() for p in problems]


def assert_break_reported(g: GameCopy, rule: str, rel: str, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in ``rel`` of a game copy: the rulebook check reports ``rule``
    at that file and line."""
    line = g.edit(rel, old, new)
    problems = Problems()
    check(load_game(g.root, g.slug, problems), problems)
    probs = [{"rule": p.rule, "file": p.loc.file if p.loc else "", "line": p.loc.line if p.loc else 0}
             for p in problems]
    assert has_problem(probs, rule, rel.split("/", 2)[-1], line), probs


def rulings(game) -> list[dict]:
    """The game's rulings as the Clarifications print them: {{ }} expressions filled in from
    params.yaml and the cards (the rulebook's own Jinja2 context)."""
    from cardgen.layout.templates import make_env
    from cardgen.rulebook import Rulebook
    from cardgen.rulebook.jinja import build_context

    book = Rulebook(game, Problems())
    ctx = build_context(game, book.current, book.versions)
    env = make_env()
    return [{"id": r["id"], "text": env.from_string(r["text"]).render(ctx)} for r in game.params["rulings"]]


def outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) of every outline entry of a PDF, in order."""
    out: list[tuple[int, str, int]] = []

    def walk(items, level):
        for it in items:
            if isinstance(it, list):
                walk(it, level + 1)
            else:
                out.append((level, it.title, reader.get_destination_page_number(it) + 1))
    walk(reader.outline, 0)
    return out


def assert_toc_matches(data: bytes, texts: list[str], headings: list[str], previous: str | None) -> None:
    """The contents pages of a rulebook PDF (``data``, its page ``texts``) list exactly the
    outline's chapter and section entries with the pages they stand on: the level-1 and level-2
    ``headings`` of the sources, then the "Changes since v``previous``" chapter; and each entry's
    title is printed on its page."""
    entries = outline(PdfReader(io.BytesIO(data)))
    contents_page = next(p for lvl, t, p in entries if t == "Contents")
    first_chapter = next(p for lvl, t, p in entries if lvl == 0 and t != "Contents")
    toc = []
    for page in range(contents_page, first_chapter):
        for line in texts[page - 1].splitlines():
            m = re.match(r"^(.+?)[ .]*?\s\.[ .]*(\d+)$", line)
            if m:
                toc.append((m.group(1).strip(), int(m.group(2))))
    expected = [(t, p) for lvl, t, p in entries if lvl <= 1 and t != "Contents"]
    assert toc == expected, (toc, expected)
    titles = [t for t, _ in toc]
    assert titles[: len(headings)] == headings
    if previous is not None:
        assert titles[len(headings)] == f"Changes since v{previous}"
    for title, page in toc:
        assert " ".join(title.split()) in " ".join(texts[page - 1].split()), (title, page)

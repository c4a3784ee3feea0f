"""Shared assertions of the per-game rulebook tests (tests/test_rulebook_*.py): the rulebook and
its older versions build clean, the sources check clean, and a broken source is reported at its
line."""

from __future__ import annotations

from pathlib import Path

from cardgen.loader import load_game
from cardgen.problems import Problems
from cardgen.rulebook import check
from tests.conftest import ROOT, GameCopy, has_problem, qpdf_check


def assert_built_clean(built: tuple[int, list[dict], Path], names: list[str]) -> None:
    """A ``GameCopy(...).only("rulebook").build()`` wrote exactly ``names``, each a sound PDF."""
    code, probs, out = built
    assert code == 0 and not probs, probs
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
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
    from cardgen.rulebook import Rulebook
    from cardgen.rulebook.jinja import build_context
    from cardgen.templates import make_env

    book = Rulebook(game, Problems())
    ctx = build_context(game, book.current, book.versions)
    env = make_env()
    return [{"id": r["id"], "text": env.from_string(r["text"]).render(ctx)} for r in game.params["rulings"]]

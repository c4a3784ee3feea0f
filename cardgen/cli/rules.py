"""``cardgen rules``: rulebook tools. Wire it in with ``main.add_command(rules)``.

``cardgen rules diff GAME A B`` prints what changed from version A to version B as typeset, section
by section and word by word, rule changes (changed numbers) apart from rewording; ``--changelog
FILE`` writes a Markdown draft (``current`` names the current version; ``v0.9`` and ``0.9`` are
the same).
``cardgen rules versions GAME`` lists the versions.
``cardgen rules explain RULE-ID`` prints a rule: its statement, section, rulings and where the
rulebook states it (exit 2, with the nearest ID, for an ID no catalogue knows).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from cardgen.cli.common import find_root, no_project
from cardgen.content.catalogue import rule_titles
from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.core.atomic import write_text
from cardgen.core.lazymod import lazy
from cardgen.core.problems import Problems, did_you_mean, safe, to_json
from cardgen.reference.explain import explain as explain_rule
from cardgen.reference.explain import known_ids

rulebook = lazy("cardgen.rulebook")             # typesetting: loaded by the commands that need it
rulebook_diff = lazy("cardgen.rulebook.diff")


def _root(ctx: click.Context) -> Path:
    obj = ctx.find_root().obj
    root = getattr(obj, "root", None)
    if root is None:
        found = find_root(Path.cwd())
        if found is None:
            no_project(Path.cwd())
        root = found.resolve()
    return Path(root)


def _game(root: Path, slug: str, problems: Problems) -> Any:
    games = list_games(root)
    if slug not in games:
        hint = did_you_mean(slug, games)
        raise click.UsageError(f"unknown game '{slug}'" + (f"; {hint}" if hint else "") +
                               f" (games: {', '.join(games) or 'none'})")
    return load_game(root, slug, problems)


def _report(problems: Problems, fmt: str) -> None:
    if fmt == "json":
        return
    for p in problems.sorted():
        click.echo(p.text())
    n = len(problems.errors)
    if n:
        click.echo(f"{n} error(s)", err=True)


FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Report as text lines or one JSON document.")


@click.group()
def rules() -> None:
    """Rule tools: explain a rule ID; rulebook versions and the changes between them."""


@rules.command()
@click.argument("game")
@click.argument("a")
@click.argument("b")
@click.option("--sections", "-s", "only_sections", is_flag=True,
              help="Print only the sections added, removed and changed, not their passages.")
@click.option("--detail", "-d", is_flag=True, hidden=True, help="Kept for old scripts: passages are printed anyway.")
@click.option("--changelog", "changelog", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a Markdown changelog draft to edit: rule changes first, rewording after.")
@click.option("--color/--no-color", "color", default=None,
              help="Colour the words removed and added (default: when printing to a terminal).")
@FORMAT
@click.pass_context
def diff(ctx: click.Context, game: str, a: str, b: str, only_sections: bool, detail: bool,
         changelog: Path | None, color: bool | None, fmt: str) -> None:
    """What changed from rulebook version A to version B of GAME, word by word.

    Both versions are compared as a player reads them, typeset: every game number filled in,
    icons and links rendered. Sections are listed with their changed passages; a passage whose
    numbers changed is marked RULE (a rule change), apart from new, removed and reworded text.
    A version is named 0.9, v0.9 or current.
    """
    root = _root(ctx)
    problems = Problems()
    g = _game(root, game, problems)
    book = rulebook.Rulebook(g, problems) if g is not None else None
    versions = book.versions if book else []
    found = []
    for name in (a, b):
        v = rulebook.find_version(versions, name)
        if v is None and book is not None and versions:
            known = [x.version for x in versions]
            raise click.UsageError(f"{game} has no rulebook version '{name}'" +
                                   (f"; {h}" if (h := did_you_mean(name.lstrip('vV'), known)
                                                  or did_you_mean(name, ["current", "latest"])) else "") +
                                   f" (versions: {', '.join(known)}, or 'current')")
        found.append(v)
    if changelog is not None and not changelog.parent.resolve().is_dir():
        raise click.UsageError(f"cannot write the changelog to '{changelog}': folder "
                               f"'{changelog.parent}' does not exist")
    changes = None
    if all(found) and book is not None:
        changes = book.changes(found[0], found[1])
    if changes is None or problems.has_errors:
        if fmt == "json":
            click.echo(to_json(problems, rule_titles(root), changes=[]))
        else:
            _report(problems, fmt)
        sys.exit(1)
    va, vb = found
    if changelog is not None:
        text = rulebook.changelog_draft(changes, g.title, va.label, vb.label, vb.meta.get("summary"),
                               command=f"cardgen rules diff {game} {a} {b}")
        try:
            write_text(changelog, text)
        except OSError as e:
            click.echo(f"cardgen: cannot write the changelog to '{changelog}': {e.strerror or e}", err=True)
            sys.exit(2)
    if fmt == "json":
        click.echo(json.dumps({"game": game, "from": va.version, "to": vb.version,
                               "changes": [c.as_dict() for c in changes], "counts": rulebook_diff.counts(changes),
                               "changelog": str(changelog) if changelog else None,
                               "problems": [p.as_dict(rule_titles(root)) for p in problems.sorted()]},
                              indent=2, ensure_ascii=False))
    else:
        _report(problems, fmt)
        if color is None:
            color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        text = rulebook.format_text(changes, va.label, vb.label, detail=not only_sections, color=color)
        click.echo(text, nl=False, color=color)
        if changelog is not None:
            click.echo(f"changelog draft written to {safe(str(changelog))}", err=True)
    sys.exit(0)


@rules.command()
@click.argument("game")
@FORMAT
@click.pass_context
def versions(ctx: click.Context, game: str, fmt: str) -> None:
    """List GAME's rulebook versions, oldest first, and the file each is built into."""
    problems = Problems()
    g = _game(_root(ctx), game, problems)
    vs = rulebook.load_versions(g, problems) if g is not None else []
    rows = [{"version": v.version, "edition": v.edition, "date": v.date, "current": v.current,
             "folder": str(v.folder), "pdf": v.pdf_name} for v in vs]
    if fmt == "json":
        click.echo(json.dumps({"game": game, "versions": rows, "problems": [p.as_dict(rule_titles(_root(ctx))) for p in problems.sorted()]},
                              indent=2, ensure_ascii=False))
    else:
        _report(problems, fmt)
        for r in rows:
            click.echo(safe(f"{r['version']:<8} {r['edition']}, {r['date']}  → {r['pdf']}")
                       + ("  (current)" if r["current"] else ""))
    sys.exit(1 if problems.has_errors else 0)


@rules.command()
@click.argument("rule_id", metavar="RULE-ID")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Print as text or one JSON document.")
@click.pass_context
def explain(ctx: click.Context, rule_id: str, fmt: str) -> None:
    """Print RULE-ID: its statement, section and rulings, and where the rulebook states it."""
    root = _root(ctx)
    rid = rule_id.strip().upper()
    ex = explain_rule(root, rid)
    if ex is None:
        ids, _ = known_ids(root)
        hint = did_you_mean(rid, ids)
        raise click.UsageError(f"no rule '{rule_id}' in any catalogue or in cardgen's own list"
                               + (f"; {hint}" if hint else ""))
    if fmt == "json":
        click.echo(json.dumps(ex.as_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(ex.text(), nl=False)

"""``cardgen new PATH [--players 2-4]``: write a minimal complete game (see cardgen.scaffold).

PATH is a folder (``~/games/gem_raiders``, ``./gem_raiders``: anything with a ``/`` or starting
with ``~``), a new project named after its last part; or a bare slug, a game added to the
project here (the nearest project upwards, or ``--root``), or a new project ``./SLUG`` when
there is none. The game's code goes to the project's ``games/<slug>/``, never into cardgen's
own package. A bad or taken name, a bad player range or a folder that is neither empty nor a
project is a usage error (exit 2) and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cardgen import gamehooks
from cardgen import games as games_pkg
from cardgen.cli.common import find_root, is_project
from cardgen.content.catalogue import all_rules
from cardgen.core.problems import display_path
from cardgen.scaffold import ScaffoldError, Spec, check_slug, parse_players, plan, prefix_for, taken
from cardgen.scaffold.generate import generate

#: cardgen's own package: nothing is ever written under it
PACKAGE_DIR = Path(games_pkg.__file__).resolve().parents[1]


def is_path(arg: str) -> bool:
    return "/" in arg or "\\" in arg or arg.startswith(("~", "."))


def target(arg: str, given_root: Path | None) -> tuple[Path, str]:
    """(the project folder, the game's slug) for ``cardgen new ARG``."""
    if is_path(arg):
        folder = Path(arg).expanduser()
        folder = (folder if folder.is_absolute() else Path.cwd() / folder).resolve()
        slug = folder.name
        check_slug(slug)
        if folder.exists() and not folder.is_dir():
            raise ScaffoldError(f"{folder} is a file, not a folder")
        if folder.is_dir() and any(folder.iterdir()) and not is_project(folder):
            raise ScaffoldError(f"{folder} is neither empty nor a cardgen project (rules/ and cards/)")
        return folder, slug
    check_slug(arg)
    root = given_root if given_root is not None else find_root(Path.cwd())
    if root is None:
        return (Path.cwd() / arg).resolve(), arg
    if not is_project(root):
        raise ScaffoldError(f"{root} is not a cardgen project (no rules/ and cards/ folders)")
    return root.resolve(), arg


@click.command("new")
@click.argument("path", metavar="PATH")
@click.option("--players", default="2-4", show_default=True, metavar="MIN-MAX",
              help="How many players the game is for.")
@click.option("--designer", default="the designer", show_default=True, help="Who designs it (game.yaml, rulebook).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Report as text lines or one JSON document.")
@click.pass_context
def new(ctx: click.Context, path: str, players: str, designer: str, fmt: str) -> None:
    """Write a minimal complete game (a push-your-luck dice game) that validates, builds and checks
    at once: YAML, a card with its back, a rule catalogue, a rulebook, the game's code on the
    game-state API (games/SLUG/), example logs and its own tests (pytest). PATH is a new project
    folder (~/games/gem_raiders) or a slug: a game added to the project here."""
    try:
        root, slug = target(path, ctx.find_root().params.get("root"))
        lo, hi = parse_players(players)
        if root == PACKAGE_DIR or root.is_relative_to(PACKAGE_DIR):
            raise ScaffoldError(f"{root} lies inside cardgen's own package: a game lives in a project folder")
        if used := taken(root, slug):
            raise ScaffoldError(f"game '{slug}' exists already: {', '.join(used)}")
        prefixes = {rid.split("-")[0] for rid in all_rules(root)} if (root / "rules").is_dir() else set()
        spec = Spec(slug, slug.replace("_", " ").title(), prefix_for(slug, prefixes), lo, hi, designer)
        files = plan(root, spec)
        if clash := [p for p in files if p.exists()]:
            raise ScaffoldError(f"would overwrite {', '.join(display_path(str(p)) for p in clash)}")
    except ScaffoldError as e:
        raise click.UsageError(str(e)) from None
    done: list[Path] = []
    try:
        for p, text in files.items():
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")
            done.append(p)
    except OSError as e:
        for p in done:
            p.unlink(missing_ok=True)
        raise click.UsageError(f"cannot write {e.filename}: {e.strerror}") from None
    with gamehooks.project(root):
        generated, todo = generate(root, spec)
    shown = [display_path(str(p)) for p in [*done, *generated]]
    if fmt == "json":
        click.echo(json.dumps({"game": slug, "project": str(root), "title": spec.title, "prefix": spec.prefix,
                               "players": [lo, hi], "written": shown, "todo": todo, "problems": []},
                              indent=2, ensure_ascii=False))
        return
    for line in shown:
        click.echo(f"wrote {line}")
    here = "" if root == Path.cwd().resolve() else f"  cd {display_path(str(root))}\n"
    click.echo(f"\n{spec.title} ({slug}, rule IDs {spec.prefix}-…, {lo}–{hi} players) is ready:\n{here}"
               f"  cardgen validate {slug}\n  cardgen build {slug}\n"
               f"  cardgen check {slug} examples/logs/{slug}/first-game.yaml --trace\n"
               f"  cardgen rules explain {spec.prefix}-TURN-1\n  pytest")
    for t in todo:
        click.echo(f"then: {t}")

"""``cardgen new SLUG [--players 2-4]``: write a minimal complete game (see cardgen.scaffold).
Wire it in with ``main.add_command(new)``. A bad or taken name, or a bad player range, is a
usage error (exit 2) and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cardgen import games as games_pkg
from cardgen.content.catalogue import all_rules
from cardgen.core.problems import display_path
from cardgen.scaffold import ScaffoldError, Spec, check_slug, parse_players, plan, prefix_for, taken
from cardgen.scaffold.generate import generate


def games_dir(root: Path) -> Path:
    """Where game packages go: the project's own cardgen/games/, else the installed one."""
    own = root / "cardgen" / "games"
    return own if own.is_dir() else Path(games_pkg.__file__).parent


@click.command("new")
@click.argument("slug")
@click.option("--players", default="2-4", show_default=True, metavar="MIN-MAX",
              help="How many players the game is for.")
@click.option("--designer", default="the designer", show_default=True, help="Who designs it (game.yaml, rulebook).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Report as text lines or one JSON document.")
@click.pass_context
def new(ctx: click.Context, slug: str, players: str, designer: str, fmt: str) -> None:
    """Write a minimal complete game SLUG (a push-your-luck dice game) that validates, builds and
    checks at once: YAML, a card with its back, a rule catalogue, a rulebook, a game package on
    the game-state API, example logs and their tests."""
    root = Path(ctx.find_root().obj.root)
    try:
        check_slug(slug)
        lo, hi = parse_players(players)
        if not (root / "rules").is_dir():
            raise ScaffoldError(f"{root} is not a cardgen project (no rules/ folder)")
        where = games_dir(root)
        if used := taken(root, slug, where):
            raise ScaffoldError(f"game '{slug}' exists already: {', '.join(used)}")
        prefixes = {rid.split("-")[0] for rid in all_rules(root)}
        spec = Spec(slug, slug.replace("_", " ").title(), prefix_for(slug, prefixes), lo, hi, designer)
        files = plan(root, spec, where)
        if clash := [p for p in files if p.exists()]:
            raise ScaffoldError(f"would overwrite {', '.join(display_path(str(p)) for p in clash)}")
    except ScaffoldError as e:
        raise click.UsageError(str(e)) from None
    done: list[Path] = []
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            done.append(path)
    except OSError as e:
        for p in done:
            p.unlink(missing_ok=True)
        raise click.UsageError(f"cannot write {e.filename}: {e.strerror}") from None
    generated, todo = generate(root, spec)
    if fmt == "json":
        click.echo(json.dumps({"game": slug, "title": spec.title, "prefix": spec.prefix, "players": [lo, hi],
                               "written": [display_path(str(p)) for p in [*done, *generated]], "todo": todo,
                               "problems": []}, indent=2, ensure_ascii=False))
        return
    for p in [*done, *generated]:
        click.echo(f"wrote {display_path(str(p))}")
    click.echo(f"\n{spec.title} ({slug}, rule IDs {spec.prefix}-…, {lo}–{hi} players) is ready:\n"
               f"  cardgen validate {slug}\n  cardgen build {slug}\n"
               f"  cardgen check {slug} examples/logs/{slug}/first-game.yaml --trace\n"
               f"  cardgen rules explain {spec.prefix}-TURN-1")
    for t in todo:
        click.echo(f"then: {t}")

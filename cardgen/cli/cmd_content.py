"""``cardgen validate``, ``check`` and ``cards``: the content, playtest logs and the card pool."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cardgen import gamehooks
from cardgen.builder import pipeline
from cardgen.builder.check import check_output
from cardgen.cli.common import FORMAT, Ctx, report, titles
from cardgen.content import deckstats
from cardgen.content.collection_files import deck_kinds
from cardgen.content.gamespec import COMMON_FIELDS
from cardgen.content.loader import load_game
from cardgen.content.spreadsheets import write_csv
from cardgen.core import sources
from cardgen.core.problems import Problems, safe


@click.command()
@click.argument("args", nargs=-1, metavar="[GAME]... | GAME FILE...")
@FORMAT
@click.pass_obj
def validate(obj: Ctx, args: tuple[str, ...], fmt: str) -> None:
    """Check all content of GAMES, or `validate GAME FILE...` for deck, party or build files."""
    problems = Problems()
    files = [a for a in args[1:] if a not in obj.games]
    if files:
        slug = args[0]
        obj.check_games((slug,))
        game = load_game(obj.root, slug, problems)
        summaries = []
        if game is not None and not deck_kinds(game):
            raise click.UsageError(f"{game.title} has no deck, party or build files to check: its game.yaml "
                                   f"declares no collections. `cardgen validate {slug}` checks its content.")
        if game is not None:
            for f in files:
                path = Path(f)
                if not path.exists():
                    raise click.UsageError(safe(f"no such file: {f}"))
                with sources.named(path):       # named here: read where it lies
                    s = pipeline.check_file(game, path, problems)
                if s:
                    summaries.append(s)
        report(problems, fmt, {"files": summaries}, details=[format_summary(s) for s in summaries])
    else:
        for slug in obj.check_games(args):
            pipeline.validate(obj.root, slug, problems)
        report(problems, fmt)
        if fmt == "text" and not problems.has_errors:
            click.echo(f"ok: {', '.join(obj.check_games(args))}", err=True)
    sys.exit(1 if problems.has_errors else 0)


def format_summary(s: dict) -> str:
    lines = [f"{s['file']}: {s['kind']}, {s['cards']} card(s)"]
    for k, v in s.items():
        if k in ("file", "kind", "cards", "statistics"):
            continue
        if isinstance(v, dict):
            lines.append(f"  {k}: " + ", ".join(f"{a} {b}" for a, b in v.items()))
        elif isinstance(v, list):
            lines.append(f"  {k}:")
            lines += [f"    {x}" for x in v]
        else:
            lines.append(f"  {k}: {v}")
    if s.get("statistics"):
        lines += ["  " + ln for ln in deckstats.text(s["statistics"])]
    return "\n".join(lines)


@click.command()
@click.argument("game")
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--strict", is_flag=True, help="Stop at the first violation.")
@click.option("--trace", is_flag=True, help="Print a turn-by-turn account with the state after each turn.")
@FORMAT
@click.pass_obj
def check(obj: Ctx, game: str, log: Path, strict: bool, trace: bool, fmt: str) -> None:
    """Replay a playtest LOG of GAME against the rules; report every violation and the final state."""
    obj.check_games((game,))
    runner = gamehooks.engine(game)
    if runner is None:
        click.echo(f"cardgen check: not yet supported for {game}: it has no engine (a game's playtest checker is "
                   f"PACKAGE.engine of its package games/{game}/ in the project; see docs/engines.md)", err=True)
        sys.exit(2)
    done = check_output(obj.root, game, log, strict=strict, trace=trace, fmt=fmt)
    sys.stdout.write(done.stdout)
    sys.stdout.flush()
    sys.stderr.write(done.stderr)
    sys.exit(done.code)




@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="Report as text lines or one JSON document; csv writes the card pool as a spreadsheet "
                   "(one row a card, lists joined with ';') that cards/<game>/ can hold instead of YAML.")
@click.pass_obj
def cards(obj: Ctx, game: str, fmt: str) -> None:
    """List GAME's cards: id, name, type, set and copies."""
    obj.check_games((game,))
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None:
        report(problems, "json" if fmt == "json" else "text", out=sys.stderr if fmt == "csv" else None)
        sys.exit(1)
    if fmt == "csv":
        sys.stdout.write(write_csv(g.cards, g.card_types, COMMON_FIELDS))
        report(problems, "text", out=sys.stderr)
        sys.exit(1 if problems.has_errors else 0)
    rows = [{"id": c.id, "name": c.name, "type": c.type, "set": c.get("set"), "copies": c.copies,
             **{k: v for k, v in c.fields.items() if k not in ("id", "name", "type", "set", "copies")
                and not (k == "art" and v is None)}}
            for c in g.cards]
    st = deckstats.summary(g, [(c.fields, c.copies) for c in g.cards])
    if fmt == "json":
        click.echo(json.dumps({"game": game, "cards": rows, "stats": st,
                               "problems": [p.as_dict(titles()) for p in problems.sorted()]},
                              indent=2, ensure_ascii=False))
    else:
        w = max((len(r["id"]) for r in rows), default=2)
        for r in rows:
            click.echo(safe(f"{r['id']:<{w}}  {r['copies']:>3} × {r['name']}  "
                            f"[{r['type']}{'/' + r['set'] if r['set'] else ''}]"))
        for line in deckstats.text(st):
            click.echo(line)
        click.echo(f"{len(rows)} card designs, {sum(r['copies'] for r in rows)} cards", err=True)
        report(problems, fmt)
    sys.exit(1 if problems.has_errors else 0)

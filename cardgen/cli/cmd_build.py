"""``cardgen build``: its options, and the outcome of the build (:mod:`cardgen.builder.build`) reported."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from cardgen.builder import build as build_run
from cardgen.builder.selection import SelectionError
from cardgen.cli.common import FORMAT, PRINTER, Ctx, output_failed, parse_offset, printer_layers, report
from cardgen.core.problems import safe
from cardgen.core.units import PAPER_MM


@click.command()
@click.argument("games", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/ in the project).")
@PRINTER
@click.option("--paper", type=click.Choice(list(PAPER_MM)), default=None, help="Paper size (default: the printer's, "
              "else each game's print.paper in rules/<game>/game.yaml).")
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None, help="Edge the printer flips the sheet on; backs are mirrored to match "
                   "(default: the printer's, else the game's print.duplex).")
@click.option("--offset", default=None, metavar="X,Y",
              help="Shift of back pages, e.g. '0.5mm,-1mm', x right and y down, read off duplex-calibration.pdf "
                   "(default: the printer's, else the game's print.offset).")
@click.option("--draft/--final", "draft", default=None,
              help="Draft: construction problems become warnings, broken cards print as error cards and "
                   "sheets carry a DRAFT mark (default: the game's print.draft).")
@click.option("--only", "only", multiple=True, metavar="WHAT",
              help="Build only these printables: cards, boards, rulebooks, tokens or a printable's name "
                   "(repeat or separate with commas).")
@click.option("--cards", "cards_sel", default=None, metavar="SELECTION",
              help="Print only these cards: ids, type:<type>, set:<set>, or a deck/party/build file at its "
                   "counts (comma-separated); writes cards-<selection>.pdf.")
@FORMAT
@click.pass_obj
def build(obj: Ctx, games: tuple[str, ...], out: Path | None, printer: str | None, paper: str | None,
          duplex: str | None, offset: str | None, draft: bool | None, only: tuple[str, ...], cards_sel: str | None, fmt: str) -> None:
    """Validate, then write every printable of GAMES (all games when none named) under build/."""
    names = obj.check_games(games)
    try:
        build_run.check_request(names, only)
    except SelectionError as e:
        raise click.UsageError(str(e)) from None
    if cards_sel is not None and len(names) != 1:
        raise click.UsageError("--cards selects the cards of one game: name it (cardgen build GAME --cards …)")
    off = parse_offset(offset) if offset is not None else None
    layers = [*printer_layers(printer, fmt), ("flag", {"paper": paper, "duplex": duplex, "offset": off})]
    out = (out or obj.root / "build").resolve()
    for src in ("cards", "rules", "templates", "maps"):
        if out.is_relative_to(obj.root / src):
            raise click.BadParameter(f"{out} lies inside the sources ({src}/); builds never write there",
                                     param_hint="--out")
    req = build_run.Request(obj.root, list(names), out, layers, draft, list(only), cards_sel,
                            " (--paper)" if paper else f" (printer {printer or 'default'})")

    def progress(steps: Sequence[build_run.Step]) -> Iterator[build_run.Step]:
        if not _is_terminal(sys.stderr):       # click's bar says its label once there: so does this,
            click.echo("building", file=sys.stderr)     # without loading click's terminal module (~2 ms)
            yield from steps
            return
        with click.progressbar(steps, label="building", file=sys.stderr,
                               item_show_func=lambda s: f"{s[0].game.slug}: {s[1]}" if s else "") as bar:
            yield from bar
    try:
        done = build_run.run(req, progress)
    except SelectionError as e:
        raise click.UsageError(str(e)) from None
    if done.output_error is not None:
        output_failed(done.problems, done.output_error, fmt, {"written": done.written}, done.stopped)
    if done.up_to_date:
        report(done.problems, fmt, {"written": done.written, "up_to_date": True})
        if fmt == "text":
            click.echo(f"up to date: {', '.join(names)} (nothing changed since the last build)", err=True)
        return
    if done.stopped is not None:
        report(done.problems, fmt, {"written": []})
        if done.stopped:
            click.echo(done.stopped, err=True)
        sys.exit(1)
    report(done.problems, fmt, {"written": done.written})
    if fmt == "text":
        for w in done.written:
            click.echo(safe(f"wrote {w}"), err=True)
        click.echo(f"built {len(names)} game(s) in {done.seconds:.1f} s", err=True)
    if done.error_cards:
        click.echo(f"draft: {done.error_cards} error card(s) printed in place of cards with problems", err=True)
        sys.exit(1)


def _is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal, as click's progress bar decides it (a stream that cannot
    say is not one)."""
    try:
        return bool(stream.isatty())
    except Exception:  # noqa: BLE001 - as click: any failure means no terminal
        return False

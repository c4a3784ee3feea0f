"""``cardgen proof`` and ``export``: one card at true size; card images for print services and tabletops."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cardgen.builder import proof as proofs
from cardgen.builder.selection import SelectionError, select_cards
from cardgen.cli.common import FORMAT, PRINTER, Ctx, parse_offset, printer_layers, report
from cardgen.content import printers as printer_profiles
from cardgen.content.loader import load_game
from cardgen.content.model import Card
from cardgen.content.printers import MAX_MARGIN_MM
from cardgen.core.atomic import write_bytes
from cardgen.core.problems import Problems, did_you_mean, safe
from cardgen.core.units import PAPER_MM, UnitError, length_mm
from cardgen.export.run import chosen as chosen_cards
from cardgen.export.run import export as run_export
from cardgen.export.run import targets as export_targets
from cardgen.play.lookup import nearest


@click.command()
@click.argument("game")
@click.argument("card_names", nargs=-1, required=True, metavar="CARD...")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/proof/<game>/).")
@click.option("--png/--no-png", default=True, show_default=True, help="Also write proof.png.")
@PRINTER
@FORMAT
@click.pass_obj
def proof(obj: Ctx, game: str, card_names: tuple[str, ...], out: Path | None, png: bool, printer: str | None,
          fmt: str) -> None:
    """A one-page proof of CARDs (ids or names): front and back at true size, trim and safe area shown."""
    obj.check_games((game,))
    layers = printer_layers(printer, fmt)
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None:
        report(problems, fmt)
        sys.exit(1)
    printer_profiles.apply(g.print, layers)
    by_id = {c.id: c for c in g.cards}
    by_name = {c.name.lower(): c for c in g.cards}
    chosen: list = []
    for n in card_names:
        c = by_id.get(n) or by_name.get(n.lower()) or proofs.broken_card(g, n, problems)
        if c is None:
            near = nearest(n, [*by_id, *(c.name for c in g.cards)])
            raise click.UsageError(f"{g.title} has no card {n!r}" +
                                   (f"; nearest: {', '.join(near)}" if near else ""))
        own = proofs.own_problems(g, c) if isinstance(c, Card) else []
        if isinstance(c, Card) and own:     # a card that breaks a rule itself: its error card, never "None"
            problems.extend(own)
            chosen.append(proofs.Broken(c.id, c.name, g.card_types[c.type], own))
        else:
            chosen.append(c)
    doc = proofs.document(g, chosen, problems)
    data = proofs.pdf(doc)
    folder = (out or obj.root / "build" / "proof" / game).resolve()
    files = {"proof.pdf": data, **({"proof.png": proofs.png(data)} if png else {})}
    for name, blob in files.items():
        write_bytes(folder / name, blob)
    report(problems, fmt, {"written": [str(folder / n) for n in files]})
    if fmt == "text":
        for n in files:
            click.echo(f"wrote {folder / n}", err=True)
    sys.exit(1 if problems.has_errors else 0)




@click.command()
@click.argument("game")
@click.option("--to", "to", required=True, metavar="png|tts|SERVICE",
              help="png (a file per face), tts (Tabletop Simulator decks) or a print service of services/*.yaml.")
@click.option("--cards", "cards_sel", default=None, metavar="SELECTION",
              help="Only these cards: ids, type:<type>, set:<set>, or a deck/party/build file at its counts.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/export/<game>/<target>/).")
@click.option("--dpi", type=click.IntRange(72, 1200), default=None,
              help="Pixels per inch (default: 300 for png, 200 for tts, the service's own).")
@click.option("--trim", is_flag=True, help="png: cut at the trim (default: keep the bleed).")
@click.option("--url", default=None, help="tts: the base URL the sheet images will be served from "
                                          "(default: file:/// paths of the written files).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Processes (default: all cores).")
@PRINTER
@FORMAT
@click.pass_obj
def export(obj: Ctx, game: str, to: str, cards_sel: str | None, out: Path | None, dpi: int | None, trim: bool,
           url: str | None, workers: int | None, printer: str | None, fmt: str) -> None:
    """Card images for print services and virtual tabletops, from the same drawing as the PDF."""
    obj.check_games((game,))
    layers = printer_layers(printer, fmt)
    names = export_targets(obj.root)
    if to not in names:
        hint = did_you_mean(to, names)
        raise click.UsageError(f"--to {to!r} is no export target" + (f"; {hint}" if hint else "") +
                               f" (targets: {', '.join(names)})")
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None or problems.has_errors:
        report(problems, fmt)
        sys.exit(1)
    printer_profiles.apply(g.print, layers)
    try:
        sel = select_cards(cards_sel, g, obj.root, problems) if cards_sel else None
    except SelectionError as e:
        raise click.UsageError(str(e)) from None
    folder = (out or obj.root / "build" / "export" / game / to).resolve()
    base = url if url is not None else folder.as_uri() + "/"
    total = 2 * len(chosen_cards(g, sel))
    with click.progressbar(length=total, label=f"exporting {total} faces", file=sys.stderr) as bar:
        files, _ = run_export(g, to, sel, dpi, trim, base, problems, bar.update, workers)
    if problems.has_errors:
        report(problems, fmt, {"written": []})
        sys.exit(1)
    for name, data in files.items():
        write_bytes(folder / name, data)
    report(problems, fmt, {"written": [str(folder / n) for n in files]})
    if fmt == "text":
        click.echo(f"wrote {len(files)} file(s) to {folder}", err=True)


@click.command()
@click.argument("name")
@click.option("--offset", default=None, metavar="X,Y",
              help="The reading off duplex-calibration.pdf's back page, e.g. '0.5mm,-1mm' (x right, y down).")
@click.option("--margin", default=None, metavar="LENGTH", help="The printer's unprintable margin, e.g. 3mm.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None, help="The edge it flips the sheet on.")
@click.option("--paper", type=click.Choice(list(PAPER_MM)), default=None, help="The paper it is loaded with.")
@FORMAT
def calibrate(name: str, offset: str | None, margin: str | None, duplex: str | None, paper: str | None,
              fmt: str) -> None:
    """Record printer NAME's settings in your printers file (made when absent; its comments and
    other printers kept); then print with --printer NAME."""
    values: dict = {}
    if offset is not None:
        values["offset"] = list(parse_offset(offset))
    if margin is not None:
        try:
            values["margin"] = length_mm(margin)
        except UnitError as e:
            raise click.BadParameter(f"expected a length such as 3mm ({e})", param_hint="--margin") from e
        if not 0 <= values["margin"] <= MAX_MARGIN_MM:
            raise click.BadParameter(f"{values['margin']:g} mm is outside 0 to {MAX_MARGIN_MM:g} mm",
                                     param_hint="--margin")
    values.update({k: v for k, v in (("duplex", duplex), ("paper", paper)) if v is not None})
    if not values:
        raise click.UsageError("nothing to record: give --offset X,Y (and/or --margin, --duplex, --paper)")
    path = printer_profiles.user_file()
    problems = Problems()
    if printer_profiles.record_reading(path, name, values, problems) is None:
        report(problems, fmt)
        sys.exit(2)
    report(problems, fmt, {"written": [str(path)], "printer": name})
    if fmt == "text":
        said = ", ".join(f"{k} {printer_profiles.shown(k, v)}" for k, v in values.items())
        click.echo(safe(f"printer {name} in {path}: {said}; print with --printer {name}"), err=True)

"""``cardgen build``: validate, lay out, print — drafts, subsets, the build cache, outputs as a set."""

from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import click

from cardgen.builder import pipeline
from cardgen.builder.selection import SelectionError, select_cards
from cardgen.builder.selection import apply as apply_selection
from cardgen.builder.selection import printables as select_printables
from cardgen.cli.common import FORMAT, PRINTER, Ctx, output_failed, parse_offset, printer_layers, report
from cardgen.content import printers as printer_profiles
from cardgen.content.loader import check_sizes_fit
from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.core.atomic import OutputError, check_folder, leftovers, replace_set
from cardgen.core.problems import Loc, Problems, did_you_mean, safe
from cardgen.core.units import PAPER_MM
from cardgen.layout.cache import Store, cached_files, code_fingerprint, digest, files_digest
from cardgen.layout.cache import default_folder as cache_folder
from cardgen.layout.cache import enabled as cache_enabled
from cardgen.printables import cards as cards_printable
from cardgen.printables import for_game


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
        for slug in names if only else ():
            select_printables(list(only), list(for_game(slug)))
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
    try:
        check_folder(out)
    except OutputError as e:
        output_failed(Problems(), e, fmt, {"written": []}, "build stopped: nothing was written.")
    problems = Problems()
    written: list[str] = []
    started = time.monotonic()
    plans = []
    store = Store(cache_folder(out)) if cache_enabled() else None
    memo = None
    if store is not None and cards_sel is None:
        memo = digest(code_fingerprint(), str(obj.root), str(out), layers, draft, sorted(only),
                      [[slug, files_digest([obj.root / d / slug for d in ("rules", "cards", "templates", "maps", "art")])]
                       for slug in names])
        current = _up_to_date(store, memo, problems, out)
        if current is not None:
            report(problems, fmt, {"written": current, "up_to_date": True})
            if fmt == "text":
                click.echo(f"up to date: {', '.join(names)} (nothing changed since the last build)", err=True)
            return
    def stream(game: Game) -> bool:       # the cards printed as they are laid out (memory)
        wanted = [n for n in game.printables if n in for_game(game.slug)]
        try:
            return cards_sel is None and "cards" in (select_printables(list(only), wanted) if only else wanted)
        except SelectionError:             # reported by _steps
            return False
    for slug in names:
        laid = pipeline.validate(obj.root, slug, problems, draft=draft, store=store, stream=stream)
        if laid is None:
            continue
        ps = laid.game.print
        before = (ps.paper, ps.margin)
        printer_profiles.apply(ps, layers)
        if (ps.paper, ps.margin) != before:
            why = " (--paper)" if paper else f" (printer {printer or 'default'})"
            check_sizes_fit({ct.size: (ct.width, ct.height) for ct in laid.game.card_types.values()}, ps,
                            problems, laid.game.meta.get("card_sizes"), why)
        plans.append(laid)
    printed = _print_streamed(plans, problems, out)
    absorbed = {id(p) for laid in plans for p in laid.absorbed}
    if any(id(p) not in absorbed for p in problems.errors):
        report(problems, fmt, {"written": []})
        click.echo("build stopped: content problems above; nothing was written.", err=True)
        sys.exit(1)
    try:
        steps = _steps(plans, for_game, list(only), cards_sel, obj.root, problems)
    except SelectionError as e:
        raise click.UsageError(str(e)) from None
    unknown = [(laid.game, n) for laid in plans for n in laid.game.printables if n not in for_game(laid.game.slug)]
    for game, n in unknown:
        problems.error("GAME-PRINTABLE", f"{game.title} lists unknown printable '{n}'",
                       _loc(game, "printables"),
                       hint=did_you_mean(n, for_game(game.slug)))
    if any(id(p) not in absorbed for p in problems.errors):
        report(problems, fmt, {"written": []})
        sys.exit(1)
    outputs: dict[str, dict[str, bytes]] = {}
    with click.progressbar(steps, label="building", file=sys.stderr,
                           item_show_func=lambda s: f"{s[0].game.slug}: {s[1]}" if s else "") as bar:
        for laid, name, fn, extra in bar:
            if (id(laid), name) in printed:     # printed while laid out: its own problems join here
                files, found = printed.pop((id(laid), name))
                problems.extend(found)
            else:
                files = _make(store if not extra else None, laid, name, fn, problems, out / laid.game.slug, extra)
            outputs.setdefault(laid.game.slug, {}).update(files)
    if any(id(p) not in absorbed for p in problems.errors):
        report(problems, fmt, {"written": []})
        sys.exit(1)
    for slug, files in outputs.items():         # each game's outputs replaced as one set
        made = set(files)
        if only or cards_sel is not None:       # a part of the game: its other outputs stay
            files = {**_existing(out / slug), **files}
        try:                                    # reported: only what this build wrote
            written += [str(p) for p in replace_set(out / slug, files)
                        if p.relative_to(out / slug).as_posix() in made]
        except OutputError as e:
            output_failed(problems, e, fmt, {"written": written},
                          f"build stopped: the previous outputs of {slug} are intact.")
    report(problems, fmt, {"written": written})
    if fmt == "text":
        for w in written:
            click.echo(safe(f"wrote {w}"), err=True)
        click.echo(f"built {len(names)} game(s) in {time.monotonic() - started:.1f} s", err=True)
    n_err = sum(laid.error_cards for laid in plans)
    if store is not None and memo is not None and not n_err:
        store.put("build", memo, {"files": {str(out / slug / n): hashlib.sha256(d).hexdigest()
                                            for slug, files in outputs.items() for n, d in files.items()},
                                  "problems": [[p.rule, p.severity, p.message, _locl(p.loc), p.hint] for p in problems]})
    if n_err:
        click.echo(f"draft: {n_err} error card(s) printed in place of cards with problems", err=True)
        sys.exit(1)


MAX_OUTPUT = 2 * 1024 * 1024 * 1024      # an output file read back (to keep it, or to see it is current)


def _existing(folder: Path) -> dict[str, bytes]:
    """The files a game's output folder holds now (a partial build keeps them)."""
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): sources.read_bytes(p, folder, MAX_OUTPUT)
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")}


def _locl(loc) -> list | None:
    return [loc.file, loc.line, loc.col] if loc is not None else None


def _up_to_date(store: Store, memo: str, problems: Problems, out: Path) -> list[str] | None:
    """The same sources, code and options as a finished build whose outputs are all still there,
    byte for byte: its problems (warnings) are reported again, nothing is redone, and its
    outputs are returned (None: build)."""
    entry = store.get("build", memo)
    if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict):
        return None
    recorded = set(entry["files"])
    for folder in {out / Path(p).relative_to(out).parts[0] for p in recorded}:
        try:            # exactly the files built, and nothing a killed build left beside them
            here = {str(p) for p in folder.rglob("*") if p.is_file()}
            strays = leftovers(folder)
        except (OSError, ValueError):
            return None
        if strays or here != {p for p in recorded if Path(p).is_relative_to(folder)}:
            return None
    for path, sha in entry["files"].items():
        p = Path(path)
        try:
            if not p.is_file() or hashlib.sha256(sources.read_bytes(p, p.parent, MAX_OUTPUT)).hexdigest() != sha:
                return None
        except (OSError, sources.SourceError):
            return None
    for r, sev, msg, loc, hint in entry.get("problems") or []:
        problems.add(r, sev, msg, Loc(*loc) if loc else None, hint)
    return list(entry["files"])


def _print_streamed(plans: list, problems: Problems, out: Path) -> dict[tuple[int, str], tuple[dict, Problems]]:
    """The card sheets of the games laid out as printed (``pipeline.lay_out_streamed``), printed
    now, while the layout reports the cards' problems: (its files, its own problems) per game.
    Games with errors already are only laid out (their problems reported), never printed."""
    printed = {}
    absorbed = {id(p) for laid in plans for p in laid.absorbed}
    for laid in plans:
        if not laid.streamed:
            continue
        if any(id(p) not in absorbed for p in problems.errors):
            pipeline.finish(laid)
            continue
        own = Problems()
        files = cards_printable.build(laid, problems=own, out_dir=out / laid.game.slug, release=True)
        printed[(id(laid), "cards")] = (files, own)
    return printed


def _make(store: Store | None, laid, name: str, fn, problems: Problems, out_dir: Path, extra: dict) -> dict[str, bytes]:
    """One printable's files, from the build cache when nothing it read has changed. The card
    sheets, the last reader of the laid-out placements, free them as they are drawn."""
    own = {"release": True} if fn is cards_printable.build and not extra else {}
    if store is None:
        return fn(laid, problems=problems, out_dir=out_dir, **extra, **own)
    if name == "cards":        # its input is the laid-out sheets themselves
        static = pipeline.placements_key(laid.groups, laid.layout.symbols, laid.layout.content_ids)
        static = pipeline.digest(static, asdict(laid.game.print), laid.draft, laid.game.title, laid.game.slug)
        return cached_files(store, name, static, laid.game, problems,
                            lambda g, p: fn(laid, problems=p, out_dir=out_dir, **own))
    static = pipeline.digest(name, laid.game.slug, pipeline.sources_key(laid.game))
    return cached_files(store, name, static, laid.game, problems,
                        lambda g, p: fn(replace(laid, game=g), problems=p, out_dir=out_dir))


def _steps(plans: list, for_game, only: list[str], cards_sel: str | None, root: Path, problems: Problems) -> list:
    """(laid, printable, builder, extra arguments) for each output to make."""
    steps = []
    for laid in plans:
        avail = for_game(laid.game.slug)
        wanted = [n for n in laid.game.printables if n in avail]
        if cards_sel is not None:
            sel = select_cards(cards_sel, laid.game, root, problems)
            groups = apply_selection(laid.groups, sel)
            steps.append((laid, "cards", avail["cards"], {"groups": groups, "stem": f"cards-{sel.label}"}))
            continue
        if only:
            wanted = select_printables(only, wanted)
        steps += [(laid, n, avail[n], {}) for n in wanted]
    return steps


def _loc(game: Game, key: str) -> Loc:
    return Loc(str(game.game_file), 1, 1)

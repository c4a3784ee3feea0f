"""The ``cardgen`` command line: build, validate, check, cards.

Exit codes: 0 success, 1 content problems (or playtest violations), 2 usage errors.
"""

from __future__ import annotations

import gc
import hashlib
import json
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import click

from . import gamehooks, pipeline
from . import proof as proofs
from .atomic import write_bytes
from .cache import Store, cached_files, code_fingerprint, digest, files_digest
from .cache import default_folder as cache_folder
from .cache import enabled as cache_enabled
from .catalogue import rule_titles
from .collections import deck_kinds
from .export.run import chosen as chosen_cards
from .export.run import export as run_export
from .export.run import targets as export_targets
from .loader import check_sizes_fit, list_games, load_game
from .play.lookup import nearest
from .problems import Loc, Problems, did_you_mean, to_json
from .selection import SelectionError, select_cards
from .selection import apply as apply_selection
from .selection import printables as select_printables
from .units import PAPER_MM, UnitError, length_mm

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Report as text lines or one JSON document.")


def find_root(start: Path) -> Path:
    """The project folder: the nearest folder upwards holding rules/ (else the start)."""
    for p in [start, *start.parents]:
        if (p / "rules").is_dir() and (p / "cards").is_dir():
            return p
    return start


class Ctx:
    def __init__(self, root: Path):
        self.root = root
        self.games = list_games(root)

    def check_games(self, names: tuple[str, ...]) -> list[str]:
        for n in names:
            if n not in self.games:
                hint = did_you_mean(n, self.games)
                raise click.UsageError(f"unknown game '{n}'" + (f"; {hint}" if hint else "") +
                                       f" (games: {', '.join(self.games) or 'none'})")
        return list(names) or self.games


def titles() -> dict[str, str]:
    """Rule ID → title, for the JSON output (the project of the running command)."""
    ctx = click.get_current_context(silent=True)
    root = getattr(ctx.find_root().obj, "root", None) if ctx is not None else None
    return rule_titles(root) if root is not None else {}


def report(problems: Problems, fmt: str, extra: dict | None = None, out=None,
           details: list[str] = ()) -> None:
    """Problems one a line, then ``details`` (what the files hold), then the count on stderr."""
    out = out or sys.stdout
    if fmt == "json":
        out.write(to_json(problems, titles(), **(extra or {})) + "\n")
        return
    for p in problems.sorted():
        out.write(p.text() + "\n")
    for d in details:
        out.write(d + "\n")
    out.flush()             # the count comes last on a terminal, where stdout and stderr meet
    n_err = len(problems.errors)
    n_warn = sum(1 for p in problems if p.severity == "warning")
    if n_err or n_warn:
        click.echo(f"{n_err} error(s), {n_warn} warning(s)", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             epilog="Exit codes: 0 success, 1 content problems (or playtest violations), 2 usage errors "
                    "(unknown game, bad option, unreadable file).")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project folder (default: the nearest folder upwards holding rules/ and cards/).")
@click.version_option(package_name="cardgen")
@click.pass_context
def main(ctx: click.Context, root: Path | None) -> None:
    """cardgen: validate game content and build printable PDFs."""
    # A build keeps hundreds of thousands of small objects alive (YAML nodes, scenes); with the
    # default thresholds the collector re-walks them every few hundred allocations and finds
    # no garbage (about 12 % of a 5,400-card build). Rarer passes, same results.
    gc.set_threshold(50_000, 50, 100)
    ctx.obj = Ctx((root or find_root(Path.cwd())).resolve())


@main.command()
@click.argument("games", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/ in the project).")
@click.option("--paper", type=click.Choice(list(PAPER_MM)), default=None, help="Paper size (default: each game's print.paper in rules/<game>/game.yaml).")
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None, help="Edge the printer flips the sheet on; backs are mirrored to match "
                   "(default: the game's print.duplex).")
@click.option("--offset", default=None, metavar="X,Y",
              help="Shift of back pages, e.g. '0.5mm,-1mm', x right and y down, read off duplex-calibration.pdf "
                   "(default: the game's print.offset).")
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
def build(obj: Ctx, games: tuple[str, ...], out: Path | None, paper: str | None, duplex: str | None,
          offset: str | None, draft: bool | None, only: tuple[str, ...], cards_sel: str | None, fmt: str) -> None:
    """Validate, then write every printable of GAMES (all games when none named) under build/."""
    from .printables import for_game
    names = obj.check_games(games)
    try:
        for slug in names if only else ():
            select_printables(list(only), list(for_game(slug)))
    except SelectionError as e:
        raise click.UsageError(str(e)) from None
    if cards_sel is not None and len(names) != 1:
        raise click.UsageError("--cards selects the cards of one game: name it (cardgen build GAME --cards …)")
    off = parse_offset(offset) if offset else None
    out = (out or obj.root / "build").resolve()
    for src in ("cards", "rules", "templates", "maps"):
        if out.is_relative_to(obj.root / src):
            raise click.BadParameter(f"{out} lies inside the sources ({src}/); builds never write there",
                                     param_hint="--out")
    problems = Problems()
    written: list[str] = []
    started = time.monotonic()
    plans = []
    store = Store(cache_folder(out)) if cache_enabled() else None
    memo = None
    if store is not None and cards_sel is None:
        memo = digest(code_fingerprint(), str(obj.root), str(out), paper, duplex, off, draft, sorted(only),
                      [[slug, files_digest([obj.root / d / slug for d in ("rules", "cards", "templates", "maps")])]
                       for slug in names])
        current = _up_to_date(store, memo, problems)
        if current is not None:
            report(problems, fmt, {"written": current, "up_to_date": True})
            if fmt == "text":
                click.echo(f"up to date: {', '.join(names)} (nothing changed since the last build)", err=True)
            return
    for slug in names:
        laid = pipeline.validate(obj.root, slug, problems, draft=draft, store=store)
        if laid is None:
            continue
        ps = laid.game.print
        if paper:
            ps.paper, (ps.page_w, ps.page_h) = paper, PAPER_MM[paper]
            check_sizes_fit({ct.size: (ct.width, ct.height) for ct in laid.game.card_types.values()}, ps,
                            problems, laid.game.meta.get("card_sizes"), " (--paper)")
        if duplex:
            ps.duplex = duplex
        if off:
            ps.offset = off
        plans.append(laid)
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
                       game.game_file and _loc(game, "printables"),
                       hint=did_you_mean(n, for_game(game.slug)))
    if any(id(p) not in absorbed for p in problems.errors):
        report(problems, fmt, {"written": []})
        sys.exit(1)
    outputs: list[tuple[Path, bytes]] = []
    with click.progressbar(steps, label="building", file=sys.stderr,
                           item_show_func=lambda s: f"{s[0].game.slug}: {s[1]}" if s else "") as bar:
        for laid, name, fn, extra in bar:
            files = _make(store if not extra else None, laid, name, fn, problems, out / laid.game.slug, extra)
            for fname, data in files.items():
                outputs.append((out / laid.game.slug / fname, data))
    if any(id(p) not in absorbed for p in problems.errors):
        report(problems, fmt, {"written": []})
        sys.exit(1)
    for path, data in outputs:
        if not (path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data):
            write_bytes(path, data)     # an unchanged output keeps its file (and its time stamp)
        written.append(str(path))
    report(problems, fmt, {"written": written})
    if fmt == "text":
        for w in written:
            click.echo(f"wrote {w}", err=True)
        click.echo(f"built {len(names)} game(s) in {time.monotonic() - started:.1f} s", err=True)
    n_err = sum(laid.error_cards for laid in plans)
    if memo is not None and not n_err:
        store.put("build", memo, {"files": {str(p): hashlib.sha256(d).hexdigest() for p, d in outputs},
                                  "problems": [[p.rule, p.severity, p.message, _locl(p.loc), p.hint] for p in problems]})
    if n_err:
        click.echo(f"draft: {n_err} error card(s) printed in place of cards with problems", err=True)
        sys.exit(1)


def _locl(loc) -> list | None:
    return [loc.file, loc.line, loc.col] if loc is not None else None


def _up_to_date(store: Store, memo: str, problems: Problems) -> list[str] | None:
    """The same sources, code and options as a finished build whose outputs are all still there,
    byte for byte: its problems (warnings) are reported again, nothing is redone, and its
    outputs are returned (None: build)."""
    entry = store.get("build", memo)
    if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict):
        return None
    for path, sha in entry["files"].items():
        p = Path(path)
        try:
            if not p.is_file() or hashlib.sha256(p.read_bytes()).hexdigest() != sha:
                return None
        except OSError:
            return None
    for r, sev, msg, loc, hint in entry.get("problems") or []:
        problems.add(r, sev, msg, Loc(*loc) if loc else None, hint)
    return list(entry["files"])


def _make(store: Store | None, laid, name: str, fn, problems: Problems, out_dir: Path, extra: dict) -> dict[str, bytes]:
    """One printable's files, from the build cache when nothing it read has changed."""
    if store is None:
        return fn(laid, problems=problems, out_dir=out_dir, **extra)
    if name == "cards":        # its input is the laid-out sheets themselves
        static = pipeline.placements_key(laid.groups, laid.layout.symbols, laid.layout.content_ids)
        static = pipeline.digest(static, asdict(laid.game.print), laid.draft, laid.game.title, laid.game.slug)
        return cached_files(store, name, static, laid.game, problems,
                            lambda g, p: fn(laid, problems=p, out_dir=out_dir))
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


def _loc(game, key):
    return Loc(str(game.game_file), 1, 1)


def parse_offset(text: str) -> tuple[float, float]:
    parts = [p for p in text.replace(" ", "").split(",") if p]
    try:
        if len(parts) != 2:
            raise UnitError("two lengths")
        return length_mm(parts[0]), length_mm(parts[1])
    except UnitError as e:
        raise click.BadParameter(f"expected X,Y such as '0.5mm,-1mm' ({e})", param_hint="--offset") from e


@main.command()
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
                    raise click.UsageError(f"no such file: {f}")
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
        if k in ("file", "kind", "cards"):
            continue
        if isinstance(v, dict):
            lines.append(f"  {k}: " + ", ".join(f"{a} {b}" for a, b in v.items()))
        elif isinstance(v, list):
            lines.append(f"  {k}:")
            lines += [f"    {x}" for x in v]
        else:
            lines.append(f"  {k}: {v}")
    return "\n".join(lines)


@main.command()
@click.argument("game")
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--strict", is_flag=True, help="Stop at the first violation.")
@click.option("--trace", is_flag=True, help="Print a turn-by-turn account with the state after each turn.")
@FORMAT
@click.pass_obj
def check(obj: Ctx, game: str, log: Path, strict: bool, trace: bool, fmt: str) -> None:
    """Replay a playtest LOG of GAME against the rules; report every violation and the final state."""
    obj.check_games((game,))
    runner = gamehooks.hook(game, "Engine")
    if runner is None:
        click.echo(f"cardgen check: not yet supported for {game}", err=True)
        sys.exit(2)
    from .checker import run_check
    sys.exit(run_check(obj.root, game, log, strict=strict, trace=trace, fmt=fmt))


@main.command()
@click.argument("game")
@FORMAT
@click.pass_obj
def cards(obj: Ctx, game: str, fmt: str) -> None:
    """List GAME's cards: id, name, type, set and copies."""
    obj.check_games((game,))
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None:
        report(problems, fmt)
        sys.exit(1)
    rows = [{"id": c.id, "name": c.name, "type": c.type, "set": c.get("set"), "copies": c.copies,
             **{k: v for k, v in c.fields.items() if k not in ("id", "name", "type", "set", "copies")}}
            for c in g.cards]
    if fmt == "json":
        click.echo(json.dumps({"game": game, "cards": rows, "problems": [p.as_dict(titles()) for p in problems.sorted()]},
                              indent=2, ensure_ascii=False))
    else:
        w = max((len(r["id"]) for r in rows), default=2)
        for r in rows:
            click.echo(f"{r['id']:<{w}}  {r['copies']:>3} × {r['name']}  [{r['type']}{'/' + r['set'] if r['set'] else ''}]")
        click.echo(f"{len(rows)} card designs, {sum(r['copies'] for r in rows)} cards", err=True)
        report(problems, fmt)
    sys.exit(1 if problems.has_errors else 0)


@main.command()
@click.argument("game")
@click.argument("card_names", nargs=-1, required=True, metavar="CARD...")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/<game>/).")
@click.option("--png/--no-png", default=True, show_default=True, help="Also write proof.png.")
@FORMAT
@click.pass_obj
def proof(obj: Ctx, game: str, card_names: tuple[str, ...], out: Path | None, png: bool, fmt: str) -> None:
    """A one-page proof of CARDs (ids or names): front and back at true size, trim and safe area shown."""
    obj.check_games((game,))
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None:
        report(problems, fmt)
        sys.exit(1)
    by_id = {c.id: c for c in g.cards}
    by_name = {c.name.lower(): c for c in g.cards}
    chosen = []
    for n in card_names:
        c = by_id.get(n) or by_name.get(n.lower())
        if c is None:
            near = nearest(n, [*by_id, *(c.name for c in g.cards)])
            raise click.UsageError(f"{g.title} has no card {n!r}" +
                                   (f"; nearest: {', '.join(near)}" if near else ""))
        chosen.append(c)
    doc = proofs.document(g, chosen, problems)
    data = proofs.pdf(doc)
    folder = (out or obj.root / "build" / game).resolve()
    files = {"proof.pdf": data, **({"proof.png": proofs.png(data)} if png else {})}
    for name, blob in files.items():
        write_bytes(folder / name, blob)
    report(problems, fmt, {"written": [str(folder / n) for n in files]})
    if fmt == "text":
        for n in files:
            click.echo(f"wrote {folder / n}", err=True)
    sys.exit(1 if problems.has_errors else 0)


@main.command()
@click.argument("game")
@click.option("--to", "to", required=True, metavar="png|tts|SERVICE",
              help="png (a file per face), tts (Tabletop Simulator decks) or a print service of services/*.yaml.")
@click.option("--cards", "cards_sel", default=None, metavar="SELECTION",
              help="Only these cards: ids, type:<type>, set:<set>, or a deck/party/build file at its counts.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/<game>/export/<target>/).")
@click.option("--dpi", type=click.IntRange(72, 1200), default=None,
              help="Pixels per inch (default: 300 for png, 200 for tts, the service's own).")
@click.option("--trim", is_flag=True, help="png: cut at the trim (default: keep the bleed).")
@click.option("--url", default=None, help="tts: the base URL the sheet images will be served from "
                                          "(default: file:/// paths of the written files).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Processes (default: all cores).")
@FORMAT
@click.pass_obj
def export(obj: Ctx, game: str, to: str, cards_sel: str | None, out: Path | None, dpi: int | None, trim: bool,
           url: str | None, workers: int | None, fmt: str) -> None:
    """Card images for print services and virtual tabletops, from the same drawing as the PDF."""
    obj.check_games((game,))
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
    try:
        sel = select_cards(cards_sel, g, obj.root, problems) if cards_sel else None
    except SelectionError as e:
        raise click.UsageError(str(e)) from None
    folder = (out or obj.root / "build" / game / "export" / to).resolve()
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


def _add_subgroups() -> None:
    from .cli_new import new
    from .cli_rules import rules
    main.add_command(rules)
    main.add_command(new)


_add_subgroups()

if __name__ == "__main__":  # pragma: no cover
    main()

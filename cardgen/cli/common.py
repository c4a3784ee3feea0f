"""What every command shares: the project root, the context, the report of problems, typed options."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import click

from cardgen import gamehooks
from cardgen.content import printers as printer_profiles
from cardgen.content.catalogue import rule_titles
from cardgen.content.gamefiles import list_games
from cardgen.content.printers import MAX_OFFSET_MM
from cardgen.core import sources
from cardgen.core.atomic import OutputError
from cardgen.core.problems import Loc, Problem, Problems, did_you_mean, safe, to_json
from cardgen.core.units import UnitError, length_mm

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Report as text lines or one JSON document.")

PRINTER = click.option("--printer", "printer", default=None, metavar="NAME",
                       help="A printer of your printers file (cardgen calibrate writes it): its paper, duplex, "
                            "offset and margin over the game's print: (default: the file's default printer).")


def printer_layers(name: str | None, fmt: str = "text") -> list[tuple[str, dict]]:
    """The settings of ``--printer NAME`` (or the file's default printer) as a layer for
    ``printers.apply``. A malformed file: its problems, exit 2; an unknown name: a usage error."""
    problems = Problems()
    profiles = printer_profiles.load(problems)
    if problems.has_errors:
        report(problems, fmt)
        click.echo(safe(f"cardgen: the printers file {profiles.file} has problems (above); fix it or set "
                        "CARDGEN_PRINTERS to another file"), err=True)
        sys.exit(2)
    try:
        chosen, source, values = printer_profiles.choose(profiles, name)
    except printer_profiles.PrinterError as e:
        raise click.UsageError(safe(str(e))) from None
    return [(source, values)] if chosen is not None else []


def find_root(start: Path) -> Path | None:
    """The project folder: the nearest folder upwards holding rules/ and cards/ (else None)."""
    for p in [start, *start.parents]:
        if is_project(p):
            return p
    return None


def is_project(p: Path) -> bool:
    try:
        return (p / "rules").is_dir() and (p / "cards").is_dir()
    except OSError:
        return False


class Commands(dict):
    """A group's commands, each imported from its module when first looked up: ``{name:
    module}`` to start with, the command object once read. Listing them imports them all."""

    def __init__(self, modules: dict[str, str]):
        super().__init__()
        self._modules = dict(modules)

    def _load(self, name: object) -> None:
        if not isinstance(name, str):
            return
        module = self._modules.pop(name, None)
        if module is not None:
            dict.__setitem__(self, name, getattr(importlib.import_module(module), name))

    def _load_all(self) -> None:
        for name in list(self._modules):
            self._load(name)

    def get(self, name: str, default: Any = None) -> Any:
        self._load(name)
        return super().get(name, default)

    def __getitem__(self, name: str) -> Any:
        self._load(name)
        return super().__getitem__(name)

    def __contains__(self, name: object) -> bool:
        return name in self._modules or super().__contains__(name)

    def __iter__(self) -> Iterator:
        self._load_all()
        return super().__iter__()

    def __len__(self) -> int:
        return super().__len__() + len(self._modules)

    def keys(self) -> Any:
        self._load_all()
        return super().keys()

    def values(self) -> Any:
        self._load_all()
        return super().values()

    def items(self) -> Any:
        self._load_all()
        return super().items()


class CardgenGroup(click.Group):
    """The command group: Ctrl-C anywhere in a command is "interrupted", exit 130."""

    def invoke(self, ctx: click.Context) -> Any:
        args = list(ctx.args)           # the words after the command's name (the group consumes them)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted()
        except OutputError as e:        # any command's output that cannot be written: one problem line
            fmt = "json" if any(a == "--format=json" or (a == "--format" and args[i + 1:i + 2] == ["json"])
                                for i, a in enumerate(args)) else "text"
            output_failed(Problems(), e, fmt)


def output_failed(problems: Problems, e: OutputError, fmt: str, extra: dict | None = None,
                  note: str | None = None) -> NoReturn:
    """An output that cannot be written: ``PATH:0:0: OUTPUT-WRITE error: …`` with the problems so
    far, then ``note`` on stderr; exit 1."""
    problems.error("OUTPUT-WRITE", str(e), Loc(e.path or "-", 0, 0))
    report(problems, fmt, extra)
    if note and fmt == "text":
        click.echo(note, err=True)
    sys.exit(1)


def no_project(where: Path) -> NoReturn:
    """No project at ``where``: one problem line on stderr, exit 2."""
    click.echo(Problem("PROJECT-MISSING", "error", "no cardgen project here: a project folder holds rules/ and "
                       "cards/ (give it with --root)", Loc(str(where), 0, 0)).text(), err=True)
    sys.exit(2)


def interrupted() -> None:
    try:
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - the stream may be gone; the exit code still says it
        pass
    click.echo("interrupted", err=True)
    sys.exit(130)


class Ctx:
    """The project a command works on, found when the command first needs it (so ``--help``
    works anywhere); no project there is exit 2 "no cardgen project here"."""

    def __init__(self, ctx: click.Context, root: Path | None):
        self._ctx, self._given = ctx, root
        self._root: Path | None = None
        self._games: list[str] | None = None

    @property
    def root(self) -> Path:
        if self._root is None:
            found = self._given if self._given is not None else find_root(Path.cwd())
            if found is None or not is_project(found):
                no_project(found if found is not None else Path.cwd())
            self._root = found.resolve()
            self._ctx.with_resource(gamehooks.project(self._root))  # its own games/ packages
            self._ctx.with_resource(sources.project(self._root))    # every file read stays inside it
        return self._root

    @property
    def games(self) -> list[str]:
        if self._games is None:
            self._games = list_games(self.root)
        return self._games

    def check_games(self, names: tuple[str, ...]) -> list[str]:
        for n in names:
            if n not in self.games:
                hint = did_you_mean(n, self.games)
                raise click.UsageError(safe(f"unknown game '{n}'" + (f"; {hint}" if hint else "") +
                                            f" (games: {', '.join(self.games) or 'none'})"))
        return list(names) or self.games


def titles() -> dict[str, str]:
    """Rule ID → title, for the JSON output (the project of the running command)."""
    ctx = click.get_current_context(silent=True)
    root = getattr(ctx.find_root().obj, "root", None) if ctx is not None else None
    return rule_titles(root) if root is not None else {}


def report(problems: Problems, fmt: str, extra: dict | None = None, out: TextIO | None = None,
           details: Sequence[str] = ()) -> None:
    """Problems one a line, then ``details`` (what the files hold), then the count on stderr."""
    out = out or sys.stdout
    if fmt == "json":
        out.write(to_json(problems, titles(), **(extra or {})) + "\n")
        return
    for p in problems.sorted():
        out.write(p.text() + "\n")
    for d in details:
        out.write("\n".join(safe(x) for x in d.split("\n")) + "\n")
    out.flush()             # the count comes last on a terminal, where stdout and stderr meet
    n_err = len(problems.errors)
    n_warn = sum(1 for p in problems if p.severity == "warning")
    if n_err or n_warn:
        click.echo(f"{n_err} error(s), {n_warn} warning(s)", err=True)


def parse_offset(text: str) -> tuple[float, float]:
    """``X,Y`` → two finite lengths in mm, each within ±MAX_OFFSET_MM (else a usage error)."""
    parts = [p.strip() for p in text.split(",")]
    try:
        if len(parts) != 2 or not all(parts):
            raise UnitError(f"two lengths, got {text!r}")
        xy = length_mm(parts[0]), length_mm(parts[1])
    except UnitError as e:
        raise click.BadParameter(f"expected X,Y such as '0.5mm,-1mm' ({e})", param_hint="--offset") from e
    for v in xy:
        if not -MAX_OFFSET_MM <= v <= MAX_OFFSET_MM:
            raise click.BadParameter(f"{v:g} mm is more than the {MAX_OFFSET_MM:g} mm a back page may be shifted",
                                     param_hint="--offset")
    return xy

"""``cardgen tune``: from the options to the files and the exit code (sources change only with
``--apply``; Ctrl-C leaves the study in OUT resumable and the sources untouched)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from cardgen.content.model import Game
from cardgen.core.atomic import write_bytes
from cardgen.core.problems import Problems
from cardgen.play.package import GamePackage
from cardgen.simulate.spec import SimError
from cardgen.tune import objectives as objs
from cardgen.tune import report
from cardgen.tune.search import Result, Settings, search
from cardgen.tune.spec import load, only


def check_out(game: Game, out: Path) -> None:
    for src in ("cards", "rules", "templates", "maps"):
        if out.resolve().is_relative_to((game.root / src).resolve()):
            raise SimError(f"{out} lies inside the sources ({src}/); tune writes there only with --apply")


def execute(game: Game, package: GamePackage, s: Settings, out: Path, do_apply: bool, problems: Problems,
            err: TextIO) -> Result | None:
    """Check the tune file (problems: exit 1), search, re-measure, write the report."""
    check_out(game, out)
    spec = load(game, problems)
    if spec is None:
        return None
    spec = only(spec, s.only)

    def progress(n: int, vals: list[float]) -> None:
        err.write(f"trial {n}: " + ", ".join(f"{objs.label(o)} {v:.3f}" for o, v in zip(s.objectives, vals)) + "\n")
        err.flush()
    r = search(game, package, spec, s, out, progress)
    diff = report.diff(game, r.after.values)
    write_bytes(out / "params.diff", diff.encode("utf-8"))
    write_bytes(out / "changelog.md", report.changes(game, r).encode("utf-8"))
    write_bytes(out / "report.html", report.render(game, r, diff).encode("utf-8"))
    err.write(report.changes(game, r))
    err.write(f"wrote {out / 'report.html'}, {out / 'params.diff'}\n")
    if do_apply and diff:
        for p in report.apply(game, r):
            err.write(f"wrote {p}\n")
    return r

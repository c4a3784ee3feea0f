"""``cardgen simulate``: from the command's options to the report, the files and the exit code.

Exit codes: 0 the games were played; 1 an engine error in some game (each reported with its
seed; the run goes on) or a setup file with content problems; 2 a usage error (unknown
agent, setup file or parameter, a cluster that does not answer).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import click

from cardgen.content.model import Game
from cardgen.core.atomic import write_bytes
from cardgen.core.record import record
from cardgen.play.package import GamePackage
from cardgen.simulate import html, run, text
from cardgen.simulate.spec import SimError, make_plan


@record
class Options:
    games: int = 1000
    seed: int = 0
    agents: tuple[str, ...] = ()
    setups: tuple[str, ...] = ()
    vary: str | None = None
    workers: int | None = None
    cluster: str | None = None
    logs: Path | None = None
    log_every: int = 1
    out: Path | None = None
    fmt: str = "text"
    max_steps: int = 20_000


@contextmanager
def progress_bar(total: int, err: TextIO) -> Iterator[Callable[[int], None]]:
    """A bar with games/s and ETA when stderr is a terminal; silent otherwise."""
    if not err.isatty():
        yield lambda n: None
        return
    started = time.monotonic()
    done = [0]

    def speed(_item: Any) -> str:
        dt = time.monotonic() - started
        return f"{done[0] / dt:,.0f} games/s" if dt > 0 and done[0] else ""

    with click.progressbar(length=total, label="simulating", file=err, show_eta=True, show_percent=True,
                           item_show_func=speed) as bar:
        def step(n: int) -> None:
            done[0] += n
            bar.update(n, done[0])
        yield step


def execute(game: Game, package: GamePackage, o: Options, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command; prints the report (stdout) and notes (stderr); returns the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    if o.log_every < 1:
        raise SimError("--log-every must be at least 1")
    if o.out is not None:
        for src in ("cards", "rules", "templates", "maps"):
            if o.out.resolve().is_relative_to((game.root / src).resolve()):
                raise SimError(f"{o.out} lies inside the sources ({src}/); simulate never writes there")
    plan = make_plan(game, package, games=o.games, seed=o.seed, agents=o.agents, setup_files=o.setups,
                     vary=o.vary, max_steps=o.max_steps, log_every=o.log_every if o.logs else 0)
    started = time.monotonic()
    with progress_bar(o.games * len(plan.variants), err) as step:
        outcome = run.simulate(plan, o.workers, o.cluster, step)
    took = time.monotonic() - started
    report = outcome.report
    if o.fmt == "json":
        out.write(run.to_json(report))
    else:
        out.write(text.render(report))
    out.flush()
    n = o.games * len(plan.variants)
    err.write(f"played {n:,} game(s) in {took:.1f} s ({n / took if took else 0:,.0f} games/s)\n")
    if o.logs is not None:
        written = run.write_logs(outcome, plan, o.logs)
        err.write(f"wrote {len(written):,} playtest log(s) under {o.logs}\n")
    if o.out is not None:                           # (a folder that cannot be made: OUTPUT-WRITE)
        write_bytes(o.out / "report.json", run.to_json(report).encode("utf-8"))
        write_bytes(o.out / "report.html", html.render(report).encode("utf-8"))
        err.write(f"wrote {o.out / 'report.json'} and {o.out / 'report.html'}\n")
    if outcome.errors:
        err.write(f"{outcome.errors} game(s) stopped on an engine error (seeds in the report)\n")
        return 1
    return 0

"""``cardgen tune``: search a game's tunable numbers for balance (the logic is in :mod:`cardgen.tune`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cardgen import gamehooks
from cardgen.cli.cmd_build import build
from cardgen.cli.common import FORMAT, Ctx, report
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.simulate.spec import SimError
from cardgen.tune import objectives
from cardgen.tune.command import execute
from cardgen.tune.search import Settings


@click.command()
@click.argument("game")
@click.option("--objective", "objective", multiple=True, metavar="NAME",
              help="balance (default), matchups, first_seat, first_mover, length=LO..HI, measure:NAME=LO..HI or skill=LO..HI; several: a Pareto front (NSGA-II).")
@click.option("--agent", "agents", multiple=True, metavar="NAME", help="Agent(s), as `cardgen simulate --agent`.")
@click.option("--trials", type=click.IntRange(min=1), default=30, show_default=True, help="Trials in the study (resumed ones count).")
@click.option("--games-per-trial", type=click.IntRange(min=1), default=200, show_default=True,
              help="Seeded games each trial plays (the same games for every trial).")
@click.option("--check-games", type=click.IntRange(min=0), default=0,
              help="Fresh games re-measuring today's and the proposed numbers (default 4 × games per trial).")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Local worker processes (default: all cores).")
@click.option("--cluster", default=None, metavar="ADDRESS", help="Dask scheduler, e.g. tcp://HOST:8786.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the study: trials play seed 2S, the re-measure 2S+1.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("tune-out"), show_default=True,
              help="The study (resumable), report.html, params.diff, changelog.md.")
@click.option("--only", "only", multiple=True, metavar="PATTERN",
              help="Move only the knobs of tune.yaml whose names match (shell-style, e.g. '*_spirit.cost'); repeatable.")
@click.option("--near", is_flag=True,
              help="Search near today's numbers (CMA-ES started at them) rather than over the whole ranges (TPE).")
@click.option("--apply", "do_apply", is_flag=True,
              help="Write the proposal into params.yaml (and a changelog entry), then rebuild GAME's printables.")
@FORMAT
@click.pass_obj
def tune(obj: Ctx, game: str, objective: tuple[str, ...], agents: tuple[str, ...], trials: int, games_per_trial: int,
         check_games: int, workers: int | None, cluster: str | None, seed: int, out: Path, only: tuple[str, ...],
         near: bool, do_apply: bool, fmt: str) -> None:
    """Search GAME's tunable numbers (rules/GAME/tune.yaml) for balance and propose them."""
    obj.check_games((game,))
    pkg = gamehooks.package(game)
    if pkg is None or pkg.new_state is None:
        raise click.UsageError(f"cardgen tune: not yet supported for {game} (its engine has no game state)")
    if workers is not None and cluster is not None:
        raise click.UsageError("--workers and --cluster exclude each other")
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None or problems.has_errors:
        report(problems, fmt)
        sys.exit(1)
    try:
        s = Settings(objectives.parse(objective), agents, trials, games_per_trial, check_games, seed, workers, cluster,
                     near, only)
        r = execute(g, pkg, s, out, do_apply, problems, sys.stderr)
    except SimError as e:
        if e.problems is not None:
            report(e.problems, fmt)
            sys.exit(e.code)
        if e.code == 2:
            raise click.UsageError(e.text()) from None
        click.echo(e.text(), err=True)
        sys.exit(e.code)
    if r is None:
        report(problems, fmt)
        sys.exit(1)
    if do_apply and r.after.values != r.before.values:
        # the printables that print those numbers: a build redoes only what changed (build/.cache)
        click.echo(f"rebuilding {game}'s printables", err=True)
        click.get_current_context().invoke(build, games=(game,), out=None, paper=None, duplex=None, offset=None,
                                           draft=None, only=(), cards_sel=None, fmt=fmt)
    sys.exit(0)

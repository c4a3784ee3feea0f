"""``cardgen simulate``: simulated playtests (the logic is in :mod:`cardgen.simulate`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cardgen import gamehooks
from cardgen.cli.common import FORMAT, Ctx, report
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.simulate.command import Options, execute
from cardgen.simulate.spec import SimError


@click.command()
@click.argument("game")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=1000, show_default=True, help="Games per block (per --vary value).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the run; game i plays with seed S×2³²+i.")
@click.option("--agent", "agents", multiple=True, metavar="NAME",
              help="Agent: 'random', one of the game's (e.g. 'greedy') or a search 'mcts:PLAYOUTS' / 'mcts:SECONDSs' "
                   "(a time budget is not reproducible); several take turns in every seat.")
@click.option("--ladder", default=None, metavar="A,B,…",
              help="Skill ladder: every pair of these agents in both seat orders (--games each), ratings, "
                   "skill vs luck, and balance with the strongest in every seat beside random.")
@click.option("--compare", default=None, metavar="AGENT",
              help="Also play the same games with AGENT in every seat (e.g. random) and show the win rates "
                   "by seat, first mover, team, deck, class and role side by side, in plain words.")
@click.option("--setup", "setups", multiple=True, metavar="FILE",
              help="Deck, party or build file to play (validated first); default: the game's own setups.")
@click.option("--vary", default=None, metavar="PARAM=V1,V2,…", help="Sweep a params.yaml value (dotted path).")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Local worker processes (default: all cores).")
@click.option("--cluster", default=None, metavar="ADDRESS", help="Dask scheduler, e.g. tcp://HOST:8786.")
@click.option("--logs", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write games as JSON Lines playtest logs under this folder.")
@click.option("--log-every", type=int, default=1, show_default=True, metavar="K", help="With --logs: every K-th game.")
@click.option("--max-steps", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Step cap per game: a game not over by then is counted unfinished.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write report.json and report.html (with plots) in this folder.")
@FORMAT
@click.pass_obj
def simulate(obj: Ctx, game: str, n_games: int, seed: int, agents: tuple[str, ...], setups: tuple[str, ...],
             vary: str | None, workers: int | None, cluster: str | None, logs: Path | None, log_every: int,
             max_steps: int, out: Path | None, fmt: str, ladder: str | None, compare: str | None) -> None:
    """Play simulated games of GAME between agents and report balance statistics."""
    obj.check_games((game,))
    pkg = gamehooks.package(game)
    if pkg is None or pkg.new_state is None:
        why = "it has no engine" if pkg is None else "its package has no game state (PACKAGE.new_state)"
        raise click.UsageError(f"cardgen simulate: not yet supported for {game}: {why} (a game's code is its "
                               f"package games/{game}/ in the project; see docs/engines.md)")
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None or problems.has_errors:
        report(problems, fmt)
        sys.exit(1)
    opts = Options(n_games, seed, agents, setups, vary, workers, cluster, logs, log_every, out, fmt, max_steps, ladder,
                   compare)
    try:
        code = execute(g, pkg, opts)
    except SimError as e:
        if e.problems is not None:
            report(e.problems, fmt)
            sys.exit(e.code)
        if e.code == 2:
            raise click.UsageError(e.text()) from None
        click.echo(e.text(), err=True)
        code = e.code
    sys.exit(code)

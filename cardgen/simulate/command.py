"""``cardgen simulate``: from the command's options to the report, the files and the exit code.

Exit codes: 0 the games were played; 1 an engine error in some game (each reported with its
seed; the run goes on) or a setup file with content problems; 2 a usage error (unknown
agent, setup file or parameter, a cluster that does not answer).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

import click

from cardgen.content.model import Game
from cardgen.core.atomic import write_bytes
from cardgen.core.record import record
from cardgen.play.mcts import SEARCH, Budget, for_game, parse_budget
from cardgen.play.package import GamePackage
from cardgen.play.playout import play, play_at_random
from cardgen.simulate import html, ladder, run, text
from cardgen.simulate.backends import default_workers
from cardgen.simulate.spec import RANDOM, Plan, SimError, check_agent, make_plan
from cardgen.simulate.worker import agent_weight


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
    ladder: str | None = None
    compare: str | None = None


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


def ladder_names(package: GamePackage, text_: str) -> list[str]:
    names = [n.strip() for n in text_.split(",") if n.strip()]
    for n in names:
        check_agent(package, n)
    if len(set(names)) < 2 or len(set(names)) != len(names):
        raise SimError(f"--ladder {text_!r}: name two or more different agents", "e.g. --ladder random,greedy,mcts:100")
    return names


#: the estimate times one game searched at this many playouts a decision in every seat
TIMED_PLAYOUTS = 10


def _decisions_scale(plan: Plan, rng: random.Random) -> float:
    """How many more decisions a game of the run's setups has than one of the first (the timed
    game's), by random games: two of each of the first four setups."""
    package, game = plan.package, plan.variants[0].game
    assert package.new_state is not None
    counts = [[play_at_random(package.new_state(game, s), rng, plan.max_steps)[0] for _ in range(2)]
              for s in plan.setups[:4]]
    return (sum(map(sum, counts)) / len(counts)) / max(1, sum(counts[0]))


def estimate(plan: Plan, games: dict[str, float], workers: int) -> float:
    """Seconds the run's search agents will take: decisions a game × playouts a decision ×
    seconds a playout, per agent — timed on one game of the first setup searched in every seat
    at :data:`TIMED_PLAYOUTS` (a searched game is longer than a random one, and its positions'
    playouts dearer than a random game's: both were ×2–3 off when timed on random play)."""
    search = [n for n in games if n.partition(":")[0] in SEARCH and n not in plan.package.agents]
    package = plan.package
    if not search or package.new_state is None:
        return 0.0
    rng = random.Random(plan.seed)
    scale = _decisions_scale(plan, rng)
    agent = for_game(package, plan.variants[0].game, Budget(playouts=TIMED_PLAYOUTS))
    state = package.new_state(plan.variants[0].game, plan.setups[0])
    started = time.monotonic()
    play(state, agent, rng, plan.max_steps, package.determinize)
    per_playout = (time.monotonic() - started) / max(1, agent.playouts)
    # an agent makes about half a 2-seat game's decisions
    per_game = agent.playouts / TIMED_PLAYOUTS * scale / 2
    total = 0.0
    for n in search:
        b = parse_budget(n.partition(":")[2])
        total += games[n] * per_game * (b.playouts * per_playout if b.playouts else b.seconds)
    return total / max(1, workers)


def _say_estimate(err: TextIO, seconds: float) -> None:
    if seconds >= 1:
        long = " — hours: lower the budget or --games" if seconds > 3600 else ""
        size = f"{seconds:,.0f} s" if seconds < 90 else f"{seconds / 60:,.1f} min"
        how = f"timed on one game searched at mcts:{TIMED_PLAYOUTS}"
        err.write(f"estimate: about {size} of search ({how}){long}\n")
        err.flush()


def likely_strongest(package: GamePackage, names: list[str]) -> str | None:
    """The agent of the largest search budget (the last of equals), the one the ladder will most
    likely rate strongest; None when no search agent plays (then nothing is played ahead)."""
    weights = [agent_weight(package, n) for n in names]
    top = max(weights)
    return None if top <= 0 else names[len(weights) - 1 - weights[::-1].index(top)]


def run_ladder(game: Game, package: GamePackage, o: Options, err: TextIO) -> tuple[dict[str, Any], int]:
    """Every pair of the ladder's agents in both seat orders, then the strongest and random in
    every seat: the strong-play report with its ``ladder`` section. The strongest is known only
    after the pairs, but its run is played beside them for the agent of the largest budget
    (:func:`likely_strongest`), and again after them only when the ladder rates another first."""
    assert o.ladder is not None
    names = ladder_names(package, o.ladder)

    def plan_of(agents: list[str]) -> Plan:
        return make_plan(game, package, games=o.games, seed=o.seed, agents=agents, setup_files=o.setups,
                         max_steps=o.max_steps)
    workers = o.workers or default_workers()
    guess = likely_strongest(package, names)
    # seat-games of each agent: half of each of its pairs' seats, and every seat of the strong run
    per_agent: dict[str, float] = {n: o.games * (len(names) - 1) + (2 * o.games if n == guess else 0)
                                   for n in names}
    _say_estimate(err, estimate(plan_of([RANDOM]), per_agent, workers))
    # every pair, random in every seat and the likely strongest in every seat on one set of
    # workers (its games are the same whenever they are played: none waits for the ladder's end)
    line_ups = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    plans = [plan_of([names[i], names[j]]) for i, j in line_ups] + [plan_of([RANDOM])]
    plans += [plan_of([guess])] if guess is not None else []
    played = run.simulate_all(plans, o.workers, o.cluster)
    weak, early = played[len(line_ups)], played[len(line_ups) + 1] if guess is not None else None
    del played[len(line_ups):]
    pairs = {k: oc.records[0] for k, oc in zip(line_ups, played)}
    lad = ladder.ladder(names, pairs, o.seed)
    if early is not None and lad["strongest"] == guess:
        strong = early
    else:                       # the guess was wrong (or none was made): played now
        strong = run.simulate(plan_of([lad["strongest"]]), o.workers, o.cluster)
    errors = sum(oc.errors for oc in played) + strong.errors + weak.errors
    report = strong.report
    sb, wb = report["results"][0], weak.report["results"][0]
    lad["balance"] = ladder.side_by_side(sb, wb)
    lad["summary"] = ladder.summary(lad, sb, wb)
    report["ladder"] = lad
    return report, errors


def execute(game: Game, package: GamePackage, o: Options, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command; prints the report (stdout) and notes (stderr); returns the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    if o.ladder is not None:
        if o.agents or o.vary or o.logs or o.compare:
            raise SimError("--ladder plays its own agents: leave out --agent, --vary, --logs and --compare")
        started = time.monotonic()
        report, errors = run_ladder(game, package, o, err)
        out.write(run.to_json(report) if o.fmt == "json" else text.render(report))
        out.flush()
        err.write(f"played the ladder in {time.monotonic() - started:.1f} s\n")
        if o.out is not None:
            o.out.mkdir(parents=True, exist_ok=True)
            _write(o.out, report, err)
        return 1 if errors else 0
    if o.log_every < 1:
        raise SimError("--log-every must be at least 1")
    if o.out is not None:
        for src in ("cards", "rules", "templates", "maps"):
            if o.out.resolve().is_relative_to((game.root / src).resolve()):
                raise SimError(f"{o.out} lies inside the sources ({src}/); simulate never writes there")
    plan = make_plan(game, package, games=o.games, seed=o.seed, agents=o.agents, setup_files=o.setups,
                     vary=o.vary, max_steps=o.max_steps, log_every=o.log_every if o.logs else 0)
    other = None
    if o.compare is not None:
        check_agent(package, o.compare)
        other = make_plan(game, package, games=o.games, seed=o.seed, agents=[o.compare], setup_files=o.setups,
                          vary=o.vary, max_steps=o.max_steps)
    share = len(plan.variants) * o.games / len(plan.agents)
    need = {n: share * 2 for n in plan.agents}
    if other is not None:
        need[o.compare or RANDOM] = need.get(o.compare or RANDOM, 0) + len(plan.variants) * o.games * 2
    _say_estimate(err, estimate(plan, need, o.workers or default_workers()))
    started = time.monotonic()
    with progress_bar(o.games * len(plan.variants), err) as step:
        outcome = run.simulate(plan, o.workers, o.cluster, step)
    report = outcome.report
    errors = outcome.errors
    if other is not None:
        base = run.simulate(other, o.workers, o.cluster)
        report["compare"] = ladder.compare(", ".join(plan.agents), report["results"], base.report["results"],
                                           other.agents[0])
        errors += base.errors
    took = time.monotonic() - started
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
        _write(o.out, report, err)
    if errors:
        err.write(f"{errors} game(s) stopped on an engine error (seeds in the report)\n")
        return 1
    return 0


def _write(out: Path, report: dict[str, Any], err: TextIO) -> None:
    """report.json, report.html and, for a run that compared agents, note.md (a designer's note)."""
    write_bytes(out / "report.json", run.to_json(report).encode("utf-8"))
    write_bytes(out / "report.html", html.render(report).encode("utf-8"))
    err.write(f"wrote {out / 'report.json'} and {out / 'report.html'}\n")
    said = text.note(report, datetime.now(timezone.utc).strftime("%Y-%m-%d"))
    if said is not None:
        write_bytes(out / "note.md", said.encode("utf-8"))
        err.write(f"wrote {out / 'note.md'} (copy it to rules/<game>/notes/ for the designer's edition)\n")


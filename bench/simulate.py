"""make bench (part 2): simulated playtests — games/s per core per game, and the 1 → 2 worker speed-up.

For every game whose package has a game state: games/s on one worker with the ``random`` agent
and with each of the game's own agents (``greedy``…), through the whole simulation (seeded
games, records, statistics, every game replayed through its referee); then the same games on 1 and on 2 worker processes and the ratio of
their wall times. Each measurement plays about ``--seconds`` worth of games (calibrated on a
short first run). Then the engines' raw speed (``bench/playspeed.py``): bare random playouts,
the play floor (``bench/play_floor/``) and the ratio (median of 8 alternating rounds, and their
range), clone + apply steps/s of a mid-game state, and the greedy agent's CPU
time against random play's on the same seeds (a game, a step).
Prints the tables; writes bench/work/simulate.json.

    .venv/bin/python bench/simulate.py [--games bone_wars,loot_battles] [--seconds 4]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import playspeed  # noqa: E402

from cardgen import gamehooks  # noqa: E402
from cardgen.content.gamefiles import list_games  # noqa: E402
from cardgen.content.loader import load_game  # noqa: E402
from cardgen.core.problems import Problems  # noqa: E402
from cardgen.simulate import run, spec  # noqa: E402


def timed(game, pkg, agents: list[str], games: int, workers: int) -> float:
    plan = spec.make_plan(game, pkg, games=games, seed=1, agents=agents)
    started = time.perf_counter()
    out = run.simulate(plan, workers=workers)
    took = time.perf_counter() - started
    if out.errors:
        print(f"  warning: {out.errors} game(s) raised in the engine", file=sys.stderr)
    return took


def rate(game, pkg, agents: list[str], seconds: float, workers: int = 1) -> tuple[int, float]:
    """(games played, games/s) for about ``seconds`` of play."""
    probe = 10
    t = timed(game, pkg, agents, probe, workers)
    n = max(probe, min(20_000, int(probe * seconds / max(t, 1e-6))))
    t = timed(game, pkg, agents, n, workers)
    return n, n / t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="", help="comma-separated slugs (default: every game with a game state)")
    ap.add_argument("--seconds", type=float, default=4.0, help="about how long each measurement plays")
    a = ap.parse_args()
    slugs = [s for s in a.games.split(",") if s] or list_games(ROOT)
    results: dict = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    print(f"load average {results['load_average_at_start']} on {os.cpu_count()} cores")
    print(f"{'game':<14} {'agent':<8} {'games':>7} {'games/s/core':>13} {'speed-up 1→2':>13}")
    for slug in slugs:
        pkg = gamehooks.package(slug)
        if pkg is None or pkg.new_state is None:
            print(f"{slug:<14} (no game state yet)")
            continue
        game = load_game(ROOT, slug, Problems())
        res = {}
        for agent in spec.agent_names(pkg):
            n, r = rate(game, pkg, [agent], a.seconds)
            res[agent] = {"games": n, "games_per_s": round(r, 1)}
            print(f"{slug:<14} {agent:<8} {n:>7} {r:>13.1f}")
        n = res["random"]["games"]
        one = timed(game, pkg, ["random"], n, 1)
        two = timed(game, pkg, ["random"], n, 2)
        res["speedup_2_workers"] = round(one / two, 2)
        print(f"{slug:<14} {'random':<8} {n:>7} {'':>13} {one / two:>12.2f}×")
        results[slug] = res
    print(f"\n{'game':<14} {'playouts/s/core':>16} {'floor/s':>9} {'engine ÷ floor':>15} {'range':>11}"
          f" {'clone+apply/s':>14} {'greedy÷random: a game':>22} {'a step':>8}")
    for slug in slugs:
        pkg = gamehooks.package(slug)
        if pkg is None or pkg.new_state is None:
            continue
        game = load_game(ROOT, slug, Problems())
        sp = playspeed.playout_speed(slug, game, pkg, a.seconds)
        ca = playspeed.clone_apply_rate(game, pkg, min(a.seconds, 2.0))
        raw = {"playouts_per_s": round(sp.engine_per_s, 1), "clone_apply_per_s": round(ca, 1)}
        spread = f"{sp.low:.2f}–{sp.high:.2f}" if sp.floor else ""
        if sp.floor:
            raw.update(floor_per_s=round(sp.floor_per_s, 1), slower_than_floor=round(sp.ratio, 2),
                       slower_than_floor_range=[round(sp.low, 2), round(sp.high, 2)])
        gr = playspeed.greedy_ratio(game, pkg, min(a.seconds, 2.0))
        if gr is not None:
            raw.update(greedy_per_game=round(gr[0], 2), greedy_per_step=round(gr[1], 2))
        results.setdefault(slug, {})["raw"] = raw
        print(f"{slug:<14} {sp.engine_per_s:>16.1f} {sp.floor_per_s:>9.1f} "
              f"{sp.ratio:>14.2f}× {spread:>11} {ca:>14.0f}"
              + (f" {gr[0]:>21.2f}× {gr[1]:>7.2f}×" if gr else ""))
    (HERE / "work").mkdir(exist_ok=True)
    (HERE / "work" / "simulate.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()

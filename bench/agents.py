"""make bench (part 3): search agents — searched moves per second for mcts:100 and mcts:1000 on
each game a search agent may play (a game that hides cards needs its ``determinize`` hook).

A move is timed only where the player has a choice (one legal action is played at once).
Each measurement searches the moves of one seeded game (the others play at random) for about
``--seconds``, then reports moves/s and playouts/s. Writes bench/work/agents.json.

    .venv/bin/python bench/agents.py [--games bone_wars] [--budgets 100,1000] [--seconds 10]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from cardgen import gamehooks  # noqa: E402
from cardgen.content.gamefiles import list_games  # noqa: E402
from cardgen.content.loader import load_game  # noqa: E402
from cardgen.core.problems import Problems  # noqa: E402
from cardgen.play.api import CHANCE, TERMINAL  # noqa: E402
from cardgen.play.mcts import ROLLOUT_CAP, Budget, for_game, options, rollout  # noqa: E402
from cardgen.play.playout import roll  # noqa: E402
from cardgen.play.search import View  # noqa: E402


def moves_per_second(game, pkg, playouts: int, seconds: float) -> dict[str, float]:
    agent = for_game(pkg, game, Budget(playouts=playouts))
    rng = random.Random(1)
    setups = pkg.setups(game, random.Random(1))
    moves, started = 0, time.perf_counter()
    state = pkg.new_state(game, setups[0])
    while time.perf_counter() - started < seconds:
        who = state.current_player()
        if who == TERMINAL:
            state = pkg.new_state(game, setups[moves % len(setups)])
            continue
        if who == CHANCE:
            state.apply_action(roll(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and who == 0:
            state.apply_action(agent.choose(View(state, who, pkg.determinize), legal, rng))
            moves += 1
        else:
            state.apply_action(legal[rng.randrange(len(legal))])
    took = time.perf_counter() - started
    return {"moves_per_s": round(moves / took, 3), "playouts_per_s": round(agent.playouts / took, 1), "moves": moves}


def playout_seconds(game, pkg) -> float:
    """Seconds one playout from the start takes (cut off — after the game's ``simulate.search.cutoff``
    actions — and scored where the game has ``evaluate``):
    the cost of one search playout, at most."""
    state = pkg.new_state(game, pkg.setups(game, random.Random(1))[0])
    ev = pkg.evaluate(game) if pkg.evaluate is not None else None
    started = time.perf_counter()
    rollout(state, random.Random(1), int(options(game)["cutoff"]) if ev is not None else ROLLOUT_CAP, ev)
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="")
    ap.add_argument("--budgets", default="100,1000")
    ap.add_argument("--seconds", type=float, default=10.0)
    a = ap.parse_args()
    wanted = [g for g in a.games.split(",") if g] or list_games(ROOT)
    out: dict[str, dict[str, object]] = {}
    print(f"{'game':<16} {'budget':>8} {'moves/s':>9} {'playouts/s':>11}")
    for slug in wanted:
        pkg = gamehooks.package(slug)
        if pkg is None or pkg.new_state is None or pkg.setups is None:
            continue
        if pkg.hidden_information and pkg.determinize is None:
            print(f"{slug:<16} {'–':>8}  (hides cards, no determinize hook yet)")
            out[slug] = {"skipped": "no determinize hook"}
            continue
        problems = Problems()
        game = load_game(ROOT, slug, problems)
        if game is None:
            continue
        out[slug] = {}
        per = playout_seconds(game, pkg)
        for b in [int(x) for x in a.budgets.split(",")]:
            if b * per > 3 * a.seconds:
                print(f"{slug:<16} {'mcts:' + str(b):>8}  skipped: one move ≈ {b * per:,.0f} s (a playout {per:.2f} s)")
                out[slug][f"mcts:{b}"] = {"skipped_move_s": round(b * per, 1)}
                continue
            r = moves_per_second(game, pkg, b, a.seconds)
            out[slug][f"mcts:{b}"] = r
            print(f"{slug:<16} {'mcts:' + str(b):>8} {r['moves_per_s']:>9.2f} {r['playouts_per_s']:>11.0f}", flush=True)
    (HERE / "work").mkdir(exist_ok=True)
    (HERE / "work" / "agents.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

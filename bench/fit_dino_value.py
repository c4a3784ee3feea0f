"""Fit Dino Battles' search value (``simulate.search.weights`` in rules/dino_battles/params.yaml).

Plays ``--games`` seeded games between greedy-like agents of graded thrift — the game's greedy
with its Combat Deck fed only up to a cap (1 to 10 cards, or no cap), each move at random with a
small chance — samples positions at the players' choices, and fits a logistic regression (Newton's
method, a light ridge) of the first player's result on the difference of the two sides' figures
(``cardgen/games/dino_battles/value.py``). Prints the weights as YAML, and the held-out log-loss
and accuracy beside the constant guess's.

    .venv/bin/python bench/fit_dino_value.py --games 3000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen import testing  # noqa: E402
from cardgen.games.dino_battles.agents import greedy  # noqa: E402
from cardgen.games.dino_battles.value import FEATURES, features  # noqa: E402
from cardgen.play.api import CHANCE, TERMINAL  # noqa: E402

CAPS = (1, 2, 3, 4, 6, 10, 99)
NOISE = (0.0, 0.05, 0.2)


def thrifty(base: Any, cap: int, noise: float) -> Any:
    """``base`` (greedy) feeding its Combat Deck only up to ``cap`` cards, and with chance
    ``noise`` a uniform move instead."""
    def agent(obs: Any, legal: list[Any], rng: random.Random) -> Any:
        if rng.random() < noise:
            return legal[rng.randrange(len(legal))]
        me = obs["sides"][obs["player"]]
        keep = [a for a in legal if a.kind != "combat_to_deck" or sum(me["combat_deck"].values()) < cap]
        return base(obs, keep or legal, rng)
    return agent


def positions(games: int, seed: int, keep: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    testing.use(ROOT)
    pkg, game = testing.package("dino_battles"), testing.game("dino_battles")
    need, full = int(game.params["kos_to_win"]), int(game.params["deck_size"])
    base = greedy(game)
    setups = [s for s in pkg.setups(game, random.Random(0)) if len(s["players"]) == 2]
    xs, ys, gs = [], [], []
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        seats = [thrifty(base, rng.choice(CAPS), rng.choice(NOISE)) for _ in range(2)]
        state = pkg.new_state(game, setups[g % len(setups)])
        rows = []
        for _ in range(20_000):
            who = state.current_player()
            if who == TERMINAL:
                break
            if who == CHANCE:
                state.apply_action(state.sample_chance(rng.random()))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < keep:
                a, b = features(state, 0, need, full), features(state, 1, need, full)
                rows.append([x - y for x, y in zip(a, b)])
            state.apply_action(seats[who](state.observation(who), legal, rng))
        if not state.is_terminal():
            continue
        r = state.returns()[0]
        xs += rows
        ys += [r] * len(rows)
        gs += [g] * len(rows)
    return np.array(xs), np.array(ys), np.array(gs)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1.0) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    ll = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float(ll), float(np.mean((p > 0.5) == (y > 0.5)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", type=float, default=0.1, help="share of choices sampled")
    o = ap.parse_args()
    x, y, g = positions(o.games, o.seed, o.keep)
    test = g % 5 == 0
    w = fit(x[~test], y[~test])
    ll, acc = loss(x[test], y[test], w)
    print(f"# {len(y)} positions from {len(set(g.tolist()))} games; held out {int(test.sum())}: "
          f"log-loss {ll:.3f} (constant {math.log(2):.3f}), accuracy {acc:.1%}")
    w = fit(x, y)
    print("weights:")
    for k, v in zip(FEATURES, w):
        print(f"  {k}: {v:.2f}")


if __name__ == "__main__":
    main()

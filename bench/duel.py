"""Two agents head to head on a game's two-player setups: how the figures of docs/simulate.md
("Does search beat random ≥ 90 % and greedy in a majority …") were measured.

Game ``i`` plays setup ``(i // 2) mod setups`` with seed ``1000 + i // 2``; A takes seat 1 in
even games and seat 2 in odd ones, so each seed is played in both seat orders. Prints A's
score (a draw or an unfinished game counts ½) with its 95 % Wilson interval, the seconds a
move each agent took, and the games in order (W/L/d for A). Each agent draws from its own
generator, so every pair of agents meets the same dice on the same seeds (see :func:`duel`).

    .venv/bin/python bench/duel.py bones_on_ice mcts:40 greedy --games 20

A search agent's name may carry variants, bench-only, for the experiments of docs/simulate.md:
``mcts:40/cheat`` searches the true position instead of determinizations (it peeks: a
diagnosis of what the hidden information costs, never an agent to play with), and
``mcts:40/playout=greedy``, ``/keep=1``, ``/bias=3``, ``/explore=0.5``, ``/cutoff=80``, ``/trust=0.9`` set
the search's own options (``MCTS``'s arguments). ``prior`` is the game's prior hook played as an
agent on its own (what the search starts from, without the search).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from cardgen import testing  # noqa: E402
from cardgen.play.mcts import MCTS  # noqa: E402
from cardgen.play.playout import play  # noqa: E402
from cardgen.play.search import SearchAgent, View  # noqa: E402
from cardgen.simulate.rates import wilson  # noqa: E402
from cardgen.simulate.worker import make_agent  # noqa: E402


class Timed(SearchAgent):
    """An agent (plain or search) that counts its moves and the seconds they took; ``cheat``:
    its search sees the true position (the view without the game's ``determinize``)."""

    def __init__(self, agent: Any, cheat: bool = False):
        self.agent, self.moves, self.seconds, self.cheat = agent, 0, 0.0, cheat

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        t = time.perf_counter()
        if self.cheat:
            view = View(view._state, view.player, None)
        if isinstance(self.agent, SearchAgent):
            a = self.agent.choose(view, legal, rng)
        else:
            a = self.agent(view.observation(), legal, rng)
        self.seconds += time.perf_counter() - t
        self.moves += 1
        return a


def make(pkg: Any, game: Any, name: str) -> Timed:
    """The timed agent ``name`` stands for, with its bench-only variants (see the module's text)."""
    base, *opts = name.split("/")
    agent = pkg.prior(game) if base == "prior" and pkg.prior is not None else make_agent(pkg, game, base)
    cheat = False
    for opt in opts:
        key, _, value = opt.partition("=")
        if key == "cheat":
            cheat = True
            continue
        if not isinstance(agent, MCTS):
            raise SystemExit(f"{name}: /{key} is an option of a search agent")
        if key == "playout":
            agent.policy = agent.prior if value == "greedy" else pkg.agents[value](game)
        elif key == "cutoff":
            agent.cap = int(value)
        elif key in ("keep", "bias", "explore", "trust"):
            setattr(agent, key, float(value))
        else:
            raise SystemExit(f"{name}: unknown variant /{key}")
    return Timed(agent, cheat)


def two_player(setup: dict[str, Any]) -> bool:
    return "players" not in setup or len(setup["players"]) == 2


def duel(slug: str, a_name: str, b_name: str, games: int) -> tuple[list[float], Timed, Timed]:
    """A's score in each game (1, ½, 0) and the two timed agents. Both are wrapped as search
    agents, so each draws from its own generator (``search.own_stream``) and game ``i``'s dice
    are the seed's whatever the agents draw: the same seeds are the same luck, as far as the
    moves allow (a different move can still change which die is rolled for what)."""
    testing.use(ROOT)
    pkg, game = testing.package(slug), testing.game(slug)
    setups = [s for s in pkg.setups(game, random.Random(0)) if two_player(s)]
    a, b = make(pkg, game, a_name), make(pkg, game, b_name)
    scores: list[float] = []
    for i in range(games):
        state = pkg.new_state(game, setups[(i // 2) % len(setups)])
        me = i % 2
        seats: list[Any] = [a, b] if me == 0 else [b, a]
        played = play(state, seats, random.Random(1000 + i // 2), 20_000, pkg.determinize)
        scores.append(float(state.returns()[me]) if played.finished else 0.5)
    return scores, a, b


def line(slug: str, a_name: str, b_name: str, scores: list[float], a: Timed, b: Timed) -> str:
    won, n = sum(scores), len(scores)
    lo, hi = wilson(won, n)
    games = "".join("W" if s == 1 else "L" if s == 0 else "d" for s in scores)
    return (f"{slug} {a_name} vs {b_name}: {won:g}/{n} = {won / n:.0%} [{lo:.0%}–{hi:.0%}]  s/move "
            f"{a.seconds / max(1, a.moves):.4f} / {b.seconds / max(1, b.moves):.4f}  {games}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--games", type=int, default=20)
    o = ap.parse_args()
    print(line(o.game, o.a, o.b, *duel(o.game, o.a, o.b, o.games)))


if __name__ == "__main__":
    main()

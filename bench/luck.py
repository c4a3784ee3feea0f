"""How much of a game the dice decide: several agents each play the same seeds against one
opponent (``bench/duel.py``'s games: both seat orders, each agent on its own generator, so
game ``i`` rolls the same dice whoever plays it); a game that every agent lost — the same seed,
the same seat — is one the moves tried could not save. Their share bounds what these agents
can score against that opponent.

    .venv/bin/python bench/luck.py bones_on_ice random greedy mcts:40 --games 100
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from duel import duel, line  # noqa: E402

from cardgen.simulate.rates import wilson  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("opponent")
    ap.add_argument("agents", nargs="+")
    ap.add_argument("--games", type=int, default=100)
    o = ap.parse_args()
    lost: set[int] | None = None
    for name in o.agents:
        scores, a, b = duel(o.game, name, o.opponent, o.games)
        print(line(o.game, name, o.opponent, scores, a, b), flush=True)
        mine = {i for i, s in enumerate(scores) if s < 1}
        lost = mine if lost is None else lost & mine
    fixed = sorted(lost or ())
    lo, hi = wilson(len(fixed), o.games)
    print(f"not won by any of {', '.join(o.agents)}: {len(fixed)}/{o.games} = {len(fixed) / o.games:.0%} "
          f"[{lo:.0%}–{hi:.0%}]  games {fixed}")
    print(f"an agent that saves none of these games scores at most {1 - len(fixed) / o.games:.0%} "
          f"against {o.opponent} on these seeds")


if __name__ == "__main__":
    main()

"""Monte-Carlo tree search agents: UCT, and single-observer information-set MCTS.

One compact implementation serves both (Cowling, Powley & Whitehouse 2012, "Information Set
Monte Carlo Tree Search", SO-ISMCTS): every iteration starts from a copy of the position the
agent's :class:`~.search.View` samples — the position itself in a game without hidden
information (then this is plain UCT), a determinization otherwise — descends the tree by UCB1
over the actions legal in that copy (counting how often each was *available*, as ISMCTS
does), samples chance nodes by their probabilities, adds one node, plays the rest at random,
and backs up ``state.returns()``: each node scores the return of the player who chose it.

Budgets: ``mcts:500`` is 500 playouts a move (reproducible: the agent draws from a generator
of its own, seeded from the game's and its seat — ``search.own_stream`` — so its playouts leave
the game's dice alone); ``mcts:2s`` is two seconds a move (not reproducible: how many playouts
fit depends on the machine).
"""

from __future__ import annotations

import math
import random
import re
import time
from typing import Any

from cardgen.core.record import record
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.dice import index_below
from cardgen.play.package import GamePackage
from cardgen.play.params import Params
from cardgen.play.search import Agent, Evaluate, SearchAgent, View

#: the search agents' names (``NAME:BUDGET``)
SEARCH = ("mcts",)
#: UCB1's exploration constant (returns lie in [0, 1])
EXPLORE = 0.7
#: a playout that has not ended after this many actions counts as a draw
ROLLOUT_CAP = 5000
#: with the game's ``evaluate`` hook, a playout stops after this many actions and scores the
#: position it reached by the hook instead of playing to the end
CUTOFF = 40
#: how far a scored (unfinished) playout's value may lie from an even share: 1 would let a
#: position the hook likes look as good as a game won
TRUST = 0.8
#: with the game's ``prior``, the root keeps the prior's move unless the most-tried move's mean
#: return beats it by more than this many standard errors of their difference (0: the most-tried
#: move, whatever the evidence)
KEEP = 0.0

_BUDGET = re.compile(r"(?P<n>\d+(?:\.\d+)?)(?P<unit>s|ms)?")


@record(frozen=True)
class Budget:
    playouts: int = 0             #: playouts a move (reproducible)
    seconds: float = 0.0          #: or a time a move (not reproducible)

    def __str__(self) -> str:
        return f"{self.playouts}" if self.playouts else f"{self.seconds:g}s"


class BudgetError(ValueError):
    pass


def parse_budget(text: str) -> Budget:
    """``500`` → 500 playouts, ``2s``/``1.5s``/``300ms`` → a time a move; else BudgetError."""
    m = _BUDGET.fullmatch(text.strip())
    if m is None:
        raise BudgetError(f"'{text}' is no budget: write playouts a move (mcts:500) or a time (mcts:2s)")
    n, unit = float(m["n"]), m["unit"]
    if unit is None:
        if not m["n"].isdigit():
            raise BudgetError(f"'{text}': playouts are a whole number (mcts:500), or add a unit (mcts:{text}s)")
        if int(n) < 1:
            raise BudgetError(f"'{text}': a search needs at least 1 playout a move")
        return Budget(playouts=int(n))
    seconds = n / 1000 if unit == "ms" else n
    if seconds <= 0:
        raise BudgetError(f"'{text}': a time budget must be more than 0")
    return Budget(seconds=seconds)


class Node:
    __slots__ = ("children", "visits", "avail", "total", "square", "hint")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.hint: Action | None = None       # the prior's choice here (progressive bias)
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.square = 0.0                     # Σ return², for the spread of its mean

    def mean_and_var(self) -> tuple[float, float]:
        """The mean return and the variance of that mean (0 visits: 0 and infinity; 1 visit: its
        return and infinity — one playout says nothing of the spread)."""
        if self.visits == 0:
            return 0.0, math.inf
        m = self.total / self.visits
        if self.visits == 1:
            return m, math.inf
        return m, max(0.0, self.square / self.visits - m * m) / self.visits


def rollout(state: GameState, rng: random.Random, cap: int = ROLLOUT_CAP,
            evaluate: Evaluate | None = None, policy: Agent | None = None,
            trust: float = TRUST) -> list[float]:
    """Play ``state`` on at random; the returns at its end — or, with ``evaluate``, the hook's
    value of the position after ``cap`` actions. Without the hook, a playout that runs past
    ``cap`` or reaches a player with no legal action (an engine's slip, which real play
    reports) counts as a draw."""
    current, apply, legal_of = state.current_player, state.apply_action, state.legal_actions
    sample = state.sample_chance
    uniform = rng.random
    for _ in range(cap):
        who = current()
        if who == TERMINAL:
            return list(state.returns())
        if who == CHANCE:
            outcome = sample(uniform())
            if outcome is None:         # an engine with no outcome here: the playout counts as a draw
                break
            apply(outcome)
        else:
            legal = legal_of()
            n = len(legal)
            if not n:               # an engine that lists nothing here: the playout counts as a draw
                break
            if policy is None or n == 1:
                apply(legal[index_below(rng, n)])
            else:
                apply(policy(state.observation(who), legal, rng))
    if state.is_terminal():
        return list(state.returns())
    if evaluate is not None:           # a guess, never as sure as a game played out: shrunk to even
        n = len(state.players)
        return [1.0 / n + trust * (v - 1.0 / n) for v in evaluate(state)]
    n = len(state.players)
    return [1.0 / n] * n


class MCTS(SearchAgent):
    """UCT / SO-ISMCTS with random playouts (see the module's text). With ``evaluate`` (the
    game's hook: a position → each player's expected return in [0, 1]) a playout stops after
    ``cutoff`` actions and the hook scores where it got to."""

    def __init__(self, budget: Budget, explore: float = EXPLORE, cap: int = ROLLOUT_CAP,
                 evaluate: Evaluate | None = None, cutoff: int = CUTOFF, policy: Agent | None = None,
                 prior: Agent | None = None, bias: float = 1.0, keep: float | None = None,
                 trust: float = TRUST):
        self.budget, self.explore, self.trust = budget, explore, trust
        self.keep = KEEP if keep is None else keep
        self.evaluate, self.policy, self.prior, self.bias = evaluate, policy, prior, bias
        self.cap = cap if evaluate is None else min(cap, cutoff)
        self.playouts = 0             # playouts made so far (for speed figures)

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        root = Node()
        if self.budget.playouts:
            for _ in range(self.budget.playouts):
                self.iterate(root, view.sample(rng), rng)
        else:
            deadline = time.monotonic() + self.budget.seconds
            while True:
                self.iterate(root, view.sample(rng), rng)
                if time.monotonic() >= deadline:
                    break
        order = {a: i for i, a in enumerate(legal)}
        best = max((a for a in root.children if a in order),
                   key=lambda a: (root.children[a].visits, root.children[a].total, -order[a]), default=None)
        if best is None:
            return legal[0]
        return self._keep(root, best)

    def _keep(self, root: Node, best: Action) -> Action:
        """``best``, or the prior's move when the evidence against it is under ``keep`` standard
        errors (a search of few playouts in a game of dice otherwise trades a sound move for noise)."""
        hint = root.hint
        if self.keep <= 0 or hint is None or hint == best or hint not in root.children:
            return best
        (mb, vb), (mh, vh) = root.children[best].mean_and_var(), root.children[hint].mean_and_var()
        return best if mb - mh > self.keep * math.sqrt(vb + vh) else hint

    def _select(self, legal: list[Action], kids: list[Node], hinted: Node | None) -> tuple[Action, Node]:
        """The UCB1 choice among ``legal`` (each tried: ``kids`` are their children, in order),
        with the prior's bonus on the hint's child ``hinted``; the first of equal values."""
        best, best_c, best_v = legal[0], kids[0], -math.inf
        explore, log, sqrt = self.explore, math.log, math.sqrt
        for a, c in zip(legal, kids):
            v = c.total / c.visits + explore * sqrt(log(c.avail) / c.visits)
            if c is hinted:         # (an action's child is its own: no action compared)
                v += self.bias / (c.visits + 1)
            if v > best_v:
                best, best_c, best_v = a, c, v
        return best, best_c

    def iterate(self, root: Node, state: GameState, rng: random.Random) -> None:
        """One iteration on ``state`` (a sampled copy, played on in place)."""
        self.playouts += 1
        node: Node | None = root
        path: list[tuple[Node, int]] = []
        while node is not None:
            who = state.current_player()
            if who == TERMINAL:
                break
            if who == CHANCE:
                node = self._chance(node, state, rng, path)
            else:
                node = self._decide(node, state, who, rng, path)
        returns = rollout(state, rng, self.cap, self.evaluate, self.policy, self.trust)
        root.visits += 1
        for n, who in path:
            n.visits += 1
            if who >= 0:
                n.total += returns[who]
                n.square += returns[who] ** 2

    @staticmethod
    def _chance(node: Node, state: GameState, rng: random.Random,
                path: list[tuple[Node, int]]) -> Node | None:
        """Sample the chance node's outcome and go down to its child (None: stop descending — a
        new child was added, or the engine has no outcome here)."""
        a = state.sample_chance(rng.random())
        if a is None:
            return None
        child = node.children.get(a)
        state.apply_action(a)
        if child is None:
            node.children[a] = child = Node()
            path.append((child, CHANCE))
            return None
        path.append((child, CHANCE))
        return child

    def _decide(self, node: Node, state: GameState, who: int, rng: random.Random,
                path: list[tuple[Node, int]]) -> Node | None:
        """A player's decision: expand an untried action (the prior's first) and stop, or go down
        the UCB1 choice (None: stop descending)."""
        legal = state.legal_actions()
        if not legal:
            return None
        children = node.children
        untried, kids = [], []
        for a in legal:
            c = children.get(a)
            if c is None:
                untried.append(a)
            else:
                c.avail += 1
                kids.append(c)
        if self.prior is not None and node.hint is None:
            node.hint = self.prior(state.observation(who), legal, rng)
        hint = node.hint
        # the hint's child, once tried (one look-up: the hint is never compared with each action)
        hinted = None if hint is None else children.get(hint)
        if untried:
            a = hint if hint is not None and hinted is None and hint in untried \
                else untried[index_below(rng, len(untried))]
            children[a] = child = Node()
            state.apply_action(a)
            path.append((child, who))
            return None
        a, child = self._select(legal, kids, hinted)
        state.apply_action(a)
        path.append((child, who))
        return child


#: the search's own numbers a game may set under ``simulate.search`` in its params.yaml (else
#: the defaults above): name → (MCTS's argument, default)
OPTIONS: dict[str, int | float] = {"cutoff": CUTOFF, "trust": TRUST, "explore": EXPLORE, "bias": 1.0,
                                   "keep": KEEP}


def options(game: Any) -> dict[str, int | float]:
    """The game's own values of :data:`OPTIONS` (``simulate.search.cutoff`` …), else the defaults."""
    raw = getattr(game, "params", None)
    if not isinstance(raw, dict):
        return dict(OPTIONS)
    p = Params(raw, game.rules_dir / "params.yaml")
    return {k: (p.int if k == "cutoff" else p.number)(f"simulate.search.{k}", v) for k, v in OPTIONS.items()}


def for_game(package: GamePackage, game: Any, budget: Budget) -> MCTS:
    """The search agent of ``budget`` with the game's own hooks where it has them: playouts cut
    short and scored by its ``evaluate``, the tree leaning on its ``prior``; its numbers are the
    game's ``simulate.search`` values of :data:`OPTIONS` where it sets them."""
    o = options(game)
    return MCTS(budget, evaluate=package.evaluate(game) if package.evaluate is not None else None,
                prior=package.prior(game) if package.prior is not None else None,
                cutoff=int(o["cutoff"]), trust=o["trust"], explore=o["explore"], bias=o["bias"],
                keep=o["keep"])

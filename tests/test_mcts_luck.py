"""Paired luck and the search's root rule: a search agent draws from a generator of its own,
so the same seed rolls the same dice whatever the search draws; with the game's prior, the
root keeps the prior's move unless the playouts show another is better beyond their noise."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.mcts import MCTS, Budget, Node
from cardgen.play.playout import play, random_agent
from cardgen.play.search import SearchAgent, View, own_stream


class Rolls(GameState):
    """Five rounds: a die is rolled, then the player to act picks 0–2; the picks never change
    the dice to come. The higher total of die + pick at the end wins."""

    ROUNDS = 5

    def __init__(self) -> None:
        self.players, self.history = ["a", "b"], []
        self.rolls: list[int] = []
        self.score = [0, 0]
        self.rolled = False

    def current_player(self) -> int:
        if len(self.rolls) == self.ROUNDS and not self.rolled:
            return TERMINAL
        return len(self.rolls) % 2 if self.rolled else CHANCE

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(Action.make("roll", value=v), 1 / 6) for v in range(1, 7)]

    def legal_actions(self) -> list[Action]:
        return [Action.make("pick", n=n) for n in range(3)]

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        if action.kind == "roll":
            self.rolls.append(action["value"])
            self.rolled = True
            return
        self.score[(len(self.rolls) - 1) % 2] += self.rolls[-1] + action["n"]
        self.rolled = False

    def returns(self) -> list[float]:
        a, b = self.score
        return [float(a > b) + 0.5 * (a == b), float(b > a) + 0.5 * (a == b)]

    def result(self) -> dict[str, Any]:
        return {"score": list(self.score)}

    def observation(self, player: int) -> dict[str, Any]:
        return {"score": list(self.score)}

    def log_header(self) -> dict[str, Any]:
        return {"game": "rolls"}

    def clone(self) -> Rolls:
        c = Rolls()
        c.history, c.rolls, c.score = list(self.history), list(self.rolls), list(self.score)
        c.rolled = self.rolled
        return c


class Greedy(SearchAgent):
    """A search agent that draws ``draws`` numbers a move from its generator, then picks 2."""

    def __init__(self, draws: int):
        self.draws = draws

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        for _ in range(self.draws):
            rng.random()
        return legal[-1]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), draws=st.integers(1, 50))
def test_a_search_agents_draws_leave_the_dice_alone(seed: int, draws: int) -> None:
    """The same seed rolls the same dice whether the search draws nothing or ``draws`` numbers a
    move (it has its own generator); a plain agent still draws from the game's."""
    quiet, busy = Rolls(), Rolls()
    play(quiet, [Greedy(0), Greedy(0)], random.Random(seed))
    play(busy, [Greedy(draws), Greedy(0)], random.Random(seed))
    assert busy.rolls == quiet.rolls
    plain = Rolls()
    play(plain, [random_agent, Greedy(0)], random.Random(seed))
    assert plain.is_terminal()


def test_own_stream_reads_the_game_generator_without_drawing() -> None:
    rng = random.Random(7)
    before = rng.getstate()
    a, b = own_stream(rng, 0), own_stream(rng, 1)
    assert rng.getstate() == before                                  # nothing drawn
    assert a.random() != b.random()                                  # each seat its own
    assert own_stream(random.Random(7), 0).random() == own_stream(random.Random(7), 0).random()
    assert own_stream(random.Random(8), 0).random() != own_stream(random.Random(7), 0).random()


def _root(hint_scores: list[float], best_scores: list[float]) -> tuple[Node, Action, Action]:
    hint, best = Action.make("pick", n=0), Action.make("pick", n=1)
    root = Node()
    root.hint = hint
    for a, scores in ((hint, hint_scores), (best, best_scores)):
        child = root.children[a] = Node()
        child.visits, child.total, child.square = len(scores), sum(scores), sum(x * x for x in scores)
    return root, hint, best


def test_the_root_keeps_the_priors_move_against_noise() -> None:
    """Most-tried but better by less than ``keep`` standard errors: the prior's move stands."""
    root, hint, best = _root([1, 0, 1, 0, 1, 0], [1, 0, 1, 1, 0, 1, 0, 1])     # 0.50 against 0.625
    assert MCTS(Budget(playouts=1), keep=1.0)._keep(root, best) == hint
    assert MCTS(Budget(playouts=1), keep=0.0)._keep(root, best) == best       # off: the most tried


def test_the_root_leaves_the_priors_move_on_evidence() -> None:
    root, hint, best = _root([0.1, 0.2, 0.1, 0.2, 0.15, 0.1], [0.9, 0.8, 0.9, 0.85, 0.9, 0.8, 0.9, 0.9])
    assert MCTS(Budget(playouts=1), keep=1.0)._keep(root, best) == best

"""Synthetic games with known answers, for the statistics of `cardgen simulate` (no project files).

- **Duel**: chance decides who moves first (a fair coin); the first mover wins with
  probability ``p`` — a first-mover advantage of exactly ``p − ½`` that seat order knows
  nothing about. With ``named``, seat 1 makes a "ready" move before the coin and the game says
  who moved first (``result()['first_mover']``), as Bone Wars does for its d20.
- **Deck Race**: two runners race to ``goal``; a turn: draw a card from one's own shuffled
  deck (chance), play a card or pass, roll a d6 and move roll + the card's bonus. The deck:
  ``ace`` (+8: a known must-pick), ``dud`` (never playable: a known dead card), ``finisher``
  (+0, playable only while its holder leads: played in games that go well), ``late`` (+0,
  playable from turn 6: played in long games) and ``plain`` (+1) filler.

Both run through :func:`cardgen.simulate.run.simulate` on a :class:`FakeGame` (cards and
params only), with the framework's random agent and its replay check.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.dice import die_outcomes, draw_outcomes
from cardgen.play.package import Agent, GamePackage
from cardgen.simulate.spec import Plan, Variant


class FakeCard:
    def __init__(self, cid: str, ctype: str = "card"):
        self.id, self.type = cid, ctype


class FakeGame:
    """What the simulation reads of a game: cards (id, type), params, a slug and a title."""

    def __init__(self, slug: str, cards: list[str]):
        self.slug, self.title, self.params = slug, slug.replace("_", " ").title(), {}
        self.cards = [FakeCard(c) for c in cards]
        self.root = Path("/nonexistent")

    @property
    def cards_by_id(self) -> dict[str, FakeCard]:
        return {c.id: c for c in self.cards}


# --- Duel -----------------------------------------------------------------------------
class DuelState(GameState):
    def __init__(self, setup: Mapping[str, Any]):
        self.setup = dict(setup)
        self.players = [x["name"] for x in setup["players"]]
        self.p, self.named = float(setup["p"]), bool(setup.get("named"))
        self.history: list[Action] = []
        self.stage = "ready" if self.named else "coin"
        self.first: int | None = None
        self.winner: int | None = None

    def current_player(self) -> int:
        return {"ready": 0, "coin": CHANCE, "go": self.first, "duel": CHANCE}.get(self.stage, TERMINAL)  # type: ignore[return-value]

    def legal_actions(self) -> list[Action]:
        if self.stage == "ready":
            return [Action.make("ready", player=self.players[0])]
        if self.stage == "go":
            assert self.first is not None
            return [Action.make("go", player=self.players[self.first])]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.stage == "coin":
            return [(Action.make("coin", first=i), 0.5) for i in range(2)]
        if self.stage == "duel":
            return [(Action.make("duel", first_wins=True), self.p), (Action.make("duel", first_wins=False), 1 - self.p)]
        return []

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        if action.kind == "ready":
            self.stage = "coin"
        elif action.kind == "coin":
            self.first, self.stage = int(action["first"]), "go"
        elif action.kind == "go":
            self.stage = "duel"
        elif action.kind == "duel":
            assert self.first is not None
            self.winner, self.stage = (self.first if action["first_wins"] else 1 - self.first), "over"

    def returns(self) -> list[float]:
        return [0.0, 0.0] if self.winner is None else [float(i == self.winner) for i in range(2)]

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": None if self.winner is None else self.players[self.winner]}
        if self.named and self.first is not None:
            out["first_mover"] = self.players[self.first]
        return out

    def observation(self, player: int) -> dict[str, Any]:
        return {"stage": self.stage}

    def log_header(self) -> dict[str, Any]:
        return dict(self.setup)


def duel_plan(p: float, named: bool = False, games: int = 2000, seed: int = 0) -> Plan:
    setup = {"game": "duel", "players": [{"name": "ana"}, {"name": "bo"}], "p": p, "named": named}
    pkg = GamePackage(new_state=lambda game, s: DuelState(s))
    return Plan("duel", "Duel", pkg, [Variant("", None, FakeGame("duel", []))], [setup], ["random"], 1, games, seed)


# --- Deck Race --------------------------------------------------------------------------
BONUS = {"ace": 8, "dud": 0, "finisher": 0, "late": 0, "plain": 1}
DECK = {"ace": 2, "dud": 2, "finisher": 3, "late": 3, "plain": 30}


class RaceState(GameState):
    def __init__(self, setup: Mapping[str, Any]):
        self.setup = dict(setup)
        self.players = [x["name"] for x in setup["players"]]
        self.goal, self.late_turn = int(setup.get("goal", 20)), int(setup.get("late_turn", 6))
        self.decks = [Counter(setup["deck"]) for _ in self.players]
        self.hands: list[Counter[str]] = [Counter() for _ in self.players]
        self.pos = [0, 0]
        self.history: list[Action] = []
        self.to_act, self.phase, self.turn, self.pending = 0, "draw", 1, 0
        self.winner: int | None = None
        self._skip()

    def _skip(self) -> None:
        if self.phase == "draw" and not sum(self.decks[self.to_act].values()):
            self.phase = "choose"

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase in ("draw", "roll") else self.to_act

    def playable(self, card: str) -> bool:
        me = self.to_act
        if card == "dud":
            return False
        if card == "finisher":
            return self.pos[me] > self.pos[1 - me]
        if card == "late":
            return self.turn >= self.late_turn
        return True

    def legal_actions(self) -> list[Action]:
        if self.phase != "choose":
            return []
        me = self.players[self.to_act]
        return [Action.make("play", player=me, card=c) for c in sorted(self.hands[self.to_act]) if self.playable(c)] + \
            [Action.make("pass", player=me)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        me = self.players[self.to_act]
        if self.phase == "draw":
            return draw_outcomes("draw", self.decks[self.to_act], player=me)
        if self.phase == "roll":
            return die_outcomes("roll", 6, player=me)
        return []

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        me = self.to_act
        if action.kind == "draw":
            self.decks[me][action["card"]] -= 1
            self.hands[me][action["card"]] += 1
            self.phase = "choose"
        elif action.kind == "play":
            self.hands[me][action["card"]] -= 1
            self.hands[me] += Counter()
            self.pending, self.phase = BONUS[action["card"]], "roll"
        elif action.kind == "pass":
            self.pending, self.phase = 0, "roll"
        elif action.kind == "roll":
            self.pos[me] += action["value"] + self.pending
            self.pending = 0
            if self.pos[me] >= self.goal:
                self.winner, self.phase = me, "over"
            else:
                self.to_act, self.turn, self.phase = 1 - me, self.turn + 1, "draw"
                self._skip()

    def returns(self) -> list[float]:
        return [0.0, 0.0] if self.winner is None else [float(i == self.winner) for i in range(2)]

    def result(self) -> dict[str, Any]:
        return {"winner": None if self.winner is None else self.players[self.winner]}

    def observation(self, player: int) -> dict[str, Any]:
        return {"pos": list(self.pos), "hand": dict(self.hands[player])}

    def log_header(self) -> dict[str, Any]:
        return dict(self.setup)


def greedy(game: Any) -> Agent:
    """Plays its biggest bonus (a +0 card rather than nothing), else passes."""
    def agent(obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        return max(legal, key=lambda a: (BONUS[a["card"]] if a.kind == "play" else -1, a.get("card") or ""))
    return agent


def race_plan(games: int = 1500, seed: int = 0, agent: str = "greedy") -> Plan:
    setup = {"game": "deck_race", "players": [{"name": "ana"}, {"name": "bo"}], "deck": dict(DECK)}
    pkg = GamePackage(new_state=lambda game, s: RaceState(s), agents={"greedy": greedy})
    return Plan("deck_race", "Deck Race", pkg, [Variant("", None, FakeGame("deck_race", list(BONUS)))], [setup],
                [agent], 1, games, seed)


"""Dice Duel: the tune tests' toy game, with a fair value known in closed form.

It plays on the Dice Race project (tests/data/dice_race): each runner rolls the ``die`` once
and adds its team's ``teams.<team>.bonus``; the higher total wins, a tie is a draw. Hares win
a share of ``P(r₁ + h > r₂ + t) + ½ P(r₁ + h = r₂ + t)``, exactly ½ when the bonuses are equal
(:func:`hare_share` enumerates it). ``max_turns`` is read by nobody here: a param that does
not matter. The Jog card's ``boost`` adds ``boost − 1`` to the hares (1 on the card: nothing), so
a card field tune moves has its fair value too: ``boost = 1 − bonus``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from cardgen.content.model import Game
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.dice import die_outcomes
from cardgen.play.package import GamePackage
from cardgen.play.params import Params
from tests.simtoy import SLUG


def hare_share(die: int, hares: int, tortoises: int) -> Fraction:
    win = tie = 0
    for a in range(1, die + 1):
        for b in range(1, die + 1):
            win += a + hares > b + tortoises
            tie += a + hares == b + tortoises
    return Fraction(2 * win + tie, 2 * die * die)


class DuelState(GameState):
    def __init__(self, game: Game, header: Mapping[str, Any]):
        p = Params(game.params, game.rules_dir / "params.yaml")
        self.header = {"game": SLUG, "players": [dict(x) for x in header["players"]]}
        self.players = [x["name"] for x in header["players"]]
        jog = game.cards_by_id["jog"].fields["boost"] - 1
        self.bonus = [p.int(f"teams.{x['team']}.bonus") + (jog if x["team"] == "hares" else 0)
                      for x in header["players"]]
        self.die = p.int("die")
        self.totals: list[int] = []
        self.history: list[Action] = []

    def current_player(self) -> int:
        return TERMINAL if len(self.totals) == len(self.players) else CHANCE

    def legal_actions(self) -> list[Action]:
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return die_outcomes("roll", self.die, player=self.players[len(self.totals)])

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        self.totals.append(action["value"] + self.bonus[len(self.totals)])

    def returns(self) -> list[float]:
        if len(self.totals) < len(self.players):
            return [0.0] * len(self.players)
        a, b = self.totals
        return [1.0, 0.0] if a > b else [0.0, 1.0] if b > a else [0.5, 0.5]

    def result(self) -> dict[str, Any]:
        return {"totals": list(self.totals)}

    def observation(self, player: int) -> dict[str, Any]:
        return {"totals": list(self.totals)}

    def log_header(self) -> dict[str, Any]:
        return copy.deepcopy(self.header)

    def clone(self) -> DuelState:
        return copy.deepcopy(self)


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    return [{"game": SLUG, "players": [{"name": "ana", "team": a}, {"name": "bo", "team": b}]}
            for a, b in (("hares", "tortoises"), ("tortoises", "hares"))]


def new_state(game: Game, setup: Mapping[str, Any]) -> DuelState:
    return DuelState(game, setup)


def measures(state: GameState) -> dict[str, Any]:
    assert isinstance(state, DuelState)
    return {"gap": abs(state.totals[0] - state.totals[1]), "tie": state.totals[0] == state.totals[1]}


PACKAGE = GamePackage(new_state=new_state, setups=setups, measures=measures)   # replayed by its own actions

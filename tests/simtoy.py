"""Dice Race: a toy game on the play core, for the simulation tests (no real game needed).

Two runners, each of a team (``hares`` run one step further a roll), race along a track of
``track.length`` squares. A turn: draw a boost card from the shared deck (chance), play one
card from the hand or pass, roll the die (chance) and move die + team bonus + boost. First at
the end wins; after ``max_turns`` turns the race is a draw. ``faults.crash_at`` makes the
engine raise when a runner lands on that square (the tests' engine error). Its project lives
in ``tests/data/dice_race``; its playtest logs replay through :class:`Engine` and the checker.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content import collection_files as cols
from cardgen.content.model import Game
from cardgen.content.playlog import Event
from cardgen.core.options import Opt
from cardgen.core.problems import Problems
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.dice import die_outcomes, draw_outcomes
from cardgen.play.package import Agent, GamePackage
from cardgen.play.params import Params
from cardgen.play.referee import BaseEngine

SLUG = "dice_race"


class RaceState(GameState):
    def __init__(self, game: Game, header: Mapping[str, Any]):
        p = Params(game.params, game.rules_dir / "params.yaml")
        self.header = {"game": SLUG, "players": [dict(x) for x in header["players"]],
                       "deck": {"name": header["deck"]["name"], "cards": dict(header["deck"]["cards"])}}
        self.players = [x["name"] for x in header["players"]]
        self.bonus = [p.int(f"teams.{x['team']}.bonus") for x in header["players"]]
        self.boosts = {c.id: int(c.get("boost", 0)) for c in game.cards}
        self.length, self.max_turns, self.die = p.int("track.length"), p.int("max_turns"), p.int("die")
        self.hand_size, self.crash_at = p.int("hand_size"), p.int("faults.crash_at")
        self.deck = Counter(self.header["deck"]["cards"])
        self.hands = [Counter() for _ in self.players]
        self.pos = [0] * len(self.players)
        self.history: list[Action] = []
        self.to_act, self.phase, self.turn, self.pending = 0, "draw", 1, 0
        self.winner: int | None = None
        self._skip_draw()

    def _skip_draw(self) -> None:
        if self.phase == "draw" and (not sum(self.deck.values()) or
                                     sum(self.hands[self.to_act].values()) >= self.hand_size):
            self.phase = "choose"

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase in ("draw", "roll") else self.to_act

    def legal_actions(self) -> list[Action]:
        if self.phase != "choose":
            return []
        me = self.players[self.to_act]
        return [Action.make("play", player=me, card=c) for c in sorted(self.hands[self.to_act])] + \
            [Action.make("pass", player=me)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        me = self.players[self.to_act]
        if self.phase == "draw":
            return draw_outcomes("draw", self.deck, player=me)
        if self.phase == "roll":
            return die_outcomes("roll", self.die, player=me)
        return []

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        me = self.to_act
        if action.kind == "draw":
            self.deck[action["card"]] -= 1
            self.hands[me][action["card"]] += 1
            self.phase = "choose"
        elif action.kind == "play":
            self.hands[me][action["card"]] -= 1
            self.hands[me] += Counter()
            self.pending = self.boosts[action["card"]]
            self.phase = "roll"
        elif action.kind == "pass":
            self.pending, self.phase = 0, "roll"
        elif action.kind == "roll":
            self.pos[me] += max(0, action["value"] + self.bonus[me] + self.pending)
            self.pending = 0
            if self.crash_at and self.pos[me] == self.crash_at:
                raise RuntimeError(f"the toy engine trips on square {self.crash_at}")
            if self.pos[me] >= self.length:
                self.winner, self.phase = me, "over"
            elif self.turn >= self.max_turns:
                self.phase = "over"
            else:
                self.to_act = (me + 1) % len(self.players)
                self.turn += 1
                self.phase = "draw"
                self._skip_draw()

    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0] * len(self.players)
        if self.winner is None:
            return [1.0 / len(self.players)] * len(self.players)
        return [1.0 if i == self.winner else 0.0 for i in range(len(self.players))]

    def result(self) -> dict[str, Any]:
        return {"winner": None if self.winner is None else self.players[self.winner],
                "positions": dict(zip(self.players, self.pos))}

    def observation(self, player: int) -> dict[str, Any]:
        return {"me": player, "positions": list(self.pos), "hand": dict(self.hands[player]),
                "hand_sizes": [sum(h.values()) for h in self.hands], "deck_left": sum(self.deck.values()),
                "boosts": self.boosts}

    def log_header(self) -> dict[str, Any]:
        return copy.deepcopy(self.header)

    def clone(self) -> RaceState:
        return copy.deepcopy(self)


class Engine(BaseEngine):
    """Replays a Dice Race log over :class:`RaceState`: an event that is not legal is DR-LEGAL."""

    OWN_APPLY = True                # every event through apply, none through an on_<kind> method

    HEADER = {"players": Opt("list", required=True), "deck": Opt("map", required=True)}
    EVENTS = {"draw": {"player": Opt("str", required=True), "card": Opt("str", required=True)},
              "play": {"player": Opt("str", required=True), "card": Opt("str", required=True)},
              "pass": {"player": Opt("str", required=True)},
              "roll": {"player": Opt("str", required=True), "value": Opt("int", required=True)}}

    def start(self) -> None:
        self.state = RaceState(self.game, self.header)

    def apply(self, ev: Event) -> None:
        spec = self.EVENTS[ev.kind]
        action = Action.make(ev.kind, **{k: ev.get(k) for k in spec})
        s = self.state
        legal = [a for a, _ in s.chance_outcomes()] if s.current_player() == CHANCE else s.legal_actions()
        if action not in legal:
            self.ref.violation("DR-LEGAL", f"{action} is not legal here", ev.loc)
            return
        s.apply_action(action)
        self.over = s.is_terminal()

    def final(self) -> dict[str, Any]:
        return self.state.result()


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Every deck kept with the game, each team in each seat."""
    out = []
    for path in cols.collection_files(game):
        out += setups_from_files(game, [("deck", {"cards": _deck(game, path)}, path)], rng)
    return out


def _deck(game: Game, path) -> dict[str, int]:
    _kind, body, _ = cols.load_collection_file(path, game, Problems())
    return {str(k): int(v) for k, v in body["cards"].items()}


def setups_from_files(game: Game, files: list, rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for _kind, body, path in files:
        deck = {"name": path.stem, "cards": {str(k): int(v) for k, v in body["cards"].items()}}
        for teams in (("hares", "tortoises"), ("tortoises", "hares")):
            out.append({"game": SLUG, "players": [{"name": "ana", "team": teams[0]}, {"name": "bo", "team": teams[1]}],
                        "deck": deck})
    return out


def new_state(game: Game, setup: Mapping[str, Any]) -> RaceState:
    return RaceState(game, setup)


def greedy(game: Game) -> Agent:
    """Plays its best card when it boosts at least ``agents.greedy.min_boost`` (params), else passes."""
    least = Params(game.params, game.rules_dir / "params.yaml").int("agents.greedy.min_boost", 1)

    def agent(obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        plays = [a for a in legal if a.kind == "play"]
        best = max(plays, key=lambda a: (obs["boosts"][a["card"]], a["card"]), default=None)
        if best is not None and obs["boosts"][best["card"]] >= least:
            return best
        return next(a for a in legal if a.kind == "pass")
    return agent


def measures(state: GameState) -> dict[str, Any]:
    assert isinstance(state, RaceState)
    return {"lead": abs(state.pos[0] - state.pos[1]),
            "finish": "line" if state.winner is not None else "timeout",
            "rolls": dict(Counter(str(a["value"]) for a in state.history if a.kind == "roll")),
            "turns": state.turn}


PACKAGE = GamePackage(engine=Engine, new_state=new_state, setups=setups, agents={"greedy": greedy},
                      measures=measures, setups_from_files=setups_from_files)

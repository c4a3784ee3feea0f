"""Bones on Ice — agents for simulated playtests, and the game's own measures of a played game.

The ``greedy`` agent plays from its observation only (the rink, the puck, Stamina, score, the
skater cards' dice): it takes the best shot a Mid-Game offers — from the Attack Zone when the
puck is there, else at once, by the carrier or a better shooter it passes to (a skater acts once
a Mid-Game: skating forward spends the action a shot needs) —, sends its best
die to each roll, Boosts the rolls that score or stop a score while it can spare the Stamina,
and uses its Team Spirit when it can afford it. Its weights are ``simulate.greedy`` in
``rules/bones_on_ice/params.yaml``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.play.api import Action, GameState
from cardgen.play.package import Agent
from cardgen.play.params import Params
from cardgen.play.search import Evaluate, shares


class Greedy:
    """The greedy agent (its weights read once)."""

    def __init__(self, game: Game):
        p = Params.of(game)
        self.boost_reserve = p.int("simulate.greedy.boost_reserve", 4)
        self.boost_rolls = set(p.list("simulate.greedy.boost_rolls", ["shoot", "one_v_one", "shootout"]))
        self.spirit_reserve = p.int("simulate.greedy.spirit_reserve", 5)
        self.tactical_reserve = p.int("simulate.greedy.tactical_reserve", 10)
        self.intercept_margin = p.int("simulate.greedy.intercept_margin", 0)
        self.zones = [str(z) for z in p.list("zones")]
        self.acting = {str(r) for r in p.list("acting_roles")}

    def __call__(self, obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        sk = obs["skaters"]
        stamina = obs["stamina"][obs["player"]]
        kinds = {a.kind for a in legal}

        def die(a: Action, stat: str) -> int:
            return int(sk[a["skater"]].get(stat, 0))

        def best(cands: list[Action], stat: str) -> Action:
            return max(cands, key=lambda a: (die(a, stat), a["skater"]))

        spirit = [a for a in legal if a.kind == "team_spirit"]
        if spirit and stamina >= self.spirit_reserve:
            return spirit[0]
        if kinds == {"boost", "team_spirit"} or kinds == {"boost"}:
            roll = obs["roll"] or {}
            want = roll.get("kind") in self.boost_rolls and stamina > self.boost_reserve
            return next((a for a in legal if a.kind == "boost" and a["boost"] == want), legal[0])
        for kind, stat in (("faceoff", "reflexes"), ("defend", "reflexes"), ("penalty_shot", "marksmanship"),
                           ("shootout", "marksmanship")):
            cands = [a for a in legal if a.kind == kind]
            if cands:
                return best(cands, stat)
        if "no_intercept" in kinds:
            cands = [a for a in legal if a.kind == "intercept"]
            passer = (obs["roll"] or {}).get("a") or obs["puck"]
            if cands and stamina > self.boost_reserve and passer in sk:
                pick = best(cands, "reflexes")
                if die(pick, "reflexes") >= int(sk[passer]["reflexes"]) + self.intercept_margin:
                    return pick
            return next(a for a in legal if a.kind == "no_intercept")
        if "no_spirit" in kinds:
            return next(a for a in legal if a.kind == "no_spirit")
        return self.mid_game(obs, legal, stamina)

    def mid_game(self, obs: Mapping[str, Any], legal: list[Action], stamina: int) -> Action:
        """Take the best shot this Mid-Game offers: from the Attack Zone if the puck is there (or
        passed to a teammate waiting there), else now — by the carrier, or by a better shooter it
        passes to. A skater acts once a Mid-Game, so skating the puck forward (or a teammate
        there) spends the action a shot needs."""
        zone, sk = obs["zones"], obs["skaters"]
        acted = set(obs.get("acted") or ())
        attack, home = self.zones[-1], self.zones[0]

        def aim(name: str) -> int:
            return int(sk[name].get("marksmanship", 0))

        def free(name: str) -> bool:
            return name not in acted and sk[name]["role"] in self.acting
        shoot = [a for a in legal if a.kind == "shoot"]
        if shoot and zone[shoot[0]["skater"]] == attack:
            return shoot[0]
        passes = [a for a in legal if a.kind == "pass" and free(a["to"])]
        there = [a for a in passes if zone[a["to"]] == attack]
        if there:
            return max(there, key=lambda a: (aim(a["to"]), a["to"]))
        if shoot:
            better = [a for a in passes if aim(a["to"]) > aim(shoot[0]["skater"])]
            return max(better, key=lambda a: (aim(a["to"]), a["to"])) if better else shoot[0]
        forward = [a for a in legal if a.kind == "move" and self.zones.index(a["zone"]) >
                   self.zones.index(zone[a["skater"]])]
        if forward:
            return forward[0]
        tactical = [a for a in legal if a.kind == "tactical_move" and a["zone"] != home]
        if tactical and stamina >= self.tactical_reserve:
            return max(tactical, key=lambda a: (self.zones.index(a["zone"]), a["skater"]))
        return next((a for a in legal if a.kind == "recovery"), legal[0])


def greedy(game: Game) -> Agent:
    """The greedy agent for ``game``."""
    return Greedy(game)


def evaluate(game: Game) -> Evaluate:
    """Search's value of a game not yet over (``GamePackage.evaluate``): each team's chance to
    win from the goal difference against the rounds left (a one-goal lead is worth more late
    than early) and the Stamina each has — read from ``result()``, the game's own account of
    the position, with the weights of ``simulate.search`` in params.yaml."""
    p = Params.of(game)
    rounds = p.int("rounds")
    goal, stamina = p.number("simulate.search.goal"), p.number("simulate.search.stamina")

    def value(state: GameState) -> list[float]:
        res = state.result()
        left = max(0, rounds - int(res["round"] or 0))
        return shares([goal * int(res["score"][k]) / math.sqrt(left + 1) + stamina * int(res["stamina"][k])
                       for k in state.players], 1.0)
    return value


def measures(state: GameState) -> dict[str, Any]:
    """Bones on Ice's own measures of a played game: goals per round, goals by how they were
    scored, the Chaos entries rolled, Boosts and Team Spirits used, whether a shootout was
    needed."""
    events = state.log_events()
    rounds = max((e["round"] for e in events if e["kind"] == "round_start"), default=0)
    goals = Counter(e["kind"] for e in events if e["kind"] in ("one_v_one", "penalty_shot") and e.get("goal"))
    return {
        "rounds": rounds,
        "goals": sum(goals.values()),
        "goals_per_round": round(sum(goals.values()) / rounds, 4) if rounds else 0.0,
        "goals_by": dict(sorted(goals.items())),
        "shots": sum(1 for e in events if e["kind"] == "shoot"),
        "chaos": dict(sorted(Counter(e.get("entry", "none") for e in events if e["kind"] == "chaos").items())),
        "boosts": sum(len(e.get("boosts") or []) for e in events),
        "spirits": dict(sorted(Counter(e["team"] for e in events if e["kind"] == "team_spirit").items())),
        "shootout": any(e["kind"] == "shootout" for e in events),
    }

"""Boss Fight agents for simulated playtests: ``greedy`` scores each legal action from its
player's observation only, with the weights of ``simulate.greedy`` in params.yaml: attack
what is in reach (the weakest first), close in on the nearest enemy, use items, sacrifice
cards last."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.core import hexgrid as hg
from cardgen.games.boss_fight.vocab import BOSS
from cardgen.play.api import Action, GameState
from cardgen.play.package import Agent
from cardgen.play.params import Params
from cardgen.play.search import Evaluate, shares


def greedy(game: Game) -> Agent:
    w = Params(game.params, game.rules_dir / "params.yaml")
    weights = {k: w.number(f"simulate.greedy.{k}") for k in ("attack", "weakest", "approach", "item", "discard")}

    def choose(obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        chars, style = obs["characters"], obs["style"]
        foes: dict[str, list[Any]] = {}             # a side → its living enemies' hexes (read once)
        now: dict[str, int] = {}                    # a character → tiles to its nearest enemy now

        def near(who: str, to: Any) -> int:
            """Tiles from hex ``to`` (offset [col, row]) to the nearest living enemy of ``who``."""
            side = chars[who]["side"]
            if side not in foes:
                foes[side] = [hg.from_offset(c, r, style) for ch in chars.values()
                              if ch["side"] != side and ch["alive"] for c, r in ch["at"]]
            h = hg.from_offset(int(to[0]), int(to[1]), style)
            return min((hg.distance(h, x) for x in foes[side]), default=0)

        def score(a: Action) -> float:
            who = a.get("character")
            if a.kind == "attack" and a.get("target") is not None:
                hp = max(1, int(chars[a["target"]]["hp"]))
                return weights["attack"] + weights["weakest"] / hp
            if a.kind == "move" and who in chars:
                if who not in now:
                    now[who] = min((near(who, x) for x in chars[who]["at"]), default=0)
                return weights["approach"] * (now[who] - near(who, a["to"]))
            if a.kind == "item":
                return weights["item"]
            if a.kind == "discard":
                return weights["discard"]
            return 0.0
        scores = [score(a) for a in legal]
        best = max(scores)
        top = [a for a, s in zip(legal, scores) if s == best]
        return top[rng.randrange(len(top))]
    return choose


def evaluate(game: Game) -> Evaluate:
    """Search's value of a game not yet over (``GamePackage.evaluate``): the party's and the
    boss's chances from the share of the Health left on the map that is the party's, from
    ``result()`` (``simulate.search.sharpness``); every party seat gets the party's."""
    sharp = Params(game.params, game.rules_dir / "params.yaml").number("simulate.search.sharpness")

    def value(state: GameState) -> list[float]:
        hp = state.result()["hp"]
        boss = max(0, int(hp.get(BOSS, 0)))
        party = sum(max(0, int(v)) for k, v in hp.items() if k != BOSS)
        boss_v, party_v = shares([boss / max(1, boss + party), party / max(1, boss + party)], sharp)
        seat = getattr(state, "seat", {}).get(BOSS, 0)
        return [boss_v if i == seat else party_v for i in range(len(state.players))]
    return value

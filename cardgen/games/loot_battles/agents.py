"""Loot & Battles agents for simulated playtests, and the game's own measures.

``greedy`` plays from its player's observation (the table is face up) and the public cards:
it attacks where the expected damage — with a bonus for a kill — is highest, heals an ally
below a share of their Health, picks the Encounter with the best loot for its threat, and
equips loot that raises a player's worth. Its weights are ``simulate.greedy`` in
``rules/loot_battles/params.yaml``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.games.loot_battles.rules import Rules
from cardgen.games.loot_battles.state import Enemy, Player
from cardgen.play.api import Action, GameState
from cardgen.play.package import Agent
from cardgen.play.params import ParamError, Params
from cardgen.play.search import Evaluate

#: the weights ``simulate.greedy`` in params.yaml gives
WEIGHTS = ("kill", "heal_below", "loot", "threat", "damage", "heal", "armor", "dodge", "reference_dodge")


@cache
def p_beats(n: int, sides: int, dodge: int) -> float:
    """The chance that n dice of ``sides`` sum above ``dodge``."""
    ways = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for s, w in ways.items():
            for f in range(1, sides + 1):
                nxt[s + f] = nxt.get(s + f, 0) + w
        ways = nxt
    total = sides ** n
    return sum(w for s, w in ways.items() if s > dodge) / total


def _player(rules: Rules, name: str, view: Mapping[str, Any]) -> Player:
    cls = next(c for c in rules.by_type.get("class", []) if c.get("class") == view["class"])
    p = rules.new_player(name, cls, view["equipment"])
    p.health, p.armor, p.dodge, p.ko = view["health"], view["armor"], view["dodge"], view["knocked_out"]
    return p


class Greedy:
    """The greedy agent: one instance per game and its weights.

    What depends only on the cards is worked out once and kept: a blow's dice and damage by
    class and items, a kit's worth by class and equipment (in order), an Encounter's threat —
    every decision is the one the plain arithmetic gives, only cheaper."""

    def __init__(self, game: Game):
        self.rules = Rules(game, Params.of(game))
        try:
            self.w = {k: float(self.rules.p.number(f"simulate.greedy.{k}")) for k in WEIGHTS}
        except ParamError as e:
            raise self.rules._missing(e) from None
        self._blows: dict[tuple[Any, Any], tuple[int, int]] = {}
        self._worths: dict[tuple[Any, tuple[str, ...]], float] = {}
        self._threats: dict[str, float] = {}

    def __call__(self, obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        # the highest score, the first such action on a tie
        return max(enumerate(legal), key=lambda ia: (self.score(obs, ia[1]), -ia[0]))[1]

    # -- how good is an action ------------------------------------------------------------

    def score(self, obs: Mapping[str, Any], a: Action) -> float:
        k = a.kind
        if k == "attack":
            return 10 + self._attack_value(obs, a)
        if k == "heal":
            share = obs["players"][a["target"]]["health"] / max(1, obs["max_health"][a["target"]])
            return 100.0 if share < self.w["heal_below"] else -1.0
        if k in ("encounter_chosen", "encounter_drawn"):
            cid = a.get("encounter") or a["pick"]
            v = self._threats.get(cid)
            if v is None:
                card = self.rules.cards[cid]
                v = self._threats[cid] = \
                    self.w["loot"] * int(card.get("loot") or 0) - self.w["threat"] * self._threat(card)
            return v
        if k == "equip":
            return self._gain(obs, a["player"], add=a["card"])
        if k == "unequip":
            return self._gain(obs, a["player"], drop=a["card"]) - 0.5
        if k == "ready":
            return 0.0
        return -5.0     # pass / end_turn: only when nothing better is left

    def _threat(self, card: Card) -> float:
        e = self.rules.enemy_cards.get(str(card.get("enemy")))
        if e is None:
            return 0.0
        n = self.rules.enemy_count(card, False) * (1 + int(card.get("reinforcement") or 0))
        return n * (int(e.get("health") or 0) + int(e.get("armor") or 0)) * int(e.get("damage") or 0) * \
            int(e.get("attack") or 1)

    def _attack_value(self, obs: Mapping[str, Any], a: Action) -> float:
        r = self.rules
        me = obs["players"][a["player"]]
        key = (me["class"], a.get("with"))
        blow = self._blows.get(key)
        if blow is None:        # the dice and the damage (no doubling: no roll yet) of class and items
            p = _player(r, a["player"], me)
            items = [r.cards[i] for i in (a.get("with") or ())]
            n = r.dice_of(items[0], p) if items else r.dice_of(None, p)
            blow = self._blows[key] = (n, r.damage(items, None, Enemy(name=""), p, explain=False)[0])
        n, dmg = blow
        names = list(a.get("targets") or ()) or [a["target"]]
        enemies = obs["enemies_left"]
        value = 0.0
        for name in names:
            view = enemies[name]
            health = view["health"]
            hit = 1.0 if n == 0 else p_beats(n, r.attack_die, view["dodge"])
            through = max(0, dmg - view["armor"])
            kill = self.w["kill"] if through >= health else 0.0
            value += hit * (min(through, health) + kill) + (1 - hit) * 0.1
        return value

    def _worth(self, p: Player) -> float:
        r = self.rules
        groups = r.groups(p) or {r.dice_of(None, p): []}
        dmg = 0.0
        for n, items in groups.items():
            dodge = int(self.w["reference_dodge"])
            d = r.damage(items, None, Enemy(name="x", dodge=dodge), p, explain=False)[0]
            dmg += d * (1.0 if n == 0 else p_beats(n, r.attack_die, dodge))
        heal = sum(int(c.get("health") or 0) for c in r.healers(p))
        return (self.w["damage"] * dmg + self.w["heal"] * heal + self.w["armor"] * p.max_armor
                + self.w["dodge"] * p.max_dodge)

    def _kit_worth(self, name: str, view: Mapping[str, Any], equipment: list[str]) -> float:
        """``_worth`` of a player of the view's class holding ``equipment`` (kept by class and kit)."""
        key = (view["class"], tuple(equipment))
        v = self._worths.get(key)
        if v is None:
            p = _player(self.rules, name, view)
            p.equipment = list(equipment)
            self.rules.refresh(p, full=True)
            v = self._worths[key] = self._worth(p)
        return v

    def _gain(self, obs: Mapping[str, Any], name: str, add: str | None = None, drop: str | None = None) -> float:
        view = obs["players"][name]
        kit = list(view["equipment"])
        before = self._kit_worth(name, view, kit)
        if add is not None:
            kit.append(add)
        if drop is not None:
            kit.remove(drop)
        return self._kit_worth(name, view, kit) - before


def greedy(game: Game) -> Agent:
    return Greedy(game)


def evaluate(game: Game) -> Evaluate:
    """Search's value of a game not yet over (``GamePackage.evaluate``), the same for every
    player (they win or lose together): the Battles won towards the target, plus part of a
    Battle (``simulate.search.standing``) for the share of players still standing — read from
    ``result()``."""
    p = Params.of(game)
    standing = p.number("simulate.search.standing")

    def value(state: GameState) -> list[float]:
        res = state.result()
        up = [not v.get("knocked_out") for v in res["players"].values()]
        v = (res["battles_won"] + standing * sum(up) / max(1, len(up))) / (res["battles_to_win"] + standing)
        return [min(1.0, v)] * len(state.players)
    return value


def measures(state: GameState) -> dict[str, Any]:
    """Loot & Battles' own measures: Battles survived, knock-outs per Encounter, rounds, how it ended."""
    s: Any = state
    return {
        "result": "stalemate" if s.stalemate else (s.winner or "unfinished"),
        "battles_won": s.battles_won,
        "battles_to_win": s.target,
        "rounds": s.rounds_played,
        "knockouts_by_encounter": dict(sorted(s.knockouts.items())),
        "encounters_fought": dict(sorted(s.fought.items())),
        "equipped": sorted(c for p in s.seats for c in p.equipment),
    }

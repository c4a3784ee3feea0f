"""Biomechanic Dino Battles: a greedy agent for simulated playtests and the game's measures (the
search's value of a position: :mod:`.value`; its prior, a thrifty greedy: :mod:`.prior`).

The greedy agent sees only its player's observation (``DinoState.observation``) and plays
sensibly: it keeps a hand with a Dinosaur, puts its strongest Dinosaur forward and fills the
bench, feeds its Combat Deck, attaches Upgrades, retreats a badly hurt Dinosaur when the
Retreat Cost is low, attacks when it has Attack cards, answers an attack with the move whose
expected outcome (HP dealt against HP lost, the die's mean) is best, and takes every Comp Card
a K.O. allows. Its weights are ``simulate.greedy`` in ``rules/dino_battles/params.yaml``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.play.api import Action, GameState
from cardgen.play.package import Agent
from cardgen.play.params import Params

_MAIN_ORDER = ("bench", "combat_to_deck", "upgrade", "item", "action", "use_item")   # Actions and Items last:
# their text is not modelled, but a hand kept full would stop the End-phase draws for good


def greedy(game: Game) -> Agent:
    """The greedy agent, its weights read from the game's params."""
    p = Params.of(game)
    w_deal = p.number("simulate.greedy.deal_weight", 1.0)
    w_take = p.number("simulate.greedy.take_weight", 1.0)
    retreat_below = p.number("simulate.greedy.retreat_below", 0.3)
    max_cost = p.int("simulate.greedy.max_retreat_cost", 1)
    combat_first = p.bool("simulate.greedy.combat_cards_first", True)
    sides = p.int("die_sides")
    cards = game.cards_by_id
    mean = (sides + 1) / 2

    def stat(card: str, key: str, upgrades: list[str]) -> int:
        return int(cards[card].get(key) or 0) + sum(int(cards[u].get(key) or 0) for u in upgrades)

    def strength(card: str) -> float:
        c = cards[card]
        return float(int(c.get("hp") or 0) + 3 * (int(c.get("atk") or 0) + int(c.get("def") or 0)))

    def agent(obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        kinds = Counter(a.kind for a in legal)
        me, them = obs["sides"][obs["player"]], obs["sides"][1 - obs["player"]] if len(obs["sides"]) > 1 else None
        if "comp_cards" in kinds:
            return next(a for a in legal if a.kind == "comp_cards")
        if "place" in kinds:
            return max(legal, key=lambda a: (strength(a["active"]), len(a.get("bench", ())),
                                             sum(strength(b) for b in a.get("bench", ()))))
        if "knock_out" in kinds:
            return max(legal, key=lambda a: a["comp_cards"])
        if "new_active" in kinds:
            bench = {d["label"]: float(d["hp"]) for d in me["bench"]}

            def worth(a: Action) -> float:
                pick = a.get("dino")
                return -1.0 if pick is None else bench[pick] if pick in bench else strength(pick)
            return max(legal, key=worth)
        if "done" in kinds:
            return _main(obs, legal, me, retreat_below, max_cost, combat_first, cards)
        if {"counterattack", "evade", "defend", "no_answer"} & set(kinds):
            return _answer(obs, legal, me, mean, sides, w_deal, w_take, stat)
        if "pass" in kinds:                                  # the move: attack if we can, else end
            attacks = [a for a in legal if a.kind == "attack"]
            if attacks and them is not None and them["active"] is not None:
                plain = [a for a in attacks if a.get("special") is None]
                return plain[0] if plain else attacks[0]
            agreed = [a for a in legal if a.kind == "phase"]
            return agreed[0] if agreed else next(a for a in legal if a.kind == "pass")
        return legal[rng.randrange(len(legal))]

    return agent


def _main(obs, legal, me, retreat_below, max_cost, combat_first, cards) -> Action:
    act = me["active"]
    if act is not None and act["hp"] < retreat_below * act["max_hp"]:
        best = [a for a in legal if a.kind == "retreat" and len(a.get("discard", ())) <= max_cost]
        healthier = [a for a in best if any(d["label"] == a["to"] and d["hp"] > act["hp"] for d in me["bench"])]
        if healthier:
            return min(healthier, key=lambda a: sum(1 for c in a.get("discard", ()) if cards[c].type == "combat"))
    order = _MAIN_ORDER if combat_first else ("bench", "upgrade", "item", "combat_to_deck", "action", "use_item")
    for kind in order:
        plays = [a for a in legal if a.kind == kind and not (kind == "use_item" and cards[a["card"]].get("permanent"))]
        if plays:
            return plays[0]
    retreats = [a for a in legal if a.kind == "retreat" and a.get("discard")]
    if retreats and me["hand"] >= obs["hand_limit"]:      # a dead full hand draws nothing: cycle it
        return max(retreats, key=lambda a: len(a["discard"]))
    return next(a for a in legal if a.kind == "done")


def _answer(obs, legal, me, mean, sides, w_deal, w_take, stat) -> Action:
    att = obs.get("attack") or {}
    a_total = float(att.get("total") or 0)
    act = me["active"]
    if act is None:
        return next(a for a in legal if a.kind == "no_answer")
    ups = act["upgrades"]

    def value(a: Action) -> float:
        if a.kind == "counterattack":
            return w_deal * (mean + stat(act["card"], "atk", ups) + act["evade_bonus"]) - w_take * a_total
        if a.kind == "defend":
            diff = a_total - (mean + stat(act["card"], "def", ups))
            return -w_take * max(0.0, diff) + w_deal * max(0.0, -diff)
        if a.kind == "evade":
            need = a_total - stat(act["card"], "eva", ups)      # the die must beat this
            p_ok = min(1.0, max(0.0, (sides - max(0.0, need)) / sides))
            return -(1 - p_ok) * w_take * a_total
        return -w_take * a_total

    return max(legal, key=lambda a: (value(a), a.get("special") is None))


def measures(state: GameState) -> dict[str, Any]:
    """The game's own figures: K.O.s by species (of the Dinosaur knocked out), K.O.s per player,
    the turns played and how the game ended."""
    final = state.result()
    cards = state.cards                      # type: ignore[attr-defined]
    by_species: Counter = Counter()
    for p in final.get("players", {}).values():
        for label in p.get("knocked_out", []):
            card = cards.get(label.split("#", 1)[0])
            by_species[str(card.get("species") or card.name) if card is not None else label] += 1
    return {"kos_by_species": dict(sorted(by_species.items())), "kos": final.get("kos"),
            "turns": final.get("turn"), "ended_by": final.get("ended_by")}

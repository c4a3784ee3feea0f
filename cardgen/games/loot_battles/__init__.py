"""Loot & Battles (``loot_battles``) — the game's own code: one model, the game state (:mod:`.play`),
where every rule lives; ``cardgen check`` replays a log over it through the contract (:mod:`.contract`).
The modules, one line each: ``docs/engines-loot_battles.md``. Found through :data:`PACKAGE`."""

from __future__ import annotations

import random
from functools import partial
from itertools import product
from typing import Any

from cardgen.content.model import Game
from cardgen.games.loot_battles.agents import evaluate, greedy, measures
from cardgen.games.loot_battles.contract import LootRules
from cardgen.games.loot_battles.play import LootState, shared_rules
from cardgen.games.loot_battles.vocab import EVENTS, EXPECT_RULES, HEADER
from cardgen.play.package import GamePackage
from cardgen.play.stateengine import state_engine


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Every player count the rules allow, every class for every seat, with and without the
    easier start — smallest tables first."""
    rules = shared_rules(game)
    classes = [c.id for c in rules.by_type.get("class", [])]
    out = []
    for n in range(rules.n_min, rules.n_max + 1):
        for combo in product(classes, repeat=n):
            for easy in (False, True):
                out.append({"game": game.slug, "players": [{"name": f"p{i + 1}", "class": c}
                                                          for i, c in enumerate(combo)],
                            "starting_loot": easy})
    return out


#: the checker of ``cardgen check loot_battles``: the shared replay over the contract (one per log)
Engine = state_engine("LootBattles", LootRules, HEADER, EVENTS, EXPECT_RULES, end_rule="LB-END-1")

PACKAGE = GamePackage(engine=Engine, rules=LootRules, new_state=partial(LootState, record=False),
                      setups=setups, agents={"greedy": greedy}, evaluate=evaluate, prior=greedy,
                      measures=measures)

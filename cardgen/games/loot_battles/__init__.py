"""Loot & Battles (``loot_battles``): the game's own code. One model: the game state
(:mod:`.play`, its fights in :mod:`.play_fight`, on the rules of :mod:`.rules`) is the only place
a rule lives. ``cardgen check`` replays a log over it through the game's contract
(:mod:`.contract`, on the shared replay of :mod:`cardgen.play.stateengine`): the header's check
(:mod:`.header`), the log's events as the state's actions (:mod:`.play_log`, names as ids:
:mod:`.names`), the rule an action the state does not allow breaks, the stated consequences
compared and the log's own markers followed (:mod:`.follow`), the trace (:mod:`.trace`). The
log's vocabulary: :mod:`.vocab`; the agents and measures of simulated playtests: :mod:`.agents`.

Found by the framework through :data:`PACKAGE` (``cardgen.gamehooks``); nothing registers
itself on import.
"""

from __future__ import annotations

import random
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

PACKAGE = GamePackage(engine=Engine, rules=LootRules, new_state=LootState, setups=setups,
                      agents={"greedy": greedy}, evaluate=evaluate, prior=greedy, measures=measures)

"""Boss Fight: build computations, content checks, printables and the game's engine, found by
the framework through ``PACKAGE``. The modules, one line each: ``docs/engines-boss_fight.md``."""

from __future__ import annotations

from cardgen.games.boss_fight.agents import evaluate, greedy
from cardgen.games.boss_fight.builds import analyse, boss_footprints, read_boss, read_deck, read_party
from cardgen.games.boss_fight.content import check_game
from cardgen.games.boss_fight.contract import BossRules
from cardgen.games.boss_fight.determinize import determinize
from cardgen.games.boss_fight.figures import boss_stats, check_file, summary
from cardgen.games.boss_fight.game_state import BossFightState, new_state, setups
from cardgen.games.boss_fight.measures import measures
from cardgen.games.boss_fight.placement import read_placement
from cardgen.games.boss_fight.prior import prior
from cardgen.games.boss_fight.rules_combat import damage_formula
from cardgen.games.boss_fight.sheets import printables
from cardgen.games.boss_fight.vocab import BF_EVENTS, BF_HEADER, EXPECT_RULES
from cardgen.play.package import GamePackage
from cardgen.play.stateengine import state_engine

__all__ = ["BF_EVENTS", "PACKAGE", "BossFightState", "new_state", "setups", "BF_HEADER", "Engine", "analyse", "boss_footprints", "boss_stats", "check_file",
           "check_game", "damage_formula", "printables", "read_boss", "read_deck", "read_party", "summary"]

#: the checker of ``cardgen check boss_fight``: the shared replay over the contract
Engine = state_engine("BossFight", BossRules, BF_HEADER, BF_EVENTS, EXPECT_RULES, end_rule="BF-END-1")

PACKAGE = GamePackage(engine=Engine, rules=BossRules, new_state=new_state, setups=setups,
                      agents={"greedy": greedy},
                      evaluate=evaluate, prior=prior,
                      measures=measures, check_file=check_file, hidden_information=True, determinize=determinize,
                      check_game=check_game, printables=printables,
                      hooks={"boss_footprints": boss_footprints, "placement": read_placement})

"""Bone Wars — the game's own code: one model, the game state (:mod:`.state`), where every rule
lives; ``cardgen check`` replays a log over it through the contract (:mod:`.contract`). The
modules, one line each: ``docs/engines-bone_wars.md``."""

from __future__ import annotations

from cardgen.games.bone_wars.agents import evaluate, greedy, measures
from cardgen.games.bone_wars.contract import contract, determinize, new_state, setups
from cardgen.games.bone_wars.vocab import EVENTS, EXPECT_RULES, HEADER
from cardgen.play.package import GamePackage
from cardgen.play.stateengine import state_engine

#: the checker of ``cardgen check bone_wars``: the shared replay over the contract
Engine = state_engine("BoneWars", contract, HEADER, EVENTS, EXPECT_RULES, end_rule="BW-END-2")

PACKAGE = GamePackage(engine=Engine, rules=contract, new_state=new_state, setups=setups, agents={"greedy": greedy},
                      evaluate=evaluate, prior=greedy,
                      measures=measures, determinize=determinize, hidden_information=True)

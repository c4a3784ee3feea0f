"""Bone Wars — the game's own code: the log vocabulary (:mod:`.vocab`), the rules as data and
functions (:mod:`.rules`), the table every rule plays on (:mod:`.table`), the game state on
the game-state API (:mod:`.state`), the referee of ``cardgen check`` (:mod:`.engine`, with
:mod:`.referee_turns` and :mod:`.referee_combat` on :mod:`.referee_base`) and the agents and
measures of simulated playtests (:mod:`.agents`). See ``docs/engines-bone_wars.md``."""

from __future__ import annotations

from cardgen.games.bone_wars.agents import greedy, measures
from cardgen.games.bone_wars.contract import contract
from cardgen.games.bone_wars.determinize import determinize
from cardgen.games.bone_wars.engine import Engine
from cardgen.games.bone_wars.setup import new_state, setups
from cardgen.play.package import GamePackage

PACKAGE = GamePackage(engine=Engine, rules=contract, new_state=new_state, setups=setups, agents={"greedy": greedy},
                      measures=measures, determinize=determinize, hidden_information=True)

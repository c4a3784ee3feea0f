"""Bone Wars — the game's own code: the log vocabulary (:mod:`.vocab`), the rules as data and
functions (:mod:`.rules`), the table every rule plays on (:mod:`.table`), the game state on
the game-state API (:mod:`.state`), the referee of ``cardgen check`` (:mod:`.engine`, with
:mod:`.referee_turns` and :mod:`.referee_combat`) and the agents and measures of simulated
playtests (:mod:`.agents`). See ``docs/engines-bone_wars.md``."""

from __future__ import annotations

from ...play.package import GamePackage
from .agents import greedy, measures
from .engine import Engine
from .setup import new_state, setups

PACKAGE = GamePackage(engine=Engine, new_state=new_state, setups=setups, agents={"greedy": greedy},
                      measures=measures)

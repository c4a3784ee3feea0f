"""Loot & Battles (``loot_battles``): the game's own code — the referee of playtest logs
(``engine.py``), the playable game state (``play.py``), its agents and measures.

Found by the framework through :data:`PACKAGE` (``cardgen.gamehooks``); nothing registers
itself on import.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import product
from typing import Any

from cardgen.content.model import Game
from cardgen.games.loot_battles.agents import evaluate, greedy, measures
from cardgen.games.loot_battles.engine import Engine
from cardgen.games.loot_battles.play import LootState, rules_of
from cardgen.games.loot_battles.rules import Rules
from cardgen.play.package import GamePackage

_RULES: dict[int, tuple[Game, Rules]] = {}


def new_state(game: Game, setup: Mapping[str, Any]) -> LootState:
    """The game at its start for a setup (a log header: players with their classes, starting_loot).
    The rules read from the game are shared by the states of one loaded game (the last one)."""
    held = _RULES.get(id(game))
    if held is None or held[0] is not game:
        _RULES.clear()
        held = _RULES[id(game)] = (game, rules_of(game))
    return LootState(game, setup, held[1])


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Every player count the rules allow, every class for every seat, with and without the
    easier start — smallest tables first."""
    state = LootState(game, {"players": []})
    classes = [c.id for c in state.rules.by_type.get("class", [])]
    out = []
    for n in range(state.rules.n_min, state.rules.n_max + 1):
        for combo in product(classes, repeat=n):
            for easy in (False, True):
                out.append({"game": game.slug, "players": [{"name": f"p{i + 1}", "class": c}
                                                          for i, c in enumerate(combo)],
                            "starting_loot": easy})
    return out


PACKAGE = GamePackage(engine=Engine, new_state=new_state, setups=setups, agents={"greedy": greedy},
                      evaluate=evaluate, prior=greedy,
                      measures=measures)

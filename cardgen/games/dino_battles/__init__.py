"""Biomechanic Dino Battles: the game's own code, found by the framework through ``PACKAGE``.
The modules, one line each: ``docs/engines-dino_battles.md``."""

from __future__ import annotations

import itertools
import random
from typing import Any

from cardgen.content import collection_files as cols
from cardgen.content.model import Game
from cardgen.games.dino_battles.agents import greedy, measures
from cardgen.games.dino_battles.contract import DinoRules
from cardgen.games.dino_battles.determinize import determinize
from cardgen.games.dino_battles.prior import prior
from cardgen.games.dino_battles.state import new_state
from cardgen.games.dino_battles.value import evaluate
from cardgen.games.dino_battles.vocab import EVENTS, EXPECT_RULES, HEADER
from cardgen.play.package import GamePackage
from cardgen.play.params import Params
from cardgen.play.stateengine import state_engine


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Every pairing and seat order of the game's own decks, for each player count the rules allow."""
    p = Params.of(game)
    names = [f.stem for f in cols.collection_files(game)]
    out = []
    for n in range(p.int("players.min"), p.int("players.max") + 1):
        for pick in itertools.product(names, repeat=n):
            out.append({"game": game.slug, "players": [{"name": f"p{i + 1}", "deck": d} for i, d in enumerate(pick)]})
    return out


#: the checker of ``cardgen check dino_battles``: the shared replay over the contract
Engine = state_engine("DinoBattles", DinoRules, HEADER, EVENTS, EXPECT_RULES, end_rule="BDB-END-2")

PACKAGE = GamePackage(engine=Engine, rules=DinoRules, new_state=new_state, setups=setups,
                      agents={"greedy": greedy},
                      evaluate=evaluate, prior=prior,
                      measures=measures, hidden_information=True, determinize=determinize)

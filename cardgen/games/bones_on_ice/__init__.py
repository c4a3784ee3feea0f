"""Bones on Ice (``bones_on_ice``) — the game's own code: one model, the game state (:mod:`.state`),
where every rule lives; ``cardgen check`` replays a log over it through the contract (:mod:`.contract`).
The modules, one line each: ``docs/engines-bones_on_ice.md``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.games.bones_on_ice.agents import evaluate, greedy, measures
from cardgen.games.bones_on_ice.contract import BoiRules
from cardgen.games.bones_on_ice.prior import prior
from cardgen.games.bones_on_ice.state import BoiState, Setup
from cardgen.games.bones_on_ice.vocab import EVENTS, EXPECT_RULES, HEADER
from cardgen.play.package import GamePackage
from cardgen.play.stateengine import state_engine


def new_state(game: Game, setup: Mapping[str, Any]) -> BoiState:
    """The state at the start of a game of ``setup`` (a log header: its two ``teams``)."""
    return BoiState(Setup.cached(game, dict(setup)))


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Every pairing of two different teams of the cards, in both seat orders."""
    keys = sorted({str(c.get("team")) for c in game.cards if c.type in ("skater", "spirit")})
    return [{"game": game.slug, "teams": [{"team": a}, {"team": b}]} for a in keys for b in keys if a != b]


#: the checker of ``cardgen check bones_on_ice``: the shared replay over the contract (one per log)
Engine = state_engine("BonesOnIce", BoiRules, HEADER, EVENTS, EXPECT_RULES, end_rule="BOI-END-1")

PACKAGE = GamePackage(engine=Engine, rules=BoiRules, new_state=new_state, setups=setups,
                      agents={"greedy": greedy}, evaluate=evaluate, prior=prior, measures=measures)

__all__ = ["PACKAGE", "BoiRules", "BoiState", "Engine", "new_state", "setups"]

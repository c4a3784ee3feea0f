"""Bones on Ice (``bones_on_ice``): the game's own code. One model: the game state (:mod:`.state`,
its moves in :mod:`.turns` and :mod:`.transitions`, Team Spirits in :mod:`.spirits`, on the rules
of :mod:`.rules`) is the only place a rule lives. ``cardgen check`` replays a log over it through
the game's contract (:mod:`.contract`, on the shared replay of :mod:`cardgen.play.stateengine`):
the log's events as the state's actions (:mod:`.translate`, names as ids: :mod:`.words`), kept in
step with the log's own markers and order (:mod:`.instep`, :mod:`.slips`), the rule an action the
state does not allow breaks (:mod:`.whynot`, a roll's winner: :mod:`.diagnose`), the stated
consequences (:mod:`.claims`), the header (:mod:`.setup`) and the trace (:mod:`.trace`). The log's
vocabulary: :mod:`.vocab`; agents and measures of simulated playtests: :mod:`.agents`. See
``docs/engines-bones_on_ice.md``."""

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

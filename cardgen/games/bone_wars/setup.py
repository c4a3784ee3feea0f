"""Bone Wars — setups and the initial state: a log header (``players``, and optionally
``starting_hp``, ``turn_order_rolls`` and ``deals``) → a :class:`.state.BoneWarsState`. What
the header leaves out (the turn-order rolls, the deal) is played as chance nodes."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...model import Game
from ...play.api import Action
from ...play.params import Params
from .rules import Rules, parts_of
from .state import BoneWarsState

NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal")


def rules_of(game: Game) -> Rules:
    return Rules.read(Params(game.params if isinstance(game.params, dict) else {}, game.rules_dir / "params.yaml"))


def new_state(game: Game, setup: Mapping[str, Any]) -> BoneWarsState:
    """The state at the start of the game the header describes."""
    rules = rules_of(game)
    players = [str(p) for p in setup["players"]]
    s = BoneWarsState(rules, parts_of(game), players, setup.get("starting_hp"))
    for rnd in setup.get("turn_order_rolls") or []:
        for p, v in rnd.items():
            s.apply_action(Action.make("turn_order_roll", player=p, value=v))
    for p, cards in (setup.get("deals") or {}).items():
        for c in cards:
            s.apply_action(Action.make("deal", player=p, card=c))
    s.history.clear()
    return s


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """The game's own setups: every player count the rules allow (Bone Wars has no decks,
    classes or teams; seats differ only by the turn-order roll)."""
    rules = rules_of(game)
    return [{"game": "bone_wars", "players": list(NAMES[:n])} for n in range(rules.n_min, rules.n_max + 1)]

"""Bone Wars — setups and the initial state: a log header (``players``, and optionally
``starting_hp``, ``turn_order_rolls`` and ``deals``) → a :class:`.state.BoneWarsState`. What
the header leaves out (the turn-order rolls, the deal) is played as chance nodes."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.games.bone_wars.rules import Part, Rules, parts_of
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.games.bone_wars.table import PLAY, SETUP_DEAL, SETUP_ORDER
from cardgen.play.api import Action, GameState
from cardgen.play.hidden import HIDDEN, Hand, redeal
from cardgen.play.params import Params, per_game

NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal")

@per_game
def rules_of(game: Game) -> tuple[Rules, dict[str, Part]]:
    """The game's typed rules and Part cards, read once per loaded game."""
    return Rules.read(Params.of(game)), parts_of(game)


def new_state(game: Game, setup: Mapping[str, Any], hidden_rest: bool = False) -> BoneWarsState:
    """The state at the start of the game the header describes. ``hidden_rest`` (a log being
    checked): the cards the header does not name were dealt face down; otherwise the deal is left
    to chance, as are turn-order rolls the header lacks."""
    rules, parts = rules_of(game)
    players = [str(p) for p in setup["players"]]
    s = BoneWarsState(rules, parts, players, setup.get("starting_hp"))
    for rnd in setup.get("turn_order_rolls") or []:
        for p, v in (rnd.items() if isinstance(rnd, Mapping) else ()):
            if p in s.players and s.setup == SETUP_ORDER:
                s.apply_action(Action.make("turn_order_roll", player=p, value=v))
    if hidden_rest and s.setup == SETUP_ORDER:      # a turn order left unsettled (the check reports it)
        s.setup = SETUP_DEAL
    deals = setup.get("deals") or {}
    for p in players:
        cards = deals.get(p, [] if not hidden_rest else rules.hand_size)
        cards = [HIDDEN] * cards if isinstance(cards, int) and not isinstance(cards, bool) else list(cards)
        if hidden_rest:
            cards += [HIDDEN] * (rules.hand_size - len(cards))
        for c in cards:
            s.apply_action(Action.make("deal", player=p, card=c if c in parts or not hidden_rest else HIDDEN))
    if hidden_rest and s.setup != PLAY:
        s.start_play()
    s.opening = list(s.history)
    s.history.clear()
    return s


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """The game's own setups: every player count the rules allow (Bone Wars has no decks,
    classes or teams; seats differ only by the turn-order roll)."""
    rules, _ = rules_of(game)
    return [{"game": "bone_wars", "players": list(NAMES[:n])} for n in range(rules.n_min, rules.n_max + 1)]


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    """Bone Wars' hidden information for search agents: the other players' hands. Everything on
    the table and ``player``'s own hand kept, the cards they have not seen (the pile's unseen ones
    and every other hand) dealt again to the other hands, each as many cards as it holds."""
    assert isinstance(state, BoneWarsState)
    s = state.clone()
    others = [p for p in s.players if p != s.players[player]]
    pool = Counter(s.unseen)
    for p in others:
        pool.update(s.hands[p].known)
    hands, s.unseen = redeal(pool, [sum(s.hands[p].known.values()) for p in others], rng)
    for p, known in zip(others, hands, strict=True):
        s.hands[p] = Hand(known, s.hands[p].hidden)
    return s

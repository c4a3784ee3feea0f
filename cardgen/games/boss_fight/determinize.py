"""Boss Fight's hidden information for search agents: each hand of a character the player does
not control dealt again (``hidden.redeal``) from its deck's cards not in sight, as many known
cards as the hand holds."""

from __future__ import annotations

import random
from collections import Counter

from cardgen.games.boss_fight.game_state import BossFightState
from cardgen.games.boss_fight.state import Pile
from cardgen.play.api import GameState
from cardgen.play.hidden import redeal


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    assert isinstance(state, BossFightState)
    s = state.clone()
    assert isinstance(s, BossFightState)
    for key in sorted(s.eng.fighters):
        f = s.eng.fighters[key]
        if s.seat.get(f.key, -1) == player or not f.hand.known:
            continue
        unseen = Counter(f.total)
        for pile in (f.used.known, f.discard.known, f.expended.known):
            unseen.subtract(pile)
        n = sum(f.hand.known.values())
        (hand,), _ = redeal(+unseen, [n], rng)
        if sum(hand.values()) == n:      # else piles a log left inconsistent: keep the hand as it is
            f.hand = Pile(hand, f.hand.unknown)
    return s

"""Dino Battles' hidden information for search agents: each other side's hand, Main Deck order
and Comp Cards dealt again (``hidden.redeal``) from the cards the player has not seen; the
table's bookkeeping of the re-dealt hand follows."""

from __future__ import annotations

import random
from collections import Counter

from cardgen.games.dino_battles.state import DinoState
from cardgen.play.api import GameState
from cardgen.play.hidden import Hand, redeal


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    assert isinstance(state, DinoState)
    s = state.clone()
    assert isinstance(s, DinoState)
    for q, side in enumerate(s.sides):
        mine = q == player
        old_hand = Counter() if mine else Counter(s.hands[q])
        (hand, s.comps[q]), s.decks[q] = redeal(s.decks[q] + s.comps[q] + old_hand,
                                                [sum(old_hand.values()), sum(s.comps[q].values())], rng)
        if mine:
            continue
        s.hands[q] = hand
        known = side.cards.known
        side.seen.subtract(known)
        keep = known & old_hand                  # what the table knew of the old hand
        moved = Counter(sorted(hand.elements())[:sum(keep.values())])
        side.seen.update(moved)
        side.seen = +side.seen
        side.cards = Hand(moved, side.cards.hidden + sum(known.values()) - sum(moved.values()))
    return s

"""Bone Wars' hidden information for search agents: the other players' hands.

A determinization for a player keeps everything on the table and their own hand, pools the
cards they have not seen (the pile's unseen cards and every other hand) and deals the other
hands again from that pool, each as many cards as it holds. The pool is sorted before the
seeded shuffle, so two states the player cannot tell apart give the same determinizations.
"""

from __future__ import annotations

import random
from collections import Counter

from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.play.api import GameState
from cardgen.play.hidden import Hand


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    assert isinstance(state, BoneWarsState)
    s = state.clone()
    me = s.players[player]
    others = [p for p in s.players if p != me]
    pool = Counter(s.unseen)
    sizes = {}
    for p in others:
        h = s.hands[p]
        pool.update(h.known)
        sizes[p] = (sum(h.known.values()), h.hidden)
    cards = sorted(pool.elements())
    rng.shuffle(cards)
    for p in others:
        n, hidden = sizes[p]
        s.hands[p] = Hand(Counter(sorted(cards[:n])), hidden)
        cards = cards[n:]
    left = Counter(cards)
    s.unseen = Counter({k: left[k] for k in sorted(left)})
    return s

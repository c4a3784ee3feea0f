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
from cardgen.play.hidden import Hand, redeal


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
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

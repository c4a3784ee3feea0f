"""Loot & Battles' speed work changes representation, never a rule (issue 29's fourth step).

The state's choices are cached by what decides them (a player's kit, the cards in the pool, the
rolls left, the enemies standing) and read once per class and weapons (``Rules.roll``); a clone
shares the decks, the pool and the tallies until one of the two changes them. Here the cached
choices are held to the ones fresh rules (empty caches) compute at every point of seeded random
games, and a clone and its original are held apart after each changes what they shared."""

from __future__ import annotations

import random

from cardgen.games.loot_battles.play import LootState, rules_of
from cardgen.play.api import CHANCE, TERMINAL
from cardgen.play.dice import pick
from tests import playkit

GAME = "loot_battles"


def _cold(state: LootState) -> LootState:
    """A copy of ``state`` on rules read afresh: nothing cached yet."""
    c = state.clone()
    c.rules = rules_of(state.game)
    return c


def test_cached_choices_are_the_fresh_rules_choices():
    """At every point of seeded random games (equip, fights, draws), the warm caches list the
    same legal actions and chance outcomes, in the same order, as rules that cache nothing yet."""
    points = 0
    for seed in range(8):
        state = playkit.new_state(GAME, seed)
        assert isinstance(state, LootState)
        rng = random.Random(seed)
        for step in range(400):
            who = state.current_player()
            if who == TERMINAL:
                break
            if step % 2 == 0:      # every other point: fresh rules cost a params read each
                cold = _cold(state)
                assert cold.current_player() == who
                assert cold.legal_actions() == state.legal_actions()
                assert cold.chance_outcomes() == state.chance_outcomes()
                points += 1
            if who == CHANCE:
                state.apply_action(pick(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    assert points > 300


def _play_until(state: LootState, rng: random.Random, stop) -> None:
    for _ in range(5_000):
        if stop(state):
            return
        if state.current_player() == CHANCE:
            state.apply_action(pick(state.chance_outcomes(), rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    raise AssertionError("the position never came")


def test_a_clone_and_its_original_change_their_own_decks():
    """Decks, pool and tallies shared by a clone are copied by whichever changes them first:
    a draw, an equip or a knock-out on one leaves the other as it was."""
    state = playkit.new_state(GAME, 3)
    assert isinstance(state, LootState)
    rng = random.Random(3)
    _play_until(state, rng, lambda s: s.phase in ("loot", "draw") and s.current_player() == CHANCE)
    before = (dict(state.enc_deck), dict(state.loot_deck), dict(state.pool))
    twin = state.clone()
    twin.apply_action(twin.chance_outcomes()[0][0])
    assert (dict(state.enc_deck), dict(state.loot_deck), dict(state.pool)) == before
    other = state.clone()
    state.apply_action(state.chance_outcomes()[-1][0])
    assert (dict(other.enc_deck), dict(other.loot_deck), dict(other.pool)) == before
    assert dict(twin.enc_deck) != dict(state.enc_deck) or dict(twin.loot_deck) != dict(state.loot_deck)

    def equipping(s: LootState) -> bool:
        return s.phase == "equip" and any(a.kind == "equip" for a in s.legal_actions())

    _play_until(state, rng, equipping)
    pool, twin = dict(state.pool), state.clone()
    twin.apply_action(next(a for a in twin.legal_actions() if a.kind == "equip"))
    assert dict(state.pool) == pool and dict(twin.pool) != pool

    _play_until(state, rng, lambda s: s.phase == "fight")
    knocked, twin = dict(state.knockouts), state.clone()
    _play_until(twin, rng, lambda s: dict(s.knockouts) != knocked or s.is_terminal())
    assert dict(state.knockouts) == knocked


def test_a_copy_is_its_original_field_by_field():
    """The state and its pieces are slots copied one by one (``clone``, ``Player``/``Enemy``/
    ``Encounter``/``Battle.copy``): at points of seeded random games every slot of a clone equals
    the original's and every piece equals its original field by field (a field added without its
    line in ``copy`` is unset there and fails), the mutable ones copied, not shared."""
    points = 0
    for seed in range(10):
        state = playkit.new_state(GAME, seed)
        assert isinstance(state, LootState)
        rng = random.Random(seed)
        for step in range(600):
            if state.current_player() == TERMINAL:
                break
            if step % 3 == 0:
                twin = state.clone()
                for name in LootState.__slots__:
                    if name != "_nxt":      # who is next: found again by the clone
                        assert getattr(twin, name) == getattr(state, name), name
                for mine, its in zip(state.seats, twin.seats, strict=True):
                    assert mine == its and mine is not its and mine.equipment is not its.equipment
                if state.battle is not None:
                    assert twin.battle == state.battle and twin.battle is not state.battle
                    enc, copy = state._enc(), twin._enc()
                    assert copy == enc and copy.acted is not enc.acted and copy.enemies is not enc.enemies
                    assert all(e == f and e is not f for e, f in zip(enc.enemies, copy.enemies, strict=True))
                points += 1
            if state.current_player() == CHANCE:
                state.apply_action(pick(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    assert points > 100

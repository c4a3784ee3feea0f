"""Loot & Battles: how a game ends when one blow settles two things at once (issue 29).

The blow that knocks out the last standing player is reflected by the Mirror Aegis and slays
the last enemy at the same moment: the party is out, so the game is lost — no Encounter is won
after it, no ``battle_end won`` follows ``battle_end lost``, and the log replays legal."""

from __future__ import annotations

import random

from cardgen.games.loot_battles.play import LootState
from cardgen.play.api import CHANCE, Action
from cardgen.play.dice import pick
from tests import playkit

GAME = "loot_battles"


def _enemy_turn_position(seed: int) -> LootState:
    """A seeded random game played on to its first enemy attack (a chance node in a fight)."""
    quiet = playkit.new_state(GAME, seed)
    assert isinstance(quiet, LootState)
    state = LootState(quiet.game, quiet.setup)      # one that records its events as it plays (read below)
    rng = random.Random(seed)
    for _ in range(5_000):
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            if state.phase == "fight" and state.pending is None and outcomes \
                    and outcomes[0][0].kind == "enemy_turn":
                return state
            state.apply_action(pick(outcomes, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    raise AssertionError("no enemy attack within 5,000 steps")


def _last_stand(seed: int) -> tuple[LootState, str]:
    """The position: one player left with 1 Health and the Mirror Aegis, one enemy left with
    1 Health about to attack them."""
    state = _enemy_turn_position(seed)
    enc = state._enc()
    enemy = next(e for e in enc.enemies if e.name == state.chance_outcomes()[0][0]["enemy"])
    target = state._by(enemy.front)
    for p in state.seats:
        if p is not target:
            p.ko, p.health = True, 0
    target.equipment = ["shield_unique"]
    state.rules.refresh(target, full=True)
    target.health, target.armor, target.dodge = 1, 0, 0
    for e in enc.enemies:
        if e is not enemy:
            e.ko, e.health = True, 0
    enemy.health, enemy.armor = 1, 0
    assert int(enemy.enemy_card.get("damage") or 0) >= 2      # half of it reflected is at least 1
    state._cp = None
    return state, enemy.name


def test_reflected_last_blow_loses_the_game(tmp_path):
    state, enemy = _last_stand(3)
    start = len(state.events)
    state.apply_action(Action.make("enemy_turn", enemy=enemy))
    while state.current_player() == CHANCE and state.pending is not None:
        sides = max(a["value"] for a, _ in state.chance_outcomes())
        state.apply_action(Action.make("die", value=sides))
    events = state.events[start:]
    assert [e["kind"] for e in events] == ["enemy_attack", "battle_end"], events
    assert events[0]["ko"] is True and events[-1]["result"] == "lost"
    assert state.is_terminal() and state.winner == "enemies"
    assert state.returns() == [0.0] * len(state.seats)
    assert state.legal_actions() == [] and state.chance_outcomes() == []


def test_legal_twin_last_enemy_slain_by_reflection_wins_the_encounter():
    """The legal twin: a player still standing, the reflection's kill ends the Encounter."""
    state, enemy = _last_stand(3)
    other = next(p for p in state.seats if p.ko)
    other.ko, other.health = False, other.max_health
    start = len(state.events)
    state.apply_action(Action.make("enemy_turn", enemy=enemy))
    while state.current_player() == CHANCE and state.pending is not None:
        sides = max(a["value"] for a, _ in state.chance_outcomes())
        state.apply_action(Action.make("die", value=sides))
    kinds = [e["kind"] for e in state.events[start:]]
    assert kinds[0] == "enemy_attack" and "leader_passed" in kinds and state.winner is None

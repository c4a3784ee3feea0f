"""The shared replay (cardgen.play.replay.StateReferee) over Loot & Battles' one model: the
legal example logs and random games replay with no rejection; one mutated event is rejected
at that event with the rule `cardgen check` names for it (issue 29, first step)."""

from __future__ import annotations

import copy

import pytest

from cardgen.content.playlog import read
from cardgen.games.loot_battles.contract import LootRules
from cardgen.play.replay import StateReferee
from tests import playkit
from tests.test_play_loot_battles import (
    _defeated_target,
    _impossible_die,
    _out_of_turn,
    _wrong_damage,
    _wrong_hp,
)

GAME = "loot_battles"
SEEDS = range(12)


def _rules() -> LootRules:
    return LootRules(playkit.game(GAME))


@pytest.mark.parametrize("name", ["win-2p.yaml", "loss-3p.yaml", "loss-3p.jsonl"])
def test_legal_example_logs_replay_with_no_rejection(name):
    log = read(playkit.ROOT / "examples" / "logs" / GAME / name)
    ref = StateReferee(_rules(), log.header)
    assert ref.replay([{"kind": e.kind, **e.fields} for e in log.events]) == []
    assert ref.state.result()["winner"] == ("players" if name.startswith("win") else "enemies")


def test_random_games_replay_with_no_rejection():
    playkit.assert_random_games_replay_clean(GAME, SEEDS, _rules)


@pytest.mark.parametrize("mutate,rules", [(_impossible_die, {"LB-ATK-2"}), (_out_of_turn, {"LB-RND-1", "LB-ATK-1", "LB-DMG-1"}),
                                          (_defeated_target, {"LB-DMG-1"}), (_wrong_damage, {"LB-ATK-4"}),
                                          (_wrong_hp, {"LB-DMG-1"})])
def test_one_mutated_event_is_rejected_there_with_its_rule(mutate, rules):
    done = 0
    for seed, state, events, i in playkit.mutated_games(GAME, SEEDS, mutate):
        ref = StateReferee(_rules(), state.log_header())
        try:
            for k, ev in enumerate(events[: i + 1]):
                ref.event(k, ev)
        except Exception:  # noqa: BLE001 - a mutated event the state cannot take at all is still caught at it
            assert ref.rejections and ref.rejections[-1].step == i
        # every distinct slip of the event is named there (as check does: every_slip), none later
        assert {r.step for r in ref.rejections} == {i}, (seed, events[i], ref.rejections)
        assert ref.rejections[0].rule in rules, (seed, events[i], ref.rejections[0].text())
        done += 1
    assert done > 0


def _replayed(events: list[dict], header: dict) -> list:
    ref = StateReferee(_rules(), header)
    return ref.replay(events)


def _marker_at(events: list[dict], kind: str, key: str) -> int:
    return next(i for i, e in enumerate(events) if e["kind"] == kind and key in e)


@pytest.mark.parametrize("kind,key,rule", [("round_end", "round", "LB-RND-1"),
                                           ("battle_end", "battles_won", "LB-END-1")])
def test_a_marker_the_log_numbers_wrong_is_one_problem_there(kind, key, rule):
    """The log's own markers are compared with the state's (its round number, the Battles won);
    the log's numbering is then followed: the later markers shifted by the same slip are no new
    problem. Legal twin: the game as played."""
    for seed in SEEDS:
        state = playkit.random_game(GAME, seed)
        events = copy.deepcopy(state.log_events())
        with_round_marks = [e for e in events if e["kind"] == "round_end"]
        for e in with_round_marks:
            e["round"] = e.get("round", 1)
        assert _replayed(copy.deepcopy(events), state.log_header()) == [], seed
        if not any(e["kind"] == kind and key in e for e in events):
            continue
        i = _marker_at(events, kind, key)
        for e in events[i:]:
            if e["kind"] == kind and key in e:
                e[key] += 1              # one slip: every later marker numbered from it
        found = _replayed(events, state.log_header())
        assert [(r.step, r.rule, r.field) for r in found] == [(i, rule, key)], (seed, found)
        return
    pytest.fail("no random game has the marker")


def test_a_wrong_stated_value_is_one_problem_and_the_log_is_followed():
    """A blow's stated Health one off is LB-DMG-1 at that blow; the replay goes on from the
    table's value, so the player's Health stated one off the same way until the Battle ends is
    no new problem (one slip, one problem)."""
    for seed in SEEDS:
        state = playkit.random_game(GAME, seed)
        events = copy.deepcopy(state.log_events())
        for i, e in enumerate(events):
            if e["kind"] != "enemy_attack" or e["hit"] or e["hp_left"] < 2:
                continue
            end = next((k for k in range(i, len(events)) if events[k]["kind"] == "battle_end"), len(events))
            later = [k for k in range(i, end) if events[k].get("target") == e["target"] and "hp_left" in events[k]]
            if any(events[k]["kind"] == "heal" or events[k]["hp_left"] < 2 for k in later):
                continue
            for k in later:
                events[k]["hp_left"] -= 1        # the table went on from its own (wrong) number
            found = _replayed(events, state.log_header())
            if len(later) > 1 and [(r.step, r.rule) for r in found] == [(i, "LB-DMG-1")]:
                return
            events = copy.deepcopy(state.log_events())
    pytest.fail("no slip in the Health of a player was followed")


def test_a_slip_copied_hundreds_of_times_stays_within_the_look_ahead_budget():
    """Hostile input stays linear: one attack line with a wrong stated Health copied 400 times is
    400 problems, and the look-aheads that read its slips replay at most their budget (a few
    times the log's length), not the rest of the log at every line."""
    log = read(playkit.ROOT / "examples" / "logs" / GAME / "win-2p.yaml")
    events = [{"kind": e.kind, **e.fields} for e in log.events]
    i = next(k for k, e in enumerate(events) if e.get("hp_left") == 1 and e["kind"] == "attack")
    events = events[:i] + [{**events[i], "hp_left": 7} for _ in range(400)]
    rules = _rules()
    ref = StateReferee(rules, log.header)
    for k, ev in enumerate(events):
        rules.upcoming(iter(events[k + 1:]))
        ref.event(k, ev)
    assert len({r.step for r in ref.rejections}) == 400
    look = rules.look
    assert look.left is not None and look.left <= 0
    assert look.spent <= (look.per_event + 4) * len(events)

"""The shared replay (cardgen.play.replay.StateReferee) over Loot & Battles' one model: the
legal example logs and random games replay with no rejection; one mutated event is rejected
at that event with the rule `cardgen check` names for it (issue 29, first step)."""

from __future__ import annotations

import copy
import random

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
    return LootRules(playkit.game(GAME), playkit.package(GAME).new_state)


def test_the_contract_says_what_the_game_is():
    info = _rules().info
    r = playkit.new_state(GAME, 0).rules      # every number from params.yaml
    assert (info.min_players, info.max_players) == (r.n_min, r.n_max) and info.min_players < info.max_players
    assert info.information == "perfect" and info.utility == "identical"


@pytest.mark.parametrize("name", ["win-2p.yaml", "loss-3p.yaml", "loss-3p.jsonl"])
def test_legal_example_logs_replay_with_no_rejection(name):
    log = read(playkit.ROOT / "examples" / "logs" / GAME / name)
    ref = StateReferee(_rules(), log.header)
    assert ref.replay([{"kind": e.kind, **e.fields} for e in log.events]) == []
    assert ref.state.result()["winner"] == ("players" if name.startswith("win") else "enemies")


def test_random_games_replay_with_no_rejection():
    for seed in SEEDS:
        state = playkit.random_game(GAME, seed)
        ref = StateReferee(_rules(), state.log_header())
        assert ref.replay(state.log_events()) == [], seed
        assert ref.state.result() == state.result()


@pytest.mark.parametrize("mutate,rules", [(_impossible_die, {"LB-ATK-2"}), (_out_of_turn, {"LB-RND-1", "LB-ATK-1"}),
                                          (_defeated_target, {"LB-DMG-1"}), (_wrong_damage, {"LB-ATK-4"}),
                                          (_wrong_hp, {"LB-DMG-1"})])
def test_one_mutated_event_is_rejected_there_with_its_rule(mutate, rules):
    done = 0
    for seed in SEEDS:
        state = playkit.random_game(GAME, seed)
        events = copy.deepcopy(state.log_events())
        i = mutate(events, random.Random(seed * 7919 + 1))
        if i is None:
            continue
        ref = StateReferee(_rules(), state.log_header())
        try:
            for k, ev in enumerate(events[: i + 1]):
                ref.event(k, ev)
        except Exception:  # noqa: BLE001 - a mutated event the state cannot take at all is still caught at it
            assert ref.rejections and ref.rejections[-1].step == i
        assert [r.step for r in ref.rejections] == [i], (seed, events[i], ref.rejections)
        assert ref.rejections[0].rule in rules, (seed, events[i], ref.rejections[0].text())
        done += 1
    assert done > 0

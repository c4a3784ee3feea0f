"""The shared replay (cardgen.play.replay.StateReferee) over Bones on Ice's one model: the example
logs and random games replay with no rejection and the same result; one mutated event is rejected
at that event with the rule `cardgen check` names for it, and nowhere else (issue 29)."""

from __future__ import annotations

import pytest

from cardgen.content.playlog import read
from cardgen.games.bones_on_ice import BoiRules
from cardgen.play.replay import StateReferee
from tests import playkit
from tests.test_play_bones_on_ice import mut_actor, mut_die, mut_score, mut_stamina, mut_target, mut_winner

GAME = "bones_on_ice"
SEEDS = range(10)


def _referee(header: dict) -> StateReferee:
    return StateReferee(BoiRules(playkit.game(GAME)), header)


@pytest.mark.parametrize("name", ["regulation.yaml", "regulation.jsonl", "shootout.yaml"])
def test_legal_example_logs_replay_with_no_rejection(name):
    log = read(playkit.ROOT / "examples" / "logs" / GAME / name)
    ref = _referee(log.header)
    assert ref.replay([{"kind": e.kind, **e.fields} for e in log.events]) == []
    assert ref.state.is_terminal()
    assert ref.state.result()["decided_by"] == name.split(".")[0]


def test_random_games_replay_with_no_rejection_and_the_same_result():
    for seed in SEEDS:
        state = playkit.random_game(GAME, seed)
        ref = _referee(state.log_header())
        assert ref.replay(state.log_events()) == [], seed
        assert ref.state.result() == state.result()


@pytest.mark.parametrize("mutate,rules", [
    (mut_target, {"BOI-MID-6"}), (mut_die, {"BOI-ROLL-1"}), (mut_actor, {"BOI-MID-1"}),
    (mut_score, {"BOI-1V1-1"}),
    (mut_winner, {"BOI-ROLL-2", "BOI-1V1-1", "BOI-STAM-2", "BOI-ZONE-1", "BOI-ZONE-2", "BOI-SPIRIT-1",
                  "BOI-CHAOS-2"}),
    (mut_stamina, {"BOI-STAM-2"})], ids=lambda v: getattr(v, "__name__", ""))
def test_one_mutated_event_is_rejected_there_with_its_rule(mutate, rules):
    done = 0
    for seed, state, events, i in playkit.mutated_games(GAME, SEEDS, mutate):
        ref = _referee(state.log_header())
        for k, ev in enumerate(events[: i + 1]):
            ref.event(k, ev)
        assert {r.step for r in ref.rejections} == {i}, (seed, events[i], [r.text() for r in ref.rejections])
        assert ref.rejections[0].rule in rules, (seed, events[i], ref.rejections[0].text())
        done += 1
    assert done > 0


def test_an_action_the_state_does_not_allow_is_named_with_its_rule():
    """why_not over the state: a Goalie's Tactical Move (BOI-SETUP-2), named at its field."""
    ref, events, i = playkit.referee_before(BoiRules(playkit.game(GAME)), GAME, 1, "tactical_move")
    team = events[i]["skater"].split("_")[0]
    goalie = next(p.id for p in ref.state.s.pieces if p.id.startswith(team + "_") and p.role == "goalie")
    found = ref.event(i, {**events[i], "skater": goalie})
    assert [(r.rule, r.field) for r in found][:1] == [("BOI-SETUP-2", "skater")]    # Goalies stay home
    assert "Goalie" in found[0].message and all(r.step == i for r in found)

"""The shared replay (cardgen.play.replay.StateReferee) over Dino Battles' one model: the legal
example logs and random games replay with no rejection; one mutated event is rejected at that
event with the rule `cardgen check` names for it; the rules a rejected event breaks are named
before it is played, and the state is left as it was by the trial (issue 29)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.games.dino_battles import PACKAGE
from cardgen.games.dino_battles.contract import DinoRules
from cardgen.play.api import Action
from cardgen.play.replay import StateReferee
from tests import playkit
from tests.test_play_dino_battles import _impossible_die, _out_of_turn, _wrong_hp

GAME = "dino_battles"
SEEDS = range(6)
LOGS = playkit.ROOT / "examples" / "logs" / GAME


def _rules() -> DinoRules:
    return DinoRules(playkit.game(GAME))


@pytest.mark.parametrize("name", ["ko-win.yaml", "deck-out.yaml", "no-dinosaurs.jsonl"])
def test_legal_example_logs_replay_with_no_rejection(name):
    ref, log = playkit.log_referee(_rules(), LOGS / name, PACKAGE.engine, GAME)
    assert ref.replay(playkit.events_of(log)) == []
    assert ref.state.result()["winner"] is not None


def test_random_games_replay_with_no_rejection():
    playkit.assert_random_games_replay_clean(GAME, SEEDS, _rules)


CMB = {f"BDB-CMB-{n}" for n in range(1, 7)}


@pytest.mark.parametrize("mutate,rules", [(_impossible_die, CMB | {"BDB-ABIL-1"}),
                                          (_out_of_turn, {"BDB-CMB-1"}), (_wrong_hp, CMB | {"BDB-ABIL-3"})])
def test_one_mutated_event_is_rejected_there_with_its_rule(mutate, rules):
    """At the event; a move's die is judged when its answer comes (the old checker's rule too),
    and then named at the move's own place (``at``)."""
    done = 0
    for seed, state, events, i in playkit.mutated_games(GAME, SEEDS, mutate):
        ref = StateReferee(_rules(), state.log_header())
        for k, ev in enumerate(events):
            if ref.event(k, ev) or k >= i and events[i]["kind"] not in ("attack", "counterattack"):
                break
        first = ref.rejections[0]
        assert first.step == i or (first.step > i and first.at is not None and first.at.line == i + 2), \
            (seed, events[i], ref.rejections)
        assert ref.rejections[0].rule in rules, (seed, events[i], ref.rejections[0].text())
        done += 1
    assert done > 0


def test_why_not_leaves_the_state_as_it_was():
    """``why_not`` plays the action on a clone: it names the rule and changes nothing."""
    rules = _rules()
    ref, events, at = playkit.referee_before(rules, GAME, 1, "first_move")
    before = ref.state.result()
    other = next(p for p in ref.state.players if p != events[at]["player"])
    bad = Action.make("first_move", player=other)
    assert [f.rule for f in rules.why_not(ref.state, bad)] == ["BDB-CMB-1"]
    assert ref.state.result() == before and not ref.state.history[at:]


STRICT_LOG = [
    {"game": "dino_battles",
     "players": [{"name": "p1", "deck": "iron_herd"}, {"name": "p2", "deck": "steel_jaws"}]},
    {"kind": "initiative_roll", "roll": 3, "holder": "p2"},
    {"kind": "draw", "player": "p1",
     "cards": ["defend", "attack", "defend", "attack", "titanium_plating", "evade"]},
    {"kind": "new_hand", "player": "p1", "count": 6, "no_dinosaur": True,
     "cards": ["last_stand", "attack", "attack", "defend", "attack", "shock_collar"]},
    {"kind": "new_hand", "player": "p1", "count": 4, "no_dinosaur": True,
     "cards": ["bastion_trike", "attack", "attack", "defend", "evade"]},
]


@pytest.mark.parametrize("strict,code,rule", [(False, 2, "LOG-FIELD"), (True, 1, "BDB-SETUP-2")])
def test_strict_stops_at_the_first_broken_rule_inside_an_event(tmp_path, strict, code, rule):
    """A new hand of the wrong size that names more cards than it holds: the size is a broken rule,
    the cards an unreadable log; --strict stops at the rule (the old checker did too)."""
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in STRICT_LOG) + "\n", encoding="utf-8")
    args = ["check", GAME, str(path), "--format", "json"] + (["--strict"] if strict else [])
    out = CliRunner().invoke(main, args)
    assert out.exit_code == code, out.output
    assert json.loads(out.output)["problems"][0]["rule"] == rule

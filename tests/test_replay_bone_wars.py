"""Bone Wars' contract on the shared replay (cardgen/games/bone_wars/contract.py, issue 29), beside
the game's engine: ``cardgen check``'s replay driven by :func:`cardgen.play.stateengine.state_engine`
over the contract gives the same problems (rule, line, severity) and the same final result as the
engine on the example logs (every card known, hidden hands, and the table's slips) and on random
games, and one mutated event of a random game (an impossible die, a wrong Str, a wrong HP, a
wrong damage) is reported where the engine reports it, with the same rule. Not yet the same: the
slips the engine follows by looking ahead in the log (an event out of turn), see the report of
issue 29 — so ``cardgen check`` still runs the engine."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from cardgen.builder.check import _check_shape, replay_log
from cardgen.content.playlog import read
from cardgen.games.bone_wars.contract import contract
from cardgen.games.bone_wars.engine import Engine
from cardgen.games.bone_wars.vocab import EVENTS, HEADER
from cardgen.play.playout import as_jsonl
from cardgen.play.stateengine import StateEngine, state_engine
from tests import playkit
from tests.conftest import ROOT
from tests.test_play_bone_wars import mut_damage, mut_die, mut_stats

GAME = "bone_wars"
EXAMPLES = ROOT / "examples" / "logs" / GAME


def _contract_engine() -> type[StateEngine]:
    return state_engine("BoneWars", contract, HEADER, EVENTS, Engine.EXPECT_RULES, end_rule="BW-END-2")


def _check(engine: type, path: Path) -> tuple[list[tuple[str, int, str]], dict]:
    log = read(path)
    _check_shape(engine, log, GAME)
    problems, final, _trace = replay_log(playkit.game(GAME), engine, log)
    return sorted((p.rule, p.loc.line if p.loc else 0, p.severity) for p in problems.items), final


def test_the_contract_says_what_the_game_is():
    info = contract(playkit.game(GAME)).info
    r = playkit.new_state(GAME, 0).rules          # every number from params.yaml
    assert (info.min_players, info.max_players) == (r.n_min, r.n_max)
    assert info.information == "imperfect" and info.chance_mode == "explicit_stochastic"


@pytest.mark.parametrize("name", ["duel-2p.yaml", "three-way-3p.yaml", "three-way-3p.jsonl", "table-slips.yaml"])
def test_example_logs_give_the_engines_problems_and_result(name):
    old, old_final = _check(Engine, EXAMPLES / name)
    new, new_final = _check(_contract_engine(), EXAMPLES / name)
    assert new == old
    assert new_final == old_final
    if name != "table-slips.yaml":
        assert new == [] and new_final["winner"] is not None
    else:
        assert ("BW-ATK-4", 25, "error") in new and ("BW-ATK-5", 25, "error") in new    # two slips, one event


def test_random_games_replay_through_the_contract(tmp_path):
    for seed in range(8):
        state = playkit.random_game(GAME, seed)
        path = tmp_path / f"g{seed}.jsonl"
        path.write_text(as_jsonl(state), encoding="utf-8")
        problems, final = _check(_contract_engine(), path)
        assert problems == [], (seed, problems[:3])
        assert final == state.result()


@pytest.mark.parametrize("mutate", [mut_die, mut_stats, mut_damage], ids=lambda f: f.__name__)
def test_a_mutated_event_is_reported_where_the_engine_reports_it(tmp_path, mutate):
    compared = 0
    for seed in range(8):
        state = playkit.random_game(GAME, seed)
        events = copy.deepcopy(state.log_events())
        i = mutate(events, random.Random(seed * 7919 + 1))
        if i is None:
            continue
        path = tmp_path / "mutated.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in [state.log_header(), *events]) + "\n", encoding="utf-8")
        old, _ = _check(Engine, path)
        new, _ = _check(_contract_engine(), path)
        assert any(line == i + 2 and sev == "error" for _rule, line, sev in new), (seed, new)
        assert [x for x in new if x[1] == i + 2] == [x for x in old if x[1] == i + 2], (seed, old, new)
        if mutate is not mut_die:       # an impossible die may end the game otherwise: what follows differs
            assert new == old, (seed, old, new)
        compared += 1
    assert compared >= 4

"""Bone Wars' contract on the shared replay (cardgen/games/bone_wars/contract.py, issue 29): the
engine of ``cardgen check bone_wars`` is :func:`cardgen.play.stateengine.state_engine` over it. The
example logs give the problems the game's former referee gave (rule, line, severity — recorded
here from it), random games replay with none and the same result, and one mutated event of a
random game is reported at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgen.builder.check import _check_shape, replay_log
from cardgen.content.playlog import read
from cardgen.games.bone_wars import Engine
from cardgen.play.playout import as_jsonl
from tests import playkit
from tests.conftest import ROOT
from tests.test_play_bone_wars import mut_damage, mut_die, mut_stats

GAME = "bone_wars"
EXAMPLES = ROOT / "examples" / "logs" / GAME
#: what the referee classes gave on the example logs before the contract replaced them
FORMER = {"duel-2p.yaml": [], "three-way-3p.yaml": [], "three-way-3p.jsonl": [],
          "table-slips.yaml": [("BW-ATK-10", 51, "error"), ("BW-ATK-4", 25, "error"), ("BW-ATK-5", 25, "error"),
                               ("BW-ATK-6", 42, "error"), ("BW-CREATE-1", 23, "error"), ("BW-CREATE-6", 18, "error"),
                               ("BW-TURN-1", 38, "note")]}


def _check(path: Path) -> tuple[list[tuple[str, int, str]], dict]:
    log = read(path)
    _check_shape(Engine, log, GAME)
    problems, final, _trace = replay_log(playkit.game(GAME), Engine, log)
    return sorted((p.rule, p.loc.line if p.loc else 0, p.severity) for p in problems.items), final


@pytest.mark.parametrize("name", sorted(FORMER))
def test_example_logs_give_the_former_referees_problems(name):
    problems, final = _check(EXAMPLES / name)
    assert problems == FORMER[name]
    assert (final["winner"] is None) == (name == "table-slips.yaml")


def test_random_games_replay_through_the_contract(tmp_path):
    for seed in range(8):
        state = playkit.random_game(GAME, seed)
        path = tmp_path / f"g{seed}.jsonl"
        path.write_text(as_jsonl(state), encoding="utf-8")
        problems, final = _check(path)
        assert problems == [], (seed, problems[:3])
        assert final == state.result()


@pytest.mark.parametrize("mutate", [mut_die, mut_stats, mut_damage], ids=lambda f: f.__name__)
def test_a_mutated_event_is_reported_at_its_line(tmp_path, mutate):
    mutated = 0
    for seed, state, events, i in playkit.mutated_games(GAME, range(8), mutate):
        path = tmp_path / "mutated.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in [state.log_header(), *events]) + "\n", encoding="utf-8")
        problems, _ = _check(path)
        assert any(line == i + 2 and sev == "error" for _rule, line, sev in problems), (seed, problems)
        mutated += 1
    assert mutated >= 4

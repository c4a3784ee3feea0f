"""The shared checker (cardgen.play.stateengine): a game's contract driven by ``cardgen check``'s
replay — a legal log gives no problem, a slip is one problem at its event's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.builder.check import _check_shape, replay_log
from cardgen.content.playlog import read
from cardgen.games.loot_battles import new_state
from cardgen.games.loot_battles.contract import LootRules
from cardgen.games.loot_battles.vocab import EVENTS, HEADER
from cardgen.play.stateengine import StateEngine, state_engine
from tests import playkit

GAME = "loot_battles"
LOGS = Path(__file__).resolve().parents[1] / "examples" / "logs" / GAME


def _engine() -> type[StateEngine]:
    return state_engine("LootBattles", lambda g: LootRules(g, new_state), HEADER, EVENTS, end_rule="LB-END-1")


@pytest.mark.parametrize("name", ["loss-3p.yaml", "win-2p.yaml"])
def test_a_legal_log_replays_without_a_problem(name: str) -> None:
    log = read(LOGS / name)
    engine = _engine()
    _check_shape(engine, log, GAME)
    problems, final, _trace = replay_log(playkit.game(GAME), engine, log)
    assert problems.items == []
    assert final["battles_won"] >= 1


def test_a_wrong_claim_is_one_problem_at_its_line(tmp_path: Path) -> None:
    lines = (LOGS / "win-2p.yaml").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "damage: 2}" in line)
    lines[at] = lines[at].replace("damage: 2}", "damage: 3}")
    path = tmp_path / "log.yaml"
    path.write_text("\n".join(lines) + "\n")
    log = read(path)
    engine = _engine()
    _check_shape(engine, log, GAME)
    problems, _final, _trace = replay_log(playkit.game(GAME), engine, log)
    assert [(p.rule, p.loc.line if p.loc else 0) for p in problems.items] == [("LB-ATK-4", at + 1)]

"""The shared checker (cardgen.play.stateengine): a game's contract driven by ``cardgen check``'s
replay — a legal log gives no problem, a slip is one problem at its event's line."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from cardgen.builder.check import _check_shape, replay_log
from cardgen.content.playlog import read
from cardgen.games.loot_battles.contract import LootRules
from cardgen.games.loot_battles.vocab import EVENTS, HEADER
from cardgen.play.api import TERMINAL, Action, GameState
from cardgen.play.replay import Finding, GameInfo, StateReferee, findings
from cardgen.play.stateengine import StateEngine, state_engine
from tests import playkit

GAME = "loot_battles"
LOGS = Path(__file__).resolve().parents[1] / "examples" / "logs" / GAME


def _engine() -> type[StateEngine]:
    return state_engine("LootBattles", LootRules, HEADER, EVENTS, end_rule="LB-END-1")


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


# --- what a log leaves unknown: a predicate, findings with their field and hint -----------------

class Draws(GameState):
    """Two players draw in turn from a known pile; a log may name the card or not (face down)."""

    def __init__(self, pile: list[str]):
        self.players, self.history = ["ana", "bo"], []
        self.pile, self.turn = list(pile), 0
        self.hands: list[list[str]] = [[], []]

    def current_player(self) -> int:
        return TERMINAL if not self.pile else self.turn

    def legal_actions(self) -> list[Action]:
        return [Action.make("draw", player=self.players[self.turn], card=c) for c in sorted(set(self.pile))]

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        card = action.get("card") or self.pile[0]
        self.pile.remove(card) if card in self.pile else self.pile.pop(0)
        self.hands[self.turn].append(card if action.get("card") else "?")
        self.turn = 1 - self.turn

    def returns(self) -> list[float]:
        return [0.5, 0.5]

    def result(self) -> dict[str, Any]:
        return {"hands": [len(h) for h in self.hands]}

    def observation(self, player: int) -> dict[str, Any]:
        return {}

    def log_header(self) -> dict[str, Any]:
        return {}

    def clone(self) -> Draws:
        return copy.deepcopy(self)


class DrawRules:
    info = GameInfo(name="draws", min_players=2, max_players=2)

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        return Draws(list(setup["pile"]))

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        return [Action.make("draw", player=event["player"], card=event.get("card"))]

    def accepts(self, state: GameState, action: Action) -> bool:
        """A face-down draw (no card named) is allowed whenever a named one could be."""
        assert isinstance(state, Draws)
        return action["player"] == state.players[state.turn] and (action.get("card") is None or
                                                                   action["card"] in state.pile)

    def why_not(self, state: GameState, action: Action) -> list[Finding]:
        assert isinstance(state, Draws)
        found = []
        if action["player"] != state.players[state.turn]:
            found.append(Finding("T-TURN", f"{action['player']} draws on {state.players[state.turn]}'s turn", "player"))
        if action.get("card") is not None and action["card"] not in state.pile:
            found.append(Finding("T-PILE", f"no {action['card']} is left", "card", hint="the pile holds "
                                 + ", ".join(sorted(set(state.pile)))))
        return found

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Finding | None:
        assert isinstance(state, Draws)
        left = event.get("left")
        return None if left is None or left == len(state.pile) else \
            Finding("T-LEFT", f"the log says {left} left, the pile holds {len(state.pile)}", "left", severity="warning")


def test_a_face_down_draw_is_judged_by_the_games_predicate() -> None:
    ref = StateReferee(DrawRules(), {"pile": ["a", "a", "b"]})
    events: list[dict[str, Any]] = [{"kind": "draw", "player": "ana"}, {"kind": "draw", "player": "bo", "card": "b", "left": 1},
              {"kind": "draw", "player": "ana", "card": "a", "left": 0}]
    assert ref.replay(events) == []


def test_one_event_may_break_several_rules_each_at_its_field() -> None:
    ref = StateReferee(DrawRules(), {"pile": ["a", "b"]})
    found = ref.event(0, {"kind": "draw", "player": "bo", "card": "c"})
    assert [(r.rule, r.field) for r in found] == [("T-TURN", "player"), ("T-PILE", "card")]
    assert found[1].hint == "the pile holds a, b"


def test_a_stated_consequence_may_be_a_warning() -> None:
    ref = StateReferee(DrawRules(), {"pile": ["a", "b"]})
    (r,) = ref.event(0, {"kind": "draw", "player": "ana", "card": "a", "left": 5})
    assert (r.rule, r.field, r.severity) == ("T-LEFT", "left", "warning")


def test_findings_read_every_form_a_contract_may_answer() -> None:
    f = Finding("R-1", "m")
    assert findings(("R-1", "m")) == [f] and findings(f) == [f] and findings([f, f]) == [f, f]
    assert findings(None) == []

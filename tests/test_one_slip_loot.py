"""One slip is one problem in Loot & Battles, on lines and fields beyond :mod:`tests.test_one_slip`'s
seeded sample (issue 29): a stated Health or Dodge a later event reads again is reported, not
believed, when the log plays on from the rules' value; a die whose blow the log's stated values
play the other way is one LB-ATK-3; an enemy placed in front of another player than its die
says, as the log's first round plays it, is one LB-TGT-1 at the placement, and the battle goes
on as the log recorded it. Each case is one changed number in a legal example log (its expect
block dropped), with the line and rule the one problem belongs to."""

from __future__ import annotations

import pytest

from cardgen.builder import check as checker
from tests.conftest import ROOT
from tests.test_one_slip import games  # noqa: F401 - the fixture: each game loaded once

LOGS = ROOT / "examples" / "logs" / "loot_battles"

#: (log, the event as written, the event with one number changed, the one problem's rule)
CASES = [
    # a stated Dodge off by one: later rolls are against the rules' Dodge
    ("win-2p.yaml", "{kind: enemy_attack, enemy: lankies#2, dice: [1], dodge_left: 6}",
     "{kind: enemy_attack, enemy: lankies#2, dice: [1], dodge_left: 5}", "LB-ATK-3"),
    ("win-2p.yaml", "{kind: enemy_attack, enemy: lankies#2, dice: [2], dodge_left: 1}",
     "{kind: enemy_attack, enemy: lankies#2, dice: [2], dodge_left: 0}", "LB-ATK-3"),
    # a kill stated as a survivor, a survivor stated as a kill: the rules' Health goes on
    ("loss-3p.yaml", "{kind: enemy_attack, enemy: shankers#3, dice: [6, 3, 2], hp_left: 0}",
     "{kind: enemy_attack, enemy: shankers#3, dice: [6, 3, 2], hp_left: 1}", "LB-DMG-1"),
    ("win-2p.yaml", "{kind: attack, player: ana, target: lankies#3, dice: [5], hp_left: 1}",
     "{kind: attack, player: ana, target: lankies#3, dice: [5], hp_left: 0}", "LB-DMG-1"),
    ("win-2p.yaml", "{kind: attack, player: ana, target: lankies#2, dice: [2], hp_left: 1}",
     "{kind: attack, player: ana, target: lankies#2, dice: [2], hp_left: 0}", "LB-DMG-1"),
    # a die that now hits, where the blow's stated Dodge is a miss's: the die read as the log plays it
    ("win-2p.yaml", "{kind: enemy_attack, enemy: lankies#2, dice: [1], dodge_left: 0}",
     "{kind: enemy_attack, enemy: lankies#2, dice: [2], dodge_left: 0}", "LB-ATK-3"),
    # a placing die that puts an enemy in front of the other player than the log's rounds do
    ("win-2p.yaml", "{kind: enemies_placed, rolls: [3, 6, 5], numbers",
     "{kind: enemies_placed, rolls: [3, 5, 5], numbers", "LB-TGT-1"),
    ("win-2p.yaml", "{kind: enemies_placed, rolls: [4, 1, 4], numbers",
     "{kind: enemies_placed, rolls: [4, 1, 3], numbers", "LB-TGT-1"),
    ("loss-3p.yaml", "{kind: enemies_placed, rolls: [6, 5, 2], numbers",
     "{kind: enemies_placed, rolls: [6, 4, 2], numbers", "LB-TGT-1"),
    ("loss-3p.yaml", "{kind: enemies_placed, rolls: [2, 1, 5, 6, 3, 4, 1, 1, 6]",
     "{kind: enemies_placed, rolls: [2, 1, 5, 6, 3, 4, 1, 2, 6]", "LB-TGT-1"),
    # a placing die no d6 shows, the enemy played in front of another player: the die's one problem
    ("loss-3p.yaml", "{kind: enemies_placed, rolls: [2, 1, 5, 6, 3, 4, 1, 1, 6]",
     "{kind: enemies_placed, rolls: [2, 1, 7, 6, 3, 4, 1, 1, 6]", "LB-TGT-1"),
]


@pytest.mark.parametrize("log,old,new,rule", CASES, ids=[f"{c[0]}:{c[2][7:40]}" for c in CASES])
def test_one_changed_number_is_one_problem_at_its_line(games, tmp_path, log, old, new, rule):  # noqa: F811
    text = (LOGS / log).read_text(encoding="utf-8")
    text = text[: text.index("\nexpect:")] + "\n"
    assert text.count(old) == 1, old
    line = text[: text.index(old)].count("\n") + 1
    path = tmp_path / log
    path.write_text(text.replace(old, new), encoding="utf-8")
    probs, _, _ = checker.replay(ROOT, "loot_battles", path)
    assert [(p.rule, p.loc.line if p.loc else 0) for p in probs if p.severity == "error"] == [(rule, line)], \
        [p.text() for p in probs]


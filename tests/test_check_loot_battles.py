"""The Loot & Battles playtest checker: every rule in scope broken at its line, with its legal
twin; complete games to the end; unique effects; unreadable logs; replay properties."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.builder.check import BaseEngine
from cardgen.cli import main
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.games.loot_battles import Engine
from tests import checklogs
from tests.checklogs import edited, errors, line_of, to_jsonl, write
from tests.conftest import ROOT

GAME = "loot_battles"
EXAMPLES = ROOT / "examples" / "logs" / GAME

# -- base logs (every number worked out by hand in the comments) ---------------------------

# Two Battles' worth: Rats ×4 won, loot shared, Lankies ×3 begun. Default numbers:
# ana 1 3 5, bo 2 4 6 → ana faces rats#1, #3; bo rats#2, #4.
BASE = """\
game: loot_battles
rules_version: "1.0"
players:
  - {name: ana, class: melee}
  - {name: bo, class: ranged}
battles_to_win: 3
events:
  - {kind: encounter_chosen, encounter: enc_rats_4, by: ana}
  - {kind: enemies_placed, rolls: [1, 2, 3, 4], placed: {ana: [rats#1, rats#3], bo: [rats#2, rats#4]}}
  # round 1
  - {kind: attack, player: ana, target: rats#1, dice: [5], hit: true, damage: 2, hp_left: 0}
  - {kind: enemy_attack, enemy: rats#3, target: ana, dice: [6], hit: true, damage: 1, armor_left: 1}
  - {kind: attack, player: bo, target: rats#3, dice: [3], hit: false, dodge_left: 3}
  - {kind: enemy_attack, enemy: rats#2, dice: [2], dodge_left: 6}
  - {kind: enemy_attack, enemy: rats#4, dice: [6], hit: false}
  - {kind: round_end, round: 1, state: {ana: {health: 10, armor: 2}, bo: {dodge: 5}}}
  # round 2
  - {kind: attack, player: ana, target: rats#3, dice: [4], ko: true}
  - {kind: attack, player: bo, target: rats#2, dice: [5], damage: 1, ko: true}
  - {kind: enemy_attack, enemy: rats#4, dice: [1]}
  - {kind: round_end, round: 2}
  # round 3: nothing stands in front of ana, so she may attack rats#4
  - {kind: attack, player: ana, target: rats#4, dice: [6], ko: true}
  - {kind: leader_passed, to: bo}
  - {kind: battle_end, result: won, battles_won: 1}
  - {kind: loot_drawn, count: 2, cards: [sword_iron, spell_heal_minor]}
  - {kind: equip, player: ana, card: sword_iron}
  - {kind: equip, player: bo, card: spell_heal_minor}
  # Battle 2: the Leader (bo) draws 3 and picks Lankies x3
  - {kind: encounter_drawn, cards: [enc_lankies_3, enc_brutes_3, enc_growlers_4], pick: enc_lankies_3, by: bo}
  - {kind: enemies_placed, rolls: [2, 2, 5], numbers: {ana: [1, 3, 5], bo: [2, 4, 6]}}
  # round 1: bo leads; bo faces lankies#1, #2 (his Dodge is 7 + 2), ana lankies#3
  - {kind: heal, player: bo, target: ana, hp_left: 10}
  - {kind: enemy_attack, enemy: lankies#1, dice: [6], dodge_left: 8}
  - {kind: enemy_attack, enemy: lankies#2, dice: [3], dodge_left: 7}
  - {kind: attack, player: ana, target: lankies#3, with: [sword_iron], dice: [6], hit: false, dodge_left: 5}
  - {kind: enemy_attack, enemy: lankies#3, dice: [6], damage: 2, armor_left: 0, hp_left: 10}
  - {kind: round_end, round: 1}
  # round 2: Iron Sword 4 + Melee 2 = 6 against Armor 1 and Health 4
  - {kind: pass, player: bo}
  - {kind: enemy_attack, enemy: lankies#1, dice: [4]}
  - {kind: enemy_attack, enemy: lankies#2, dice: [5]}
  - {kind: attack, player: ana, target: lankies#3, dice: [6], damage: 6, hp_left: 0}
expect:
  winner: null
  battles_won: 1
  players:
    ana: {health: 10, equipment: [sword_iron]}
    bo: {dodge: 5}
"""

# A +1 Encounter: Rats ×3 +1, reinforced by Rats ×5 +1 (whose +1 adds a sixth rat).
REINF = """\
game: loot_battles
rules_version: "1.0"
players:
  - {name: ana, class: melee}
  - {name: bo, class: ranged}
events:
  - {kind: encounter_chosen, encounter: enc_rats_3_r1}
  - {kind: reinforcements_drawn, cards: [enc_rats_5_r1]}
  - {kind: enemies_placed, rolls: [1, 3, 5]}
  # round 1: all three rats stand in front of ana
  - {kind: attack, player: ana, target: rats#1, dice: [5], ko: true}
  - {kind: enemy_attack, enemy: rats#2, dice: [6], armor_left: 1}
  - {kind: enemy_attack, enemy: rats#3, dice: [6], armor_left: 0}
  - {kind: attack, player: bo, target: rats#2, dice: [6], ko: true}
  - {kind: round_end, state: {ana: {armor: 2, dodge: 5}}}
  # round 2
  - {kind: attack, player: ana, target: rats#3, dice: [5], ko: true}
  - {kind: leader_passed, to: bo}
  # the reinforcement: 5 rats + 1; bo leads now
  - {kind: enemies_placed, rolls: [2, 2, 2, 2, 2, 1]}
  - {kind: attack, player: bo, target: rats#6, dice: [5], ko: true}
  - {kind: enemy_attack, enemy: rats#1, dice: [1], dodge_left: 6}
  - {kind: enemy_attack, enemy: rats#2, dice: [1], dodge_left: 5}
  - {kind: enemy_attack, enemy: rats#3, dice: [6], armor_left: 0}
  - {kind: enemy_attack, enemy: rats#4, dice: [6], hp_left: 9}
  - {kind: enemy_attack, enemy: rats#5, dice: [6], hp_left: 8}
  - {kind: pass, player: ana}
"""

# The shortest loss: three Steppons (Damage 5, 2d6) knock out ana, then bo.
LOSS = """\
game: loot_battles
rules_version: "1.0"
players:
  - {name: ana, class: melee}
  - {name: bo, class: ranged}
events:
  - {kind: encounter_chosen, encounter: enc_steppons_3}
  - {kind: enemies_placed, rolls: [1, 3, 5]}
  # round 1: the three Steppons stand in front of ana
  - {kind: attack, player: ana, target: steppons#1, dice: [2]}
  - {kind: enemy_attack, enemy: steppons#1, dice: [6, 6], hp_left: 7}
  - {kind: enemy_attack, enemy: steppons#2, dice: [5, 6], hp_left: 2}
  - {kind: enemy_attack, enemy: steppons#3, dice: [4, 4], ko: true}
  - {kind: pass, player: bo}
  - {kind: round_end, round: 1}
  # round 2: ana is out; the Steppons moved on to bo
  - {kind: pass, player: bo}
  - {kind: enemy_attack, enemy: steppons#1, dice: [6, 6], hp_left: 6}
  - {kind: enemy_attack, enemy: steppons#2, dice: [6, 6], hp_left: 1}
  - {kind: enemy_attack, enemy: steppons#3, dice: [6, 6], ko: true}
  - {kind: battle_end, result: lost, battles_won: 0}
expect:
  winner: enemies
  battles_won: 0
"""

TINY = """\
game: loot_battles
rules_version: "1.0"
players:
  - {name: ana, class: melee}
  - {name: bo, class: ranged}
events:
  - {kind: encounter_chosen, encounter: enc_rats_4}
  - {kind: enemies_placed, rolls: [1, 2, 3, 4]}
"""

REINF_HEAD = REINF[: REINF.index("  # the reinforcement")]       # up to the first Encounter's end
BASES = {"BASE": BASE, "REINF": REINF, "REINF_HEAD": REINF_HEAD, "LOSS": LOSS, "TINY": TINY}
BO = "  - {name: bo, class: ranged}\n"
SIX = BO + "".join(f"  - {{name: p{i}, class: melee}}\n" for i in range(4))

# (rule, base, old, good, bad, at): `good` and `bad` replace `old`; the violation is expected
# on the line of the first `at` from the edit on. The good twin is legal.
CASES = [
    ("LB-SETUP-1", "TINY", BO, BO, "", "{name: ana"),
    ("LB-SETUP-1", "TINY", BO, BO, SIX, "name: p3"),
    ("LB-SETUP-1", "BASE", "battles_to_win: 3", "battles_to_win: 3", "battles_to_win: 5", "battles_to_win"),
    ("LB-SETUP-2", "TINY", "{name: bo, class: ranged}", "{name: bo, class: ranged}", "{name: bo, class: wizard}",
     "wizard"),
    ("LB-SETUP-2", "TINY", "{name: bo, class: ranged}", "{name: bo, class: ranged, dodge: 7, health: 10}",
     "{name: bo, class: ranged, dodge: 5, health: 10}", "dodge: 5"),
    ("LB-SETUP-3", "TINY", "enc_rats_4}", "enc_rats_4}", "enc_rats_5_r1}", "enc_rats_5_r1"),
    ("LB-SETUP-3", "BASE", "pick: enc_lankies_3, by: bo", "pick: enc_lankies_3, by: bo",
     "pick: enc_lankies_3, by: ana", "by: ana"),
    ("LB-SETUP-3", "BASE", "[enc_lankies_3, enc_brutes_3, enc_growlers_4]", "[enc_lankies_3, enc_brutes_3, "
     "enc_growlers_4]", "[enc_lankies_3, enc_brutes_3]", "enc_brutes_3]"),
    ("LB-SETUP-3", "BASE", "[enc_lankies_3, enc_brutes_3, enc_growlers_4]", "[enc_lankies_3, enc_brutes_3, "
     "enc_growlers_4]", "[enc_lankies_5, enc_brutes_3, enc_growlers_4]", "enc_lankies_5"),
    ("LB-SETUP-3", "BASE", "[enc_lankies_3, enc_brutes_3, enc_growlers_4]", "[enc_lankies_3, enc_brutes_3, "
     "enc_growlers_4]", "[enc_lankies_3, enc_rats_4, enc_growlers_4]", "enc_rats_4,"),
    ("LB-SETUP-3", "BASE", "{kind: encounter_drawn, cards: [enc_lankies_3, enc_brutes_3, enc_growlers_4], pick: "
     "enc_lankies_3, by: bo}", "{kind: encounter_drawn, cards: [enc_lankies_3, enc_brutes_3, enc_growlers_4], "
     "pick: enc_lankies_3, by: bo}", "{kind: encounter_chosen, encounter: enc_lankies_3, by: bo}", "enc_lankies_3"),
    ("LB-SETUP-4", "REINF", "cards: [enc_rats_5_r1]", "cards: [enc_rats_5_r1]", "cards: [enc_rats_5_r1, enc_rats_4]",
     "enc_rats_4"),
    ("LB-SETUP-4", "REINF", "  - {kind: reinforcements_drawn, cards: [enc_rats_5_r1]}\n",
     "  - {kind: reinforcements_drawn, cards: [enc_rats_5_r1]}\n", "", "rolls: [1, 3, 5]"),
    ("LB-SETUP-4", "REINF", "rolls: [2, 2, 2, 2, 2, 1]", "rolls: [2, 2, 2, 2, 2, 1]", "rolls: [2, 2, 2, 2, 2, 1, 2]",
     "rolls: [2"),
    ("LB-TGT-1", "TINY", "rolls: [1, 2, 3, 4]", "rolls: [1, 2, 3, 4]", "rolls: [1, 2, 3, 9]", "rolls"),
    ("LB-TGT-1", "TINY", "rolls: [1, 2, 3, 4]", "rolls: [1, 2, 3, 4]", "rolls: [1, 2, 3]", "rolls"),
    ("LB-TGT-1", "BASE", "bo: [2, 4, 6]}}", "bo: [2, 4, 6]}}", "bo: [2, 4]}}", "bo: [2, 4]"),
    ("LB-TGT-1", "BASE", "{ana: [rats#1, rats#3], bo: [rats#2, rats#4]}", "{ana: [rats#1, rats#3], bo: [rats#2, "
     "rats#4]}", "{ana: [rats#1, rats#2], bo: [rats#3, rats#4]}", "{ana: [rats#1, rats#2]"),
    ("LB-TGT-1", "TINY", "  - {kind: enemies_placed, rolls: [1, 2, 3, 4]}\n",
     "  - {kind: enemies_placed, rolls: [1, 2, 3, 4]}\n", "  - {kind: pass, player: ana}\n", "pass"),
    ("LB-ATK-1", "BASE", "target: rats#1, dice: [5]", "target: rats#1, dice: [5]", "target: rats#2, dice: [5]",
     "rats#2, dice: [5]"),
    ("LB-ATK-1", "BASE", "target: lankies#3, with", "target: lankies#3, with", "target: lankies#1, with",
     "lankies#1, with"),
    ("LB-ATK-2", "BASE", "dice: [5], hit: true", "dice: [5], hit: true", "dice: [5, 1], hit: true", "dice: [5, 1]"),
    ("LB-ATK-2", "BASE", "dice: [5], hit: true", "dice: [5], hit: true", "dice: [7], hit: true", "dice: [7]"),
    ("LB-ATK-2", "BASE", "damage: 6, hp_left: 0}\n", "damage: 6, hp_left: 0}\n",
     "damage: 6, hp_left: 0}\n  - {kind: attack, player: ana, target: lankies#1, dice: [6]}\n", "lankies#1, dice"),
    ("LB-ATK-3", "BASE", "dice: [3], hit: false", "dice: [3], hit: false", "dice: [3], hit: true", "hit: true, dodge"),
    ("LB-ATK-3", "BASE", "dodge_left: 3}", "dodge_left: 3}", "dodge_left: 4}", "dodge_left: 4"),
    ("LB-ATK-3", "REINF", "dodge_left: 6}", "dodge_left: 6}", "dodge_left: 7}", "dodge_left: 7"),
    ("LB-ATK-4", "BASE", "hit: true, damage: 2,", "hit: true, damage: 2,", "hit: true, damage: 3,", "damage: 3"),
    ("LB-ATK-4", "BASE", "damage: 6, hp_left: 0", "damage: 6, hp_left: 0", "damage: 4, hp_left: 0", "damage: 4"),
    ("LB-ATK-4", "BASE", "target: rats#2, dice: [5], damage: 1", "target: rats#2, dice: [5], damage: 1",
     "target: rats#2, dice: [5], damage: 3", "damage: 3"),
    ("LB-DMG-1", "BASE", "hit: true, damage: 1, armor_left: 1}", "hit: true, damage: 1, armor_left: 1}",
     "hit: true, damage: 1, hp_left: 9}", "hp_left: 9"),
    ("LB-DMG-1", "BASE", "target: rats#3, dice: [4], ko: true", "target: rats#3, dice: [4], ko: true",
     "target: rats#1, dice: [4], ko: true", "rats#1, dice: [4]"),
    ("LB-DMG-1", "LOSS", "  - {kind: pass, player: bo}\n  - {kind: enemy_attack, enemy: steppons#1, dice: [6, 6], "
     "hp_left: 6}", "  - {kind: pass, player: bo}\n  - {kind: enemy_attack, enemy: steppons#1, dice: [6, 6], "
     "hp_left: 6}", "  - {kind: pass, player: bo}\n  - {kind: pass, player: ana}\n  - {kind: enemy_attack, enemy: "
     "steppons#1, dice: [6, 6], hp_left: 6}", "player: ana}"),
    ("LB-DMG-1", "LOSS", "dice: [4, 4], ko: true", "dice: [4, 4], ko: true", "dice: [4, 4], ko: false", "ko: false"),
    ("LB-RND-1", "BASE", "  # round 1\n", "  # round 1\n", "  # round 1\n  - {kind: pass, player: bo}\n",
     "pass, player: bo"),
    ("LB-RND-1", "BASE", "enemy: rats#3, target: ana", "enemy: rats#3, target: ana", "enemy: rats#3, target: bo",
     "target: bo"),
    ("LB-RND-1", "BASE", "  - {kind: enemy_attack, enemy: rats#4, dice: [6], hit: false}\n",
     "  - {kind: enemy_attack, enemy: rats#4, dice: [6], hit: false}\n", "", "round_end, round: 1"),
    ("LB-RND-1", "BASE", "round_end, round: 2}", "round_end, round: 2}", "round_end, round: 3}", "round: 3"),
    ("LB-RND-1", "BASE", "{health: 10, armor: 2}", "{health: 10, armor: 2}", "{health: 10, armor: 1}", "armor: 1}"),
    ("LB-RND-1", "BASE", "  - {kind: attack, player: bo, target: rats#3", "  - {kind: attack, player: bo, target: "
     "rats#3", "  - {kind: enemy_attack, enemy: rats#3, dice: [1]}\n  - {kind: attack, player: bo, target: rats#3",
     "enemy: rats#3, dice: [1]"),
    ("LB-ENC-1", "BASE", "  - {kind: enemy_attack, enemy: rats#4, dice: [1]}\n",
     "  - {kind: enemy_attack, enemy: rats#4, dice: [1]}\n",
     "  - {kind: enemy_attack, enemy: rats#4, dice: [1]}\n  - {kind: encounter_end}\n", "encounter_end"),
    ("LB-ENC-1", "REINF", "  - {kind: leader_passed, to: bo}\n", "  - {kind: leader_passed, to: bo}\n",
     "  - {kind: leader_passed, to: bo}\n  - {kind: battle_end, result: won}\n", "battle_end"),
    ("LB-ENC-1", "REINF_HEAD", "  - {kind: leader_passed, to: bo}\n", "  - {kind: leader_passed, to: bo}\n",
     "  - {kind: leader_passed, to: bo}\n  - {kind: encounter_drawn, pick: enc_lankies_3}\n", "encounter_drawn"),
    ("LB-LOOT-1", "BASE", "loot_drawn, count: 2,", "loot_drawn, count: 2,", "loot_drawn, count: 3,", "count: 3"),
    ("LB-LOOT-1", "BASE", "leader_passed, to: bo}", "leader_passed, to: bo}", "leader_passed, to: ana}", "to: ana"),
    ("LB-LOOT-1", "BASE", "  - {kind: loot_drawn, count: 2, cards: [sword_iron, spell_heal_minor]}\n",
     "  - {kind: loot_drawn, count: 2, cards: [sword_iron, spell_heal_minor]}\n", "", "card: sword_iron"),
    ("LB-LOOT-1", "TINY", "events:\n", "events:\n", "events:\n  - {kind: loot_drawn, count: 2}\n", "loot_drawn"),
    ("LB-LOOT-1", "BASE", "cards: [sword_iron, spell_heal_minor]}", "cards: [sword_iron, spell_heal_minor]}",
     "cards: [sword_unique, sword_unique]}", "sword_unique"),
    ("LB-EQUIP-1", "BASE", "[sword_iron, spell_heal_minor]}\n  - {kind: equip, player: ana, card: sword_iron}\n"
     "  - {kind: equip, player: bo, card: spell_heal_minor}", "[sword_iron, spell_heal_minor]}\n  - {kind: equip, "
     "player: ana, card: sword_iron}\n  - {kind: equip, player: bo, card: spell_heal_minor}", "[sword_iron, "
     "sword_bronze]}\n  - {kind: equip, player: ana, card: sword_iron}\n  - {kind: equip, player: ana, card: "
     "sword_bronze}", "card: sword_bronze"),
    ("LB-EQUIP-1", "BASE", "[sword_iron, spell_heal_minor]}\n  - {kind: equip, player: ana, card: sword_iron}\n",
     "[sword_iron, spell_heal_minor]}\n  - {kind: equip, player: ana, card: sword_iron}\n",
     "[bow_short, spell_heal_minor]}\n  - {kind: equip, player: bo, card: bow_short}\n", "card: spell_heal_minor"),
    ("LB-EQUIP-1", "BASE", "  # round 1: bo leads", "  # round 1: bo leads",
     "  - {kind: unequip, player: ana, card: sword_iron}\n  # round 1: bo leads", "unequip"),
    ("LB-EQUIP-1", "BASE", "with: [sword_iron]", "with: [sword_iron]", "with: [sword_steel]", "sword_steel"),
    ("LB-END-1", "LOSS", "  - {kind: battle_end, result: lost", "  - {kind: battle_end, result: lost",
     "  - {kind: pass, player: bo}\n  - {kind: battle_end, result: lost", "pass, player: bo}\n  - {kind: battle_end"),
    ("LB-END-1", "LOSS", "battles_won: 0}", "battles_won: 0}", "battles_won: 1}", "battles_won: 1"),
    ("LB-END-1", "LOSS", "  winner: enemies", "  winner: enemies", "  winner: players", "winner: players"),
    ("LB-END-1", "REINF", "  - {kind: pass, player: ana}\n", "  - {kind: pass, player: ana}\n",
     "  - {kind: pass, player: ana}\n  - {kind: battle_end, result: lost}\n", "battle_end"),
    ("LB-HEAL-1", "BASE", "heal, player: bo, target: ana", "heal, player: bo, target: ana",
     "heal, player: bo, target: bo", "target: bo"),
    ("LB-HEAL-1", "BASE", "  - {kind: pass, player: bo}\n", "  - {kind: pass, player: bo}\n",
     "  - {kind: heal, player: bo, target: ana}\n  - {kind: attack, player: bo, target: lankies#1, dice: [1]}\n",
     "lankies#1, dice: [1]"),
]


# -- helpers -------------------------------------------------------------------------------

check = partial(checklogs.check, GAME)


# -- every rule: the break at its line, and the legal twin ----------------------------------

@pytest.mark.parametrize("base", sorted(BASES))
def test_base_logs_are_legal(tmp_path, base):
    code, probs, final = check(write(tmp_path, BASES[base]))
    checklogs.assert_legal(code, probs)


@pytest.mark.parametrize("rule,base,old,good,bad,at", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_break_and_twin(tmp_path, rule, base, old, good, bad, at):
    checklogs.assert_break_and_twin(GAME, tmp_path, BASES[base], rule, old, good, bad, at)


def test_allow_turns_a_violation_into_a_note(tmp_path):
    checklogs.assert_allow_makes_notes(GAME, tmp_path, BASE, "target: rats#1, dice: [5]", "target: rats#2, dice: [5]",
                                       "LB-ATK-1", "house rule tonight")


def test_strict_stops_at_the_first_violation(tmp_path):
    text, _ = edited(BASE, "dice: [3], hit: false", "dice: [3], hit: true")
    text = text.replace("leader_passed, to: bo}", "leader_passed, to: ana}")
    checklogs.assert_strict_stops_at_the_first(GAME, write(tmp_path, text), "LB-ATK-3", "LB-LOOT-1")


def test_a_slip_does_not_bury_the_rest(tmp_path):
    """The log goes on as recorded: a wrong damage is followed, so later claims match the table's."""
    text, _ = edited(BASE, "hit: true, damage: 1, armor_left: 1}", "hit: true, damage: 2, armor_left: 0}")
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("LB-ATK-4", line_of(text, "damage: 2, armor"))]


def test_a_misread_die_with_its_damage_left_is_one_problem(tmp_path):
    """One slip, one problem (issue 29): a die changed from 5 to 1 with ``damage: 2`` left as
    recorded says the blow hit; it is reported once at its line and followed as a hit — not
    a dozen knock-ons from the enemy the miss would have left standing."""
    text = (EXAMPLES / "win-2p.yaml").read_text(encoding="utf-8")
    bad, _ = edited(text, "target: rats#2, dice: [5], damage: 2}", "target: rats#2, dice: [1], damage: 2}")
    code, probs, final = check(write(tmp_path, bad))
    at = line_of(bad, "dice: [1], damage: 2")
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("LB-ATK-3", at)], probs
    assert "hits for 2, but 1 does not beat rats#2's Dodge 3" in errors(probs)[0]["message"]
    assert code == 1 and final["winner"] == "players"
    twin, _ = edited(text, "target: rats#2, dice: [5], damage: 2}", "target: rats#2, dice: [4], damage: 2}")
    assert check(write(tmp_path, twin))[:2] == (0, [])      # the legal twin: 4 beats Dodge 3


# -- complete games ----------------------------------------------------------------------

@pytest.mark.parametrize("name,winner,won", [("win-2p.yaml", "players", 3), ("loss-3p.yaml", "enemies", 1),
                                             ("loss-3p.jsonl", "enemies", 1)])
def test_complete_games(name, winner, won):
    code, probs, final = check(EXAMPLES / name)
    assert (code, probs) == (0, []), probs
    assert final["winner"] == winner and final["battles_won"] == won
    if winner == "players":
        assert final["battles_won"] == final["battles_to_win"]
        assert all(p["health"] == 10 and not p["knocked_out"] for p in final["players"].values())
    else:
        assert all(p["knocked_out"] for p in final["players"].values())


def test_loss_ends_the_game(tmp_path):
    code, probs, final = check(write(tmp_path, LOSS))
    assert final["winner"] == "enemies" and final["battles_won"] == 0
    assert set(final["enemies_left"]) == {"steppons#1", "steppons#2", "steppons#3"}


def test_the_slips_example_reports_each_slip_at_its_line():
    path = EXAMPLES / "table-slips.yaml"
    text = path.read_text(encoding="utf-8")
    want = {("LB-ATK-1", "note", line_of(text, "target: rats#2")),
            ("LB-ATK-4", "error", line_of(text, "damage: 2")),
            ("LB-RND-1", "error", line_of(text, "round_end, round: 1")),
            ("LB-ATK-3", "error", line_of(text, "hit: true")),
            ("LB-LOOT-1", "error", line_of(text, "count: 3")),
            ("LB-EQUIP-1", "error", line_of(text, "card: shield_wooden"))}
    final = checklogs.assert_reports_exactly(GAME, path, want)
    assert final["battles_won"] == 1


def test_jsonl_example_matches_its_yaml_twin():
    y = EXAMPLES / "loss-3p.yaml"
    assert (EXAMPLES / "loss-3p.jsonl").read_text(encoding="utf-8") == to_jsonl(y.read_text(encoding="utf-8"))


def test_trace_shows_each_round_with_the_state(tmp_path):
    path = write(tmp_path, BASE)
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", GAME, str(path), "--trace"])
    assert res.exit_code == 0
    out = res.stdout
    assert "end of round 1 (Armor restored)" in out
    assert "players: ana HP 10/10 A 2 D 5 · bo HP 10/10 A 1 D 5" in out
    assert "enemies: rats#2 HP 1/1 A 0 D 4 →bo" in out
    assert "L12" in out and "ana → rats#1 with Melee class attack: [5] hits for 2" in out
    assert out.rstrip().splitlines()[-1].startswith("final: {")
    code, probs, final = check(path, "--trace")
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", GAME, str(path), "--trace", "--format", "json"])
    assert any("Battle 2: Lankies ×3" in ln for ln in json.loads(res.stdout)["trace"])


def test_final_state(tmp_path):
    code, probs, final = check(write(tmp_path, BASE))
    assert final["winner"] is None and final["battles_won"] == 1 and final["battles_to_win"] == 3
    assert final["leader"] == "bo"
    assert final["players"]["ana"]["equipment"] == ["sword_iron"]
    assert set(final["enemies_left"]) == {"lankies#1", "lankies#2"}


# -- hidden information ------------------------------------------------------------------

def test_unnamed_loot_is_counted_and_revealed_by_equip(tmp_path):
    text = BASE.replace("cards: [sword_iron, spell_heal_minor]}", "cards: [sword_iron]}")
    code, probs, _ = check(write(tmp_path, text))
    assert (code, probs) == (0, []), probs
    # an unnamed card revealed as a second copy of a card the deck holds once
    text = BASE.replace("cards: [sword_iron, spell_heal_minor]}\n  - {kind: equip, player: ana, card: sword_iron}\n"
                        "  - {kind: equip, player: bo, card: spell_heal_minor}",
                        "cards: [spell_fire_minor]}\n  - {kind: equip, player: bo, card: spell_fire_minor}\n"
                        "  - {kind: equip, player: ana, card: spell_fire_minor}")
    code, probs, _ = check(write(tmp_path, text))
    first = min(errors(probs), key=lambda p: p["line"])
    assert (first["rule"], first["line"]) == ("LB-LOOT-1", line_of(text, "player: ana, card: spell_fire_minor"))


def test_unnamed_discards_and_dice_left_out(tmp_path):
    text = BASE.replace("cards: [enc_lankies_3, enc_brutes_3, enc_growlers_4], ", "")
    text = text.replace("target: rats#3, dice: [3], hit: false", "target: rats#3, hit: false")
    code, probs, _ = check(write(tmp_path, text))
    assert (code, probs) == (0, []), probs
    # without dice, the stated hit must still be possible: 1d6 cannot beat Dodge 6
    text2 = text.replace("{kind: enemy_attack, enemy: lankies#1, dice: [6], dodge_left: 8}",
                         "{kind: enemy_attack, enemy: lankies#1, hit: true}")
    code, probs, _ = check(write(tmp_path, text2))
    assert ("LB-ATK-3", line_of(text2, "lankies#1, hit: true")) in [(p["rule"], p["line"]) for p in errors(probs)]


def test_starting_loot(tmp_path):
    text = TINY.replace("events:\n", "starting_loot: true\nevents:\n  - {kind: loot_drawn, count: 2}\n"
                        "  - {kind: equip, player: ana, card: shield_wooden}\n")
    code, probs, _ = check(write(tmp_path, text))
    assert (code, probs) == (0, []), probs
    text = TINY.replace("events:\n", "starting_loot: true\nevents:\n")
    code, probs, _ = check(write(tmp_path, text))
    assert [p["rule"] for p in errors(probs)] == ["LB-LOOT-1"]


# -- Unique loot (its numbers come from params.yaml 'unique_effects') -------------------------

UNIQUE_EFFECTS = """
unique_effects:
  sword_unique: {double_damage_at: 2}
  dagger_unique: {}
  bow_unique: {never_misses: true}
  armor_unique: {heal_per_round: 2}
  spell_unique: {heal_on_hit: 2}
  shield_unique: {reflect: 0.5}
"""


@pytest.fixture
def uniques_game(game_copy):
    g = game_copy(GAME)
    params = g.path("rules/loot_battles/params.yaml")
    text = params.read_text(encoding="utf-8")
    if "unique_effects:" not in text:
        params.write_text(text + UNIQUE_EFFECTS, encoding="utf-8")
    return g


def with_loot(*cards: tuple[str, str]) -> str:
    """TINY with a starting loot draw: (player, card) equipped before the first Battle."""
    head = f"starting_loot: true\nevents:\n  - {{kind: loot_drawn, count: 2, cards: [{', '.join(c for _, c in cards)}]}}\n"
    head += "".join(f"  - {{kind: equip, player: {p}, card: {c}}}\n" for p, c in cards)
    return TINY.replace("events:\n", head)


@pytest.mark.parametrize("dice,damage", [("[4, 4]", 12), ("[3, 2]", 7)])
def test_twinfang_doubles_at_twice_the_dodge(uniques_game, tmp_path, dice, damage):
    text = with_loot(("ana", "sword_unique"), ("bo", "shield_wooden"))
    text += f"  - {{kind: attack, player: ana, target: rats#1, dice: {dice}, damage: {damage}}}\n"
    code, probs, _ = check(write(tmp_path, text), root=uniques_game.root)
    assert (code, probs) == (0, []), probs


def test_skyreach_hits_twice_without_a_roll(uniques_game, tmp_path):
    text = with_loot(("bo", "bow_unique"), ("ana", "shield_wooden"))
    text += ("  - {kind: pass, player: ana}\n  - {kind: enemy_attack, enemy: rats#1, dice: [1]}\n"
             "  - {kind: enemy_attack, enemy: rats#3, dice: [1]}\n"
             "  - {kind: attack, player: bo, targets: [rats#2, rats#4], damage: 4}\n")
    code, probs, final = check(write(tmp_path, text), root=uniques_game.root)
    assert (code, probs) == (0, []), probs
    assert set(final["enemies_left"]) == {"rats#1", "rats#3"}


def test_troll_hide_heals_each_round_and_aegis_reflects(uniques_game, tmp_path):
    text = with_loot(("ana", "armor_unique"), ("bo", "shield_unique")).replace("enc_rats_4", "enc_steppons_3")
    text = text.replace("rolls: [1, 2, 3, 4]", "rolls: [1, 2, 3]")
    # ana: Armor 2 + 6, Dodge 5 − 3; a Steppon hits for 5: Armor 8 → 3, then 3 → 0 and Health 10 → 8
    text += ("  - {kind: pass, player: ana}\n"
             "  - {kind: enemy_attack, enemy: steppons#1, dice: [3, 3], armor_left: 3}\n"
             "  - {kind: enemy_attack, enemy: steppons#3, dice: [3, 3], hp_left: 8}\n"
             "  - {kind: pass, player: bo}\n"
             # bo: Armor 1 + 4, Dodge 7 − 2: the hit takes 5 Armor; the Aegis reflects 2 on Armor 2
             "  - {kind: enemy_attack, enemy: steppons#2, dice: [6, 6], armor_left: 0, hp_left: 10}\n"
             "  - {kind: round_end, state: {ana: {health: 10, armor: 8}, 'steppons#2': {armor: 2, health: 6}}}\n")
    code, probs, final = check(write(tmp_path, text), root=uniques_game.root)
    assert (code, probs) == (0, []), probs
    text2 = text.replace("'steppons#2': {armor: 2, health: 6}", "'steppons#2': {armor: 2, health: 5}")
    code, probs, _ = check(write(tmp_path, text2), root=uniques_game.root)
    assert [p["rule"] for p in errors(probs)] == ["LB-DMG-1"]


def test_emberheart_heals_on_a_hit(uniques_game, tmp_path):
    text = with_loot(("bo", "spell_unique"), ("ana", "shield_wooden"))
    # bo (Dodge 7 + 3) is hit by nothing; ana passes; bo hits rats#2 for 4 (+1 Ranged): Health stays full
    text += ("  - {kind: pass, player: ana}\n  - {kind: enemy_attack, enemy: rats#1, dice: [1]}\n"
             "  - {kind: enemy_attack, enemy: rats#3, dice: [1]}\n"
             "  - {kind: attack, player: bo, target: rats#2, dice: [3, 3], damage: 5, ko: true}\n")
    code, probs, final = check(write(tmp_path, text), root=uniques_game.root)
    assert (code, probs) == (0, []), probs


def test_a_unique_without_its_effect_parameters_is_a_clear_error(game_copy, tmp_path):
    g = game_copy(GAME)
    params = g.path("rules/loot_battles/params.yaml")
    params.write_text(params.read_text(encoding="utf-8").replace("unique_effects:", "unique_effects_old:"),
                      encoding="utf-8")
    text = with_loot(("ana", "sword_unique"), ("bo", "shield_wooden"))
    text += "  - {kind: attack, player: ana, target: rats#1, dice: [4, 4]}\n"
    code, probs, _ = check(write(tmp_path, text), root=g.root)
    assert code == 2
    assert probs[0]["rule"] == "LOG-GAME" and "unique_effects" in probs[0]["message"]


# -- unreadable logs: exit 2 with file:line ----------------------------------------------------

UNREADABLE = [
    ("bad YAML", "{kind: attack, player: ana, target: rats#1", "{kind: attack, player: ana: target: rats#1",
     "LOG-SYNTAX", "ana: target"),
    ("unknown kind", "{kind: attack, player: ana, target: rats#1", "{kind: atack, player: ana, target: rats#1",
     "LOG-EVENT", "atack"),
    ("missing field", "{kind: attack, player: ana, target: rats#1", "{kind: attack, target: rats#1", "LOG-FIELD",
     "{kind: attack, target"),
    ("another game", "game: loot_battles", "game: bone_wars", "LOG-GAME", "game:"),
    ("unknown player", "{kind: attack, player: ana, target: rats#1", "{kind: attack, player: ann, target: rats#1",
     "LOG-FIELD", "player: ann"),
    ("unknown enemy", "player: ana, target: rats#1,", "player: ana, target: rats#9,", "LOG-FIELD", "rats#9"),
    ("unknown card", "encounter: enc_rats_4", "encounter: enc_rat_4", "LOG-FIELD", "enc_rat_4"),
    ("wrong type", "target: rats#1, dice: [5]", "target: rats#1, dice: five", "LOG-TYPE", "dice: five"),
    ("unknown field", "target: rats#1, dice: [5]", "target: rats#1, dize: [5]", "LOG-FIELD", "dize"),
]


@pytest.mark.parametrize("what,old,new,rule,at", UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_unreadable_logs_exit_2_with_the_line(tmp_path, what, old, new, rule, at):
    checklogs.assert_unreadable_at(GAME, tmp_path, BASE, old, new, rule, at)


def test_unreadable_jsonl_names_its_line(tmp_path):
    lines = to_jsonl(BASE).splitlines()
    lines[5] = lines[5].replace('"kind": "attack"', '"kind": "atack"')
    code, probs, _ = check(write(tmp_path, "\n".join(lines) + "\n", "log.jsonl"))
    assert code == 2 and (probs[0]["rule"], probs[0]["line"]) == ("LOG-EVENT", 6)


# -- the engine as a state machine ------------------------------------------------------------

def replay_log(text: str, tmp: Path):
    """The engine after a log's events, and (kind, legal_next before it) for each."""
    return checklogs.replay_engine(Engine, load_game(ROOT, GAME, Problems()), GAME, write(tmp, text))


@pytest.mark.parametrize("name", ["BASE", "REINF", "LOSS", "win-2p.yaml", "loss-3p.yaml"])
def test_legal_next_allows_every_event_of_a_legal_log(tmp_path, name):
    text = BASES[name] if name in BASES else (EXAMPLES / name).read_text(encoding="utf-8")
    checklogs.assert_every_event_was_legal(replay_log(text, tmp_path)[1])


def test_legal_next_after_the_game_is_over(tmp_path):
    eng, _ = replay_log(LOSS, tmp_path)
    assert isinstance(eng, BaseEngine) and eng.state.is_terminal()
    assert eng.state.legal_actions() == [] and eng.state.chance_outcomes() == []


# -- properties ----------------------------------------------------------------------------------

cached_game = checklogs.cached_game_fixture(GAME)     # the game loaded once for the property tests


LEGAL_TEXTS = [BASE, REINF, LOSS, TINY, (EXAMPLES / "win-2p.yaml").read_text(encoding="utf-8"),
               (EXAMPLES / "table-slips.yaml").read_text(encoding="utf-8")]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(LEGAL_TEXTS) - 1), cut=st.floats(0, 1))
def test_a_prefix_of_a_legal_log_re_serialised_replays_the_same(cached_game, which, cut):
    """YAML → JSON Lines replays the same; and a legal log cut anywhere is still legal."""
    legal = which != len(LEGAL_TEXTS) - 1          # the slips example (the last) is not legal
    checklogs.assert_a_prefix_replays_the_same(GAME, LEGAL_TEXTS[which], cut, legal)


KINDS = list(Engine.EVENTS) + ["bogus"]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 12), st.sampled_from(
    ["ana", "bo", "cy", "rats#1", "rats#9", "3", "lankies#2", "sword_iron", "enc_rats_4", "bow_unique", "won", ""]),
    st.lists(st.integers(-1, 8), max_size=4), st.lists(st.sampled_from(["rats#1", "sword_iron", "x"]), max_size=3),
    st.dictionaries(st.sampled_from(["ana", "bo", "zed", "health"]), st.integers(0, 7), max_size=2))
FIELDS = sorted({f for spec in Engine.EVENTS.values() for f in spec} | {"kind", "bogus"})


mutated = partial(
    checklogs.mutated, LEGAL_TEXTS + [REINF], ["drop", "dup", "swap", "set", "del", "kind", "header", "expect"],
    values=VALUES, fields=FIELDS, kinds=KINDS,
    header=checklogs.set_header(["players", "leader", "battles_to_win", "starting_loot", "game"], VALUES),
    expect_keys=["winner", "battles_won", "players", "nope"])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=mutated(), form=st.sampled_from(["yaml", "jsonl"]), strict=st.booleans())
def test_the_checker_never_raises_on_fuzzed_logs(cached_game, doc, form, strict):
    checklogs.assert_the_checker_never_raises(GAME, doc, form, strict)


def test_a_reinforcement_keeps_health_and_dodge_but_restores_armor(tmp_path):
    head = REINF[: REINF.index("  # round 1: all three")]
    text = head + """\
  - {kind: attack, player: ana, target: rats#1, dice: [5], ko: true}
  - {kind: enemy_attack, enemy: rats#2, dice: [1], dodge_left: 4}
  - {kind: enemy_attack, enemy: rats#3, dice: [6], armor_left: 1}
  - {kind: attack, player: bo, target: rats#2, dice: [6], ko: true}
  - {kind: round_end, state: {ana: {armor: 2, dodge: 4}}}
  - {kind: attack, player: ana, target: rats#3, dice: [2], dodge_left: 3}
  - {kind: enemy_attack, enemy: rats#3, dice: [6], armor_left: 1}
  - {kind: attack, player: bo, target: rats#3, dice: [6], ko: true}
  - {kind: enemies_placed, rolls: [2, 2, 2, 2, 2, 2]}
expect:
  players: {ana: {health: 10, armor: 2, dodge: 4}, bo: {dodge: 7}}
  leader: bo
"""
    code, probs, final = check(write(tmp_path, text))
    assert (code, probs) == (0, []), probs
    code, probs, _ = check(write(tmp_path, text.replace("dodge: 4}, bo", "dodge: 5}, bo")))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("LB-ATK-3", line_of(text, "players: {ana"))]


@pytest.mark.parametrize("old,new,rule", [
    ("dodge_loss_on_miss: 1", "dodge_loss_on_miss: 2", "LB-ATK-3"),      # bo's miss leaves rats#3 at Dodge 2
    ("battles_to_win: {2: 3,", "battles_to_win: {2: 4,", "LB-SETUP-1"),   # the header's 3 Battles is wrong
    ("encounters_drawn: 3", "encounters_drawn: 2", "LB-SETUP-3"),         # bo draws 3 where 2 are drawn
])
def test_the_rules_numbers_come_from_params(game_copy, old, new, rule):
    g = game_copy(GAME)
    g.edit("rules/loot_battles/params.yaml", old, new)
    checklogs.assert_params_decide(GAME, g.root, BASE, rule)


# -- issue 20: Dodge restored between the Encounters of a Battle is LB-ENC-1 ----------------

# Rats ×3 +1: ana misses nothing, but rats#2 misses her once (Dodge 5 → 4); the reinforcement
# (6 rats, all in front of ana) starts with her Armor restored and her Dodge still 4.
REINF_DODGE = REINF[: REINF.index("  # round 1: all three")] + """\
  - {kind: attack, player: ana, target: rats#1, dice: [5], ko: true}
  - {kind: enemy_attack, enemy: rats#2, dice: [1], dodge_left: 4}
  - {kind: enemy_attack, enemy: rats#3, dice: [6], armor_left: 1}
  - {kind: attack, player: bo, target: rats#2, dice: [6], ko: true}
  - {kind: round_end, state: {ana: {armor: 2, dodge: 4}}}
  - {kind: attack, player: ana, target: rats#3, dice: [6], ko: true}
  # the reinforcement: bo leads; all six rats stand in front of ana
  - {kind: enemies_placed, rolls: [1, 1, 1, 1, 1, 1]}
  - {kind: attack, player: bo, target: rats#1, dice: [6], ko: true}
  - {kind: attack, player: ana, target: rats#2, dice: [6], ko: true}
  - {kind: enemy_attack, enemy: rats#3, dice: [1], dodge_left: 3}
  - {kind: enemy_attack, enemy: rats#4, dice: [4], hit: true, armor_left: 1}
"""


@pytest.mark.parametrize("old,good,bad,at", [
    # a miss: 4 − 1 = 3, not 5 − 1 = 4 as if her Dodge had been restored to 5
    ("dice: [1], dodge_left: 3}", "dice: [1], dodge_left: 3}", "dice: [1], dodge_left: 4}", "dodge_left: 4"),
    # a 4 beats her Dodge 3 (it would not beat a restored 5 − 1 = 4)
    ("dice: [4], hit: true,", "dice: [4], hit: true,", "dice: [4], hit: false,", "hit: false"),
    # the round's stated state
    ("  - {kind: enemy_attack, enemy: rats#4, dice: [4], hit: true, armor_left: 1}\n",
     "  - {kind: enemy_attack, enemy: rats#4, dice: [4], hit: true, armor_left: 1}\n",
     "  - {kind: enemy_attack, enemy: rats#4, dice: [4], hit: true, armor_left: 1}\n"
     "  - {kind: enemy_attack, enemy: rats#5, dice: [1]}\n  - {kind: enemy_attack, enemy: rats#6, dice: [1]}\n"
     "  - {kind: round_end, state: {ana: {dodge: 2}}}\n", "state: {ana: {dodge: 2}}"),
])
def test_dodge_restored_between_encounters_is_lb_enc_1(tmp_path, old, good, bad, at):
    checklogs.assert_break_and_twin(GAME, tmp_path, REINF_DODGE, "LB-ENC-1", old, good, bad, at)


def test_dodge_restored_is_one_problem(tmp_path):
    """The table's restored Dodge is followed after the slip: its later claims agree with it."""
    text, _ = edited(REINF_DODGE, "dice: [1], dodge_left: 3}", "dice: [1], dodge_left: 4}")
    text = text.replace("dice: [4], hit: true, armor_left: 1}", "dice: [4], hit: false, dodge_left: 3}")
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("LB-ENC-1", line_of(text, "rats#3, dice: [1], dodge_left: 4"))]


# -- issue 20: loot drawn after the final Battle (LB-LOOT-1 ruling: seed step 6 before 7) ---

WIN = (EXAMPLES / "win-2p.yaml").read_text(encoding="utf-8")
FINAL = "  - {kind: battle_end, result: won, battles_won: 3}\n"   # Battle 3 began with Rats ×3 +1: loot 3


@pytest.mark.parametrize("rule,good,bad,at", [
    ("LB-LOOT-1", "  - {kind: loot_drawn, count: 3, cards: [bow_short]}\n  - {kind: equip, player: bo, card: bow_short}\n",
     "  - {kind: loot_drawn, count: 4, cards: [bow_short]}\n", "count: 4"),
    ("LB-END-1", "  - {kind: loot_drawn, count: 3}\n",
     "  - {kind: loot_drawn, count: 3}\n  - {kind: pass, player: ana}\n", "pass, player: ana"),
    # the final Battle's Loot drawn in full, a second draw is after the end (unnamed: once an internal error)
    ("LB-END-1", "  - {kind: loot_drawn, count: 3, cards: [bow_short]}\n",
     "  - {kind: loot_drawn, count: 3, cards: [bow_short]}\n"
     "  - {kind: loot_drawn, count: 2, cards: [bow_short]}\n",
     "count: 2"),
    ("LB-END-1", "  - {kind: loot_drawn, count: 3}\n",
     "  - {kind: loot_drawn, count: 3}\n  - {kind: loot_drawn, count: 1, cards: [bow_short]}\n", "count: 1"),
])
def test_the_final_battles_loot_is_claimed(tmp_path, rule, good, bad, at):
    checklogs.assert_break_and_twin(GAME, tmp_path, WIN, rule, FINAL, FINAL + good, FINAL + bad, at)


def test_final_battle_loot_follows_its_param(game_copy):
    g = game_copy(GAME)
    g.edit("rules/loot_battles/params.yaml", "final_battle_loot: true", "final_battle_loot: false")
    text = WIN.replace(FINAL, FINAL + "  - {kind: loot_drawn, count: 3}\n")
    code, probs, _ = check(write(g.root, text, "log.yaml"), root=g.root)
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("LB-END-1", line_of(text, "loot_drawn, count: 3}"))]


def test_a_misspelt_class_is_unreadable_with_the_nearest(tmp_path):
    """Issue 20 item 4: 'rnaged' is a misspelling of ranged (exit 2, did you mean); 'wizard'
    is a class the game does not have (LB-SETUP-2, a rules slip)."""
    code, probs, _ = check(write(tmp_path, TINY.replace("{name: bo, class: ranged}", "{name: bo, class: rnaged}")))
    assert code == 2 and probs[0]["rule"] == "LOG-FIELD" and "ranged" in (probs[0].get("hint") or ""), probs
    assert probs[0]["line"] == line_of(TINY, "name: bo")


@pytest.mark.parametrize("numbers,bad", [
    ((2, 3), [2]),       # the log's numbering shifted by one slip: reported once, then followed
    ((2, 2), [2]),       # one mistyped number: reported once
])
def test_a_round_number_slip_is_one_problem(tmp_path, numbers, bad):
    text = BASE.replace("round_end, round: 1,", f"round_end, round: {numbers[0]},")
    text = text.replace("round_end, round: 2}", f"round_end, round: {numbers[1]}}}")
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == \
        [("LB-RND-1", line_of(text, f"round_end, round: {n},")) for n in bad]


def test_a_misspelt_required_header_key_gets_its_did_you_mean(tmp_path):
    """Issue 20 item 5: 'player:' is reported as unknown with 'players', not as 'players' missing."""
    code, probs, _ = check(write(tmp_path, TINY.replace("players:\n", "player:\n", 1)))
    assert code == 2 and "unknown header key 'player'" in probs[0]["message"], probs
    assert "players" in (probs[0].get("hint") or ""), probs


def test_events_after_the_end_are_one_problem(tmp_path):
    """The first event after the game's end is LB-END-1; the rest follow from it."""
    extra = ("  - {kind: pass, player: bo}\n  - {kind: encounter_drawn, pick: enc_lankies_3}\n"
             "  - {kind: enemies_placed, rolls: [1, 2, 3]}\n")
    text = WIN.replace(FINAL, FINAL + extra)
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("LB-END-1", line_of(text, "pass, player: bo}\n  - {kind: enc"))]


def test_a_second_turn_in_a_marked_round_is_one_problem(tmp_path):
    """The log marks round ends: ana acting twice in round 2 is one LB-RND-1, not an inferred
    round end that shifts every later round."""
    old = "  - {kind: attack, player: bo, target: rats#2, dice: [5], damage: 1, ko: true}\n"
    text = BASE.replace(old, old + "  - {kind: attack, player: ana, target: rats#4, dice: [1], hit: false}\n")
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == \
        [("LB-RND-1", line_of(text, "player: ana, target: rats#4, dice: [1]"))]


def test_a_log_with_no_players_is_one_setup_problem_and_no_replay(tmp_path):
    """``players: []`` (found by the fuzz): LB-SETUP-1 at the players line, and the events are
    not replayed — never an engine failure, never a problem per event."""
    head, rest = TINY.split("players:\n", 1)
    text = head + "players: []\n" + rest[rest.index("events:"):]
    code, probs, _ = check(write(tmp_path, text))
    assert code == 1
    assert [(p["rule"], p["line"]) for p in probs if p["severity"] == "error"] == \
        [("LB-SETUP-1", line_of(text, "players: []"))]

"""Bone Wars playtest checker (``cardgen check bone_wars``): every rule of Setup, Turn,
Attacking and defending and End (BW-SETUP-1…4, BW-TURN-1, BW-CREATE-1…6, BW-ATK-1…10,
BW-END-1, BW-END-2) broken by a minimal log and reported at the event's line, with its
legal twin; complete games to the end; JSON Lines; fuzzing; simulated games."""

from __future__ import annotations

import json
import random
from functools import partial
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.content.loader import load_game
from cardgen.content.playlog import read
from cardgen.core.problems import Problems
from cardgen.games.bone_wars import PACKAGE
from cardgen.games.bone_wars.contract import contract
from cardgen.games.bone_wars.vocab import CLAIM_KINDS, EVENTS
from cardgen.play.playout import play, random_agent
from cardgen.play.replay import StateReferee
from tests import checklogs
from tests.checklogs import dump, edit, to_jsonl, write
from tests.checklogs import ev as _ev
from tests.conftest import ROOT, run_cli

GAME = "bone_wars"
EXAMPLES = ROOT / "examples" / "logs" / "bone_wars"
GAMES = {"duel-2p.yaml": ("ana", {"ana": 7, "ben": 0}), "three-way-3p.yaml": ("ben", {"ana": -3, "ben": 1, "cy": -4}),
         "three-way-3p.jsonl": ("ben", {"ana": -3, "ben": 1, "cy": -4})}

# A 2-player opening with every card known: creates, adds, a replace, blocked and unblocked
# attacks, a tie, Intimidating, Vigilant, Flying against Reach, a declined block.
# Stats: skull_raptor 2/1/3/2 Haste · limbs_raptor 3/0/2/2 Haste · torso_stegosaur 1/3/1/4
# Intimidating · tail_thagomizer 1/3/2/2 Vigilant · limbs_pterosaur 1/1/2/2 Flying ·
# skull_dome 3/3/2/3 · limbs_therizino 2/1/3/2 Reach · torso_ankylosaur 0/5/0/5 Vigilant.
BASE = """\
game: bone_wars
rules_version: "1.0"
players: [ana, ben]
turn_order_rolls:
  - {ana: 15, ben: 4}
deals:
  ana: [skull_raptor, limbs_raptor, skull_dome, limbs_pterosaur, tail_club, torso_spino, skull_allosaur]
  ben: [torso_stegosaur, tail_thagomizer, skull_pteranodon, limbs_therizino, torso_ankylosaur, limbs_sauropod, tail_whip]
events:
  - {kind: draw, player: ana, card: skull_frill}
  - {kind: create, player: ana, card: skull_raptor, monster: Rex}
  - {kind: attack, player: ana, monster: Rex, target: ben}
  - {kind: block, player: ben, monster: none}
  - {kind: take_damage, player: ben, damage: 3, hp_left: 17}
  - {kind: draw, player: ben, card: tail_vane}
  - {kind: create, player: ben, card: torso_stegosaur, monster: Plates}
  - {kind: end_turn, player: ben, hp: {ana: 20, ben: 17}}
  - {kind: draw, player: ana}
  - {kind: add_part, player: ana, monster: Rex, card: limbs_raptor, stats: {str: 5, def: 1, atk: 5, hp: 4}, traits: [haste]}
  - {kind: attack, player: ana, monster: Rex, target: ben}
  - {kind: block, player: ben, monster: Plates}
  - {kind: roll, attacker: 10, blocker: 10}
  - {kind: damage, monster: Plates, amount: 2, hp_left: 2}
  - {kind: draw, player: ben}
  - {kind: add_part, player: ben, monster: Plates, card: tail_thagomizer}
  - {kind: attack, player: ben, monster: Plates, target: ana}
  - {kind: block, player: ana, monster: none}
  - {kind: roll, defender: 2}
  - {kind: damage, player: ana, amount: 3, hp_left: 17}
  - {kind: draw, player: ana}
  - {kind: create, player: ana, card: limbs_pterosaur, monster: Wings}
  - {kind: attack, player: ana, monster: Rex, target: ben}
  - {kind: block, player: ben, monster: Plates}
  - {kind: roll, attacker: 3, blocker: 15}
  - {kind: end_turn, player: ana}
  - {kind: draw, player: ben}
  - {kind: create, player: ben, card: limbs_therizino, monster: Scythe}
  - {kind: attack, player: ben, monster: Plates, target: ana}
  - {kind: block, player: ana, monster: none}
  - {kind: take_damage, player: ana, damage: 3, hp_left: 14}
  - {kind: draw, player: ana}
  - {kind: add_part, player: ana, monster: Wings, card: skull_dome}
  - {kind: attack, player: ana, monster: Wings, target: ben}
  - {kind: block, player: ben, monster: Scythe}
  - {kind: roll, attacker: 12, blocker: 2}
  - {kind: destroyed, monster: Scythe}
  - {kind: attack, player: ana, monster: Rex, target: ben}
  - {kind: block, player: ben, monster: none}
  - {kind: take_damage, player: ben, damage: 5, hp_left: 12}
  - {kind: draw, player: ben}
  - {kind: replace_part, player: ben, monster: Plates, card: torso_ankylosaur, replaces: torso_stegosaur}
  - {kind: end_turn, player: ben, hp: {ana: 14, ben: 12}}
expect:
  winner: null
  hp: {ana: 14, ben: 12}
"""

# A short game to the end: 4 HP each (a deliberate house rule, allowed), Trample, a
# declined block, the last elimination. tail_club 2/2/3/2 Trample · limbs_sauropod
# 3/2/1/4 Trample · torso_spino 2/2/2/5.
SHORT = """\
game: bone_wars
rules_version: "1.0"
players: [ana, ben]
turn_order_rolls:
  - {ana: 15, ben: 4}
starting_hp: 4
events:
  - {kind: draw, player: ana}
  - {kind: create, player: ana, card: tail_club, monster: Club}
  - {kind: draw, player: ben}
  - {kind: create, player: ben, card: skull_raptor, monster: Rex}
  - {kind: draw, player: ana}
  - {kind: add_part, player: ana, monster: Club, card: limbs_sauropod}
  - {kind: attack, player: ana, monster: Club, target: ben}
  - {kind: block, player: ben, monster: Rex}
  - {kind: roll, attacker: 10, blocker: 5}
  - {kind: damage, monster: Rex, amount: 4, hp_left: 0}
  - {kind: destroyed, monster: Rex}
  - {kind: damage, player: ben, amount: 2, hp_left: 2}
  - {kind: draw, player: ben}
  - {kind: create, player: ben, card: torso_spino, monster: Sail}
  - {kind: end_turn, player: ben, hp: {ana: 4, ben: 2}}
  - {kind: draw, player: ana}
  - {kind: attack, player: ana, monster: Club, target: ben}
  - {kind: block, player: ben, monster: none}
  - {kind: take_damage, player: ben, damage: 4, hp_left: -2}
  - {kind: eliminated, player: ben}
expect:
  winner: ana
  hp: {ana: 4, ben: -2}
allow:
  - {rule: BW-SETUP-4, reason: "a short test game: 4 HP each"}
"""

# Three players, hidden hands: a tie for the first turn re-rolled, then clockwise.
THREE = """\
game: bone_wars
rules_version: "1.0"
players: [ana, ben, cy]
turn_order_rolls:
  - {ana: 9, ben: 12, cy: 12}
  - {ben: 3, cy: 18}
events:
  - {kind: draw, player: cy}
  - {kind: draw, player: ana}
  - {kind: draw, player: ben}
  - {kind: draw, player: cy}
"""

# Three players, 2 HP each (allowed): ben is eliminated at once and skipped after.
SKIP = """\
game: bone_wars
rules_version: "1.0"
players: [ana, ben, cy]
turn_order_rolls:
  - {ana: 20, ben: 1, cy: 2}
starting_hp: 2
events:
  - {kind: draw, player: ana}
  - {kind: create, player: ana, card: skull_raptor, monster: Rex}
  - {kind: attack, player: ana, monster: Rex, target: ben}
  - {kind: take_damage, player: ben}
  - {kind: draw, player: cy}
  - {kind: draw, player: ana}
allow:
  - {rule: BW-SETUP-4, reason: "a short test game"}
"""

BASES = {"BASE": BASE, "SHORT": SHORT, "THREE": THREE, "SKIP": SKIP}


def check(tmp_path: Path, text: str, name: str = "log.yaml", *extra: str) -> tuple[int, list[dict], dict]:
    """Write the log and check it: exit code, problems, final state."""
    return checklogs.check(GAME, write(tmp_path, text, name), *extra)


# (rule, base, old, new, line of): each breaks one rule of the base log at one event.
CASES = [
    ("BW-SETUP-1", "THREE", "players: [ana, ben, cy]\n", "players: [ana, ben, cy, dee, eve]\n", None),
    ("BW-SETUP-2", "BASE", "ana: [skull_raptor, limbs_raptor, skull_dome, limbs_pterosaur, tail_club, torso_spino, "
     "skull_allosaur]", "ana: [skull_raptor, limbs_raptor, skull_dome, limbs_pterosaur, tail_club, torso_spino]", None),
    ("BW-SETUP-2", "BASE", "torso_spino, skull_allosaur]", "torso_spino, skull_tyrant, skull_tyrant]", None),
    ("BW-SETUP-3", "THREE", "  - {ben: 3, cy: 18}\n", "", "{ana: 9, ben: 12, cy: 12}"),
    ("BW-SETUP-3", "THREE", "  - {ben: 3, cy: 18}\n", "  - {ana: 1, ben: 3, cy: 18}\n", None),
    ("BW-SETUP-3", "THREE", "  - {ana: 9, ben: 12, cy: 12}\n", "  - {ana: 9, ben: 12, cy: 21}\n", None),
    ("BW-SETUP-3", "BASE", _ev("kind: draw, player: ana, card: skull_frill"),
     _ev("kind: draw, player: ben, card: skull_frill"), None),
    ("BW-SETUP-4", "BASE", "deals:\n", "starting_hp: 25\ndeals:\n", None),
    ("BW-TURN-1", "BASE", _ev("kind: draw, player: ben, card: tail_vane"), "",
     "kind: create, player: ben, card: torso_stegosaur"),
    ("BW-TURN-1", "BASE", _ev("kind: draw, player: ana, card: skull_frill"),
     _ev("kind: draw, player: ana, card: skull_frill") + _ev("kind: draw, player: ana"), "kind: draw, player: ana}"),
    ("BW-TURN-1", "THREE", _ev("kind: draw, player: ana"), _ev("kind: draw, player: ben"), None),
    ("BW-TURN-1", "SKIP", _ev("kind: draw, player: cy"), _ev("kind: draw, player: ben"), None),
    ("BW-CREATE-1", "BASE", _ev("kind: create, player: ana, card: skull_raptor, monster: Rex"),
     _ev("kind: create, player: ana, card: skull_raptor, monster: Rex")
     + _ev("kind: create, player: ana, card: skull_dome, monster: Dome"), "monster: Dome"),
    ("BW-CREATE-2", "BASE", _ev("kind: create, player: ana, card: skull_raptor, monster: Rex"),
     _ev("kind: create, player: ana, card: skull_pteranodon, monster: Rex"), None),
    ("BW-CREATE-2", "SHORT", "card: torso_spino, monster: Sail", "card: reference, monster: Sail", None),
    ("BW-CREATE-3", "BASE", "monster: Wings, card: skull_dome", "monster: Rex, card: skull_dome", None),
    ("BW-CREATE-3", "SHORT", "monster: Club, card: limbs_sauropod}",
     "monster: Club, card: limbs_sauropod}\n  - {kind: add_part, player: ana, monster: Club, card: torso_spino}"
     "\n  - {kind: add_part, player: ana, monster: Club, card: skull_dome}", "card: skull_dome"),
    ("BW-CREATE-4", "BASE", "card: torso_ankylosaur, replaces: torso_stegosaur",
     "card: limbs_sauropod, replaces: torso_stegosaur", None),
    ("BW-CREATE-4", "BASE", "card: torso_ankylosaur, replaces: torso_stegosaur", "card: torso_ankylosaur, "
     "replaces: torso_spino", None),
    ("BW-CREATE-5", "BASE", "stats: {str: 5, def: 1, atk: 5, hp: 4}", "stats: {str: 6, def: 1, atk: 5, hp: 4}", None),
    ("BW-CREATE-5", "BASE", "traits: [haste]", "traits: [haste, trample]", None),
    ("BW-CREATE-6", "BASE", "{kind: attack, player: ana, monster: Rex, target: ben}\n  - {kind: block, player: ben, "
     "monster: Plates}\n  - {kind: roll, attacker: 3, blocker: 15}",
     "{kind: attack, player: ana, monster: Wings, target: ben}\n  - {kind: block, player: ben, "
     "monster: none}\n  - {kind: roll, defender: 20}", None),
    ("BW-CREATE-6", "BASE", "replaces: torso_stegosaur}\n", "replaces: torso_stegosaur}\n"
     + _ev("kind: attack, player: ben, monster: Plates, target: ana") + _ev("kind: roll, defender: 20"),
     "kind: attack, player: ben, monster: Plates, target: ana}\n  - {kind: roll, defender: 20"),
    ("BW-ATK-1", "BASE", _ev("kind: damage, monster: Plates, amount: 2, hp_left: 2"),
     _ev("kind: damage, monster: Plates, amount: 2, hp_left: 2")
     + _ev("kind: create, player: ana, card: skull_allosaur, monster: Late"), "monster: Late"),
    ("BW-ATK-2", "BASE", _ev("kind: destroyed, monster: Scythe") + _ev("kind: attack, player: ana, monster: Rex, "
     "target: ben"), _ev("kind: destroyed, monster: Scythe") + _ev("kind: attack, player: ana, monster: Wings, "
     "target: ben"), "monster: Wings, target: ben}\n  - {kind: block, player: ben, monster: none"),
    ("BW-ATK-2", "BASE", "target: ben}\n  - {kind: block, player: ben, monster: Plates}\n  - {kind: roll, attacker: 10",
     "target: ana}\n  - {kind: block, player: ben, monster: Plates}\n  - {kind: roll, attacker: 10", None),
    ("BW-ATK-3", "BASE", "{kind: block, player: ben, monster: Plates}\n  - {kind: roll, attacker: 10",
     "{kind: block, player: ben, monster: Rex}\n  - {kind: roll, attacker: 10", None),
    ("BW-ATK-3", "BASE", _ev("kind: block, player: ben, monster: Scythe"), "", "kind: roll, attacker: 12"),
    ("BW-ATK-4", "BASE", _ev("kind: block, player: ana, monster: none") + _ev("kind: take_damage, player: ana, "
     "damage: 3, hp_left: 14"), _ev("kind: block, player: ana, monster: Wings") + _ev("kind: roll, attacker: 1, "
     "blocker: 20"), None),
    ("BW-ATK-5", "BASE", _ev("kind: block, player: ana, monster: none") + _ev("kind: roll, defender: 2")
     + _ev("kind: damage, player: ana, amount: 3, hp_left: 17"), _ev("kind: block, player: ana, monster: Rex")
     + _ev("kind: roll, attacker: 1, blocker: 20"), None),
    ("BW-ATK-6", "BASE", "{kind: roll, attacker: 10, blocker: 10}", "{kind: roll, attacker: 21, blocker: 10}", None),
    ("BW-ATK-6", "BASE", "{kind: roll, attacker: 10, blocker: 10}", "{kind: roll, attacker: 10}", None),
    ("BW-ATK-7", "BASE", "{kind: damage, monster: Plates, amount: 2, hp_left: 2}",
     "{kind: damage, monster: Plates, amount: 5, hp_left: 2}", None),
    ("BW-ATK-7", "BASE", "{kind: roll, attacker: 3, blocker: 15}",
     "{kind: roll, attacker: 3, blocker: 15}\n  - {kind: damage, monster: Plates, amount: 2}", "amount: 2}\n"
     "  - {kind: end_turn, player: ana}"),
    ("BW-ATK-8", "BASE", "{kind: destroyed, monster: Scythe}", "{kind: destroyed, monster: Plates}", None),
    ("BW-ATK-8", "BASE", "{kind: take_damage, player: ben, damage: 5, hp_left: 12}\n  - {kind: draw, player: ben}\n",
     "{kind: take_damage, player: ben, damage: 5, hp_left: 12}\n  - {kind: draw, player: ben}\n"
     "  - {kind: attack, player: ben, monster: Scythe, target: ana}\n", "monster: Scythe, target: ana"),
    ("BW-ATK-9", "SHORT", "{kind: damage, player: ben, amount: 2, hp_left: 2}",
     "{kind: damage, player: ben, amount: 4, hp_left: 0}", None),
    ("BW-ATK-10", "BASE", "{kind: take_damage, player: ben, damage: 5, hp_left: 12}",
     "{kind: roll, defender: 19}\n  - {kind: damage, player: ben, amount: 5, hp_left: 12}", None),
    ("BW-ATK-10", "BASE", "{kind: take_damage, player: ana, damage: 3, hp_left: 14}",
     "{kind: take_damage, player: ana, damage: 3, hp_left: 15}", None),
    ("BW-ATK-10", "BASE", "{kind: roll, defender: 2}\n  - {kind: damage, player: ana, amount: 3, hp_left: 17}",
     "{kind: roll, defender: 2}\n  - {kind: damage, player: ana, amount: 0, hp_left: 17}",
     "{kind: damage, player: ana, amount: 0"),
    ("BW-END-1", "SHORT", _ev("kind: damage, player: ben, amount: 2, hp_left: 2"),
     _ev("kind: damage, player: ben, amount: 2, hp_left: 2") + _ev("kind: eliminated, player: ben"),
     "kind: eliminated, player: ben}\n  - {kind: draw"),
    ("BW-END-1", "SHORT", "hp: {ana: 4, ben: -2}", "hp: {ana: 4, ben: 0}", None),
    ("BW-END-2", "SHORT", "{kind: eliminated, player: ben}\n", "{kind: eliminated, player: ben}\n"
     + _ev("kind: end_turn, player: ana"), "kind: end_turn, player: ana"),
    ("BW-END-2", "SHORT", "winner: ana", "winner: ben", None),
]


@pytest.mark.parametrize("name", sorted(BASES))
def test_legal_twins_pass(tmp_path, name):
    code, probs, final = check(tmp_path, BASES[name])
    checklogs.assert_legal(code, probs, notes=True)


@pytest.mark.parametrize("rule,base,old,new,at", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_broken_at_its_line(tmp_path, rule, base, old, new, at):
    checklogs.assert_broken_at(GAME, tmp_path, BASES[base], rule, old, new, at)


# --- a closer look at a few computations ------------------------------------------------

def test_combat_arithmetic_in_trace(tmp_path):
    code, out = run_cli("check", GAME, str(write(tmp_path, BASE)), "--trace")
    assert code == 0
    assert "Rex 10 + 5 − 2 (Intimidating) = 13 vs Plates 10 + 3 = 13: tie, half damage (5 ÷ 2, rounded down); " \
           "Plates takes 2 (2 of 4 HP left)" in out
    assert "Wings 12 + 4 = 16 vs Scythe 2 + 1 = 3: hit; Scythe takes 4 (0 of 2 HP left)" in out
    assert "ben does not block (could with Plates): takes the damage" in out
    assert "ana rolls 2 against Plates's Str 2: not higher" in out
    # the state after each turn: HP, hand, monsters with stats
    assert "after turn 4 (ben)" in out and "ana: 17 HP, hand 7" in out


def test_final_state_and_trample(tmp_path):
    code, probs, final = check(tmp_path, SHORT)
    assert code == 0, probs
    assert final["winner"] == "ana" and final["hp"] == {"ana": 4, "ben": -2}
    assert final["eliminated"] == ["ben"]
    assert final["players"]["ana"]["monsters"] == ["Club"]
    assert final["monsters"]["Rex"]["destroyed"] is True
    assert [p["rule"] for p in probs] == ["BW-SETUP-4"] and probs[0]["severity"] == "note"


def test_replaced_part_keeps_damage_and_is_discarded(tmp_path):
    _, _, final = check(tmp_path, BASE)
    plates = final["monsters"]["Plates"]
    assert plates["parts"] == ["torso_ankylosaur", "tail_thagomizer"]
    assert plates["damage"] == 2 and plates["hp"] == 5 and plates["def"] == 8


def test_recorded_values_are_kept_after_a_slip(tmp_path):
    """A wrong HP stated once is reported once; the log goes on from the recorded value."""
    text, line = edit(BASE, "{kind: take_damage, player: ben, damage: 3, hp_left: 17}",
                      "{kind: take_damage, player: ben, damage: 3, hp_left: 16}")
    text = text.replace("hp: {ana: 20, ben: 17}", "hp: {ana: 20, ben: 16}").replace("damage: 5, hp_left: 12}",
                                                                                   "damage: 5, hp_left: 11}")
    text = text.replace("hp: {ana: 14, ben: 12}", "hp: {ana: 14, ben: 11}").replace("ben: 12}\n", "ben: 11}\n")
    code, probs, final = check(tmp_path, text)
    assert [(p["rule"], p["line"]) for p in probs] == [("BW-ATK-10", line)]
    assert final["hp"]["ben"] == 11


def test_strict_stops_at_the_first(tmp_path):
    text, line = edit(BASE, "{kind: roll, attacker: 10, blocker: 10}", "{kind: roll, attacker: 0, blocker: 0}")
    checklogs.assert_strict_reports_one(GAME, write(tmp_path, text), line)


def test_allow_turns_a_violation_into_a_note(tmp_path):
    text, line = edit(BASE, _ev("kind: draw, player: ben, card: tail_vane"), "", "kind: create, player: ben")
    code, probs, _ = check(tmp_path, text + "allow:\n  - {rule: BW-TURN-1, reason: ben forgot to draw}\n")
    assert code == 0 and [(p["rule"], p["severity"], p["line"]) for p in probs] == [("BW-TURN-1", "note", line)]


def test_text_output_names_file_line_rule(tmp_path):
    text, line = edit(BASE, "{kind: roll, attacker: 10, blocker: 10}", "{kind: roll, attacker: 21, blocker: 10}")
    checklogs.assert_text_output_names_the_line(GAME, write(tmp_path, text), line,
                                                "BW-ATK-6 error: the attacker's d20 shows 21")


# --- complete games -------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_complete_games_end_with_the_right_winner(name):
    code, probs, final = checklogs.check(GAME, EXAMPLES / name)
    checklogs.assert_legal(code, probs)
    winner, hp = GAMES[name]
    assert final["winner"] == winner
    assert final["hp"] == hp


@pytest.mark.parametrize("name", ["duel-2p.yaml", "three-way-3p.yaml"])
def test_expect_of_the_complete_games_is_checked(tmp_path, name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    winner, _ = GAMES[name]
    other = next(p for p in GAMES[name][1] if p != winner)
    text, line = edit(text, f"winner: {winner}", f"winner: {other}")
    code, probs, _ = check(tmp_path, text)
    checklogs.assert_reported(code, probs, "BW-END-2", line)


def test_table_slips_example_reports_each_slip():
    # each slip is marked in the log by a comment naming its rule
    checklogs.assert_slips_are_marked(GAME, EXAMPLES / "table-slips.yaml", "# BW-", errors_only=True)


# --- unreadable logs: exit 2 with file:line, never a traceback ---------------------------------

@pytest.mark.parametrize("old,new,at,rule", [
    ("  - {kind: draw, player: ana, card: skull_frill}", "  - {kind: draw, player: ana, card: [skull_frill}", None,
     "LOG-SYNTAX"),
    ("{kind: draw, player: ben, card: tail_vane}", "{kind: drew, player: ben}", None, "LOG-EVENT"),
    ("{kind: draw, player: ben, card: tail_vane}", "{kind: draw}", None, "LOG-FIELD"),
    ("{kind: draw, player: ben, card: tail_vane}", "{kind: draw, player: bob}", None, "LOG-FIELD"),
    ("{kind: draw, player: ben, card: tail_vane}", "{kind: draw, player: ben, cards: 2}", None, "LOG-FIELD"),
    ("card: limbs_therizino, monster: Scythe", "card: limbs_terizino, monster: Scythe", None, "LOG-FIELD"),
    ("monster: Wings, target: ben", "monster: Wingz, target: ben", None, "LOG-FIELD"),
    ("{kind: roll, attacker: 10, blocker: 10}", "{kind: roll, attacker: ten, blocker: 10}", None, "LOG-TYPE"),
    ("game: bone_wars", "game: loot_battles", None, "LOG-GAME"),
    ("hp: {ana: 20, ben: 17}", "hp: {ana: x, ben: 17}", None, "LOG-TYPE"),     # a wrong type is LOG-TYPE (hostile input: typed before the engine)
])
def test_unreadable_logs_exit_2_with_line(tmp_path, old, new, at, rule):
    text, line = edit(BASE, old, new, at)
    checklogs.assert_exit_2_at(GAME, write(tmp_path, text), rule, line)


def test_unreadable_jsonl_line(tmp_path):
    lines = to_jsonl(BASE).splitlines()
    lines[4] = lines[4][:-3]
    p = write(tmp_path, "\n".join(lines) + "\n", "log.jsonl")
    code, out = run_cli("check", GAME, str(p), "--format", "json")
    prob = json.loads(out)["problems"][0]
    assert code == 2 and prob["rule"] == "LOG-SYNTAX" and prob["line"] == 5 and prob["file"].endswith("log.jsonl")


# --- JSON Lines, property tests ----------------------------------------------------------

LOGS = {"BASE": BASE, "SHORT": SHORT, "SKIP": SKIP,
        **{n: (EXAMPLES / n).read_text(encoding="utf-8") for n in ("duel-2p.yaml", "three-way-3p.yaml")},
        **{f"case{i}": edit(BASES[c[1]], c[2], c[3], c[4])[0] for i, c in enumerate(CASES) if c[1] != "THREE"}}

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(name=st.sampled_from(sorted(LOGS)), cut=st.integers(min_value=0, max_value=checklogs.CUT_MAX))
def test_yaml_and_jsonl_replay_identically(tmp_path, name, cut):
    """A log re-serialised as JSON Lines (whole, or cut after any event) replays identically."""
    checklogs.assert_yaml_and_jsonl_replay_identically(GAME, tmp_path, LOGS[name], cut)


LEGAL = ["BASE", "SHORT", "SKIP", "duel-2p.yaml", "three-way-3p.yaml"]


@FAST
@given(name=st.sampled_from(LEGAL), cut=st.floats(0, 1))
def test_a_legal_log_cut_anywhere_and_replayed_stays_legal(name, cut):
    """A legal log's events replayed (cut anywhere, as YAML and as JSON Lines) give a legal log."""
    checklogs.assert_a_prefix_replays_the_same(GAME, LOGS[name], cut, legal=True, messages=True)


_KINDS = sorted(EVENTS)
_VALUES = st.one_of(st.none(), st.integers(-3, 25), st.sampled_from(
    ["ana", "ben", "cy", "Rex", "Plates", "Wings", "none", "skull_raptor", "tail_club", "?", "", "x"]),
    st.booleans(), st.lists(st.integers(0, 3), max_size=2))


mutations = partial(
    checklogs.mutated, [LOGS[n] for n in ("BASE", "SHORT", "duel-2p.yaml")],
    ["drop", "dup", "swap_any", "field", "kind", "del", "header"], values=_VALUES, kinds=_KINDS,
    header=checklogs.set_header(["players", "turn_order_rolls", "deals", "starting_hp"],
                                st.one_of(_VALUES, st.just([{"ana": 3}]), st.just({"ana": 3}), st.just(["ana"]))))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=mutations(), jsonl=st.booleans())
def test_checker_never_raises_on_fuzzed_logs(tmp_path, doc, jsonl):
    code, probs, _ = checklogs.replay_in_form(GAME, tmp_path, doc, jsonl)
    assert code in (0, 1, 2)
    assert not any(p[0] == "CHECK-INTERNAL" for p in probs), probs


# --- the engine for programs: legal_next / legal_events --------------------------------------

_GAME = load_game(ROOT, GAME, Problems())


def simulate(seed: int, players: int) -> dict:
    """A game played by picking uniformly among the state's legal actions (dice and draws from
    its chance outcomes), every card dealt and drawn recorded: its log and result."""
    state = PACKAGE.new_state(_GAME, {"game": GAME, "players": ["ana", "ben", "cy", "dee"][:players]})
    assert play(state, random_agent, random.Random(seed), 20_000).finished
    doc = {"rules_version": "1.0", **state.log_header(), "events": state.log_events()}
    return {**doc, "_final": state.result()}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_simulated_games_from_legal_events_are_legal(tmp_path, seed, players):
    doc = simulate(seed, players)
    final = doc.pop("_final")
    path = write(tmp_path, dump(doc), "sim.yaml")
    code, probs, after = checklogs.replayed(GAME, path)
    assert code == 0, probs
    assert after == final


def _replayed(path: Path) -> tuple[StateReferee, list[tuple[str, set[str]]]]:
    """A log's events replayed over the contract; (kind, the kinds of the state's legal actions and
    chance outcomes before it) for each."""
    log = read(path)
    rules = contract(_GAME)
    ref = StateReferee(rules, log.header)
    seen = []
    for ev in log.events:
        s = ref.state
        seen.append((ev.kind, {a.kind for a in s.legal_actions()} | {a.kind for a, _ in s.chance_outcomes()}))
        assert not ref.event(ev.index, {"kind": ev.kind, **ev.fields}), ev
    return ref, seen


def test_the_legal_actions_follow_the_state(tmp_path):
    _ref, seen = _replayed(write(tmp_path, BASE))
    assert seen[0][1] == {"draw"}                                   # a turn starts with a draw
    assert "create" in seen[1][1] and "attack" not in seen[1][1]
    assert "attack" in seen[2][1] and "create" not in seen[2][1]    # Rex has Haste; the Creation Phase is over
    assert seen[3][1] == {"block"}                                  # ben answers: nothing can block, 'none'
    assert seen[4][1] == {"take_damage", "defend_roll"}             # unblocked: take it, or roll


@pytest.mark.parametrize("name", ["BASE", "SHORT", "THREE", "SKIP", "duel-2p.yaml", "three-way-3p.yaml"])
def test_every_event_of_a_legal_log_replays_legal(tmp_path, name):
    path = write(tmp_path, BASES[name]) if name in BASES else EXAMPLES / name
    ref, seen = _replayed(path)
    assert all(kind in CLAIM_KINDS or kind in legal or (kind == "roll" and "defend_roll" in legal)
               or (kind in ("roll", "take_damage") and "block" in legal) or (kind == "draw" and "end_turn" in legal)
               for kind, legal in seen), seen
    if name.endswith(".yaml") or name == "SHORT":
        assert ref.state.is_terminal() and ref.state.legal_actions() == []      # claims only, then nothing


# --- more checks ---------------------------------------------------------------------------

HIDDEN_COPIES = """\
game: bone_wars
players: [ana, ben]
turn_order_rolls:
  - {ana: 15, ben: 4}
events:
  - {kind: draw, player: ana}
  - {kind: create, player: ana, card: skull_tyrant, monster: King}
  - {kind: draw, player: ben}
  - {kind: create, player: ben, card: skull_spino, monster: Croc}
"""


def test_hidden_hands_cannot_play_more_copies_than_the_pile_holds(tmp_path):
    """Hands are hidden, but the pile holds one Tyrant King Skull: a second one is a slip."""
    code, probs, _ = check(tmp_path, HIDDEN_COPIES)
    assert code == 0, probs
    text, line = edit(HIDDEN_COPIES, "card: skull_spino, monster: Croc", "card: skull_tyrant, monster: Croc")
    code, probs, _ = check(tmp_path, text)
    checklogs.assert_reported(code, probs, "BW-CREATE-2", line)
    assert "the center pile holds 1" in probs[0]["message"]


def test_trace_shows_each_slip_where_it_happened():
    code, out = run_cli("check", GAME, str(EXAMPLES / "table-slips.yaml"), "--trace")
    assert code == 1
    lines = out.splitlines()
    i = next(i for i, ln in enumerate(lines) if "cy blocks with Jaws" in ln)
    assert "✗ BW-ATK-4 error" in lines[i + 1] and lines[i + 1].startswith(lines[i][:5])
    assert "after turn 6 (ben)" in out and "cy: 18 HP, hand 7" in out


@pytest.mark.parametrize("old,new,rule", [
    ("rounding: down", "rounding: up", "BW-ATK-7"),              # the tie gives 3, not 2
    ("intimidating_str_penalty: 2", "intimidating_str_penalty: 0", "BW-ATK-7"),   # then it is a hit for 5
    ("starting_hp: 20", "starting_hp: 25", "BW-ATK-10"),        # ben is left with 22, not 17
    ("hand_size: 7", "hand_size: 6", "BW-SETUP-2"),
])
def test_the_rules_numbers_come_from_params(game_copy, old, new, rule):
    g = game_copy(GAME)
    g.edit("rules/bone_wars/params.yaml", old, new)
    checklogs.assert_params_decide(GAME, g.root, BASE, rule)


# --- issue 20: one slip, one problem; the rule that was broken -----------------------------------

def test_an_edit_out_of_turn_is_one_create_1(tmp_path):
    """ben creates during ana's turn, then draws and plays his own turn: one BW-CREATE-1 (not a
    missing draw, a late draw and a second edit); the legal twin is BASE itself."""
    text, line = edit(BASE, _ev("kind: draw, player: ben, card: tail_vane"),
                      _ev("kind: create, player: ben, card: torso_ankylosaur, monster: Early")
                      + _ev("kind: draw, player: ben, card: tail_vane"))
    text = text.replace("expect:\n  winner: null\n  hp: {ana: 14, ben: 12}\n", "")
    checklogs.assert_reports_exactly(GAME, write(tmp_path, text), {("BW-CREATE-1", "error", line)})
    # ana's turn goes on after ben's slip: her next attack is hers, not an act out of turn
    first_attack = (_ev("kind: attack, player: ana, monster: Rex, target: ben") + _ev("kind: block, player: ben, "
                    "monster: none") + _ev("kind: take_damage, player: ben, damage: 3, hp_left: 17"))
    text, line = edit(BASE, first_attack,
                      _ev("kind: create, player: ben, card: torso_ankylosaur, monster: Early") + first_attack)
    text = text.replace("expect:\n  winner: null\n  hp: {ana: 14, ben: 12}\n", "")
    checklogs.assert_reports_exactly(GAME, write(tmp_path, text), {("BW-CREATE-1", "error", line)})


def test_a_forgotten_draw_is_still_turn_1(tmp_path):
    """ben's create with no draw, and ben goes on: his turn began without its draw (BW-TURN-1)."""
    text, line = edit(BASE, _ev("kind: draw, player: ben, card: tail_vane"), "",
                      "kind: create, player: ben, card: torso_stegosaur")
    checklogs.assert_reports_exactly(GAME, write(tmp_path, text), {("BW-TURN-1", "error", line)})


def test_a_forgotten_intimidating_penalty_is_atk_6(tmp_path):
    """Rex 10 + 5 against Plates 10 + 3 is a hit for 5 only without Plates's Intimidating −2:
    the rule broken is BW-ATK-6, with the arithmetic; the twin (the tie's 2) is BASE."""
    text, line = edit(BASE, "{kind: damage, monster: Plates, amount: 2, hp_left: 2}",
                      "{kind: damage, monster: Plates, amount: 5}")
    code, probs, _ = check(tmp_path, text)
    checklogs.assert_reported(code, probs, "BW-ATK-6", line)
    first = next(p for p in probs if p["line"] == line)
    assert "without Plates's Intimidating penalty (Rex 10 + 5 = 15 vs Plates 10 + 3 = 13: hit)" in first["message"]
    assert [p["rule"] for p in probs if p["line"] == line] == ["BW-ATK-6"]


def test_a_wrong_damage_and_hp_left_are_one_problem(tmp_path):
    text, line = edit(BASE, "{kind: damage, monster: Plates, amount: 2, hp_left: 2}",
                      "{kind: damage, monster: Plates, amount: 3, hp_left: 1}")
    code, probs, _ = check(tmp_path, text)
    assert [(p["rule"], p["line"]) for p in probs if p["severity"] == "error"][:1] == [("BW-ATK-7", line)]
    assert len([p for p in probs if p["line"] == line]) == 1
    assert "Rex 10 + 5 − 2 (Intimidating) = 13 vs Plates 10 + 3 = 13: tie" in probs[0]["message"]
    text, line = edit(BASE, "{kind: take_damage, player: ben, damage: 3, hp_left: 17}",
                      "{kind: take_damage, player: ben, damage: 4, hp_left: 16}")
    code, probs, _ = check(tmp_path, text.replace("ben: 17}", "ben: 16}").replace("ben: 12}", "ben: 11}")
                           .replace("hp_left: 12}", "hp_left: 11}"))
    assert [(p["rule"], p["line"]) for p in probs] == [("BW-ATK-10", line)], probs


def test_a_misspelt_header_key_is_named_not_the_key_it_hides(tmp_path):
    text, line = edit(BASE, "turn_order_rolls:", "turn_order_roll:")
    code, probs, _ = check(tmp_path, text)
    assert code == 2 and probs[0]["line"] == line and "turn_order_roll'" in probs[0]["message"], probs
    assert "did you mean 'turn_order_rolls'?" in probs[0]["hint"]


def test_an_attack_out_of_turn_is_one_problem(tmp_path):
    """ben attacks in the middle of ana's turn and ana goes on: one BW-TURN-1 at ben's attack (the
    turn stays ana's: no missing draw, no 'ana acts during ben's turn' after it)."""
    anchor = _ev("kind: create, player: ana, card: limbs_pterosaur, monster: Wings")
    text, line = edit(BASE, anchor, anchor + _ev("kind: attack, player: ben, monster: Plates, target: ana")
                      + _ev("kind: block, player: ana, monster: Rex") + _ev("kind: roll, attacker: 1, blocker: 20"),
                      "kind: attack, player: ben")
    text = text.replace("expect:\n  winner: null\n  hp: {ana: 14, ben: 12}\n", "")
    checklogs.assert_reports_exactly(GAME, write(tmp_path, text), {("BW-TURN-1", "error", line)})


def test_claims_after_events_past_the_end_are_end_2_not_unreadable(tmp_path):
    """After the end only the claims about the last blow may follow; a claim after a later event
    (about a monster made after the end) is BW-END-2 too, never exit 2."""
    text, line = edit(SHORT, "{kind: eliminated, player: ben}\n", "{kind: eliminated, player: ben}\n"
                      + _ev("kind: create, player: ana, card: skull_dome, monster: Late")
                      + _ev("kind: damage, monster: Late, amount: 1"), "monster: Late}")
    code, probs, final = check(tmp_path, text)
    assert code == 1 and final["winner"] == "ana", probs
    assert [(p["rule"], p["line"]) for p in probs if p["severity"] == "error"] == [("BW-END-2", line),
                                                                                  ("BW-END-2", line + 1)]


def test_a_wrong_player_hp_shows_the_arithmetic(tmp_path):
    text, line = edit(SHORT, "{kind: damage, player: ben, amount: 2, hp_left: 2}",
                      "{kind: damage, player: ben, amount: 2, hp_left: 1}")
    code, probs, _ = check(tmp_path, text)
    first = next(p for p in probs if p["severity"] == "error")
    assert (first["rule"], first["line"]) == ("BW-ATK-9", line), probs
    assert "(Club tramples: 4 damage − Rex's 2 HP left = 2; 4 − 2 = 2)" in first["message"]


def test_a_monster_laid_down_to_block_is_one_create_1(tmp_path):
    """ben lays a new monster down during ana's attack (outside his Creation Phase) and blocks:
    one BW-CREATE-1 at the create; the attack still awaits ben's answer (no BW-ATK-3, ATK-6 or
    ATK-10 cascade), and the new monster may block it. The legal twin is BASE."""
    block = _ev("kind: block, player: ben, monster: Plates") + _ev("kind: roll, attacker: 10, blocker: 10")
    for blocker in ("Plates", "Stomper"):
        new = (_ev("kind: create, player: ben, card: limbs_sauropod, monster: Stomper")
               + block.replace("monster: Plates", f"monster: {blocker}"))
        text, line = edit(BASE, block, new, "kind: create, player: ben")
        if blocker == "Stomper":        # Plates is not hit: the damage it took is not recorded
            text = text.replace(_ev("kind: damage, monster: Plates, amount: 2, hp_left: 2"), "")
        checklogs.assert_reports_exactly(GAME, write(tmp_path, text), {("BW-CREATE-1", "error", line)})


def test_an_hp_written_wrong_then_right_is_one_problem(tmp_path):
    """ben's HP left written 16 for 17, and the log goes on from 17: one BW-ATK-10 at the slip; the
    end of turn's 17 brings the replay back in step (no BW-ATK-10 there). The legal twin is BASE;
    a table that plays on from its 16 is one problem too (the replay applied it as recorded)."""
    slip = "{kind: take_damage, player: ben, damage: 3, hp_left: 16}"
    text, line = edit(BASE, "{kind: take_damage, player: ben, damage: 3, hp_left: 17}", slip)
    checklogs.assert_reports_exactly(GAME, write(tmp_path, text), {("BW-ATK-10", "error", line)})
    text = text.replace("ben: 17}}", "ben: 16}}").replace("hp_left: 12}", "hp_left: 11}").replace("ben: 12}", "ben: 11}")
    checklogs.assert_reports_exactly(GAME, write(tmp_path, text), {("BW-ATK-10", "error", line)})


def test_a_roll_left_out_is_atk_6_where_the_blow_is_stated(tmp_path):
    """The dice of a blocked attack forgotten, its damage stated: BW-ATK-6 at the damage's line
    (the event that shows the roll is missing), not a claim of the wrong damage alone."""
    text, line = edit(BASE, "  - {kind: roll, attacker: 10, blocker: 10}\n  - {kind: damage, monster: Plates, amount: 2, "
                      "hp_left: 2}\n", "  - {kind: damage, monster: Plates, amount: 2, hp_left: 2}\n")
    code, probs, _ = check(tmp_path, text)
    checklogs.assert_reported(code, probs, "BW-ATK-6", line)
    assert next(p for p in probs if p["severity"] == "error")["line"] == line
    assert "not recorded: a 'roll' with attacker and blocker" in probs[0]["message"]


@pytest.mark.parametrize("event,rule", [("{kind: roll, defender: 2}", "BW-ATK-6"),
                                        ("{kind: roll, attacker: 3, blocker: 15}", "BW-ATK-6")])
def test_a_roll_with_no_attack_is_atk_6_in_the_logs_words(tmp_path, event, rule):
    """A roll whose attack is not in the log: BW-ATK-6 naming the log's own event ('roll'), never
    an internal action."""
    text, line = edit(BASE, "  - {kind: draw, player: ana, card: skull_frill}\n",
                      f"  - {event}\n  - {{kind: draw, player: ana, card: skull_frill}}\n")
    code, probs, _ = check(tmp_path, text)
    first = next(p for p in probs if p["severity"] == "error")
    assert (first["rule"], first["line"]) == (rule, line) and first["message"] == "'roll' with no attack to answer"

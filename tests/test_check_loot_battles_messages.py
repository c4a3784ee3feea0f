"""Loot & Battles checker: the messages speak the designer's words — whose Dodge, Health or Armor,
the roll against the Dodge, the damage with its arithmetic, card names as printed — never a card
id or a Python value (issue 29: as informative as the old referee's)."""

from __future__ import annotations

import re

import pytest

from tests import checklogs
from tests.checklogs import edited, errors, write
from tests.test_check_loot_battles import BASES, CASES, GAME

#: an id the designer never wrote in a message's words (a quoted log field such as 'enemy_attack'
#: or a parenthesised log marker such as (round_end) is the log's own word, allowed)
ID = re.compile(r"(?<!['(])\b[a-z]+_[a-z0-9_]+\b(?!['\)])")
PYTHON = re.compile(r"\b(True|False|None)\b|\bleft is\b|the Battle is|one more|needs more")


def first_error(tmp_path, base: str, old: str, new: str) -> str:
    text, _ = edited(BASES[base], old, new)
    _code, probs, _ = checklogs.check(GAME, write(tmp_path, text))
    return str(errors(probs)[0]["message"])


@pytest.mark.parametrize("rule,base,old,good,bad,at", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_no_message_prints_an_id_or_a_python_value(tmp_path, rule, base, old, good, bad, at):
    text, _ = edited(BASES[base], old, bad)
    _code, probs, _ = checklogs.check(GAME, write(tmp_path, text))
    for p in probs:
        msg = str(p["message"])
        if p["rule"] == "LOG-FIELD" or msg.startswith("expect:"):
            continue  # the log's own names, the framework's expect comparison
        assert not ID.search(msg), msg
        assert not PYTHON.search(msg), msg


@pytest.mark.parametrize("base,old,new,want", [
    ("BASE", "dodge_left: 3}", "dodge_left: 4}",
     r"the log says \w+(#\d+)?'s Dodge is 4, but the rules give 3$"),
    ("BASE", "hit: true, damage: 1, armor_left: 1}", "hit: true, damage: 1, hp_left: 9}",
     r"the log says \w+(#\d+)?'s Health is 9, but the rules give \d+$"),
    ("BASE", "dice: [3], hit: false", "dice: [3], hit: true",
     r"^the log says the roll hits, but 3 does not beat \w+(#\d+)?'s Dodge( \d+)?$"),
    ("BASE", "hit: true, damage: 2,", "hit: true, damage: 3,",
     r"^the log says the damage is 3, but .+ \(.+\)$"),
    ("BASE", "dice: [5], hit: true", "dice: [7], hit: true",
     r"^a die of \w+(#\d+)? shows 7, but a d6 shows 1–6$"),
    ("BASE", "with: [sword_iron]", "with: [sword_steel]", r"^\w+ has no Steel Sword equipped$"),
    ("BASE", "  # round 1: bo leads",
     "  - {kind: unequip, player: ana, card: sword_steel}\n  # round 1: bo leads",
     r"^ana has no Steel Sword equipped$"),
    ("LOSS", "  - {kind: battle_end, result: lost", "  - {kind: battle_end, result: won",
     r"^the log says the result of Battle 1 is 'won', but the rules give 'lost'$"),
])
def test_the_old_referees_wording(tmp_path, base, old, new, want):
    assert re.search(want, first_error(tmp_path, base, old, new))


def test_equip_limits_name_the_cards(tmp_path):
    old = "[sword_iron, spell_heal_minor]}\n  - {kind: equip, player: ana, card: sword_iron}\n"
    new = ("[sword_iron, sword_bronze]}\n  - {kind: equip, player: ana, card: sword_iron}\n"
           "  - {kind: equip, player: ana, card: sword_bronze}\n")
    msg = first_error(tmp_path, "BASE", old, new)
    assert msg.endswith("ana would hold Iron Sword, Bronze Sword"), msg


def test_a_card_not_drawn_is_named_as_printed(tmp_path):
    old = "  - {kind: equip, player: ana, card: sword_iron}\n"
    msg = first_error(tmp_path, "BASE", old, "  - {kind: equip, player: ana, card: sword_steel}\n")
    assert msg == "no Steel Sword among the Loot drawn and not yet equipped", msg

"""The Biomechanic Dino Battles checker in the corners (issue 20): HP stated on any phase event,
the rule a card effect's source breaks, a paralysis slip that is a violation (not an unreadable
log), a broken deck file that stops the check, misspelt names in the header. Each breaking log
has its legal twin, and the problem is at the line of the slip."""

from __future__ import annotations

from functools import partial

import pytest

from tests import checklogs
from tests.checklogs import edited, errors, line_of
from tests.conftest import ROOT
from tests.test_check_dino_battles import ABIL, BASE, INS_END, SETUP

GAME = "dino_battles"
cached_game = checklogs.cached_game_fixture(GAME, autouse=True)
check = partial(checklogs.check, GAME)
write = checklogs.write


def _body(text: str) -> str:
    return text[: text.index("expect:")] if "expect:" in text else text


# -- HP stated on any phase event (the event reference: "stated: HP afterwards … (checked)") ----------

@pytest.mark.parametrize("old,good,bad,rule", [
    # the Dilo-Drone's HP last changed in the Defend exchange: 36 − 1 = 35
    ("{kind: phase, phase: postcombat_main, combat_end: decks_empty}",
     "{kind: phase, phase: postcombat_main, combat_end: decks_empty, hp: {ana: 35}}",
     "{kind: phase, phase: postcombat_main, combat_end: decks_empty, hp: {ana: 34}}", "BDB-CMB-5"),
    # the Stego-Dynamo's HP last changed in the Counterattack: 75 − 10 = 65
    ("{kind: phase, phase: end}", "{kind: phase, phase: end, hp: {bo: 65}}",
     "{kind: phase, phase: end, hp: {bo: {stego_dynamo: 60}}}", "BDB-CMB-3"),
])
def test_hp_stated_on_any_phase_is_checked(tmp_path, old, good, bad, rule):
    text, _ = edited(ABIL, old, good)
    code, probs, final = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    text, _ = edited(ABIL, old, bad)
    # the log goes on from the HP it states (the Startup poison then takes 10 from 60)
    text = _body(text).replace("initiative: ana, hp: {bo: 55}}", "initiative: ana, hp: {bo: 50}}" if "60" in bad else
                               "initiative: ana, hp: {bo: 55}}")
    code, probs, _ = check(write(tmp_path, text))
    assert code == 1
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [(rule, line_of(text, bad))], probs
    assert f"last changed by {rule}" in errors(probs)[0]["message"]


def test_hp_stated_at_startup_is_still_the_poison_rule(tmp_path):
    text, _ = edited(ABIL, "initiative: ana, hp: {bo: 55}}", "initiative: ana, hp: {bo: 65}}")
    text = _body(text)
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-ABIL-2", line_of(text, "hp: {bo: 65}"))]


# -- a card effect citing a card never played breaks that card type's rule --------------------------

DRAW_PLAYED = INS_END + "  - {kind: action, player: ana, card: crowd_roar}\n  - {kind: draw, player: ana, count: 2, " \
    "source: crowd_roar, hand: 6}\n"
DRAW_UNPLAYED = INS_END + "  - {kind: draw, player: ana, count: 2, source: crowd_roar, hand: 7}\n"


def test_a_draw_citing_an_action_never_played_breaks_the_action_rule(tmp_path):
    text, _ = edited(BASE, INS_END, DRAW_PLAYED)
    code, probs, _ = check(write(tmp_path, _body(text)))
    assert (code, errors(probs)) == (0, []), probs
    text, _ = edited(BASE, INS_END, DRAW_UNPLAYED)
    code, probs, _ = check(write(tmp_path, _body(text)))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-ACT-1", line_of(text, "source: crowd_roar"))]
    assert "Crowd Roar" in errors(probs)[0]["message"]


def test_a_free_retreat_citing_an_action_never_played_breaks_the_action_rule(tmp_path):
    played = INS_END + "  - {kind: action, player: bo, card: emergency_retreat}\n" \
        "  - {kind: retreat, player: bo, to: bastion_trike, source: emergency_retreat, paid: 0}\n"
    text, _ = edited(BASE, INS_END, played)
    code, probs, _ = check(write(tmp_path, _body(text)))
    assert (code, errors(probs)) == (0, []), probs
    unplayed = INS_END + "  - {kind: retreat, player: bo, to: bastion_trike, source: emergency_retreat, paid: 0}\n"
    text, _ = edited(BASE, INS_END, unplayed)
    code, probs, _ = check(write(tmp_path, _body(text)))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-ACT-1", line_of(text, "source: emergency_retreat"))]


# -- acting while paralysed is a rules slip (exit 1), not an unreadable log ----------------------------

def test_a_paralysed_move_with_no_die_is_a_violation_not_an_unreadable_log(tmp_path):
    good = "  - {kind: attack, player: ana, paralyze_roll: 5}\n"
    code, probs, good_final = check(write(tmp_path, ABIL))
    assert (code, errors(probs)) == (0, []), probs
    text, _ = edited(ABIL, good, "  - {kind: attack, player: ana}\n")
    code, probs, final = check(write(tmp_path, text))
    assert code == 1
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-ABIL-1", line_of(text, "{kind: attack, player: "
                                                                                      "ana}"))], probs
    assert final == good_final          # the move fails as the log records it; the game goes on in step


def test_a_failed_paralysis_roll_for_a_dinosaur_that_is_not_paralysed(tmp_path):
    text, _ = edited(ABIL, "  - {kind: attack, player: ana, roll: 6, total: 10}\n",
                     "  - {kind: attack, player: ana, paralyze_roll: 3}\n")
    text = _body(text)
    code, probs, _ = check(write(tmp_path, text))
    assert code == 1
    hits = [(p["rule"], p["line"]) for p in errors(probs)]
    assert hits[0] == ("BDB-ABIL-1", line_of(text, "paralyze_roll: 3")), probs


# -- a broken deck file named by a log stops the check (exit 2), with no cascade ------------------------

@pytest.mark.parametrize("deck", [
    "deck:\n  name: Broken\n  cards: {razorclaw: 2, attack: [\n",          # bad YAML
    "party:\n  name: Not a deck\n",                                      # not a deck file
    "",                                                                  # empty
    "deck:\n  name: Typo\n  cards: {razorclaw: 2, atack: 10}\n",          # a misspelt card
    "deck:\n  name: Nothing\n  cards: 5\n",                                # cards of the wrong shape
])
def test_a_broken_deck_file_is_unreadable(tmp_path, deck):
    (tmp_path / "mine.yaml").write_text(deck, encoding="utf-8")
    text = SETUP.replace("{name: ana, deck: steel_jaws}", "{name: ana, deck: mine.yaml}")
    code, probs, final = check(write(tmp_path, text))
    assert code == 2 and final is None
    assert [(p["rule"], p["line"]) for p in probs] == [("LOG-FIELD", line_of(text, "{name: ana"))], probs
    assert "mine.yaml" in probs[0]["message"] and "cannot be read as a deck" in probs[0]["message"]
    if "atack" in deck:
        assert "'attack'" in probs[0]["hint"]


def test_a_deck_file_that_breaks_a_deck_rule_is_still_a_violation(tmp_path):
    (tmp_path / "mine.yaml").write_text("deck:\n  name: Small\n  cards: {razorclaw: 3, attack: 20}\n", encoding="utf-8")
    text = SETUP.replace("{name: ana, deck: steel_jaws}", "{name: ana, deck: mine.yaml}")
    code, probs, _ = check(write(tmp_path, text))
    assert code == 1 and "BDB-DECK-1" in {p["rule"] for p in errors(probs)}


# -- misspelt names in the header: exit 2 with the nearest match ------------------------------------

@pytest.mark.parametrize("ref,near", [
    ("cards/dino_battles/decks/iron_hurd.yaml", "cards/dino_battles/decks/iron_herd.yaml"),
    ("Iron Hurd", "iron_herd"),
    ("steel_jaw", "steel_jaws"),
])
def test_a_misspelt_deck_is_unreadable_with_the_nearest_match(tmp_path, ref, near):
    text = SETUP.replace("deck: cards/dino_battles/decks/iron_herd.yaml}", f"deck: '{ref}'}}")
    code, probs, _ = check(write(tmp_path, text))
    assert code == 2 and probs[0]["rule"] == "LOG-FIELD" and probs[0]["line"] == line_of(text, f"deck: '{ref}'")
    assert f"'{near}'" in probs[0].get("hint", ""), probs


def test_a_card_by_its_name_or_id_in_any_case(tmp_path):
    text, _ = edited(BASE, "{kind: item, player: ana, card: med_gel}", "{kind: item, player: ana, card: med-gel canister}")
    code, probs, _ = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    text, _ = edited(BASE, "{kind: item, player: ana, card: med_gel}", "{kind: item, player: ana, card: med_gell}")
    code, probs, _ = check(write(tmp_path, text))
    assert code == 2 and "'med_gel'" in probs[0].get("hint", "") and probs[0]["hint"].count("med_gel") == 1


# -- one slip, one problem: the turn numbers the log states keep the replay in step -----------------

def test_a_turn_numbering_slip_is_one_problem(tmp_path):
    text = (ROOT / "examples" / "logs" / GAME / "ko-win.yaml").read_text(encoding="utf-8")
    for n in range(11, 2, -1):               # the table skipped a number: 1, 2, 4, 5, …
        text = text.replace(f"turn: {n}, initiative", f"turn: {n + 1}, initiative")
    code, probs, final = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-TURN-1", line_of(text, "turn: 4, initiative"))]
    assert final["winner"] == "ana" and final["turn"] == 12


def test_naming_a_knocked_out_dinosaur_is_a_violation_not_an_unreadable_log(tmp_path):
    text = (ROOT / "examples" / "logs" / GAME / "ko-win.yaml").read_text(encoding="utf-8")
    bad, _ = edited(text, "card: armor_spikes, dino: bastion_trike}", "card: armor_spikes, dino: ankylo_tank}")
    code, probs, final = check(write(tmp_path, bad))
    assert code == 1 and final is not None
    first = errors(probs)[0]
    assert (first["rule"], first["line"]) == ("BDB-MAIN-2", line_of(bad, "dino: ankylo_tank}")), probs
    assert "knocked out" in first["message"]
    # a Dinosaur never in play stays unreadable (exit 2)
    never, _ = edited(text, "card: armor_spikes, dino: bastion_trike}", "card: armor_spikes, dino: para_siren}")
    code, probs, _ = check(write(tmp_path, never))
    assert code == 2 and probs[0]["rule"] == "LOG-FIELD"


# -- the Startup loss taken at the wrong step (issue 33) ------------------------------------------

@pytest.mark.parametrize("phase", ["end", "postcombat_main, combat_end: decks_empty"])
def test_poison_taken_at_the_wrong_step_is_one_abil_2(tmp_path, phase):
    """The poisoned Stego-Dynamo (65 HP) loses its 10 in the End phase instead of at the next Startup:
    one BDB-ABIL-2 at that line (not the rule of its last HP change, BDB-CMB-3); applied as recorded,
    the Startup does not take it again, so the Startup's stated 55 is no second problem. Its legal
    twin states 65 there; an HP off by any other amount is still the last change's rule."""
    old = "{kind: phase, phase: " + phase + "}"
    text, _ = edited(ABIL, old, old[:-1] + ", hp: {bo: 65}}")
    code, probs, _ = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    bad = old[:-1] + ", hp: {bo: 55}}"
    text, _ = edited(ABIL, old, bad)
    code, probs, final = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-ABIL-2", line_of(text, bad))], probs
    assert final is not None and final["players"]["bo"]["hp"]["stego_dynamo"] == 55
    text, _ = edited(ABIL, old, old[:-1] + ", hp: {bo: 57}}")
    code, probs, _ = check(write(tmp_path, _body(text)))
    assert errors(probs)[0]["rule"] == "BDB-CMB-3", probs


def test_a_total_written_wrong_is_one_problem(tmp_path):
    """ana's ATK total written 11 for 10, and the counterattack's HP from the right total: one
    BDB-CMB-3 at the total (not a second one at the HP); a table that plays on from its 11
    (bo's Stego-Dynamo at 64) is one problem too. The legal twin is ABIL itself."""
    old = "{kind: attack, player: ana, roll: 6, total: 10}"
    bad = old.replace("total: 10", "total: 11")
    text, _ = edited(ABIL, old, bad)
    for t in (text, text.replace("hp: {ana: 36, bo: 65}", "hp: {ana: 36, bo: 64}")
              .replace("hp: {bo: 55}", "hp: {bo: 54}")):
        code, probs, _ = check(write(tmp_path, _body(t)))
        assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-CMB-3", line_of(t, bad))], probs

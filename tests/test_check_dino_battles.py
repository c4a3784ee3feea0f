"""The Biomechanic Dino Battles playtest checker: every rule in scope broken at its line, with its
legal twin; the decks named in the header; complete games to the end; hidden cards; unreadable
logs; the engine as a state machine; replay properties."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.cli import main
from cardgen.games.dino_battles import PACKAGE
from cardgen.games.dino_battles.contract import DinoRules
from cardgen.games.dino_battles.vocab import EVENTS
from tests import checklogs, playkit
from tests.checklogs import edited, errors, line_of, to_jsonl
from tests.conftest import ROOT, GameCopy

GAME = "dino_battles"
EXAMPLES = ROOT / "examples" / "logs" / GAME

# -- base logs (every number worked out in the comments) ------------------------------------
# Cards: Chainsaw Rex ATK 8 EVA 2 DEF 5 HP 90, Wound 1, Retreat Cost 3; Bastion Trike ATK 6
# EVA 2 DEF 7 HP 85, Spiked 1, Retreat Cost 3; Stego-Dynamo ATK 5 EVA 2 DEF 6 HP 75, Paralyze,
# Spiked 2; Dilo-Drone ATK 4 EVA 5 DEF 3 HP 45, Poisonous 2; Ptera-Drone ATK 4 EVA 7 HP 35;
# Servo Runner EVA 8 HP 35, Camouflaged. Armor Spikes: DEF +1, Spiked 1.

BASE = """\
game: dino_battles
rules_version: "1.0"
players:
  - {name: ana, deck: steel_jaws}
  - {name: bo, deck: iron_herd}
events:
  - {kind: initiative_roll, roll: 4, holder: ana}
  - {kind: draw, player: ana, cards: [chainsaw_rex, razorclaw, attack, attack, evade, med_gel]}
  - {kind: draw, player: bo, cards: [bastion_trike, stego_dynamo, defend, defend, attack, armor_spikes]}
  - {kind: comp_cards, player: ana, count: 4}
  - {kind: comp_cards, player: bo}
  - {kind: place, player: ana, active: chainsaw_rex, bench: [razorclaw]}
  - {kind: place, player: bo, active: bastion_trike, bench: [stego_dynamo]}
  # turn 1: the token stays with ana
  - {kind: phase, phase: startup, turn: 1, initiative: ana}
  - {kind: phase, phase: precombat_main}
  - {kind: combat_to_deck, player: ana, cards: [attack, attack, evade]}
  - {kind: item, player: ana, card: med_gel}
  - {kind: upgrade, player: bo, card: armor_spikes, dino: stego_dynamo}
  - {kind: combat_to_deck, player: bo, cards: [defend, defend, attack]}
  - {kind: phase, phase: combat}
  # EVA 2 against 2: the Initiative holder ana has the first move
  - {kind: first_move, player: ana}
  - {kind: attack, player: ana, cards: [attack], roll: 5, total: 13}
  # DEF 7 + 3 = 10: the Trike loses 13 - 10 = 3 (85 → 82) and a Wound token; its spikes cost the Rex 1
  - {kind: defend, player: bo, roll: 3, total: 10, damage: {bo: 3, ana: 1}, hp: {ana: 89, bo: 82}}
  # the first move alternates: bo. ATK 6 + 6 = 12 against 8 + 2 = 10; spikes 1 again; Wound token 2
  - {kind: attack, player: bo, roll: 6, total: 12}
  - {kind: counterattack, player: ana, roll: 2, total: 10, hp: {ana: 76, bo: 72}}
  # ana has only an Evade left, bo a Defend: nobody can attack
  - {kind: pass, player: ana}
  - {kind: pass, player: bo}
  - {kind: phase, phase: postcombat_main, combat_end: agreed}
  - {kind: phase, phase: end}
  - {kind: draw, player: ana, count: 6, hand: 6, deck_left: 44}
  - {kind: draw, player: bo, count: 6, deck_left: 44}
  # turn 2: the token passes to bo; the Trike's 2 Wound tokens cost it 10 HP
  - {kind: phase, phase: startup, turn: 2, initiative: bo, hp: {bo: {bastion_trike: 62, stego_dynamo: 75}}}
  - {kind: phase, phase: precombat_main}
  - {kind: upgrade, player: bo, card: titanium_plating, dino: stego_dynamo}
  - {kind: retreat, player: bo, to: stego_dynamo, paid: 3}
  - {kind: bench, player: ana, dino: razorclaw}
expect:
  winner: null
  kos: {ana: 0, bo: 0}
  players:
    ana: {hand: 5, deck: 44, items: 1, hp: {chainsaw_rex: 76, razorclaw: 40, 'razorclaw#2': 40}}
    bo: {active: stego_dynamo, hand: 2, deck: 44, combat_deck: {attack: 0, evade: 0, defend: 1}}
"""

# Setup only: new hands (6, 6, 5), a free one for a hand without a Dinosaur, hidden cards.
SETUP = """\
game: dino_battles
rules_version: "1.0"
players:
  - {name: ana, deck: steel_jaws}
  - {name: bo, deck: cards/dino_battles/decks/iron_herd.yaml}
events:
  - {kind: initiative_roll, roll: 3, holder: bo}
  - {kind: draw, player: ana}
  - {kind: new_hand, player: ana, count: 6}
  - {kind: new_hand, player: ana, count: 5, hand: 5, deck_left: 55}
  - {kind: draw, player: bo, cards: [attack, defend, evade, attack, defend, field_medic]}
  - {kind: new_hand, player: bo, no_dinosaur: true, cards: [bastion_trike, pachy_ram, attack, defend, evade, emp_grenade]}
  - {kind: comp_cards, player: ana}
  - {kind: comp_cards, player: bo}
  - {kind: place, player: ana, active: razorclaw, bench: [razorclaw, chainsaw_rex]}
  - {kind: place, player: bo, active: pachy_ram, bench: [bastion_trike]}
  - {kind: phase, phase: startup, initiative: bo}
expect:
  players:
    ana: {hand: 2, deck: 51, active: razorclaw, bench: ['razorclaw#2', chainsaw_rex]}
    bo: {hand: 4, deck: 50}
"""

# Abilities: Poisonous, Paralyze, Spiked; an Evade that takes the initiative; both decks run empty.
ABIL = """\
game: dino_battles
rules_version: "1.0"
players:
  - {name: ana, deck: steel_jaws}
  - {name: bo, deck: iron_herd}
events:
  - {kind: initiative_roll, roll: 1, holder: bo}
  - {kind: draw, player: ana, cards: [dilo_drone, chainsaw_rex, attack, attack, evade, defend]}
  - {kind: draw, player: bo, cards: [stego_dynamo, attack, attack, attack, defend, field_medic]}
  - {kind: comp_cards, player: ana}
  - {kind: comp_cards, player: bo}
  - {kind: place, player: ana, active: dilo_drone, bench: [chainsaw_rex]}
  - {kind: place, player: bo, active: stego_dynamo}
  - {kind: phase, phase: startup, turn: 1, initiative: bo}
  - {kind: phase, phase: precombat_main}
  - {kind: combat_to_deck, player: bo, cards: [attack, attack, attack]}
  - {kind: combat_to_deck, player: ana, cards: [attack, attack, evade, defend]}
  - {kind: phase, phase: combat}
  # Dilo-Drone EVA 5 against 2: ana moves first. 4 + 6 = 10 against 5 + 2 = 7:
  # Stego 75 → 65, poisoned 2 turns; Dilo 45 → 38 → 36 (Spiked 2), paralyzed
  - {kind: first_move, player: ana}
  - {kind: attack, player: ana, roll: 6, total: 10}
  - {kind: counterattack, player: bo, roll: 2, total: 7, hp: {ana: 36, bo: 65}}
  # bo's move: 5 + 3 = 8; the paralyzed Dilo-Drone rolls 2 (even) and evades with 5 + 4 = 9
  - {kind: attack, player: bo, roll: 3, total: 8}
  - {kind: evade, player: ana, paralyze_roll: 2, roll: 4, total: 9, hp: {ana: 36}}
  # the evade gives ana the next first move; the paralysis roll fails (5, odd): the cards are spent
  - {kind: attack, player: ana, paralyze_roll: 5}
  # a failed move is a pass: bo attacks, 5 + 1 = 6 against DEF 3 + 2 = 5: the Dilo-Drone loses 1
  - {kind: attack, player: bo, roll: 1}
  - {kind: defend, player: ana, paralyze_roll: 4, roll: 2, total: 5, damage: {ana: 1}, hp: {ana: 35}}
  - {kind: phase, phase: postcombat_main, combat_end: decks_empty}
  - {kind: phase, phase: end}
  - {kind: draw, player: bo, count: 4}
  - {kind: draw, player: ana, count: 6}
  # turn 2: the token passes to ana; the poisoned Stego-Dynamo loses 10
  - {kind: phase, phase: startup, turn: 2, initiative: ana, hp: {bo: 55}}
expect:
  players:
    ana: {hp: {dilo_drone: 35, chainsaw_rex: 90}}
    bo: {hp: {stego_dynamo: 55}}
"""

# A knock-out: bo's only Dinosaur falls, bo has none left and loses (BDB-END-2).
KO = """\
game: dino_battles
rules_version: "1.0"
players:
  - {name: ana, deck: steel_jaws}
  - {name: bo, deck: iron_herd}
events:
  - {kind: initiative_roll, roll: 2}
  - {kind: draw, player: ana, cards: [chainsaw_rex, attack, attack, attack, defend, crowd_roar]}
  - {kind: draw, player: bo}
  - {kind: comp_cards, player: ana}
  - {kind: comp_cards, player: bo}
  - {kind: place, player: ana, active: chainsaw_rex}
  - {kind: place, player: bo, active: ptera_drone}
  - {kind: phase, phase: startup}
  - {kind: phase, phase: precombat_main}
  - {kind: combat_to_deck, player: ana, cards: [attack, attack, attack]}
  - {kind: phase, phase: combat}
  # Ptera-Drone EVA 7 against 2: bo has the first move, and an empty Combat Deck
  - {kind: pass, player: bo}
  - {kind: attack, player: ana, roll: 6}
  - {kind: no_answer, player: bo, hp: {bo: 21}}
  - {kind: attack, player: ana, roll: 6}
  - {kind: no_answer, hp: {bo: 7}}
  - {kind: pass, player: bo}
  - {kind: attack, player: ana, roll: 4, total: 12}
  - {kind: no_answer, hp: {bo: -5}}
  - {kind: knock_out, player: bo, dino: ptera_drone, comp_cards: 2}
expect:
  winner: ana
  ended_by: no_dinosaurs
  kos: {ana: 1, bo: 0}
"""

# Camouflaged (ruling BDB-ABIL-3): bo's EMP Grenade may not pick ana's Scrap Compy; it may pick
# her Razorclaw.
CAMO = """\
game: dino_battles
rules_version: "1.0"
players:
  - {name: ana, deck: steel_jaws}
  - {name: bo, deck: iron_herd}
events:
  - {kind: initiative_roll, roll: 6}
  - {kind: draw, player: ana, cards: [chainsaw_rex, scrap_compy, razorclaw, hydraulic_jaw_kit, overclocked_servos, attack]}
  - {kind: draw, player: bo, cards: [bastion_trike, emp_grenade, attack, evade, defend, titanium_plating]}
  - {kind: comp_cards, player: ana}
  - {kind: comp_cards, player: bo}
  - {kind: place, player: ana, active: chainsaw_rex, bench: [scrap_compy, razorclaw]}
  - {kind: place, player: bo, active: bastion_trike}
  - {kind: phase, phase: startup}
  - {kind: phase, phase: precombat_main}
  - {kind: upgrade, player: ana, card: hydraulic_jaw_kit, dino: scrap_compy}
  - {kind: upgrade, player: ana, card: overclocked_servos, dino: razorclaw}
  - {kind: item, player: bo, card: emp_grenade}
  - {kind: use_item, player: bo, card: emp_grenade}
  - {kind: effect, player: ana, dino: razorclaw, source: emp_grenade, destroy_upgrade: overclocked_servos}
  - {kind: phase, phase: combat}
"""

# A deck runs out: two 12-card test decks (allowed); bo's runs out first with no K.O.s: bo loses.
MINI_DECK = "deck:\n  name: Mini\n  cards: {razorclaw: 2, attack: 6, defend: 4}\n"
DECKOUT = """\
game: dino_battles
rules_version: "1.0"
players:
  - {name: ana, deck: mini.yaml}
  - {name: bo, deck: mini.yaml}
events:
  - {kind: initiative_roll, roll: 2}
  - {kind: draw, player: ana}
  - {kind: draw, player: bo}
  - {kind: comp_cards, player: ana}
  - {kind: comp_cards, player: bo}
  - {kind: place, player: ana, active: razorclaw}
  - {kind: place, player: bo, active: razorclaw}
  - {kind: phase, phase: startup}
  - {kind: phase, phase: end}
  - {kind: draw, player: ana, count: 1, deck_left: 1}
  - {kind: draw, player: bo, count: 1}
  - {kind: phase, phase: startup, initiative: bo}
  - {kind: phase, phase: precombat_main}
  - {kind: combat_to_deck, player: bo, cards: [attack]}
  - {kind: phase, phase: end}
  - {kind: draw, player: bo, count: 1, deck_left: 0}
  - {kind: game_end, winner: ana, reason: deck_out}
allow:
  - {rule: BDB-DECK-1, reason: a 12-card test deck}
expect:
  winner: ana
  ended_by: deck_out
"""

BASES = {"BASE": BASE, "SETUP": SETUP, "ABIL": ABIL, "KO": KO, "CAMO": CAMO, "DECKOUT": DECKOUT}

# (rule, base, old, good, bad, at): `good` and `bad` replace `old`; the violation is expected
# on the line of the first `at` from the edit on ('^…': from the top). The good twin is legal.
INS_END = "  - {kind: bench, player: ana, dino: razorclaw}\n"
CASES = [
    # setup: the Initiative roll, two players
    ("BDB-SETUP-1", "BASE", "roll: 4, holder: ana", "roll: 4, holder: ana", "roll: 4, holder: bo", "holder: bo"),
    ("BDB-SETUP-1", "BASE", "roll: 4, holder: ana", "roll: 4, holder: ana", "roll: 7, holder: ana", "roll: 7"),
    ("BDB-SETUP-1", "SETUP", "  - {kind: initiative_roll, roll: 3, holder: bo}\n",
     "  - {kind: initiative_roll, roll: 3, holder: bo}\n", "", "phase: startup"),
    ("BDB-SETUP-1", "SETUP", "iron_herd.yaml}\n", "iron_herd.yaml}\n",
     "iron_herd.yaml}\n  - {name: cy, deck: steel_jaws}\n", "^{name: ana"),
    # the hand and new hands: 6, 6, 5, …; no penalty for a hand without a Dinosaur
    ("BDB-SETUP-2", "SETUP", "{kind: draw, player: ana}", "{kind: draw, player: ana}",
     "{kind: draw, player: ana, count: 7}", "count: 7"),
    ("BDB-SETUP-2", "SETUP", "new_hand, player: ana, count: 5,", "new_hand, player: ana, count: 5,",
     "new_hand, player: ana, count: 6,", "count: 6,"),
    ("BDB-SETUP-2", "SETUP", "[attack, defend, evade, attack, defend, field_medic]",
     "[attack, defend, evade, attack, defend, field_medic]", "[attack, defend, evade, pachy_ram, defend, field_medic]",
     "no_dinosaur"),
    ("BDB-SETUP-2", "SETUP", "  - {kind: comp_cards, player: ana}\n", "  - {kind: comp_cards, player: ana}\n",
     "  - {kind: comp_cards, player: ana}\n  - {kind: new_hand, player: ana, count: 4}\n", "new_hand, player: ana"),
    ("BDB-SETUP-2", "SETUP", "  - {kind: draw, player: bo, cards", "  - {kind: draw, player: bo, cards",
     "  - {kind: draw, player: ana}\n  - {kind: draw, player: bo, cards", "{kind: draw, player: ana}"),
    # Comp Cards
    ("BDB-SETUP-3", "SETUP", "{kind: comp_cards, player: ana}", "{kind: comp_cards, player: ana}",
     "{kind: comp_cards, player: ana, count: 3}", "count: 3"),
    ("BDB-SETUP-3", "SETUP", "  - {kind: comp_cards, player: bo}\n  - {kind: place, player: ana, active: razorclaw, "
     "bench: [razorclaw, chainsaw_rex]}\n  - {kind: place, player: bo, active: pachy_ram, bench: [bastion_trike]}\n",
     "  - {kind: comp_cards, player: bo}\n  - {kind: place, player: ana, active: razorclaw, bench: [razorclaw, "
     "chainsaw_rex]}\n  - {kind: place, player: bo, active: pachy_ram, bench: [bastion_trike]}\n",
     "  - {kind: place, player: ana, active: razorclaw, bench: [razorclaw, chainsaw_rex]}\n  - {kind: place, player: "
     "bo, active: pachy_ram, bench: [bastion_trike]}\n  - {kind: comp_cards, player: bo}\n", "place, player: bo"),
    # placing: one active, up to 3 benched, from hand
    ("BDB-SETUP-4", "SETUP", "bench: [razorclaw, chainsaw_rex]}", "bench: [razorclaw, chainsaw_rex]}",
     "bench: [razorclaw, chainsaw_rex, servo_allosaur, dilo_drone]}", "servo_allosaur, dilo"),
    ("BDB-SETUP-4", "BASE", "active: chainsaw_rex, bench: [razorclaw]}", "active: chainsaw_rex, bench: [razorclaw]}",
     "active: servo_allosaur, bench: [razorclaw]}", "servo_allosaur"),
    ("BDB-SETUP-4", "SETUP", "active: razorclaw, bench: [razorclaw, chainsaw_rex]}",
     "active: razorclaw, bench: [razorclaw, chainsaw_rex]}", "active: razorclaw, bench: [razorclaw, razorclaw, "
     "razorclaw]}", "bench: [razorclaw, razorclaw, razorclaw]"),
    # phases in order; the Initiative holder first within a phase
    ("BDB-TURN-1", "BASE", "  - {kind: phase, phase: postcombat_main, combat_end: agreed}\n  - {kind: phase, phase: end}\n",
     "  - {kind: phase, phase: postcombat_main, combat_end: agreed}\n  - {kind: phase, phase: end}\n",
     "  - {kind: phase, phase: postcombat_main, combat_end: agreed}\n  - {kind: phase, phase: combat}\n"
     "  - {kind: phase, phase: end}\n", "phase: combat}"),
    ("BDB-TURN-1", "BASE", "  - {kind: item, player: ana, card: med_gel}\n  - {kind: upgrade, player: bo, card: "
     "armor_spikes, dino: stego_dynamo}\n", "  - {kind: item, player: ana, card: med_gel}\n  - {kind: upgrade, player: "
     "bo, card: armor_spikes, dino: stego_dynamo}\n", "  - {kind: upgrade, player: bo, card: armor_spikes, dino: "
     "stego_dynamo}\n  - {kind: item, player: ana, card: med_gel}\n", "item, player: ana"),
    ("BDB-TURN-1", "BASE", "turn: 2, initiative: bo", "turn: 2, initiative: bo", "turn: 3, initiative: bo", "turn: 3"),
    ("BDB-TURN-1", "BASE", "  - {kind: phase, phase: combat}\n", "  - {kind: phase, phase: combat}\n",
     "  - {kind: attack, player: ana, roll: 2}\n  - {kind: phase, phase: combat}\n", "attack, player: ana, roll: 2"),
    ("BDB-TURN-1", "SETUP", "{kind: phase, phase: startup, initiative: bo}", "{kind: phase, phase: startup, "
     "initiative: bo}", "{kind: phase, phase: precombat_main, initiative: bo}", "phase: precombat_main"),
    # the Initiative token passes at each Startup but the first
    ("BDB-TURN-2", "BASE", "turn: 2, initiative: bo", "turn: 2, initiative: bo", "turn: 2, initiative: ana",
     "initiative: ana"),
    ("BDB-TURN-2", "BASE", "turn: 1, initiative: ana", "turn: 1, initiative: ana", "turn: 1, initiative: bo",
     "initiative: bo"),
    # Main phases only; bench of 3; Retreat Cost; cards from hand
    ("BDB-MAIN-1", "BASE", "  - {kind: draw, player: bo, count: 6, deck_left: 44}\n",
     "  - {kind: draw, player: bo, count: 6, deck_left: 44}\n", "  - {kind: draw, player: bo, count: 6, deck_left: 44}"
     "\n  - {kind: bench, player: bo, dino: pachy_ram}\n", "pachy_ram"),
    ("BDB-MAIN-1", "BASE", INS_END, INS_END, INS_END + "  - {kind: bench, player: ana, dino: servo_allosaur}\n"
     "  - {kind: bench, player: ana, dino: dilo_drone}\n", "dilo_drone"),
    ("BDB-MAIN-1", "BASE", "to: stego_dynamo, paid: 3}", "to: stego_dynamo, paid: 3}", "to: stego_dynamo, paid: 2}",
     "paid: 2"),
    ("BDB-MAIN-1", "BASE", "cards: [attack, attack, evade]}", "cards: [attack, attack, evade]}",
     "cards: [attack, attack, defend]}", "[attack, attack, defend]"),
    ("BDB-MAIN-1", "CAMO", "  - {kind: phase, phase: combat}\n", "  - {kind: phase, phase: combat}\n",
     "  - {kind: phase, phase: combat}\n  - {kind: retreat, player: ana, to: razorclaw, discard: [attack]}\n",
     "retreat"),
    # Upgrades: benched Dinosaurs only, one of a name
    ("BDB-MAIN-2", "BASE", "card: titanium_plating, dino: stego_dynamo", "card: titanium_plating, dino: stego_dynamo",
     "card: titanium_plating, dino: bastion_trike", "dino: bastion_trike"),
    ("BDB-MAIN-2", "BASE", "card: titanium_plating, dino: stego_dynamo", "card: titanium_plating, dino: stego_dynamo",
     "card: armor_spikes, dino: stego_dynamo", "card: armor_spikes"),
    # the Item Zone holds 5; Items are used from it
    ("BDB-MAIN-3", "BASE", INS_END, INS_END, INS_END + "  - {kind: item, player: ana}\n" * 4
     + "  - {kind: item, player: ana, card: adrenal_booster}\n", "card: adrenal_booster"),
    ("BDB-MAIN-3", "BASE", "  - {kind: retreat, player: bo, to: stego_dynamo, paid: 3}\n",
     "  - {kind: retreat, player: bo, to: stego_dynamo, paid: 3}\n", "  - {kind: retreat, player: bo, to: "
     "stego_dynamo, paid: 3}\n  - {kind: use_item, player: bo, card: med_gel}\n", "use_item, player: bo"),
    # Actions: during a turn, from hand; card effects name a card in use
    ("BDB-ACT-1", "SETUP", "  - {kind: comp_cards, player: ana}\n", "  - {kind: comp_cards, player: ana}\n",
     "  - {kind: action, player: ana, card: crowd_roar}\n  - {kind: comp_cards, player: ana}\n", "action, player: ana"),
    ("BDB-ACT-1", "BASE", "  - {kind: item, player: ana, card: med_gel}\n", "  - {kind: item, player: ana, card: "
     "med_gel}\n", "  - {kind: item, player: ana, card: med_gel}\n  - {kind: action, player: ana, card: crowd_roar}\n",
     "crowd_roar"),
    ("BDB-ACT-1", "BASE", INS_END, INS_END, INS_END + "  - {kind: effect, player: ana, source: field_medic, heal: 15}\n",
     "source: field_medic"),
    # the End phase draws up to 6; draws elsewhere need a card's effect
    ("BDB-END-1", "BASE", "count: 6, hand: 6, deck_left: 44}", "count: 6, hand: 6, deck_left: 44}",
     "count: 5, hand: 6, deck_left: 44}", "count: 5"),
    ("BDB-END-1", "BASE", INS_END, INS_END, INS_END + "  - {kind: draw, player: ana, count: 1}\n",
     "draw, player: ana, count: 1}"),
    ("BDB-END-1", "BASE", "  - {kind: draw, player: bo, count: 6, deck_left: 44}\n",
     "  - {kind: draw, player: bo, count: 6, deck_left: 44}\n", "", "phase: startup, turn: 2"),
    # the first move: higher EVA (tie: the Initiative holder), then alternating; a successful Evade takes it
    ("BDB-CMB-1", "BASE", "{kind: first_move, player: ana}", "{kind: first_move, player: ana}",
     "{kind: first_move, player: bo}", "first_move, player: bo"),
    ("BDB-CMB-1", "BASE", "{kind: attack, player: bo, roll: 6, total: 12}", "{kind: attack, player: bo, roll: 6, "
     "total: 12}", "{kind: attack, player: ana, roll: 6, total: 14}", "player: ana, roll: 6"),
    ("BDB-CMB-1", "ABIL", "  - {kind: attack, player: ana, paralyze_roll: 5}\n",
     "  - {kind: attack, player: ana, paralyze_roll: 5}\n", "", "attack, player: bo, roll: 1"),
    ("BDB-CMB-1", "KO", "empty Combat Deck\n  - {kind: pass, player: bo}", "empty Combat Deck\n  - {kind: pass, "
     "player: bo}", "empty Combat Deck\n  - {kind: pass, player: ana}", "pass, player: ana"),
    # moves cost Combat cards of their kind; a Special Attack its cards; an empty deck cannot move
    ("BDB-CMB-2", "BASE", "cards: [attack], roll: 5", "cards: [attack], roll: 5", "cards: [evade], roll: 5",
     "cards: [evade]"),
    ("BDB-CMB-2", "BASE", "{kind: attack, player: ana, cards: [attack], roll: 5, total: 13}",
     "{kind: attack, player: ana, cards: [attack], roll: 5, total: 13}",
     "{kind: attack, player: ana, special: Chain Whip, roll: 5, bonus: 3, total: 16}", "Chain Whip"),
    ("BDB-CMB-2", "BASE", "{kind: attack, player: ana, cards: [attack], roll: 5, total: 13}",
     "{kind: attack, player: ana, cards: [attack], roll: 5, total: 13}",
     "{kind: attack, player: ana, special: Triple Drill, roll: 5, bonus: 3, total: 16}", "Triple Drill"),
    ("BDB-CMB-2", "BASE", "  - {kind: counterattack, player: ana, roll: 2, total: 10, hp: {ana: 76, bo: 72}}\n"
     "  # ana has only an Evade left, bo a Defend: nobody can attack\n  - {kind: pass, player: ana}\n"
     "  - {kind: pass, player: bo}\n", "  - {kind: counterattack, player: ana, roll: 2, total: 10, hp: {ana: 76, bo: "
     "72}}\n  # ana has only an Evade left, bo a Defend: nobody can attack\n  - {kind: pass, player: ana}\n"
     "  - {kind: pass, player: bo}\n", "", "phase: postcombat_main"),
    ("BDB-CMB-2", "KO", "  - {kind: pass, player: bo}\n  - {kind: attack, player: ana, roll: 4, total: 12}",
     "  - {kind: pass, player: bo}\n  - {kind: attack, player: ana, roll: 4, total: 12}",
     "  - {kind: attack, player: bo, roll: 4}\n  - {kind: no_answer, player: ana}\n"
     "  - {kind: attack, player: ana, roll: 4, total: 12}", "attack, player: bo"),
    # the three resolutions
    ("BDB-CMB-3", "BASE", "roll: 2, total: 10, hp", "roll: 2, total: 10, hp", "roll: 2, total: 11, hp", "total: 11"),
    ("BDB-CMB-3", "BASE", "hp: {ana: 76, bo: 72}", "hp: {ana: 76, bo: 72}", "hp: {ana: 76, bo: 82}", "bo: 82}}\n"
     "  # ana has"),
    ("BDB-CMB-3", "BASE", "{kind: attack, player: bo, roll: 6, total: 12}", "{kind: attack, player: bo, roll: 6, "
     "total: 12}", "{kind: attack, player: bo, roll: 8, total: 14}", "roll: 8"),
    ("BDB-CMB-4", "ABIL", "roll: 4, total: 9, hp: {ana: 36}", "roll: 4, total: 9, hp: {ana: 36}",
     "roll: 4, total: 9, hp: {ana: 28}", "hp: {ana: 28}"),
    ("BDB-CMB-4", "ABIL", "roll: 4, total: 9, hp: {ana: 36}", "roll: 4, total: 9, hp: {ana: 36}",
     "roll: 4, total: 10, hp: {ana: 36}", "total: 10"),
    ("BDB-CMB-4", "ABIL", "{kind: attack, player: bo, roll: 3, total: 8}", "{kind: attack, player: bo, roll: 3, "
     "total: 8}", "{kind: attack, player: bo, roll: 4, total: 9}", "hp: {ana: 36}}"),
    ("BDB-CMB-5", "BASE", "damage: {bo: 3, ana: 1}, hp: {ana: 89, bo: 82}", "damage: {bo: 3, ana: 1}, hp: {ana: 89, "
     "bo: 82}", "damage: {bo: 0, ana: 3}, hp: {ana: 87, bo: 85}", "damage: {bo: 0"),
    ("BDB-CMB-5", "BASE", "roll: 3, total: 10,", "roll: 3, total: 10,", "roll: 3, total: 9,", "total: 9"),
    # the end of combat
    ("BDB-CMB-6", "BASE", "combat_end: agreed}", "combat_end: agreed}", "combat_end: decks_empty}", "decks_empty"),
    ("BDB-CMB-6", "ABIL", "  - {kind: phase, phase: postcombat_main, combat_end: decks_empty}\n",
     "  - {kind: phase, phase: postcombat_main, combat_end: decks_empty}\n", "  - {kind: pass, player: bo}\n"
     "  - {kind: phase, phase: postcombat_main, combat_end: decks_empty}\n", "pass, player: bo"),
    # abilities
    ("BDB-ABIL-1", "ABIL", "{kind: evade, player: ana, paralyze_roll: 2, roll: 4", "{kind: evade, player: ana, "
     "paralyze_roll: 2, roll: 4", "{kind: evade, player: ana, roll: 4", "evade, player: ana, roll: 4"),
    ("BDB-ABIL-1", "ABIL", "{kind: attack, player: ana, roll: 6, total: 10}", "{kind: attack, player: ana, roll: 6, "
     "total: 10}", "{kind: attack, player: ana, paralyze_roll: 2, roll: 6, total: 10}", "paralyze_roll: 2, roll: 6"),
    ("BDB-ABIL-1", "ABIL", "{kind: evade, player: ana, paralyze_roll: 2,", "{kind: evade, player: ana, "
     "paralyze_roll: 2,", "{kind: evade, player: ana, paralyze_roll: 3,", "paralyze_roll: 3"),
    ("BDB-ABIL-2", "ABIL", "initiative: ana, hp: {bo: 55}}", "initiative: ana, hp: {bo: 55}}",
     "initiative: ana, hp: {bo: 65}}", "hp: {bo: 65}"),
    ("BDB-ABIL-2", "BASE", "hp: {bo: {bastion_trike: 62,", "hp: {bo: {bastion_trike: 62,",
     "hp: {bo: {bastion_trike: 67,", "bastion_trike: 67"),
    ("BDB-ABIL-3", "ABIL", "hp: {ana: 36, bo: 65}}", "hp: {ana: 36, bo: 65}}", "hp: {ana: 38, bo: 65}}",
     "hp: {ana: 38"),
    ("BDB-ABIL-3", "BASE", "damage: {bo: 3, ana: 1}", "damage: {bo: 3, ana: 1}", "damage: {bo: 3, ana: 0}",
     "damage: {bo: 3, ana: 0}"),
    ("BDB-ABIL-3", "CAMO", "dino: razorclaw, source: emp_grenade, destroy_upgrade: overclocked_servos",
     "dino: razorclaw, source: emp_grenade, destroy_upgrade: overclocked_servos",
     "dino: scrap_compy, source: emp_grenade, destroy_upgrade: hydraulic_jaw_kit", "dino: scrap_compy, source"),
    # knock-outs
    ("BDB-KO-1", "KO", "comp_cards: 2}", "comp_cards: 2}", "comp_cards: 3}", "comp_cards: 3"),
    ("BDB-KO-1", "KO", "  - {kind: pass, player: bo}\n  - {kind: attack, player: ana, roll: 4, total: 12}\n"
     "  - {kind: no_answer, hp: {bo: -5}}\n", "  - {kind: pass, player: bo}\n  - {kind: attack, player: ana, roll: 4, "
     "total: 12}\n  - {kind: no_answer, hp: {bo: -5}}\n", "", "dino: ptera_drone"),
    ("BDB-KO-1", "KO", "  - {kind: knock_out, player: bo, dino: ptera_drone, comp_cards: 2}\n",
     "  - {kind: knock_out, player: bo, dino: ptera_drone, comp_cards: 2}\n",
     "  - {kind: phase, phase: postcombat_main}\n", "phase: postcombat_main"),
    # the end: 3 K.O.s or no Dinosaur left; a Main Deck runs out
    ("BDB-END-2", "KO", "comp_cards: 2}\n", "comp_cards: 2}\n", "comp_cards: 2}\n  - {kind: phase, phase: "
     "postcombat_main}\n", "phase: postcombat_main"),
    ("BDB-END-2", "KO", "comp_cards: 2}\n", "comp_cards: 2}\n  - {kind: game_end, winner: ana, reason: no_dinosaurs}\n",
     "comp_cards: 2}\n  - {kind: game_end, winner: bo}\n", "winner: bo"),
    ("BDB-END-2", "KO", "  winner: ana\n", "  winner: ana\n", "  winner: null\n", "winner: null"),
    ("BDB-END-2", "BASE", INS_END, INS_END, INS_END + "  - {kind: game_end, winner: ana}\n", "game_end"),
    ("BDB-END-3", "DECKOUT", "{kind: game_end, winner: ana, reason: deck_out}", "{kind: game_end, winner: ana, "
     "reason: deck_out}", "{kind: game_end, winner: bo, reason: deck_out}", "winner: bo"),
    ("BDB-END-3", "DECKOUT", "  - {kind: game_end, winner: ana, reason: deck_out}\n",
     "  - {kind: game_end, winner: ana, reason: deck_out}\n", "  - {kind: phase, phase: startup}\n", "phase: startup}"),
    ("BDB-END-3", "DECKOUT", "  - {kind: draw, player: bo, count: 1, deck_left: 0}\n  - {kind: game_end",
     "  - {kind: draw, player: bo, count: 1, deck_left: 0}\n  - {kind: game_end", "  - {kind: game_end", "game_end"),
]

# -- helpers ---------------------------------------------------------------------------------

# the game loaded once (the engine never changes it); tests that edit the rules load their own
cached_game = checklogs.cached_game_fixture(GAME, autouse=True)
check = partial(checklogs.check, GAME)
MINI = {"mini.yaml": MINI_DECK}                 # the 12-card test deck, beside each log
write = partial(checklogs.write, files=MINI)


# -- every rule: the break at its line, and the legal twin -------------------------------------

@pytest.mark.parametrize("base", sorted(BASES))
def test_base_logs_are_legal(tmp_path, base):
    code, probs, final = check(write(tmp_path, BASES[base]))
    checklogs.assert_legal(code, probs, notes=True)


@pytest.mark.parametrize("rule,base,old,good,bad,at", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_break_and_twin(tmp_path, rule, base, old, good, bad, at):
    checklogs.assert_break_and_twin(GAME, tmp_path, BASES[base], rule, old, good, bad, at, MINI, notes=True)


def test_allow_turns_a_violation_into_a_note(tmp_path):
    checklogs.assert_allow_makes_notes(GAME, tmp_path, BASE, "{kind: first_move, player: ana}",
                                       "{kind: first_move, player: bo}", "BDB-CMB-1", "bo asked to start", MINI)


def test_strict_stops_at_the_first_violation(tmp_path):
    text, _ = edited(BASE, "roll: 2, total: 10, hp", "roll: 2, total: 11, hp")
    text = text.replace("turn: 2, initiative: bo", "turn: 2, initiative: ana")
    checklogs.assert_strict_stops_at_the_first(GAME, write(tmp_path, text), "BDB-CMB-3", "BDB-TURN-2")


def test_a_slip_does_not_bury_the_rest(tmp_path):
    """The game goes on with the HP the log states: the table's later figures follow from its own."""
    text, _ = edited(BASE, "hp: {ana: 89, bo: 82}", "hp: {ana: 89, bo: 80}")
    text = text.replace("hp: {ana: 76, bo: 72}", "hp: {ana: 76, bo: 70}")
    text = text.replace("{bastion_trike: 62,", "{bastion_trike: 60,")
    code, probs, final = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-CMB-5", line_of(text, "bo: 80"))]
    assert final["players"]["bo"]["hp"]["bastion_trike"] == 60


# -- the decks in the header ---------------------------------------------------------------------

def deck_text(name: str, edit: tuple[str, str] | None = None) -> str:
    text = (ROOT / "cards" / GAME / "decks" / f"{name}.yaml").read_text(encoding="utf-8")
    if edit:
        assert edit[0] in text
        text = text.replace(*edit)
    return text


@pytest.mark.parametrize("rule,edit", [
    ("BDB-DECK-1", ("attack: 15", "attack: 14")),
    ("BDB-DECK-2", ("med_gel: 2", "med_gel: 4")),
    ("BDB-DECK-3", ("    chainsaw_rex: 2\n    razorclaw: 3\n    servo_allosaur: 2\n    scrap_compy: 1\n    dilo_drone: 1\n"
                    "    arc_spinosaur: 1\n    carno_lancer: 1\n    therizino_reaper: 1\n", "    attack_extra: 0\n")),
])
def test_the_decks_are_checked_with_the_deck_rules(tmp_path, rule, edit):
    deck = deck_text("steel_jaws", edit).replace("    attack_extra: 0\n", "    attack: 12\n    defend: 12\n"
                                                  "    evade: 2\n")
    (tmp_path / "mine.yaml").write_text(deck, encoding="utf-8")
    text = SETUP.replace("{name: ana, deck: steel_jaws}", "{name: ana, deck: mine.yaml}")
    code, probs, _ = check(write(tmp_path, text))
    assert code == 1
    hits = [p for p in errors(probs) if p["rule"] == rule]
    assert hits and hits[0]["line"] == line_of(text, "{name: ana"), probs
    assert "mine.yaml" in hits[0]["message"]


def test_a_deck_by_name_by_file_name_and_by_path(tmp_path):
    for ref in ("Iron Herd", "iron_herd", "cards/dino_battles/decks/iron_herd.yaml", str(ROOT / "cards" / GAME
                                                                                       / "decks" / "iron_herd.yaml")):
        text = SETUP.replace("deck: cards/dino_battles/decks/iron_herd.yaml}", f"deck: '{ref}'}}")
        code, probs, final = check(write(tmp_path, text))
        assert (code, errors(probs)) == (0, []), (ref, probs)
        assert final["players"]["bo"]["deck_name"] == "Iron Herd"


@pytest.mark.parametrize("ref", ["iron_hurd", "nowhere/deck.yaml"])
def test_an_unknown_deck_is_unreadable(tmp_path, ref):
    text = SETUP.replace("deck: cards/dino_battles/decks/iron_herd.yaml}", f"deck: {ref}}}")
    code, probs, final = check(write(tmp_path, text))
    assert code == 2 and probs[0]["rule"] == "LOG-FIELD" and probs[0]["line"] == line_of(text, f"deck: {ref}")
    if ref == "iron_hurd":
        assert "iron_herd" in probs[0].get("hint", "")


# -- complete games --------------------------------------------------------------------------------

@pytest.mark.parametrize("name,winner,ended_by", [("ko-win.yaml", "ana", "kos"), ("deck-out.yaml", "ana", "deck_out"),
                                                  ("no-dinosaurs.yaml", "ana", "no_dinosaurs"),
                                                  ("no-dinosaurs.jsonl", "ana", "no_dinosaurs")])
def test_complete_games(name, winner, ended_by):
    code, probs, final = check(EXAMPLES / name)
    assert (code, probs) == (0, []), probs
    assert (final["winner"], final["ended_by"]) == (winner, ended_by)
    loser = next(p for p in final["players"] if p != winner)
    if ended_by == "kos":
        assert final["kos"][winner] == 3 > final["kos"][loser]
        assert len(final["players"][loser]["knocked_out"]) == 3
    elif ended_by == "deck_out":
        assert 0 in (final["players"][winner]["deck"], final["players"][loser]["deck"])
        assert final["kos"][winner] > final["kos"][loser]
    else:
        assert final["players"][loser]["active"] is None and final["players"][loser]["bench"] == []


def test_the_complete_games_state_their_winner_in_expect_and_game_end():
    for name in ("ko-win.yaml", "deck-out.yaml", "no-dinosaurs.yaml"):
        doc = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))
        assert doc["expect"]["winner"] == "ana" and doc["events"][-1]["kind"] == "game_end"
        assert len(doc["players"]) == 2


def test_jsonl_example_matches_its_yaml_twin():
    y = EXAMPLES / "no-dinosaurs.yaml"
    assert (EXAMPLES / "no-dinosaurs.jsonl").read_text(encoding="utf-8") == to_jsonl(y.read_text(encoding="utf-8"))


def test_the_slips_example_reports_each_slip_at_its_line():
    path = EXAMPLES / "table-slips.yaml"
    text = path.read_text(encoding="utf-8")
    want = {("BDB-CMB-5", "error", line_of(text, "hp: {ana: 86, bo: 75}")),
            ("BDB-ABIL-3", "error", line_of(text, "hp: {ana: 75, bo: 65}")),
            ("BDB-ABIL-1", "note", line_of(text, "{kind: attack, player: ana, roll: 4}\n  - {kind: no_answer")),
            ("BDB-END-1", "error", line_of(text, "{kind: draw, player: ana, count: 5}")),
            ("BDB-TURN-2", "error", line_of(text, "turn: 2, initiative: ana")),
            ("BDB-MAIN-2", "error", line_of(text, "card: armor_spikes"))}
    final = checklogs.assert_reports_exactly(GAME, path, want)
    for slip in want:                               # the header comment names each line
        assert f"#   line {slip[2]} " in text
    assert final["initiative"] == "ana"             # the game goes on as the table played it


def test_trace_shows_each_turn_with_both_players(tmp_path):
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", GAME, str(EXAMPLES / "ko-win.yaml"), "--trace"])
    assert res.exit_code == 0
    out = res.stdout
    assert "── turn 1 · Initiative bo" in out and "── turn 11 · Initiative bo" in out
    assert "      after turn 1\n        ana  K.O.s 0 · hand 6 · deck 45" in out
    assert "             active Therizino Reaper 49/65 · bench empty" in out
    assert "GAME OVER: ana has 3 K.O.s and wins" in out
    assert "L33   ATK 9 against counterattack 10" in out and "is Spiked 3" in out
    assert out.rstrip().splitlines()[-1].startswith("final: {")
    res = CliRunner().invoke(main, ["--root", str(ROOT), "check", GAME, str(EXAMPLES / "ko-win.yaml"), "--trace",
                                    "--format", "json"])
    assert any("Startup: bo's Ankylo-Tank loses 20 HP" in ln for ln in json.loads(res.stdout)["trace"])


def test_final_state(tmp_path):
    code, probs, final = check(write(tmp_path, BASE))
    assert final["winner"] is None and final["turn"] == 2 and final["initiative"] == "bo"
    assert final["kos"] == {"ana": 0, "bo": 0}
    bo = final["players"]["bo"]
    assert bo["active"] == "stego_dynamo" and bo["bench"] == ["bastion_trike"]
    assert bo["hp"] == {"stego_dynamo": 75, "bastion_trike": 62}
    assert final["players"]["ana"]["combat_deck"] == {"attack": 0, "evade": 1, "defend": 0}


# -- hidden cards --------------------------------------------------------------------------------

def test_unnamed_cards_are_counted_and_revealed_by_play(tmp_path):
    # bo's hand is hidden: three Stego-Dynamos cannot come out of a deck that holds two
    text = KO.replace("active: ptera_drone}", "active: stego_dynamo, bench: [stego_dynamo, stego_dynamo]}")
    text = text[: text.index("  - {kind: phase, phase: startup}")]
    code, probs, _ = check(write(tmp_path, text))
    first = min(errors(probs), key=lambda p: p["line"])
    assert (first["rule"], first["line"]) == ("BDB-SETUP-4", line_of(text, "bench: [stego_dynamo"))
    assert "holds only 2" in first["message"]
    # unseen Items are revealed when used: the Med-Gel in the zone, then two more; the deck holds two
    use = "  - {kind: use_item, player: ana, card: med_gel}\n"
    text = BASE.replace(INS_END, INS_END + "  - {kind: item, player: ana}\n" * 3 + use * 3)
    text = text[: text.index("expect:")]
    code, probs, final = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-MAIN-3", line_of(text, use * 3) + 2)]
    assert "holds only 2" in errors(probs)[0]["message"]
    assert final["players"]["ana"]["items"] == 1          # 1 + 3 placed, 3 used and junked


def test_a_card_played_from_an_empty_hand(tmp_path):
    text = BASE.replace(INS_END, INS_END + "  - {kind: combat_to_deck, player: ana, cards: [attack, attack, attack, "
                        "attack, attack, attack]}\n")
    text = text[: text.index("expect:")]
    code, probs, _ = check(write(tmp_path, text))
    assert [p["message"] for p in errors(probs)] == ["ana has no card in hand to play Attack"]


# -- card effects stated by the log ----------------------------------------------------------------

EFFECTS = [
    # Crowd Roar: an Action drawing 2
    INS_END + "  - {kind: action, player: ana, card: crowd_roar}\n  - {kind: draw, player: ana, count: 2, "
    "source: crowd_roar, hand: 6}\n",
    # a Permanent Item stays and its effect may be used again
    INS_END + "  - {kind: item, player: ana, card: targeting_array}\n  - {kind: use_item, player: ana, card: "
    "targeting_array}\n  - {kind: phase, phase: combat}\n  - {kind: pass, player: bo}\n  - {kind: pass, player: ana}\n"
    "  - {kind: phase, phase: postcombat_main}\n  - {kind: effect, player: ana, source: targeting_array}\n",
    # Med-Gel: from the Item Zone, heals up to the Dinosaur's HP
    INS_END + "  - {kind: use_item, player: ana, card: med_gel}\n  - {kind: effect, player: ana, source: med_gel, "
    "heal: 20, hp: {ana: 90}}\n",
    # Scavenge-like: a card back from the Junk; Rigged Arena-like: a Combat card from the deck to the Junk
    INS_END + "  - {kind: action, player: ana, card: crowd_roar}\n  - {kind: effect, player: ana, source: crowd_roar, "
    "from_junk: [crowd_roar]}\n  - {kind: effect, player: ana, source: crowd_roar, combat_deck_junk: [evade]}\n",
    # Sabotage: the opponent discards at random
    INS_END + "  - {kind: action, player: ana, card: sabotage}\n  - {kind: discard, player: bo, count: 1, "
    "source: sabotage}\n",
]


@pytest.mark.parametrize("added", EFFECTS, ids=["draw", "permanent", "heal", "junk", "discard"])
def test_card_effects_the_log_states(tmp_path, added):
    text, _ = edited(BASE, INS_END, added)
    text = text[: text.index("expect:")]
    code, probs, final = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs


def test_an_effect_from_a_card_nobody_used(tmp_path):
    text, _ = edited(BASE, INS_END, INS_END + "  - {kind: effect, player: ana, source: med_gel, heal: 20}\n")
    text = text[: text.index("expect:")]
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-MAIN-3", line_of(text, "source: med_gel"))]


def test_smoke_pod_and_last_stand(tmp_path):
    """An answer with negated_by takes nothing; Last Stand sets HP 1 before the K.O. is recorded."""
    text = KO.replace("  - {kind: no_answer, hp: {bo: -5}}\n  - {kind: knock_out, player: bo, dino: ptera_drone, "
                      "comp_cards: 2}\n", "  - {kind: no_answer, hp: {bo: -5}}\n  - {kind: action, player: bo, card: "
                      "last_stand}\n  - {kind: effect, player: bo, source: last_stand, set_hp: 1, hp: {bo: 1}}\n")
    text = text[: text.index("expect:")]
    code, probs, final = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    assert final["winner"] is None and final["players"]["bo"]["hp"] == {"ptera_drone": 1}
    text = KO.replace("{kind: attack, player: ana, roll: 4, total: 12}\n  - {kind: no_answer, hp: {bo: -5}}",
                      "{kind: attack, player: ana, roll: 4, total: 12}\n  - {kind: no_answer, negated_by: crowd_roar, "
                      "hp: {bo: 7}}")
    text = text[: text.index("  - {kind: knock_out")]
    code, probs, _ = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-CMB-2", line_of(text, "negated_by"))]
    text = text.replace("  - {kind: attack, player: ana, roll: 4, total: 12}", "  - {kind: action, player: ana, card: "
                        "crowd_roar}\n  - {kind: attack, player: ana, roll: 4, total: 12}")
    code, probs, _ = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs


def test_emergency_retreat_during_combat(tmp_path):
    text = CAMO + ("  - {kind: action, player: ana, card: crowd_roar}\n"
                   "  - {kind: retreat, player: ana, to: razorclaw, source: crowd_roar}\n")
    text = text.replace("overclocked_servos, attack]}", "overclocked_servos, crowd_roar]}")
    code, probs, final = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    assert final["players"]["ana"]["active"] == "razorclaw"


# -- knock-outs and the end --------------------------------------------------------------------------

def test_a_knocked_out_active_is_replaced_from_the_bench(tmp_path):
    text = KO.replace("active: ptera_drone}", "active: ptera_drone, bench: [pachy_ram]}")
    text = text[: text.index("expect:")]
    code, probs, final = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-KO-1", line_of(text, "kind: knock_out"))]
    assert final["players"]["bo"]["active"] == "pachy_ram" and final["winner"] is None
    text = text.replace("comp_cards: 2}", "comp_cards: 2, new_active: pachy_ram}")
    code, probs, final = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs


def test_a_dinosaur_in_hand_must_be_played(tmp_path):
    text = KO.replace("{kind: draw, player: bo}", "{kind: draw, player: bo, cards: [ptera_drone, pachy_ram, attack, "
                      "defend, evade, field_medic]}")
    code, probs, final = check(write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-END-2", line_of(text, "kind: knock_out"))]
    text = text.replace("comp_cards: 2}", "comp_cards: 2, new_active: pachy_ram}")
    text = text[: text.index("expect:")]
    code, probs, final = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    assert final["players"]["bo"]["active"] == "pachy_ram" and final["kos"]["ana"] == 1


def test_a_knocked_out_dinosaur_is_not_shown_paralyzed(tmp_path):
    """The counterattack that knocks bo's Pachy-Ram out comes from the Paralyze Arc Spinosaur: the trace
    does not say it is paralyzed, and the state shows it knocked out until the K.O. is recorded and it
    leaves play; Last Stand, played before the K.O. is recorded, brings it back with its paralysis."""
    full = (EXAMPLES / "no-dinosaurs.yaml").read_text(encoding="utf-8")
    cut = full[: full.index("  # Pachy-Ram is knocked out")]
    hit = line_of(cut, "{kind: counterattack, player: ana, roll: 4")

    def trace(text: str) -> str:
        code, out, _ = checklogs.run_quiet(GAME, write(tmp_path, text), fmt="text")
        assert code == 0, out
        return out[out.index(f"L{hit} "):]

    after = trace(full)
    assert "bo's Pachy-Ram −11 → 0\n" in after and "paralyzed" not in after
    assert "is knocked out and junked" in after and "active none · bench empty" in after
    after = trace(cut)                                  # the log ends before the K.O. is recorded
    assert "paralyzed" not in after and "active Pachy-Ram 0/55 [knocked out] · bench empty" in after
    after = trace(cut + "  - {kind: action, player: bo, card: last_stand}\n"
                        "  - {kind: effect, player: bo, source: last_stand, set_hp: 1, hp: {bo: 1}}\n")
    assert "Pachy-Ram HP set to 1; no longer knocked out (paralyzed) → 1/55" in after
    assert "active Pachy-Ram 1/55 [paralyzed] · bench empty" in after


DRAW_GAME = """\
game: dino_battles
rules_version: "1.0"
players:
  - {name: ana, deck: mini.yaml}
  - {name: bo, deck: mini.yaml}
events:
  - {kind: initiative_roll, roll: 2}
  - {kind: draw, player: ana}
  - {kind: draw, player: bo}
  - {kind: comp_cards, player: ana}
  - {kind: comp_cards, player: bo}
  - {kind: place, player: ana, active: razorclaw}
  - {kind: place, player: bo, active: razorclaw}
  - {kind: phase, phase: startup}
  - {kind: phase, phase: precombat_main}
  - {kind: combat_to_deck, player: ana, cards: [attack, attack, attack, attack]}
  - {kind: combat_to_deck, player: bo, cards: [attack, attack, attack, attack]}
  - {kind: phase, phase: combat}
  # 5 + 6 = 11 each way, four times: 40 → 29 → 18 → 7 → -4 on both sides at once
  - {kind: attack, player: ana, roll: 6}
  - {kind: counterattack, player: bo, roll: 6}
  - {kind: attack, player: bo, roll: 6}
  - {kind: counterattack, player: ana, roll: 6}
  - {kind: attack, player: ana, roll: 6}
  - {kind: counterattack, player: bo, roll: 6, hp: {ana: 7, bo: 7}}
  - {kind: attack, player: bo, roll: 6}
  - {kind: counterattack, player: ana, roll: 6, hp: {ana: -4, bo: -4}}
  - {kind: knock_out, player: ana, dino: razorclaw}
  - {kind: knock_out, player: bo, dino: razorclaw}
allow:
  - {rule: BDB-DECK-1, reason: a 12-card test deck}
expect:
  winner: draw
  ended_by: no_dinosaurs
  kos: {ana: 1, bo: 1}
"""


def test_both_lose_their_last_dinosaur_at_once(tmp_path):
    code, probs, final = check(write(tmp_path, DRAW_GAME))
    assert (code, errors(probs)) == (0, []), probs
    assert final["winner"] == "draw"


# -- the numbers come from params.yaml ----------------------------------------------------------------

def edited_game(tmp: Path, old: str, new: str) -> GameCopy:
    """A copy of the game whose params.yaml says ``new`` where it said ``old``."""
    g = GameCopy(tmp, GAME)
    g.edit("rules/dino_battles/params.yaml", old, new)
    return g


def test_camouflage_stops_attacks_when_the_rules_say_so(game_copy, tmp_path):
    text = KO.replace("active: ptera_drone}", "active: servo_runner}")
    text = text[: text.index("  - {kind: pass, player: bo}\n  - {kind: attack, player: ana, roll: 4")]
    text = text.replace("Ptera-Drone EVA 7", "Servo Runner EVA 8")
    code, probs, _ = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    g = edited_game(tmp_path / 'g', "camouflage_stops_attacks: false", "camouflage_stops_attacks: true")
    code, probs, _ = check(write(tmp_path, text), root=g.root)
    assert {(p["rule"], p["line"]) for p in errors(probs)} == {
        ("BDB-ABIL-3", line_of(text, "{kind: attack, player: ana, roll: 6}")),
        ("BDB-ABIL-3", line_of(text, "{kind: attack, player: ana, roll: 6}", text.index("hp: {bo: 21}")))}


def test_the_ko_target_and_the_hand_size_come_from_params(game_copy, tmp_path):
    g = edited_game(tmp_path / 'g', "kos_to_win: 3", "kos_to_win: 1")
    text = KO.replace("active: ptera_drone}", "active: ptera_drone, bench: [pachy_ram]}")
    text = text.replace("comp_cards: 2}", "comp_cards: 2, new_active: pachy_ram}").replace("no_dinosaurs", "kos")
    code, probs, final = check(write(tmp_path, text), root=g.root)
    assert (code, errors(probs)) == (0, []) and final["winner"] == "ana" and final["ended_by"] == "kos"
    g = edited_game(tmp_path / 'g2', "hand_size: 6 ", "hand_size: 5 ")
    code, probs, _ = check(write(tmp_path, BASE), root=g.root)
    assert ("BDB-SETUP-2", line_of(BASE, "{kind: draw, player: ana")) in {(p["rule"], p["line"]) for p in probs}
    assert "each player draws 5 to start; ana draws 6" in [p["message"] for p in probs]


def test_a_missing_parameter_is_a_clear_error(game_copy, tmp_path):
    g = edited_game(tmp_path / 'g', "poison_hp: 10", "poison_damage: 10")
    code, probs, _ = check(write(tmp_path, BASE), root=g.root)
    assert code == 2 and probs[0]["rule"] == "LOG-GAME" and "poison_hp" in probs[0]["message"]


# -- unreadable logs: exit 2 with file:line ----------------------------------------------------------

UNREADABLE = [
    ("bad YAML", "{kind: attack, player: bo, roll: 6, total: 12}", "{kind: attack, player: bo: roll: 6}",
     "LOG-SYNTAX", "bo: roll"),
    ("unknown kind", "{kind: attack, player: bo, roll: 6", "{kind: atack, player: bo, roll: 6", "LOG-EVENT", "atack"),
    ("missing field", "{kind: attack, player: bo, roll: 6", "{kind: attack, roll: 6", "LOG-FIELD",
     "{kind: attack, roll: 6"),
    ("another game", "game: dino_battles", "game: boss_fight", "LOG-GAME", "game:"),
    ("unknown player", "{kind: attack, player: bo, roll: 6", "{kind: attack, player: bob, roll: 6", "LOG-FIELD",
     "player: bob"),
    ("unknown card", "card: titanium_plating", "card: titanium_plate", "LOG-FIELD", "titanium_plate"),
    ("not a Dinosaur", "{kind: bench, player: ana, dino: razorclaw}", "{kind: bench, player: ana, dino: med_gel}",
     "LOG-FIELD", "dino: med_gel"),
    ("no such Dinosaur in play", "to: stego_dynamo, paid: 3}", "to: pachy_ram, paid: 3}", "LOG-FIELD", "pachy_ram"),
    ("unknown special", "cards: [attack], roll: 5", "special: Tail Whip, roll: 5", "LOG-FIELD", "Tail Whip"),
    ("wrong type", "{kind: attack, player: bo, roll: 6", "{kind: attack, player: bo, roll: six", "LOG-TYPE",
     "roll: six"),
    ("unknown field", "{kind: attack, player: bo, roll: 6", "{kind: attack, player: bo, rol: 6", "LOG-FIELD", "rol:"),
    ("attack without a roll", "{kind: attack, player: bo, roll: 6, total: 12}", "{kind: attack, player: bo}",
     "LOG-FIELD", "{kind: attack, player: bo}"),
]


@pytest.mark.parametrize("what,old,new,rule,at", UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_unreadable_logs_exit_2_with_the_line(tmp_path, what, old, new, rule, at):
    checklogs.assert_unreadable_at(GAME, tmp_path, BASE, old, new, rule, at, MINI)


def test_dinosaurs_are_named_by_label(tmp_path):
    """The first copy in play is 'razorclaw', the second 'razorclaw#2'; a label not in play is exit 2."""
    text = SETUP[: SETUP.index("expect:")] + ("  - {kind: phase, phase: precombat_main}\n"
                                              "  - {kind: upgrade, player: ana, card: hydraulic_jaw_kit, dino: "
                                              "'razorclaw#2'}\n")
    code, probs, final = check(write(tmp_path, text))
    assert (code, errors(probs)) == (0, []), probs
    assert final["players"]["ana"]["bench"] == ["razorclaw#2", "chainsaw_rex"]
    code, probs, _ = check(write(tmp_path, text.replace("'razorclaw#2'", "Razorclaw")))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BDB-MAIN-2", line_of(text, "dino: 'razorclaw#2'"))]
    code, probs, _ = check(write(tmp_path, text.replace("'razorclaw#2'", "'razorclaw#3'")))
    assert code == 2 and probs[0]["rule"] == "LOG-FIELD" and "razorclaw#2" in probs[0].get("hint", "")


def test_unreadable_jsonl_names_its_line(tmp_path):
    lines = to_jsonl(BASE).splitlines()
    n = next(i for i, ln in enumerate(lines) if '"kind": "place"' in ln)
    lines[n] = lines[n].replace('"kind": "place"', '"kind": "plase"')
    code, probs, _ = check(write(tmp_path, "\n".join(lines) + "\n", "log.jsonl"))
    assert code == 2 and (probs[0]["rule"], probs[0]["line"]) == ("LOG-EVENT", n + 1)


# -- the shared replay over the state -------------------------------------------------------------

@pytest.mark.parametrize("name", [*sorted(BASES), "ko-win.yaml", "deck-out.yaml", "no-dinosaurs.yaml"])
def test_every_event_of_a_legal_log_replays_legal(tmp_path, cached_game, name):
    """Each event of a legal log is an action the state accepts at its point (the contract's replay)."""
    path = write(tmp_path, BASES[name]) if name in BASES else EXAMPLES / name
    ref, log = playkit.log_referee(DinoRules(cached_game), path, PACKAGE.engine, GAME)
    for ev in log.events:
        assert not ref.event(ev.index, {"kind": ev.kind, **ev.fields}), (ev.loc.line, ev.kind)
    if name in ("ko-win.yaml", "KO", "DECKOUT"):
        assert ref.state.over


# -- properties ----------------------------------------------------------------------------------

LEGAL_TEXTS = [BASE, SETUP, ABIL, KO, CAMO, DECKOUT, (EXAMPLES / "ko-win.yaml").read_text(encoding="utf-8"),
               (EXAMPLES / "table-slips.yaml").read_text(encoding="utf-8")]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(LEGAL_TEXTS) - 1), cut=st.floats(0, 1))
def test_a_prefix_of_a_legal_log_re_serialised_replays_the_same(which, cut):
    """YAML → JSON Lines replays the same; and a legal log cut anywhere is still legal."""
    legal = which != len(LEGAL_TEXTS) - 1          # the slips example (the last) is not legal
    checklogs.assert_a_prefix_replays_the_same(GAME, LEGAL_TEXTS[which], cut, legal, files=MINI)


KINDS = list(EVENTS) + ["bogus"]
NAMES = ["ana", "bo", "cy", "razorclaw", "razorclaw#2", "chainsaw_rex", "stego_dynamo", "bastion_trike", "med_gel",
         "attack", "defend", "evade", "Chainsaw Bite", "crowd_roar", "armor_spikes", "startup", "combat", "end",
         "draw", "decks_empty", ""]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.sampled_from(NAMES),
                   st.lists(st.integers(-1, 8), max_size=3), st.lists(st.sampled_from(NAMES), max_size=4),
                   st.dictionaries(st.sampled_from(["ana", "bo", "zed"]), st.one_of(
                       st.integers(-5, 99), st.sampled_from(NAMES),
                       st.dictionaries(st.sampled_from(NAMES), st.integers(-5, 99), max_size=2)), max_size=2))
FIELDS = sorted({f for spec in EVENTS.values() for f in spec} | {"kind", "bogus"})


mutated = partial(
    checklogs.mutated, LEGAL_TEXTS, ["drop", "dup", "swap", "set", "del", "kind", "header", "expect", "move"],
    steps=5, values=VALUES, fields=FIELDS, kinds=KINDS,
    header=checklogs.set_header(["players", "game", "decks"], VALUES),
    expect_keys=["winner", "kos", "players", "ended_by", "nope"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=mutated(), form=st.sampled_from(["yaml", "jsonl"]), strict=st.booleans())
def test_the_checker_never_raises_on_fuzzed_logs(doc, form, strict):
    checklogs.assert_the_checker_never_raises(GAME, doc, form, strict, files=MINI)

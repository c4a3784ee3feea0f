"""Boss Fight playtest checker (``cardgen check boss_fight``): every rule of the map, round,
combat and status sections (BF-PLACE-1, BF-INIT-1, BF-DRAW-1/2, BF-ACT-1…3, BF-ABIL-1,
BF-MOVE-1/2, BF-LOS-1/2, BF-CMB-1…3, BF-STATUS-1/2, BF-END-1, BF-MAP-1: obstacle tokens and the
map's terrain) broken by a minimal log and reported at the event's line, with its legal twin;
complete games to the end; the obstacle map with its slips; JSON Lines; fuzzing."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.content.loader import load_game
from cardgen.content.playlog import Event
from cardgen.core import sources
from cardgen.core.options import MISSING
from cardgen.core.problems import Loc, Problems
from cardgen.games.boss_fight import BF_EVENTS, Engine, damage_formula
from cardgen.games.boss_fight.contract import BossRules
from cardgen.games.boss_fight.slips import Slips
from cardgen.games.boss_fight.table import Table
from tests import checklogs, playkit
from tests.checklogs import edit, load
from tests.checklogs import ev as _ev
from tests.conftest import ROOT, run_cli

GAME = "boss_fight"
EXAMPLES = ROOT / "examples" / "logs" / GAME

# A one-hex boss (BF-BUILD-2: size 0 pieces plus one hex) with one Leg piece: half movement.
# Health 9, Intelligence 2, Strength 7, Agility 5 (a tie with Wren's 5).
STALKER = """\
boss:
  name: The Stalker
  pieces:
    - {id: serpent_head}
    - {id: ogre_arm, as: arm}
    - {id: vine_lash}
    - {id: raptor_leg}
  equipment:
    - {id: eldritch_focus, piece: arm}
  cards: {walk: 6, basic_attack: 6, heavy_attack: 3, stomp: 3, lumber: 3, unleash: 3, grab: 3, roar: 3}
"""
# Wren (9 HP, AGI 5, Longbow, Second Wind, Volley costs 4) and Tormund (14 HP, STR 5, Warhammer).
PAIR = """\
party:
  name: The Pair
  heroes:
    - id: wren
      equipment: [longbow]
      abilities: [second_wind]
      cards: {walk: 3, basic_attack: 5, heavy_attack: 3, run: 3, dash: 2, aimed_shot: 3, special_attack: 3, sidestep: 2,
              smoke_bomb: 2, throwing_knife: 2, whetstone: 2}
    - id: tormund
      equipment: [warhammer]
      cards: {walk: 5, basic_attack: 4, heavy_attack: 3, power_strike: 3, coordinated_strike: 3, special_attack: 3,
              charge: 3, run: 2, healing_potion: 2, bandage: 1, whetstone: 1}
"""

# Two rounds on the Open Arena, every card named: moves, attacks with defence rolls and
# statuses, a miss, an Item, a death, Sweep and Stomp, Shield Bash's Agility, an effect draw.
# (The first two rounds of examples/logs/boss_fight/boss-wins-arena.yaml.)
BASE = """\
game: boss_fight
rules_version: "1.0"
map: arena
boss: ember_wyrm
party: lantern_company
events:
  - {kind: place, character: boss, at: [5, 5]}
  - {kind: place, character: aldric, at: [4, 2]}
  - {kind: place, character: wren, at: [6, 2]}
  - {kind: place, character: maelis, at: [3, 8]}
  - {kind: round, number: 1, order: [boss, wren, aldric, maelis]}
  - {kind: draw, character: boss, cards: [walk, heavy_attack, grab, lunge]}
  - {kind: draw, character: wren, cards: [run, basic_attack, aimed_shot, heavy_attack]}
  - {kind: draw, character: aldric, cards: [walk, heavy_attack, power_strike, healing_potion]}
  - {kind: draw, character: maelis, cards: [special_attack, bandage, run, walk]}
  - {kind: move, character: boss, card: walk, path: [[5, 4], [5, 3]]}
  - {kind: attack, character: boss, card: heavy_attack, with: bone_cleaver, target: aldric, defence: 3, defence_bonus: 1, damage: 6, hp_left: 6}
  - {kind: attack, character: boss, card: grab, with: bone_cleaver, target: wren, defence: 2, status: [immobilised], damage: 6, hp_left: 3}
  - {kind: attack, character: wren, card: aimed_shot, with: longbow, target: boss, range_bonus: 2, bonus: 1, defence: 1, damage: 2, hp_left: 31}
  - {kind: attack, character: wren, card: heavy_attack, with: longbow, target: boss, defence: 6, hit: false}
  - {kind: item, character: aldric, card: healing_potion, heal: 4, hp_left: 10}
  - {kind: attack, character: aldric, card: power_strike, with: longsword, target: boss, bonus: 1, defence: 2, damage: 2, hp_left: 29}
  - {kind: move, character: maelis, card: run, path: [[3, 7], [3, 6], [3, 5]]}
  - {kind: attack, character: maelis, card: special_attack, with: holy_symbol, target: boss, defence: 4, damage: 1, hp_left: 28}
  - {kind: end_turn, character: maelis, hp: {boss: 28, aldric: 10, wren: 3, maelis: 10}, statuses: {wren: []}}
  - {kind: draw, character: boss, cards: [heavy_attack, sweep, stomp]}
  - {kind: draw, character: wren, cards: [special_attack, dash]}
  - {kind: draw, character: aldric, cards: [shield_bash, charge]}
  - {kind: draw, character: maelis, cards: [healing_potion, focus_elixir]}
  - {kind: attack, character: boss, card: heavy_attack, with: bone_cleaver, target: wren, defence: 5, damage: 6, hp_left: -3}
  - {kind: death, character: wren}
  - {kind: attack, character: boss, card: sweep, with: siege_claw, target: aldric, defence: 4, defence_bonus: 1, status: [immobilised], damage: 5, hp_left: 5}
  - {kind: move, character: boss, card: stomp, to: [4, 4], rotate: 5}
  - {kind: effect, source: stomp, target: aldric, damage: 1, hp_left: 4}
  - {kind: effect, source: stomp, target: maelis, damage: 1, hp_left: 9}
  - {kind: attack, character: aldric, card: shield_bash, with: longsword, target: boss, defence: 1, damage: 1, hp_left: 27}
  - {kind: effect, character: aldric, source: shield_bash, target: boss, stats: {agility: -1}, until: round}
  - {kind: attack, character: aldric, card: charge, with: longsword, target: boss, defence: 3, damage: 1, hp_left: 26}
  - {kind: item, character: maelis, card: focus_elixir}
  - {kind: draw, character: maelis, cards: [special_attack, sidestep], source: focus_elixir}
  - {kind: attack, character: maelis, card: special_attack, with: holy_symbol, target: boss, defence: 2, damage: 2, hp_left: 24}
"""

# Three rounds on the Hall of Pillars (obstacles, start zones): a tie for the first turn,
# half movement (one Leg piece), attacks out of sight by memory (BF-LOS-2), Poison and its
# rolls, a sacrifice, an ability, Terrifying Roar, a Charge.
SMALL = """\
game: boss_fight
rules_version: "1.0"
map: pillars
boss: stalker.yaml
party: pair.yaml
events:
  - {kind: place, character: boss, at: [10, 3]}
  - {kind: place, character: wren, at: [1, 5]}
  - {kind: place, character: tormund, at: [0, 4]}
  - {kind: draw, character: boss, cards: [walk, basic_attack, unleash, grab]}
  - {kind: draw, character: wren, cards: [run, walk, aimed_shot, basic_attack]}
  - {kind: draw, character: tormund, cards: [walk, run, healing_potion, heavy_attack]}
  - {kind: move, character: wren, card: run, path: [[2, 5], [3, 5], [4, 5]]}
  - {kind: move, character: wren, card: walk, path: [[5, 5], [6, 5]]}
  - {kind: move, character: boss, card: walk, path: [[9, 3]]}
  - {kind: attack, character: boss, card: basic_attack, with: eldritch_focus, target: wren, defence: 2, damage: 1, hp_left: 8}
  - {kind: attack, character: boss, card: unleash, with: eldritch_focus, target: wren, defence: 6, hit: false}
  - {kind: move, character: tormund, card: run, path: [[1, 4], [2, 4], [3, 4]]}
  - {kind: move, character: tormund, card: walk, path: [[3, 5], [4, 5]]}
  - {kind: draw, character: boss, cards: [walk, basic_attack, roar]}
  - {kind: draw, character: wren, cards: [dash, sidestep]}
  - {kind: draw, character: tormund, cards: [walk, power_strike]}
  - {kind: attack, character: wren, card: aimed_shot, with: longbow, target: boss, range_bonus: 2, bonus: 1, defence: 1, damage: 2, hp_left: 7}
  - {kind: move, character: wren, card: sidestep, path: [[7, 5]]}
  - {kind: attack, character: boss, card: grab, with: eldritch_focus, target: wren, status: [immobilised], damage: 1, hp_left: 7}
  - {kind: move, character: boss, card: walk, to: [10, 3]}
  - {kind: attack, character: boss, card: basic_attack, with: eldritch_focus, target: wren, defence: 3, damage: 1, hp_left: 6}
  - {kind: effect, character: boss, source: Venom Bite, target: tormund, status: [poisoned]}
  - {kind: turn, character: tormund, poison_roll: 3}
  - {kind: move, character: tormund, card: walk, path: [[5, 5], [6, 5]]}
  - {kind: discard, character: tormund, card: power_strike}
  - {kind: end_turn, character: tormund, hp: {boss: 7, wren: 6, tormund: 12}, statuses: {wren: [immobilised], tormund: [poisoned]}}
  - {kind: draw, character: boss, cards: [stomp, heavy_attack, lumber]}
  - {kind: draw, character: wren, cards: [special_attack, heavy_attack]}
  - {kind: draw, character: tormund, cards: [run, charge]}
  - {kind: ability, character: wren, ability: second_wind, sacrifice: dash}
  - {kind: effect, character: wren, source: second_wind, heal: 3, hp_left: 9}
  - {kind: attack, character: wren, card: heavy_attack, with: longbow, target: boss, damage: 3, hp_left: 4}
  - {kind: move, character: boss, card: stomp, path: [[9, 3]]}
  - {kind: attack, character: boss, card: roar}
  - {kind: effect, character: boss, source: roar, target: wren, status: [dazzled]}
  - {kind: discard, character: boss, card: heavy_attack}
  - {kind: turn, character: tormund, poison_roll: 2}
  - {kind: move, character: tormund, card: run, path: [[7, 4], [7, 3], [8, 3]]}
  - {kind: attack, character: tormund, card: charge, with: warhammer, target: boss, defence: 1, damage: 1, hp_left: 3}
  - {kind: end_turn, character: tormund, hp: {tormund: 10}}
"""

# SMALL and a fourth round: Wren is Dazzled (1 card, 1 action) and ends it with Volley.
SMALL4 = SMALL + """\
  - {kind: draw, character: boss, count: 3}
  - {kind: draw, character: wren, count: 1}
  - {kind: draw, character: tormund, count: 2}
  - {kind: feat, character: wren, count: 4}
  - {kind: attack, character: wren, source: Volley, attack: basic, with: longbow, target: boss, bonus: -1, damage: 1, hp_left: 2}
  - {kind: attack, character: wren, source: Volley, attack: basic, with: longbow, target: boss, bonus: -1, damage: 1, hp_left: 1}
  - {kind: attack, character: wren, source: Volley, attack: basic, with: longbow, target: boss, bonus: -1, damage: 1, hp_left: 0}
expect:
  winner: heroes
  round: 4
  hp: {boss: 0, wren: 9, tormund: 10}
"""

# Decks and piles: hidden hands, a big draw by card text, sacrifices, an empty deck reshuffled.
DECK = """\
game: boss_fight
map: pillars
boss: stalker.yaml
party: pair.yaml
events:
  - {kind: place, character: boss, at: [10, 3]}
  - {kind: place, character: wren, at: [1, 5]}
  - {kind: place, character: tormund, at: [0, 4]}
  - {kind: draw, character: boss, count: 4}
  - {kind: draw, character: wren, count: 4}
  - {kind: draw, character: tormund, cards: [whetstone, power_strike, walk, run]}
  - {kind: draw, character: tormund, count: 20, source: Ballad of Heroes}
  - {kind: discard, character: wren}
  - {kind: discard, character: wren}
  - {kind: discard, character: boss}
  - {kind: discard, character: boss}
  - {kind: discard, character: boss}
  - {kind: discard, character: tormund, card: whetstone}
  - {kind: discard, character: tormund, card: power_strike}
  - {kind: draw, character: boss, count: 3}
  - {kind: draw, character: wren, count: 2}
  - {kind: draw, character: tormund, count: 2}
  - {kind: draw, character: tormund, count: 4, source: Ballad of Heroes}
  - {kind: reshuffle, character: tormund}
  - {kind: draw, character: tormund, cards: [whetstone], source: Ballad of Heroes}
expect:
  characters: {tormund: {deck: 1, hand: 29, discard: 0}}
"""

# The Sunken Keep's moat: a Chasm cannot be entered, but sight crosses it (BF-MAP-1 ruling);
# Spore Cloud puts a Rubble token (an obstacle) on a free clear tile.
KEEP = """\
game: boss_fight
map: keep
boss: stalker.yaml
party: pair.yaml
events:
  - {kind: place, character: boss, at: [15, 14]}
  - {kind: place, character: wren, at: [16, 12]}
  - {kind: place, character: tormund, at: [0, 0]}
  - {kind: draw, character: boss, count: 4}
  - {kind: draw, character: wren, cards: [basic_attack, aimed_shot, walk, run]}
  - {kind: draw, character: tormund, count: 4}
  - {kind: attack, character: wren, card: basic_attack, with: longbow, target: boss, in_sight: true, damage: 2, hp_left: 7}
  - {kind: attack, character: wren, card: aimed_shot, with: longbow, target: boss, bonus: 1, damage: 3, hp_left: 4}
  - {kind: effect, character: boss, source: Spore Cloud, rubble: [[17, 13]]}
allow:
  - {rule: BF-PLACE-1, reason: "a test of the moat: the pieces start either side of it"}
"""

BASES = {"BASE": BASE, "SMALL": SMALL, "SMALL4": SMALL4, "DECK": DECK, "KEEP": KEEP}


BUILDS = {"stalker.yaml": STALKER, "pair.yaml": PAIR}     # the builds the small logs name, beside each log
_write = partial(checklogs.write, files=BUILDS)


def check(tmp_path: Path, text: str, name: str = "log.yaml", *extra: str) -> tuple[int, list[dict], dict]:
    """Write the log (and the builds) and check it: exit code, problems, final state."""
    return checklogs.check(GAME, _write(tmp_path, text, name), *extra)


END_ARENA = _ev("kind: attack, character: boss, card: sweep, with: bone_cleaver, target: maelis, defence: 3, "
                "damage: 10, hp_left: 0")
R3 = _ev("kind: draw, character: boss, cards: [basic_attack, heavy_attack, unleash]")
W_DIES = _ev("kind: death, character: wren")
ALDRIC_CHARGE = "card: charge, with: longsword, target: boss, defence: 3, damage: 1, hp_left: 26"
SLING = "kind: attack, character: boss, card: basic_attack, with: eldritch_focus, target: wren, defence: 3"

# (rule, base, old, new, the text of the line reported (default: the first line of new)).
CASES = [
    # BF-PLACE-1: distance 3 from every boss hex, the boss first, clear tiles, start zones, everyone
    ("BF-PLACE-1", "BASE", "character: aldric, at: [4, 2]", "character: aldric, at: [5, 3]", None),
    ("BF-PLACE-1", "BASE", _ev("kind: place, character: boss, at: [5, 5]") + _ev("kind: place, character: aldric, "
     "at: [4, 2]"), _ev("kind: place, character: aldric, at: [4, 2]") + _ev("kind: place, character: boss, "
     "at: [5, 5]"), None),
    ("BF-PLACE-1", "BASE", "character: boss, at: [5, 5]", "character: boss, at: [1, 5]", None),
    ("BF-PLACE-1", "BASE", _ev("kind: place, character: maelis, at: [3, 8]"), "",
     "kind: round, number: 1"),
    ("BF-PLACE-1", "SMALL", "character: wren, at: [1, 5]", "character: wren, at: [2, 5]", None),
    ("BF-PLACE-1", "SMALL", "character: boss, at: [10, 3]", "character: boss, at: [4, 3]", None),
    # BF-PLAYERS-1: the players header seats one Boss player (the boss alone) and the party's players
    ("BF-PLAYERS-1", "BASE", "party: lantern_company\n", "party: lantern_company\nplayers: {ana: [boss, aldric], "
     "bo: [wren, maelis]}\n", "players:"),
    # BF-INIT-1: by Agility at the round's start, highest first; one turn each
    ("BF-INIT-1", "BASE", "order: [boss, wren, aldric, maelis]", "order: [wren, boss, aldric, maelis]", None),
    ("BF-INIT-1", "BASE", "number: 1,", "number: 2,", None),
    ("BF-INIT-1", "SMALL", _ev("kind: move, character: wren, card: run, path: [[2, 5], [3, 5], [4, 5]]"),
     _ev("kind: move, character: tormund, card: run, path: [[1, 4], [2, 4], [3, 4]]")
     + _ev("kind: move, character: wren, card: run, path: [[2, 5], [3, 5], [4, 5]]"), None),
    ("BF-INIT-1", "BASE", _ev("kind: item, character: maelis, card: focus_elixir"),
     _ev("kind: move, character: boss, card: lunge, to: [4, 4]") + _ev("kind: item, character: maelis, "
     "card: focus_elixir"), None),
    # BF-DRAW-1: 4 in the first round, then 2 (heroes) and 3 (boss); Dazzled 1; the dead none
    ("BF-DRAW-1", "BASE", "cards: [heavy_attack, sweep, stomp]}", "cards: [heavy_attack, sweep, stomp, walk]}",
     None),
    ("BF-DRAW-1", "BASE", _ev("kind: draw, character: maelis, cards: [special_attack, bandage, run, walk]"), "",
     "kind: move, character: boss, card: walk"),
    ("BF-DRAW-1", "SMALL4", _ev("kind: draw, character: wren, count: 1"), _ev("kind: draw, character: wren, count: 2"),
     None),
    # a short round draw is reported at its own line, not at the round's first turn (issue 33)
    ("BF-DRAW-1", "SMALL4", _ev("kind: draw, character: boss, count: 3"), _ev("kind: draw, character: boss, count: 2"),
     None),
    ("BF-DRAW-1", "BASE", _ev("kind: draw, character: maelis, cards: [special_attack, sidestep], source: focus_elixir"),
     _ev("kind: draw, character: maelis, cards: [special_attack, sidestep]"), None),
    ("BF-DRAW-1", "BASE", "cards: [healing_potion, focus_elixir]}\n",
     "cards: [healing_potion, focus_elixir]}\n" + _ev("kind: draw, character: maelis, cards: [healing_potion]"),
     "cards: [healing_potion]"),
    # BF-DRAW-2: reshuffle only an empty deck; the piles wait until then; nothing left to draw
    ("BF-DRAW-2", "DECK", _ev("kind: discard, character: wren") + _ev("kind: discard, character: wren"),
     _ev("kind: reshuffle, character: tormund") + _ev("kind: discard, character: wren")
     + _ev("kind: discard, character: wren"), None),
    ("BF-DRAW-2", "DECK", _ev("kind: draw, character: boss, count: 3"),
     _ev("kind: draw, character: tormund, cards: [whetstone], source: Ballad of Heroes")
     + _ev("kind: draw, character: boss, count: 3"), None),
    ("BF-DRAW-2", "DECK", "cards: [whetstone], source: Ballad of Heroes}", "count: 4, source: Ballad of Heroes}",
     None),
    # BF-ACT-1: exactly 2 actions (hero) or 3 (boss), at most 2 attacks; Dazzled 1
    ("BF-ACT-1", "BASE", _ev("kind: move, character: maelis, card: run, path: [[3, 7], [3, 6], [3, 5]]"),
     _ev("kind: move, character: aldric, card: walk, path: [[3, 2]]")
     + _ev("kind: move, character: maelis, card: run, path: [[3, 7], [3, 6], [3, 5]]"), None),
    ("BF-ACT-1", "BASE", _ev("kind: attack, character: maelis, card: special_attack, with: holy_symbol, target: boss, "
     "defence: 4, damage: 1, hp_left: 28"), "", "kind: end_turn, character: maelis"),
    ("BF-ACT-1", "SMALL", "kind: move, character: boss, card: walk, path: [[9, 3]]}",
     "kind: attack, character: boss, card: grab, with: eldritch_focus, target: wren}", "card: unleash"),
    ("BF-ACT-1", "SMALL4", _ev("kind: feat, character: wren, count: 4"),
     _ev("kind: discard, character: wren") + _ev("kind: discard, character: wren")
     + _ev("kind: feat, character: wren, count: 4"), "kind: discard, character: wren}\n  - {kind: feat"),
    ("BF-ACT-1", "BASE", _ev("kind: move, character: maelis, card: run, path: [[3, 7], [3, 6], [3, 5]]"),
     _ev("kind: round") + _ev("kind: move, character: maelis, card: run, path: [[3, 7], [3, 6], [3, 5]]"), None),
    # BF-ACT-2: from hand; the right kind; Items to the Used pile
    ("BF-ACT-2", "BASE", "card: power_strike, with: longsword", "card: coordinated_strike, with: longsword", None),
    ("BF-ACT-2", "BASE", "card: healing_potion, heal: 4, hp_left: 10", "card: walk, heal: 4, hp_left: 10", None),
    ("BF-ACT-2", "BASE", "card: grab, with: bone_cleaver, target: wren", "card: grab, with: longbow, target: wren",
     None),
    ("BF-ACT-2", "BASE", "card: heavy_attack, with: longbow, target: boss, defence: 6",
     "card: run, attack: heavy, with: longbow, target: boss, defence: 6", None),
    # BF-ACT-3: a Heroic Feat expends exactly its cost from the Discard pile; heroes only
    ("BF-ACT-3", "SMALL4", "kind: feat, character: wren, count: 4", "kind: feat, character: wren, count: 3", None),
    ("BF-ACT-3", "BASE", _ev("kind: item, character: aldric, card: healing_potion, heal: 4, hp_left: 10"),
     _ev("kind: feat, character: aldric") + _ev("kind: item, character: aldric, card: healing_potion, heal: 4, "
     "hp_left: 10"), None),
    ("BF-ACT-3", "SMALL4", _ev("kind: draw, character: boss, count: 3"),
     _ev("kind: draw, character: boss, count: 3") + _ev("kind: feat, character: boss"), "kind: feat, character: boss"),
    # BF-ABIL-1: a used ability rests this round and the next; only one's own abilities
    ("BF-ABIL-1", "SMALL4", _ev("kind: feat, character: wren, count: 4"),
     _ev("kind: ability, character: wren, ability: second_wind, sacrifice: \"?\"")
     + _ev("kind: feat, character: wren, count: 4"), None),
    ("BF-ABIL-1", "SMALL", "ability: second_wind, sacrifice: dash", "ability: healing_hands, sacrifice: dash", None),
    # BF-MOVE-1: no obstacles or enemies on the way; steps to neighbours; up to the card's tiles;
    # not ending on an ally; the boss fits where it ends
    ("BF-MOVE-1", "SMALL", "card: walk, path: [[3, 5], [4, 5]]}", "card: walk, path: [[4, 4], [4, 5]]}", None),
    ("BF-MOVE-1", "BASE", "card: run, path: [[3, 7], [3, 6], [3, 5]]", "card: run, path: [[3, 6], [3, 5]]", None),
    ("BF-MOVE-1", "BASE", "card: run, path: [[3, 7], [3, 6], [3, 5]]",
     "card: run, path: [[3, 7], [3, 6], [3, 5], [3, 4]]", None),
    ("BF-MOVE-1", "SMALL", "card: walk, path: [[5, 5], [6, 5]]}\n  - {kind: discard",
     "card: walk, path: [[5, 5], [6, 5], [7, 5]]}\n  - {kind: discard", None),
    ("BF-MOVE-1", "BASE", "card: stomp, to: [4, 4], rotate: 5", "card: stomp, to: [4, 4], rotate: 2", None),
    ("BF-MOVE-1", "SMALL", "card: run, path: [[7, 4], [7, 3], [8, 3]]", "card: run, to: [10, 2]", None),
    ("BF-MOVE-1", "SMALL", "card: walk, path: [[9, 3]]}", "card: walk, to: [9, 4]}", None),
    ("BF-MOVE-1", "KEEP", _ev("kind: attack, character: wren, card: aimed_shot, with: longbow, target: boss, "
     "bonus: 1, damage: 3, hp_left: 4"), _ev("kind: move, character: wren, card: walk, path: [[15, 13], [14, 13]]"),
     None),
    # BF-MOVE-2: legs decide the boss's movement; Immobilised plays no Move actions
    ("BF-MOVE-2", "SMALL", "card: walk, path: [[9, 3]]}", "card: walk, path: [[9, 3], [8, 3]]}", None),
    ("BF-MOVE-2", "BASE", _ev("kind: attack, character: aldric, " + ALDRIC_CHARGE),
     _ev("kind: move, character: aldric, card: walk, path: [[3, 2]]"), None),
    # BF-LOS-1: sight from hex corner to hex corner; range
    ("BF-LOS-1", "SMALL", _ev("kind: move, character: boss, card: walk, path: [[9, 3]]")
     + _ev("kind: attack, character: boss, card: basic_attack, with: eldritch_focus, target: wren, defence: 2, "
           "damage: 1, hp_left: 8"),
     _ev("kind: attack, character: boss, card: basic_attack, with: eldritch_focus, target: wren, defence: 2, "
         "damage: 1, hp_left: 8") + _ev("kind: move, character: boss, card: walk, path: [[9, 3]]"), None),
    ("BF-LOS-1", "SMALL", SLING, SLING.replace("eldritch_focus", "vine_lash"), None),
    ("BF-LOS-1", "SMALL", "target: wren, status: [immobilised], damage: 1, hp_left: 7}",
     "target: wren, status: [immobilised], in_sight: true, damage: 1, hp_left: 7}", None),
    ("BF-LOS-1", "KEEP", "in_sight: true", "in_sight: false", None),
    # BF-LOS-2: out of sight only with sight on the attacker's previous turn
    ("BF-LOS-2", "SMALL", _ev("kind: attack, character: wren, card: aimed_shot, with: longbow, target: boss, "
     "range_bonus: 2, bonus: 1, defence: 1, damage: 2, hp_left: 7") + _ev("kind: move, character: wren, card: "
     "sidestep, path: [[7, 5]]"), _ev("kind: move, character: wren, card: sidestep, path: [[7, 5]]")
     + _ev("kind: attack, character: wren, card: aimed_shot, with: longbow, target: boss, range_bonus: 2, bonus: 1, "
           "defence: 1, damage: 2, hp_left: 7"), "kind: attack, character: wren, card: aimed_shot"),
    # BF-CMB-1: the defence d6; a 6 misses
    ("BF-CMB-1", "BASE", "defence: 3, defence_bonus: 1, damage: 6", "defence: 7, defence_bonus: 1, damage: 6", None),
    ("BF-CMB-1", "BASE", "defence: 6, hit: false}", "defence: 6, hit: true}", None),
    # BF-CMB-2: the damage formula and the Health left
    ("BF-CMB-2", "BASE", "defence: 3, defence_bonus: 1, damage: 6, hp_left: 6",
     "defence: 3, defence_bonus: 1, damage: 5, hp_left: 7", None),
    ("BF-CMB-2", "BASE", "damage: 2, hp_left: 29}", "damage: 2, hp_left: 28}", None),
    ("BF-CMB-2", "SMALL", "hp: {boss: 7, wren: 6, tormund: 12}", "hp: {boss: 6, wren: 6, tormund: 12}", None),
    # BF-CMB-3: death at 0 or below; the dead do not act and cannot be attacked
    ("BF-CMB-3", "BASE", W_DIES, W_DIES + _ev("kind: death, character: aldric"), "kind: death, character: aldric"),
    ("BF-CMB-3", "BASE", "card: sweep, with: siege_claw, target: aldric", "card: sweep, with: siege_claw, target: wren",
     None),
    ("BF-CMB-3", "BASE", _ev("kind: item, character: maelis, card: focus_elixir"),
     _ev("kind: move, character: wren, card: dash, path: [[7, 2]]")
     + _ev("kind: item, character: maelis, card: focus_elixir"), None),
    # BF-STATUS-1: Immobilised, Dazzled and Stunned end with the character's next turn
    ("BF-STATUS-1", "BASE", "statuses: {wren: []}", "statuses: {wren: [immobilised]}", None),
    ("BF-STATUS-1", "SMALL", "statuses: {wren: [immobilised], tormund: [poisoned]}",
     "statuses: {wren: [], tormund: [poisoned]}", None),
    # BF-STATUS-2: Poison costs 1 per action; a d6 at the start of the turn, 5–6 cures it
    ("BF-STATUS-2", "SMALL", _ev("kind: turn, character: tormund, poison_roll: 3"), "",
     "kind: move, character: tormund, card: walk, path: [[5, 5]"),
    ("BF-STATUS-2", "SMALL", "hp: {tormund: 10}", "hp: {tormund: 12}", None),
    ("BF-STATUS-2", "SMALL", "poison_roll: 3", "poison_roll: 0", None),
    ("BF-STATUS-2", "SMALL", "poison_roll: 2", "poison_roll: 6", "hp: {tormund: 10}"),
    # BF-END-1: the boss dead, the heroes win; all heroes dead, the boss wins; nothing after the end
    ("BF-END-1", "SMALL4", "hp_left: 0}\n", "hp_left: 0}\n" + _ev("kind: move, character: tormund, card: run, "
     "to: [8, 2]"), "kind: move, character: tormund, card: run"),
    ("BF-MAP-1", "KEEP", "rubble: [[17, 13]]", "rubble: [[16, 12]]", None),     # on Wren
    ("BF-MAP-1", "KEEP", "rubble: [[17, 13]]", "rubble: [[12, 13]]", None),     # in the moat
    ("BF-END-1", "SMALL4", "winner: heroes", "winner: boss", None),
    ("BF-END-1", "BASE", ALDRIC_CHARGE + "}\n", ALDRIC_CHARGE + "}\n" + _ev("kind: game_end, winner: heroes"),
     "kind: game_end"),
    ("BF-END-1", "SMALL4", "hp_left: 0}\n", "hp_left: 0}\n" + _ev("kind: game_end, winner: boss"), "kind: game_end"),
]


@pytest.mark.parametrize("name", sorted(BASES))
def test_legal_twins_pass(tmp_path, name):
    code, probs, _ = check(tmp_path, BASES[name])
    checklogs.assert_legal(code, probs, notes=True)


@pytest.mark.parametrize("rule,base,old,new,at", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_broken_at_its_line(tmp_path, rule, base, old, new, at):
    checklogs.assert_broken_at(GAME, tmp_path, BASES[base], rule, old, new, at, BUILDS)


# --- complete games ---------------------------------------------------------------------------------

GAMES = {"boss-wins-arena.yaml": ("boss", 4, {"boss": 24, "aldric": -2, "maelis": 0, "wren": -3}),
         "heroes-win-pillars.yaml": ("heroes", 5, {"boss": 0, "vex": -6, "morwen": 4, "lyra": 9, "brunhild": 4}),
         "heroes-win-pillars.jsonl": ("heroes", 5, {"boss": 0, "vex": -6, "morwen": 4, "lyra": 9, "brunhild": 4})}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_complete_games_end_with_the_right_winner(name):
    code, probs, final = checklogs.check(GAME, EXAMPLES / name)
    checklogs.assert_legal(code, probs)
    winner, rounds, hp = GAMES[name]
    assert final["winner"] == winner and final["round"] == rounds
    assert final["hp"] == hp


def test_the_expect_of_a_complete_game_is_checked(tmp_path):
    text = (EXAMPLES / "boss-wins-arena.yaml").read_text(encoding="utf-8")
    text, line = edit(text, "  winner: boss", "  winner: heroes")
    code, probs, _ = check(tmp_path, text)
    checklogs.assert_reported(code, probs, "BF-END-1", line)


def test_the_obstacle_map_catches_a_move_through_a_wall_and_an_attack_without_sight():
    """table-slips.yaml, on the Catacombs: each slip is marked in the log by a comment naming its rule."""
    probs = checklogs.assert_slips_are_marked(GAME, EXAMPLES / "table-slips.yaml", "# BF-")
    rules = {p["rule"] for p in probs if p["severity"] == "error"}
    assert {"BF-MOVE-1", "BF-LOS-1"} <= rules
    move = next(p for p in probs if p["rule"] == "BF-MOVE-1")
    assert "12,3 (Obstacle" in move["message"]
    los = next(p for p in probs if p["rule"] == "BF-LOS-1")
    assert "no line of sight" in los["message"]
    assert [p["severity"] for p in probs if p["rule"] == "BF-PLACE-1"] == ["note"]


# --- computations ------------------------------------------------------------------------------------

F = {"double_at": 2, "multiply": 2, "halve_at": 2, "divide": 2, "step": 1, "min_damage": 1}


@pytest.mark.parametrize("base,s,t,want", [
    (3, 12, 4, 6),      # S ≥ 2T: doubled
    (3, 8, 4, 6),       # exactly 2T
    (3, 2, 4, 2),       # S ≤ T/2: halved, rounded up
    (5, 4, 8, 3),
    (3, 5, 4, 4),       # S > T: +1
    (3, 3, 4, 2),       # S < T: −1
    (1, 3, 4, 1),       # not below 1
    (2, 5, 5, 2),       # equal
    (2, 0, 0, 4),       # ruling: the doubling test comes first (0 ≥ 2 × 0)
    (0, 9, 1, 0),       # no damage stays no damage
])
def test_damage_formula(base, s, t, want):
    assert damage_formula(base, s, t, F)[0] == want


def test_trace_shows_the_hex_map_pieces_and_health_after_each_turn(tmp_path):
    code, out = run_cli("check", GAME, str(_write(tmp_path, BASE)), "--trace")
    assert code == 0
    i = out.index("after boss's turn (round 1)")
    block = out[i:].splitlines()
    assert block[1].split() == [str(c % 10) for c in range(11)]            # column numbers
    assert block[2].split() == ["0", "#", ".", ".", ".", ".", "#"]         # row 0 of the arena
    assert "A" in block[4] and "W" in block[4] and block[5].count("B") == 3  # pieces by letter
    assert "B boss: 33/33 HP at 5,3" in out and "A aldric: 6/12 HP at 4,2" in out
    assert "W wren: 3/9 HP at 6,2 · Immobilised" in out
    assert "STR 12 vs 4 + defence 3 + 1 by card text = 8 → S > T: 5 + 1 = 6 damage; aldric 12 → 6 HP" in out
    assert out.count("key: . Floor · # Obstacle · % obstacle token") == 1           # the map's key, once
    assert "wren dies (-3 HP): a death token takes its place" in out
    j = out.index("after boss's turn (round 2)")
    assert " w " in out[j:j + 400].replace("\n", " ")                     # wren's death token, lower case


# A flat-top map (odd-q: the odd columns half a hex lower), with a wall two hexes thick and a
# chasm at its foot. Each step of the log below that is marked "flat only" joins hexes that are
# neighbours on this map but would not be on a pointy-top (odd-r) map with the same numbers.
FLAT_HALL = """\
map:
  name: The Flat Hall
  orientation: flat
  layout: |
    . . . . . # # . . . . . .
    . . . . . # # . . . . . .
    . . . . . # # . . . . . .
    . . . . . # # . . . . . .
    . . . . . # # . . . . . .
    . . . . . # # . . . . . .
    . . . . ~ . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
"""
# The Ember Wyrm turned 2×60° stands on 10,0 10,1 10,2 9,3 10,3 9,4 9,5, east of the wall; the heroes
# 3 or more hexes away (BF-PLACE-1). Its walk ends 9,4 → 9,5 → 8,6 (flat only). Wren starts behind
# the wall, out of sight, runs 2,2 → 1,2 → 2,3 (flat only) → 2,4, where she sees the boss, 6 away.
FLAT = """\
game: boss_fight
rules_version: "1.0"
map: flat_hall
boss: ember_wyrm
party: lantern_company
events:
  - {kind: place, character: boss, at: [9, 4], rotate: 2}
  - {kind: place, character: aldric, at: [1, 0]}
  - {kind: place, character: wren, at: [2, 2]}
  - {kind: place, character: maelis, at: [1, 7]}
  - {kind: round, number: 1, order: [boss, wren, aldric, maelis]}
  - {kind: draw, character: boss, cards: [walk, heavy_attack, grab, lunge]}
  - {kind: draw, character: wren, cards: [run, basic_attack, aimed_shot, heavy_attack]}
  - {kind: draw, character: aldric, cards: [walk, heavy_attack, power_strike, healing_potion]}
  - {kind: draw, character: maelis, cards: [special_attack, bandage, run, walk]}
  - {kind: move, character: boss, card: walk, path: [[9, 5], [8, 6]]}
  - {kind: discard, character: boss, card: grab}
  - {kind: discard, character: boss, card: lunge}
  - {kind: move, character: wren, card: run, path: [[1, 2], [2, 3], [2, 4]]}
  - {kind: attack, character: wren, card: basic_attack, with: longbow, target: boss, defence: 1, damage: 1, hp_left: 32}
  - {kind: end_turn, character: wren, hp: {boss: 32}}
"""


def test_a_flat_top_map_is_checked_and_drawn_with_its_columns(game_copy):
    g = game_copy(GAME)
    g.write("maps/boss_fight/flat_hall.yaml", FLAT_HALL)
    code, out = run_cli("check", GAME, str(g.write("log.yaml", FLAT)), "--trace", root=g.root)
    assert code == 0, out
    assert "turned 2×60°): 10,0 10,1 10,2 9,3 10,3 9,4 9,5" in out
    assert "the boss moves its anchor [0, 0] 9,4 → 8,6 in 2 steps: 9,1 9,2 9,3 9,4 8,5 8,6 8,7" in out
    assert "wren moves 2,2 → 2,4 (3 steps)" in out and "(range 6, distance 6; in sight)" in out
    # Two text lines a row, both numbered with it: the even columns on the first, the odd ones,
    # half a hex lower, on the second; two characters a column under the column numbers.
    i = out.index("after wren's turn (round 1)")
    block = [ln[6:] for ln in out[i:].splitlines()[1:20]]
    assert block[0] == "     0 1 2 3 4 5 6 7 8 9 0 1 2"
    assert block[1:3] == ["   0 .   .   .   #   .   .   .",        # 0,0 2,0 4,0 6,0 (wall) 8,0 …
                          "   0   A   .   #   .   .   ."]          # 1,0 Aldric, 3,0, 5,0 (wall) …
    assert block[3:5] == ["   1 .   .   .   #   .   .   .",
                          "   1   .   .   #   .   B   ."]          # 9,1: the boss's top hex
    assert block[9:13] == ["   4 .   W   .   #   .   .   .",       # 2,4 Wren
                           "   4   .   .   #   .   B   .",         # 9,4
                           "   5 .   .   .   #   B   .   .",       # 8,5 beside the wall's 6,5
                           "   5   .   .   #   .   .   ."]
    assert block[13] == "   6 .   .   ~   .   B   .   ."           # 4,6 the chasm; 8,6 the boss's anchor
    assert block[16] == "   7   M   .   .   .   .   ."              # 1,7 Maelis
    assert block[17:19] == ["   8 .   .   .   .   .   .   .", "   8   .   .   .   .   .   ."]
    _, _, final = checklogs.check(GAME, g.path("log.yaml"), root=g.root)
    assert final["characters"]["boss"]["cells"] == [[9, 1], [9, 2], [9, 3], [9, 4], [8, 5], [8, 6], [8, 7]]
    assert final["characters"]["wren"]["at"] == [2, 4]


@pytest.mark.parametrize("rule,old,new,at,says", [
    ("BF-PLACE-1", "maelis, at: [1, 7]", "maelis, at: [7, 5]", "maelis", "2 tiles"),         # 2 from the boss's 9,5
    ("BF-MOVE-1", "[[9, 5], [8, 6]]", "[[9, 5], [10, 4]]", "[[9, 5]", "not to a neighbouring hex"),  # pointy only
    ("BF-MOVE-1", "[[1, 2], [2, 3], [2, 4]]", "[[1, 3], [1, 4], [2, 4]]", "[[1, 3]", "2,2 → 1,3 is not one step"),
    ("BF-LOS-1", "[[1, 2], [2, 3], [2, 4]]", "[[3, 2], [3, 3], [4, 3]]", "kind: attack", "no line of sight"),
])
def test_a_flat_top_map_breaks_placement_movement_and_sight(game_copy, rule, old, new, at, says):
    """The twins of the flat-top log: a hero too near the boss, a step to a hex that is a neighbour only on
    a pointy-top map (for the boss and for a hero), an attack from 4,3, where the wall hides the boss."""
    g = game_copy(GAME)
    g.write("maps/boss_fight/flat_hall.yaml", FLAT_HALL)
    text, line = edit(FLAT, old, new, at)
    code, probs, _ = checklogs.check(GAME, g.write("log.yaml", text), root=g.root)
    checklogs.assert_reported(code, probs, rule, line)
    assert any(p["rule"] == rule and says in p["message"] for p in probs), probs


def test_final_state_in_json(tmp_path):
    code, probs, final = check(tmp_path, SMALL4)
    assert code == 0, probs
    assert final["winner"] == "heroes" and final["dead"] == ["boss"]
    assert final["characters"]["wren"]["statuses"] == ["dazzled"] and final["characters"]["wren"]["at"] == [7, 5]
    assert final["characters"]["boss"]["cells"] == [[9, 3]]
    assert final["characters"]["tormund"]["statuses"] == ["poisoned"]
    assert final["characters"]["wren"]["expended"] == 4


def test_half_movement_and_legs_in_the_message(tmp_path):
    text, line = edit(SMALL, "card: walk, path: [[9, 3]]}", "card: walk, path: [[9, 3], [8, 3]]}")
    _, probs, _ = check(tmp_path, text)
    msg = next(p["message"] for p in probs if p["rule"] == "BF-MOVE-2")
    assert "Walk Movement gives 2" in msg and "1 Leg piece" in msg and "half, rounded down: 1" in msg


def test_a_chasm_is_crossed_by_sight_but_not_by_feet(tmp_path):
    code, out = run_cli("check", GAME, str(_write(tmp_path, KEEP)), "--trace")
    assert code == 0 and "in sight" in out
    text, line = edit(KEEP, _ev("kind: attack, character: wren, card: aimed_shot, with: longbow, target: boss, "
                                "bonus: 1, damage: 3, hp_left: 4"),
                      _ev("kind: move, character: wren, card: walk, path: [[15, 13]]"))
    _, probs, _ = check(tmp_path, text)
    assert any(p["rule"] == "BF-MOVE-1" and "Chasm" in p["message"] and p["line"] == line for p in probs), probs


def test_hidden_hands_cannot_play_more_copies_than_the_deck_holds(tmp_path):
    text, line = edit(DECK, _ev("kind: discard, character: wren") + _ev("kind: discard, character: wren"),
                      _ev("kind: discard, character: wren, card: flurry") + _ev("kind: discard, character: wren"))
    code, probs, _ = check(tmp_path, text)
    checklogs.assert_reported(code, probs, "BF-ACT-2", line)
    assert "not in its action deck" in probs[0]["message"]


def test_a_draw_from_an_empty_deck_reshuffles_by_itself(tmp_path):
    text, _ = edit(DECK, _ev("kind: reshuffle, character: tormund"), "", "kind: draw")
    code, out = run_cli("check", GAME, str(_write(tmp_path, text)), "--trace")
    assert code == 0
    assert "tormund shuffles its Discard and Expended piles into a new deck (2 cards)" in out


def test_strict_stops_at_the_first(tmp_path):
    text, line = edit(BASE, "defence: 3, defence_bonus: 1, damage: 6", "defence: 9, defence_bonus: 1, damage: 1")
    checklogs.assert_strict_reports_one(GAME, _write(tmp_path, text), line)


def test_allow_turns_a_violation_into_a_note(tmp_path):
    text, line = edit(BASE, "character: aldric, at: [4, 2]", "character: aldric, at: [5, 3]")
    text = text.replace("path: [[5, 4], [5, 3]]", "path: [[5, 4]]").replace(
        "target: aldric, defence: 3", "target: aldric, defence: 3, note: adjacent")
    code, probs, _ = check(tmp_path, text + "allow:\n  - {rule: BF-PLACE-1, reason: a closer start}\n"
                                           "  - {rule: BF-MOVE-1, reason: ''}\n  - {rule: BF-LOS-1, reason: ''}\n"
                                           "  - {rule: BF-CMB-2, reason: ''}\n")
    assert code == 0, probs
    assert ("BF-PLACE-1", "note", line) in [(p["rule"], p["severity"], p["line"]) for p in probs]


def test_text_output_names_file_line_rule(tmp_path):
    text, line = edit(BASE, "defence: 3, defence_bonus: 1", "defence: 7, defence_bonus: 1")
    checklogs.assert_text_output_names_the_line(GAME, _write(tmp_path, text), line,
                                                "BF-CMB-1 error: aldric's defence d6 shows 7")


@pytest.mark.parametrize("old,new,rule", [
    ("multiply: 2", "multiply: 3", "BF-CMB-2"),                 # a doubled hit would deal 9, not 6
    ("draw: {hero: 2, boss: 3,", "draw: {hero: 2, boss: 4,", "BF-DRAW-1"),
    ("placement_distance: 3", "placement_distance: 5", "BF-PLACE-1"),
    ("movement_by_legs: [0, 0.5, 1]", "movement_by_legs: [0, 0, 1]", "BF-MOVE-2"),
])
def test_the_rules_numbers_come_from_params(game_copy, old, new, rule):
    g = game_copy(GAME)
    g.edit("rules/boss_fight/params.yaml", old, new)
    checklogs.assert_params_decide(GAME, g.root, SMALL if "legs" in old else BASE, rule, BUILDS)


def test_a_missing_rules_number_is_named(game_copy):
    g = game_copy(GAME)
    g.edit("rules/boss_fight/params.yaml", "poison_damage: 1", "poison_hurts: 1")
    p = g.write("log.yaml", BASE)
    code, out = run_cli("check", GAME, str(p), "--format", "json", root=g.root)
    prob = json.loads(out)["problems"][0]
    assert code == 2 and prob["rule"] == "LOG-GAME" and "poison_damage" in prob["message"]


def test_construction_rules_are_checked_on_the_builds(tmp_path):
    (tmp_path / "big.yaml").write_text(STALKER.replace("walk: 6,", "walk: 7,"), encoding="utf-8")
    text = SMALL.replace("boss: stalker.yaml", "boss: big.yaml")
    code, probs, _ = check(tmp_path, text)
    assert code == 1 and any(p["rule"] == "BF-DECK-1" and p["file"].endswith("big.yaml") for p in probs)


# --- unreadable logs: exit 2 with file:line, never a traceback -----------------------------------------------

@pytest.mark.parametrize("base,old,new,rule", [
    ("BASE", "map: arena", "map: arenna", "LOG-FIELD"),
    ("BASE", "boss: ember_wyrm", "boss: ember_worm", "LOG-FIELD"),
    ("BASE", "party: lantern_company", "party: ember_wyrm", "LOG-FIELD"),
    ("BASE", "{kind: place, character: wren, at: [6, 2]}", "{kind: place, character: wrenn, at: [6, 2]}", "LOG-FIELD"),
    ("BASE", "{kind: place, character: wren, at: [6, 2]}", "{kind: place, character: wren, at: [6]}", "LOG-FIELD"),
    ("BASE", "{kind: place, character: wren, at: [6, 2]}", "{kind: plaice, character: wren, at: [6, 2]}", "LOG-EVENT"),
    ("BASE", "card: walk, path: [[5, 4], [5, 3]]", "card: wlak, path: [[5, 4], [5, 3]]", "LOG-FIELD"),
    ("BASE", "card: walk, path: [[5, 4], [5, 3]]", "path: [[5, 4], [5, 3]]", "LOG-FIELD"),
    ("BASE", "card: walk, path: [[5, 4], [5, 3]]", "card: walk, anchor: [9, 9], path: [[5, 4]]", "LOG-FIELD"),
    ("BASE", "defence: 2, status: [immobilised]", "defence: 2, status: [frozen]", "LOG-FIELD"),
    ("SMALL", "ability: second_wind", "ability: third_wind", "LOG-FIELD"),
    ("BASE", "game: boss_fight", "game: bone_wars", "LOG-GAME"),
])
def test_unreadable_logs_exit_2_with_line(tmp_path, base, old, new, rule):
    text, line = edit(BASES[base], old, new)
    checklogs.assert_exit_2_at(GAME, _write(tmp_path, text), rule, line)


# --- JSON Lines, property tests ------------------------------------------------------------------------------

LOGS = {**BASES, **{n: (EXAMPLES / n).read_text(encoding="utf-8") for n in
                    ("boss-wins-arena.yaml", "heroes-win-pillars.yaml", "table-slips.yaml")},
        **{f"case{i}": edit(BASES[c[1]], c[2], c[3], c[4])[0] for i, c in enumerate(CASES) if i % 3 == 0}}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(LOGS)), cut=st.integers(min_value=0, max_value=checklogs.CUT_MAX))
def test_yaml_and_jsonl_replay_identically(tmp_path, name, cut):
    """A log re-serialised as JSON Lines (whole, or cut after any event) replays identically."""
    checklogs.assert_yaml_and_jsonl_replay_identically(GAME, tmp_path, LOGS[name], cut, BUILDS, builds=True)


LEGAL = ["BASE", "SMALL", "SMALL4", "DECK", "KEEP", "boss-wins-arena.yaml", "heroes-win-pillars.yaml"]


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(LEGAL), cut=st.floats(0, 1))
def test_a_legal_log_cut_anywhere_and_replayed_stays_legal(name, cut):
    """A legal log's events replayed (cut anywhere, as YAML and as JSON Lines) give a legal log."""
    checklogs.assert_a_prefix_replays_the_same(GAME, LOGS[name], cut, legal=True, files=BUILDS, messages=True)


_KINDS = sorted(BF_EVENTS)
_VALUES = st.one_of(st.none(), st.integers(-3, 40), st.sampled_from(
    ["boss", "wren", "aldric", "maelis", "tormund", "walk", "basic_attack", "longbow", "?", "", "x", "poisoned",
     "second_wind", "Volley", "heroes"]),
    st.booleans(), st.lists(st.integers(-1, 14), min_size=0, max_size=3),
    st.lists(st.lists(st.integers(-1, 14), min_size=2, max_size=2), max_size=4),
    st.dictionaries(st.sampled_from(["boss", "wren", "agility"]), st.integers(-2, 12), max_size=2))


mutations = partial(
    checklogs.mutated, [LOGS[n] for n in ("BASE", "SMALL", "SMALL4", "DECK", "boss-wins-arena.yaml")],
    ["drop", "dup", "swap_any", "field", "kind", "del", "header", "add"], values=_VALUES, kinds=_KINDS,
    events=BF_EVENTS, header=checklogs.set_header(["map", "boss", "party", "players"], st.one_of(
        _VALUES, st.just("keep"), st.just("stalker.yaml"), st.just("pair.yaml"))))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=mutations(), jsonl=st.booleans())
def test_checker_never_raises_on_fuzzed_logs(tmp_path, doc, jsonl):
    code, probs, _ = checklogs.replay_in_form(GAME, tmp_path, doc, jsonl, BUILDS, builds=True)
    assert code in (0, 1, 2)
    assert not any(p[0] == "CHECK-INTERNAL" for p in probs), probs


# --- the table for programs ------------------------------------------------------------------------------------

_GAME = load_game(ROOT, GAME, Problems())


def test_moves_follow_the_state():
    d = load(BASE)
    events = d.pop("events")
    eng = Table(_GAME, d, {}, Slips())
    eng.start()
    for i, ev in enumerate(events[:12]):
        spec = BF_EVENTS[ev["kind"]]
        full = {k: None if o.default is MISSING else o.default for k, o in spec.items()} | ev
        e = Event(i, ev["kind"], full, Loc("t", i + 1, 1))
        eng.before(e)
        eng.apply(e)
    assert eng.legal_moves("maelis", 3) >= {(3, 5), (4, 7), (3, 8)} and (3, 4) not in eng.legal_moves("maelis", 3)
    ends = eng.legal_moves("boss", 2)
    assert (5, 3, 0) in ends and all(len(x) == 3 for x in ends)


@pytest.mark.parametrize("name", ["BASE", "SMALL", "SMALL4", "DECK", "boss-wins-arena.yaml",
                                  "heroes-win-pillars.yaml"])
def test_every_event_of_a_legal_log_replays_legal(tmp_path, name):
    """Over the contract (the shared replay): no event of a legal log is rejected (KEEP, whose
    pieces start outside the Sunken Keep's zones, is a log of the map's rulings, not a legal one)."""
    path = _write(tmp_path, LOGS[name]) if name in BASES else EXAMPLES / name
    with sources.project(ROOT), sources.beside(path):
        ref, log = playkit.log_referee(BossRules(_GAME), path, Engine, GAME)
        assert ref.replay(playkit.events_of(log)) == []
    if name.endswith(".yaml"):
        assert ref.state.result()["winner"] is not None


def test_a_wrong_damage_with_the_right_health_left_is_one_problem(tmp_path):
    """The boss's hit on aldric written as 5 damage while the Health left, 6, is the rules' (6 damage):
    one BF-CMB-2 at that line, not a second one for the Health; the legal twin is BASE."""
    old = "defence: 3, defence_bonus: 1, damage: 6, hp_left: 6"
    text, line = checklogs.edit(BASE, old, old.replace("damage: 6", "damage: 5"))
    text = text[: text.index("expect:")] if "expect:" in text else text
    code, probs, _ = checklogs.check(GAME, _write(tmp_path, text))
    assert [(p["rule"], p["line"]) for p in checklogs.errors(probs)] == [("BF-CMB-2", line)], probs

"""Boss Fight playtest logs: the typed header and event kinds (``cardgen check boss_fight``,
the schema and reference ``cardgen.reference.logschema`` generates)."""

from __future__ import annotations

from cardgen.core.options import Opt

BOSS = "boss"                 # the boss's name in events
HEROES = "heroes"             # the heroes' side, as a winner
HIDDEN = "?"                  # a card left out of the log
#: what a log may still state after the game ended
CLAIMS_AFTER_END = ("death", "game_end", "end_turn")
#: the rule of each final claim (``expect``)
EXPECT_RULES = {
    "winner": "BF-END-1", "round": "BF-INIT-1", "hp": "BF-CMB-2", "dead": "BF-CMB-3",
    "characters": "BF-CMB-2", "health": "BF-CMB-2", "statuses": "BF-STATUS-1", "at": "BF-MOVE-1",
    "cells": "BF-MOVE-1", "hand": "BF-DRAW-1", "deck": "BF-DRAW-2", "discard": "BF-ACT-2",
    "expended": "BF-ACT-3", "used": "BF-ACT-2",
}


def _cell_opt(doc: str, required: bool = False) -> Opt:
    return Opt("list", required=required, item=Opt("int"), min=2, max=2, doc=doc)


def _who(doc: str, required: bool = True) -> Opt:
    return Opt("str", required=required, doc=doc)


_CELLS = Opt("list", item=_cell_opt("a hex [col, row]"), doc="stated: every hex the piece covers afterwards, "
             "[[col, row], …] (checked)")
_CARD = Opt("str", doc="the action card played from hand (id or name): the action")
_SOURCE = Opt("str", doc="instead of a card: the card whose text grants this without an action (Charge, Pounce, "
              "a Heroic Feat, Riposte …)")

BF_EVENTS: dict[str, dict[str, Opt]] = {
    "place": {
        "character": _who("'boss' or a hero (id or name) put on the map (BF-PLACE-1)"),
        "at": _cell_opt("the hex [col, row] (map coordinates, as the map file counts them); for the boss, where "
                        "its anchor cell goes", required=True),
        "rotate": Opt("int", doc="the boss: turned by this many 60° steps from its build's drawing (default 0)"),
        "anchor": _cell_opt("the boss: the cell [q, r] of its build (axial, as the build file places pieces) put "
                            "on 'at' (default [0, 0])"),
        "cells": _CELLS,
    },
    "round": {
        "number": Opt("int", doc="stated: the round's number (checked)"),
        "order": Opt("list", item=Opt("str"), doc="stated: the turn order of the round (checked, BF-INIT-1)"),
    },
    "draw": {
        "character": _who("who draws"),
        "count": Opt("int", min=0, doc="how many cards (default: as many as 'cards' names, else what the round "
                                       "gives)"),
        "cards": Opt("list", item=Opt("str"), doc="the cards drawn, by id or name; may name some, all or none"),
        "source": Opt("str", doc="the card whose text makes this draw (Elixir of Focus, Bloodlust …); without it "
                                 "the draw is the round's (BF-DRAW-1)"),
    },
    "reshuffle": {
        "character": _who("whose Discard and Expended piles become a new action deck (BF-DRAW-2)"),
    },
    "turn": {
        "character": _who("whose turn starts (optional: the first action starts it)"),
        "poison_roll": Opt("int", doc="a Poisoned character's die roll at the start of its turn (BF-STATUS-2)"),
    },
    "move": {
        "character": _who("who moves"),
        "card": _CARD, "source": _SOURCE,
        "path": Opt("list", item=_cell_opt("a hex [col, row]"),
                    doc="the hexes stepped into, in order (the boss: its anchor's); the start may be included"),
        "to": _cell_opt("where the move ends (the boss: its anchor); without a path the checker finds a way"),
        "anchor": _cell_opt("the boss: the build cell [q, r] that walks the path (default: its placement anchor)"),
        "rotate": Opt("int", doc="the boss: its turn in 60° steps after the move (default: unchanged)"),
        "bonus": Opt("int", doc="tiles added (or taken) by card text the checker does not read (Fleet-Footed, "
                                "Gallop, Sluggish)"),
        "crosses": Opt("enum", choices=("pieces", "obstacles", "both"),
                       doc="card text lets this move cross pieces or obstacles (Tumble, Flight, Leap, Vanish); "
                           "where it ends must still be clear"),
        "swap": Opt("str", doc="swap places with this adjacent hero instead of a path (Regroup)"),
        "cells": _CELLS,
    },
    "attack": {
        "character": _who("the attacker"),
        "card": _CARD, "source": _SOURCE,
        "target": Opt("str", doc="the character attacked (none: an attack action with no roll, e.g. Terrifying "
                                 "Roar; its effects follow as 'effect' events)"),
        "with": Opt("str", doc="the equipment (or Boss Piece with an attack in its text) used; default: the one "
                               "thing the attacker carries that makes this attack"),
        "attack": Opt("str", doc="basic, heavy or special (default: the card's)"),
        "defence": Opt("int", doc="the defender's defence die roll, when it rolls (BF-CMB-1)"),
        "defence_bonus": Opt("int", doc="added to the defence roll by card text (Kite Shield, Shieldwall, "
                                        "Terrifying Presence −1)"),
        "base": Opt("int", min=0, doc="the attack's damage before the comparison, when no equipment line gives it"),
        "stat": Opt("str", doc="the combat statistic compared (default: the equipment's)"),
        "range": Opt("int", min=0, doc="the attack's range in tiles (default: the equipment's)"),
        "range_bonus": Opt("int", doc="range added by card text (Aimed Shot +2, Keen Eye +1)"),
        "sight": Opt("bool", doc="whether the attack needs line of sight (default: the equipment's)"),
        "bonus": Opt("int", doc="damage added by card text before the comparison (Power Strike +1, Whetstone)"),
        "reduce": Opt("int", min=0, doc="damage taken off after the comparison by card text, never below 1 "
                                        "(Thick Hide, Chain Mail)"),
        "status": Opt("list", item=Opt("str"), doc="statuses a hit inflicts by the attack's text (BF-STATUS-1)"),
        "in_sight": Opt("bool", doc="stated: the target is in line of sight (checked, BF-LOS-1)"),
        "hit": Opt("bool", doc="stated: the attack hit (checked, BF-CMB-1)"),
        "damage": Opt("int", doc="stated: the damage dealt (checked, BF-CMB-2)"),
        "hp_left": Opt("int", doc="stated: the target's Health afterwards (checked, BF-CMB-2)"),
    },
    "item": {
        "character": _who("who uses the Item card"),
        "card": Opt("str", required=True, doc="the Item card from hand: it goes to the Used pile (BF-ACT-2)"),
        "target": Opt("str", doc="who is healed (default: the user)"),
        "heal": Opt("int", min=0, doc="Health the card heals (Healing Potion 4, Regenerate 5)"),
        "hp_left": Opt("int", doc="stated: the healed character's Health afterwards (checked)"),
        "attack_limit": Opt("int", min=0, doc="the boss's attack limit this turn, raised by the card (Bloodlust)"),
    },
    "discard": {
        "character": _who("who sacrifices a card: an action (BF-ACT-2)"),
        "card": Opt("str", doc="the card sacrificed from hand (may be left out)"),
    },
    "ability": {
        "character": _who("whose ability"),
        "ability": Opt("str", required=True, doc="an Ability card, the hero card's ability or a Boss Piece's "
                                                 "(by id or name)"),
        "sacrifice": Opt("str", doc="the action card sacrificed to use it ('?' if not named): then it uses an "
                                    "action"),
        "uses_action": Opt("bool", default=False, doc="it takes up an action without a sacrifice"),
        "expend": Opt("int", min=0, doc="cards it expends from the Discard pile (BF-ACT-3)"),
        "expended": Opt("list", item=Opt("str"), doc="the cards expended, by name (optional)"),
    },
    "feat": {
        "character": _who("the hero using its Heroic Feat (not an action, BF-ACT-3)"),
        "count": Opt("int", min=0, doc="cards expended from the Discard pile (default: the feat's cost)"),
        "cards": Opt("list", item=Opt("str"), doc="the cards expended, by name (optional)"),
    },
    "effect": {
        "character": _who("whose card it is (default: whoever is acting)", required=False),
        "source": Opt("str", required=True, doc="the card, ability, feat or piece whose text this is"),
        "target": Opt("str", doc="the character affected (default: the character)"),
        "damage": Opt("int", min=0, doc="Health lost (applied, BF-CMB-3)"),
        "heal": Opt("int", min=0, doc="Health regained"),
        "hp_left": Opt("int", doc="stated: the target's Health afterwards (checked)"),
        "status": Opt("list", item=Opt("str"), doc="statuses inflicted (BF-STATUS-1)"),
        "cure": Opt("list", item=Opt("str"), doc="statuses removed ('all' for every one)"),
        "stats": Opt("map", item=Opt("int"), doc="statistics changed, e.g. {agility: -1}"),
        "until": Opt("enum", choices=("round", "turn", "game"), default="round",
                     doc="how long 'stats' last: the round, the target's next turn, or the game"),
        "to": _cell_opt("the target is pushed, thrown or put there (checked: a free clear tile, BF-MOVE-1)"),
        "revive": Opt("bool", default=False, doc="the target hero returns at its death token with 'heal' Health"),
        "expend": Opt("int", min=0, doc="cards the character expends from its Discard pile by this text (a "
                                        "Spellbook's Special Attack; BF-ACT-3)"),
        "returns": Opt("list", item=Opt("str"), doc="cards put from the target's hand on top of its action deck "
                                                    "(Ancient Cunning); '?' for one not named"),
        "rubble": Opt("list", item=_cell_opt("a hex [col, row]"),
                      doc="obstacle tokens put on these hexes, each a free clear tile (BF-MAP-1)"),
        "clear": Opt("list", item=_cell_opt("a hex [col, row]"), doc="obstacle tokens removed from these hexes"),
    },
    "end_turn": {
        "character": _who("whose turn ends (optional: the next character's first action ends it)"),
        "hp": Opt("map", item=Opt("int"), doc="stated: Health now, by character (checked)"),
        "statuses": Opt("map", item=Opt("list", item=Opt("str")),
                        doc="stated: statuses now, by character, e.g. {boss: [dazzled]} (checked, BF-STATUS-1)"),
    },
    "death": {
        "character": _who("stated: the character dies and leaves a death token (checked, BF-CMB-3)"),
    },
    "game_end": {
        "winner": Opt("enum", choices=(BOSS, HEROES), doc="stated: who won (checked, BF-END-1)"),
    },
}

BF_HEADER: dict[str, Opt] = {
    "map": Opt("str", required=True, doc="the map: a file of maps/boss_fight/ (without .yaml) or its printed name"),
    "boss": Opt("str", required=True, doc="the boss build: a preset (boss_ember_wyrm, ember_wyrm or 'The Ember "
                                          "Wyrm') or a build file, relative to the log; its 'cards' are the action "
                                          "deck"),
    "party": Opt("str", required=True, doc="the hero party: a preset (party_lantern_company, lantern_company …) "
                                           "or a party file, relative to the log; each hero's 'cards' its deck"),
    "players": Opt("map", doc="who played what, e.g. {ana: [boss], bo: [aldric, maelis]}: 2–5 players, one "
                   "playing the boss alone, each hero played by one of the others (checked, BF-PLAYERS-1)"),
}

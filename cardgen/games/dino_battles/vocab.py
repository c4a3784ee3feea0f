"""Biomechanic Dino Battles: the playtest log's vocabulary — header keys and event kinds with
their typed fields (``docs/schemas/dino_battles.schema.json`` is generated from them).
"""

from __future__ import annotations

from cardgen.core.options import Opt

# ---------------------------------------------------------------------------------------
# The log's vocabulary: header keys and event kinds with their typed fields.

PHASES = ("startup", "precombat_main", "combat", "postcombat_main", "end")
MAIN_PHASES = ("precombat_main", "postcombat_main")
ANSWERS = ("counterattack", "evade", "defend", "no_answer")
REACTIONS = ("action", "use_item", "effect", "discard", "draw", "retreat")   # may come between a move and its answer
KO_WINDOW = ("action", "use_item", "effect", "knock_out")                    # may come between damage and its K.O.


def _player(doc: str = "the acting player") -> Opt:
    return Opt("str", required=True, doc=doc)


_HP = Opt("map", doc="stated: HP afterwards, by player: a number (the active Dinosaur) or {Dinosaur: HP} (checked)")
_DAMAGE = Opt("map", item=Opt("int"), doc="stated: HP each player's active Dinosaur lost in this exchange, "
              "Spiked damage included (checked)")
_NEGATED = Opt("str", doc="an Item or Action whose text makes the attack have no effect (Smoke Pod); "
               "it must have been used this turn")
_MOVE = {
    "player": _player("the player who moves"),
    "cards": Opt("list", item=Opt("str"), doc="the Combat cards played from the Combat Deck (default: what the "
                 "move needs; checked, BDB-CMB-2)"),
    "roll": Opt("int", doc="the die rolled for the move (not needed when a paralyzed Dinosaur's move fails)"),
    "bonus": Opt("int", doc="a modifier from card text the checker does not read — a Special Attack's '+4 ATK', "
                 "an Item, an Action — added to the total"),
    "total": Opt("int", doc="stated: die + stat + bonus (checked)"),
    "paralyze_roll": Opt("int", doc="the die a paralyzed Dinosaur rolls before it moves (BDB-ABIL-1)"),
}
_RESULT = {"damage": _DAMAGE, "hp": _HP, "negated_by": _NEGATED}
_SPECIAL = Opt("str", doc="a Special Attack of the active Dinosaur, by name: it costs the cards it names (BDB-CMB-2)")

EVENTS: dict[str, dict[str, Opt]] = {
    # -- setup
    "initiative_roll": {
        "roll": Opt("int", required=True, doc="the die rolled: even gives the first player the Initiative token, "
                    "odd the second (BDB-SETUP-1)"),
        "holder": Opt("str", doc="stated: who takes the Initiative token (checked)"),
    },
    "draw": {
        "player": _player("the player who draws"),
        "count": Opt("int", min=0, doc="how many cards (default: as many as 'cards' names; in setup the hand "
                     "size, in the End phase what fills the hand)"),
        "cards": Opt("list", item=Opt("str"), doc="the cards drawn; may name only some or none of them"),
        "source": Opt("str", doc="the card whose effect makes the draw (Crowd Roar); needed outside setup and "
                      "the End phase (BDB-END-1)"),
        "hand": Opt("int", doc="stated: cards in hand afterwards (checked)"),
        "deck_left": Opt("int", doc="stated: cards left in the Main Deck afterwards (checked)"),
    },
    "new_hand": {
        "player": _player("the player who takes a new hand"),
        "count": Opt("int", min=0, doc="stated: the size of the new hand (checked: from the second new hand on, one card fewer each time, BDB-SETUP-2)"),
        "cards": Opt("list", item=Opt("str"), doc="the cards of the new hand; may name only some or none"),
        "no_dinosaur": Opt("bool", default=False, doc="the old hand held no Dinosaur: no penalty (BDB-SETUP-2)"),
        "hand": Opt("int", doc="stated: cards in hand afterwards (checked)"),
        "deck_left": Opt("int", doc="stated: cards left in the Main Deck afterwards (checked)"),
    },
    "comp_cards": {
        "player": _player("the player who sets Comp Cards aside"),
        "count": Opt("int", min=0, doc="stated: how many (checked, BDB-SETUP-3)"),
    },
    "place": {
        "player": _player("the player who places Dinosaurs"),
        "active": Opt("str", required=True, doc="the active Dinosaur, from hand (BDB-SETUP-4)"),
        "bench": Opt("list", item=Opt("str"), default=[], doc="the benched Dinosaurs, from hand"),
    },
    # -- the turn
    "phase": {
        "phase": Opt("enum", required=True, choices=PHASES, doc="the phase that begins (BDB-TURN-1)"),
        "turn": Opt("int", doc="stated with startup: the number of the turn that begins (checked)"),
        "initiative": Opt("str", doc="stated with startup: who holds the Initiative token now (checked, BDB-TURN-2)"),
        "hp": _HP,
        "combat_end": Opt("enum", choices=("agreed", "decks_empty"),
                          doc="stated when the Combat phase ends: why (checked, BDB-CMB-6)"),
    },
    "bench": {
        "player": _player(),
        "dino": Opt("str", required=True, doc="the Dinosaur card put from hand on the bench (BDB-MAIN-1)"),
    },
    "upgrade": {
        "player": _player(),
        "card": Opt("str", required=True, doc="the Upgrade card, from hand"),
        "dino": Opt("str", required=True, doc="the benched Dinosaur it is attached to (BDB-MAIN-2)"),
    },
    "item": {
        "player": _player(),
        "card": Opt("str", doc="the Item put from hand in the Item Zone; may be left out (it lies face down)"),
    },
    "use_item": {
        "player": _player(),
        "card": Opt("str", required=True, doc="the Item used from the Item Zone (BDB-MAIN-3)"),
    },
    "action": {
        "player": _player(),
        "card": Opt("str", required=True, doc="the Action played from hand (BDB-ACT-1)"),
    },
    "combat_to_deck": {
        "player": _player(),
        "cards": Opt("list", required=True, item=Opt("str"), doc="Combat cards from hand into the Combat Deck"),
    },
    "retreat": {
        "player": _player(),
        "to": Opt("str", required=True, doc="the benched Dinosaur that becomes active"),
        "discard": Opt("list", item=Opt("str"), doc="the cards discarded from hand for the Retreat Cost "
                       "(default: unseen cards)"),
        "paid": Opt("int", min=0, doc="stated: how many cards were discarded (checked against the Retreat Cost)"),
        "source": Opt("str", doc="a card whose effect makes the switch free (Emergency Retreat)"),
    },
    "discard": {
        "player": _player("the player who discards from hand"),
        "cards": Opt("list", item=Opt("str"), doc="the cards discarded; may name only some or none"),
        "count": Opt("int", min=0, doc="how many (default: as many as 'cards' names)"),
        "source": Opt("str", required=True, doc="the card whose effect discards (Sabotage)"),
    },
    "effect": {
        "player": _player("the owner of what the effect changes"),
        "source": Opt("str", required=True, doc="the card (or Special Attack) whose text this is"),
        "dino": Opt("str", doc="the Dinosaur affected (default: the player's active one)"),
        "heal": Opt("int", min=0, doc="HP regained"),
        "damage": Opt("int", min=0, doc="HP lost"),
        "set_hp": Opt("int", doc="HP set to this value (Last Stand)"),
        "wound_tokens": Opt("int", doc="Wound tokens added (negative: removed)"),
        "poisoned": Opt("int", min=0, doc="turns of poison from now (0: cured)"),
        "paralyzed": Opt("bool", doc="paralyzed (true) or no longer (false)"),
        "cure": Opt("bool", default=False, doc="remove all Poisoned and Wound tokens"),
        "destroy_upgrade": Opt("str", doc="an Upgrade on the Dinosaur, destroyed (to the Junk)"),
        "from_junk": Opt("list", item=Opt("str"), doc="cards taken from the player's Junk into hand"),
        "combat_deck_junk": Opt("list", item=Opt("str"), doc="Combat cards taken from the player's Combat Deck "
                                "to the Junk"),
        "hp": _HP,
    },
    # -- combat
    "first_move": {
        "player": _player("stated: who has the first move (checked, BDB-CMB-1)"),
    },
    "pass": {
        "player": _player("the player who passes the move"),
    },
    "attack": {**_MOVE, "special": _SPECIAL},
    "counterattack": {**_MOVE, "special": _SPECIAL, **_RESULT},
    "evade": {**_MOVE, **_RESULT},
    "defend": {**_MOVE, **_RESULT},
    "no_answer": {
        "player": Opt("str", doc="the attacked player, who does not answer (default: the one attacked)"),
        **_RESULT,
    },
    "knock_out": {
        "player": _player("the owner of the knocked-out Dinosaur"),
        "dino": Opt("str", required=True, doc="the Dinosaur knocked out (BDB-KO-1)"),
        "comp_cards": Opt("int", min=0, default=0, doc="Comp Cards its owner takes into hand"),
        "new_active": Opt("str", doc="the benched Dinosaur (or, with an empty bench, the one from hand) that "
                          "becomes active"),
    },
    "game_end": {
        "winner": Opt("str", doc="stated: the winner, or 'draw' (checked)"),
        "reason": Opt("enum", choices=("kos", "no_dinosaurs", "deck_out"), doc="stated: how it ended (checked)"),
    },
}

_PLAYER = Opt("map", doc="a player and the deck they play", fields={
    "name": Opt("str", required=True, doc="the player's name, as the events spell it"),
    "deck": Opt("str", required=True, doc="the Main Deck: a deck file (relative to the log or the project) or a "
                "deck's name in cards/dino_battles/decks/"),
})

HEADER: dict[str, Opt] = {
    "players": Opt("list", required=True, item=_PLAYER,
                   doc="the two players: the first is player A (an even Initiative roll), the second player B"),
}



#: the rule each final claim (``expect``) of a log is about
EXPECT_RULES = {
    "winner": "BDB-END-2", "ended_by": "BDB-END-2", "kos": "BDB-KO-1", "players": "BDB-KO-1",
    "active": "BDB-KO-1", "bench": "BDB-MAIN-1", "hp": "BDB-CMB-3", "knocked_out": "BDB-KO-1",
    "hand": "BDB-END-1", "deck": "BDB-END-3", "comp_cards": "BDB-KO-1", "combat_deck": "BDB-CMB-2",
    "items": "BDB-MAIN-3", "initiative": "BDB-TURN-2", "turn": "BDB-TURN-1", "phase": "BDB-TURN-1",
}

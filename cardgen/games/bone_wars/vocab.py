"""Bone Wars — the playtest log's vocabulary: header keys and event kinds with their typed
fields (the framework checks every event against them; the schema and the event reference are
generated from them). The game-state API's actions use the same kinds and fields."""

from __future__ import annotations

from cardgen.core.options import Opt

NO_BLOCK = "none"      # block.monster: the defender does not block

_STATS = Opt("map", doc="stated: the monster's Str, Def, Atk and HP after the action (checked, BW-CREATE-5)",
             fields={"str": Opt("int", doc="stated Str: the sum of the parts'"),
                     "def": Opt("int", doc="stated Def: the sum of the parts'"),
                     "atk": Opt("int", doc="stated Atk: the sum of the parts'"),
                     "hp": Opt("int", doc="stated HP: the sum of the parts' (damage not subtracted)")})
_TRAITS = Opt("list", item=Opt("str"), doc="stated: the monster's Traits after the action (checked, BW-CREATE-5)")


def _player(doc: str) -> Opt:
    return Opt("str", required=True, doc=doc)


EVENTS: dict[str, dict[str, Opt]] = {
    "draw": {
        "player": _player("the player whose turn it is: a draw starts their turn (BW-TURN-1)"),
        "card": Opt("str", doc="the Part card drawn (id or name); leave it out to keep it hidden"),
    },
    "create": {
        "player": _player("the player creating the monster"),
        "card": Opt("str", required=True, doc="the Part card from hand that becomes the monster (BW-CREATE-2)"),
        "monster": Opt("str", required=True, doc="a name for the new Fossil Monster, used by later events"),
        "stats": _STATS, "traits": _TRAITS,
    },
    "add_part": {
        "player": _player("the player editing the monster"),
        "monster": Opt("str", required=True, doc="the monster edited (it has 1 or 2 parts, BW-CREATE-3)"),
        "card": Opt("str", required=True, doc="the Part card from hand added (a part type the monster lacks)"),
        "stats": _STATS, "traits": _TRAITS,
    },
    "replace_part": {
        "player": _player("the player editing the monster"),
        "monster": Opt("str", required=True, doc="the monster edited"),
        "card": Opt("str", required=True, doc="the Part card from hand put in (same part type, BW-CREATE-4)"),
        "replaces": Opt("str", doc="the part taken out (default: the monster's part of the card's type)"),
        "stats": _STATS, "traits": _TRAITS,
    },
    "attack": {
        "player": _player("the attacking player (whose turn it is)"),
        "monster": Opt("str", required=True, doc="the attacking monster (BW-ATK-2)"),
        "target": Opt("str", required=True, doc="the opponent attacked (BW-ATK-2)"),
    },
    "block": {
        "player": _player("the defending player"),
        "monster": Opt("str", doc="the blocking monster; 'none' (or left out) for no block (BW-ATK-3)"),
    },
    "roll": {
        "attacker": Opt("int", doc="blocked combat: the attacker's die roll (BW-ATK-6)"),
        "blocker": Opt("int", doc="blocked combat: the blocker's die roll (BW-ATK-6)"),
        "defender": Opt("int", doc="unblocked: the defender's die roll against the attacker's Str (BW-ATK-10)"),
    },
    "take_damage": {
        "player": _player("the defender who takes the unblocked attack's damage (BW-ATK-10)"),
        "damage": Opt("int", doc="stated: the HP lost (checked, BW-ATK-10)"),
        "hp_left": Opt("int", doc="stated: the player's HP afterwards (checked, BW-ATK-10)"),
    },
    "damage": {
        "monster": Opt("str", doc="the monster damaged by the last attack (name either 'monster' or 'player')"),
        "player": Opt("str", doc="the player damaged by the last attack (Trample or unblocked)"),
        "amount": Opt("int", doc="stated: the damage (checked, BW-ATK-7 / BW-ATK-9 / BW-ATK-10)"),
        "hp_left": Opt("int", doc="stated: HP left afterwards (a monster's HP less its damage; a player's HP)"),
    },
    "destroyed": {
        "monster": Opt("str", required=True, doc="stated: the monster is destroyed (checked, BW-ATK-8)"),
    },
    "eliminated": {
        "player": Opt("str", required=True, doc="stated: the player is out of the game (checked, BW-END-1)"),
    },
    "end_turn": {
        "player": _player("the player whose turn ends (the event may be left out while the center pile has "
                          "cards: the next player's draw ends the turn)"),
        "hp": Opt("map", item=Opt("int"), doc="stated: every player's HP now, e.g. {ana: 20, ben: 14} (checked)"),
    },
}

HEADER: dict[str, Opt] = {
    "players": Opt("list", required=True, item=Opt("str"),
                   doc="the players' names in clockwise order (BW-SETUP-1)"),
    "turn_order_rolls": Opt("list", required=True, item=Opt("map", item=Opt("int")),
                            doc="the turn-order rolls: a first round {player: roll} for every player, then one "
                                "round of re-rolls per tie among the tied highest (BW-SETUP-3)"),
    "deals": Opt("map", doc="the cards dealt: {player: [card, …]} ('?' for a hidden card) or {player: count}; "
                            "players left out were dealt a hidden full hand (BW-SETUP-2)"),
    "starting_hp": Opt("int", doc="stated: each player's starting HP (checked, BW-SETUP-4)"),
}

CLAIM_KINDS = ("damage", "destroyed", "eliminated")
EDIT_KINDS = ("create", "add_part", "replace_part")     # the Creation Phase's
TURN_KINDS = ("draw", "create", "add_part", "replace_part", "attack", "end_turn")   # the acting player's
COMBAT_KINDS = {        # combat stage → the events that continue it
    "block": ("block", "roll", "take_damage"),
    "roll": ("roll",),
    "choice": ("roll", "take_damage"),
    "declined": ("take_damage", "roll"),
}

#: a final claim (``expect``) → the rule a wrong one breaks
EXPECT_RULES = {
    "winner": "BW-END-2", "hp": "BW-END-1", "eliminated": "BW-END-1", "players": "BW-END-1",
    "monsters": "BW-ATK-8", "damage": "BW-ATK-7", "parts": "BW-CREATE-5", "hand": "BW-TURN-1",
    "pile": "BW-TURN-1", "turns": "BW-TURN-1",
    "str": "BW-CREATE-5", "def": "BW-CREATE-5", "atk": "BW-CREATE-5", "traits": "BW-CREATE-5",
}

"""Loot & Battles: the log's vocabulary — header keys and event kinds with their typed fields
(``docs/playtest-logs.md``; the JSON Schema in ``docs/schemas/loot_battles.schema.json`` is
generated from them), and the names of the unique loot effects ``params.yaml`` may give."""

from __future__ import annotations

from cardgen.core.options import Opt

# ---------------------------------------------------------------------------------------
# The log's vocabulary: header keys and event kinds with their typed fields.

_PLAYER = Opt("map", doc="a player: name and class, in seating order", fields={
    "name": Opt("str", required=True, doc="the player's name, as the events spell it"),
    "class": Opt("str", required=True, doc="Melee or Ranged: a class card's id, class or name (LB-SETUP-2)"),
    "numbers": Opt("list", item=Opt("int"), doc="the target numbers this player holds for every "
                   "placement (LB-TGT-1); default: 1–6 dealt round the table in seating order"),
    "health": Opt("int", doc="stated starting Health, checked against the class card (LB-SETUP-2)"),
    "armor": Opt("int", doc="stated starting Armor, checked against the class card (LB-SETUP-2)"),
    "dodge": Opt("int", doc="stated starting Dodge, checked against the class card (LB-SETUP-2)"),
})

_ROLL_CLAIMS = {
    "hit": Opt("bool", doc="stated: the attack hit (checked, LB-ATK-3); needed when the dice are left out"),
    "damage": Opt("int", doc="stated: the damage of the hit, before Armor (checked, LB-ATK-4)"),
    "hp_left": Opt("int", doc="stated: the target's Health afterwards (checked, LB-DMG-1)"),
    "armor_left": Opt("int", doc="stated: the target's Armor afterwards (checked, LB-DMG-1)"),
    "dodge_left": Opt("int", doc="stated: the target's Dodge afterwards (checked, LB-ATK-3)"),
    "ko": Opt("bool", doc="stated: the target is defeated or knocked out (checked, LB-DMG-1)"),
}

#: the items of free-form fields, typed one by one by the referee
NUMBERS_ITEM = Opt("list", item=Opt("int"))
PLACED_ITEM = Opt("list", item=Opt("str"))
STATE_ITEM = Opt("map", fields={"health": Opt("int"), "armor": Opt("int"), "dodge": Opt("int")})
_STATE = Opt("map", item=STATE_ITEM,
             doc="stated state after the round, by player name or enemy (e.g. {ana: {health: 7}, "
                 "'rats#2': {dodge: 3}}); checked")


def _player_field(doc: str = "the acting player") -> Opt:
    return Opt("str", required=True, doc=doc)


EVENTS: dict[str, dict[str, Opt]] = {
    "encounter_chosen": {
        "encounter": Opt("str", required=True, doc="the Encounter card (id or name) chosen for the first Battle"),
        "by": Opt("str", doc="who chose (checked: the Encounter Leader, LB-SETUP-3)"),
    },
    "encounter_drawn": {
        "pick": Opt("str", required=True, doc="the Encounter card the Leader picks"),
        "cards": Opt("list", item=Opt("str"), doc="the cards drawn, the pick among them; may be left out"),
        "by": Opt("str", doc="who picked (checked: the Encounter Leader, LB-SETUP-3)"),
    },
    "reinforcements_drawn": {
        "cards": Opt("list", required=True, item=Opt("str"),
                     doc="the reinforcement Encounters drawn for a +N Encounter, in the order fought (LB-SETUP-4)"),
    },
    "enemies_placed": {
        "rolls": Opt("list", required=True, item=Opt("int"),
                     doc="one die per enemy: the first places enemy #1, and so on (LB-TGT-1)"),
        "numbers": Opt("map", item=NUMBERS_ITEM,
                       doc="who holds which numbers for this placement, e.g. {ana: [1, 3, 5], bo: [2, 4, 6]}"),
        "placed": Opt("map", item=PLACED_ITEM,
                      doc="stated: which enemies stand in front of whom (checked, LB-TGT-1)"),
    },
    "attack": {
        "player": _player_field("the attacking player"),
        "target": Opt("str", doc="the enemy attacked: 'rats#2' (or just 2)"),
        "targets": Opt("list", item=Opt("str"), doc="several targets, for a weapon that hits more than once"),
        "with": Opt("list", item=Opt("str"), doc="the weapons or spells of this roll (ids or names); "
                    "default: the player's attack items not yet rolled this turn"),
        "dice": Opt("list", item=Opt("int"), doc="the dice values rolled (LB-ATK-2)"),
        **_ROLL_CLAIMS,
    },
    "heal": {"player": _player_field("the player casting the Healing spell"),
             "target": Opt("str", required=True, doc="the player healed"),
             "with": Opt("str", doc="the Healing spell (default: the one the player holds)"),
             "hp_left": Opt("int", doc="stated: the healed player's Health afterwards (checked, LB-HEAL-1)")},
    "pass": {"player": _player_field("the player who does nothing this turn")},
    "enemy_attack": {
        "enemy": Opt("str", required=True, doc="the attacking enemy: 'rats#2' (or just 2)"),
        "target": Opt("str", doc="the player attacked (checked: the one it stands in front of, LB-RND-1)"),
        "dice": Opt("list", item=Opt("int"), doc="the dice values rolled (LB-ATK-2)"),
        **_ROLL_CLAIMS,
    },
    "round_end": {"round": Opt("int", doc="stated: the number of the round that ends (checked, LB-RND-1)"),
                  "state": _STATE},
    "encounter_end": {},
    "battle_end": {
        "result": Opt("enum", choices=("won", "lost"), doc="stated: how the Battle ended (checked)"),
        "battles_won": Opt("int", doc="stated: Battles won so far (checked, LB-END-1)"),
    },
    "loot_drawn": {
        "count": Opt("int", min=0, doc="how many Loot cards were drawn (default: as many as 'cards' names)"),
        "cards": Opt("list", item=Opt("str"), doc="the Loot cards drawn; may name only some or none of them"),
    },
    "equip": {"player": _player_field("the player who equips the card"),
              "card": Opt("str", required=True, doc="a drawn Loot card (id or name)")},
    "unequip": {"player": _player_field("the player who puts the card back in the shared loot"),
                "card": Opt("str", required=True, doc="an equipped Loot card (id or name)")},
    "leader_passed": {
        "to": Opt("str", required=True, doc="the new Encounter Leader (checked: the player to the left, LB-LOOT-1)"),
    },
}

#: a final claim (``expect``) → the rule a wrong one breaks
EXPECT_RULES = {"winner": "LB-END-1", "battles_won": "LB-END-1", "players": "LB-DMG-1", "health": "LB-DMG-1",
                "knocked_out": "LB-DMG-1", "armor": "LB-RND-1", "dodge": "LB-ATK-3",
                "equipment": "LB-EQUIP-1", "leader": "LB-LOOT-1", "enemies_left": "LB-DMG-1",
                "loot_pool": "LB-LOOT-1"}

HEADER: dict[str, Opt] = {
    "players": Opt("list", required=True, item=_PLAYER,
                   doc="the players in seating order: each one's left neighbour is the next (the last's is the first)"),
    "leader": Opt("str", doc="the first Encounter Leader (default: the first player)"),
    "battles_to_win": Opt("int", doc="stated: Battles to win (checked against params.yaml, LB-SETUP-1)"),
    "starting_loot": Opt("bool", default=False,
                         doc="the easier start: one Loot card per player is drawn before the first Battle"),
}

# Names of the unique effects the engine knows (params.yaml ``unique_effects``).
UNIQUE_EFFECTS = {
    "double_damage_at": "its damage doubles when the roll is at least this many times the target's Dodge",
    "never_misses": "hits without a roll, as many times as the card's 'hits'",
    "heal_per_round": "its holder recovers this much Health at the end of each Round",
    "heal_on_hit": "its holder recovers this much Health on every successful attack with it",
    "reflect": "this fraction of the damage its holder takes (rounded down) is dealt to the attacker",
}

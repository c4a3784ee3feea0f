"""Loot & Battles — the playtest rules engine (``cardgen check loot_battles LOG``).

A state machine over ``rules/loot_battles/params.yaml`` and the card YAML: starting stats
come from the class cards, enemies from the enemy cards, Encounters from the encounter
cards, loot from the loot cards. Every number is read from there; a number the rules need
and the YAML lacks is a ``LOG-GAME`` error naming the missing key.

Rules enforced (catalogue ``specs/rules/loot_battles.md``): LB-SETUP-1…4, LB-TGT-1,
LB-ATK-1…4, LB-DMG-1, LB-RND-1, LB-ENC-1, LB-LOOT-1, LB-EQUIP-1, LB-END-1, and the
checker's rulings listed in ``docs/playtest-logs.md`` (LB-HEAL-1 among them).

The log format — header, events, claims — is documented in ``docs/playtest-logs.md``; the
event kinds and their fields are declared in :data:`Engine.EVENTS` (the JSON Schema in
``docs/schemas/loot_battles.schema.json`` is generated from them).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..checker import BaseEngine
from ..model import Card
from ..playlog import Event, LogError
from ..problems import Loc, Problems, did_you_mean
from ..schema import Opt, check_value

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

_STATE = Opt("map", item=Opt("map", fields={"health": Opt("int"), "armor": Opt("int"), "dodge": Opt("int")}),
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
        "numbers": Opt("map", item=Opt("list", item=Opt("int")),
                       doc="who holds which numbers for this placement, e.g. {ana: [1, 3, 5], bo: [2, 4, 6]}"),
        "placed": Opt("map", item=Opt("list", item=Opt("str")),
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
    "heal": {
        "player": _player_field("the player casting the Healing spell"),
        "target": Opt("str", required=True, doc="the player healed"),
        "with": Opt("str", doc="the Healing spell (default: the one the player holds)"),
        "hp_left": Opt("int", doc="stated: the healed player's Health afterwards (checked, LB-HEAL-1)"),
    },
    "pass": {
        "player": _player_field("the player who does nothing this turn"),
    },
    "enemy_attack": {
        "enemy": Opt("str", required=True, doc="the attacking enemy: 'rats#2' (or just 2)"),
        "target": Opt("str", doc="the player attacked (checked: the one it stands in front of, LB-RND-1)"),
        "dice": Opt("list", item=Opt("int"), doc="the dice values rolled (LB-ATK-2)"),
        **_ROLL_CLAIMS,
    },
    "round_end": {
        "round": Opt("int", doc="stated: the number of the round that ends (checked, LB-RND-1)"),
        "state": _STATE,
    },
    "encounter_end": {},
    "battle_end": {
        "result": Opt("enum", choices=("won", "lost"), doc="stated: how the Battle ended (checked)"),
        "battles_won": Opt("int", doc="stated: Battles won so far (checked, LB-END-1)"),
    },
    "loot_drawn": {
        "count": Opt("int", min=0, doc="how many Loot cards were drawn (default: as many as 'cards' names)"),
        "cards": Opt("list", item=Opt("str"), doc="the Loot cards drawn; may name only some or none of them"),
    },
    "equip": {
        "player": _player_field("the player who equips the card"),
        "card": Opt("str", required=True, doc="a drawn Loot card (id or name)"),
    },
    "unequip": {
        "player": _player_field("the player who puts the card back in the shared loot"),
        "card": Opt("str", required=True, doc="an equipped Loot card (id or name)"),
    },
    "leader_passed": {
        "to": Opt("str", required=True, doc="the new Encounter Leader (checked: the player to the left, LB-LOOT-1)"),
    },
}

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




def _typed(value: Any, opt: Opt, ev: Event, fname: str, what: str) -> Any:
    """Check a value inside a free-form mapping field against its item type (LOG-FIELD if wrong)."""
    probs = Problems()
    ok, v = check_value(value, opt, ev.at(fname), probs, what)
    if not ok:
        p = probs.errors[0]
        raise LogError("LOG-FIELD", p.message, p.loc or ev.loc)
    return v


# ---------------------------------------------------------------------------------------
# State


@dataclass
class Fighter:
    name: str
    max_health: int = 0
    max_armor: int = 0
    max_dodge: int = 0
    health: int = 0
    armor: int = 0
    dodge: int = 0
    ko: bool = False

    def recover(self) -> None:
        self.health, self.armor, self.dodge, self.ko = self.max_health, self.max_armor, self.max_dodge, False

    def brief(self) -> str:
        if self.ko:
            return f"{self.name} KO"
        return f"{self.name} HP {self.health}/{self.max_health} A {self.armor} D {self.dodge}"

    def as_dict(self) -> dict[str, Any]:
        return {"health": self.health, "armor": self.armor, "dodge": self.dodge, "knocked_out": self.ko}


@dataclass
class Player(Fighter):
    cls: Card | None = None
    base: dict[str, int] = field(default_factory=dict)
    equipment: list[str] = field(default_factory=list)
    numbers: list[int] | None = None
    loc: Loc | None = None


@dataclass
class Enemy(Fighter):
    card: Card | None = None
    front: str = ""


@dataclass
class Encounter:
    card: Card
    reinforcement: bool
    enemies: list[Enemy] = field(default_factory=list)
    placed: bool = False
    done: bool = False
    round: int = 1
    acted: set = field(default_factory=set)
    attacked: set = field(default_factory=set)
    closed: set = field(default_factory=set)
    excused: set = field(default_factory=set)      # moved after their new player's turn: attack next round
    turn: dict = field(default_factory=dict)       # player → {"attack", "heal", "pass"}
    used: dict = field(default_factory=dict)       # player → item ids rolled this turn
    used_dice: dict = field(default_factory=dict)  # player → Attack values rolled this turn
    reported: set = field(default_factory=set)

    def alive(self) -> list[Enemy]:
        return [e for e in self.enemies if not e.ko]


@dataclass
class Battle:
    number: int
    first: Card
    queue: list[Encounter]
    index: int = 0
    reinf_reported: bool = False

    @property
    def current(self) -> Encounter | None:
        return self.queue[self.index] if self.index < len(self.queue) else None


# ---------------------------------------------------------------------------------------


class Engine(BaseEngine):
    """Replays a Loot & Battles playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "LB-END-1", "battles_won": "LB-END-1", "players": "LB-DMG-1", "health": "LB-DMG-1",
        "knocked_out": "LB-DMG-1", "armor": "LB-RND-1", "dodge": "LB-ATK-3", "equipment": "LB-EQUIP-1",
        "leader": "LB-LOOT-1", "enemies_left": "LB-DMG-1", "loot_pool": "LB-LOOT-1",
    }
    ACK_KINDS = ("round_end", "encounter_end", "battle_end")

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "LB-END-1"
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        p = self._param
        self.n_min, self.n_max = int(p("players", "min")), int(p("players", "max"))
        self.win_table = p("battles_to_win")
        self.first_loot = list(p("first_encounter_loot"))
        self.n_drawn = int(p("encounters_drawn"))
        self.target_die = int(p("target_die"))
        self.attack_die = int(p("attack_die"))
        self.dodge_loss = int(p("dodge_loss_on_miss"))
        self.equip_limits = dict(p("equip_limits"))
        self.hands = int(p("hands"))
        self.hands_used = dict(p("hands_used"))
        self.cards = game.cards_by_id
        self.by_type: dict[str, list[Card]] = {}
        for c in game.cards:
            self.by_type.setdefault(c.type, []).append(c)
        self.enemy_cards = {c.id: c for c in self.by_type.get("enemy", [])}
        # state
        self.players: list[Player] = []
        self.by_name: dict[str, Player] = {}
        self.leader = 0
        self.target: int | None = None
        self.battles_won = 0
        self.battles_started = 0
        self.battle: Battle | None = None
        self.first_done = False
        self.winner: str | None = None
        self.loot_due = 0
        self.loot_for = ""
        self.loot_out: Counter = Counter()
        self.loot_unknown = 0
        self.pool: Counter = Counter()
        self.pool_unknown = 0
        self.enc_out: Counter = Counter()
        self.enc_unknown = 0
        self.last_encounter: Encounter | None = None    # ended, awaiting an optional encounter_end
        self.round_ack = False
        self.last_battle: dict | None = None            # ended, awaiting an optional battle_end

    # -- reading the rules and the cards ---------------------------------------------------

    def _effect(self, card: Card, name: str) -> Any:
        """A unique card's effect parameter (params.yaml ``unique_effects.<card>.<name>``), or None."""
        if card.get("rank") != "unique":
            return None
        effects = self._param("unique_effects", card.id)
        if not isinstance(effects, dict):
            raise LogError("LOG-GAME", f"'unique_effects.{card.id}' in {self.params_file.name} must be a mapping",
                           getattr(effects, "loc", None) or Loc(str(self.params_file), 1, 1))
        for k in effects:
            if k not in UNIQUE_EFFECTS:
                raise LogError("LOG-GAME", f"unknown effect '{k}' in 'unique_effects.{card.id}'",
                               effects.at(k) if hasattr(effects, "at") else Loc(str(self.params_file), 1, 1),
                               did_you_mean(str(k), UNIQUE_EFFECTS) or f"known: {', '.join(UNIQUE_EFFECTS)}")
        return effects.get(name)

    def _find_card(self, value: Any, kinds: tuple[str, ...], ev: Event, fname: str) -> Card:
        s = str(value).strip()
        c = self.cards.get(s)
        if c is None:
            low = s.lower()
            for cand in self.game.cards:
                if cand.type in kinds and cand.name.lower() == low:
                    c = cand
                    break
        if c is None or c.type not in kinds:
            pool = [x.id for x in self.game.cards if x.type in kinds]
            raise LogError("LOG-FIELD", f"'{fname}' names no {' or '.join(kinds)} card: {value!r}", ev.at(fname),
                           did_you_mean(s, pool))
        return c

    def _find_player(self, value: Any, ev: Event | None, fname: str, loc: Loc | None = None) -> Player:
        s = str(value).strip()
        p = self.by_name.get(s) or next((q for q in self.players if q.name.lower() == s.lower()), None)
        if p is None:
            raise LogError("LOG-FIELD", f"'{fname}' names no player: {value!r}", loc or (ev.at(fname) if ev else None),
                           did_you_mean(s, self.by_name) or f"players: {', '.join(self.by_name)}")
        return p

    def _find_enemy(self, value: Any, enc: Encounter, ev: Event, fname: str) -> Enemy:
        s = str(value).strip()
        if "#" in s:
            prefix, _, num = s.rpartition("#")
        else:
            m = re.fullmatch(r"(.*?)\s*(\d+)", s)
            prefix, num = (m.group(1), m.group(2)) if m else (s, "")
        prefix = prefix.strip().lower()
        ecard = enc.enemies[0].card if enc.enemies else None
        names = {""}
        if ecard is not None:
            names |= {ecard.id.lower(), ecard.name.lower(), ecard.name.lower() + "s", ecard.id.lower().rstrip("s")}
        if prefix not in names or not num.isdigit() or not 1 <= int(num) <= len(enc.enemies):
            refs = f"{enc.enemies[0].name} … {enc.enemies[-1].name}" if enc.enemies else "none"
            raise LogError("LOG-FIELD", f"'{fname}' names no enemy of this Encounter: {value!r} (enemies: {refs})",
                           ev.at(fname))
        return enc.enemies[int(num) - 1]

    # -- derived stats --------------------------------------------------------------------

    def _items(self, p: Player) -> list[Card]:
        return [self.cards[i] for i in p.equipment if i in self.cards]

    def _refresh(self, p: Player, full: bool) -> None:
        """Recompute a player's Armor and Dodge from class and equipment."""
        old_a, old_d = p.max_armor, p.max_dodge
        items = self._items(p)
        p.max_armor = max(0, p.base["armor"] + sum(int(c.get("armor") or 0) for c in items))
        p.max_dodge = max(0, p.base["dodge"] + sum(int(c.get("dodge") or 0) for c in items))
        if full:
            p.armor, p.dodge = p.max_armor, p.max_dodge
        else:
            p.armor = max(0, p.armor + p.max_armor - old_a)
            p.dodge = max(0, p.dodge + p.max_dodge - old_d)

    def _attack_items(self, p: Player) -> list[Card]:
        return [c for c in self._items(p) if c.get("damage") is not None]

    def _dice_of(self, c: Card | None, p: Player) -> int:
        """How many d6 an item (None: the class attack) rolls; 0 when it never misses."""
        if c is None:
            return int(p.cls.get("attack") or 1)
        if self._effect(c, "never_misses"):
            return 0
        return int(c.get("attack") or p.cls.get("attack") or 1)

    def _melee_only(self, p: Player) -> bool:
        items = self._attack_items(p)
        types = {c.get("damage_type") for c in items} if items else {p.cls.get("damage_type")}
        return types == {"melee"}

    def _order(self) -> list[Player]:
        n = len(self.players)
        seq = [self.players[(self.leader + i) % n] for i in range(n)]
        return [p for p in seq if not p.ko]

    def _left_of(self, p: Player) -> Player | None:
        i = self.players.index(p)
        n = len(self.players)
        for k in range(1, n + 1):
            q = self.players[(i + k) % n]
            if not q.ko:
                return q
        return None

    # -- trace ----------------------------------------------------------------------------

    def _state_lines(self, title: str, enc: Encounter | None) -> None:
        self.ref.trace(f"      {title}")
        self.ref.trace("        players: " + " · ".join(p.brief() for p in self.players))
        if enc is not None:
            alive = enc.alive()
            self.ref.trace("        enemies: " + (" · ".join(f"{e.brief()} →{e.front}" for e in alive)
                                                  if alive else "none left"))

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        raw = self.header.get("players") or []
        classes = self.by_type.get("class", [])
        if not classes:
            raise LogError("LOG-GAME", "the game has no class cards", self.head_loc)
        for i, entry in enumerate(raw):
            loc = self.header_locs.get(f"players[{i}]", self.head_loc)
            name = str(entry.get("name"))
            if name in self.by_name:
                raise LogError("LOG-FIELD", f"two players are called {name!r}", loc)
            want = str(entry.get("class")).strip().lower()
            cls = next((c for c in classes if want in (c.id.lower(), str(c.get("class")).lower(), c.name.lower())),
                       None)
            if cls is None:
                cls = classes[0]
                self.ref.violation("LB-SETUP-2", f"{name} picks class {entry.get('class')!r}; a player picks "
                                   + " or ".join(c.name for c in classes), loc)
            base = {}
            for stat in ("health", "armor", "dodge"):
                stated, computed = entry.get(stat), int(cls.get(stat) or 0)
                self.ref.claim("LB-SETUP-2", f"{name}'s starting {stat.capitalize()}", stated, computed, loc)
                base[stat] = computed if stated is None else int(stated)
            p = Player(name=name, cls=cls, base=base, max_health=base["health"], numbers=entry.get("numbers"),
                       loc=loc)
            self._refresh(p, full=True)
            p.recover()
            self.players.append(p)
            self.by_name[name] = p
        n = len(self.players)
        if not self.n_min <= n <= self.n_max:
            loc = self.header_locs.get(f"players[{self.n_max}]", self.head_loc) if n > self.n_max else self.head_loc
            self.ref.violation("LB-SETUP-1", f"{n} player(s); Loot & Battles is for {self.n_min}–{self.n_max}", loc)
        computed = self.win_table.get(n) if isinstance(self.win_table, dict) else None
        stated = self.header.get("battles_to_win")
        if stated is not None and computed is not None:
            self.ref.claim("LB-SETUP-1", "the number of Battles to win", stated, computed,
                           self.header_locs.get("battles_to_win", self.head_loc))
        self.target = stated if stated is not None else computed
        if "leader" in self.header and self.header["leader"] is not None and self.players:
            self.leader = self.players.index(self._find_player(self.header["leader"], None, "leader",
                                                               self.header_locs.get("leader")))
        if any(p.numbers is not None for p in self.players):
            self._check_numbers({p.name: p.numbers or [] for p in self.players}, self.head_loc)
        if self.header.get("starting_loot"):
            self.loot_due, self.loot_for = n, "the easier start (one Loot card per player)"
        if self.players:
            self.ref.trace(f"      {n} players ({', '.join(f'{p.name} {p.cls.name}' for p in self.players)}); "
                           f"{self.target} Battles to win; Leader {self.players[self.leader].name}")
            self._state_lines("start", None)

    def before(self, ev: Event) -> None:
        if self.over and not self._is_ack(ev):
            self.ref.violation(self.end_rule, f"event '{ev.kind}' after the game has ended "
                               f"({'the players won' if self.winner == 'players' else 'the players lost'})", ev.loc)

    def _is_ack(self, ev: Event) -> bool:
        return (ev.kind == "battle_end" and self.last_battle is not None) or \
               (ev.kind in ("encounter_end", "round_end", "leader_passed") and self.last_encounter is not None)

    def apply(self, ev: Event) -> None:
        if not self.players or (self.over and not self._is_ack(ev)):
            return
        if ev.kind not in self.ACK_KINDS and ev.kind != "leader_passed":
            self.last_encounter = None
        if ev.kind not in (*self.ACK_KINDS, "loot_drawn", "equip", "unequip", "leader_passed"):
            self.last_battle = None
        super().apply(ev)

    def finish(self) -> None:
        b = self.battle
        if not self.over and b is not None and b.current is not None and b.current.placed:
            self._state_lines(f"log ends in Battle {b.number}, round {b.current.round}", b.current)
        self.ref.trace(f"      final: winner {self.winner or 'none yet'}; {self.battles_won} Battle(s) won "
                       f"of {self.target}")

    def final(self) -> dict[str, Any]:
        enc = self.battle.current if self.battle is not None else None
        out: dict[str, Any] = {
            "winner": self.winner,
            "battles_won": self.battles_won,
            "battles_to_win": self.target,
            "leader": self.players[self.leader].name if self.players else None,
            "players": {p.name: {"class": p.cls.get("class") if p.cls else None, **p.as_dict(),
                                 "equipment": list(p.equipment)} for p in self.players},
            "enemies_left": ({e.name: {"health": e.health, "armor": e.armor, "dodge": e.dodge, "front": e.front}
                              for e in enc.alive()} if enc is not None and enc.placed else {}),
            "loot_pool": sorted(self.pool.elements()) + ["?"] * self.pool_unknown,
        }
        return out

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts (for simulated playtests)."""
        acks = []
        if self.last_encounter is not None:
            acks += ["encounter_end", "leader_passed"] + ([] if self.round_ack else ["round_end"])
        if self.last_battle is not None:
            acks.append("battle_end")
        if self.over:
            return acks
        b = self.battle
        if b is None:
            between = ["equip", "unequip", *acks]
            if self.loot_due and self._loot_left() > 0:
                return ["loot_drawn", *between]
            return ["encounter_drawn" if self.first_done else "encounter_chosen", *between]
        enc = b.current
        if enc is None:
            return acks
        if b.index == 0 and not enc.placed and enc.card.get("reinforcement") and len(b.queue) == 1:
            return ["reinforcements_drawn", *acks]
        if not enc.placed:
            return ["enemies_placed", *acks]
        if self._round_complete(enc):
            return ["round_end", "attack", "heal", "pass"]
        q = next(p for p in self._order() if self._missing(enc, p))
        if q.name not in enc.acted:
            return ["attack", "heal", "pass"]
        kinds = ["enemy_attack"]
        if q.name not in enc.closed and "attack" in enc.turn.get(q.name, ()) and self._unused_groups(q, enc):
            kinds.append("attack")
        return kinds

    # -- setup: Encounters ----------------------------------------------------------------

    def _deck_take(self, cards: list[Card], unknown: int, ev: Event) -> None:
        """Cards leave the Encounter deck; when it runs out the discards are shuffled back (ruling)."""
        total = sum(c.copies for c in self.by_type.get("encounter", []))
        left = total - sum(self.enc_out.values()) - self.enc_unknown
        if len(cards) + unknown > left:
            keep = Counter(e.card.id for e in self.battle.queue) if self.battle else Counter()
            keep.subtract(Counter(c.id for c in cards))
            self.enc_out, self.enc_unknown = +keep, 0
            self._t(ev, "the Encounter deck runs out: the discards are shuffled back")
        for c in cards:
            if self.enc_out[c.id] >= c.copies:
                self.ref.violation("LB-SETUP-3", f"{c.name} is not in the Encounter deck: it was drawn before "
                                   "(fought or discarded) and the deck has not run out", ev.loc)
            self.enc_out[c.id] += 1
        self.enc_unknown += unknown

    def _start_battle(self, ev: Event, card: Card, by: Any) -> None:
        if self.battle is not None:
            self.ref.violation("LB-ENC-1", f"a new Encounter is chosen while Battle {self.battle.number} is not "
                               "over (a Battle ends when its last Encounter's enemies are all defeated)", ev.loc)
            self.battle = None
        if self.loot_due and self._loot_left() > 0:
            self.ref.violation("LB-LOOT-1", f"{self.loot_due} Loot card(s) for {self.loot_for} were never drawn",
                               ev.loc)
        self.loot_due = 0
        leader = self.players[self.leader]
        if by is not None:
            who = self._find_player(by, ev, "by")
            if who is not leader:
                self.ref.violation("LB-SETUP-3", f"{who.name} picks the Encounter, but {leader.name} is the "
                                   "Encounter Leader", ev.at("by"))
        self.battles_started += 1
        self.battle = Battle(self.battles_started, card, [Encounter(card, False)])
        self._t(ev, f"Battle {self.battle.number}: {card.name} ({self._enc_text(card)}), Leader {leader.name}")

    def _enc_text(self, card: Card) -> str:
        e = self.enemy_cards.get(str(card.get("enemy")))
        r = int(card.get("reinforcement") or 0)
        return (f"{card.get('count')} × {e.name if e else card.get('enemy')}"
                + (f", +{r}" if r else "") + f", loot {card.get('loot')}")

    def _check_first_loot(self, card: Card, ev: Event, fname: str) -> None:
        if card.get("loot") not in self.first_loot:
            allowed = " or ".join(str(x) for x in self.first_loot)
            self.ref.violation("LB-SETUP-3", f"the first Encounter is chosen among those with loot {allowed}; "
                               f"{card.name} has loot {card.get('loot')}", ev.at(fname))

    def on_encounter_chosen(self, ev: Event) -> None:
        card = self._find_card(ev["encounter"], ("encounter",), ev, "encounter")
        if self.first_done:
            self.ref.violation("LB-SETUP-3", f"only the first Encounter is chosen freely; later ones are drawn "
                               f"({self.n_drawn} cards, the Leader picks 1): use 'encounter_drawn'", ev.loc)
        else:
            self._check_first_loot(card, ev, "encounter")
        self.first_done = True
        self._start_battle(ev, card, ev["by"])
        self._deck_take([card], 0, ev)

    def on_encounter_drawn(self, ev: Event) -> None:
        pick = self._find_card(ev["pick"], ("encounter",), ev, "pick")
        names = ev["cards"]
        drawn = [self._find_card(x, ("encounter",), ev, "cards") for x in names] if names is not None else None
        if drawn is not None:
            if len(drawn) != self.n_drawn:
                self.ref.violation("LB-SETUP-3", f"{self.n_drawn} Encounters are drawn; the log draws {len(drawn)}",
                                   ev.at("cards"))
            if pick not in drawn:
                self.ref.violation("LB-SETUP-3", f"the Leader picks one of the cards drawn; {pick.name} is not "
                                   "among them", ev.at("pick"))
                drawn.append(pick)
        if not self.first_done:
            self._check_first_loot(pick, ev, "pick")
        self.first_done = True
        self._start_battle(ev, pick, ev["by"])
        if drawn is not None:
            self._deck_take(drawn, 0, ev)
            others = [c.name for c in drawn if c is not pick]
            if others:
                self._t(ev, f"discarded: {', '.join(others)}")
        else:
            self._deck_take([pick], max(0, self.n_drawn - 1), ev)

    def on_reinforcements_drawn(self, ev: Event) -> None:
        b = self.battle
        cards = [self._find_card(x, ("encounter",), ev, "cards") for x in ev["cards"]]
        if b is None:
            self.ref.violation("LB-SETUP-4", "reinforcements are drawn for an Encounter marked +N; no Battle is "
                               "in progress", ev.loc)
            return
        if len(b.queue) > 1 or b.index > 0:
            self.ref.violation("LB-SETUP-4", f"the reinforcements of Battle {b.number} were already drawn "
                               "(a +N on a reinforcement adds enemies, not Encounters)", ev.loc)
        due = int(b.first.get("reinforcement") or 0)
        if len(cards) != due:
            self.ref.violation("LB-SETUP-4", f"{b.first.name} draws {due} reinforcement Encounter(s); the log "
                               f"draws {len(cards)}", ev.at("cards"))
        self._deck_take(cards, 0, ev)
        b.queue += [Encounter(c, True) for c in cards]
        if cards:
            self._t(ev, "reinforcements: " + ", ".join(f"{c.name} ({self._enc_text(c)})" for c in cards))

    # -- placement -----------------------------------------------------------------------

    def _check_numbers(self, held: dict[str, list], loc: Loc | None) -> dict[int, str]:
        """LB-TGT-1: numbers 1…d are all held, each by one player; returns number → player."""
        owner: dict[int, str] = {}
        bad = []
        for name, nums in held.items():
            for n in nums:
                if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.target_die:
                    bad.append(f"{name} holds {n!r}, not a number on the d{self.target_die}")
                elif n in owner:
                    bad.append(f"{n} is held by both {owner[n]} and {name}")
                else:
                    owner[n] = name
        missing = [n for n in range(1, self.target_die + 1) if n not in owner]
        if missing:
            bad.append(f"nobody holds {', '.join(map(str, missing))}")
        empty = [p.name for p in self.players if not p.ko and not held.get(p.name)]
        if empty:
            bad.append(f"{', '.join(empty)} hold(s) no number")
        if bad:
            self.ref.violation("LB-TGT-1", f"each player holds numbers so that 1–{self.target_die} are all "
                               f"assigned: {'; '.join(bad)}", loc)
        return owner

    def _default_numbers(self) -> dict[str, list]:
        if any(p.numbers is not None for p in self.players):
            return {p.name: list(p.numbers or []) for p in self.players}
        active = [p for p in self.players if not p.ko] or self.players
        held: dict[str, list] = {p.name: [] for p in active}
        for n in range(1, self.target_die + 1):
            held[active[(n - 1) % len(active)].name].append(n)
        return held

    def on_enemies_placed(self, ev: Event) -> None:
        b = self.battle
        enc = b.current if b is not None else None
        if enc is None or enc.placed:
            what = "its enemies are already placed" if enc is not None else "no Encounter is chosen"
            self.ref.violation("LB-SETUP-3", f"enemies are placed for a chosen Encounter; {what}", ev.loc)
            return
        due = int(b.first.get("reinforcement") or 0)
        if b.index == 0 and due and len(b.queue) == 1 and not b.reinf_reported:
            b.reinf_reported = True
            self.ref.violation("LB-SETUP-4", f"{b.first.name} is marked +{due}: draw {due} reinforcement "
                               "Encounter(s) before the fight", ev.loc)
        card = enc.card
        ecard = self.enemy_cards.get(str(card.get("enemy")))
        if ecard is None:
            raise LogError("LOG-GAME", f"Encounter {card.id} names no enemy card: {card.get('enemy')!r}", card.loc)
        extra = int(card.get("reinforcement") or 0) if enc.reinforcement else 0
        count = int(card.get("count") or 0) + extra
        rolls = list(ev["rolls"])
        if len(rolls) != count:
            if extra:
                self.ref.violation("LB-SETUP-4", f"{card.name} as a reinforcement has {count} enemies "
                                   f"({card.get('count')} + {extra}); the log places {len(rolls)}", ev.at("rolls"))
            else:
                self.ref.violation("LB-TGT-1", f"{card.name} has {count} enemies, one d{self.target_die} each; the log rolls "
                                   f"{len(rolls)}", ev.at("rolls"))
        if ev["numbers"] is not None:
            held = {}
            for name, nums in ev["numbers"].items():
                p = self._find_player(name, ev, "numbers")
                held[p.name] = _typed(nums if isinstance(nums, list) else [nums], EVENTS["enemies_placed"]
                                      ["numbers"].item, ev, "numbers", f"the numbers of {p.name}")
        else:
            held = self._default_numbers()
        owner = self._check_numbers(held, ev.at("numbers") if ev["numbers"] is not None else ev.loc)
        enc.enemies = []
        for i, v in enumerate(rolls):
            ref = f"{ecard.id}#{i + 1}"
            self.ref.die(v, self.target_die, "LB-TGT-1", ev.at("rolls"), f"the d{self.target_die} placing {ref}")
            who = self.by_name.get(owner.get(v, "")) if isinstance(v, int) else None
            if who is None:
                who = self.players[self.leader]
            if who.ko:
                who = self._left_of(who) or who
            e = Enemy(name=ref, card=ecard, front=who.name, max_health=int(ecard.get("health") or 0),
                      max_armor=int(ecard.get("armor") or 0), max_dodge=int(ecard.get("dodge") or 0))
            e.recover()
            enc.enemies.append(e)
        if ev["placed"] is not None:
            for name, refs in ev["placed"].items():
                p = self._find_player(name, ev, "placed")
                refs = _typed(refs if isinstance(refs, list) else [refs], EVENTS["enemies_placed"]["placed"].item,
                              ev, "placed", f"the enemies in front of {p.name}")
                stated = sorted(self._find_enemy(r, enc, ev, "placed").name for r in refs)
                computed = sorted(e.name for e in enc.enemies if e.front == p.name)
                if stated != computed:
                    self.ref.violation("LB-TGT-1", f"the log places {', '.join(stated) or 'nobody'} in front of "
                                       f"{p.name}; the dice place {', '.join(computed) or 'nobody'}", ev.at("placed"))
                    for r in stated:
                        self._find_enemy(r, enc, ev, "placed").front = p.name
        enc.placed = True
        for p in self.players:          # LB-ENC-1: an Encounter starts with Armor restored
            if not p.ko:
                p.armor = p.max_armor
        fronts = " · ".join(f"{p.name} ← {' '.join(e.name for e in enc.enemies if e.front == p.name) or '—'}"
                            for p in self.players)
        self._t(ev, f"{card.name}{' (reinforcement)' if enc.reinforcement else ''}: {fronts}")
        self.ref.trace("      round 1")

    # -- the round ------------------------------------------------------------------------

    def _combat(self, ev: Event) -> Encounter | None:
        b = self.battle
        enc = b.current if b is not None else None
        if enc is None or not enc.placed:
            self.ref.violation("LB-TGT-1", f"'{ev.kind}' with no enemies placed (each Encounter's enemies are "
                               f"placed with a d{self.target_die} each before the fight)", ev.loc)
            return None
        return enc

    def _missing(self, enc: Encounter, p: Player) -> list[str]:
        out = [] if p.name in enc.acted else [f"{p.name}'s turn"]
        return out + [f"{e.name}'s attack on {p.name}" for e in enc.alive()
                      if e.front == p.name and e.name not in enc.attacked and e.name not in enc.excused]

    def _round_complete(self, enc: Encounter) -> bool:
        return not any(self._missing(enc, p) for p in self._order())

    def _report_missing(self, enc: Encounter, upto: Player | None, ev: Event, why: str) -> None:
        items = []
        for q in self._order():
            if q is upto:
                break
            for m in self._missing(enc, q):
                if (enc.round, m) not in enc.reported:
                    enc.reported.add((enc.round, m))
                    items.append(m)
        if items:
            self.ref.violation("LB-RND-1", f"{why}, but round {enc.round} still lacks {', '.join(items)} (the "
                               "Leader acts, then the enemies in front of them attack; then the next player to "
                               "the left)", ev.loc)

    def _close_upto(self, enc: Encounter, p: Player) -> None:
        for q in self._order():
            enc.closed.add(q.name)
            if q is p:
                break

    def _end_of_round_effects(self, enc: Encounter, ev: Event) -> None:
        for p in self.players:
            if p.ko:
                continue
            p.armor = p.max_armor
            for c in self._items(p):
                heal = self._effect(c, "heal_per_round")
                if heal and p.health < p.max_health:
                    p.health = min(p.max_health, p.health + int(heal))
                    self._t(ev, f"{p.name} recovers {heal} Health ({c.name})")
        for e in enc.alive():
            e.armor = e.max_armor

    def _end_round(self, enc: Encounter, ev: Event, why: str, claims: bool = False) -> None:
        self._report_missing(enc, None, ev, why)
        self._end_of_round_effects(enc, ev)
        if claims:
            self._state_claims(ev, enc)
        self._state_lines(f"end of round {enc.round} (Armor restored)", enc)
        enc.round += 1
        enc.acted, enc.attacked, enc.closed, enc.excused = set(), set(), set(), set()
        enc.turn, enc.used, enc.used_dice = {}, {}, {}
        self.ref.trace(f"      round {enc.round}")

    def _player_action(self, ev: Event, p: Player, enc: Encounter, kind: str) -> None:
        if p.ko:
            self.ref.violation("LB-DMG-1", f"{p.name} is knocked out until the Battle ends", ev.loc)
            return
        if p.name in enc.acted and p.name in enc.closed:
            self._end_round(enc, ev, f"{p.name} acts again, so round {enc.round} is over")
        if p.name not in enc.acted:
            self._report_missing(enc, p, ev, f"{p.name} acts")
            enc.acted.add(p.name)
            for q in self._order():
                if q is p:
                    break
                enc.closed.add(q.name)
        kinds = enc.turn.setdefault(p.name, set())
        if ("heal" in kinds and kind == "attack") or ("attack" in kinds and kind == "heal"):
            self.ref.violation("LB-HEAL-1", f"{p.name} both heals and attacks this turn; a Healing spell is cast "
                               "instead of attacking", ev.loc)
        kinds.add(kind)

    def _unused_groups(self, p: Player, enc: Encounter) -> dict[int, list[Card]]:
        used = enc.used.get(p.name, set())
        groups: dict[int, list[Card]] = {}
        for c in self._attack_items(p):
            groups.setdefault(self._dice_of(c, p), []).append(c)
        return {a: g for a, g in groups.items() if not any(c.id in used for c in g)}

    def _choose_items(self, ev: Event, p: Player, enc: Encounter) -> list[Card]:
        """The items of this roll: as the log names them, or the one group not yet rolled."""
        if ev["with"]:
            items = []
            for name in ev["with"]:
                c = self._find_card(name, ("loot", "class"), ev, "with")
                if c.type == "class":
                    if c is not p.cls:
                        self.ref.violation("LB-ATK-4", f"{p.name} is {p.cls.name}, not {c.name}", ev.at("with"))
                    continue
                if c.id not in p.equipment:
                    self.ref.violation("LB-EQUIP-1", f"{p.name} has no {c.name} equipped", ev.at("with"))
                if c.get("damage") is None:
                    self.ref.violation("LB-ATK-4", f"{c.name} deals no damage: it cannot attack", ev.at("with"))
                    continue
                items.append(c)
            return items
        groups = self._unused_groups(p, enc)
        if not self._attack_items(p):
            return []
        if not groups:
            groups = {}
            for c in self._attack_items(p):
                groups.setdefault(self._dice_of(c, p), []).append(c)
        if len(groups) == 1 or ev["dice"] is None:
            return next(iter(groups.values()))
        if len(ev["dice"]) in groups:
            return groups[len(ev["dice"])]
        ways = "; ".join(f"{a}d{self.attack_die} with {', '.join(c.name for c in g)}" for a, g in groups.items())
        self.ref.violation("LB-ATK-2", f"{p.name} rolls {len(ev['dice'])} dice, but rolls {ways} (name the "
                           "weapons with 'with')", ev.at("dice"))
        return next(iter(groups.values()))

    def _hurt(self, t: Fighter, dmg: int) -> None:
        """LB-DMG-1: damage removes Armor first, the rest Health."""
        a = min(t.armor, dmg)
        t.armor -= a
        t.health = max(0, t.health - (dmg - a))

    def _claims(self, ev: Event, t: Fighter) -> None:
        """Check the stated consequences against the state; then go on as recorded."""
        for key, attr, rule in (("hp_left", "health", "LB-DMG-1"), ("armor_left", "armor", "LB-DMG-1"),
                                ("dodge_left", "dodge", "LB-ATK-3")):
            stated = ev[key]
            if stated is not None:
                self.ref.claim(rule, f"{t.name}'s {attr.capitalize()}", stated, getattr(t, attr), ev.at(key))
                setattr(t, attr, stated)
        ko_now = t.health <= 0
        if ev["ko"] is not None and ev["ko"] != ko_now:
            self.ref.violation("LB-DMG-1", f"the log says {t.name} is down, but {t.health} Health is left" if ev["ko"]
                               else f"the log says {t.name} still stands, but its Health is 0", ev.at("ko"))

    def _roll(self, ev: Event, n: int, who: str) -> int | None:
        """Check the dice of a roll of ``n`` d6 (LB-ATK-2); their sum, or None when not recorded."""
        dice = ev["dice"]
        if dice is None:
            if n == 0:
                return None
            if ev["hit"] is None:
                raise LogError("LOG-FIELD", f"'{ev.kind}' needs its 'dice' (or at least 'hit: true/false')", ev.loc)
            return None
        if n == 0:
            if dice:
                self.ref.violation("LB-ATK-2", f"{who} never misses and rolls no dice; the log rolls {len(dice)}",
                                   ev.at("dice"))
            return sum(d for d in dice if isinstance(d, int))
        if len(dice) != n:
            self.ref.violation("LB-ATK-2", f"{who} rolls {n}d{self.attack_die}; the log shows {len(dice)} dice", ev.at("dice"))
        for d in dice:
            self.ref.die(d, self.attack_die, "LB-ATK-2", ev.at("dice"), f"a die of {who}")
        return sum(dice)

    def _resolve_hit(self, ev: Event, total: int | None, n: int, t: Fighter) -> bool:
        """LB-ATK-3: a roll higher than the target's Dodge hits; the log's 'hit' is checked, then followed."""
        if total is not None:
            hit = total > t.dodge
            if ev["hit"] is not None and ev["hit"] != hit:
                self.ref.violation("LB-ATK-3", f"the log says the roll {'hits' if ev['hit'] else 'misses'}, but "
                                   f"{total} {'beats' if hit else 'does not beat'} {t.name}'s Dodge {t.dodge}",
                                   ev.at("hit"))
        else:
            hit = bool(ev["hit"])
            if hit and n * self.attack_die <= t.dodge:
                self.ref.violation("LB-ATK-3", f"{n}d{self.attack_die} cannot beat {t.name}'s Dodge {t.dodge}, yet the log says "
                                   "it hit", ev.at("hit"))
            if not hit and n > t.dodge:
                self.ref.violation("LB-ATK-3", f"{n}d{self.attack_die} always beats {t.name}'s Dodge {t.dodge}, yet the log "
                                   "says it missed", ev.at("hit"))
        return hit if ev["hit"] is None else bool(ev["hit"])

    def _miss(self, t: Fighter) -> None:
        t.dodge = max(0, t.dodge - self.dodge_loss)

    def on_attack(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        enc = self._combat(ev)
        if enc is None:
            return
        names = list(ev["targets"] or []) + ([ev["target"]] if ev["target"] is not None else [])
        if not names:
            raise LogError("LOG-FIELD", "an 'attack' event needs a 'target' (or 'targets')", ev.loc)
        targets = [self._find_enemy(x, enc, ev, "targets" if ev["targets"] else "target") for x in names]
        self._player_action(ev, p, enc, "attack")
        items = self._choose_items(ev, p, enc)
        n = self._dice_of(items[0], p) if items else self._dice_of(None, p)
        what = " + ".join(c.name for c in items) if items else f"{p.cls.name} class attack"
        # LB-ATK-2: one roll per Attack value, each weapon once per turn
        dices = {self._dice_of(c, p) for c in items}
        if len(dices) > 1:
            self.ref.violation("LB-ATK-2", f"{what}: weapons of different Attack roll one roll each", ev.loc)
        used = enc.used.setdefault(p.name, set())
        used_dice = enc.used_dice.setdefault(p.name, set())
        keys = [c.id for c in items] or ["class"]
        again = [k for k in keys if k in used]
        if again:
            self.ref.violation("LB-ATK-2", f"{p.name} already rolled {what} this turn (one roll per weapon)", ev.loc)
        elif n in used_dice and n:
            self.ref.violation("LB-ATK-2", f"{p.name} already rolled {n}d{self.attack_die} this turn: weapons of the same Attack "
                               "share one roll", ev.loc)
        used.update(keys)
        used_dice.add(n)
        # LB-ATK-1: Melee only → an enemy in front while there is one
        front = [e for e in enc.alive() if e.front == p.name]
        if self._melee_only(p) and front and any(t not in front for t in targets):
            far = next(t for t in targets if t not in front)
            self.ref.violation("LB-ATK-1", f"{p.name} has only Melee attacks and must attack an enemy in front of "
                               f"them ({', '.join(e.name for e in front)}), not {far.name}",
                               ev.at("targets" if ev["targets"] else "target"))
        hits = max((int(c.get("hits") or 1) for c in items), default=1)
        never = any(self._effect(c, "never_misses") for c in items)
        if len(targets) > hits:
            self.ref.violation("LB-ATK-2", f"{what} hits {hits} time(s); the log names {len(targets)} targets",
                               ev.at("targets"))
        if never:
            targets = (targets * hits)[:hits] if len(targets) < hits else targets
        else:
            targets = targets[:1]
        total = self._roll(ev, n, what)
        cls_dmg = int(p.cls.get("damage") or 0)
        cls_type = p.cls.get("damage_type")
        for t in targets:
            if t.ko:
                self.ref.violation("LB-DMG-1", f"{t.name} was defeated and removed: it cannot be attacked", ev.loc)
                continue
            if never:
                hit = True
                if ev["hit"] is False:
                    self.ref.violation("LB-ATK-3", f"the log says {what} missed, but it never misses", ev.at("hit"))
            else:
                hit = self._resolve_hit(ev, total, n, t)
            roll = f"[{', '.join(map(str, ev['dice']))}]" if ev["dice"] is not None else "(dice not recorded)"
            if not hit:
                self._miss(t)
                self._t(ev, f"{p.name} → {t.name} with {what}: {roll} misses; {t.name} Dodge {t.dodge}")
            else:
                dmg, why = self._damage(items, total, t, cls_dmg, cls_type, p)
                if ev["damage"] is not None and ev["damage"] != dmg:
                    self.ref.violation("LB-ATK-4", f"the log says the damage is {ev['damage']}, but the rules give "
                                       f"{dmg} ({why})", ev.at("damage"))
                if ev["damage"] is not None:
                    dmg = ev["damage"]
                self._hurt(t, dmg)
                self._t(ev, f"{p.name} → {t.name} with {what}: {roll} hits for {dmg}; {t.brief()}")
                for c in items:
                    heal = self._effect(c, "heal_on_hit")
                    if heal:
                        p.health = min(p.max_health, p.health + int(heal))
                        self._t(ev, f"{p.name} recovers {heal} Health ({c.name})")
            if len(targets) == 1:
                self._claims(ev, t)
            if t.health <= 0 or (ev["ko"] and len(targets) == 1):
                t.health = 0
                self._enemy_down(t, ev)
        self._after_blow(enc, ev)

    def _damage(self, items: list[Card], total: int | None, t: Fighter, cls_dmg: int, cls_type: Any,
                p: Player) -> tuple[int, str]:
        """LB-ATK-4: the weapons' damage, plus the class damage when its type matches the attack's."""
        cls_name = p.cls.name if p.cls else "class"
        if not items:
            return cls_dmg, f"{cls_name} class damage {cls_dmg}, no weapon"
        dmg, parts = 0, []
        for c in items:
            d = int(c.get("damage") or 0)
            k = self._effect(c, "double_damage_at")
            if k and total is not None and total >= k * t.dodge:
                d *= 2
                parts.append(f"{c.name} {d} (doubled: {total} ≥ {k} × Dodge {t.dodge})")
            else:
                parts.append(f"{c.name} {d}")
            dmg += d
        if any(c.get("damage_type") == cls_type for c in items):
            dmg += cls_dmg
            return dmg, " + ".join([*parts, f"{cls_name} class {cls_dmg}"])
        return dmg, " + ".join(parts) + f"; no class damage: the attack is not {cls_name}"

    def _enemy_down(self, e: Fighter, ev: Event) -> None:
        if not e.ko:
            e.ko = True
            self._t(ev, f"{e.name} is defeated and removed")

    def _after_blow(self, enc: Encounter, ev: Event) -> None:
        if not enc.alive() and not enc.done:
            self._end_encounter(enc, ev)

    def on_heal(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        t = self._find_player(ev["target"], ev, "target")
        enc = self._combat(ev)
        if enc is None:
            return
        self._player_action(ev, p, enc, "heal")
        healers = [c for c in self._items(p) if c.get("health") is not None and c.get("damage") is None]
        if ev["with"] is not None:
            spell = self._find_card(ev["with"], ("loot",), ev, "with")
            if spell.id not in p.equipment:
                self.ref.violation("LB-EQUIP-1", f"{p.name} has no {spell.name} equipped", ev.at("with"))
            if spell.get("health") is None or spell.get("damage") is not None:
                self.ref.violation("LB-HEAL-1", f"{spell.name} is not a Healing spell", ev.at("with"))
        elif healers:
            spell = healers[0]
        else:
            spell = None
            self.ref.violation("LB-HEAL-1", f"{p.name} holds no Healing spell", ev.loc)
        if t is p:
            self.ref.violation("LB-HEAL-1", "a Healing spell heals another player, not its caster", ev.at("target"))
        if t.ko:
            self.ref.violation("LB-DMG-1", f"{t.name} is knocked out until the Battle ends: no healing", ev.at("target"))
        elif spell is not None:
            t.health = min(t.max_health, t.health + int(spell.get("health") or 0))
        if ev["hp_left"] is not None:
            self.ref.claim("LB-HEAL-1", f"{t.name}'s Health", ev["hp_left"], t.health, ev.at("hp_left"))
            t.health = ev["hp_left"]
        self._t(ev, f"{p.name} heals {t.name}{' with ' + spell.name if spell else ''}: {t.brief()}")

    def on_pass(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        enc = self._combat(ev)
        if enc is None:
            return
        self._player_action(ev, p, enc, "pass")
        self._t(ev, f"{p.name} passes")

    def on_enemy_attack(self, ev: Event) -> None:
        enc = self._combat(ev)
        if enc is None:
            return
        e = self._find_enemy(ev["enemy"], enc, ev, "enemy")
        if e.ko:
            self.ref.violation("LB-DMG-1", f"{e.name} was defeated and removed: it does not attack", ev.loc)
            return
        owner = self.by_name[e.front]
        if e.name in enc.attacked:
            self._end_round(enc, ev, f"{e.name} attacks again, so round {enc.round} is over")
        self._report_missing(enc, owner, ev, f"{e.name} attacks")
        if owner.name not in enc.acted and (enc.round, f"{owner.name}'s turn") not in enc.reported:
            enc.reported.add((enc.round, f"{owner.name}'s turn"))
            self.ref.violation("LB-RND-1", f"{e.name} attacks before {owner.name} acted (a player acts, then the "
                               "enemies in front of them attack)", ev.loc)
        enc.attacked.add(e.name)
        self._close_upto(enc, owner)
        t = owner
        if ev["target"] is not None:
            t = self._find_player(ev["target"], ev, "target")
            if t is not owner:
                self.ref.violation("LB-RND-1", f"{e.name} stands in front of {owner.name} and attacks "
                                   f"{owner.name}, not {t.name}", ev.at("target"))
        if t.ko:
            self.ref.violation("LB-DMG-1", f"{t.name} is knocked out until the Battle ends", ev.loc)
            return
        n = int(e.card.get("attack") or 1)
        total = self._roll(ev, n, e.name)
        hit = self._resolve_hit(ev, total, n, t)
        roll = f"[{', '.join(map(str, ev['dice']))}]" if ev["dice"] is not None else "(dice not recorded)"
        if not hit:
            self._miss(t)
            self._t(ev, f"{e.name} → {t.name}: {roll} misses; {t.name} Dodge {t.dodge}")
        else:
            dmg = int(e.card.get("damage") or 0)
            if ev["damage"] is not None and ev["damage"] != dmg:
                self.ref.violation("LB-ATK-4", f"the log says the damage is {ev['damage']}, but a {e.card.name} "
                                   f"deals {dmg}", ev.at("damage"))
            if ev["damage"] is not None:
                dmg = ev["damage"]
            self._hurt(t, dmg)
            self._t(ev, f"{e.name} → {t.name}: {roll} hits for {dmg}; {t.brief()}")
            if isinstance(t, Player):
                for c in self._items(t):
                    frac = self._effect(c, "reflect")
                    if frac:
                        back = int(dmg * float(frac))
                        if back:
                            self._hurt(e, back)
                            self._t(ev, f"{c.name} reflects {back} to {e.name}: {e.brief()}")
                            if e.health <= 0:
                                self._enemy_down(e, ev)
        self._claims(ev, t)
        if t.health <= 0 or ev["ko"]:
            t.health = 0
            self._knock_out(t, enc, ev)
        self._after_blow(enc, ev)

    def _knock_out(self, p: Player, enc: Encounter, ev: Event) -> None:
        if p.ko:
            return
        p.ko = True
        self._t(ev, f"{p.name} is knocked out until the Battle ends")
        nxt = self._left_of(p)
        if nxt is None:
            self._state_lines(f"no active player remains in Battle {self.battle.number}", enc)
            self._lose(ev)
            return
        moved = [e for e in enc.alive() if e.front == p.name]
        for e in moved:
            e.front = nxt.name
            if nxt.name in enc.acted:           # their new player's turn is over: they attack next round
                enc.excused.add(e.name)
        if moved:
            self._t(ev, f"{', '.join(e.name for e in moved)} move(s) on to {nxt.name}")

    def _lose(self, ev: Event) -> None:
        self.winner = "enemies"
        self.over = True
        self.last_battle = {"number": self.battle.number, "result": "lost"}
        self._t(ev, f"the players lose Battle {self.battle.number} and the game (LB-END-1)")
        enc = self.battle.current
        if enc is not None:
            enc.done = True
            self.last_encounter, self.round_ack = enc, False

    def on_round_end(self, ev: Event) -> None:
        if self.last_encounter is not None and not self.round_ack:     # the round ended with the Encounter
            self.round_ack = True
            last = self.last_encounter
            self.ref.claim("LB-RND-1", "the round number", ev["round"], last.round, ev.at("round"))
            self._state_claims(ev, last)
            return
        b = self.battle
        enc = b.current if b is not None else None
        if enc is None or not enc.placed:
            self.ref.violation("LB-RND-1", "a round ends, but no Encounter is being fought", ev.loc)
            return
        self.ref.claim("LB-RND-1", "the round number", ev["round"], enc.round, ev.at("round"))
        self._end_round(enc, ev, "the round ends", claims=True)

    def _state_claims(self, ev: Event, enc: Encounter) -> None:
        state = ev["state"]
        if not state:
            return
        rules = {"health": "LB-DMG-1", "armor": "LB-RND-1", "dodge": "LB-ATK-3"}
        for name, vals in state.items():
            vals = _typed(vals, _STATE.item, ev, "state", f"'state' of {name}")
            if str(name) in self.by_name or not enc.enemies:
                who: Fighter = self._find_player(name, ev, "state")
            else:
                who = self._find_enemy(name, enc, ev, "state")
            for k, v in (vals or {}).items():
                if v is not None:
                    self.ref.claim(rules[k], f"{who.name}'s {k.capitalize()} after the round", v, getattr(who, k),
                                   ev.at("state"))
                    setattr(who, k, v)

    # -- Encounters and Battles end ---------------------------------------------------------

    def _end_encounter(self, enc: Encounter, ev: Event) -> None:
        b = self.battle
        enc.done = True
        self._end_of_round_effects(enc, ev)
        self._state_lines(f"{enc.card.name} cleared in round {enc.round}", enc)
        self.leader = (self.leader + 1) % len(self.players)
        self._t(ev, f"the Encounter Leader token passes left to {self.players[self.leader].name}")
        self.last_encounter, self.round_ack = enc, False
        b.index += 1
        if b.current is None:
            self._win_battle(ev)

    def _win_battle(self, ev: Event) -> None:
        b = self.battle
        self.battles_won += 1
        for p in self.players:
            p.recover()
        self.loot_due = int(b.first.get("loot") or 0)
        self.loot_for = f"Battle {b.number} ({b.first.name})"
        self.last_battle = {"number": b.number, "result": "won"}
        self.battle = None
        self._t(ev, f"Battle {b.number} won ({self.battles_won} of {self.target}); everyone recovers fully; "
                    f"loot {self.loot_due}")
        if self.target is not None and self.battles_won >= self.target:
            self.winner = "players"
            self.over = True
            self._t(ev, "the players win the game (LB-END-1)")

    def on_encounter_end(self, ev: Event) -> None:
        if self.last_encounter is not None:      # it ended with its last enemy: acknowledged
            self.last_encounter = None
            return
        b = self.battle
        enc = b.current if b is not None else None
        if enc is None or not enc.placed:
            self.ref.violation("LB-ENC-1", "an Encounter ends, but none is being fought", ev.loc)
            return
        alive = enc.alive()
        if alive:
            self.ref.violation("LB-ENC-1", f"an Encounter ends when its enemies are all defeated; "
                               f"{', '.join(e.name for e in alive)} still stand(s)", ev.loc)
            for e in alive:
                e.ko = True
        self._end_encounter(enc, ev)
        self.last_encounter = None

    def on_battle_end(self, ev: Event) -> None:
        if self.last_battle is not None:         # it ended by itself: check what the log says about it
            last = self.last_battle
            self.ref.claim("LB-ENC-1" if last["result"] == "won" else "LB-END-1",
                           f"the result of Battle {last['number']}", ev["result"], last["result"], ev.at("result"))
            self.ref.claim("LB-END-1", "the number of Battles won", ev["battles_won"], self.battles_won,
                           ev.at("battles_won"))
            self.last_battle = None
            return
        if self.battle is None:
            self.ref.violation("LB-ENC-1", "a Battle ends, but none is being fought", ev.loc)
            return
        result = ev["result"] or "won"
        active = [p.name for p in self.players if not p.ko]
        enc = self.battle.current
        if result == "lost":
            self.ref.violation("LB-END-1", f"the players lose only when no active player remains; "
                               f"{', '.join(active)} still stand(s)", ev.loc)
            self._lose(ev)
            return
        left = (enc.alive() if enc is not None else []) + [e for x in self.battle.queue[self.battle.index + 1:]
                                                            for e in (x.enemies or [])]
        pending = len(self.battle.queue) - self.battle.index - (1 if enc is not None and enc.placed else 0)
        self.ref.violation("LB-ENC-1", f"a Battle ends after its last Encounter; "
                           f"{len(left)} enemy(ies) and {pending} Encounter(s) remain", ev.loc)
        self._win_battle(ev)
        self.ref.claim("LB-END-1", "the number of Battles won", ev["battles_won"], self.battles_won,
                       ev.at("battles_won"))
        self.last_battle = None

    # -- loot ---------------------------------------------------------------------------------

    def _loot_left(self) -> int:
        total = sum(c.copies for c in self.by_type.get("loot", []))
        return total - sum(self.loot_out.values()) - self.loot_unknown

    def _reveal(self, c: Card, ev: Event, fname: str) -> None:
        if self.loot_out[c.id] >= c.copies:
            self.ref.violation("LB-LOOT-1", f"the Loot deck holds {c.copies} {c.name}; all were drawn already",
                               ev.at(fname))
        self.loot_out[c.id] += 1

    def on_loot_drawn(self, ev: Event) -> None:
        named = [self._find_card(x, ("loot",), ev, "cards") for x in (ev["cards"] or [])]
        count = ev["count"] if ev["count"] is not None else len(named)
        if ev["count"] is None and ev["cards"] is None:
            raise LogError("LOG-FIELD", "a 'loot_drawn' event needs 'count' or 'cards'", ev.loc)
        if count < len(named):
            raise LogError("LOG-FIELD", f"'count' is {count} but 'cards' names {len(named)}", ev.at("count"))
        left = self._loot_left()
        due = min(self.loot_due, left)
        if self.battle is not None or not self.loot_due:
            self.ref.violation("LB-LOOT-1", "Loot is drawn after a won Battle (the first Encounter's loot number); "
                               "none is due now", ev.loc)
        elif count > due:
            self.ref.violation("LB-LOOT-1", f"{self.loot_for} earns {due} more Loot card(s); the log draws {count}",
                               ev.at("count") if ev["count"] is not None else ev.at("cards"))
        if count > left:
            self.ref.violation("LB-LOOT-1", f"the Loot deck holds only {left} more card(s)", ev.loc)
        self.loot_due = max(0, self.loot_due - count)
        for c in named:
            self._reveal(c, ev, "cards")
            self.pool[c.id] += 1
        self.loot_unknown += count - len(named)
        self.pool_unknown += count - len(named)
        self._t(ev, f"loot drawn: {', '.join(c.name for c in named) or ''}"
                    f"{' + ' if named and count > len(named) else ''}"
                    f"{f'{count - len(named)} unnamed' if count > len(named) else ''}")

    def on_equip(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        c = self._find_card(ev["card"], ("loot",), ev, "card")
        if self.battle is not None:
            self.ref.violation("LB-EQUIP-1", "equipment changes between Battles (ruling), not during one", ev.loc)
        if self.pool[c.id] > 0:
            self.pool[c.id] -= 1
        elif self.pool_unknown > 0:
            self.pool_unknown -= 1
            self._reveal(c, ev, "card")
        else:
            self.ref.violation("LB-LOOT-1", f"no {c.name} among the Loot drawn and not yet equipped", ev.at("card"))
        cat = c.get("category")
        items = self._items(p) + [c]
        limit = self.equip_limits.get(cat)
        if limit is not None and sum(1 for x in items if x.get("category") == cat) > int(limit):
            self.ref.violation("LB-EQUIP-1", f"a player equips at most {limit} {cat}; {p.name} would hold "
                               f"{', '.join(x.name for x in items if x.get('category') == cat)}", ev.at("card"))
        hands = sum(int(self.hands_used.get(x.get("category"), 0)) for x in items)
        if hands > self.hands:
            self.ref.violation("LB-EQUIP-1", f"{p.name} has {self.hands} hands; "
                               f"{', '.join(x.name for x in items if self.hands_used.get(x.get('category')))} "
                               f"need {hands}", ev.at("card"))
        p.equipment.append(c.id)
        self._refresh(p, full=self.battle is None)
        self._t(ev, f"{p.name} equips {c.name}: {p.brief()}")

    def on_unequip(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        c = self._find_card(ev["card"], ("loot",), ev, "card")
        if c.id not in p.equipment:
            self.ref.violation("LB-EQUIP-1", f"{p.name} has no {c.name} equipped", ev.at("card"))
            return
        if self.battle is not None:
            self.ref.violation("LB-EQUIP-1", "equipment changes between Battles (ruling), not during one", ev.loc)
        p.equipment.remove(c.id)
        self.pool[c.id] += 1
        self._refresh(p, full=self.battle is None)
        self._t(ev, f"{p.name} puts {c.name} back in the shared loot: {p.brief()}")

    def on_leader_passed(self, ev: Event) -> None:
        to = self._find_player(ev["to"], ev, "to")
        leader = self.players[self.leader]
        if to is not leader:
            self.ref.violation("LB-LOOT-1", f"the Encounter Leader token passes left after each Encounter: "
                               f"{leader.name} leads now, not {to.name}", ev.at("to"))
            self.leader = self.players.index(to)
            self._t(ev, f"Leader (as recorded): {to.name}")

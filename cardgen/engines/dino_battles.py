"""Biomechanic Dino Battles — the playtest rules engine (``cardgen check dino_battles LOG``).

A state machine over ``rules/dino_battles/params.yaml`` and the card YAML: every number of
the rules (hand 6, Comp Cards 4, bench 3, Item Zone 5, 3 K.O.s, poison 10 HP, …) is read from
params.yaml, every Dinosaur's stats, Special Attacks and abilities and every Upgrade's stat
changes from the cards. A number the rules need and params.yaml lacks is a ``LOG-GAME`` error
naming the missing key.

The log header names both players and their 60-card decks (a deck file, or a deck's name in
``cards/dino_battles/decks/``); the decks are validated first with the BDB-DECK rules.
Cards may stay hidden: a draw need not name its cards, and the engine then tracks counts —
the hand, the Main Deck, the Comp Cards, the face-down Item Zone — and checks what the log
reveals (a card played must be in the hand; more copies than the deck holds cannot be).

Rules enforced (catalogue ``specs/rules/dino_battles.md``): BDB-SETUP-1…4, BDB-TURN-1, 2,
BDB-MAIN-1…3, BDB-ACT-1, BDB-END-1, BDB-CMB-1…6, BDB-ABIL-1…3, BDB-KO-1, BDB-END-2, 3, and the
deck rules BDB-DECK-1…3 on the decks named. Rulings are in params.yaml ``rulings:``.

Free-text card effects (Special Attacks, Items, Actions) are not read: the log states their
consequences — a ``bonus`` on a move, an ``effect`` event (HP, tokens, statuses, Upgrades
destroyed) or a ``negated_by`` on an answer — and the engine checks that the card named as the
source was played this turn or is in play. Upgrades' structured fields (atk, eva, def, hp and
the abilities) are applied.

The log format is documented in ``docs/playtest-logs.md``; the event kinds and their fields
are declared in :data:`Engine.EVENTS` (``docs/schemas/dino_battles.schema.json`` is generated
from them).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..checker import BaseEngine
from ..model import Card
from ..playlog import Event, LogError
from ..problems import Loc, Problems, did_you_mean
from ..schema import Opt, check_value

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


def _typed(value: Any, opt: Opt, loc: Loc | None, what: str) -> Any:
    probs = Problems()
    ok, v = check_value(value, opt, loc, probs, what)
    if not ok:
        p = probs.errors[0]
        raise LogError("LOG-FIELD", p.message, p.loc or loc)
    return v


# ---------------------------------------------------------------------------------------
# State


@dataclass(eq=False)
class Dino:
    card: Card
    label: str
    owner: str
    hp: int
    upgrades: list[Card] = field(default_factory=list)
    wound_tokens: int = 0
    poison_turns: int = 0
    paralyzed: bool = False
    evade_bonus: int = 0
    ko_at: Loc | None = None            # set when its HP fell to 0 or less (a K.O. not yet recorded)

    @property
    def name(self) -> str:
        return self.card.name if "#" not in self.label else f"{self.card.name} #{self.label.rsplit('#', 1)[1]}"

    def stat(self, key: str) -> int:
        return max(0, int(self.card.get(key) or 0) + sum(int(u.get(key) or 0) for u in self.upgrades))

    @property
    def max_hp(self) -> int:
        return int(self.card.get("hp") or 0) + sum(int(u.get("hp") or 0) for u in self.upgrades)

    def flag(self, key: str) -> bool:
        return bool(self.card.get(key)) or any(bool(u.get(key)) for u in self.upgrades)

    def level(self, key: str) -> int:
        return int(self.card.get(key) or 0) + sum(int(u.get(key) or 0) for u in self.upgrades)

    @property
    def who(self) -> str:
        return f"{self.owner}'s {self.name}"

    def statuses(self) -> list[str]:
        """Its Wound tokens, poison and paralysis, as the trace shows them."""
        return ([f"wound {self.wound_tokens}"] if self.wound_tokens else []) + \
            ([f"poisoned {self.poison_turns}"] if self.poison_turns else []) + (["paralyzed"] if self.paralyzed else [])

    def brief(self) -> str:
        if self.ko_at is not None:      # knocked out, not yet recorded: its statuses ended with the K.O.
            return f"{self.name} {self.hp}/{self.max_hp} [knocked out]"
        marks = self.statuses()
        if self.upgrades:
            marks.append("+" + ", ".join(u.name for u in self.upgrades))
        return f"{self.name} {self.hp}/{self.max_hp}" + (f" [{'; '.join(marks)}]" if marks else "")


@dataclass(eq=False)
class Side:
    name: str
    index: int                          # 0: player A, 1: player B
    loc: Loc
    deck_name: str = ""
    deck_cards: Counter = field(default_factory=Counter)     # card id → copies in the Main Deck
    deck_left: int = 0
    seen: Counter = field(default_factory=Counter)           # copies known to have left the Main Deck
    hand: int = 0
    hand_known: Counter = field(default_factory=Counter)
    comp: int = 0
    drew: bool = False
    comp_done: bool = False
    placed: bool = False
    new_hands: int = 0
    hand_sizes: list[int] = field(default_factory=list)
    active: Dino | None = None
    bench: list[Dino] = field(default_factory=list)
    combat_deck: Counter = field(default_factory=Counter)    # subtype → cards
    items_known: Counter = field(default_factory=Counter)    # Items in the zone whose name the log revealed
    items_unknown: int = 0
    junk: Counter = field(default_factory=Counter)
    junk_unknown: int = 0
    kos: int = 0                                              # K.O.s scored (opposing Dinosaurs knocked out)
    knocked_out: list[str] = field(default_factory=list)     # own Dinosaurs knocked out
    made: Counter = field(default_factory=Counter)           # Dinosaurs put in play, per card (for labels)
    out_at: int | None = None                                # the order in which the deck ran out

    @property
    def hand_unknown(self) -> int:
        return max(0, self.hand - sum(self.hand_known.values()))

    @property
    def in_play(self) -> list[Dino]:
        return ([self.active] if self.active is not None else []) + list(self.bench)

    @property
    def items(self) -> int:
        return sum(self.items_known.values()) + self.items_unknown


@dataclass
class Combat:
    first: int                        # index of the player with the first move of this exchange
    passed: bool = False
    attack: dict | None = None        # the attack awaiting its answer
    exchange: int = 1
    over: bool = False


# ---------------------------------------------------------------------------------------


class Engine(BaseEngine):
    """Replays a Biomechanic Dino Battles playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "BDB-END-2", "ended_by": "BDB-END-2", "kos": "BDB-KO-1", "players": "BDB-KO-1",
        "active": "BDB-KO-1", "bench": "BDB-MAIN-1", "hp": "BDB-CMB-3", "knocked_out": "BDB-KO-1",
        "hand": "BDB-END-1", "deck": "BDB-END-3", "comp_cards": "BDB-KO-1", "combat_deck": "BDB-CMB-2",
        "items": "BDB-MAIN-3", "initiative": "BDB-TURN-2", "turn": "BDB-TURN-1", "phase": "BDB-TURN-1",
    }

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "BDB-END-2"
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        p = self._param
        self.n_players = (int(p("players", "min")), int(p("players", "max")))
        self.die_sides = int(p("die_sides"))
        self.init_map = {str(k): str(v) for k, v in dict(p("initiative")).items()}
        self.hand_size = int(p("hand_size"))
        self.free_new = int(p("new_hand", "free_new_hands"))
        self.penalty = int(p("new_hand", "penalty_per_new_hand"))
        self.min_hand = int(p("new_hand", "min_hand_size"))
        self.nodino_free = bool(p("new_hand", "no_dinosaur_free"))
        self.nodino_counts = bool(p("new_hand", "no_dinosaur_counts"))
        self.comp_n = int(p("comp_cards"))
        self.bench_max = int(p("bench_max"))
        phases = [str(x) for x in p("phases")]
        if sorted(phases) != sorted(PHASES) or phases[0] != "startup" or phases[-1] != "end":
            raise LogError("LOG-GAME", f"'phases' in {self.params_file.name} must order the phases "
                           f"{', '.join(PHASES)}, from startup to end", Loc(str(self.params_file), 1, 1))
        self.phases = phases
        self.pass_from = int(p("initiative_passes_from_turn"))
        self.item_max = int(p("item_zone_max"))
        self.upgrade_max = int(p("upgrade_same_name_max"))
        self.draw_up = int(p("draw_up_to"))
        self.moves = [str(m) for m in p("combat_moves")]
        for m in ("attack", "evade", "defend"):
            if m not in self.moves:
                raise LogError("LOG-GAME", f"'combat_moves' in {self.params_file.name} lacks '{m}'",
                               Loc(str(self.params_file), 1, 1))
        self.poison_hp = int(p("poison_hp"))
        self.wound_hp = int(p("wound_hp_per_token"))
        self.para_fail = str(p("paralyze_fails_on"))
        self.comp_per_ko = int(p("comp_cards_per_ko"))
        self.kos_to_win = int(p("kos_to_win"))
        self.unanswered_hits = bool(p("unanswered_attack_hits"))
        self.failed_spends = bool(p("failed_move_spends_cards"))
        self.poison_stacks = bool(p("poison_stacks"))
        self.spike_triggers = bool(p("spike_damage_triggers"))
        self.camo_attacks = bool(p("camouflage_stops_attacks"))
        self.heal_above = bool(p("heal_above_hp"))
        self.simultaneous = self._choice("simultaneous_end", ("draw", "initiative"))
        self.deck_tie = self._choice("deck_out_tie", ("first_out_loses", "draw"))
        self.cards = game.cards_by_id
        self.specials: dict[str, tuple[Card, dict]] = {}
        for c in game.cards:
            for s in c.get("specials") or []:
                if isinstance(s, dict) and s.get("name"):
                    self.specials.setdefault(str(s["name"]).lower(), (c, s))
        # state
        self.sides: list[Side] = []
        self.by_name: dict[str, Side] = {}
        self.broken = False
        self.initiative: int | None = None
        self.rolled = False
        self.turn = 0
        self.phase: str | None = None                    # None: setup
        self.cmb: Combat | None = None
        self.owed: dict[int, int] = {}                   # End phase: cards each player still draws
        self.acted: set[int] = set()                     # who made a phase play in this Main or End phase
        self.played: list[tuple[int, str]] = []          # (player, card id) Actions played / Items used this turn
        self.winner: str | None = None
        self.ended_by: str | None = None
        self.outs = 0
        self._src_type: str | None = None
        self._src_owner: int | None = None

    # -- reading the rules and the cards ---------------------------------------------------

    def _choice(self, key: str, choices: tuple[str, ...]) -> str:
        v = str(self._param(key))
        if v not in choices:
            raise LogError("LOG-GAME", f"'{key}' in {self.params_file.name} must be one of {', '.join(choices)}, "
                           f"not {v!r}", Loc(str(self.params_file), 1, 1))
        return v

    def _card(self, value: Any, ev: Event, fname: str, types: tuple[str, ...] | None = None,
              loc: Loc | None = None) -> Card:
        s = str(value).strip()
        c = self.cards.get(s)
        if c is None:
            low = s.lower()
            c = next((x for x in self.game.cards if x.name.lower() == low or x.id.lower() == low), None)
        if c is None or (types and c.type not in types):
            pool = [x.id for x in self.game.cards if not types or x.type in types]
            what = " or ".join(types) if types else "Dino Battles"
            raise LogError("LOG-FIELD", f"'{fname}' names no {what} card: {value!r}", loc or ev.at(fname),
                           did_you_mean(s, pool))
        return c

    def _side(self, value: Any, ev: Event | None, fname: str, loc: Loc | None = None) -> Side:
        s = str(value).strip()
        side = self.by_name.get(s) or next((q for q in self.sides if q.name.lower() == s.lower()), None)
        if side is None:
            raise LogError("LOG-FIELD", f"'{fname}' names no player: {value!r}", loc or (ev.at(fname) if ev else None),
                           did_you_mean(s, self.by_name) or f"players: {', '.join(self.by_name)}")
        return side

    def _other(self, s: Side) -> Side:
        return self.sides[1 - s.index]

    def _dino(self, side: Side, value: Any, ev: Event, fname: str, loc: Loc | None = None) -> Dino:
        """A Dinosaur of ``side`` in play, by label ('razorclaw#2'), card id or name."""
        s = str(value).strip().lower()
        pool = side.in_play
        hit = [d for d in pool if d.label.lower() == s or (s.endswith("#1") and d.label.lower() == s[:-2])]
        if not hit:
            hit = [d for d in pool if s in (d.card.id.lower(), d.card.name.lower())]
        if len(hit) == 1:
            return hit[0]
        where = loc or ev.at(fname)
        if len(hit) > 1:
            raise LogError("LOG-FIELD", f"'{fname}' {value!r} could be several of {side.name}'s Dinosaurs: say "
                           f"which ({', '.join(d.label for d in hit)})", where)
        labels = [d.label for d in pool]
        raise LogError("LOG-FIELD", f"'{fname}' names no Dinosaur of {side.name} in play: {value!r}", where,
                       did_you_mean(s, labels) or f"in play: {', '.join(labels) or 'none'}")

    def _special(self, d: Dino | None, value: Any, ev: Event, rule: str) -> dict | None:
        """A Special Attack of the active Dinosaur ``d`` by name (None if it has no such attack)."""
        s = str(value).strip().lower()
        if s not in self.specials:
            raise LogError("LOG-FIELD", f"'special' names no Special Attack: {value!r}", ev.at("special"),
                           did_you_mean(s, self.specials))
        for sp in (d.card.get("specials") or []) if d is not None else []:
            if isinstance(sp, dict) and str(sp.get("name", "")).lower() == s:
                return sp
        owner = self.specials[s][0].name
        self.ref.violation(rule, f"{self.specials[s][1]['name']} is a Special Attack of {owner}, not of "
                           f"{d.name if d else 'the active Dinosaur'}", ev.at("special"))
        return self.specials[s][1]

    # -- trace ----------------------------------------------------------------------------

    def _side_lines(self, s: Side) -> list[str]:
        act = s.active.brief() if s.active else "none"
        bench = ", ".join(d.brief() for d in s.bench) or "empty"
        cd = " ".join(f"{m} {s.combat_deck[m]}" for m in self.moves)
        width = max(len(x.name) for x in self.sides)
        return [f"{s.name:<{width}}  K.O.s {s.kos} · hand {s.hand} · deck {s.deck_left} · combat deck {cd} · "
                f"items {s.items} · comp {s.comp}",
                f"{'':<{width}}  active {act} · bench {bench}"]

    def _state(self, title: str) -> None:
        self.ref.trace(f"      {title}")
        for s in self.sides:
            for line in self._side_lines(s):
                self.ref.trace(f"        {line}")

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        raw = self.header.get("players") or []
        for i, entry in enumerate(raw):
            loc = self.header_locs.get(f"players[{i}]", self.head_loc)
            name = str(entry.get("name"))
            if name in self.by_name:
                raise LogError("LOG-FIELD", f"two players are called {name!r}", loc)
            side = Side(name, i, loc)
            self.sides.append(side)
            self.by_name[name] = side
        lo, hi = self.n_players
        if not lo <= len(self.sides) <= hi or len(self.sides) != 2:
            want = f"exactly {lo}" if lo == hi else f"{lo}–{hi}"
            extra = f"; the checker replays {self.sides[0].name} and {self.sides[1].name}" if len(self.sides) > 2 \
                else ""
            self.ref.violation("BDB-SETUP-1", f"{len(self.sides)} player(s); Biomechanic Dino Battles is for "
                               f"{want} players{extra}", self.head_loc)
            if len(self.sides) < 2:
                self.broken = True
                self.replayable = False
                return
            for side in self.sides[2:]:
                del self.by_name[side.name]
            self.sides = self.sides[:2]
        for side, entry in zip(self.sides, raw):
            self._load_deck(side, str(entry.get("deck")))
        a, b = self.sides
        self.ref.trace(f"      {a.name} (player A, {a.deck_name}) against {b.name} (player B, {b.deck_name})")

    def _deck_path(self, value: str, loc: Loc) -> Path:
        from .. import collections as cols
        v = value.strip()
        log_dir = Path(loc.file).parent if loc and loc.file else Path.cwd()
        if "/" in v or "\\" in v or v.endswith((".yaml", ".yml")):
            for base in (log_dir, self.game.root, Path.cwd()):
                cand = (base / v) if not Path(v).is_absolute() else Path(v)
                if cand.is_file():
                    return cand
        else:
            files = cols.collection_files(self.game)
            low = v.lower().replace(" ", "_")
            for f in files:
                if f.stem.lower() == low:
                    return f
            import yaml
            for f in files:
                try:
                    doc = yaml.safe_load(f.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError, yaml.YAMLError):
                    continue
                body = next(iter(doc.values()), None) if isinstance(doc, dict) and doc else None
                if isinstance(body, dict) and str(body.get("name", "")).strip().lower() == v.lower():
                    return f
            raise LogError("LOG-FIELD", f"no deck called {value!r} in {self.game.cards_dir.name}/decks", loc,
                           did_you_mean(low, [f.stem for f in files]) or
                           f"decks: {', '.join(f.stem for f in files)}; or give a file path")
        raise LogError("LOG-FIELD", f"deck file {value!r} not found (looked beside the log and in the project)", loc)

    def _load_deck(self, side: Side, value: str) -> None:
        from .. import collections as cols
        from .. import pipeline
        path = self._deck_path(value, side.loc)
        probs = Problems()
        pipeline.check_file(self.game, path, probs)
        kind_probs = Problems()
        kind, body, collections = cols.load_collection_file(path, self.game, kind_probs)
        side.deck_name = str((body or {}).get("name") or path.stem) if isinstance(body, dict) else path.stem
        for pr in probs:
            if pr.severity != "error":
                continue
            where = f" ({pr.loc})" if pr.loc else ""
            self.ref.violation(pr.rule, f"{side.name}'s deck: {pr.message}{where}", side.loc, pr.hint)
        for col in collections:
            for e in col.entries:
                side.deck_cards[e.id] += e.count
        side.deck_left = sum(side.deck_cards.values())

    def before(self, ev: Event) -> None:
        if self.over and ev.kind != "game_end":
            why = {"kos": f"{self.winner} has {self.kos_to_win} K.O.s", "deck_out": "a Main Deck ran out",
                   "no_dinosaurs": "a player has no Dinosaur left"}.get(self.ended_by or "", "")
            if self.winner == "draw":
                why = "a draw"
            self.ref.violation(self.end_rule, f"event '{ev.kind}' after the game has ended ({why})", ev.loc)

    def apply(self, ev: Event) -> None:
        if self.broken or len(self.sides) != 2 or (self.over and ev.kind != "game_end"):
            return
        if self.cmb is not None and self.cmb.attack is not None and ev.kind not in ANSWERS + REACTIONS + ("pass",):
            att = self.cmb.attack
            self.ref.violation("BDB-CMB-2", f"{att['side'].name}'s attack (line {att['ev'].loc.line}) is never "
                               "answered: record a counterattack, evade, defend or no_answer", ev.loc)
            self._resolve(None, "no_answer", None)
        if ev.kind not in KO_WINDOW:
            self._settle_kos(ev, recorded=False)
        if self.over and ev.kind != "game_end":
            return
        super().apply(ev)

    def finish(self) -> None:
        if self.broken or len(self.sides) != 2:
            return
        pending = [d for s in self.sides for d in s.in_play if d.ko_at] if not self.over else []
        if pending:     # the log ends before the knock-outs are recorded: they are not applied
            self.ref.trace("      the log ends with " + ", ".join(f"{d.who} at {d.hp} HP" for d in pending)
                           + ": knocked out, not yet recorded")
        where = f"turn {self.turn}, {self.phase}" if self.turn else "setup"
        if not self.over:
            self._state(f"log ends in {where}")
        self.ref.trace(f"      final: winner {self.winner or 'none yet'}"
                       + (f" ({self._why()})" if self.over else "") + "; K.O.s "
                       + ", ".join(f"{s.name} {s.kos}" for s in self.sides))

    def _why(self) -> str:
        return {"kos": f"{self.kos_to_win} K.O.s", "no_dinosaurs": "no Dinosaur left",
                "deck_out": "a Main Deck ran out"}.get(self.ended_by or "", "")

    def final(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winner": self.winner,
            "ended_by": self.ended_by,
            "turn": self.turn,
            "phase": self.phase,
            "initiative": self.sides[self.initiative].name if self.initiative is not None and self.sides else None,
            "kos": {s.name: s.kos for s in self.sides},
            "players": {},
        }
        for s in self.sides:
            out["players"][s.name] = {
                "deck_name": s.deck_name,
                "kos": s.kos,
                "active": s.active.label if s.active else None,
                "bench": [d.label for d in s.bench],
                "hp": {d.label: d.hp for d in s.in_play},
                "knocked_out": list(s.knocked_out),
                "hand": s.hand,
                "deck": s.deck_left,
                "comp_cards": s.comp,
                "combat_deck": {m: s.combat_deck[m] for m in self.moves},
                "items": s.items,
            }
        return out

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts (for simulated playtests)."""
        if self.over or self.broken or len(self.sides) != 2:
            return ["game_end"] if self.over else []
        pending = [d for s in self.sides for d in s.in_play if d.ko_at]
        if pending:
            return ["knock_out", "action", "use_item", "effect"]
        if self.phase is None:
            kinds = []
            if not self.rolled:
                kinds.append("initiative_roll")
            if any(not s.drew for s in self.sides):
                kinds.append("draw")
            if any(s.drew and not s.comp_done for s in self.sides):
                kinds += ["new_hand", "comp_cards"]
            if any(s.comp_done and not s.placed for s in self.sides):
                kinds.append("place")
            if self.rolled and all(s.placed for s in self.sides):
                kinds.append("phase")
            return kinds
        anytime = ["action", "use_item", "effect", "discard", "draw", "game_end"]
        if self.phase == "combat" and self.cmb is not None:
            c = self.cmb
            if c.attack is not None:
                return ["counterattack", "evade", "defend", "no_answer", "pass", "retreat", *anytime]
            if c.over:
                return ["phase", *anytime]
            return ["attack", "pass", "first_move", "phase", "retreat", *anytime]
        if self.phase in MAIN_PHASES:
            return ["bench", "upgrade", "item", "combat_to_deck", "retreat", "phase", *anytime]
        return ["phase", *anytime]

    # -- moving cards -----------------------------------------------------------------------

    def _reveal(self, s: Side, c: Card, ev: Event, loc: Loc | None, rule: str) -> None:
        """A card of ``s`` whose name was hidden is revealed: the deck must hold one more copy."""
        have = s.deck_cards[c.id]
        if s.seen[c.id] >= have:
            more = f"only {have}, and {s.seen[c.id]} are already out" if have else "none"
            self.ref.violation(rule, f"{s.name}'s deck '{s.deck_name}' holds {more}: {s.name} cannot have "
                               f"another {c.name}", loc or ev.loc)
        s.seen[c.id] += 1

    def _from_hand(self, s: Side, c: Card | None, ev: Event, loc: Loc | None, rule: str) -> None:
        """One card leaves ``s``'s hand (``c`` None: an unseen one)."""
        loc = loc or ev.loc
        if s.hand <= 0:
            self.ref.violation(rule, f"{s.name} has no card in hand" + (f" to play {c.name}" if c else ""), loc)
            return
        if c is None:
            if s.hand_unknown <= 0:
                top = next(iter(s.hand_known))
                s.hand_known[top] -= 1
                s.hand_known = +s.hand_known
            s.hand -= 1
            return
        if s.hand_known[c.id] > 0:
            s.hand_known[c.id] -= 1
            s.hand_known = +s.hand_known
        elif s.hand_unknown > 0:
            self._reveal(s, c, ev, loc, rule)
        else:
            held = ", ".join(self.cards[k].name for k in s.hand_known.elements()) or "nothing"
            self.ref.violation(rule, f"{c.name} is not in {s.name}'s hand (it holds {held})", loc)
            top = next(iter(s.hand_known))
            s.hand_known[top] -= 1
            s.hand_known = +s.hand_known
        s.hand -= 1

    def _to_junk(self, s: Side, c: Card | None) -> None:
        if c is None:
            s.junk_unknown += 1
        else:
            s.junk[c.id] += 1

    def _draw(self, s: Side, n: int, named: list[Card], ev: Event, rule: str) -> int:
        """``s`` draws ``n`` cards (``named`` among them); returns how many were drawn."""
        if n > s.deck_left:
            self.ref.violation(rule, f"{s.name} draws {n}, but the Main Deck holds {s.deck_left}", ev.loc)
            n = s.deck_left
        for c in named[:n]:
            self._reveal(s, c, ev, ev.at("cards"), rule)
            s.hand_known[c.id] += 1
        s.deck_left -= n
        s.hand += n
        return n

    def _named(self, ev: Event, fname: str = "cards") -> list[Card]:
        raw = ev.get(fname) or []
        return [self._card(x, ev, fname) for x in raw]

    def _deck_out(self, s: Side, ev: Event) -> None:
        if s.deck_left > 0 or self.over or s.out_at is not None:
            return
        self.outs += 1
        s.out_at = self.outs
        o = self._other(s)
        if s.kos != o.kos:
            win = s if s.kos > o.kos else o
            self._end(win.name, "deck_out", ev, f"{s.name}'s Main Deck runs out: {win.name} has more K.O.s "
                      f"({win.kos} to {self._other(win).kos})")
        elif self.deck_tie == "draw":
            self._end("draw", "deck_out", ev, f"{s.name}'s Main Deck runs out with K.O.s level: a draw")
        else:
            self._end(o.name, "deck_out", ev, f"{s.name}'s Main Deck runs out first with K.O.s level "
                      f"({s.kos} each): {s.name} loses")

    def _end(self, winner: str, how: str, ev: Event | None, text: str) -> None:
        self.over = True
        self.winner = winner
        self.ended_by = how
        self.end_rule = "BDB-END-3" if how == "deck_out" else "BDB-END-2"
        self._t(ev, f"GAME OVER: {text}")
        self._state("at the end")

    # -- setup --------------------------------------------------------------------------------

    def _setup_only(self, ev: Event, rule: str, what: str) -> bool:
        if self.phase is not None:
            self.ref.violation(rule, f"{what} belongs to the setup, before turn 1", ev.loc)
            return False
        return True

    def on_initiative_roll(self, ev: Event) -> None:
        if self.rolled or self.phase is not None:
            self.ref.violation("BDB-SETUP-1", "the Initiative is rolled once, before the game starts", ev.loc)
            if self.phase is not None:
                return
        self.rolled = True
        roll = ev["roll"]
        if not self.ref.die(roll, self.die_sides, "BDB-SETUP-1", ev.at("roll"), "the Initiative roll"):
            self.initiative = 0
            return
        parity = "even" if roll % 2 == 0 else "odd"
        who = self.init_map.get(parity, "A")
        self.initiative = 0 if who.upper() == "A" else 1
        holder = self.sides[self.initiative]
        if ev["holder"] is not None:
            stated = self._side(ev["holder"], ev, "holder")
            if stated is not holder:
                self.ref.violation("BDB-SETUP-1", f"the Initiative roll is {roll} ({parity}): player {who}, "
                                   f"{holder.name}, takes the Initiative token, not {stated.name}", ev.at("holder"))
                self.initiative = stated.index
                holder = stated
        self._t(ev, f"Initiative roll {roll} ({parity}): {holder.name} takes the Initiative token")

    def _claim_hand(self, s: Side, ev: Event, rule: str) -> None:
        """Stated hand and deck sizes are checked; the game goes on with them."""
        self.ref.claim(rule, f"{s.name}'s hand", ev["hand"], s.hand, ev.at("hand"))
        self.ref.claim(rule, f"{s.name}'s Main Deck", ev["deck_left"], s.deck_left, ev.at("deck_left"))
        if ev["hand"] is not None and ev["hand"] >= 0:
            s.hand = ev["hand"]
            while sum(s.hand_known.values()) > s.hand:
                s.hand_known[next(iter(s.hand_known))] -= 1
                s.hand_known = +s.hand_known
        if ev["deck_left"] is not None and ev["deck_left"] >= 0:
            s.deck_left = ev["deck_left"]

    def on_draw(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        named = self._named(ev)
        count = ev["count"]
        if count is not None and count < len(named):
            raise LogError("LOG-FIELD", f"'count' is {count}, but 'cards' names {len(named)}", ev.at("count"))
        if self.phase is None:
            rule = "BDB-SETUP-2"
            if s.drew:
                self.ref.violation(rule, f"{s.name} already drew a hand: another one is a new_hand (which puts "
                                   "the old one back)", ev.loc)
            n = count if count is not None else len(named) if named else self.hand_size
            if n != self.hand_size:
                self.ref.violation(rule, f"each player draws {self.hand_size} to start; {s.name} draws {n}",
                                   ev.at("count"))
            s.drew = True
            s.hand_sizes.append(n)
        elif self.phase == "end" and ev["source"] is None:
            rule = "BDB-END-1"
            owed = self.owed.get(s.index, 0)
            n = count if count is not None else len(named) if named else owed
            if n != owed:
                why = (f"more than {self.draw_up} in hand: none" if s.hand > self.draw_up else
                       f"to fill the hand to {self.draw_up}" if owed == self.draw_up - s.hand else
                       "all the Main Deck holds")
                self.ref.violation(rule, f"{s.name} holds {s.hand} card(s) at the End phase and draws {owed} ({why}), "
                                   f"not {n}", ev.at("count") if count is not None else ev.at("cards"))
            self._phase_order(s, ev, "draws")
            self.owed[s.index] = 0
        else:
            rule = "BDB-END-1"
            if ev["source"] is None:
                self.ref.violation(rule, f"{s.name} draws in the {self._pn(self.phase)} phase: cards are "
                                   "drawn in the End phase, or by a card's effect (name it in 'source')", ev.loc)
            else:
                self._source(ev, s, rule)
            if count is None and not named:
                raise LogError("LOG-FIELD", "a draw by a card's effect needs 'count' or 'cards'", ev.loc)
            n = len(named) if count is None else count
        got = self._draw(s, n, named, ev, rule)
        self._claim_hand(s, ev, rule)
        shown = f": {', '.join(c.name for c in named)}" + (f" and {got - len(named)} unseen" if got > len(named) else "") \
            if named else ""
        self._t(ev, f"{s.name} draws {got}{shown}; hand {s.hand}, deck {s.deck_left}")
        self._deck_out(s, ev)

    def on_new_hand(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-SETUP-2"
        if not self._setup_only(ev, rule, "a new hand"):
            return
        if not s.drew:
            self.ref.violation(rule, f"{s.name} takes a new hand before drawing one", ev.loc)
        if s.comp_done:
            self.ref.violation(rule, f"{s.name} takes a new hand after setting the Comp Cards aside", ev.loc)
        named = self._named(ev)
        nodino = bool(ev["no_dinosaur"])
        if nodino and s.hand_unknown == 0 and s.hand:
            dinos = [self.cards[k].name for k in s.hand_known.elements() if self.cards[k].type == "dinosaur"]
            if dinos:
                self.ref.violation(rule, f"{s.name}'s hand holds {', '.join(dinos)}: the new hand is not free of "
                                   "the penalty", ev.at("no_dinosaur"))
                nodino = False
        free = nodino and self.nodino_free
        counted = s.new_hands + (0 if free and not self.nodino_counts else 1)
        if free:
            size = s.hand_sizes[-1] if s.hand_sizes else self.hand_size
        else:
            size = max(self.min_hand, self.hand_size - self.penalty * max(0, counted - self.free_new))
        s.new_hands = counted
        n = size if ev["count"] is None else ev["count"]
        if n != size:
            why = "no Dinosaur: no penalty" if free else f"new hand number {counted}"
            self.ref.violation(rule, f"{s.name}'s new hand has {size} card(s) ({why}), not {n}", ev.at("count"))
        # the old hand goes back into the deck
        s.deck_left += s.hand
        s.seen -= s.hand_known
        s.hand, s.hand_known = 0, Counter()
        s.hand_sizes.append(n)
        if len(named) > n:
            raise LogError("LOG-FIELD", f"'cards' names {len(named)}, more than the {n} of the new hand", ev.at("cards"))
        self._draw(s, n, named, ev, rule)
        self._claim_hand(s, ev, rule)
        self._t(ev, f"{s.name} takes a new hand of {n}" + (" (no Dinosaur: no penalty)" if free else ""))
        self._deck_out(s, ev)

    def on_comp_cards(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-SETUP-3"
        if not self._setup_only(ev, rule, "setting Comp Cards aside"):
            return
        if s.comp_done:
            self.ref.violation(rule, f"{s.name} already set the Comp Cards aside", ev.loc)
            return
        if not s.drew:
            self.ref.violation(rule, f"{s.name} sets the Comp Cards aside before drawing a hand", ev.loc)
        n = self.comp_n if ev["count"] is None else ev["count"]
        if n != self.comp_n:
            self.ref.violation(rule, f"each player sets {self.comp_n} Comp Cards aside, not {n}", ev.at("count"))
        n = min(n, s.deck_left)
        s.deck_left -= n
        s.comp = n
        s.comp_done = True
        self._t(ev, f"{s.name} sets {n} Comp Cards aside; deck {s.deck_left}")
        self._deck_out(s, ev)

    def _new_dino(self, s: Side, c: Card) -> Dino:
        s.made[c.id] += 1
        k = s.made[c.id]
        return Dino(c, c.id if k == 1 else f"{c.id}#{k}", s.name, int(c.get("hp") or 0))

    def on_place(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-SETUP-4"
        if not self._setup_only(ev, rule, "placing Dinosaurs"):
            return
        if s.placed:
            self.ref.violation(rule, f"{s.name} already placed the Dinosaurs (add more with 'bench' in a Main "
                               "phase)", ev.loc)
            return
        if not s.comp_done:
            self.ref.violation("BDB-SETUP-3", f"{s.name} places Dinosaurs before setting the Comp Cards aside",
                               ev.loc)
        active = self._card(ev["active"], ev, "active", ("dinosaur",))
        bench_raw = ev["bench"] or []
        bench = [self._card(x, ev, "bench", ("dinosaur",)) for x in bench_raw]
        if len(bench) > self.bench_max:
            self.ref.violation(rule, f"{s.name} benches {len(bench)} Dinosaurs; the bench holds {self.bench_max}",
                               ev.at("bench"))
        for c, fname in [(active, "active")] + [(c, "bench") for c in bench]:
            self._from_hand(s, c, ev, ev.at(fname), rule)
        s.active = self._new_dino(s, active)
        s.bench = [self._new_dino(s, c) for c in bench]
        s.placed = True
        self._t(ev, f"{s.name} places {s.active.name} (active)"
                + (f" and benches {', '.join(d.name for d in s.bench)}" if s.bench else ""))
        if all(x.placed for x in self.sides):
            self._t(None, "all Dinosaurs are revealed")

    # -- phases -------------------------------------------------------------------------------

    def on_phase(self, ev: Event) -> None:
        new = ev["phase"]
        if self.phase is None:
            if new != "startup":
                self.ref.violation("BDB-TURN-1", f"turn 1 begins with the Startup phase, not {self._pn(new)}",
                                   ev.at("phase"))
            self._check_setup(ev)
            self._enter_turn(ev)
            for p in self.phases[1: self.phases.index(new) + 1]:
                self._enter(p, ev)
            return
        cur = self.phases.index(self.phase)
        ni = self.phases.index(new)
        if new == "startup":
            for p in self.phases[cur:]:
                if p != self.phase:
                    self._enter(p, ev, skipped=True)
                self._leave(p, ev)
            self._enter_turn(ev)
            return
        if ni <= cur:
            self.ref.violation("BDB-TURN-1", f"{self._pn(new)} cannot follow {self._pn(self.phase)}: the phases go "
                               + " → ".join(self._pn(p) for p in self.phases), ev.at("phase"))
            if ni == cur:
                return
            self._leave(self.phase, ev)
            self._enter(new, ev)
            return
        for p in self.phases[cur: ni]:
            if p != self.phase:
                self._enter(p, ev, skipped=True)
            self._leave(p, ev)
        self._enter(new, ev)

    @staticmethod
    def _pn(p: str) -> str:
        return {"startup": "Startup", "precombat_main": "Precombat Main", "combat": "Combat",
                "postcombat_main": "Postcombat Main", "end": "End"}.get(p, p)

    def _check_setup(self, ev: Event) -> None:
        if not self.rolled:
            self.ref.violation("BDB-SETUP-1", "the game starts without the Initiative roll", ev.loc)
            self.initiative = 0
            self.rolled = True
        for s in self.sides:
            if not s.drew:
                self.ref.violation("BDB-SETUP-2", f"{s.name} never drew a hand", ev.loc)
            if not s.comp_done:
                self.ref.violation("BDB-SETUP-3", f"{s.name} never set the Comp Cards aside", ev.loc)
            if not s.placed:
                self.ref.violation("BDB-SETUP-4", f"{s.name} never placed an active Dinosaur", ev.loc)

    def _enter_turn(self, ev: Event) -> None:
        self.turn += 1
        self.phase = "startup"
        self.played = []
        if self.turn >= self.pass_from and self.initiative is not None:
            self.initiative = 1 - self.initiative
        holder = self.sides[self.initiative or 0]
        if ev["turn"] is not None:
            self.ref.claim("BDB-TURN-1", "the turn number", ev["turn"], self.turn, ev.at("turn"))
        if ev["initiative"] is not None:
            stated = self._side(ev["initiative"], ev, "initiative")
            if stated is not holder:
                why = ("it passes to the other player at every Startup" if self.turn >= self.pass_from
                       else "it does not pass on turn 1")
                self.ref.violation("BDB-TURN-2", f"{holder.name} holds the Initiative token on turn {self.turn}, not "
                                   f"{stated.name} ({why})", ev.at("initiative"))
                self.initiative = stated.index
        self.ref.trace(f"── turn {self.turn} · Initiative {self.sides[self.initiative or 0].name} " + "─" * 30)
        self._startup_damage(ev)
        self._claim_hp(ev, "BDB-ABIL-2")

    def _startup_damage(self, ev: Event) -> None:
        for s in self._order():
            for d in s.in_play:
                loss, parts = 0, []
                if d.poison_turns > 0:
                    loss += self.poison_hp
                    d.poison_turns -= 1
                    parts.append(f"poison {self.poison_hp}")
                if d.wound_tokens > 0:
                    w = self.wound_hp * d.wound_tokens
                    loss += w
                    parts.append(f"{d.wound_tokens} Wound token(s) {w}")
                if loss:
                    d.hp -= loss
                    self._t(ev, f"Startup: {s.name}'s {d.name} loses {loss} HP ({', '.join(parts)}): {d.hp}")
                    self._mark_ko(d, ev)

    def _order(self) -> list[Side]:
        i = self.initiative or 0
        return [self.sides[i], self.sides[1 - i]]

    def _enter(self, p: str, ev: Event, skipped: bool = False) -> None:
        self.phase = p
        self.acted = set()
        if p == "combat" and not skipped:
            self._start_combat(ev)
        elif p == "end":
            self.owed = {s.index: min(s.deck_left, max(0, self.draw_up - s.hand)) for s in self.sides}
        if not skipped and p != "combat":
            self._t(ev, f"{self._pn(p)} phase")

    def _leave(self, p: str, ev: Event) -> None:
        if p == "combat" and self.cmb is not None:
            c = self.cmb
            if c.attack is not None:
                att = c.attack
                self.ref.violation("BDB-CMB-2", f"{att['side'].name}'s attack (line {att['ev'].loc.line}) is never "
                                   "answered: record a counterattack, evade, defend or no_answer", ev.loc)
                self._resolve(None, "no_answer", None)
                self._settle_kos(ev, recorded=False)
            stated = ev["combat_end"] if ev.kind == "phase" else None
            empty = all(sum(s.combat_deck.values()) == 0 for s in self.sides)
            if stated == "decks_empty" and not empty:
                left = ", ".join(f"{s.name} {sum(s.combat_deck.values())}" for s in self.sides)
                self.ref.violation("BDB-CMB-6", f"the Combat Decks are not empty ({left} card(s)): the Combat phase "
                                   "ends here because both players agree", ev.at("combat_end"))
            for s in self.sides:
                for d in s.in_play:
                    d.paralyzed = False
                    d.evade_bonus = 0
            self._t(ev, "Combat phase ends" + (" (both Combat Decks empty)" if empty else " (both players agree)"))
            self.cmb = None
        elif p == "end":
            for s in self._order():
                owed = self.owed.get(s.index, 0)
                if owed and not self.over:
                    self.ref.violation("BDB-END-1", f"{s.name} holds {s.hand} card(s) at the End phase and draws "
                                       f"{owed} to fill the hand to {self.draw_up}; the log records no draw "
                                       "(the checker draws them)", ev.loc)
                    got = self._draw(s, owed, [], ev, "BDB-END-1")
                    self._t(ev, f"{s.name} draws {got} (not in the log); hand {s.hand}, deck {s.deck_left}")
                    self._deck_out(s, ev)
            self.owed = {}
            if not self.over:
                self._state(f"after turn {self.turn}")

    def _phase_order(self, s: Side, ev: Event, what: str) -> None:
        """TURN-1: within a Main or End phase, the Initiative holder acts first."""
        holder = self.initiative or 0
        if s.index == holder and (1 - holder) in self.acted:
            other = self.sides[1 - holder].name
            self.ref.violation("BDB-TURN-1", f"{s.name} holds the Initiative token and acts first in the "
                               f"{self._pn(self.phase)} phase; {other} has already begun, so {s.name} no longer "
                               f"{what}", ev.loc)
        self.acted.add(s.index)

    def _main(self, s: Side, ev: Event, what: str, rule: str = "BDB-MAIN-1") -> bool:
        if self.phase not in MAIN_PHASES:
            when = "during setup" if self.phase is None else f"in the {self._pn(self.phase)} phase"
            self.ref.violation(rule, f"{s.name} {what} {when}: that is done in a Main phase only", ev.loc)
            return False
        self._phase_order(s, ev, what)
        return True

    # -- main-phase plays ---------------------------------------------------------------------

    def on_bench(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["dino"], ev, "dino", ("dinosaur",))
        self._main(s, ev, "benches a Dinosaur")
        if len(s.bench) >= self.bench_max:
            self.ref.violation("BDB-MAIN-1", f"{s.name}'s bench is full: it holds {self.bench_max} Dinosaurs",
                               ev.at("dino"))
        self._from_hand(s, c, ev, ev.at("dino"), "BDB-MAIN-1")
        d = self._new_dino(s, c)
        if s.active is None:
            s.active = d
            self._t(ev, f"{s.name} puts {d.name} in play as the active Dinosaur (none was active)")
        else:
            s.bench.append(d)
            self._t(ev, f"{s.name} benches {d.name}")

    def on_upgrade(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("upgrade",))
        d = self._dino(s, ev["dino"], ev, "dino")
        self._main(s, ev, "plays an Upgrade")
        if d is s.active:
            self.ref.violation("BDB-MAIN-2", f"{d.name} is {s.name}'s active Dinosaur: Upgrades attach to benched "
                               "Dinosaurs only", ev.at("dino"))
        same = sum(1 for u in d.upgrades if u.name == c.name)
        if same >= self.upgrade_max:
            self.ref.violation("BDB-MAIN-2", f"{d.name} already carries {same} {c.name}: at most {self.upgrade_max} "
                               "Upgrade of the same name", ev.at("card"))
        self._from_hand(s, c, ev, ev.at("card"), "BDB-MAIN-1")
        d.upgrades.append(c)
        if c.get("hp"):
            d.hp += int(c.get("hp"))
        self._t(ev, f"{s.name} attaches {c.name} to {d.brief()}")

    def on_item(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("item",)) if ev["card"] is not None else None
        self._main(s, ev, "places an Item")
        if s.items >= self.item_max:
            self.ref.violation("BDB-MAIN-3", f"{s.name}'s Item Zone is full: it holds {self.item_max} Items",
                               ev.at("card"))
        self._from_hand(s, c, ev, ev.at("card"), "BDB-MAIN-1")
        if c is None:
            s.items_unknown += 1
        else:
            s.items_known[c.id] += 1
        self._t(ev, f"{s.name} places {'an Item' if c is None else c.name} face down in the Item Zone "
                f"({s.items} of {self.item_max})")

    def on_use_item(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("item",))
        rule = "BDB-MAIN-3"
        if s.items_known[c.id] > 0:
            if not c.get("permanent"):
                s.items_known[c.id] -= 1
                s.items_known = +s.items_known
        elif s.items_unknown > 0:
            self._reveal(s, c, ev, ev.at("card"), rule)
            s.items_unknown -= 1
            if c.get("permanent"):
                s.items_known[c.id] += 1
        else:
            self.ref.violation(rule, f"{s.name}'s Item Zone holds no {c.name} (Items are used from the Item Zone)",
                               ev.at("card"))
        if not c.get("permanent"):
            self._to_junk(s, c)
        self.played.append((s.index, c.id))
        self._t(ev, f"{s.name} uses {c.name}" + (" (Permanent: it stays)" if c.get("permanent") else " (junked)"))

    def on_action(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("action",))
        rule = "BDB-ACT-1"
        if self.phase is None:
            self.ref.violation(rule, f"{s.name} plays {c.name} during setup: Actions are played during a turn",
                               ev.loc)
        self._from_hand(s, c, ev, ev.at("card"), rule)
        self._to_junk(s, c)
        self.played.append((s.index, c.id))
        self._t(ev, f"{s.name} plays {c.name} (junked)")

    def on_combat_to_deck(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        cards = [self._card(x, ev, "cards", ("combat",)) for x in ev["cards"]]
        self._main(s, ev, "adds Combat cards to the Combat Deck")
        for c in cards:
            self._from_hand(s, c, ev, ev.at("cards"), "BDB-MAIN-1")
            sub = str(c.get("subtype"))
            s.combat_deck[sub] += 1
        self._t(ev, f"{s.name} adds {', '.join(c.name for c in cards)} to the Combat Deck: "
                + " ".join(f"{m} {s.combat_deck[m]}" for m in self.moves))

    def on_retreat(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-MAIN-1"
        to = self._dino(s, ev["to"], ev, "to")
        src = self._source(ev, s, rule) if ev["source"] is not None else None
        if src is None:
            if self.phase == "combat":
                self.ref.violation(rule, f"{s.name} switches the active Dinosaur during combat: that is done in a "
                                   "Main phase (or by a card's effect: name it in 'source')", ev.loc)
            else:
                self._main(s, ev, "switches the active Dinosaur")
        old = s.active
        if to is old:
            self.ref.violation(rule, f"{to.name} is already {s.name}'s active Dinosaur", ev.at("to"))
            return
        cost = int(old.card.get("retreat_cost") or 0) if old is not None and src is None else 0
        discard = [self._card(x, ev, "discard") for x in ev["discard"] or []]
        paid = ev["paid"] if ev["paid"] is not None else (len(discard) if ev["discard"] is not None else cost)
        if paid < len(discard):
            raise LogError("LOG-FIELD", f"'paid' is {paid}, but 'discard' names {len(discard)}", ev.at("paid"))
        if paid != cost:
            why = f"{old.name}'s Retreat Cost is {cost}" if src is None else f"{src} makes the switch free"
            self.ref.violation(rule, f"{s.name} discards {paid} card(s) to switch; {why}",
                               ev.at("discard") if ev["discard"] is not None else ev.at("paid"))
        for c in discard:
            self._from_hand(s, c, ev, ev.at("discard"), rule)
            self._to_junk(s, c)
        for _ in range(paid - len(discard)):
            self._from_hand(s, None, ev, ev.loc, rule)
            self._to_junk(s, None)
        s.bench.remove(to)
        if old is not None:
            s.bench.append(old)
        s.active = to
        self._t(ev, f"{s.name} switches: {to.name} becomes active" + (f", {old.name} goes to the bench" if old else "")
                + (f" (discards {paid})" if paid else "") + (f" ({src})" if src else ""))

    def on_discard(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        named = self._named(ev)
        n = ev["count"] if ev["count"] is not None else len(named)
        if n < len(named):
            raise LogError("LOG-FIELD", f"'count' is {n}, but 'cards' names {len(named)}", ev.at("count"))
        src = self._source(ev, s, None)
        rule = self._source_rule(src)
        for c in named:
            self._from_hand(s, c, ev, ev.at("cards"), rule)
            self._to_junk(s, c)
        for _ in range(n - len(named)):
            self._from_hand(s, None, ev, ev.loc, rule)
            self._to_junk(s, None)
        self._t(ev, f"{s.name} discards {n} card(s)" + (f" ({', '.join(c.name for c in named)})" if named else "")
                + f" by {src}; hand {s.hand}")

    # -- card effects stated by the log -------------------------------------------------------

    def _source(self, ev: Event, s: Side, rule: str | None) -> str:
        """The card named in 'source' must be in use: played or used this turn, or in play. Returns its name."""
        raw = ev["source"]
        low = str(raw).strip().lower()
        if low in self.specials and low not in {c.id for c in self.game.cards}:
            card, sp = self.specials[low]
            ok = any(d.card.id == card.id for x in self.sides for d in x.in_play)
            rule = rule or "BDB-CMB-2"
            if not ok:
                self.ref.violation(rule, f"'source' is {sp['name']}, but no {card.name} is in play", ev.at("source"))
            self._src_type = "special"
            self._src_owner = None
            return str(sp["name"])
        c = self._card(raw, ev, "source")
        self._src_type = c.type
        owners = [i for i, cid in self.played if cid == c.id]
        self._src_owner = owners[-1] if owners else None
        rule = rule or self._source_rule(c.type)
        if c.type in ("action", "item"):
            perm = c.type == "item" and c.get("permanent") and any(x.items_known[c.id] for x in self.sides)
            if perm:
                self._src_owner = next(x.index for x in self.sides if x.items_known[c.id])
            if not owners and not perm:
                self.ref.violation(rule, f"'source' is {c.name}, which nobody has "
                                   f"{'played' if c.type == 'action' else 'used'} this turn", ev.at("source"))
        elif c.type in ("dinosaur", "upgrade"):
            holders = [x.index for x in self.sides for d in x.in_play
                       if d.card.id == c.id or any(u.id == c.id for u in d.upgrades)]
            if not holders:
                self.ref.violation(rule, f"'source' is {c.name}, which is not in play", ev.at("source"))
            else:
                self._src_owner = holders[0] if s.index not in holders else s.index
        else:
            self.ref.violation(rule, f"'source' is {c.name}, a {c.type} card: its text has no effect to apply",
                               ev.at("source"))
        return c.name

    @staticmethod
    def _source_rule(kind: str | None) -> str:
        return {"action": "BDB-ACT-1", "item": "BDB-MAIN-3", "upgrade": "BDB-MAIN-2", "dinosaur": "BDB-CMB-2",
                "special": "BDB-CMB-2"}.get(kind or "", "BDB-ACT-1")

    def on_effect(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        self._src_type = None
        src = self._source(ev, s, None)
        rule = self._source_rule(self._src_type)
        d = self._dino(s, ev["dino"], ev, "dino") if ev["dino"] is not None else s.active
        by_opponent = self._src_owner is not None and self._src_owner != s.index
        parts = []
        if d is not None:
            if by_opponent and d.flag("camouflaged") and any(ev[k] is not None for k in (
                    "dino", "heal", "damage", "set_hp", "wound_tokens", "poisoned", "paralyzed", "destroy_upgrade")):
                self.ref.violation("BDB-ABIL-3", f"{d.name} is Camouflaged: the opponent's {src} cannot target it",
                                   ev.at("dino") if ev["dino"] is not None else ev.at("source"))
            if ev["destroy_upgrade"] is not None:
                u = self._card(ev["destroy_upgrade"], ev, "destroy_upgrade", ("upgrade",))
                hit = next((x for x in d.upgrades if x.id == u.id), None)
                if hit is None:
                    self.ref.violation(rule, f"{d.name} carries no {u.name}", ev.at("destroy_upgrade"))
                else:
                    d.upgrades.remove(hit)
                    s.junk[hit.id] += 1
                    d.hp = min(d.hp, d.max_hp)
                    parts.append(f"{u.name} destroyed")
            if ev["heal"]:
                before = d.hp
                d.hp += ev["heal"]
                if not self.heal_above:
                    d.hp = min(d.hp, max(before, d.max_hp))
                parts.append(f"regains {d.hp - before} HP")
            if ev["damage"]:
                d.hp -= ev["damage"]
                parts.append(f"loses {ev['damage']} HP")
            if ev["set_hp"] is not None:
                d.hp = ev["set_hp"]
                parts.append(f"HP set to {d.hp}")
            if ev["cure"]:
                d.poison_turns = d.wound_tokens = 0
                parts.append("cured of poison and wounds")
            if ev["wound_tokens"]:
                d.wound_tokens = max(0, d.wound_tokens + ev["wound_tokens"])
                parts.append(f"Wound tokens {d.wound_tokens}")
            if ev["poisoned"] is not None:
                d.poison_turns = ev["poisoned"]
                parts.append(f"poisoned {d.poison_turns}" if d.poison_turns else "no longer poisoned")
            if ev["paralyzed"] is not None:
                d.paralyzed = bool(ev["paralyzed"]) and self.phase == "combat"
                parts.append("paralyzed" if d.paralyzed else "no longer paralyzed")
            if d.ko_at is not None and d.hp > 0:
                d.ko_at = None
                kept = d.statuses()
                parts.append("no longer knocked out" + (f" ({', '.join(kept)})" if kept else ""))
            else:
                self._mark_ko(d, ev)
        for x in ev["from_junk"] or []:
            c = self._card(x, ev, "from_junk")
            if s.junk[c.id] > 0:
                s.junk[c.id] -= 1
                s.junk = +s.junk
            elif s.junk_unknown > 0:
                s.junk_unknown -= 1
            else:
                self.ref.violation(rule, f"{s.name}'s Junk holds no {c.name}", ev.at("from_junk"))
            s.hand += 1
            s.hand_known[c.id] += 1
            parts.append(f"{c.name} from the Junk into hand")
        for x in ev["combat_deck_junk"] or []:
            c = self._card(x, ev, "combat_deck_junk", ("combat",))
            sub = str(c.get("subtype"))
            if s.combat_deck[sub] <= 0:
                self.ref.violation(rule, f"{s.name}'s Combat Deck holds no {c.name} card", ev.at("combat_deck_junk"))
            else:
                s.combat_deck[sub] -= 1
                s.junk[c.id] += 1
            parts.append(f"{c.name} from the Combat Deck to the Junk")
        self._claim_hp(ev, rule)
        what = d.name if d is not None else s.name
        self._t(ev, f"{src}: {s.name}'s {what} " + ("; ".join(parts) or "(no change)")
                + (f" → {d.hp}/{d.max_hp}" if d is not None else ""))

    # -- HP claims ---------------------------------------------------------------------------

    def _set_hp(self, d: Dino, hp: int, ev: Event) -> None:
        """The game goes on with the HP the log states (after reporting the difference)."""
        d.hp = hp
        if hp > 0:
            d.ko_at = None
        else:
            self._mark_ko(d, ev)

    def _claim_hp(self, ev: Event, rule: str, spikes: dict | None = None, hint: str | None = None) -> None:
        """HP stated by the log; one off by exactly the Spiked damage is a BDB-ABIL-3 slip."""
        spikes = spikes or {}

        def claim(d: Dino, hp: int) -> None:
            r = "BDB-ABIL-3" if spikes.get(d) and hp == d.hp + spikes[d] else rule
            extra = f" (the Spiked damage, {spikes[d]}, is left out)" if r != rule else ""
            if hp != d.hp:
                self.ref.violation(r, f"the log says {d.who} has {hp} HP, but the rules give {d.hp}{extra}",
                                   ev.at("hp"), hint if r == rule else None)
                self._set_hp(d, hp, ev)

        raw = ev.get("hp")
        if raw is None:
            return
        if not isinstance(raw, dict):
            raise LogError("LOG-FIELD", "'hp' must map players to HP", ev.at("hp"))
        for who, val in raw.items():
            s = self._side(who, ev, "hp", ev.at("hp"))
            if isinstance(val, dict):
                for ref, hp in val.items():
                    d = self._dino(s, ref, ev, "hp", ev.at("hp"))
                    claim(d, _typed(hp, Opt("int"), ev.at("hp"), f"the HP of {d.label}"))
            else:
                hp = _typed(val, Opt("int"), ev.at("hp"), f"the HP of {s.name}'s active Dinosaur")
                if s.active is None:
                    self.ref.violation(rule, f"{s.name} has no active Dinosaur", ev.at("hp"))
                else:
                    claim(s.active, hp)

    # -- combat ---------------------------------------------------------------------------------

    def _start_combat(self, ev: Event) -> None:
        a, b = self.sides
        ea = a.active.stat("eva") if a.active else -1
        eb = b.active.stat("eva") if b.active else -1
        first = 0 if ea > eb else 1 if eb > ea else (self.initiative or 0)
        self.cmb = Combat(first)
        self.cmb.over = all(sum(s.combat_deck.values()) == 0 for s in self.sides)
        why = f"EVA {max(ea, eb)} against {min(ea, eb)}" if ea != eb else f"EVA {ea} each: the Initiative holder"
        self._t(ev, f"Combat phase: {self.sides[first].name} has the first move ({why})"
                + (" — both Combat Decks are empty: nobody can move" if self.cmb.over else ""))

    def _in_combat(self, s: Side, ev: Event, what: str) -> Combat | None:
        if self.phase != "combat" or self.cmb is None:
            where = "during setup" if self.phase is None else f"in the {self._pn(self.phase)} phase"
            self.ref.violation("BDB-TURN-1", f"{s.name} {what} {where}: moves are made in the Combat phase", ev.loc)
            return None
        if self.cmb.over:
            self.ref.violation("BDB-CMB-6", f"{s.name} {what}, but both Combat Decks are empty: the Combat phase "
                               "is over", ev.loc)
            return None
        return self.cmb

    def on_first_move(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._in_combat(s, ev, "claims the first move")
        if c is None:
            return
        holder = self.sides[c.first]
        if s is not holder:
            a, b = self.sides
            ea = a.active.stat("eva") if a.active else 0
            eb = b.active.stat("eva") if b.active else 0
            why = (f"{a.name}'s {a.active.name if a.active else '—'} EVA {ea}, {b.name}'s "
                   f"{b.active.name if b.active else '—'} EVA {eb}" if c.exchange == 1 else "the first move alternates")
            if c.exchange == 1 and ea == eb:
                why += "; a tie goes to the Initiative holder"
            self.ref.violation("BDB-CMB-1", f"{holder.name} has the first move, not {s.name} ({why})", ev.at("player"))
            c.first = s.index

    def on_pass(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self.cmb
        if c is not None and c.attack is not None and self.phase == "combat":
            if s is c.attack["side"]:
                self.ref.violation("BDB-CMB-1", f"{s.name} attacked and waits for the answer: there is nothing to "
                                   "pass", ev.loc)
                return
            self._t(ev, f"{s.name} does not answer")
            self._resolve(ev, "no_answer", None)
            return
        c = self._in_combat(s, ev, "passes")
        if c is None:
            return
        first = self.sides[c.first]
        if not c.passed:
            if s is not first:
                self.ref.violation("BDB-CMB-1", f"{first.name} has the move: {s.name} cannot pass it", ev.at("player"))
                c.first = s.index
            c.passed = True
            self._t(ev, f"{s.name} passes the move to {self._other(s).name}")
        else:
            if s is first:
                self.ref.violation("BDB-CMB-1", f"{s.name} already passed the move to {self._other(s).name}",
                                   ev.at("player"))
                return
            self._t(ev, f"{s.name} passes too: the exchange ends")
            self._next_exchange(1 - c.first)

    def _next_exchange(self, first: int) -> None:
        c = self.cmb
        if c is None:
            return
        c.first, c.passed, c.attack = first, False, None
        c.exchange += 1
        if all(sum(s.combat_deck.values()) == 0 for s in self.sides):
            c.over = True
            self.ref.trace("      both Combat Decks are empty: the Combat phase is over (BDB-CMB-6)")

    def _pay(self, s: Side, cost: dict[str, int], ev: Event, what: str) -> None:
        """BDB-CMB-2: the move's Combat cards come from the player's Combat Deck."""
        stated = ev["cards"]
        if stated is not None:
            subs = Counter(str(self._card(x, ev, "cards", ("combat",)).get("subtype")) for x in stated)
            want = Counter({k: v for k, v in cost.items() if v})
            if subs != want:
                need = ", ".join(f"{v} {k.capitalize()}" for k, v in want.items())
                self.ref.violation("BDB-CMB-2", f"{what} costs {need}; the log pays "
                                   f"{', '.join(str(x) for x in stated) or 'nothing'}", ev.at("cards"))
        short = [f"{v - s.combat_deck[k]} {k.capitalize()}" for k, v in cost.items() if s.combat_deck[k] < v]
        if sum(s.combat_deck.values()) == 0:
            self.ref.violation("BDB-CMB-2", f"{s.name}'s Combat Deck is empty: {s.name} cannot move", ev.loc)
        elif short:
            self.ref.violation("BDB-CMB-2", f"{s.name}'s Combat Deck lacks {', '.join(short)} card(s) for {what} "
                               f"(it holds " + ", ".join(f"{s.combat_deck[m]} {m}" for m in self.moves) + ")", ev.loc)
        for k, v in cost.items():
            s.combat_deck[k] = max(0, s.combat_deck[k] - v)

    def _paralysis(self, s: Side, d: Dino | None, ev: Event) -> bool:
        """BDB-ABIL-1: a paralyzed Dinosaur's move needs a roll; returns False when the move fails."""
        roll = ev["paralyze_roll"]
        if d is None or not d.paralyzed:
            if roll is not None:
                self.ref.violation("BDB-ABIL-1", f"{d.name if d else s.name} is not paralyzed: it rolls no paralysis "
                                   "die", ev.at("paralyze_roll"))
            return True
        if roll is None:
            self.ref.violation("BDB-ABIL-1", f"{d.name} is paralyzed: each move needs a die roll first (odd fails)",
                               ev.loc)
            return True
        if not self.ref.die(roll, self.die_sides, "BDB-ABIL-1", ev.at("paralyze_roll"), "the paralysis roll"):
            return True
        fails = (roll % 2 == 1) == (self.para_fail == "odd")
        if fails:
            self._t(ev, f"{d.who} is paralyzed: rolls {roll}, the move fails")
            if ev["roll"] is not None:
                self.ref.violation("BDB-ABIL-1", f"{d.name} is paralyzed and its roll {roll} is {self.para_fail}: the "
                                   f"move fails (the log goes on as if it had been made)", ev.at("paralyze_roll"))
        return not fails

    def _cost(self, special: dict | None, kind: str) -> dict[str, int]:
        if special is not None:
            return {k: int(v) for k, v in (special.get("cost") or {}).items() if v}
        return {kind: 1}

    def on_attack(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._in_combat(s, ev, "attacks")
        if c is None:
            return
        o = self._other(s)
        first = self.sides[c.first]
        mover = first if not c.passed else o if first is s else s
        if s is not mover:
            if c.passed:
                msg = f"{first.name} passed the move: {self._other(first).name} may attack now, not {first.name}"
            else:
                msg = f"{first.name} has the move: {s.name} cannot attack"
            self.ref.violation("BDB-CMB-1", msg, ev.at("player"))
            c.first, c.passed = s.index, False
        d, t = s.active, o.active
        special = self._special(d, ev["special"], ev, "BDB-CMB-2") if ev["special"] is not None else None
        what = f"{special['name']}" if special else "an attack"
        if t is not None and self.camo_attacks and t.flag("camouflaged"):
            self.ref.violation("BDB-ABIL-3", f"{o.name}'s {t.name} is Camouflaged: it cannot be attacked",
                               ev.at("player"))
        ok = self._paralysis(s, d, ev)
        if ok or self.failed_spends:
            self._pay(s, self._cost(special, "attack"), ev, what)
        if not ok:
            if s.index == c.first and not c.passed:
                c.passed = True
            else:
                self._next_exchange(1 - c.first)
            return
        if ev["roll"] is None:
            raise LogError("LOG-FIELD", f"'attack' event lacks 'roll' (the d{self.die_sides} rolled)", ev.loc)
        bonus = int(ev["bonus"] or 0) + (d.evade_bonus if d else 0)
        eb = d.evade_bonus if d else 0
        if d is not None:
            d.evade_bonus = 0
        c.attack = {"side": s, "dino": d, "ev": ev, "roll": ev["roll"], "bonus": bonus, "evade_bonus": eb,
                    "special": special}
        self._t(ev, f"{s.name}'s {d.name if d else '—'} attacks" + (f" with {special['name']}" if special else "")
                + f": roll {ev['roll']}" + (f", bonus {bonus:+d}" if bonus else ""))

    def _answer(self, ev: Event, kind: str) -> None:
        s = self._side(ev["player"], ev, "player") if ev["player"] is not None else None
        rule = {"counterattack": "BDB-CMB-3", "evade": "BDB-CMB-4", "defend": "BDB-CMB-5",
                "no_answer": "BDB-CMB-2"}[kind]
        c = self.cmb
        if c is None or c.attack is None or self.phase != "combat":
            who = s or (self.sides[0] if self.sides else None)
            if self._in_combat(who, ev, f"answers ({kind.replace('_', ' ')})") is not None:
                self.ref.violation(rule, f"there is no attack to answer with {kind.replace('_', ' ')}: "
                                   f"{self.sides[c.first].name} has the move", ev.loc)
            return
        att = c.attack
        defender = self._other(att["side"])
        if s is None:
            s = defender
        if s is not defender:
            self.ref.violation(rule, f"{att['side'].name} attacked: {defender.name} answers, not {s.name}",
                               ev.at("player"))
            return
        if kind == "no_answer":
            self._t(ev, f"{s.name} does not answer")
            self._resolve(ev, kind, None)
            return
        d = s.active
        special = self._special(d, ev["special"], ev, "BDB-CMB-2") if ev.get("special") is not None else None
        move = {"counterattack": "attack", "evade": "evade", "defend": "defend"}[kind]
        bonus = int(ev["bonus"] or 0)
        if kind == "counterattack" and d is not None:
            bonus, d.evade_bonus = bonus + d.evade_bonus, 0
        ok = self._paralysis(s, d, ev)
        if ok or self.failed_spends:
            self._pay(s, self._cost(special, move), ev, special["name"] if special else f"a {kind}")
        if not ok:
            self._resolve(ev, "no_answer", None, failed=kind)
            return
        if ev["roll"] is None:
            raise LogError("LOG-FIELD", f"'{kind}' event lacks 'roll' (the d{self.die_sides} rolled)", ev.loc)
        self._resolve(ev, kind, {"side": s, "dino": d, "ev": ev, "roll": ev["roll"], "bonus": bonus,
                                 "special": special})

    def on_counterattack(self, ev: Event) -> None:
        self._answer(ev, "counterattack")

    def on_evade(self, ev: Event) -> None:
        self._answer(ev, "evade")

    def on_defend(self, ev: Event) -> None:
        self._answer(ev, "defend")

    def on_no_answer(self, ev: Event) -> None:
        self._answer(ev, "no_answer")

    def _total(self, mv: dict, stat: str, rule: str) -> int:
        ev, d = mv["ev"], mv["dino"]
        roll = mv["roll"]
        if not self.ref.die(roll, self.die_sides, rule, ev.at("roll"), f"the {stat.upper()} roll"):
            roll = 0 if isinstance(roll, bool) or not isinstance(roll, int) else roll
        total = roll + (d.stat(stat) if d else 0) + mv["bonus"]
        self.ref.claim(rule, f"the {stat.upper()} total", ev["total"], total, ev.at("total"))
        return total if ev["total"] is None else ev["total"]

    def _resolve(self, ev: Event | None, kind: str, ans: dict | None, failed: str | None = None) -> None:
        c = self.cmb
        att = c.attack if c is not None else None
        if c is None or att is None:
            return
        a_side, x = att["side"], att["dino"]
        d_side = self._other(a_side)
        y = d_side.active
        if x is not None and x not in a_side.in_play:
            x = a_side.active
        rule = {"counterattack": "BDB-CMB-3", "evade": "BDB-CMB-4", "defend": "BDB-CMB-5"}.get(kind, "BDB-CMB-2")
        a_total = self._total(att, "atk", rule)
        hits: list[tuple[Dino | None, Dino | None, int]] = []
        nxt = 1 - c.first
        negated = ev["negated_by"] if ev is not None and ev.kind in ANSWERS else None
        text = ""
        if negated is not None:
            name = self._source_named(ev, "negated_by", rule)
            text = f"{name}: the attack has no effect"
            if kind == "counterattack" and ans is not None:
                o_total = self._total(ans, "atk", rule)
                hits.append((y, x, o_total))
                text += f"; the counterattack ({o_total}) still hits"
        elif kind == "counterattack":
            o_total = self._total(ans, "atk", rule)
            hits += [(x, y, a_total), (y, x, o_total)]
            text = f"ATK {a_total} against counterattack {o_total}"
        elif kind == "evade":
            e_total = self._total(ans, "eva", rule)
            if e_total > a_total:
                bonus = e_total - a_total
                if y is not None:
                    y.evade_bonus = bonus
                nxt = d_side.index
                text = f"ATK {a_total} against EVA {e_total}: evaded; {d_side.name} takes the initiative, " \
                       f"+{bonus} on the next attack"
            else:
                hits.append((x, y, a_total))
                text = f"ATK {a_total} against EVA {e_total}: the evade fails"
        elif kind == "defend":
            d_total = self._total(ans, "def", rule)
            diff = a_total - d_total
            if diff > 0:
                hits.append((x, y, diff))
            elif diff < 0:
                hits.append((y, x, -diff))
            text = f"ATK {a_total} against DEF {d_total}: " + (
                "the defender loses the difference" if diff > 0 else "the attacker loses the difference" if diff < 0
                else "equal, nothing happens")
        else:
            if self.unanswered_hits:
                hits.append((x, y, a_total))
            text = (f"{failed} fails: " if failed else "unanswered: ") + f"ATK {a_total}"
        notes: list[str] = []
        spikes: dict[Dino, int] = {}
        hint = ("ruling: ATK total minus DEF total; a positive result is taken by the defender, a negative one by "
                "the attacker (the seed has the sign the other way round)") if kind == "defend" else None
        lost = self._hits(hits, notes, spikes)
        after = " · ".join(f"{dd.who} −{v} → {dd.hp}" for dd, v in lost.items()) or "no damage"
        self._t(ev or att["ev"], f"{text} ⇒ {after}")
        for note in notes:
            self.ref.trace(f"        {note}")
        if ev is not None:
            computed = {dd: dd.hp for dd in (x, y) if dd is not None}
            if ev.get("damage") is not None:
                for who, n in ev["damage"].items():
                    side = self._side(who, ev, "damage", ev.at("damage"))
                    got = sum(v for dd, v in lost.items() if dd.owner == side.name)
                    spk = sum(v for dd, v in spikes.items() if dd.owner == side.name)
                    r = "BDB-ABIL-3" if spk and n == got - spk else rule
                    extra = f" (the Spiked damage, {spk}, is left out)" if r != rule else ""
                    if n != got:
                        self.ref.violation(r, f"the log says {side.name}'s active Dinosaur loses {n!r} HP, but the "
                                           f"rules give {got}{extra}", ev.at("damage"), hint if r == rule else None)
                        own = [dd for dd in (x, y) if dd is not None and dd.owner == side.name]
                        if own and isinstance(n, int) and not isinstance(n, bool):
                            self._set_hp(own[0], own[0].hp + got - n, ev)
            self._claim_hp(ev, rule, spikes, hint)
            changed = [f"{dd.who} {dd.hp}" for dd, hp in computed.items() if dd.hp != hp]
            if changed:
                self.ref.trace(f"        the replay goes on with the log's HP: {', '.join(changed)}")
        for dd in list(lost):
            self._mark_ko(dd, ev or att["ev"])
        self._next_exchange(nxt)

    def _source_named(self, ev: Event, fname: str, rule: str) -> str:
        c = self._card(ev[fname], ev, fname, ("item", "action"))
        if not any(cid == c.id for _, cid in self.played):
            self.ref.violation(rule, f"{c.name} was not played this turn: it cannot cancel the attack", ev.at(fname))
        return c.name

    def _hits(self, hits: list, notes: list[str], spiked: dict) -> dict[Dino, int]:
        """Combat damage, dealt at once; then the dealers' abilities and the Spiked damage back."""
        lost: dict[Dino, int] = {}
        for _src, dst, n in hits:
            if dst is None or n <= 0:
                continue
            dst.hp -= n
            lost[dst] = lost.get(dst, 0) + n
        for src, dst, n in hits:
            if dst is None or src is None or n <= 0:
                continue
            self._afflict(src, dst, notes)
            spikes = dst.level("spiked")
            if spikes > 0:
                src.hp -= spikes
                lost[src] = lost.get(src, 0) + spikes
                spiked[src] = spiked.get(src, 0) + spikes
                notes.append(f"{dst.who} is Spiked {spikes}: {src.who} loses {spikes} → {src.hp}")
                if self.spike_triggers:
                    self._afflict(dst, src, notes)
        return lost

    def _afflict(self, src: Dino, dst: Dino, notes: list[str]) -> None:
        """The abilities of a Dinosaur that damaged another (BDB-ABIL-1, 2)."""
        # A Dinosaur this damage knocked out is not said to be paralyzed, poisoned or wounded: its statuses
        # end with the K.O. They are kept, unseen, for a log that heals it back before it records the K.O.
        says = notes.append if dst.hp > 0 else (lambda _: None)
        if src.flag("paralyze") and self.phase == "combat" and not dst.paralyzed:
            dst.paralyzed = True
            says(f"{dst.who} is paralyzed by {src.name} for the rest of the Combat phase")
        p = src.level("poisonous")
        if p > 0:
            dst.poison_turns = dst.poison_turns + p if self.poison_stacks else max(dst.poison_turns, p)
            says(f"{dst.who} is poisoned by {src.name} ({dst.poison_turns} turn(s))")
        w = src.level("wound")
        if w > 0:
            dst.wound_tokens += w
            says(f"{dst.who} gets {w} Wound token(s) from {src.name} ({dst.wound_tokens} in all)")

    # -- knock-outs and the end ------------------------------------------------------------------

    def _mark_ko(self, d: Dino, ev: Event | None) -> None:
        if d.hp <= 0 and d.ko_at is None and any(d in s.in_play for s in self.sides):
            d.ko_at = ev.loc if ev is not None else Loc("", 0, 0)
            self._t(ev, f"{d.who} falls to {d.hp} HP: knocked out")

    def on_knock_out(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        d = self._dino(s, ev["dino"], ev, "dino")
        rule = "BDB-KO-1"
        if d.hp > 0:
            self.ref.violation(rule, f"{d.name} has {d.hp} HP left: it is not knocked out", ev.at("dino"))
        n = ev["comp_cards"] or 0
        most = min(self.comp_per_ko, s.comp)
        if n > most:
            self.ref.violation(rule, f"{s.name} takes {n} Comp Cards; a K.O. gives at most {self.comp_per_ko}"
                               + (f" and {s.name} has {s.comp} left" if s.comp < self.comp_per_ko else ""),
                               ev.at("comp_cards"))
            n = most
        s.comp -= n
        s.hand += n
        self._knock_out(s, d, ev, ev["new_active"], ev.at("new_active"), took=n)
        self._settle_kos(ev, recorded=True)

    def _knock_out(self, s: Side, d: Dino, ev: Event | None, new_active: Any, loc: Loc | None, took: int) -> None:
        was_active = d is s.active
        if was_active:
            s.active = None
        elif d in s.bench:
            s.bench.remove(d)
        d.ko_at = None
        d.paralyzed, d.poison_turns, d.wound_tokens, d.evade_bonus = False, 0, 0, 0   # statuses end with the K.O.
        s.knocked_out.append(d.label)
        s.junk[d.card.id] += 1
        for u in d.upgrades:
            s.junk[u.id] += 1
        o = self._other(s)
        o.kos += 1
        text = f"{s.name}'s {d.name} is knocked out and junked: K.O. {o.kos} for {o.name}" + (
            f"; {s.name} takes {took} Comp Card(s)" if took else "")
        if was_active:
            text += self._replace_active(s, ev, new_active, loc)
        elif new_active is not None and ev is not None:
            self.ref.violation("BDB-KO-1", f"{d.name} was benched: no new active Dinosaur is chosen", loc)
        self._t(ev, text)

    def _replace_active(self, s: Side, ev: Event | None, new_active: Any, loc: Loc | None) -> str:
        rule = "BDB-KO-1"
        if new_active is not None and ev is not None:
            c_low = str(new_active).strip().lower()
            on_bench = [b for b in s.bench if c_low in (b.label.lower(), b.card.id.lower(), b.card.name.lower())]
            if on_bench:
                s.bench.remove(on_bench[0])
                s.active = on_bench[0]
                return f"; {s.active.name} becomes active"
            c = self._card(new_active, ev, "new_active", ("dinosaur",))
            if s.bench:
                self.ref.violation(rule, f"{c.name} is not on {s.name}'s bench: the new active Dinosaur comes from "
                                   f"the bench ({', '.join(b.label for b in s.bench)})", loc)
                s.active = s.bench.pop(0)
                return f"; {s.active.name} becomes active"
            self._from_hand(s, c, ev, loc, "BDB-END-2")
            s.active = self._new_dino(s, c)
            return f"; {s.active.name} comes from hand to be active"
        if s.bench:
            if ev is not None and ev.kind == "knock_out":
                self.ref.violation(rule, f"{s.name}'s active Dinosaur is knocked out: name the benched one that "
                                   f"replaces it in 'new_active' ({', '.join(b.label for b in s.bench)})",
                                   ev.loc)
            s.active = s.bench.pop(0)
            return f"; {s.active.name} becomes active"
        dinos = [self.cards[k].name for k in s.hand_known.elements() if self.cards[k].type == "dinosaur"]
        if dinos and ev is not None:
            self.ref.violation("BDB-END-2", f"{s.name} has no Dinosaur in play but holds {', '.join(dinos)}: it "
                               "must be played as the new active Dinosaur", loc or ev.loc)
        return ""

    def _settle_kos(self, ev: Event | None, recorded: bool) -> None:
        """Knock-outs the log did not record are applied; when none is pending, the game may end."""
        pending = [(s, d) for s in self._order() for d in s.in_play if d.ko_at is not None]
        if pending and not recorded:
            for s, d in pending:
                line = d.ko_at.line if d.ko_at else 0
                self.ref.violation("BDB-KO-1", f"{s.name}'s {d.name} fell to {d.hp} HP (line {line}) and is knocked "
                                   "out; the log records no knock_out", ev.loc if ev is not None else d.ko_at)
                self._knock_out(s, d, ev, None, None, took=0)
            pending = []
        if pending or self.over or self.phase is None:
            return
        won = [s for s in self.sides if s.kos >= self.kos_to_win]
        lost = [s for s in self.sides if not s.in_play]
        if len(won) == 2 or len(lost) == 2 or (won and lost and won[0] in lost):
            if self.simultaneous == "initiative":
                w = self.sides[self.initiative or 0]
                self._end(w.name, "kos" if won else "no_dinosaurs", ev, f"both players at once: the Initiative "
                          f"holder {w.name} wins")
            else:
                self._end("draw", "kos" if won else "no_dinosaurs", ev, "both players at once: a draw")
        elif won:
            self._end(won[0].name, "kos", ev, f"{won[0].name} has {won[0].kos} K.O.s and wins")
        elif lost:
            w = self._other(lost[0])
            self._end(w.name, "no_dinosaurs", ev, f"{lost[0].name} has no Dinosaur left and loses")

    def on_game_end(self, ev: Event) -> None:
        rule = "BDB-END-3" if (ev["reason"] == "deck_out" or self.ended_by == "deck_out") else "BDB-END-2"
        if not self.over:
            kos = ", ".join(f"{s.name} {s.kos}" for s in self.sides)
            self.ref.violation(rule, f"the game is not over: no player has {self.kos_to_win} K.O.s ({kos}), both "
                               "have Dinosaurs and both Main Decks hold cards", ev.loc)
            return
        if ev["winner"] is not None and str(ev["winner"]) != self.winner:
            if str(ev["winner"]).lower() != "draw":
                self._side(ev["winner"], ev, "winner")
            self.ref.violation(rule, f"the winner is {self.winner} ({self._why()}), not {ev['winner']}",
                               ev.at("winner"))
        if ev["reason"] is not None and ev["reason"] != self.ended_by:
            self.ref.violation(rule, f"the game ended by {self.ended_by}, not {ev['reason']}", ev.at("reason"))

"""Bone Wars — the playtest rules engine (``cardgen check bone_wars LOG``).

A state machine over ``rules/bone_wars/params.yaml`` and the Part cards of
``cards/bone_wars/``: hand size, starting HP, the die, draws per turn, edits per turn,
parts per monster, the Intimidating penalty and the tie rounding are all read from
there; a parameter the rules need and the YAML lacks is a ``LOG-GAME`` error naming it.

Rules enforced (catalogue ``specs/rules/bone_wars.md``): BW-SETUP-1…4, BW-TURN-1,
BW-CREATE-1…6, BW-ATK-1…10, BW-END-1, BW-END-2.

The log: a header (``players`` in clockwise order, ``turn_order_rolls``, optional
``deals`` and ``starting_hp``) and events. A turn is the events of one player: a
``draw`` (the card may be hidden), at most one ``create`` / ``add_part`` /
``replace_part``, then ``attack`` s, each answered by the defender's ``block`` (or
none) and the dice (``roll``) or ``take_damage``; ``end_turn`` is optional while the
center pile has cards (the next player's draw starts their turn). Consequences — damage,
HP left, a monster destroyed, a player eliminated — are computed; the log may state them
(``damage``, ``destroyed``, ``eliminated``, ``end_turn.hp``, ``stats``) and each stated
one is checked, then kept as recorded. See ``docs/playtest-logs.md``.

Programs (simulated playtests) use :meth:`Engine.legal_next` (event kinds) and
:meth:`Engine.legal_events` (event skeletons) on the live state.
"""

from __future__ import annotations

import math
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

HIDDEN = "?"           # a card left out of the log (hidden information)
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
TURN_KINDS = ("draw", "create", "add_part", "replace_part", "attack", "end_turn")
EDIT_RULE = {"create": "BW-CREATE-2", "add_part": "BW-CREATE-3", "replace_part": "BW-CREATE-4"}
COMBAT_KINDS = {        # combat stage → the events that continue it
    "block": ("block", "roll", "take_damage"),
    "roll": ("roll",),
    "choice": ("roll", "take_damage"),
    "declined": ("take_damage", "roll"),
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


@dataclass
class Hand:
    known: Counter = field(default_factory=Counter)
    hidden: int = 0
    dealt: bool = False

    @property
    def size(self) -> int:
        return sum(self.known.values()) + self.hidden


@dataclass
class Monster:
    name: str
    owner: str
    parts: list[Card]
    born: int                       # the turn it was created (BW-CREATE-6)
    loc: Loc
    damage: int = 0                 # damage counters (BW-ATK-7)
    replaced: int | None = None     # the turn of its last part replacement (BW-CREATE-6)
    attacked: int | None = None     # the turn it last attacked (BW-ATK-2)
    tapped: bool = False            # attacked since its controller's turn began (BW-ATK-5)
    gone: Loc | None = None         # where it was destroyed


@dataclass
class Combat:
    attacker: Monster
    defender: str
    loc: Loc
    able: list[Monster]             # the defender's monsters able to block it (BW-ATK-10)
    stage: str = "block"            # block → roll (blocked) | choice / declined (unblocked)
    blocker: Monster | None = None


@dataclass
class Outcome:
    """What the last attack (or edit) did, for the claims that follow it."""

    loc: Loc
    blocked: bool
    monster_dmg: dict = field(default_factory=dict)     # monster name → damage dealt
    player_dmg: dict = field(default_factory=dict)      # player → damage dealt
    player_rule: dict = field(default_factory=dict)     # player → the rule that computed it
    destroyed: list = field(default_factory=list)
    eliminated: list = field(default_factory=list)


# ---------------------------------------------------------------------------------------


class Engine(BaseEngine):
    """Replays a Bone Wars playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "BW-END-2", "hp": "BW-END-1", "eliminated": "BW-END-1", "players": "BW-END-1",
        "monsters": "BW-ATK-8", "damage": "BW-ATK-7", "parts": "BW-CREATE-5", "hand": "BW-TURN-1",
        "pile": "BW-TURN-1", "turns": "BW-TURN-1",
        "str": "BW-CREATE-5", "def": "BW-CREATE-5", "atk": "BW-CREATE-5", "traits": "BW-CREATE-5",
    }

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "BW-END-2"
        p, n = self._param, self._int
        self.n_min, self.n_max = n("players", "min"), n("players", "max")
        self.hand_size = n("hand_size")
        self.start_hp = n("starting_hp")
        self.die_sides = n("die")
        self.draw_per_turn = n("draw_per_turn")
        self.edits_per_turn = n("edits_per_turn")
        self.max_parts = n("max_parts")
        self.penalty = n("intimidating_str_penalty")
        self.tie_div = max(1, n("tie_damage", "divisor"))
        self.tie_round = self._choice(("down", "up"), "tie_damage", "rounding")
        self.tie_rule = self._choice(("reroll", "first_listed"), "turn_order_tie")
        self.replaced_to = self._choice(("discard", "hand"), "replaced_part_to")
        self.damage_stays = bool(p("damage_stays_on_replace"))
        self.trait_names = {str(k): str(v.get("name", k)) if isinstance(v, dict) else str(k)
                            for k, v in dict(p("traits")).items()}
        self.part_names = {str(k): str(v.get("name", k)) if isinstance(v, dict) else str(k)
                           for k, v in dict(p("part_types")).items()}
        self.stat_names = {str(k): str(v.get("name", k)) if isinstance(v, dict) else str(k)
                           for k, v in dict(p("stats")).items()}
        self.parts_pool = {c.id: c for c in game.cards if c.type == "part"}
        self.deck_total = sum(c.copies for c in self.parts_pool.values())
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        # players
        self.players: list[str] = []
        self.hp: dict[str, int] = {}
        self.hp_rule: dict[str, str] = {}
        self.out: dict[str, Loc | None] = {}
        self.out_order: list[str] = []
        self.lost_with: dict[str, list[Monster]] = {}
        self.hands: dict[str, Hand] = {}
        # cards
        self.pile = 0
        self.revealed: Counter = Counter()
        self.discard: list[str] = []
        self.monsters: dict[str, Monster] = {}
        self.graveyard: dict[str, Monster] = {}
        # turn
        self.turn = 1
        self.current: str | None = None
        self.prev: str | None = None
        self.rolled_first: str | None = None
        self.order_notes: list[str] = []
        self.first_roll: int | None = None
        self.begun = False
        self.phase = "draw"
        self.need = 0
        self.drawn = 0
        self.edits = 0
        self.combat: Combat | None = None
        self.last: Outcome | None = None
        self.winner: str | None = None
        self.end_loc: Loc | None = None

    # -- reading the rules and the log ------------------------------------------------------

    def _choice(self, choices: tuple[str, ...], *path: Any) -> str:
        v = str(self._param(*path))
        if v not in choices:
            raise LogError("LOG-GAME", f"'{'.'.join(map(str, path))}' in {self.params_file.name} is {v!r}; the "
                           f"playtest checker knows {' and '.join(choices)}", Loc(str(self.params_file), 1, 1))
        return v

    def _find_card(self, value: Any, loc: Loc | None, fname: str) -> Card:
        s = str(value).strip()
        c = self.game.cards_by_id.get(s)
        if c is None:
            low = s.lower()
            c = next((x for x in self.game.cards if x.name.lower() == low or x.id.lower() == low), None)
        if c is None:
            raise LogError("LOG-FIELD", f"'{fname}' names no card: {value!r}", loc,
                           did_you_mean(s, list(self.parts_pool)))
        return c

    def _find_player(self, value: Any, loc: Loc | None, fname: str) -> str:
        s = str(value).strip()
        if s in self.hp:
            return s
        p = next((q for q in self.players if q.lower() == s.lower()), None)
        if p is None:
            raise LogError("LOG-FIELD", f"'{fname}' names no player: {value!r}", loc,
                           did_you_mean(s, self.players) or f"players: {', '.join(self.players)}")
        return p

    def _find_monster(self, value: Any, loc: Loc | None, fname: str) -> Monster:
        s = str(value).strip()
        m = self.monsters.get(s) or self.graveyard.get(s)
        if m is None:
            low = s.lower()
            m = next((x for x in [*self.monsters.values(), *self.graveyard.values()] if x.name.lower() == low), None)
        if m is None:
            raise LogError("LOG-FIELD", f"'{fname}' names no monster: {value!r} (a monster is named by its "
                           "'create' event)", loc,
                           did_you_mean(s, [*self.monsters, *self.graveyard]) or
                           (f"monsters: {', '.join(self.monsters)}" if self.monsters else "no monster yet"))
        return m

    # -- monsters -------------------------------------------------------------------------

    def stat(self, m: Monster, key: str) -> int:
        """BW-CREATE-5: a stat is the sum of the parts'."""
        return sum(int(c.get(key) or 0) for c in m.parts)

    def traits(self, m: Monster) -> set[str]:
        """BW-CREATE-5: the Traits are the union of the parts'."""
        return {str(t) for c in m.parts for t in (c.get("traits") or [])}

    def hp_left(self, m: Monster) -> int:
        return max(0, self.stat(m, "hp") - m.damage)

    def alive(self, m: Monster) -> bool:
        return self.monsters.get(m.name) is m

    def _trait_list(self, traits: set[str]) -> str:
        return ", ".join(self.trait_names.get(t, t) for t in sorted(traits))

    def brief(self, m: Monster) -> str:
        tr = self.traits(m)
        flags = []
        if m.tapped:
            flags.append("attacked" + (", can block" if "vigilant" in tr else ", cannot block"))
        return (f"{m.name} [{' + '.join(c.name for c in m.parts)}] Str {self.stat(m, 'str')} Def "
                f"{self.stat(m, 'def')} Atk {self.stat(m, 'atk')} HP {self.hp_left(m)}/{self.stat(m, 'hp')}"
                + (f" · {self._trait_list(tr)}" if tr else "") + (f" ({', '.join(flags)})" if flags else ""))

    def owned(self, p: str) -> list[Monster]:
        return [m for m in self.monsters.values() if m.owner == p]

    def can_meet(self, a: Monster, b: Monster) -> bool:
        """BW-ATK-4: if either has Flying (Marine), the other has Flying (Marine) or Reach."""
        ta, tb = self.traits(a), self.traits(b)
        for t in ("flying", "marine"):
            if t in ta and not ({t, "reach"} & tb):
                return False
            if t in tb and not ({t, "reach"} & ta):
                return False
        return True

    def can_block(self, m: Monster, attacker: Monster) -> bool:
        return self.can_meet(attacker, m) and (not m.tapped or "vigilant" in self.traits(m))

    def can_attack(self, m: Monster) -> bool:
        if m.attacked == self.turn:
            return False
        fresh = m.born == self.turn or m.replaced == self.turn
        return not fresh or "haste" in self.traits(m)

    def _meet_reason(self, a: Monster, b: Monster) -> str:
        ta, tb = self.traits(a), self.traits(b)
        for t in ("flying", "marine"):
            for x, tx, y, ty in ((a, ta, b, tb), (b, tb, a, ta)):
                if t in tx and not ({t, "reach"} & ty):
                    name = self.trait_names.get(t, t)
                    return (f"{x.name} has {name}, so only a {name} or {self.trait_names.get('reach', 'Reach')} "
                            f"monster meets it, and {y.name} is neither")
        return ""

    def _destroy(self, m: Monster, loc: Loc) -> None:
        """BW-ATK-8: the monster and its parts go to the discard pile."""
        if not self.alive(m):
            return
        del self.monsters[m.name]
        m.gone = loc
        self.graveyard[m.name] = m
        self.discard += [c.id for c in m.parts]

    def _restore(self, m: Monster) -> None:
        if self.alive(m) or m.name in self.monsters:
            return
        self.graveyard.pop(m.name, None)
        for c in m.parts:
            if c.id in self.discard:
                self.discard.remove(c.id)
        m.gone = None
        self.monsters[m.name] = m

    # -- players --------------------------------------------------------------------------

    def alive_players(self) -> list[str]:
        return [p for p in self.players if self.out.get(p) is None]

    def _next_player(self, after: str | None) -> str | None:
        if not self.players:
            return None
        i = self.players.index(after) if after in self.players else -1
        n = len(self.players)
        for k in range(1, n + 1):
            q = self.players[(i + k) % n]
            if self.out.get(q) is None:
                return q
        return None

    def _hurt(self, p: str, n: int, rule: str, out: Outcome, ev: Event) -> None:
        self.hp[p] -= n
        self.hp_rule[p] = rule
        out.player_dmg[p] = out.player_dmg.get(p, 0) + n
        out.player_rule[p] = rule
        if self.hp[p] <= 0 and self.out.get(p) is None:
            self._eliminate(p, ev)
            out.eliminated.append(p)

    def _eliminate(self, p: str, ev: Event) -> None:
        """BW-END-1: out of the game; their monsters go to the discard pile."""
        self.out[p] = ev.loc
        self.out_order.append(p)
        mons = self.owned(p)
        self.lost_with[p] = mons
        for m in mons:
            self._destroy(m, ev.loc)
        self._t(ev, f"{p} is out of the game ({self.hp[p]} HP)"
                    + (f"; {', '.join(m.name for m in mons)} {'goes' if len(mons) == 1 else 'go'} to the discard pile"
                       if mons else ""))
        self._check_end(ev)

    def _uneliminate(self, p: str) -> None:
        self.out[p] = None
        if p in self.out_order:
            self.out_order.remove(p)
        for m in self.lost_with.pop(p, []):
            self._restore(m)
        self._check_end(None)

    def _check_end(self, ev: Event | None) -> None:
        """BW-END-2: the game ends when one player remains; that player wins."""
        alive = self.alive_players()
        if len(alive) <= 1 and len(self.players) > 1:
            if not self.over and ev is not None:
                self.winner = alive[0] if alive else None
                self.over = True
                self.end_loc = ev.loc
                self._t(ev, f"the game ends: {self.winner or 'nobody'} wins (BW-END-2)")
        elif self.over:
            self.over, self.winner, self.end_loc = False, None, None

    # -- cards ----------------------------------------------------------------------------

    def _reveal(self, c: Card, rule: str, loc: Loc | None, how: str) -> None:
        """A card becomes known: the center pile holds only ``copies`` of it."""
        self.revealed[c.id] += 1
        if self.revealed[c.id] > c.copies:
            self.ref.violation(rule, f"{how} {c.name}, but the center pile holds {c.copies} and "
                               f"{c.copies} {'is' if c.copies == 1 else 'are'} already out", loc)

    def _from_hand(self, p: str, c: Card, rule: str, loc: Loc | None) -> None:
        hand = self.hands[p]
        if hand.known[c.id] > 0:
            hand.known[c.id] -= 1
            hand.known = +hand.known
        elif hand.hidden > 0:
            hand.hidden -= 1
            self._reveal(c, rule, loc, f"{p} plays")
        else:
            have = ", ".join(self.parts_pool[i].name for i in sorted(hand.known.elements())) or "no cards"
            self.ref.violation(rule, f"{p} has no {c.name} in hand (the hand holds {have})", loc)
            self._reveal(c, rule, loc, f"{p} plays")

    def _part_card(self, ev: Event, rule: str) -> Card | None:
        c = self._find_card(ev["card"], ev.at("card"), "card")
        if c.id not in self.parts_pool:
            self.ref.violation(rule, f"{c.name} is not a Part card: only Part cards build monsters", ev.at("card"))
            return None
        return c

    # -- trace ----------------------------------------------------------------------------

    def _state_lines(self, title: str) -> None:
        self.ref.trace(f"      {title} — center pile {self.pile}, discard {len(self.discard)}")
        for p in self.players:
            if self.out.get(p) is not None:
                self.ref.trace(f"        {p}: out of the game (line {self.out[p].line})")
                continue
            mons = self.owned(p)
            self.ref.trace(f"        {p}: {self.hp[p]} HP, hand {self.hands[p].size}"
                           + ("" if mons else ", no monsters"))
            for m in mons:
                self.ref.trace(f"          {self.brief(m)}")

    # -- setup ----------------------------------------------------------------------------

    def start(self) -> None:
        raw = list(self.header.get("players") or [])
        for i, name in enumerate(raw):
            loc = self.header_locs.get(f"players[{i}]", self.head_loc)
            name = str(name).strip()
            if not name or name in (HIDDEN, NO_BLOCK) or name in self.hp:
                raise LogError("LOG-FIELD", f"player name {name!r} is empty, reserved or used twice", loc)
            self.players.append(name)
            self.hp[name] = self.start_hp
            self.hp_rule[name] = "BW-SETUP-4"
            self.out[name] = None
            self.hands[name] = Hand()
        n = len(self.players)
        if not self.n_min <= n <= self.n_max:
            self.ref.violation("BW-SETUP-1", f"{n} player(s); Bone Wars is for {self.n_min}–{self.n_max}",
                               self.head_loc)
        if self.header.get("starting_hp") is not None:
            stated = self.header["starting_hp"]
            self.ref.claim("BW-SETUP-4", "the starting HP", stated, self.start_hp, self.header_locs.get("starting_hp"))
            for p in self.players:
                self.hp[p] = stated
        self._deal()
        self._turn_order()
        hp = self.hp[self.players[0]] if self.players else self.start_hp
        self.ref.trace(f"      {n} players, clockwise: {', '.join(self.players)}; {self.hand_size} cards each, "
                       f"{hp} HP each; center pile {self.pile}")
        for note in self.order_notes:
            self.ref.trace(f"      turn order: {note}")
        if self.rolled_first is not None:
            self.ref.trace(f"      turn order: {self.rolled_first} rolled highest ({self.first_roll}) and goes first")
        if self.current is not None:
            self._begin_turn(self.current)

    def _deal(self) -> None:
        deals = self.header.get("deals")
        dealt = 0
        dloc = self.header_locs.get("deals", self.head_loc)
        if deals is not None:
            for key, val in deals.items():
                loc = deals.at(key) if hasattr(deals, "at") else dloc
                p = self._find_player(key, loc, "deals")
                hand = self.hands[p]
                if isinstance(val, int) and not isinstance(val, bool):
                    count, named = val, []
                elif isinstance(val, list):
                    named = []
                    for i, x in enumerate(val):
                        xloc = val.at(i) if hasattr(val, "at") else loc
                        if str(x).strip() == HIDDEN:
                            continue
                        c = self._find_card(x, xloc, "deals")
                        if c.id not in self.parts_pool:
                            self.ref.violation("BW-SETUP-2", f"{c.name} is not a Part card of the center pile", xloc)
                            continue
                        named.append((c, xloc))
                    count = len(val)
                else:
                    raise LogError("LOG-FIELD", f"'deals' of {p} must be a list of cards or a number, not {val!r}",
                                   loc)
                if count != self.hand_size:
                    self.ref.violation("BW-SETUP-2", f"each player is dealt {self.hand_size} cards; {p} gets {count}",
                                       loc)
                for c, xloc in named:
                    self._reveal(c, "BW-SETUP-2", xloc, f"{p} is dealt")
                    hand.known[c.id] += 1
                hand.hidden = max(0, count - len(named))
                hand.dealt = True
                dealt += max(0, count)
        for p in self.players:
            if not self.hands[p].dealt:
                self.hands[p].hidden = self.hand_size
                dealt += self.hand_size
        self.pile = max(0, self.deck_total - dealt)

    def _turn_order(self) -> None:
        """BW-SETUP-3: highest d20 goes first; tied highest rollers re-roll (ruling)."""
        rounds = self.header.get("turn_order_rolls") or []
        tloc = self.header_locs.get("turn_order_rolls", self.head_loc)
        contenders: list[str] | None = list(self.players)
        first = None
        for i, rnd in enumerate(rounds):
            rloc = self.header_locs.get(f"turn_order_rolls[{i}]", tloc)
            if not isinstance(rnd, dict):
                raise LogError("LOG-FIELD", f"each round of 'turn_order_rolls' is a mapping {{player: d{self.die_sides}}}", rloc)
            rolls: dict[str, int] = {}
            for key, v in rnd.items():
                vloc = rnd.at(key) if hasattr(rnd, "at") else rloc
                p = self._find_player(key, vloc, "turn_order_rolls")
                if self.ref.die(v, self.die_sides, "BW-SETUP-3", vloc, f"{p}'s turn-order d{self.die_sides}"):
                    rolls[p] = v
                elif isinstance(v, int) and not isinstance(v, bool):
                    rolls[p] = v
            if contenders is None:
                self.ref.violation("BW-SETUP-3", f"{first} already rolled highest: only a tie for the highest "
                                   "roll is re-rolled", rloc)
                break
            if set(rolls) != set(contenders):
                missing = [p for p in contenders if p not in rolls]
                extra = [p for p in rolls if p not in contenders]
                why = []
                if missing:
                    why.append(f"{', '.join(missing)} did not roll")
                if extra:
                    why.append(f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} not in the re-roll")
                who = f"every player rolls a d{self.die_sides}" if i == 0 else f"only the tied players ({', '.join(contenders)}) " \
                                                                "re-roll"
                self.ref.violation("BW-SETUP-3", f"{who}: {'; '.join(why)}", rloc)
            if not rolls:
                continue
            top = max(rolls.values())
            tied = [p for p in self.players if rolls.get(p) == top]
            if len(tied) == 1 or self.tie_rule == "first_listed":     # ruling: or the tied players re-roll
                first, contenders = tied[0], None
                self.first_roll = top
            else:
                contenders = tied
                self.order_notes.append(f"{' and '.join(tied)} tie at {top} and re-roll")
        if contenders is not None and len(contenders) > 1 and first is None and rounds:
            last = self.header_locs.get(f"turn_order_rolls[{len(rounds) - 1}]", tloc)
            self.ref.violation("BW-SETUP-3", f"{' and '.join(contenders)} tie for the highest roll: the tied "
                               "players re-roll until one is highest", last)
            first = None                        # as recorded: whoever takes the first turn
        if not rounds:
            self.ref.violation("BW-SETUP-3", f"every player rolls a d{self.die_sides} for the turn order; no roll is "
                               "recorded", tloc)
        self.rolled_first = first
        self.current = first

    # -- turns ----------------------------------------------------------------------------

    def _begin_turn(self, p: str) -> None:
        self.current = p
        self.begun = False
        self.phase = "draw"
        self.need = min(self.draw_per_turn, self.pile)
        self.drawn = 0
        self.edits = 0
        for m in self.owned(p):         # BW-ATK-5: attackers may block again from their controller's turn
            m.tapped = False

    def _end_turn(self, ev: Event, to: str | None = None) -> None:
        self._state_lines(f"after turn {self.turn} ({self.current})")
        self.prev = self.current
        self.turn += 1
        nxt = to or self._next_player(self.current)
        if nxt is not None:
            self._begin_turn(nxt)

    def _turn_actor(self, ev: Event, p: str) -> None:
        """The event's player acts in their own turn (BW-TURN-1); otherwise as recorded."""
        if self.out.get(p) is not None:
            self.ref.violation("BW-TURN-1", f"{p} is out of the game (line {self.out[p].line}); eliminated "
                               "players are skipped", ev.at("player"))
        if self.current is None:
            self.turn = max(self.turn, 1)
            self._begin_turn(p)
        elif p != self.current:
            nxt = self._next_player(self.current)
            order = ", ".join(self.players)
            if self.begun and p == nxt:
                self._end_turn(ev)                      # the next player's turn starts
            else:
                if self.out.get(p) is not None:
                    pass                                # reported above
                elif not self.begun and self.turn == 1 and self.rolled_first == self.current:
                    self.ref.violation("BW-SETUP-3", f"{self.current} rolled highest ({self.first_roll}) and takes "
                                       f"the first turn, not {p}", ev.at("player"))
                elif self.begun:
                    self.ref.violation("BW-TURN-1", f"{p} acts during {self.current}'s turn {self.turn}; turns go "
                                       f"clockwise ({order}): after {self.current} comes {nxt}", ev.at("player"))
                else:
                    after = f", and {self.current} follows {self.prev}" if self.prev else ""
                    self.ref.violation("BW-TURN-1", f"it is {self.current}'s turn, not {p}'s: turns go clockwise "
                                       f"({order}){after}", ev.at("player"))
                if self.begun:
                    self._end_turn(ev, to=p)
                else:
                    self._begin_turn(p)
        if not self.begun:
            self.ref.trace(f"      turn {self.turn} · {self.current}")
        self.begun = True

    def _creation(self, ev: Event) -> None:
        """Leave the draw step: a turn starts by drawing (BW-TURN-1)."""
        if self.phase == "draw":
            if self.drawn < self.need:
                n = "a card" if self.need == 1 else f"{self.need} cards"
                self.ref.violation("BW-TURN-1", f"{self.current}'s turn starts by drawing {n} from the center pile "
                                   f"({self.pile} left); no draw is recorded", ev.loc)
            self.phase = "create"

    def on_draw(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        c = self._find_card(ev["card"], ev.at("card"), "card") if ev["card"] not in (None, HIDDEN) else None
        self._turn_actor(ev, p)
        if self.pile <= 0:
            self.ref.violation("BW-TURN-1", "the center pile is empty: no card is drawn", ev.loc)
        elif self.phase != "draw":
            self.ref.violation("BW-TURN-1", f"a turn starts by drawing {self.draw_per_turn} card; {p} draws after "
                               "the Creation Phase began", ev.loc)
        elif self.drawn >= self.need:
            self.ref.violation("BW-TURN-1", f"a turn starts by drawing exactly {self.draw_per_turn} card; {p} "
                               "draws again", ev.loc)
        self.pile = max(0, self.pile - 1)
        self.drawn += 1
        if c is not None:
            if c.id not in self.parts_pool:
                self.ref.violation("BW-TURN-1", f"{c.name} is not in the center pile (Part cards only)", ev.at("card"))
            self._reveal(c, "BW-TURN-1", ev.at("card"), f"{p} draws")
            self.hands[p].known[c.id] += 1
        else:
            self.hands[p].hidden += 1
        if self.phase == "draw" and self.drawn >= self.need:
            self.phase = "create"
        self._t(ev, f"{p} draws {c.name if c else 'a card'} (hand {self.hands[p].size}, pile {self.pile})")

    def on_end_turn(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        self._turn_actor(ev, p)
        self._creation(ev)
        claims = ev["hp"]
        if claims:
            for key, v in claims.items():
                q = self._find_player(key, ev.at("hp"), "hp")
                v = _typed(v, Opt("int"), ev.at("hp"), f"'hp' of {q}")
                if v is not None and v != self.hp[q]:
                    self.ref.claim(self.hp_rule[q], f"{q}'s HP", v, self.hp[q], ev.at("hp"))
                    self.hp[q] = v
                    self._settle_player(q, ev)
        self._t(ev, f"{p} ends the turn")
        self._end_turn(ev)

    # -- the Creation Phase ---------------------------------------------------------------

    def _edit_allowed(self, ev: Event, p: str) -> None:
        self._turn_actor(ev, p)
        self._creation(ev)
        what = {"create": "create", "add_part": "add a part", "replace_part": "replace a part"}[ev.kind]
        if self.phase == "destroy":
            self.ref.violation("BW-ATK-1", f"{p} cannot {what} after the first attack of the turn: the Creation "
                               "Phase is over", ev.loc)
        elif self.edits >= self.edits_per_turn:
            self.ref.violation("BW-CREATE-1", f"{self.edits_per_turn} create-or-edit per turn; {p} already used "
                               "it this turn", ev.loc)
        self.edits += 1

    def _stat_claims(self, ev: Event, m: Monster) -> None:
        st = ev["stats"]
        if st:
            for k, v in st.items():
                if v is not None:
                    self.ref.claim("BW-CREATE-5", f"{m.name}'s {self.stat_names.get(k, k)}", v, self.stat(m, k),
                                   ev.at("stats"))
        tr = ev["traits"]
        if tr is not None:
            stated = set()
            for t in tr:
                key = str(t).strip().lower()
                if key not in self.trait_names:
                    raise LogError("LOG-FIELD", f"'traits' names no Trait: {t!r}", ev.at("traits"),
                                   did_you_mean(key, self.trait_names))
                stated.add(key)
            if stated != self.traits(m):
                self.ref.violation("BW-CREATE-5", f"the log gives {m.name} the Traits "
                                   f"{self._trait_list(stated) or 'none'}, but the union of its parts' is "
                                   f"{self._trait_list(self.traits(m)) or 'none'}", ev.at("traits"))

    def on_create(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        name = str(ev["monster"]).strip()
        if not name or name.lower() == NO_BLOCK:
            raise LogError("LOG-FIELD", f"monster name {name!r} is empty or reserved", ev.at("monster"))
        if name in self.monsters:
            raise LogError("LOG-FIELD", f"a monster named {name!r} ({self.monsters[name].owner}'s) is already on "
                           "the table: give each monster its own name", ev.at("monster"))
        self._edit_allowed(ev, p)
        c = self._part_card(ev, "BW-CREATE-2")
        if c is None:
            return
        self._from_hand(p, c, "BW-CREATE-2", ev.at("card"))
        self.graveyard.pop(name, None)
        m = Monster(name=name, owner=p, parts=[c], born=self.turn, loc=ev.loc)
        self.monsters[name] = m
        self._stat_claims(ev, m)
        self._t(ev, f"{p} creates {self.brief(m)}")

    def _own_monster(self, ev: Event, p: str, rule: str) -> Monster:
        m = self._find_monster(ev["monster"], ev.at("monster"), "monster")
        if not self.alive(m):
            self.ref.violation("BW-ATK-8", f"{m.name} was destroyed (line {m.gone.line if m.gone else '?'}) and "
                               "its parts discarded", ev.at("monster"))
            self._restore(m)
        if m.owner != p:
            self.ref.violation(rule, f"{m.name} is {m.owner}'s monster; {p} edits only monsters they control",
                               ev.at("monster"))
        return m

    def on_add_part(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        m = self._own_monster(ev, p, "BW-CREATE-3")
        self._edit_allowed(ev, p)
        c = self._part_card(ev, "BW-CREATE-3")
        if c is None:
            return
        if len(m.parts) >= self.max_parts:
            self.ref.violation("BW-CREATE-3", f"a part is added only to a monster with fewer than {self.max_parts} "
                               f"parts; {m.name} has {len(m.parts)}", ev.loc)
        kind = c.get("part")
        if any(x.get("part") == kind for x in m.parts):
            self.ref.violation("BW-CREATE-3", f"{m.name} already has a {self.part_names.get(kind, kind)} part; an "
                               "added part is of a type the monster lacks", ev.at("card"))
        self._from_hand(p, c, "BW-CREATE-3", ev.at("card"))
        m.parts.append(c)
        self._stat_claims(ev, m)
        self._t(ev, f"{p} adds {c.name}: {self.brief(m)}")

    def on_replace_part(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        m = self._own_monster(ev, p, "BW-CREATE-4")
        self._edit_allowed(ev, p)
        c = self._part_card(ev, "BW-CREATE-4")
        if c is None:
            return
        kind = c.get("part")
        old = None
        if ev["replaces"] is not None:
            oc = self._find_card(ev["replaces"], ev.at("replaces"), "replaces")
            old = next((x for x in m.parts if x.id == oc.id), None)
            if old is None:
                self.ref.violation("BW-CREATE-4", f"{m.name} has no {oc.name} to replace", ev.at("replaces"))
            elif old.get("part") != kind:
                self.ref.violation("BW-CREATE-4", f"a part is replaced by one of the same type: {old.name} is "
                                   f"{self.part_names.get(old.get('part'))}, {c.name} is {self.part_names.get(kind)}",
                                   ev.at("card"))
        if old is None:
            old = next((x for x in m.parts if x.get("part") == kind), None)
            if old is None and ev["replaces"] is None:
                self.ref.violation("BW-CREATE-4", f"{m.name} has no {self.part_names.get(kind, kind)} part for "
                                   f"{c.name} to replace", ev.at("card"))
        self._from_hand(p, c, "BW-CREATE-4", ev.at("card"))
        if old is not None:
            m.parts[m.parts.index(old)] = c
            if self.replaced_to == "hand":
                self.hands[p].known[old.id] += 1
            else:
                self.discard.append(old.id)
        else:
            m.parts.append(c)
        if not self.damage_stays:
            m.damage = 0
        m.replaced = self.turn
        self._stat_claims(ev, m)
        self._t(ev, f"{p} replaces {old.name if old else 'nothing'} with {c.name}: {self.brief(m)}")
        if m.damage >= self.stat(m, "hp"):      # BW-ATK-8: its damage now reaches its HP
            self.last = Outcome(ev.loc, False, destroyed=[m.name])
            self._destroy(m, ev.loc)
            self._t(ev, f"{m.name} has {m.damage} damage and {self.stat(m, 'hp')} HP: destroyed")

    # -- the Destruction Phase ------------------------------------------------------------

    def on_attack(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        m = self._find_monster(ev["monster"], ev.at("monster"), "monster")
        target = self._find_player(ev["target"], ev.at("target"), "target")
        self._turn_actor(ev, p)
        self._creation(ev)
        self.phase = "destroy"
        if not self.alive(m):
            self.ref.violation("BW-ATK-8", f"{m.name} was destroyed (line {m.gone.line if m.gone else '?'}) and "
                               "cannot attack", ev.at("monster"))
            self._restore(m)
        if m.owner != p:
            self.ref.violation("BW-ATK-2", f"{m.name} is {m.owner}'s monster; {p} attacks with their own",
                               ev.at("monster"))
        if m.attacked == self.turn:
            self.ref.violation("BW-ATK-2", f"{m.name} already attacked this turn (each monster attacks at most "
                               "once per turn)", ev.at("monster"))
        elif m.born == self.turn or m.replaced == self.turn:
            if "haste" not in self.traits(m):
                how = "was created" if m.born == self.turn else "had a part replaced"
                self.ref.violation("BW-CREATE-6", f"{m.name} {how} this turn and has no "
                                   f"{self.trait_names.get('haste', 'Haste')}: it cannot attack until "
                                   f"{p}'s next turn", ev.at("monster"))
        if target == m.owner:
            self.ref.violation("BW-ATK-2", f"{p} attacks an opponent, not themselves", ev.at("target"))
        elif self.out.get(target) is not None:
            self.ref.violation("BW-ATK-2", f"{target} is out of the game (line {self.out[target].line}); attacks "
                               "go to an opponent still in the game", ev.at("target"))
        m.attacked = self.turn
        m.tapped = True
        able = [b for b in self.owned(target) if self.can_block(b, m)]
        self.combat = Combat(attacker=m, defender=target, loc=ev.loc, able=able)
        self._t(ev, f"{m.name} (Str {self.stat(m, 'str')}, Atk {self.stat(m, 'atk')}) attacks {target}"
                    + ("" if able else f"; {target} has no monster able to block it"))

    def _close_combat(self, ev: Event) -> None:
        """An attack left unresolved when another event comes."""
        c = self.combat
        self.combat = None
        if c is None:
            return
        a = c.attacker.name
        if c.stage == "block":
            self.ref.violation("BW-ATK-3", f"{c.defender}'s answer to {a}'s attack (line {c.loc.line}) is not "
                               "recorded: a 'block' (a monster, or none) and the dice or 'take_damage'", ev.loc)
        elif c.stage == "roll":
            self.ref.violation("BW-ATK-6", f"the dice of {a} against {c.blocker.name} (line {c.loc.line}) are not "
                               "recorded: a 'roll' with attacker and blocker", ev.loc)
        else:
            self.ref.violation("BW-ATK-10", f"{c.defender} neither takes {a}'s damage nor rolls (line "
                               f"{c.loc.line}): a 'take_damage' or a 'roll' with defender", ev.loc)

    def _no_combat(self, ev: Event, rule: str) -> None:
        self.ref.violation(rule, f"'{ev.kind}' with no attack to answer", ev.loc)

    def on_block(self, ev: Event) -> None:
        c = self.combat
        if c is None or c.stage != "block":
            self._no_combat(ev, "BW-ATK-3")
            return
        p = self._find_player(ev["player"], ev.at("player"), "player")
        if p != c.defender:
            self.ref.violation("BW-ATK-3", f"{c.attacker.name} attacks {c.defender}; {p} does not defend",
                               ev.at("player"))
        name = ev["monster"]
        if name is None or str(name).strip().lower() == NO_BLOCK:
            if c.able:
                c.stage = "declined"
                self._t(ev, f"{c.defender} does not block (could with {', '.join(b.name for b in c.able)}): "
                            "takes the damage")
            else:
                c.stage = "choice"
                self._t(ev, f"{c.defender} does not block")
            return
        b = self._find_monster(name, ev.at("monster"), "monster")
        if not self.alive(b):
            self.ref.violation("BW-ATK-8", f"{b.name} was destroyed (line {b.gone.line if b.gone else '?'}) and "
                               "cannot block", ev.at("monster"))
            self._restore(b)
        if b.owner != c.defender:
            self.ref.violation("BW-ATK-3", f"{c.defender} blocks with a monster they control; {b.name} is "
                               f"{b.owner}'s", ev.at("monster"))
        if not self.can_meet(c.attacker, b):
            self.ref.violation("BW-ATK-4", f"{b.name} cannot block {c.attacker.name}: "
                               f"{self._meet_reason(c.attacker, b)}", ev.at("monster"))
        if b.tapped and "vigilant" not in self.traits(b):
            self.ref.violation("BW-ATK-5", f"{b.name} attacked (turn {b.attacked}) and cannot block until "
                               f"{b.owner}'s next turn (it is not {self.trait_names.get('vigilant', 'Vigilant')})",
                               ev.at("monster"))
        c.blocker = b
        c.stage = "roll"
        self._t(ev, f"{c.defender} blocks with {self.brief(b)}")

    def on_roll(self, ev: Event) -> None:
        c = self.combat
        if c is None:
            self._no_combat(ev, "BW-ATK-6")
            return
        if c.stage == "roll":
            if ev["attacker"] is None or ev["blocker"] is None:
                self.ref.violation("BW-ATK-6", "a blocked attack rolls two d20s: record 'attacker' and 'blocker'",
                                   ev.loc)
                self.combat = None
                return
            self.ref.die(ev["attacker"], self.die_sides, "BW-ATK-6", ev.at("attacker"), f"the attacker's d{self.die_sides}")
            self.ref.die(ev["blocker"], self.die_sides, "BW-ATK-6", ev.at("blocker"), f"the blocker's d{self.die_sides}")
            self._resolve_blocked(ev, c, ev["attacker"], ev["blocker"])
            return
        if ev["defender"] is None:
            if ev["attacker"] is not None and c.stage == "block":
                self.ref.violation("BW-ATK-3", f"the dice are rolled but {c.defender} named no blocker", ev.loc)
            else:
                self.ref.violation("BW-ATK-10", "an unblocked defender's roll is recorded as 'defender'", ev.loc)
            self.combat = None
            return
        if c.stage == "block":
            c.stage = "declined" if c.able else "choice"
        if c.stage == "declined":
            self.ref.violation("BW-ATK-10", f"{c.defender} could block with {', '.join(b.name for b in c.able)}: "
                               "a defender who declines to block takes the damage (no roll)", ev.at("defender"))
        self.ref.die(ev["defender"], self.die_sides, "BW-ATK-10", ev.at("defender"), f"the defender's d{self.die_sides}")
        self._resolve_unblocked(ev, c, ev["defender"])

    def on_take_damage(self, ev: Event) -> None:
        c = self.combat
        p = self._find_player(ev["player"], ev.at("player"), "player")
        if c is None:
            self._no_combat(ev, "BW-ATK-10")
            return
        if c.stage == "roll":
            self.ref.violation("BW-ATK-6", f"{c.defender} blocked with {c.blocker.name}: a blocked attack is "
                               "settled by the dice", ev.loc)
            self.combat = None
            return
        if c.stage == "block":
            c.stage = "declined" if c.able else "choice"
        if p != c.defender:
            self.ref.violation("BW-ATK-10", f"{c.attacker.name} attacks {c.defender}, not {p}", ev.at("player"))
        self._resolve_unblocked(ev, c, None)
        self._player_claims(ev, c.defender, ev["damage"], ev["hp_left"], "damage", "hp_left")

    def _tie(self, atk: int) -> int:
        q = atk / self.tie_div
        return math.ceil(q) if self.tie_round == "up" else math.floor(q)

    def _resolve_blocked(self, ev: Event, c: Combat, ra: Any, rb: Any) -> None:
        """BW-ATK-6, 7, 8, 9: d20 + Str (− Intimidating) against d20 + Def."""
        a, b = c.attacker, c.blocker
        self.combat = None
        out = Outcome(ev.loc, True)
        self.last = out
        s, d, atk = self.stat(a, "str"), self.stat(b, "def"), self.stat(a, "atk")
        pen = self.penalty if "intimidating" in self.traits(b) else 0
        at, bt = int(ra) + s - pen, int(rb) + d
        pen_text = f" − {pen} ({self.trait_names.get('intimidating', 'Intimidating')})" if pen else ""
        dice = f"{a.name} {ra} + {s}{pen_text} = {at} vs {b.name} {rb} + {d} = {bt}"
        if bt > at:
            self._t(ev, f"{dice}: blocked, no damage")
            return
        dmg = atk if at > bt else self._tie(atk)
        before = self.hp_left(b)
        b.damage += dmg
        out.monster_dmg[b.name] = dmg
        res = "hit" if at > bt else f"tie, half damage ({atk} ÷ {self.tie_div}, rounded {self.tie_round})"
        self._t(ev, f"{dice}: {res}; {b.name} takes {dmg} ({self.hp_left(b)} of {self.stat(b, 'hp')} HP left)")
        if b.damage >= self.stat(b, "hp") and self.alive(b):
            self._destroy(b, ev.loc)
            out.destroyed.append(b.name)
            self._t(ev, f"{b.name} is destroyed; its parts go to the discard pile")
            over = dmg - before
            if "trample" in self.traits(a) and over > 0:
                self._t(ev, f"{a.name} tramples: {b.owner} takes the {over} left over: {self.hp[b.owner] - over} HP")
                self._hurt(b.owner, over, "BW-ATK-9", out, ev)

    def _resolve_unblocked(self, ev: Event, c: Combat, roll: Any) -> None:
        """BW-ATK-10: take the Atk, or roll a d20 higher than the attacker's Str for no damage."""
        a = c.attacker
        self.combat = None
        out = Outcome(ev.loc, False)
        self.last = out
        atk, s = self.stat(a, "atk"), self.stat(a, "str")
        if roll is not None:
            if int(roll) > s:
                self._t(ev, f"{c.defender} rolls {roll} against {a.name}'s Str {s}: no damage")
                out.player_rule[c.defender] = "BW-ATK-10"
                return
            self._t(ev, f"{c.defender} rolls {roll} against {a.name}'s Str {s}: not higher")
        self._t(ev, f"{c.defender} takes {atk} from {a.name}: {self.hp[c.defender] - atk} HP")
        self._hurt(c.defender, atk, "BW-ATK-10", out, ev)

    # -- stated consequences ------------------------------------------------------------------

    def _player_claims(self, ev: Event, p: str, amount: Any, hp: Any, f_amount: str, f_hp: str) -> None:
        out = self.last
        rule = (out.player_rule.get(p) if out else None) or \
               ("BW-ATK-9" if out is not None and out.blocked else "BW-ATK-10")
        computed = out.player_dmg.get(p, 0) if out else 0
        self.ref.claim(rule, f"the damage to {p}", amount, computed, ev.at(f_amount))
        self.ref.claim(rule, f"{p}'s HP", hp, self.hp[p], ev.at(f_hp))
        before = self.hp[p]
        if hp is not None:                      # as recorded
            self.hp[p] = hp
        elif amount is not None:
            self.hp[p] -= amount - computed
        if self.hp[p] != before:
            self._t(ev, f"as recorded: {p} has {self.hp[p]} HP")
        if amount is not None and out is not None:
            out.player_dmg[p] = amount
        self._settle_player(p, ev)

    def _settle_player(self, p: str, ev: Event) -> None:
        if self.hp[p] <= 0 and self.out.get(p) is None:
            self._eliminate(p, ev)
            if self.last is not None:
                self.last.eliminated.append(p)
        elif self.hp[p] > 0 and self.out.get(p) is not None and self.last is not None and p in self.last.eliminated:
            self.last.eliminated.remove(p)
            self._uneliminate(p)
            self._t(ev, f"{p} stays in the game (as recorded): {self.hp[p]} HP")

    def on_damage(self, ev: Event) -> None:
        mon, pl = ev["monster"], ev["player"]
        if (mon is None) == (pl is None):
            raise LogError("LOG-FIELD", "a 'damage' event names either a 'monster' or a 'player'", ev.loc)
        if pl is not None:
            p = self._find_player(pl, ev.at("player"), "player")
            self._player_claims(ev, p, ev["amount"], ev["hp_left"], "amount", "hp_left")
            return
        m = self._find_monster(mon, ev.at("monster"), "monster")
        out = self.last
        computed = out.monster_dmg.get(m.name, 0) if out else 0
        amount, hp = ev["amount"], ev["hp_left"]
        self.ref.claim("BW-ATK-7", f"the damage to {m.name}", amount, computed, ev.at("amount"))
        self.ref.claim("BW-ATK-7", f"{m.name}'s HP left", hp, self.hp_left(m), ev.at("hp_left"))
        before = m.damage
        if hp is not None:                      # as recorded (HP left wins over the amount)
            if hp != self.hp_left(m):
                m.damage = self.stat(m, "hp") - hp
        elif amount is not None:
            m.damage += amount - computed
        if m.damage != before and self.alive(m) and m.damage < self.stat(m, "hp"):
            self._t(ev, f"as recorded: {self.brief(m)}")
        if amount is not None and out is not None:
            out.monster_dmg[m.name] = amount
        if self.alive(m) and m.damage >= self.stat(m, "hp"):
            self._destroy(m, ev.loc)
            if out is not None:
                out.destroyed.append(m.name)
            self._t(ev, f"{m.name} is destroyed (as recorded: {m.damage} damage, {self.stat(m, 'hp')} HP)")
        elif not self.alive(m) and m.damage < self.stat(m, "hp") and out is not None and m.name in out.destroyed:
            out.destroyed.remove(m.name)
            self._restore(m)
            self._t(ev, f"{m.name} stays on the table (as recorded): {self.brief(m)}")

    def on_destroyed(self, ev: Event) -> None:
        m = self._find_monster(ev["monster"], ev.at("monster"), "monster")
        if self.alive(m):
            self.ref.violation("BW-ATK-8", f"{m.name} has {m.damage} damage and {self.stat(m, 'hp')} HP: a monster "
                               "is destroyed when its damage reaches its HP", ev.at("monster"))
            self._destroy(m, ev.loc)
            self._t(ev, f"{m.name} is destroyed (as recorded)")

    def on_eliminated(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        if self.out.get(p) is None:
            self.ref.violation("BW-END-1", f"{p} has {self.hp[p]} HP: a player is removed at 0 HP or less",
                               ev.at("player"))
            self._eliminate(p, ev)

    # -- lifecycle ------------------------------------------------------------------------

    def before(self, ev: Event) -> None:
        if self.over and ev.kind not in CLAIM_KINDS:
            self.ref.violation(self.end_rule, f"'{ev.kind}' after the game ended ({self.winner} won at line "
                               f"{self.end_loc.line if self.end_loc else '?'}): no event may follow the end",
                               ev.loc)

    def apply(self, ev: Event) -> None:
        if not self.players or (self.over and ev.kind not in CLAIM_KINDS):
            return
        if self.combat is not None and ev.kind not in COMBAT_KINDS[self.combat.stage]:
            self._close_combat(ev)
        super().apply(ev)

    def finish(self) -> None:
        if self.over:
            self._state_lines(f"game over after turn {self.turn}: {self.winner} wins")
        elif self.begun:
            self._state_lines(f"log ends in turn {self.turn} ({self.current}); no winner yet")
        else:
            self.ref.trace(f"      log ends after turn {self.turn - 1}; no winner yet")

    def final(self) -> dict[str, Any]:
        mons = {**{m.name: m for m in self.graveyard.values()}, **self.monsters}
        return {
            "winner": self.winner,
            "hp": dict(self.hp),
            "eliminated": list(self.out_order),
            "players": {p: {"hp": self.hp[p], "eliminated": self.out.get(p) is not None,
                            "hand": self.hands[p].size, "monsters": [m.name for m in self.owned(p)]}
                        for p in self.players},
            "monsters": {m.name: {"owner": m.owner, "parts": [c.id for c in m.parts], "damage": m.damage,
                                  "str": self.stat(m, "str"), "def": self.stat(m, "def"),
                                  "atk": self.stat(m, "atk"), "hp": self.hp_left(m),
                                  "traits": sorted(self.traits(m)), "destroyed": not self.alive(m)}
                         for m in mons.values()},
            "turns": self.turn if self.begun else self.turn - 1,
            "pile": self.pile,
        }

    # -- for programs: what may come next -----------------------------------------------------

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts: those of :meth:`legal_events` (the explicit
        way, for simulated playtests) and the shortcuts a hand-written log may take — the next
        player's draw ending a turn, no 'block' when nothing can block, the claims after a combat."""
        if self.over:
            return list(CLAIM_KINDS)
        kinds = list(dict.fromkeys(e["kind"] for e in self.legal_events()))
        c = self.combat
        if c is not None:
            if c.stage == "block" and not c.able:
                kinds += ["take_damage", "roll"]
        elif self.current is not None:
            if "end_turn" in kinds:
                kinds.append("draw")
            if self.last is not None:
                kinds += [k for k in CLAIM_KINDS if k not in kinds]
        return list(dict.fromkeys(kinds))

    def legal_events(self) -> list[dict[str, Any]]:
        """Skeletons of every legal next event; dice fields are None (roll them), a hidden card is '?'."""
        if self.over or self.current is None:
            return []
        c = self.combat
        if c is not None:
            d = c.defender
            if c.stage == "block":
                return ([{"kind": "block", "player": d, "monster": b.name} for b in c.able]
                        + [{"kind": "block", "player": d, "monster": NO_BLOCK}])
            if c.stage == "roll":
                return [{"kind": "roll", "attacker": None, "blocker": None}]
            if c.stage == "choice":
                return [{"kind": "take_damage", "player": d}, {"kind": "roll", "defender": None}]
            return [{"kind": "take_damage", "player": d}]
        p = self.current
        if self.phase == "draw" and self.drawn < self.need:
            return [{"kind": "draw", "player": p}]
        out: list[dict[str, Any]] = []
        hand = self.hands[p]
        cards = sorted(hand.known) + ([HIDDEN] if hand.hidden else [])
        if self.phase != "destroy" and self.edits < self.edits_per_turn:
            for cid in cards:
                out.append({"kind": "create", "player": p, "card": cid, "monster": None})
            for m in self.owned(p):
                kinds = {x.get("part") for x in m.parts}
                for cid in cards:
                    part = self.parts_pool[cid].get("part") if cid != HIDDEN else None
                    if len(m.parts) < self.max_parts and (part is None or part not in kinds):
                        out.append({"kind": "add_part", "player": p, "monster": m.name, "card": cid})
                    if part is None or part in kinds:
                        out.append({"kind": "replace_part", "player": p, "monster": m.name, "card": cid})
        for m in self.owned(p):
            if self.can_attack(m):
                for t in self.alive_players():
                    if t != p:
                        out.append({"kind": "attack", "player": p, "monster": m.name, "target": t})
        out.append({"kind": "end_turn", "player": p})
        return out

"""Bone Wars — the table: players, HP, hands, the center pile, monsters, the turn and the attack
in progress, with the moves that change them (the state, :mod:`.state`, plays on it). Every move
is tolerant: it applies what it is given as recorded (the replay has reported what was wrong).
Then the state's actions, made once and shared by every state (a random game and a search build
none of them again): dice, draws, creates and edits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

from cardgen.core.record import record
from cardgen.games.bone_wars.rules import Monster, Part, Rules
from cardgen.games.bone_wars.vocab import NO_BLOCK
from cardgen.play.api import Action, Made
from cardgen.play.dice import die_outcomes
from cardgen.play.hidden import HIDDEN, Hand, counts
from cardgen.play.params import per_game

SETUP_ORDER, SETUP_DEAL, PLAY = "order", "deal", "play"
_NONE: list[Monster] = []        # no monsters (shared, never changed)
_NO_CARDS: Counter = Counter()   # (copied: ``Counter()`` runs ``update``'s checks)


def _deck(parts: dict[str, Part]) -> tuple[Counter, dict[str, str]]:
    return Counter({k: parts[k].copies for k in sorted(parts)}), {k: c.part for k, c in parts.items()}


#: the full center pile (every Part card by id, in id order: copy it) and each card's part type,
#: made once per Part cards (the last asked for: a simulation deals from the same ones)
deck_of: Callable[[dict[str, Part]], tuple[Counter, dict[str, str]]] = per_game(_deck)


@record
class Combat:
    attacker: Monster
    defender: str
    able: list[Monster]             # the defender's monsters able to block it (BW-ATK-10)
    stage: str = "block"            # block → roll (blocked) | choice / declined (unblocked) | defroll
    blocker: Monster | None = None


@record
class Outcome:
    """What the last attack did, for the claims that follow it."""

    #: a blocked attack: (attacker, blocker, their dice, the arithmetic, the blocker's HP left before)
    fight: tuple
    #: an unblocked attack: (attacker, the defender's roll or None, the defender)
    blow: tuple
    monster_dmg: dict[str, int]     # monster name → damage dealt
    player_dmg: dict[str, int]      # player → damage dealt
    destroyed: list[str]
    eliminated: list[str]

    def __init__(self, fight: tuple = (), blow: tuple = ()):
        self.fight, self.blow = fight, blow
        self.monster_dmg, self.player_dmg = {}, {}
        self.destroyed, self.eliminated = [], []


class Table:
    """The state of one game of Bone Wars (see the module docstring)."""

    def __init__(self, rules: Rules, parts: dict[str, Part], players: list[str], start_hp: int | None = None):
        self.rules, self.parts, self.players = rules, parts, list(players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.start_hp = hp = rules.start_hp if start_hp is None else start_hp
        self.hp: dict[str, int] = {p: hp for p in self.players}
        self.hp_rule: dict[str, str] = {p: "BW-SETUP-4" for p in self.players}   # what last set each HP
        self.out: list[str] = []        # the players out of the game, in the order they went out
        self.lost_with: dict[str, list[Monster]] = {}
        #: player → their attacks (on the players in)
        self.attacks: dict[str, Made[tuple[Action, ...]]] = {}
        self.hands: dict[str, Hand] = {p: Hand(counts(_NO_CARDS)) for p in self.players}
        pile, self.kinds = deck_of(parts)       # (kinds: each card's part type; shared, never changed)
        self.unseen: Counter = counts(pile)     # not yet known anywhere
        self.pile = sum(self.unseen.values())
        self.overseen = min(self.unseen.values(), default=1) <= 0     # a count at 0 or below (replays)
        self.discard: list[str] = []
        self.monsters: dict[str, Monster] = {}
        self.groups: dict[str, list[Monster]] | None = None     # owner → monsters, as listed (on read)
        self.graveyard: dict[str, Monster] = {}
        self.created = 0
        # setup
        self.setup, self.contenders = SETUP_ORDER, list(self.players)
        self.order_rounds: list[dict[str, int]] = []
        self.rolled_first: str | None = None
        # the turn
        self.turn, self.begun, self.phase, self.need, self.drawn, self.edits = 1, False, "draw", 0, 0, 0
        self.current: str | None = None
        self.combat: Combat | None = None
        self.last: Outcome | None = None
        self.winner: str | None = None
        self.over = False

    def copy_table(self, other: Table, dealt: tuple[str, ...] = ()) -> None:
        """Make ``other`` (a fresh instance) an independent copy of this table; the hands of ``dealt``
        and the unseen counts, which the caller deals again (a determinization), are left shared."""
        live = {k: m.copy() for k, m in self.monsters.items()}
        twin = dict(zip(map(id, self.monsters.values()), live.values()))     # id → its copy

        def mon(m: Monster) -> Monster:
            c = twin.get(id(m))
            if c is None:
                c = twin[id(m)] = m.copy()
            return c

        other.__dict__.update(self.__dict__)    # shared: what is never changed in place (``players``,
        # ``contenders``; ``attacks``, made anew when ``out`` changes; ``last``, an attack's, once applied)
        other.hp, other.hp_rule, other.out = dict(self.hp), dict(self.hp_rule), list(self.out)
        other.lost_with = {p: [mon(m) for m in ms] for p, ms in self.lost_with.items()}
        other.hands = {p: h if p in dealt else h.copy() for p, h in self.hands.items()}
        other.unseen, other.discard = self.unseen if dealt else counts(self.unseen), list(self.discard)
        other.monsters, other.groups = live, None
        other.graveyard = {k: mon(m) for k, m in self.graveyard.items()}
        if self.setup != PLAY:      # (the turn-order rolls change only during the setup: then shared)
            other.order_rounds = [dict(r) for r in self.order_rounds]
        c = self.combat
        if c is not None:
            other.combat = Combat(mon(c.attacker), c.defender, [mon(b) for b in c.able], c.stage,
                                  mon(c.blocker) if c.blocker is not None else None)

    # -- who is where --------------------------------------------------------------------

    def alive_players(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    def owned(self, p: str) -> list[Monster]:
        """``p``'s monsters in the table's order (grouped after a create, destroy or restore; shared)."""
        if self.groups is None:
            self.groups = {}
            for m in self.monsters.values():
                self.groups.setdefault(m.owner, []).append(m)
        return self.groups.get(p, _NONE)

    def find(self, name: str) -> Monster | None:
        """The monster of that name, on the table or destroyed (None: no such monster)."""
        return self.monsters.get(name) or self.graveyard.get(name)

    def alive(self, m: Monster) -> bool:
        return self.monsters.get(m.name) is m

    def next_player(self, after: str | None) -> str | None:
        ps, out = self.players, self.out
        i, n = self.seat.get(after, -1) if after is not None else -1, len(ps)
        for k in range(i + 1, i + 1 + n):       # the seats after ``after``, round the table
            if ps[k % n] not in out:
                return ps[k % n]
        return None

    # -- cards ---------------------------------------------------------------------------

    def take_in(self, p: str, cid: str) -> None:
        """A card dealt or drawn to ``p`` (a replayed log may give it face down)."""
        hand = self.hands[p]
        if cid == HIDDEN:
            hand.hidden += 1
            return
        self.reveal(cid)
        k = hand.known
        k[cid] = k.get(cid, 0) + 1

    def reveal(self, cid: str) -> None:
        """A card becomes known (a count below 0: more copies known than the pile holds)."""
        n = self.unseen[cid] - 1
        if n:
            self.unseen[cid] = n
            if n < 0:
                self.overseen = True
        else:
            self.unseen.pop(cid)            # only cards still unseen are listed (draws iterate them)

    # -- monsters ------------------------------------------------------------------------

    def destroy(self, m: Monster) -> None:
        """BW-ATK-8: the monster and its parts go to the discard pile."""
        if not self.alive(m):
            return
        del self.monsters[m.name]
        self.groups = None
        self.graveyard[m.name] = m
        self.discard += [c.id for c in m.parts]

    def restore(self, m: Monster) -> None:
        if self.alive(m) or m.name in self.monsters:
            return
        self.graveyard.pop(m.name, None)
        for c in m.parts:
            if c.id in self.discard:
                self.discard.remove(c.id)
        self.monsters[m.name] = m
        self.groups = None

    def replace(self, p: str, m: Monster, old: Part | None, new: Part) -> None:
        """BW-CREATE-4 (rulings: where the old part goes, whether damage stays)."""
        if old is not None and old in m.parts:
            i = m.parts.index(old)
            m.set_parts([*m.parts[:i], new, *m.parts[i + 1:]])
            if self.rules.replaced_to == "hand":
                self.hands[p].add(old.id)
            else:
                self.discard.append(old.id)
        else:
            m.add(new)
        if not self.rules.damage_stays:
            m.damage, m.view = 0, None
        m.replaced = self.turn

    # -- players -------------------------------------------------------------------------

    def hurt(self, p: str, n: int, rule: str, out: Outcome) -> None:
        """``p`` loses ``n`` HP; at 0 or less they are out (in ``out.eliminated``)."""
        self.hp[p] -= n
        self.hp_rule[p] = rule
        out.player_dmg[p] = out.player_dmg.get(p, 0) + n
        if self.hp[p] <= 0 and p not in self.out:
            self.eliminate(p)
            out.eliminated.append(p)

    def eliminate(self, p: str) -> None:
        """BW-END-1: out of the game; their monsters go to the discard pile."""
        self.out.append(p)
        self.attacks = {}
        mons = self.lost_with[p] = list(self.owned(p))
        for m in mons:
            self.destroy(m)
        self.check_end(True)

    def uneliminate(self, p: str) -> None:
        if p in self.out:
            self.out.remove(p)
            self.attacks = {}
        for m in self.lost_with.pop(p, []):
            self.restore(m)
        self.check_end(False)

    def check_end(self, ending: bool) -> None:
        """BW-END-2: the game ends when one player remains (``ending``: a player just went out;
        a player back in the game after a log's slip may take the end back)."""
        alive = self.alive_players()
        if len(alive) <= 1 and len(self.players) > 1:
            if not self.over and ending:
                self.winner = alive[0] if alive else None
                self.over = True
        elif self.over:
            self.over, self.winner = False, None

    # -- turns ---------------------------------------------------------------------------

    def begin_turn(self, p: str) -> None:
        self.current, self.begun, self.phase = p, False, "draw"
        self.need, self.drawn, self.edits = min(self.rules.draw_per_turn, self.pile), 0, 0
        for m in self.owned(p):     # BW-ATK-5: attackers may block again from their controller's turn
            if m.tapped:
                m.tapped, m.view = False, None

    # -- combat --------------------------------------------------------------------------

    def unblocked(self, c: Combat, roll: int | None) -> None:
        """BW-ATK-10: the defender takes the Atk, unless their roll beats the attacker's Str."""
        a = c.attacker
        self.combat = None
        out = self.last = Outcome(blow=(a, roll, c.defender))
        if roll is None or roll <= a.str:
            self.hurt(c.defender, a.atk, "BW-ATK-10", out)


# -- the actions -------------------------------------------------------------------------

DEFEND_ROLL = "defend_roll"     # the unblocked defender chooses to roll (not a log event)
DROP_ATTACK = "drop_attack"     # a replayed log leaves an attack unanswered (never legal: the replay's)


@cache
def die(kind: str, sides: int, field: str, player: str | None = None) -> tuple[tuple[Action, float], ...]:
    return tuple(die_outcomes(kind, sides, field, player=player))


@cache
def two_dice(sides: int) -> tuple[tuple[Action, float], ...]:
    """The blocked attack's two dice (made once, shared by every state)."""
    p = 1.0 / (sides * sides)
    return tuple((Action(kind="roll", items=(("attacker", a), ("blocker", b))), p)
                 for a in range(1, sides + 1) for b in range(1, sides + 1))


@cache
def _act(kind: str, *items: tuple[str, Any]) -> Action:
    return Action(kind, items)


@cache
def draws(kind: str, p: str | None) -> Made[Action]:
    return Made(lambda cid: Action(kind, (("player", p), ("card", cid))))


END = Made(lambda p: Action("end_turn", (("player", p),)))     # each player's end of the turn
NAMES = Made(lambda n: f"M{n}")         # the state's names of the monsters it creates, by number


@cache
def blocks(d: str, able: tuple[str, ...]) -> tuple[Action, ...]:
    """``d``'s blocks with the monsters ``able``, then no block."""
    return tuple(_act("block", ("player", d), ("monster", b)) for b in (*able, NO_BLOCK))


@cache
def answers(d: str) -> tuple[Action, Action]:
    """An unblocked defender's answers: take the damage, or roll."""
    return _act("take_damage", ("player", d)), _act(DEFEND_ROLL, ("player", d))


@cache
def _creates(p: str, name: str) -> Made[Action]:
    return Made(lambda cid: Action("create", (("player", p), ("card", cid), ("monster", name))))


@cache
def _edits(p: str, name: str) -> tuple[Made[Action], Made[Action]]:
    """``p``'s adds (by card) and replacements (by card and the part replaced) on monster ``name``."""
    return (Made(lambda cid: Action("add_part", (("player", p), ("monster", name), ("card", cid)))),
            Made(lambda k: Action("replace_part", (("player", p), ("monster", name), ("card", k[0]),
                                                    ("replaces", k[1])))))


@cache
def attacks(p: str, name: str, targets: tuple[str, ...]) -> tuple[Action, ...]:
    return tuple(Action("attack", (("player", p), ("monster", name), ("target", t))) for t in targets)


@cache
def attacks_by(p: str, targets: tuple[str, ...]) -> Made[tuple[Action, ...]]:
    """``p``'s attacks on ``targets``, by the monster attacking (:func:`attacks`, looked up by name)."""
    return Made(lambda name: attacks(p, name, targets))


def edit_actions(self: Any, p: str, cards: list[str]) -> list[Action]:
    """Every create and edit ``p`` may make with ``cards`` at the state ``self`` (BW-CREATE-2…4)."""
    out = list(map(_creates(p, self.next_name()).__getitem__, cards))
    room, kinds = self.rules.max_parts, None
    for m in self.owned(p):
        if kinds is None:
            kinds = list(map(self.kinds.__getitem__, cards))
        adds, replaces = _edits(p, m.name)
        if len(m.parts) < room:
            for cid, old in zip(cards, map(m.types.get, kinds)):
                out.append(adds[cid] if old is None else replaces[cid, old])
        else:
            for cid, old in zip(cards, map(m.types.get, kinds)):
                if old is not None:
                    out.append(replaces[cid, old])
    return out

"""Bone Wars — the game state on the game-state API (:mod:`cardgen.play.api`): its chance nodes,
actions and log in ``docs/engines-bone_wars.md`` ("State and actions")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardgen.games.bone_wars import table
from cardgen.games.bone_wars.rules import Monster, Part, Rules, blocked_combat, meets, tied_highest
from cardgen.games.bone_wars.table import PLAY, SETUP_DEAL, SETUP_ORDER, Combat, Outcome, Table
from cardgen.games.bone_wars.vocab import EDIT_KINDS, NO_BLOCK
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.dice import walk_index
from cardgen.play.view import KeyedView


class BoneWarsState(Table, GameState):
    """One position of a game of Bone Wars: the :class:`Table` and the API over it."""

    def __init__(self, rules: Rules, parts: dict[str, Part], players: list[str], start_hp: int | None = None):
        Table.__init__(self, rules, parts, players, start_hp)
        self.history: list[Action] = []
        self.opening: list[Action] = []     # the setup the header gave (turn-order rolls, deals)
        self.dealt: dict[str, list[str]] = {p: [] for p in self.players}
        self.round: dict[str, int] = {}
        self.stuck = False     # see _end_turn

    # --- setup ---------------------------------------------------------------------------
    def _deal_done(self) -> None:
        if self.setup == SETUP_DEAL and all(len(self.dealt[p]) >= self.rules.hand_size for p in self.players):
            self.start_play()

    def start_play(self) -> None:
        self.setup = PLAY
        if self.rolled_first is not None:
            self.begin_turn(self.rolled_first)

    # --- who acts -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over or self.stuck:
            return TERMINAL
        if self.setup != PLAY:
            return CHANCE
        c = self.combat
        if c is not None:
            return CHANCE if c.stage in ("roll", "defroll") else self.seat[c.defender]
        if self.phase == "draw" and self.drawn < self.need:
            return CHANCE
        return self.seat[self.current] if self.current is not None else TERMINAL

    def _chance(self) -> tuple[tuple[tuple[Action, float], ...], str, str | None]:
        """The chance node here: its equally likely dice, or none and the draw (kind, player)."""
        sides = self.rules.die
        if self.setup == SETUP_ORDER:
            q = next(p for p in self.contenders if p not in self.round)
            return table.die("turn_order_roll", sides, "value", q), "", None
        if self.setup == SETUP_DEAL:
            for p in self.players:
                if len(self.dealt[p]) < self.rules.hand_size:
                    return (), "deal", p
        c = self.combat
        if c is not None:
            dice = table.two_dice(sides) if c.stage == "roll" else table.die("roll", sides, "defender")
            return dice, "", None
        return (), "draw", self.current

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player() != CHANCE:
            return []
        dice, kind, p = self._chance()
        if dice:
            return list(dice)
        acts = table.draws(kind, p)      # (a replayed log may show more copies than there are: n < 0)
        total = sum(n for n in self.unseen.values() if n > 0)      # (``unseen`` keeps its cards in id order)
        return [(acts[cid], n / total) for cid, n in self.unseen.items() if n > 0]

    def sample_chance(self, r: float) -> Action | None:
        """The outcome the walk over :meth:`chance_outcomes` gives ``r``, found without listing
        them: a die by bisecting the walk's own running totals, a draw by its sums over the
        unseen cards (the same float additions, no action made)."""
        if self.over or self.stuck:
            return None
        if self.setup != PLAY:
            dice, kind, p = self._chance()
        elif (c := self.combat) is not None:        # (as :meth:`current_player` and :meth:`_chance` read it)
            if c.stage == "roll":
                dice = table.two_dice(self.rules.die)
            elif c.stage == "defroll":
                dice = table.die("roll", self.rules.die, "defender")
            else:
                return None
            return dice[walk_index(len(dice), r)][0]
        elif self.phase != "draw" or self.drawn >= self.need:
            return None
        else:
            dice, kind, p = (), "draw", self.current
        if dice:
            return dice[walk_index(len(dice), r)][0]
        deck = self.unseen
        if not deck or self.overseen:       # none left, or a replayed log revealed too many
            return GameState.sample_chance(self, r)
        total, acc, acts = sum(deck.values()), 0.0, table.draws(kind, p)
        for cid, n in deck.items():
            acc += n / total
            if r < acc:
                return acts[cid]
        return acts[next(reversed(deck))]

    def on_table(self, name: str) -> Monster:
        """The monster named (one destroyed that a replayed log plays on comes back, as recorded)."""
        m = self.monsters.get(name)
        if m is None:
            m = self.graveyard[name]
            self.restore(m)
        return m

    def next_name(self) -> str:
        n = self.created + 1
        while (name := table.NAMES[n]) in self.monsters or name in self.graveyard:
            n += 1
        return name

    def hand_cards(self, p: str) -> list[str]:
        """The cards ``p`` could play: those known in hand, and any unseen one for a hidden card."""
        hand = self.hands[p]
        if not hand.hidden:
            return sorted(hand.known)       # (a hand keeps no card at 0)
        return sorted(set(hand.known) | {c for c, n in self.unseen.items() if n > 0})

    def legal_actions(self) -> list[Action]:
        if self.over or self.stuck or self.setup != PLAY:
            return []
        c = self.combat
        if c is not None:
            d = c.defender
            if c.stage == "block":
                return list(table.blocks(d, tuple([b.name for b in c.able])))
            if c.stage == "choice":
                return list(table.answers(d))
            return [] if c.stage in ("roll", "defroll") else [table.answers(d)[0]]
        p = self.current
        if p is None or (self.phase == "draw" and self.drawn < self.need):
            return []
        out: list[Action] = []
        if self.phase != "destroy" and self.edits < self.rules.edits_per_turn:
            cards = self.hand_cards(p)
            if cards:
                out = table.edit_actions(self, p, cards)
        turn, by = self.turn, None
        for m in self.owned(p):     # BW-ATK-2, BW-CREATE-6
            if m.attacked != turn and (m.born != turn and m.replaced != turn or "haste" in m.traits):
                if by is None:
                    by = self.attacks.get(p)
                    if by is None:
                        foes = tuple([t for t in self.players if t != p and t not in self.out])
                        by = self.attacks[p] = table.attacks_by(p, foes)
                out += by[m.name]
        out.append(table.END[p])
        return out

    # --- apply --------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        try:
            play, p, f = getattr(action, _BOUND)
        except AttributeError:
            play = _PLAY.get(action.kind)
            if play is None:
                raise ValueError(f"not a Bone Wars action: {action}") from None
            f = dict(action.items)
            p = f.get("player")         # (every player's action names them)
            object.__setattr__(action, _BOUND, (play, p, f))    # (not via ``__dict__``: reads stay fast)
        play(self, p, f)

    def _turn_order_roll(self, p: str, f: Mapping[str, Any]) -> None:
        self.round[p] = f["value"]
        if all(q in self.round for q in self.contenders):
            self.order_rounds.append(self.round)
            tied, self.round = tied_highest(self.rules, self.players, self.round), {}
            self.contenders = [] if len(tied) == 1 else tied
            if len(tied) == 1:
                self.rolled_first, self.setup = tied[0], SETUP_DEAL
                self._deal_done()

    def _deal(self, p: str, f: Mapping[str, Any]) -> None:
        card = f["card"]
        self.dealt[p].append(card)
        self.take_in(p, card)
        self.pile -= 1
        if len(self.dealt[p]) >= self.rules.hand_size:      # (a hand still short: the deal goes on)
            self._deal_done()

    def _draw(self, p: str, f: Mapping[str, Any]) -> None:
        self.begun = True
        self.take_in(p, f["card"])
        self.pile = max(0, self.pile - 1)
        self.drawn += 1
        if self.phase == "draw" and self.drawn >= self.need:
            self.phase = "create"

    def _attack(self, p: str, f: Mapping[str, Any]) -> None:
        self.begun = True
        m, to = self.on_table(f["monster"]), f["target"]
        if p == self.current:       # (a replayed log's attack out of turn leaves the turn as it was)
            self.phase = "destroy"
        m.attacked, m.tapped, m.view, ta = self.turn, True, None, m.traits     # BW-ATK-4, 5: who may block
        able = [b for b in self.owned(to) if (not b.tapped or "vigilant" in b.traits) and meets(ta, b.traits)]
        self.combat = Combat(m, to, able)

    def _drop_attack(self, p: str, f: Mapping[str, Any]) -> None:
        self.combat = None

    def _defend_roll(self, p: str, f: Mapping[str, Any]) -> None:
        assert self.combat is not None
        self.combat.stage = "defroll"

    def _take_damage(self, p: str, f: Mapping[str, Any]) -> None:
        assert self.combat is not None
        self.unblocked(self.combat, None)

    def _end_turn(self, p: str, f: Mapping[str, Any]) -> None:
        self.turn += 1
        nxt = f.get("to") or self.next_player(self.current)     # ``to``: a replayed log hands the turn on
        if nxt is not None:
            self.begin_turn(nxt)
        if self.pile == 0 and not self.monsters and not any(self.hands[q].size for q in self.alive_players()):
            self.stuck = True   # ruling: with no monster, card or pile left nobody can act again (unfinished)

    def _edit(self, p: str, f: Mapping[str, Any]) -> Part:
        """The card of a create or an edit played from ``p``'s hand (the turn's edit counted)."""
        if p == self.current:       # (a replayed log's edit out of turn leaves the turn as it was)
            self.begun = True
            if self.phase == "draw":
                self.phase = "create"
            self.edits += 1
        part, hand = self.parts[f["card"]], self.hands[p]
        if not hand.known[part.id]:     # from a hidden card, or one the hand cannot hold (as recorded)
            self.reveal(part.id)
        hand.take(part.id)
        return part

    def _create(self, p: str, f: Mapping[str, Any]) -> None:
        part, name = self._edit(p, f), f["monster"]
        self.graveyard.pop(name, None)
        self.monsters[name], self.groups = Monster(name, p, [part], self.turn), None
        self.created += 1

    def _add_part(self, p: str, f: Mapping[str, Any]) -> None:
        part, m = self._edit(p, f), self.on_table(f["monster"])
        m.add(part)

    def _replace_part(self, p: str, f: Mapping[str, Any]) -> None:
        part, m, gone = self._edit(p, f), self.on_table(f["monster"]), f.get("replaces")
        old = next((x for x in m.parts if x.id == gone), None) or \
            next((x for x in m.parts if x.part == part.part), None)
        self.replace(p, m, old, part)
        if m.damage >= m.hp:        # BW-ATK-8: its damage now reaches its HP
            self.destroy(m)

    def _block(self, p: str, f: Mapping[str, Any]) -> None:
        name = f["monster"]
        c = self.combat
        assert c is not None
        if name == NO_BLOCK:
            c.stage = "declined" if c.able else "choice"
        else:
            c.blocker = self.on_table(name)
            c.stage = "roll"

    def _roll(self, p: str | None, f: Mapping[str, Any]) -> None:
        c = self.combat
        assert c is not None
        if "attacker" not in f:
            self.unblocked(c, f["defender"])
            return
        a, b, ra, rb = c.attacker, c.blocker, f["attacker"], f["blocker"]     # BW-ATK-6…9
        assert b is not None
        self.combat = None
        res, before = blocked_combat(self.rules, a, b, ra, rb), b.hp_left
        out = self.last = Outcome((a, b, ra, rb, res, before))
        if res.block_total <= res.attack_total:
            b.damage += res.damage
            b.view = None
            out.monster_dmg[b.name] = res.damage
            if b.damage >= b.hp and self.alive(b):
                self.destroy(b)
                out.destroyed.append(b.name)
                if "trample" in a.traits and res.damage > before:
                    self.hurt(b.owner, res.damage - before, "BW-ATK-9", out)

    # --- the end, observations, the log ------------------------------------------------
    def returns(self) -> list[float]:
        return [1.0 if self.over and p == self.winner else 0.0 for p in self.players]

    def result(self) -> dict[str, Any]:
        mons = {**self.graveyard, **self.monsters}
        return {
            "winner": self.winner,
            "first_mover": self.rolled_first,       # the turn-order d20's winner (BW-SETUP-3)
            "hp": dict(self.hp),
            "eliminated": list(self.out),
            "players": {p: {"hp": self.hp[p], "eliminated": p in self.out,
                            "hand": self.hands[p].size, "monsters": [m.name for m in self.owned(p)]}
                        for p in self.players},
            "monsters": {m.name: {"owner": m.owner, "parts": [c.id for c in m.parts], "damage": m.damage,
                                  "str": m.str, "def": m.def_, "atk": m.atk, "hp": m.hp_left,
                                  "traits": sorted(m.traits), "destroyed": not self.alive(m)}
                         for m in mons.values()},
            "turns": self.turn if self.begun else self.turn - 1,
            "pile": self.pile,
        }

    def observation(self, player: int) -> KeyedView:
        """What ``player`` may see (:data:`SEE`: ``me`` and ``hand`` theirs only), each key computed
        when first read; read it at once: it refuses once the state has moved on."""
        return KeyedView(self, SEE, self.players[player])

    def log_header(self) -> dict[str, Any]:
        head: dict[str, Any] = {"game": "bone_wars", "players": list(self.players),
                                "turn_order_rolls": [dict(r) for r in self.order_rounds],
                                "deals": {p: list(cs) for p, cs in self.dealt.items()}}
        if self.start_hp != self.rules.start_hp:
            head["starting_hp"] = self.start_hp
        return head

    def log_events(self) -> list[dict[str, Any]]:
        """The log of the game so far, written by replaying it on a twin (random play and search
        never build an event): each action as its event, with the consequences it states."""
        twin, events = BoneWarsState(self.rules, self.parts, self.players, self.start_hp), []
        for a in self.opening:
            twin.apply_action(a)
        for a in self.history:
            twin.apply_action(a)
            events += twin.written(a)
        return events

    def written(self, a: Action) -> list[dict[str, Any]]:
        """The log's events of ``a``, just applied: its own, then the consequences it states."""
        if a.kind in _UNWRITTEN:
            return []
        ev, out, mons = a.as_event(), self.last, {**self.graveyard, **self.monsters}
        if a.kind in EDIT_KINDS:
            m = mons[a["monster"]]
            ev.update(stats={"str": m.str, "def": m.def_, "atk": m.atk, "hp": m.hp}, traits=sorted(m.traits))
            return [ev] + ([{"kind": "destroyed", "monster": m.name}] if not self.alive(m) else [])
        if a.kind == "end_turn":
            ev["hp"] = dict(self.hp)
        if a.kind not in ("roll", "take_damage") or out is None:
            return [ev]
        evs = [ev]
        if a.kind == "take_damage":
            ev.update(damage=out.player_dmg.get(a["player"], 0), hp_left=self.hp[a["player"]])
        else:
            evs += [{"kind": "damage", "monster": n, "amount": d, "hp_left": mons[n].hp_left}
                    for n, d in out.monster_dmg.items()]
            evs += [{"kind": "destroyed", "monster": n} for n in out.destroyed]
            evs += [{"kind": "damage", "player": q, "amount": d, "hp_left": self.hp[q]}
                    for q, d in out.player_dmg.items()]
        return evs + [{"kind": "eliminated", "player": q} for q in out.eliminated]

    def clone(self, dealt: tuple[str, ...] = ()) -> BoneWarsState:     # (``dealt``: see Table.copy_table)
        twin = BoneWarsState.__new__(BoneWarsState)
        self.copy_table(twin, dealt)
        twin.history, twin.opening = list(self.history), self.opening
        if self.setup != PLAY:      # (the deal and the rolls change only during the setup: then shared)
            twin.dealt, twin.round = {p: list(cs) for p, cs in self.dealt.items()}, dict(self.round)
        return twin


Play = Callable[[BoneWarsState, Any, Mapping[str, Any]], None]

#: how each action kind plays on the state
_PLAY: dict[str, Play] = {k: getattr(BoneWarsState, "_" + k) for k in (
    "turn_order_roll", "deal", "draw", "attack", "block", table.DROP_ATTACK, table.DEFEND_ROLL, "roll",
    "take_damage", "end_turn", *EDIT_KINDS)}

#: how an action plays, kept on it once applied (its move, player and fields; a memo beside its value,
#: which its equality and hash ignore: the state's own actions are made once and met again)
_BOUND = "bone_wars_move"

#: the actions the log leaves unwritten: the header's setup, the defender's choice to roll, the replay's own
_UNWRITTEN = ("turn_order_roll", "deal", table.DEFEND_ROLL, table.DROP_ATTACK)

#: each key of an observation: (the state, the player seeing it) → what they see (``monsters``: name →
#: owner, Str, Def, Atk, HP left, Traits, attacked; ``combat``: attacker, defender, stage, blocker)
SEE: dict[str, Callable[[BoneWarsState, str], Any]] = {
    "me": lambda s, me: me, "players": lambda s, me: list(s.players), "turn": lambda s, me: s.turn,
    "current": lambda s, me: s.current, "phase": lambda s, me: s.phase,
    "edits_left": lambda s, me: s.rules.edits_per_turn - s.edits, "hp": lambda s, me: dict(s.hp),
    "out": lambda s, me: [p for p in s.players if p in s.out], "hand": lambda s, me: s.hands[me].cards(),
    "hand_sizes": lambda s, me: {p: h.size for p, h in s.hands.items()}, "pile": lambda s, me: s.pile,
    "discard": lambda s, me: len(s.discard),
    "monsters": lambda s, me: {name: m.view or m.seen() for name, m in s.monsters.items()},    # (kept views)
    "combat": lambda s, me: None if s.combat is None else (
        s.combat.attacker.name, s.combat.defender, s.combat.stage,
        s.combat.blocker.name if s.combat.blocker is not None else None),
}

"""Loot & Battles, the playable state's fights: whose turn it is in a round, the attacks a
player may make (a turn's offer read once: :class:`Turn`), the blows resolved with the rules of
``rules.py``, and how rounds, Encounters, Battles and the game end. Each resolved blow is written
as a log event with its stated consequences.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from cardgen.content.model import Card
from cardgen.core.record import record
from cardgen.games.loot_battles.rules import Rules
from cardgen.games.loot_battles.state import Battle, Encounter, Enemy, Fighter, Player
from cardgen.play.api import Action

NONE: frozenset = frozenset()       # no marks yet (an Encounter's are frozensets: a copy shares them)


def as_event(a: Action) -> dict[str, Any]:
    """``a.as_event()``, without its generic thaw when no field is a tuple (a pass, a heal, an equip)."""
    ev = {"kind": a.kind}
    for k, v in a.items:
        if type(v) is tuple:
            return a.as_event()
        ev[k] = v
    return ev


@record(slots=True, eq=False)
class Turn:
    """What a player's turn offers, read once per player, class, rolls used and kit: whether they
    attack only in Melee (the enemies in front first), each roll left (its weapons, most hits,
    never missing), the attacks made of them so far by targets allowed, the Healing spells, the
    ``pass`` and the ``end_turn``, and the heals made of the spells by the players standing."""
    melee: bool
    rolls: list[tuple[Any, int, bool]]
    made: dict[tuple, list[Action]]
    healers: list[Card]
    pass_: Action
    end: Action
    heals: dict[tuple, list[Action]]


class Fight:
    """The combat part of :class:`.play.LootState` and its ends (a mixin over its attributes)."""

    rules: Rules
    seats: list[Player]
    seat_of: dict[str, int]
    leader: int
    battle: Battle | None
    events: list[dict[str, Any]]
    record: bool
    turn_open: str | None
    knockouts: Counter
    rounds_played: int
    pending: dict[str, Any] | None
    winner: str | None
    phase: str
    stalemate: bool
    battles_won: int
    target: int
    loot_due: int

    def _by(self, name: str) -> Player:
        return self.seats[self.seat_of[name]]

    def fighter(self, name: Any) -> Fighter | None:
        """The player called ``name``, or the enemy so called in the Encounter fought or, failing
        that, an earlier one of the Battle (the latest first): a blow's target or attacker."""
        if name in self.seat_of:
            return self.seats[self.seat_of[name]]
        b = self.battle
        for enc in reversed(b.queue[: b.index + 1] if b is not None else []):
            for e in enc.enemies:
                if e.name == name:
                    return e
        return None

    def encounter(self) -> Encounter | None:
        """The Encounter of the Battle in progress (None: no Battle, or its last one is over)."""
        return self.battle.current if self.battle is not None else None

    def fighting(self) -> Encounter | None:
        """The Encounter fought while no blow is under way (where a log's slip is followed), or None."""
        b = self.battle
        return b.queue[b.index] if self.phase == "fight" and b is not None and self.pending is None else None

    # -- who acts -------------------------------------------------------------------------

    def _next_in_round(self, enc: Encounter) -> Player | Enemy | None:
        """The player to act, or the enemy to attack next; None when the round is complete."""
        seats, acted = self.seats, enc.acted       # LB-RND-1's order, walked without a list (hot path)
        attacked, excused, enemies = enc.attacked, enc.excused, enc.enemies
        n, lead = len(seats), self.leader
        for i in range(n):
            q = seats[(lead + i) % n]
            if q.ko:
                continue
            name = q.name
            if name not in acted:
                return q
            for e in enemies:
                if not e.ko and e.front == name and e.name not in attacked and e.name not in excused:
                    return e
        return None

    def _enemies_due(self, enc: Encounter, nxt: Any = False) -> list[Enemy]:
        """The enemies that attack now: all not yet attacked in front of the first player whose
        turn is over (in any order — the seed fixes none). ``nxt``: who is next, when known."""
        if nxt is False:
            nxt = self._next_in_round(enc)
        if not isinstance(nxt, Enemy):
            return []
        front, attacked, excused = nxt.front, enc.attacked, enc.excused
        return [e for e in enc.enemies if e.front == front and not e.ko and e.name not in attacked
                and e.name not in excused]

    # -- a player's options -----------------------------------------------------------------

    def _unused(self, p: Player, enc: Encounter) -> dict[int, list[Card]]:
        used = enc.used.get(p.name, NONE)
        groups = self.rules.groups(p)
        if not groups:
            return {} if "class" in used else {self.rules.dice_of(None, p): []}
        return {n: g for n, g in groups.items() if not any(c.id in used for c in g)}

    def _attacks(self, p: Player, enc: Encounter, turn: Turn) -> list[Action]:
        """The attacks ``p`` may make now: the rolls left (``turn``: read once per player, class, kit
        and rolls used) against the enemies allowed (made once per such rolls and targets)."""
        name, r = p.name, self.rules
        alive = tuple([e.name for e in enc.enemies if not e.ko])
        allowed = alive
        if turn.melee:       # only Melee: the enemies in front, if any
            allowed = tuple([e.name for e in enc.enemies if not e.ko and e.front == name]) or alive
        out = turn.made.get(allowed)
        if out is None:
            out = turn.made[allowed] = []
            for with_, hits, never in turn.rolls:
                out += [r.attack(name, t, with_) for t in allowed]
                for k in range(2, min(hits, len(allowed)) + 1) if never else ():
                    out += [r.attack(name, ts, with_) for ts in combinations(allowed, k)]
        return out

    def _spec(self, p: Player, enc: Encounter) -> Turn:
        """:meth:`_roll_spec`, read once per player, class, rolls used and kit."""
        key = (p.name, p.cls.id if p.cls else None, enc.used.get(p.name) or None, *p.equipment)
        r = self.rules
        spec = r.roll_specs.get(key)
        if spec is None:
            if len(r.roll_specs) > 100_000:
                r.roll_specs.clear()
                r.made.clear()
            spec = r.roll_specs[key] = self._roll_spec(p, enc)
        return spec

    def _roll_spec(self, p: Player, enc: Encounter) -> Turn:
        r = self.rules
        rolls = [(tuple(c.id for c in items) or None, *r.reach(items))
                 for _, items in sorted(self._unused(p, enc).items())]
        made = r.made.setdefault((p.name, *rolls), {})     # shared by every kit with these rolls
        return Turn(r.melee_only(p), rolls, made, r.healers(p), r.act("pass", player=p.name),
                    r.act("end_turn", player=p.name), {})

    def _heals(self, p: Player, turn: Turn) -> list[Action]:
        """Each Healing spell on each other player standing (made once per those players)."""
        if not turn.healers:
            return []
        others = tuple([q.name for q in self.seats if q is not p and not q.ko])
        out = turn.heals.get(others)
        if out is None:
            out = turn.heals[others] = [self.rules.act("heal", player=p.name, target=q, **{"with": c.id})
                                        for c in turn.healers for q in others]
        return out

    # -- blows ------------------------------------------------------------------------------

    def _start_attack(self, a: Action, enc: Encounter) -> None:
        p = self._by(a["player"])
        roll = self.rules.roll(p, a.get("with"))
        names = list(a.get("targets") or ()) or [a["target"]]
        targets = [enc.enemy(n) for n in names]
        n, name = roll.dice, p.name
        enc.acted.add(name)
        enc.turn[name] = enc.turn.get(name, NONE) | {"attack"}
        enc.used[name] = enc.used.get(name, NONE) | roll.marks
        enc.used_dice[name] = enc.used_dice.get(name, NONE) | {n}
        self.turn_open = name
        self.pending = {"kind": "attack", "player": p, "targets": targets, "items": roll.items, "n": n, "dice": [],
                        "names": names, "roll": roll}
        if n == 0:
            self._resolve()

    def _start_enemy_attack(self, e: Enemy, enc: Encounter, target: str | None = None) -> None:
        """``target``: a log's enemy attacking a player other than its own, replayed as recorded."""
        enc.attacked.add(e.name)
        n = self.rules.foe(e.card)[0] if e.card else 1
        self.pending = {"kind": "enemy_attack", "enemy": e, "target": self._by(target or e.front), "n": n,
                        "dice": []}

    def _resolve(self) -> None:
        pend, self.pending = self.pending, None
        assert pend is not None and self.battle is not None
        enc = self.battle.queue[self.battle.index]
        total = sum(pend["dice"]) if pend["n"] else None
        if pend["kind"] == "attack":
            self._resolve_attack(pend, enc, total)
        else:
            self._resolve_enemy_attack(pend, enc, total or 0)
        if enc.cleared() and not enc.done and self.winner is None:
            # the blow that knocked out the last player may also have slain the last enemy (a
            # Mirror Aegis reflecting it): the party is out, the game lost, no Encounter won
            self._end_encounter(enc)

    @staticmethod
    def _claims(ev: dict[str, Any], t: Fighter, hit: bool, dmg: int | None) -> None:
        ev["hit"] = hit
        if hit:
            ev["damage"] = dmg
        ev["hp_left"], ev["armor_left"] = t.health, t.armor
        ev["dodge_left"], ev["ko"] = t.dodge, t.health <= 0

    def _resolve_attack(self, pend: dict[str, Any], enc: Encounter, total: int | None) -> None:
        r, p, roll = self.rules, pend["player"], pend["roll"]
        items, hits, never = roll.items, roll.hits, roll.never
        targets = pend["targets"]
        if never and len(targets) < hits:
            targets = (targets * hits)[:hits]
        one = None      # a single target's blow: (it, hit, damage), as the log states it
        for t in targets:
            if t.ko:        # a repeated target already defeated by this attack's first hit
                continue
            hit = True if never else total is not None and total > t.dodge
            dmg = None
            if not hit:
                r.miss(t)
            else:
                dmg = roll.plain if roll.plain is not None else r.damage(items, total, t, p, explain=False)[0]
                r.hurt(t, dmg)
                for heal in roll.heals:
                    p.health = min(p.max_health, p.health + heal)
            if len(targets) == 1:
                one = (t, hit, dmg)
            if t.health <= 0:
                t.ko = True
        if self.record:
            self._attack_event(pend, one)
        if enc.cleared() or not self._spec(p, enc).rolls:       # no roll left: the turn is over
            self.turn_open = None

    def _attack_event(self, pend: dict[str, Any], one: tuple[Fighter, bool, int | None] | None) -> None:
        """The log event of a resolved attack, its stated consequences when it had one target."""
        roll = pend["roll"]
        ev: dict[str, Any] = {"kind": "attack", "player": pend["player"].name}
        if len(pend["names"]) == 1:
            ev["target"] = pend["names"][0]
        else:
            ev["targets"] = pend["names"]
        if roll.items:
            ev["with"] = list(roll.used)
        if pend["n"]:
            ev["dice"] = list(pend["dice"])
        if one is not None:
            self._claims(ev, *one)
        self.events.append(ev)

    def _resolve_enemy_attack(self, pend: dict[str, Any], enc: Encounter, total: int) -> None:
        r, e, t = self.rules, pend["enemy"], pend["target"]
        hit = total > t.dodge
        dmg = None
        if not hit:
            r.miss(t)
        else:
            dmg = r.foe(e.card)[1] if e.card else 0
            r.hurt(t, dmg)
            for frac in r.kit_effects(t, "reflect"):
                back = int(dmg * float(frac))
                if back:
                    r.hurt(e, back)
                    if e.health <= 0:
                        e.ko = True
        if self.record:
            ev: dict[str, Any] = {"kind": "enemy_attack", "enemy": e.name, "target": t.name, "dice": list(pend["dice"])}
            self._claims(ev, t, hit, dmg)
            self.events.append(ev)
        if t.health <= 0:
            t.health = 0
            self._knock_out(t, enc)

    def _knock_out(self, p: Player, enc: Encounter) -> None:
        p.ko = True
        self._unshare()
        self.knockouts[enc.card.id] += 1
        nxt = self.rules.left_of(self.seats, p)
        if nxt is None:
            self._lose()
            return
        for e in enc.alive():
            if e.front == p.name:
                e.front = nxt.name
                if nxt.name in enc.acted:
                    enc.excused.add(e.name)

    # -- ends -----------------------------------------------------------------------------

    def _end_round(self, enc: Encounter) -> None:
        self.rules.end_of_round(list(self.seats), enc.alive())
        self.events.append({"kind": "round_end", "round": enc.round})
        self.rounds_played += 1
        enc.round += 1
        if self.rules.max_rounds and enc.round > self.rules.max_rounds:
            self._stalemate()
        enc.acted, enc.attacked, enc.excused = set(), set(), set()
        enc.turn, enc.used, enc.used_dice = {}, {}, {}

    def _end_encounter(self, enc: Encounter) -> None:
        b = self.battle
        assert b is not None
        enc.done = True
        self.rounds_played += 1
        self.turn_open = None
        self.rules.end_of_round(list(self.seats), enc.alive())
        self.leader = (self.leader + 1) % len(self.seats)
        self.events.append({"kind": "leader_passed", "to": self.seats[self.leader].name})
        b.index += 1
        if b.current is None:
            self._win_battle()

    def _win_battle(self) -> None:
        b = self.battle
        assert b is not None
        self.battles_won += 1
        for p in self.seats:
            p.recover()
        self.battle = None
        self.events.append({"kind": "battle_end", "result": "won", "battles_won": self.battles_won})
        self.loot_due = int(b.first.get("loot") or 0)
        if self.battles_won >= self.target:
            self.winner = "players"
            if not self.rules.final_loot:
                self.phase = "over"
                return
        self.phase = "loot"
        self._enter()

    def _stalemate(self) -> None:
        """Neither side can hurt the other (e.g. Armor above every blow, restored each round):
        the game stops unfinished, with no winner (``simulate.max_rounds``)."""
        self.phase = "over"
        self.stalemate = True

    def _lose(self) -> None:
        self.winner = "enemies"
        self.phase = "over"
        self.pending = None
        self.events.append({"kind": "battle_end", "result": "lost", "battles_won": self.battles_won})

    @staticmethod
    def _remap(pend: dict[str, Any], new: Fight) -> dict[str, Any]:
        """A pending blow's fighters, as the clone's own objects."""
        enc = new.battle.current if new.battle is not None else None
        foes = {e.name: e for e in enc.enemies} if enc is not None else {}
        out = dict(pend, dice=list(pend["dice"]))
        for k in ("player", "target"):
            if k in out and isinstance(out[k], Player):
                out[k] = new._by(out[k].name)
        if "enemy" in out:
            out["enemy"] = foes[out["enemy"].name]
        if "targets" in out:
            out["targets"] = [foes[t.name] for t in out["targets"]]
        return out

    def _unshare(self) -> None: ...

    def _enter(self) -> None: ...

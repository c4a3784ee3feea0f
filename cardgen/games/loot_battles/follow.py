"""Loot & Battles on the shared referee: keeping the state in step with a log's own words.

The state writes its own markers (``round_end``, ``battle_end``, ``leader_passed``) as it plays;
a log writes them too. :class:`Follow` pairs each of the log's markers with the state's own one
and compares what the log states (a round's number, a Battle's result, the Battles won, the new
Leader) — then follows the log's numbering, so a number one slip shifted is reported once, not
at every later marker. A blow's stated Health, Armor and Dodge are followed the same way: one
wrong number is one problem, and the replay goes on from the table's value.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from cardgen.games.loot_battles.play import LootState
from cardgen.games.loot_battles.state import Encounter, Fighter, Player
from cardgen.games.loot_battles.trace import roll_name
from cardgen.games.loot_battles.turns import Turns
from cardgen.games.loot_battles.whynot import defeated
from cardgen.play.replay import Finding
from cardgen.play.resync import slip_settled

#: a fighter's value after a round → the rule a wrong one breaks
AFTER_ROUND = {"health": "LB-DMG-1", "armor": "LB-RND-1", "dodge": "LB-ATK-3"}

#: a blow's stated values → the fighter's attribute they set
FOLLOWED = {"hp_left": "health", "armor_left": "armor", "dodge_left": "dodge"}


def restored_slip(t: Fighter | None, stated: Any, field: str) -> Finding | None:
    """LB-ENC-1: a stated Dodge that is what it would be had the table restored it when the
    reinforcement began (only Armor is restored between a Battle's Encounters) — named, and the
    replay goes on from the table's value."""
    r = t.restored if isinstance(t, Player) else None
    if not isinstance(t, Player) or r is None or stated is None or stated == t.dodge or stated != r["dodge"]:
        return None
    out = Finding("LB-ENC-1", f"the log says {t.name}'s Dodge is {stated}, as if restored to {t.max_dodge} when "
                              f"{r['card']} began; between the Encounters of a Battle only Armor is restored, so "
                              f"{t.name}'s Dodge went on from {r['dodge0']} and is {t.dodge}", field)
    t.dodge, t.restored = r["dodge"], None
    return out


def mark_restored(state: LootState) -> None:
    """After a placement: what each player's Health and Dodge would be had the table restored them
    (a reinforcement's start), or nothing (a Battle's first Encounter)."""
    enc = state._enc()
    for p in state.seats:
        p.restored = None
        if enc.reinforcement and not p.ko and (p.health, p.dodge) != (p.max_health, p.max_dodge):
            p.restored = {"health": p.max_health, "dodge": p.max_dodge, "health0": p.health, "dodge0": p.dodge,
                          "card": enc.card.name}


def end_encounter(state: LootState, enc: Encounter) -> str:
    """The log ends ``enc`` while its enemies still stand, and the state follows: who stood."""
    alive = [e.name for e in enc.enemies if not e.ko]
    for e in enc.enemies:
        e.ko = True
    state.turn_open = None
    state._end_encounter(enc)
    state._cp, state._nxt = None, False
    return ", ".join(alive)


class Follow(Turns):
    """What one replay has seen of the state's markers, and the log's numbering shifts."""

    def __init__(self) -> None:
        self.seen = 0               # the state's events already paired with the log's
        self.round_shift = 0        # the log's round numbers minus the state's
        self.battles_shift = 0      # the log's Battles won minus the state's
        self.round_before = 0       # the round in progress before the event (an Encounter may end in it)
        self.pending: tuple[Mapping[str, Any], int] | None = None    # a blow not yet followed, and where
        self.marks_rounds = False   # the log writes round_end markers: a second turn in a round is a slip in it
        self.ended = False          # an event after the end was reported
        self.fronts: dict[str, str] = {}    # the enemies' players before an enemy's attack
        self.down: set[str] = set()         # the players knocked out before it
        #: a stated value's slip, stated minus the rules' value (:func:`cardgen.play.resync.slip_settled`:
        #: a value the game would have without the last slip of it needs no report)
        self.offsets: dict[tuple[Any, str], int] = {}
        self.skipped: tuple[tuple[int, int], set[str]] = ((0, 0), set())     # (Encounter, round) → names
        #: a blow's stated values followed as recorded (None: held back until read, :mod:`.reading`)
        self.believe: bool | None = True
        self.held: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None

    def copy(self) -> Follow:
        """This replay's view for a copy of it to look ahead with (see :mod:`.reading`)."""
        c = copy.copy(self)
        c.fronts, c.down, c.offsets = dict(self.fronts), set(self.down), dict(self.offsets)
        c.skipped = (self.skipped[0], set(self.skipped[1]))
        return c

    def before(self, state: LootState, event: Mapping[str, Any]) -> None:
        """Before ``event`` is played: the last blow followed (its claims were not compared when
        the replay rejected one of its actions), and the state's round noted."""
        if self.pending is not None:
            last, mark = self.pending
            mine = next((e for e in reversed(state.events[mark:]) if e["kind"] == last["kind"]), None)
            if mine is not None:
                self.blow(state, last, mine)
        self.pending = (event, len(state.events)) if event["kind"] in ("attack", "enemy_attack") else None
        self.marks_rounds |= event["kind"] == "round_end"
        enc = state.encounter()
        if enc is not None and enc.placed:
            self.round_before = enc.round
            if event["kind"] == "enemy_attack":     # where the enemies stand, should the log's target stay up
                self.fronts = {e.name: e.front for e in enc.enemies}
                self.down = {p.name for p in state.seats if p.ko}

    def gone(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        """A blow there is nothing to play for: an enemy the rules defeated attacking, or a player's
        roll again after the round the state closed with it (the log has not ended it yet)."""
        enc = state.fighting()
        if enc is None:
            return []
        if event["kind"] == "enemy_attack":
            foe = enc.foe(event.get("enemy"))
            return [Finding("LB-DMG-1", f"{foe.name} was defeated and removed: it does not attack")] \
                if foe is not None and foe.ko else []
        name = event.get("player")
        if event["kind"] != "attack" or name in enc.acted or not self.marks_rounds \
                or all(e["kind"] != "round_end" for e in state.events[self.seen:]):
            return []
        last = next((e for e in reversed(state.events) if e["kind"] != "round_end"), None)
        if last is None or last is state.events[-1] or last["kind"] != "attack" or last["player"] != name:
            return []
        targets = list(event.get("targets") or ()) or [event.get("target")]
        what = roll_name(state, last)
        return [Finding("LB-ATK-2", f"{name} already rolled {what} this turn (one roll per weapon)"),
                *defeated(enc, targets)]

    def _mine(self, state: LootState, kind: str) -> dict[str, Any] | None:
        """The state's next own event of ``kind`` the log has not yet matched (and those before it)."""
        for i in range(self.seen, len(state.events)):
            if state.events[i]["kind"] == kind:
                self.seen = i + 1
                return state.events[i]
        return None

    def after_end(self, state: LootState, kind: str) -> Finding | None:
        """The first event after the game has ended is LB-END-1; the rest follow from it."""
        if self.ended:
            return None
        self.ended = True
        how = "the players won" if state.winner == "players" else "the players lost"
        return Finding("LB-END-1", f"event '{kind}' after the game has ended ({how})")

    def marker(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        kind = event["kind"]
        if state.is_terminal() and self.seen >= len(state.events):      # nothing of the state's left to match
            late = self.after_end(state, kind)
            return [late] if late is not None else []
        if kind == "battle_end" and all(e["kind"] != "battle_end" for e in state.events[self.seen:]):
            return self._early_battle_end(state, event)
        if kind == "round_end":
            return self._round_end(state, event)
        if kind == "battle_end":
            return self._battle_end(state, event)
        if kind == "leader_passed":
            return self._leader_passed(state, event)
        if kind == "encounter_end" and all(e["kind"] != "leader_passed" for e in state.events[self.seen:]):
            return self._early_encounter_end(state)
        return []

    @staticmethod
    def _early_encounter_end(state: LootState) -> list[Finding]:
        """The log ends an Encounter whose enemies still stand: named, and ended as recorded."""
        enc = state.fighting()
        if enc is None:
            return []
        alive = end_encounter(state, enc)
        return [Finding("LB-ENC-1", f"the Encounter ends, but an Encounter ends when its enemies are all defeated; "
                                    f"{alive} still stand(s)")]

    def _round_end(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        """A round's marker: its number as the rules give it (a slip's shift followed, named once)."""
        mine = self._mine(state, "round_end")
        enc = state.encounter()
        now = enc.round if enc is not None else None
        early = self._early_end(state) if mine is None else None
        if early is not None:           # the round the log ends early: its number too
            return [*self._number(event.get("round"), now or self.round_before), early, *self._after(state, event)]
        computed = mine["round"] if mine is not None else self.round_before
        if mine is not None and any(e["kind"] in ("attack", "enemy_attack", "heal", "pass")
                                    for e in state.events[self.seen:]):
            computed = now or computed  # a marker written after the next round began: that round's number
        return [*self._number(event.get("round"), computed), *self._after(state, event)]

    def _after(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        """The fighters' values the log states after a round (``state``), as the table has them
        (followed as recorded)."""
        out = []
        for name, vals in (event.get("state") or {}).items():
            who = state.fighter(name)
            for k, v in (vals or {}).items() if who is not None and isinstance(vals, Mapping) else ():
                slip = restored_slip(who, v, "state") if k == "dodge" and who is not None else None
                if slip is not None:
                    out.append(slip)
                elif v is not None and not slip_settled(self.offsets, (name, f"after:{k}"), v,
                                                        getattr(who, k)):
                    out.append(Finding(AFTER_ROUND[k], f"the log says {name}'s {k.capitalize()} after the round is "
                                                       f"{v!r}, but the rules give {getattr(who, k)!r}", "state"))
                setattr(who, k, v) if v is not None else None
        return out

    def _number(self, stated: Any, computed: int) -> list[Finding]:
        """A round's stated number (the log's numbering followed: a slip's shift is named once)."""
        if stated is None or stated in (computed, computed + self.round_shift):
            if stated is not None:
                self.round_shift = stated - computed
            return []
        self.round_shift = stated - computed
        return [Finding("LB-RND-1", f"the log says the round number is {stated}, but the rules give {computed}",
                        "round")]

    def _battle_end(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        """A Battle's end: its result and the Battles won as the rules give them."""
        mine = self._mine(state, "battle_end")
        if mine is None:
            return []
        out = []
        if event.get("result") not in (None, mine["result"]):
            rule = "LB-ENC-1" if mine["result"] == "won" else "LB-END-1"
            number = mine["battles_won"] + (0 if mine["result"] == "won" else 1)
            out.append(Finding(rule, f"the log says the result of Battle {number} is {event['result']!r}, "
                                     f"but the rules give {mine['result']!r}", "result"))
        stated, computed = event.get("battles_won"), mine["battles_won"]
        if stated is not None:
            if stated not in (computed, computed + self.battles_shift):
                out.append(Finding("LB-END-1", f"the log says the number of Battles won is {stated}, but the "
                                               f"rules give {computed}", "battles_won"))
            self.battles_shift = stated - computed
        return out

    def _leader_passed(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        """The Encounter Leader token: who leads now (as recorded when the log says otherwise)."""
        mine = self._mine(state, "leader_passed")
        to = event.get("to")
        leader = mine["to"] if mine is not None else state.players[state.leader]
        if to != leader and to in state.players:
            state.leader = state.players.index(to)      # as recorded
            state._cp, state._nxt = None, False
            return [Finding("LB-LOOT-1", f"the Encounter Leader token passes left after each Encounter: "
                                         f"{leader} leads now, not {to}", "to")]
        return []

    @staticmethod
    def _early_battle_end(state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        """The log ends a Battle the state has not: reported, then played as recorded."""
        b = state.battle
        if b is None:
            return [Finding("LB-ENC-1", "a Battle ends, but none is being fought")]
        if event.get("result") == "lost":
            active = [p.name for p in state.seats if not p.ko]
            state._lose()
            return [Finding("LB-END-1", f"the players lose only when no active player remains; "
                                        f"{', '.join(active)} still stand(s)")]
        left = sum(1 for enc in b.queue[b.index:] for e in enc.enemies if not e.ko)
        state.pending, state.turn_open = None, None
        state._win_battle()
        state._cp, state._nxt = None, False
        return [Finding("LB-ENC-1", f"a Battle ends after its last Encounter; {left} enemy(ies) and "
                                    f"{len(b.queue) - b.index} Encounter(s) remain")]

    def _early_end(self, state: LootState) -> Finding | None:
        """The log ends a round the state has not completed: what it lacks is one LB-RND-1, and the
        round ends as recorded."""
        enc = state.fighting()
        if enc is None:
            return None
        missing = self._missing(state, enc, None)
        round_no = enc.round
        state.turn_open = None
        state._end_round(enc)
        self._mine(state, "round_end")
        state._cp, state._nxt = None, False
        if not missing:
            return None
        return Finding("LB-RND-1", f"the round ends, but round {round_no} still lacks {', '.join(missing)} (the Leader "
                                   "acts, then the enemies in front of them attack; then the next player to the left)")

    def blow(self, state: LootState, event: Mapping[str, Any], mine: Mapping[str, Any]) -> None:
        """After a blow's claims were compared: the target's values as the log states them (a
        felled enemy the log says still stands, standing again while its Encounter goes on)."""
        self.pending = None
        if self.believe is None:
            self.held = (event, mine)
            return
        if not self.believe:        # the rules' values played on: a later statement of them is in step
            for key in FOLLOWED:
                self.offsets.pop((mine.get("target"), key), None)
            return
        t = state.fighter(mine.get("target"))
        after = state.events[next(i for i in range(len(state.events) - 1, -1, -1) if state.events[i] is mine) + 1:]
        if t is None or any(e["kind"] == "battle_end" for e in after):     # everyone recovered since
            return
        later = bool(after)             # the round ended since: its restored Armor stands
        for key, attr in FOLLOWED.items():
            stated = event.get(key)
            if later and key == "armor_left":
                continue
            if isinstance(stated, int) and not isinstance(stated, bool) and stated != mine.get(key):
                setattr(t, attr, stated)
        self._stands(state, event, t)
        self._felled(state, event, t)

    def _stands(self, state: LootState, event: Mapping[str, Any], t: Fighter) -> None:
        """A target the rules knocked out that the log says still stands: standing, as recorded."""
        if event.get("ko") is False and t.ko and not isinstance(t, Player) and t.health > 0:
            t.ko = False
        if isinstance(t, Player) and t.ko and t.health > 0 and not event.get("ko") and state.winner is None \
                and state.battle is not None:
            t.ko = False                # knocked out by the rules, still standing in the log: as recorded
            enc = state.battle.queue[state.battle.index]
            for e in enc.enemies:
                if self.fronts.get(e.name) == t.name and e.front != t.name:
                    e.front = t.name
                    enc.excused.discard(e.name)
            state._cp, state._nxt = None, False

    @staticmethod
    def _felled(state: LootState, event: Mapping[str, Any], t: Fighter) -> None:
        """A target the rules left standing that the log fells: felled, as recorded."""
        now = state.encounter()
        if now is None or not (event.get("ko") or t.health <= 0) or t.ko:
            return
        t.health = 0                # the log fells what the rules left standing: as recorded
        if isinstance(t, Player):
            state._knock_out(t, now)
        else:
            t.ko = True
            if now.cleared() and state.winner is None:
                state.turn_open = None
                state._end_encounter(now)
        state._cp, state._nxt = None, False

"""Loot & Battles referee, the round: turn order, round ends, knock-outs and the end of
the game by loss (LB-RND-1, LB-DMG-1, LB-END-1)."""

from __future__ import annotations

from cardgen.content.playlog import Event
from cardgen.games.loot_battles.state import Encounter, Fighter, Player
from cardgen.games.loot_battles.vocab import _STATE
from cardgen.play.referee import typed


class RoundEvents:
    """A part of :class:`.engine.Engine` (its event handlers for one topic)."""

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
        return not any(self._missing(enc, p) for p in self.rules.order(self.players, self.leader))

    def _report_missing(self, enc: Encounter, upto: Player | None, ev: Event, why: str) -> None:
        items = []
        for q in self.rules.order(self.players, self.leader):
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
        for q in self.rules.order(self.players, self.leader):
            enc.closed.add(q.name)
            if q is p:
                break

    def _end_of_round_effects(self, enc: Encounter, ev: Event) -> None:
        for p, c, heal in self.rules.end_of_round(list(self.players), enc.alive()):
            self._t(ev, f"{p.name} recovers {heal} Health ({c.name})")

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
            if self._marked_rounds(enc):
                self.ref.violation("LB-RND-1", f"{p.name} already acted in round {enc.round}, and the log marks "
                                   "the ends of rounds (round_end): a player acts once a round", ev.loc)
                enc.turn[p.name], enc.used[p.name], enc.used_dice[p.name] = set(), set(), set()
            else:
                self._end_round(enc, ev, f"{p.name} acts again, so round {enc.round} is over")
        if p.name not in enc.acted:
            self._report_missing(enc, p, ev, f"{p.name} acts")
            enc.acted.add(p.name)
            for q in self.rules.order(self.players, self.leader):
                if q is p:
                    break
                enc.closed.add(q.name)
        kinds = enc.turn.setdefault(p.name, set())
        if ("heal" in kinds and kind == "attack") or ("attack" in kinds and kind == "heal"):
            self.ref.violation("LB-HEAL-1", f"{p.name} both heals and attacks this turn; a Healing spell is cast "
                               "instead of attacking", ev.loc)
        elif kinds and ("pass" in kinds or kind == "pass" or "heal" in kinds):
            done = "passed" if "pass" in kinds else "healed" if "heal" in kinds else "attacked"
            self.ref.violation("LB-RND-1", f"{p.name} already {done} this turn: a player's turn is one attack "
                               "(one roll per weapon group), one heal or one pass", ev.loc)
        kinds.add(kind)

    def on_pass(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        enc = self._combat(ev)
        if enc is None:
            return
        self._player_action(ev, p, enc, "pass")
        self._t(ev, f"{p.name} passes")

    def _enemy_down(self, e: Fighter, ev: Event) -> None:
        if not e.ko:
            e.ko = True
            self._t(ev, f"{e.name} is defeated and removed")

    def _after_blow(self, enc: Encounter, ev: Event) -> None:
        if not enc.alive() and not enc.done:
            self._end_encounter(enc, ev)

    def _knock_out(self, p: Player, enc: Encounter, ev: Event) -> None:
        if p.ko:
            return
        p.ko = True
        self._t(ev, f"{p.name} is knocked out until the Battle ends")
        nxt = self.rules.left_of(self.players, p)
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
        self.rounds_marked = True
        if self.last_encounter is not None and not self.round_ack:     # the round ended with the Encounter
            self.round_ack = True
            last = self.last_encounter
            self._round_marker(ev, last)
            self._state_claims(ev, last)
            return
        b = self.battle
        enc = b.current if b is not None else None
        if enc is None or not enc.placed:
            self.ref.violation("LB-RND-1", "a round ends, but no Encounter is being fought", ev.loc)
            return
        self._round_marker(ev, enc)
        self._end_round(enc, ev, "the round ends", claims=True)

    def _marked_rounds(self, enc: Encounter) -> bool:
        """The log marks the ends of rounds and this one is not complete: an action it cannot
        hold is a slip in the round, not the start of the next one (one slip, one problem)."""
        return (self.rounds_marked or "round_end" in self.log_kinds) and not self._round_complete(enc)

    def _round_marker(self, ev: Event, enc: Encounter) -> None:
        """A stated round number is checked; the log's own numbering is then followed: a number
        one slip shifted is reported once, not at every later round (issue 20 item 1)."""
        stated = ev["round"]
        if stated is None:
            return
        if stated not in (enc.round, enc.round + enc.round_shift):
            self.ref.claim("LB-RND-1", "the round number", stated, enc.round, ev.at("round"))
        enc.round_shift = stated - enc.round

    def _state_claims(self, ev: Event, enc: Encounter) -> None:
        state = ev["state"]
        if not state:
            return
        rules = {"health": "LB-DMG-1", "armor": "LB-RND-1", "dodge": "LB-ATK-3"}
        for name, vals in state.items():
            vals = typed(vals, _STATE.item, ev.at("state"), f"'state' of {name}")
            if str(name) in self.by_name or not enc.enemies:
                who: Fighter = self._find_player(name, ev, "state")
            else:
                who = self._find_enemy(name, enc, ev, "state")
            for k, v in (vals or {}).items():
                if v is not None and self._restored_slip(who, k, v, ev, "state"):
                    continue
                if v is not None:
                    self.ref.claim(rules[k], f"{who.name}'s {k.capitalize()} after the round", v, getattr(who, k),
                                   ev.at("state"))
                    setattr(who, k, v)

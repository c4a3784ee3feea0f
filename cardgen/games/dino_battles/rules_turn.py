"""Biomechanic Dino Battles: the turn — phases in order, the Startup damage, the End phase
draws, who acts first in a phase (BDB-TURN-1, 2; BDB-ABIL-2; BDB-END-1).
"""

from __future__ import annotations

from cardgen.content.playlog import Event
from cardgen.games.dino_battles.rules_combat import CombatRules


class TurnRules(CombatRules):
    """A step of :class:`~.table.Table`'s rules, on :class:`CombatRules`."""

    # -- phases -------------------------------------------------------------------------------

    def play_phase(self, ev: Event) -> None:
        """A phase begins. HP stated on it are checked: at Startup after the poison and wound damage
        (BDB-ABIL-2), on any other phase against the rule of each Dinosaur's last HP change."""
        if not self._phase_to(ev):
            self._claim_hp(ev, None)

    def _phase_to(self, ev: Event) -> bool:
        """Move to the event's phase; True if a turn began (its Startup checks the HP stated)."""
        new = ev["phase"]
        if self.phase is None:
            if new != "startup":
                self.ref.violation("BDB-TURN-1", f"turn 1 begins with the Startup phase, not {self._pn(new)}",
                                   ev.at("phase"))
            self._check_setup(ev)
            self._enter_turn(ev)
            for p in self.phases[1: self.phases.index(new) + 1]:
                self._enter(p, ev)
            return True
        cur = self.phases.index(self.phase)
        ni = self.phases.index(new)
        if new == "startup":
            for p in self.phases[cur:]:
                if p != self.phase:
                    self._enter(p, ev, skipped=True)
                self._leave(p, ev)
            self._enter_turn(ev)
            return True
        if ni <= cur:
            self.ref.violation("BDB-TURN-1", f"{self._pn(new)} cannot follow {self._pn(self.phase)}: the phases go "
                               + " → ".join(self._pn(p) for p in self.phases), ev.at("phase"))
            if ni == cur:
                return False
            self._leave(self.phase, ev)
            self._enter(new, ev)
            return False
        for p in self.phases[cur: ni]:
            if p != self.phase:
                self._enter(p, ev, skipped=True)
            self._leave(p, ev)
        self._enter(new, ev)
        return False

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
            self.initiative = self._next(self.initiative)
        holder = self.sides[self.initiative or 0]
        if ev["turn"] is not None:
            self.ref.claim("BDB-TURN-1", "the turn number", ev["turn"], self.turn, ev.at("turn"))
            if ev["turn"] >= 1:
                self.turn = ev["turn"]          # the log's marker brings the replay back in step
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
                if d.prepaid:                   # taken early (reported there): not again
                    d.prepaid = False
                    d.poison_turns = max(0, d.poison_turns - 1)
                    continue
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
                    d.hp_rule = "BDB-ABIL-2"
                    self._t(ev, f"Startup: {s.name}'s {d.name} loses {loss} HP ({', '.join(parts)}): {d.hp}")
                    self._mark_ko(d, ev)

    def _enter(self, p: str, ev: Event, skipped: bool = False) -> None:
        self.phase = p
        self.acted = set()
        if p == "combat" and not skipped:
            self._start_combat(ev)
        elif p == "end":
            self.owed = {s.index: min(s.deck_left, max(0, self.draw_up - s.hand)) for s in self.sides}
        if not skipped and p != "combat":
            if self.tracing:
                self._t(ev, f"{self._pn(p)} phase")

    def _leave(self, p: str, ev: Event) -> None:
        if p == "combat" and self.cmb is not None:
            c = self.cmb
            if c.attack is not None:
                self._unanswered(ev)
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

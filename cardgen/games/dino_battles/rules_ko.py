"""Biomechanic Dino Battles: knock-outs and the end of the game (BDB-KO-1, BDB-END-2, 3).
"""

from __future__ import annotations

from typing import Any

from cardgen.content.playlog import Event
from cardgen.core.problems import Loc
from cardgen.games.dino_battles.pieces import Dino, Side
from cardgen.games.dino_battles.rules_cards import CardRules


class KnockOutRules(CardRules):
    """A step of :class:`~.table.Table`'s rules, on :class:`CardRules`."""

    # -- knock-outs and the end ------------------------------------------------------------------

    def _mark_ko(self, d: Dino, ev: Event | None) -> None:
        if d.hp <= 0 and d.ko_at is None and any(d in s.in_play for s in self.sides):
            d.ko_at = ev.loc if ev is not None else Loc("", 0, 0)
            if self.tracing:
                self._t(ev, f"{d.who} falls to {d.hp} HP: knocked out")

    def play_knock_out(self, ev: Event) -> None:
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
        s.cards.hidden += n
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
        s.knocked_out = [*s.knocked_out, d.label]     # shared by clones: never changed in place
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
        if self.tracing:
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

    def _ko_pending(self) -> bool:
        """Whether a Dinosaur in play is knocked out and its K.O. not yet recorded."""
        for s in self.sides:
            if s.active is not None and s.active.ko_at is not None:
                return True
            for d in s.bench:
                if d.ko_at is not None:
                    return True
        return False

    def _may_end(self) -> bool:
        """Whether a player has the K.O.s to win or no Dinosaur left (BDB-END-2)."""
        for s in self.sides:
            if s.kos >= self.kos_to_win or (s.active is None and not s.bench):
                return True
        return False

    def _settle_kos(self, ev: Event | None, recorded: bool) -> None:
        """Knock-outs the log did not record are applied; when none is pending, the game may end."""
        pending = [(s, d) for s in self._order() for d in s.in_play if d.ko_at is not None] \
            if self._ko_pending() else []
        if pending and not recorded:
            for s, d in pending:
                line = d.ko_at.line if d.ko_at else 0
                self.ref.violation("BDB-KO-1", f"{s.name}'s {d.name} fell to {d.hp} HP (line {line}) and is knocked "
                                   "out; the log records no knock_out", ev.loc if ev is not None else d.ko_at)
                self._knock_out(s, d, ev, None, None, took=0)
            pending = []
        if pending or self.over or self.phase is None or not self._may_end():
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

    def play_game_end(self, ev: Event) -> None:
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

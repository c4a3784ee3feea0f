"""Loot & Battles referee, between the fights: Encounters and Battles end, loot is drawn
and equipped, the Leader token passes (LB-ENC-1, LB-LOOT-1, LB-EQUIP-1)."""

from __future__ import annotations

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.games.loot_battles.state import Encounter


class EndEvents:
    """A part of :class:`.engine.Engine` (its event handlers for one topic)."""

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
            p.restored = None
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

    def _battles_marker(self, ev: Event) -> None:
        """The stated Battles won is checked; a count one slip shifted is reported once."""
        stated = ev["battles_won"]
        if stated is None:
            return
        if stated not in (self.battles_won, self.battles_won + self.battles_shift):
            self.ref.claim("LB-END-1", "the number of Battles won", stated, self.battles_won, ev.at("battles_won"))
        self.battles_shift = stated - self.battles_won

    def on_battle_end(self, ev: Event) -> None:
        if self.last_battle is not None:         # it ended by itself: check what the log says about it
            last = self.last_battle
            self.ref.claim("LB-ENC-1" if last["result"] == "won" else "LB-END-1",
                           f"the result of Battle {last['number']}", ev["result"], last["result"], ev.at("result"))
            self._battles_marker(ev)
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
        self._battles_marker(ev)
        self.last_battle = None

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
        items = self.rules.items(p) + [c]
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
        self.rules.refresh(p, full=self.battle is None)
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
        self.rules.refresh(p, full=self.battle is None)
        self._t(ev, f"{p.name} puts {c.name} back in the shared loot: {p.brief()}")

    def _force_end(self, enc: Encounter, ev: Event, why: str) -> None:
        """The log goes on to the next Encounter while the replay still sees enemies standing (an
        earlier slip): one violation, then the replay follows the log. A Leader token the log
        already passed during the Encounter is not passed again."""
        alive = enc.alive()
        self.ref.violation("LB-ENC-1", f"{why}, but an Encounter ends when its enemies are all defeated; "
                           f"{', '.join(e.name for e in alive)} still stand(s)", ev.loc)
        for e in alive:
            e.ko = True
        leader = self.leader
        self._end_encounter(enc, ev)
        if enc.leader_moved:
            self.leader = leader
        self.last_encounter = None

    def on_leader_passed(self, ev: Event) -> None:
        b = self.battle
        enc = b.current if b is not None else None
        if enc is not None and enc.placed and not enc.done and enc.alive() and self.last_encounter is None:
            enc.leader_moved = True     # mid-Encounter: a slip, or the log ended it where the replay did not
        to = self._find_player(ev["to"], ev, "to")
        leader = self.players[self.leader]
        if to is not leader:
            self.ref.violation("LB-LOOT-1", f"the Encounter Leader token passes left after each Encounter: "
                               f"{leader.name} leads now, not {to.name}", ev.at("to"))
            self.leader = self.players.index(to)
            self._t(ev, f"Leader (as recorded): {to.name}")

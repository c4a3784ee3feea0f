"""Biomechanic Dino Battles: the Combat phase — the first move, attacks and their answers, the
cards they cost, paralysis, damage (BDB-CMB-1…6, BDB-ABIL-1…3).
"""

from __future__ import annotations

from collections import Counter
from functools import partialmethod

from cardgen.content.playlog import Event, LogError
from cardgen.games.dino_battles.exchange import exchange_losses
from cardgen.games.dino_battles.pieces import Combat, Dino, Side
from cardgen.games.dino_battles.rules_main import MainRules
from cardgen.games.dino_battles.vocab import ANSWERS


class CombatRules(MainRules):
    """A step of :class:`~.table.Table`'s rules, on :class:`MainRules`."""

    # -- combat ---------------------------------------------------------------------------------

    def _start_combat(self, ev: Event) -> None:
        a, b = self.sides
        ea = a.active.stat("eva") if a.active else -1
        eb = b.active.stat("eva") if b.active else -1
        first = 0 if ea > eb else 1 if eb > ea else (self.initiative or 0)
        self.cmb = Combat(first)
        self.cmb.over = all(sum(s.combat_deck.values()) == 0 for s in self.sides)
        why = f"EVA {max(ea, eb)} against {min(ea, eb)}" if ea != eb else f"EVA {ea} each: the Initiative holder"
        if self.tracing:
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

    def play_first_move(self, ev: Event) -> None:
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

    def play_pass(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self.cmb
        if c is not None and c.attack is not None and self.phase == "combat":
            if s is c.attack["side"]:
                self.ref.violation("BDB-CMB-1", f"{s.name} attacked and waits for the answer: there is nothing to "
                                   "pass", ev.loc)
                return
            if self.tracing:
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
            if self.tracing:
                self._t(ev, f"{s.name} passes the move to {self._other(s).name}")
        else:
            if s is first:
                self.ref.violation("BDB-CMB-1", f"{s.name} already passed the move to {self._other(s).name}",
                                   ev.at("player"))
                return
            if self.tracing:
                self._t(ev, f"{s.name} passes too: the exchange ends")
            self._next_exchange(self._next(c.first))

    def _next_exchange(self, first: int) -> None:
        c = self.cmb
        if c is None:
            return
        c.first, c.passed, c.attack = first, False, None
        c.exchange += 1
        if all(sum(s.combat_deck.values()) == 0 for s in self.sides):
            c.over = True
            if self.tracing:
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
        """BDB-ABIL-1: a paralyzed Dinosaur's move needs a roll; returns False when the move fails.

        A move recorded with no die of its own (a paralysis slip: no paralysis roll, or one the
        Dinosaur did not need) is applied as recorded: it fails, and the slip is the violation."""
        roll = ev["paralyze_roll"]
        made = ev["roll"] is not None
        if d is None or not d.paralyzed:
            if roll is not None:
                self.ref.violation("BDB-ABIL-1", f"{d.name if d else s.name} is not paralyzed: it rolls no paralysis "
                                   "die" + ("" if made else "; the log records the move as failed"),
                                   ev.at("paralyze_roll"))
                return made
            return True
        if roll is None:
            self.ref.violation("BDB-ABIL-1", f"{d.name} is paralyzed: each move needs a die roll first (odd fails)"
                               + ("" if made else "; the log records none, and no roll for the move: it fails"),
                               ev.loc)
            return made
        if not self.ref.die(roll, self.die_sides, "BDB-ABIL-1", ev.at("paralyze_roll"), "the paralysis roll"):
            return made
        fails = (roll % 2 == 1) == (self.para_fail == "odd")
        if fails:
            if self.tracing:
                self._t(ev, f"{d.who} is paralyzed: rolls {roll}, the move fails")
            if ev["roll"] is not None:
                self.ref.violation("BDB-ABIL-1", f"{d.name} is paralyzed and its roll {roll} is {self.para_fail}: the "
                                   f"move fails (the log goes on as if it had been made)", ev.at("paralyze_roll"))
        return not fails

    def _cost(self, special: dict | None, kind: str) -> dict[str, int]:
        if special is not None:
            return {k: int(v) for k, v in (special.get("cost") or {}).items() if v}
        return {kind: 1}

    def play_attack(self, ev: Event) -> None:
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
                self._next_exchange(self._next(c.first))
            return
        if ev["roll"] is None:
            raise LogError("LOG-FIELD", f"'attack' event lacks 'roll' (the d{self.die_sides} rolled)", ev.loc)
        bonus = int(ev["bonus"] or 0) + (d.evade_bonus if d else 0)
        eb = d.evade_bonus if d else 0
        if d is not None:
            d.evade_bonus = 0
        c.attack = {"side": s, "dino": d, "ev": ev, "roll": ev["roll"], "bonus": bonus, "evade_bonus": eb,
                    "special": special}
        if self.tracing:
            self._t(ev, f"{s.name}'s {d.name if d else '—'} attacks" + (f" with {special['name']}" if special else "")
                    + f": roll {ev['roll']}" + (f", bonus {bonus:+d}" if bonus else ""))

    def _answer(self, ev: Event, kind: str) -> None:
        s = self._side(ev["player"], ev, "player") if ev["player"] is not None else None
        rule = {"counterattack": "BDB-CMB-3", "evade": "BDB-CMB-4", "defend": "BDB-CMB-5",
                "no_answer": "BDB-CMB-2"}[kind]
        c = self.cmb
        if c is None or c.attack is None or self.phase != "combat":
            who = s or (self.sides[0] if self.sides else None)
            now = self._in_combat(who, ev, f"answers ({kind.replace('_', ' ')})") if who is not None else None
            if now is not None:             # the combat under way (c itself), with no attack to answer
                self.ref.violation(rule, f"there is no attack to answer with {kind.replace('_', ' ')}: "
                                   f"{self.sides[now.first].name} has the move", ev.loc)
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
            if self.tracing:
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

    play_counterattack = partialmethod(_answer, kind="counterattack")
    play_evade = partialmethod(_answer, kind="evade")
    play_defend = partialmethod(_answer, kind="defend")
    play_no_answer = partialmethod(_answer, kind="no_answer")

    def _unanswered(self, ev: Event) -> None:
        """BDB-CMB-2: an attack the log leaves without its answer, resolved as unanswered."""
        assert self.cmb is not None and self.cmb.attack is not None
        att = self.cmb.attack
        self.ref.violation("BDB-CMB-2", f"{att['side'].name}'s attack (line {att['ev'].loc.line}) is never "
                           "answered: record a counterattack, evade, defend or no_answer", ev.loc)
        self._resolve(None, "no_answer", None)

    def _total(self, mv: dict, stat: str, rule: str) -> int:
        ev, d = mv["ev"], mv["dino"]
        roll = mv["roll"]
        if not self.ref.die(roll, self.die_sides, rule, ev.at("roll"), f"the {stat.upper()} roll"):
            roll = 0 if isinstance(roll, bool) or not isinstance(roll, int) else roll
        total = roll + (d.stat(stat) if d else 0) + mv["bonus"]
        self.ref.claim(rule, f"the {stat.upper()} total", ev["total"], total, ev.at("total"))
        mv["rules_total"] = total
        return total if ev["total"] is None else ev["total"]

    def _totals_diverged(self, kind: str, att: dict, ans: dict | None, x: Dino | None, y: Dino | None,
                         negated: bool) -> None:
        """A total stated wrong is applied as recorded (reported by its claim); the HP it moves from
        the rules' is remembered, so a later HP statement from the rules' total is no second problem."""
        a_rec = att["ev"]["total"] if att["ev"]["total"] is not None else att.get("rules_total")
        o_rec = None if ans is None else ans["ev"]["total"] if ans["ev"]["total"] is not None else ans.get("rules_total")
        a_rules, o_rules = att.get("rules_total"), None if ans is None else ans.get("rules_total")
        if not isinstance(a_rec, int) or not isinstance(a_rules, int) or (a_rec == a_rules and o_rec == o_rules):
            return
        rec = exchange_losses(kind, a_rec, o_rec, negated, self.unanswered_hits)
        alt = exchange_losses(kind, a_rules, o_rules, negated, self.unanswered_hits)
        for dd, r_, a_ in ((x, rec[0], alt[0]), (y, rec[1], alt[1])):
            if dd is not None:
                self.ref.diverged(f"{dd.who}'s HP", a_ - r_)

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
        nxt = self._next(c.first)
        negated = ev["negated_by"] if ev is not None and ev.kind in ANSWERS else None
        text = ""
        if negated is not None and ev is not None:
            name = self._source_named(ev, "negated_by", rule)
            text = f"{name}: the attack has no effect"
            if kind == "counterattack" and ans is not None:
                o_total = self._total(ans, "atk", rule)
                hits.append((y, x, o_total))
                text += f"; the counterattack ({o_total}) still hits"
        elif kind == "counterattack":
            assert ans is not None                  # an answer of this kind is made
            o_total = self._total(ans, "atk", rule)
            hits += [(x, y, a_total), (y, x, o_total)]
            text = f"ATK {a_total} against counterattack {o_total}"
        elif kind == "evade":
            assert ans is not None                  # an answer of this kind is made
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
            assert ans is not None                  # an answer of this kind is made
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
        self._totals_diverged(kind, att, ans, x, y, negated is not None)
        lost = self._hits(hits, notes, spikes)
        for dd in lost:
            dd.hp_rule = "BDB-ABIL-3" if dd in spikes and lost[dd] == spikes[dd] else rule
        after = " · ".join(f"{dd.who} −{v} → {dd.hp}" for dd, v in lost.items()) or "no damage"
        if self.tracing:
            self._t(ev or att["ev"], f"{text} ⇒ {after}")
        for note in notes:
            if self.tracing:
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
                if self.tracing:
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

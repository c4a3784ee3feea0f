"""Biomechanic Dino Battles: the Main-phase plays (bench, Upgrades, Items, Actions, Combat
cards, retreat; BDB-MAIN-1…3, BDB-ACT-1), card effects stated by the log, and HP claims.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.core.options import Opt
from cardgen.games.dino_battles.pieces import Dino
from cardgen.games.dino_battles.rules_ko import KnockOutRules
from cardgen.play.referee import typed


class MainRules(KnockOutRules):
    """A step of :class:`~.table.Table`'s rules, on :class:`KnockOutRules`."""

    # -- main-phase plays ---------------------------------------------------------------------

    def play_bench(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["dino"], ev, "dino", ("dinosaur",))
        self._main(s, ev, "benches a Dinosaur")
        if len(s.bench) >= self.bench_max:
            self.ref.violation("BDB-MAIN-1", f"{s.name}'s bench is full: it holds {self.bench_max} Dinosaurs",
                               ev.at("dino"))
        self._from_hand(s, c, ev, ev.at("dino"), "BDB-MAIN-1")
        d = self._new_dino(s, c)
        if s.active is None:
            s.active = d
            if self.tracing:
                self._t(ev, f"{s.name} puts {d.name} in play as the active Dinosaur (none was active)")
        else:
            s.bench.append(d)
            if self.tracing:
                self._t(ev, f"{s.name} benches {d.name}")

    def play_upgrade(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("upgrade",))
        d = self._dino(s, ev["dino"], ev, "dino")
        self._main(s, ev, "plays an Upgrade")
        if d is s.active:
            self.ref.violation("BDB-MAIN-2", f"{d.name} is {s.name}'s active Dinosaur: Upgrades attach to benched "
                               "Dinosaurs only", ev.at("dino"))
        same = sum(1 for u in d.upgrades if u.name == c.name)
        if same >= self.upgrade_max:
            self.ref.violation("BDB-MAIN-2", f"{d.name} already carries {same} {c.name}: at most {self.upgrade_max} "
                               "Upgrade of the same name", ev.at("card"))
        self._from_hand(s, c, ev, ev.at("card"), "BDB-MAIN-1")
        d.upgrades = [*d.upgrades, c]           # shared by clones: never changed in place
        if c.get("hp"):
            d.hp += int(c.get("hp"))
            d.hp_rule = "BDB-MAIN-2"
        if self.tracing:
            self._t(ev, f"{s.name} attaches {c.name} to {d.brief()}")

    def play_item(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("item",)) if ev["card"] is not None else None
        self._main(s, ev, "places an Item")
        if s.items >= self.item_max:
            self.ref.violation("BDB-MAIN-3", f"{s.name}'s Item Zone is full: it holds {self.item_max} Items",
                               ev.at("card"))
        self._from_hand(s, c, ev, ev.at("card"), "BDB-MAIN-1")
        if c is None:
            s.items_unknown += 1
        else:
            # shared by clones: replaced, never changed
            s.items_known = s.items_known + Counter({c.id: 1})
        if self.tracing:
            self._t(ev, f"{s.name} places {'an Item' if c is None else c.name} face down in the Item Zone "
                    f"({s.items} of {self.item_max})")

    def play_use_item(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("item",))
        rule = "BDB-MAIN-3"
        if s.items_known[c.id] > 0:
            if not c.get("permanent"):
                s.items_known = s.items_known - Counter({c.id: 1})
        elif s.items_unknown > 0:
            self._reveal(s, c, ev, ev.at("card"), rule)
            s.items_unknown -= 1
            if c.get("permanent"):
                s.items_known = s.items_known + Counter({c.id: 1})
        else:
            self.ref.violation(rule, f"{s.name}'s Item Zone holds no {c.name} (Items are used from the Item Zone)",
                               ev.at("card"))
        if not c.get("permanent"):
            self._to_junk(s, c)
        self.played.append((s.index, c.id))
        if self.tracing:
            self._t(ev, f"{s.name} uses {c.name}" + (" (Permanent: it stays)" if c.get("permanent") else " (junked)"))

    def play_action(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        c = self._card(ev["card"], ev, "card", ("action",))
        rule = "BDB-ACT-1"
        if self.phase is None:
            self.ref.violation(rule, f"{s.name} plays {c.name} during setup: Actions are played during a turn",
                               ev.loc)
        self._from_hand(s, c, ev, ev.at("card"), rule)
        self._to_junk(s, c)
        self.played.append((s.index, c.id))
        if self.tracing:
            self._t(ev, f"{s.name} plays {c.name} (junked)")

    def play_combat_to_deck(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        cards = [self._card(x, ev, "cards", ("combat",)) for x in ev["cards"]]
        self._main(s, ev, "adds Combat cards to the Combat Deck")
        for c in cards:
            self._from_hand(s, c, ev, ev.at("cards"), "BDB-MAIN-1")
            sub = str(c.get("subtype"))
            s.combat_deck[sub] += 1
        if self.tracing:
            self._t(ev, f"{s.name} adds {', '.join(c.name for c in cards)} to the Combat Deck: "
                    + " ".join(f"{m} {s.combat_deck[m]}" for m in self.moves))

    def play_retreat(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-MAIN-1"
        to = self._dino(s, ev["to"], ev, "to")
        src = self._source(ev, s, None) if ev["source"] is not None else None
        if src is None:
            if self.phase == "combat":
                self.ref.violation(rule, f"{s.name} switches the active Dinosaur during combat: that is done in a "
                                   "Main phase (or by a card's effect: name it in 'source')", ev.loc)
            else:
                self._main(s, ev, "switches the active Dinosaur")
        old = s.active
        if to is old:
            self.ref.violation(rule, f"{to.name} is already {s.name}'s active Dinosaur", ev.at("to"))
            return
        cost = int(old.card.get("retreat_cost") or 0) if old is not None and src is None else 0
        discard = [self._card(x, ev, "discard") for x in ev["discard"] or []]
        paid = ev["paid"] if ev["paid"] is not None else (len(discard) if ev["discard"] is not None else cost)
        if paid < len(discard):
            raise LogError("LOG-FIELD", f"'paid' is {paid}, but 'discard' names {len(discard)}", ev.at("paid"))
        if paid != cost:
            why = (f"{src} makes the switch free" if src is not None else f"{old.name}'s Retreat Cost is {cost}"
                   if old is not None else f"{s.name} has no active Dinosaur: the switch costs nothing")
            self.ref.violation(rule, f"{s.name} discards {paid} card(s) to switch; {why}",
                               ev.at("discard") if ev["discard"] is not None else ev.at("paid"))
        for c in discard:
            self._from_hand(s, c, ev, ev.at("discard"), rule)
            self._to_junk(s, c)
        for _ in range(paid - len(discard)):
            self._from_hand(s, None, ev, ev.loc, rule)
            self._to_junk(s, None)
        s.bench.remove(to)
        if old is not None:
            s.bench.append(old)
        s.active = to
        if self.tracing:
            self._t(ev, f"{s.name} switches: {to.name} becomes active" + (f", {old.name} goes to the bench" if old else "")
                    + (f" (discards {paid})" if paid else "") + (f" ({src})" if src else ""))

    def play_discard(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        named = self._named(ev)
        n = ev["count"] if ev["count"] is not None else len(named)
        if n < len(named):
            raise LogError("LOG-FIELD", f"'count' is {n}, but 'cards' names {len(named)}", ev.at("count"))
        src = self._source(ev, s, None)
        rule = self._source_rule(src)
        for c in named:
            self._from_hand(s, c, ev, ev.at("cards"), rule)
            self._to_junk(s, c)
        for _ in range(n - len(named)):
            self._from_hand(s, None, ev, ev.loc, rule)
            self._to_junk(s, None)
        if self.tracing:
            self._t(ev, f"{s.name} discards {n} card(s)" + (f" ({', '.join(c.name for c in named)})" if named else "")
                    + f" by {src}; hand {s.hand}")

    # -- card effects stated by the log -------------------------------------------------------

    def play_effect(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        self._src_type = None
        src = self._source(ev, s, None)
        rule = self._source_rule(self._src_type)
        d = self._dino(s, ev["dino"], ev, "dino") if ev["dino"] is not None else s.active
        by_opponent = self._src_owner is not None and self._src_owner != s.index
        parts = []
        if d is not None:
            if by_opponent and d.flag("camouflaged") and any(ev[k] is not None for k in (
                    "dino", "heal", "damage", "set_hp", "wound_tokens", "poisoned", "paralyzed", "destroy_upgrade")):
                self.ref.violation("BDB-ABIL-3", f"{d.name} is Camouflaged: the opponent's {src} cannot target it",
                                   ev.at("dino") if ev["dino"] is not None else ev.at("source"))
            if ev["destroy_upgrade"] is not None:
                u = self._card(ev["destroy_upgrade"], ev, "destroy_upgrade", ("upgrade",))
                hit = next((x for x in d.upgrades if x.id == u.id), None)
                if hit is None:
                    self.ref.violation(rule, f"{d.name} carries no {u.name}", ev.at("destroy_upgrade"))
                else:
                    d.upgrades = list(d.upgrades)       # shared by clones: never changed in place
                    d.upgrades.remove(hit)
                    s.junk[hit.id] += 1
                    d.hp = min(d.hp, d.max_hp)
                    parts.append(f"{u.name} destroyed")
            if ev["heal"]:
                before = d.hp
                d.hp += ev["heal"]
                if not self.heal_above:
                    d.hp = min(d.hp, max(before, d.max_hp))
                parts.append(f"regains {d.hp - before} HP")
            if ev["damage"]:
                d.hp -= ev["damage"]
                parts.append(f"loses {ev['damage']} HP")
            if ev["set_hp"] is not None:
                d.hp = ev["set_hp"]
                parts.append(f"HP set to {d.hp}")
            if ev["cure"]:
                d.poison_turns = d.wound_tokens = 0
                parts.append("cured of poison and wounds")
            if ev["wound_tokens"]:
                d.wound_tokens = max(0, d.wound_tokens + ev["wound_tokens"])
                parts.append(f"Wound tokens {d.wound_tokens}")
            if ev["poisoned"] is not None:
                d.poison_turns = ev["poisoned"]
                parts.append(f"poisoned {d.poison_turns}" if d.poison_turns else "no longer poisoned")
            if ev["paralyzed"] is not None:
                d.paralyzed = bool(ev["paralyzed"]) and self.phase == "combat"
                parts.append("paralyzed" if d.paralyzed else "no longer paralyzed")
            if d.ko_at is not None and d.hp > 0:
                d.ko_at = None
                kept = d.statuses()
                parts.append("no longer knocked out" + (f" ({', '.join(kept)})" if kept else ""))
            else:
                self._mark_ko(d, ev)
        for x in ev["from_junk"] or []:
            c = self._card(x, ev, "from_junk")
            if s.junk[c.id] > 0:
                s.junk[c.id] -= 1
                s.junk = +s.junk
            elif s.junk_unknown > 0:
                s.junk_unknown -= 1
            else:
                self.ref.violation(rule, f"{s.name}'s Junk holds no {c.name}", ev.at("from_junk"))
            s.cards.add(c.id)
            parts.append(f"{c.name} from the Junk into hand")
        for x in ev["combat_deck_junk"] or []:
            c = self._card(x, ev, "combat_deck_junk", ("combat",))
            sub = str(c.get("subtype"))
            if s.combat_deck[sub] <= 0:
                self.ref.violation(rule, f"{s.name}'s Combat Deck holds no {c.name} card", ev.at("combat_deck_junk"))
            else:
                s.combat_deck[sub] -= 1
                s.junk[c.id] += 1
            parts.append(f"{c.name} from the Combat Deck to the Junk")
        if d is not None and (ev["heal"] or ev["damage"] or ev["set_hp"] is not None or ev["destroy_upgrade"]):
            d.hp_rule = rule
        self._claim_hp(ev, rule)
        what = d.name if d is not None else s.name
        if self.tracing:
            self._t(ev, f"{src}: {s.name}'s {what} " + ("; ".join(parts) or "(no change)")
                    + (f" → {d.hp}/{d.max_hp}" if d is not None else ""))

    # -- HP claims ---------------------------------------------------------------------------

    def _set_hp(self, d: Dino, hp: int, ev: Event) -> None:
        """The game goes on with the HP the log states (after reporting the difference)."""
        d.hp = hp
        if hp > 0:
            d.ko_at = None
        else:
            self._mark_ko(d, ev)

    def _claim_hp(self, ev: Event, rule: str | None, spikes: dict | None = None, hint: str | None = None) -> None:
        """HP stated by the log; one off by exactly the Spiked damage is a BDB-ABIL-3 slip. With no
        ``rule`` (HP stated on a phase event), a wrong HP breaks the rule of the Dinosaur's last HP change,
        unless it is off by exactly the next Startup's loss: that loss taken at the wrong step (BDB-ABIL-2),
        applied as recorded and not taken again at that Startup."""
        spikes = spikes or {}

        def claim(d: Dino, hp: int) -> None:
            due = d.startup_loss(self.poison_hp, self.wound_hp) if rule is None and not d.prepaid else 0
            if due and hp != d.hp and hp == d.hp - due:     # the next Startup's loss, taken at another step
                self.ref.violation("BDB-ABIL-2", f"the log says {d.who} has {hp} HP: {d.hp} less the {due} it loses "
                                   "at the start of the next Startup phase (poison, Wound tokens), taken early",
                                   ev.at("hp"))
                self._set_hp(d, hp, ev)
                d.prepaid, d.hp_rule = True, "BDB-ABIL-2"
                return
            rule_d = rule or d.hp_rule
            r = "BDB-ABIL-3" if spikes.get(d) and hp == d.hp + spikes[d] else rule_d
            extra = f" (the Spiked damage, {spikes[d]}, is left out)" if r != rule_d else ""
            if rule is None and r == rule_d:
                extra = f" (its HP last changed by {rule_d})"
            # a statement that is where the game would be without an earlier slip of this HP brings the
            # replay back in step, unless it is a slip of its own that the rules name (Spiked left out)
            if r != rule_d or not self.ref.in_step(f"{d.who}'s HP", hp, d.hp):
                wrong.append((r, f"the log says {d.who} has {hp} HP, but the rules give {d.hp}{extra}",
                              hint if r == rule else None))
            if hp != d.hp:
                self._set_hp(d, hp, ev)

        raw = ev.get("hp")
        if raw is None:
            return
        if not isinstance(raw, dict):
            raise LogError("LOG-FIELD", "'hp' must map players to HP", ev.at("hp"))
        wrong: list[tuple[str, str, str | None]] = []       # HP off by one slip (a die, a total): one problem
        self._each_hp(ev, raw, rule, claim)
        for r in dict.fromkeys(w[0] for w in wrong):
            same = [w for w in wrong if w[0] == r]
            self.ref.violation(r, "; ".join(w[1] for w in same), ev.at("hp"), same[0][2])

    def _each_hp(self, ev: Event, raw: dict, rule: str | None, claim: Callable[..., Any]) -> None:
        """Each Dinosaur's HP an 'hp' statement gives, to ``claim``."""
        for who, val in raw.items():
            s = self._side(who, ev, "hp", ev.at("hp"))
            if isinstance(val, dict):
                for ref, hp in val.items():
                    d = self._dino(s, ref, ev, "hp", ev.at("hp"))
                    claim(d, typed(hp, Opt("int"), ev.at("hp"), f"the HP of {d.label}"))
            else:
                hp = typed(val, Opt("int"), ev.at("hp"), f"the HP of {s.name}'s active Dinosaur")
                if s.active is None:
                    self.ref.violation(rule or "BDB-KO-1", f"{s.name} has no active Dinosaur", ev.at("hp"))
                else:
                    claim(s.active, hp)

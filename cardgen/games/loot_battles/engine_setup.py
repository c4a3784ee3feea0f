"""Loot & Battles referee, the setup of each Battle: Encounters chosen and drawn,
reinforcements, enemies placed (LB-SETUP-3, LB-SETUP-4, LB-TGT-1)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.games.loot_battles.state import Battle, Encounter, Enemy
from cardgen.games.loot_battles.vocab import EVENTS
from cardgen.play.referee import typed


class SetupEvents:
    """A part of :class:`.engine.Engine` (its event handlers for one topic)."""

    def _deck_take(self, cards: list[Card], unknown: int, ev: Event) -> None:
        """Cards leave the Encounter deck; when it runs out the discards are shuffled back (ruling)."""
        total = sum(c.copies for c in self.by_type.get("encounter", []))
        left = total - sum(self.enc_out.values()) - self.enc_unknown
        if len(cards) + unknown > left:
            keep = Counter(e.card.id for e in self.battle.queue) if self.battle else Counter()
            keep.subtract(Counter(c.id for c in cards))
            self.enc_out, self.enc_unknown = +keep, 0
            self._t(ev, "the Encounter deck runs out: the discards are shuffled back")
        for c in cards:
            if self.enc_out[c.id] >= c.copies:
                self.ref.violation("LB-SETUP-3", f"{c.name} is not in the Encounter deck: it was drawn before "
                                   "(fought or discarded) and the deck has not run out", ev.loc)
            self.enc_out[c.id] += 1
        self.enc_unknown += unknown

    def _start_battle(self, ev: Event, card: Card, by: Any) -> None:
        if self.battle is not None:
            self.ref.violation("LB-ENC-1", f"a new Encounter is chosen while Battle {self.battle.number} is not "
                               "over (a Battle ends when its last Encounter's enemies are all defeated)", ev.loc)
            self.battle = None
        if self.loot_due and self._loot_left() > 0:
            self.ref.violation("LB-LOOT-1", f"{self.loot_due} Loot card(s) for {self.loot_for} were never drawn",
                               ev.loc)
        self.loot_due = 0
        leader = self.players[self.leader]
        if by is not None:
            who = self._find_player(by, ev, "by")
            if who is not leader:
                self.ref.violation("LB-SETUP-3", f"{who.name} picks the Encounter, but {leader.name} is the "
                                   "Encounter Leader", ev.at("by"))
        self.battles_started += 1
        self.battle = Battle(self.battles_started, card, [Encounter(card, False)])
        self._t(ev, f"Battle {self.battle.number}: {card.name} ({self._enc_text(card)}), Leader {leader.name}")

    def _enc_text(self, card: Card) -> str:
        e = self.enemy_cards.get(str(card.get("enemy")))
        r = int(card.get("reinforcement") or 0)
        return (f"{card.get('count')} × {e.name if e else card.get('enemy')}"
                + (f", +{r}" if r else "") + f", loot {card.get('loot')}")

    def _check_first_loot(self, card: Card, ev: Event, fname: str) -> None:
        if card.get("loot") not in self.first_loot:
            allowed = " or ".join(str(x) for x in self.first_loot)
            self.ref.violation("LB-SETUP-3", f"the first Encounter is chosen among those with loot {allowed}; "
                               f"{card.name} has loot {card.get('loot')}", ev.at(fname))

    def on_encounter_chosen(self, ev: Event) -> None:
        card = self._find_card(ev["encounter"], ("encounter",), ev, "encounter")
        if self.first_done:
            self.ref.violation("LB-SETUP-3", f"only the first Encounter is chosen freely; later ones are drawn "
                               f"({self.n_drawn} cards, the Leader picks 1): use 'encounter_drawn'", ev.loc)
        else:
            self._check_first_loot(card, ev, "encounter")
        self.first_done = True
        self._start_battle(ev, card, ev["by"])
        self._deck_take([card], 0, ev)

    def on_encounter_drawn(self, ev: Event) -> None:
        pick = self._find_card(ev["pick"], ("encounter",), ev, "pick")
        names = ev["cards"]
        drawn = [self._find_card(x, ("encounter",), ev, "cards") for x in names] if names is not None else None
        if drawn is not None:
            if len(drawn) != self.n_drawn:
                self.ref.violation("LB-SETUP-3", f"{self.n_drawn} Encounters are drawn; the log draws {len(drawn)}",
                                   ev.at("cards"))
            if pick not in drawn:
                self.ref.violation("LB-SETUP-3", f"the Leader picks one of the cards drawn; {pick.name} is not "
                                   "among them", ev.at("pick"))
                drawn.append(pick)
        if not self.first_done:
            self._check_first_loot(pick, ev, "pick")
        self.first_done = True
        self._start_battle(ev, pick, ev["by"])
        if drawn is not None:
            self._deck_take(drawn, 0, ev)
            others = [c.name for c in drawn if c is not pick]
            if others:
                self._t(ev, f"discarded: {', '.join(others)}")
        else:
            self._deck_take([pick], max(0, self.n_drawn - 1), ev)

    def on_reinforcements_drawn(self, ev: Event) -> None:
        b = self.battle
        cards = [self._find_card(x, ("encounter",), ev, "cards") for x in ev["cards"]]
        if b is None:
            self.ref.violation("LB-SETUP-4", "reinforcements are drawn for an Encounter marked +N; no Battle is "
                               "in progress", ev.loc)
            return
        if len(b.queue) > 1 or b.index > 0:
            self.ref.violation("LB-SETUP-4", f"the reinforcements of Battle {b.number} were already drawn "
                               "(a +N on a reinforcement adds enemies, not Encounters)", ev.loc)
        due = int(b.first.get("reinforcement") or 0)
        if len(cards) != due:
            self.ref.violation("LB-SETUP-4", f"{b.first.name} draws {due} reinforcement Encounter(s); the log "
                               f"draws {len(cards)}", ev.at("cards"))
        self._deck_take(cards, 0, ev)
        b.queue += [Encounter(c, True) for c in cards]
        if cards:
            self._t(ev, "reinforcements: " + ", ".join(f"{c.name} ({self._enc_text(c)})" for c in cards))

    def _check_numbers(self, held: dict[str, list], loc: Loc | None) -> dict[int, str]:
        """LB-TGT-1: numbers 1…d are all held, each by one player; returns number → player."""
        owner: dict[int, str] = {}
        bad = []
        for name, nums in held.items():
            for n in nums:
                if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.target_die:
                    bad.append(f"{name} holds {n!r}, not a number on the d{self.target_die}")
                elif n in owner:
                    bad.append(f"{n} is held by both {owner[n]} and {name}")
                else:
                    owner[n] = name
        missing = [n for n in range(1, self.target_die + 1) if n not in owner]
        if missing:
            bad.append(f"nobody holds {', '.join(map(str, missing))}")
        empty = [p.name for p in self.players if not p.ko and not held.get(p.name)]
        if empty:
            bad.append(f"{', '.join(empty)} hold(s) no number")
        if bad:
            self.ref.violation("LB-TGT-1", f"each player holds numbers so that 1–{self.target_die} are all "
                               f"assigned: {'; '.join(bad)}", loc)
        return owner

    def on_enemies_placed(self, ev: Event) -> None:
        b = self.battle
        enc = b.current if b is not None else None
        if enc is not None and enc.placed and not enc.done and enc.alive() and b is not None and \
                b.index + 1 < len(b.queue):
            self._force_end(enc, ev, "the log places the enemies of the next Encounter")
            b = self.battle
            enc = b.current if b is not None else None
        if enc is None or enc.placed:
            what = "its enemies are already placed" if enc is not None else "no Encounter is chosen"
            self.ref.violation("LB-SETUP-3", f"enemies are placed for a chosen Encounter; {what}", ev.loc)
            return
        due = int(b.first.get("reinforcement") or 0)
        if b.index == 0 and due and len(b.queue) == 1 and not b.reinf_reported:
            b.reinf_reported = True
            self.ref.violation("LB-SETUP-4", f"{b.first.name} is marked +{due}: draw {due} reinforcement "
                               "Encounter(s) before the fight", ev.loc)
        card = enc.card
        ecard = self.enemy_cards.get(str(card.get("enemy")))
        if ecard is None:
            raise LogError("LOG-GAME", f"Encounter {card.id} names no enemy card: {card.get('enemy')!r}", card.loc)
        extra = int(card.get("reinforcement") or 0) if enc.reinforcement else 0
        count = int(card.get("count") or 0) + extra
        rolls = list(ev["rolls"])
        if len(rolls) != count:
            if extra:
                self.ref.violation("LB-SETUP-4", f"{card.name} as a reinforcement has {count} enemies "
                                   f"({card.get('count')} + {extra}); the log places {len(rolls)}", ev.at("rolls"))
            else:
                self.ref.violation("LB-TGT-1", f"{card.name} has {count} enemies, one d{self.target_die} each; the log rolls "
                                   f"{len(rolls)}", ev.at("rolls"))
        if ev["numbers"] is not None:
            held = {}
            for name, nums in ev["numbers"].items():
                p = self._find_player(name, ev, "numbers")
                held[p.name] = typed(nums if isinstance(nums, list) else [nums], EVENTS["enemies_placed"]
                                     ["numbers"].item, ev.at("numbers"), f"the numbers of {p.name}")
        else:
            held = self.rules.default_numbers(self.players)
        owner = self._check_numbers(held, ev.at("numbers") if ev["numbers"] is not None else ev.loc)
        enc.enemies = []
        for i, v in enumerate(rolls):
            ref = f"{ecard.id}#{i + 1}"
            self.ref.die(v, self.target_die, "LB-TGT-1", ev.at("rolls"), f"the d{self.target_die} placing {ref}")
            who = self.by_name.get(owner.get(v, "")) if isinstance(v, int) else None
            if who is None:
                who = self.players[self.leader]
            if who.ko:
                who = self.rules.left_of(self.players, who) or who
            e = Enemy(name=ref, card=ecard, front=who.name, max_health=int(ecard.get("health") or 0),
                      max_armor=int(ecard.get("armor") or 0), max_dodge=int(ecard.get("dodge") or 0))
            e.recover()
            enc.enemies.append(e)
        if ev["placed"] is not None:
            for name, refs in ev["placed"].items():
                p = self._find_player(name, ev, "placed")
                refs = typed(refs if isinstance(refs, list) else [refs], EVENTS["enemies_placed"]["placed"].item,
                             ev.at("placed"), f"the enemies in front of {p.name}")
                stated = sorted(self._find_enemy(r, enc, ev, "placed").name for r in refs)
                computed = sorted(e.name for e in enc.enemies if e.front == p.name)
                if stated != computed:
                    self.ref.violation("LB-TGT-1", f"the log places {', '.join(stated) or 'nobody'} in front of "
                                       f"{p.name}; the dice place {', '.join(computed) or 'nobody'}", ev.at("placed"))
                    for r in stated:
                        self._find_enemy(r, enc, ev, "placed").front = p.name
        enc.placed = True
        for p in self.players:          # LB-ENC-1: an Encounter starts with Armor restored
            if not p.ko:
                p.armor = p.max_armor
            # ... Health and Dodge not: remember what they would be had the table restored them
            p.restored = None
            if enc.reinforcement and not p.ko and (p.health, p.dodge) != (p.max_health, p.max_dodge):
                p.restored = {"health": p.max_health, "dodge": p.max_dodge, "health0": p.health, "dodge0": p.dodge,
                              "card": card.name}
        fronts = " · ".join(f"{p.name} ← {' '.join(e.name for e in enc.enemies if e.front == p.name) or '—'}"
                            for p in self.players)
        self._t(ev, f"{card.name}{' (reinforcement)' if enc.reinforcement else ''}: {fronts}")
        self.ref.trace("      round 1")

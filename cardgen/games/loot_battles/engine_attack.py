"""Loot & Battles referee, the blows: players' attacks and heals, enemies' attacks, and
the consequences a log states about them (LB-ATK-1…4, LB-DMG-1, LB-HEAL-1)."""

from __future__ import annotations

from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.games.loot_battles.engine_base import EngineBase
from cardgen.games.loot_battles.state import Encounter, Fighter, Player


class AttackEvents(EngineBase):
    """A part of :class:`.engine.Engine` (its event handlers for one topic)."""

    def _unused_groups(self, p: Player, enc: Encounter) -> dict[int, list[Card]]:
        used = enc.used.get(p.name, set())
        groups: dict[int, list[Card]] = {}
        for c in self.rules.attack_items(p):
            groups.setdefault(self.rules.dice_of(c, p), []).append(c)
        return {a: g for a, g in groups.items() if not any(c.id in used for c in g)}

    def _choose_items(self, ev: Event, p: Player, enc: Encounter) -> list[Card]:
        """The items of this roll: as the log names them, or the one group not yet rolled."""
        if ev["with"]:
            items = []
            for name in ev["with"]:
                c = self._find_card(name, ("loot", "class"), ev, "with")
                if c.type == "class":
                    if c is not p.cls:
                        self.ref.violation("LB-ATK-4", f"{p.name} is {p.class_card.name}, not {c.name}", ev.at("with"))
                    continue
                if c.id not in p.equipment:
                    self.ref.violation("LB-EQUIP-1", f"{p.name} has no {c.name} equipped", ev.at("with"))
                if c.get("damage") is None:
                    self.ref.violation("LB-ATK-4", f"{c.name} deals no damage: it cannot attack", ev.at("with"))
                    continue
                items.append(c)
            return items
        groups = self._unused_groups(p, enc)
        if not self.rules.attack_items(p):
            return []
        if not groups:
            groups = {}
            for c in self.rules.attack_items(p):
                groups.setdefault(self.rules.dice_of(c, p), []).append(c)
        if len(groups) == 1 or ev["dice"] is None:
            return next(iter(groups.values()))
        if len(ev["dice"]) in groups:
            return groups[len(ev["dice"])]
        ways = "; ".join(f"{a}d{self.attack_die} with {', '.join(c.name for c in g)}" for a, g in groups.items())
        self.ref.violation("LB-ATK-2", f"{p.name} rolls {len(ev['dice'])} dice, but rolls {ways} (name the "
                           "weapons with 'with')", ev.at("dice"))
        return next(iter(groups.values()))

    @staticmethod
    def _alt(t: Fighter, dmg: int) -> dict[str, int]:
        """The target's Health and Armor had the rules' damage been dealt (not the log's)."""
        a = min(t.armor, dmg)
        return {"health": max(0, t.health - (dmg - a)), "armor": t.armor - a}

    def _claims(self, ev: Event, t: Fighter, alt: dict[str, int] | None = None) -> None:
        """Check the stated consequences against the state; then go on as recorded. After a
        wrong stated damage (already reported), Health and Armor stated as the rules' damage
        leaves them are that slip's, not new ones; a 'ko' contradicting a wrong Health too."""
        wrong_hp = False
        for key, attr, rule in (("hp_left", "health", "LB-DMG-1"), ("armor_left", "armor", "LB-DMG-1"),
                                ("dodge_left", "dodge", "LB-ATK-3")):
            stated = ev[key]
            if self._restored_slip(t, attr, stated, ev, key):
                continue
            if stated is not None:
                if not (alt is not None and stated == alt.get(attr)):
                    self.ref.claim(rule, f"{t.name}'s {attr.capitalize()}", stated, getattr(t, attr), ev.at(key))
                    wrong_hp |= attr == "health" and stated != getattr(t, attr)
                setattr(t, attr, stated)
        ko_now = t.health <= 0
        if ev["ko"] is not None and ev["ko"] != ko_now and not wrong_hp:
            self.ref.violation("LB-DMG-1", f"the log says {t.name} is down, but {t.health} Health is left" if ev["ko"]
                               else f"the log says {t.name} still stands, but its Health is 0", ev.at("ko"))

    def _restored_slip(self, t: Fighter, stat: str, stated: Any, ev: Event, fname: str) -> bool:
        """LB-ENC-1: a stated Dodge that is what it would be had the table restored it when this
        reinforcement began. Reported with the arithmetic; then followed. (Health is not read
        this way: a Health one off is far more often a plain slip, LB-DMG-1.)"""
        r = t.restored if isinstance(t, Player) else None
        if not isinstance(t, Player) or r is None or stat != "dodge" or stated is None or stated == getattr(t, stat) or stated != r[stat]:
            return False
        name = stat.capitalize()
        self.ref.violation("LB-ENC-1", f"the log says {t.name}'s {name} is {stated}, as if restored to "
                           f"{getattr(t, 'max_' + stat)} when {r['card']} began; between the Encounters of a Battle "
                           f"only Armor is restored, so {t.name}'s {name} went on from {r[stat + '0']} and is "
                           f"{getattr(t, stat)}", ev.at(fname))
        self._follow_restored(t)
        setattr(t, stat, stated)
        return True

    @staticmethod
    def _follow_restored(t: Player) -> None:
        """The table restored Dodge: the replay goes on from the table's value."""
        r = t.restored
        if r is not None:
            t.dodge, t.restored = r["dodge"], None

    def _roll(self, ev: Event, n: int, who: str) -> int | None:
        """Check the dice of a roll of ``n`` d6 (LB-ATK-2); their sum, or None when not recorded."""
        dice = ev["dice"]
        if dice is None:
            if n == 0:
                return None
            if ev["hit"] is None:
                raise LogError("LOG-FIELD", f"'{ev.kind}' needs its 'dice' (or at least 'hit: true/false')", ev.loc)
            return None
        if n == 0:
            if dice:
                self.ref.violation("LB-ATK-2", f"{who} never misses and rolls no dice; the log rolls {len(dice)}",
                                   ev.at("dice"))
            return sum(d for d in dice if isinstance(d, int))
        if len(dice) != n:
            self.ref.violation("LB-ATK-2", f"{who} rolls {n}d{self.attack_die}; the log shows {len(dice)} dice", ev.at("dice"))
        ok = [self.ref.die(d, self.attack_die, "LB-ATK-2", ev.at("dice"), f"a die of {who}") for d in dice]
        return sum(dice) if all(ok) else None      # an impossible face: the log's 'hit' is followed

    def _resolve_hit(self, ev: Event, total: int | None, n: int, t: Fighter) -> bool:
        """LB-ATK-3: a roll higher than the target's Dodge hits; the log's 'hit' is checked, then followed.
        A log that states the damage of the blow and no 'hit' says it hit (one slip: a die misread
        with the damage left as recorded is this one problem, not a cascade of knock-ons)."""
        said, at = ev["hit"], "hit"
        if said is None and isinstance(ev["damage"], int) and not isinstance(ev["damage"], bool) and ev["damage"] > 0:
            said, at = True, "damage"
        if total is not None:
            hit = total > t.dodge
            r = t.restored if isinstance(t, Player) else None
            if said is not None and said != hit and isinstance(t, Player) and r is not None \
                    and (total > r["dodge"]) == said:
                self.ref.violation("LB-ENC-1", f"the log says the roll {'hits' if said else 'misses'}, as "
                                   f"against {t.name}'s Dodge restored to {r['dodge']} when {r['card']} began; "
                                   f"between the Encounters of a Battle only Armor is restored, so {t.name}'s Dodge "
                                   f"went on from {r['dodge0']} and is {t.dodge}, which {total} "
                                   f"{'beats' if hit else 'does not beat'}", ev.at(at))
                self._follow_restored(t)
            elif said is not None and said != hit:
                hits_for = f" for {ev['damage']}" if at == "damage" else ""
                self.ref.violation("LB-ATK-3", f"the log says the roll {'hits' if said else 'misses'}{hits_for}, but "
                                   f"{total} {'beats' if hit else 'does not beat'} {t.name}'s Dodge {t.dodge}",
                                   ev.at(at))
        else:
            hit = bool(said)
            if hit and n * self.attack_die <= t.dodge:
                self.ref.violation("LB-ATK-3", f"{n}d{self.attack_die} cannot beat {t.name}'s Dodge {t.dodge}, yet the log says "
                                   "it hit", ev.at(at))
            if not hit and n > t.dodge:
                self.ref.violation("LB-ATK-3", f"{n}d{self.attack_die} always beats {t.name}'s Dodge {t.dodge}, yet the log "
                                   "says it missed", ev.at(at))
        return hit if said is None else bool(said)

    def on_attack(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        enc = self._combat(ev)
        if enc is None:
            return
        names = list(ev["targets"] or []) + ([ev["target"]] if ev["target"] is not None else [])
        if not names:
            raise LogError("LOG-FIELD", "an 'attack' event needs a 'target' (or 'targets')", ev.loc)
        targets = [self._find_enemy(x, enc, ev, "targets" if ev["targets"] else "target") for x in names]
        self._player_action(ev, p, enc, "attack")
        items = self._choose_items(ev, p, enc)
        n = self.rules.dice_of(items[0], p) if items else self.rules.dice_of(None, p)
        what = " + ".join(c.name for c in items) if items else f"{p.class_card.name} class attack"
        # LB-ATK-2: one roll per Attack value, each weapon once per turn
        dices = {self.rules.dice_of(c, p) for c in items}
        if len(dices) > 1:
            self.ref.violation("LB-ATK-2", f"{what}: weapons of different Attack roll one roll each", ev.loc)
        used = enc.used.setdefault(p.name, set())
        used_dice = enc.used_dice.setdefault(p.name, set())
        keys = [c.id for c in items] or ["class"]
        again = [k for k in keys if k in used]
        if again:
            self.ref.violation("LB-ATK-2", f"{p.name} already rolled {what} this turn (one roll per weapon)", ev.loc)
        elif n in used_dice and n:
            self.ref.violation("LB-ATK-2", f"{p.name} already rolled {n}d{self.attack_die} this turn: weapons of the same Attack "
                               "share one roll", ev.loc)
        used.update(keys)
        used_dice.add(n)
        # LB-ATK-1: Melee only → an enemy in front while there is one
        front = [e for e in enc.alive() if e.front == p.name]
        if self.rules.melee_only(p) and front and any(t not in front for t in targets):
            far = next(t for t in targets if t not in front)
            self.ref.violation("LB-ATK-1", f"{p.name} has only Melee attacks and must attack an enemy in front of "
                               f"them ({', '.join(e.name for e in front)}), not {far.name}",
                               ev.at("targets" if ev["targets"] else "target"))
        hits = max((int(c.get("hits") or 1) for c in items), default=1)
        never = any(self.rules.effect(c, "never_misses") for c in items)
        if len(targets) > hits:
            self.ref.violation("LB-ATK-2", f"{what} hits {hits} time(s); the log names {len(targets)} targets",
                               ev.at("targets"))
        if never:
            targets = (targets * hits)[:hits] if len(targets) < hits else targets
        else:
            targets = targets[:1]
        total = self._roll(ev, n, what)
        down_here: set[str] = set()     # a never-missing weapon's repeated hit on a target it just felled
        alt: dict[str, int] | None = None
        for t in targets:
            if t.ko and t.name in down_here:
                continue
            if t.ko:
                self.ref.violation("LB-DMG-1", f"{t.name} was defeated and removed: it cannot be attacked", ev.loc)
                continue
            if never:
                hit = True
                if ev["hit"] is False:
                    self.ref.violation("LB-ATK-3", f"the log says {what} missed, but it never misses", ev.at("hit"))
            else:
                hit = self._resolve_hit(ev, total, n, t)
            roll = f"[{', '.join(map(str, ev['dice']))}]" if ev["dice"] is not None else "(dice not recorded)"
            if not hit:
                self.rules.miss(t)
                self._t(ev, f"{p.name} → {t.name} with {what}: {roll} misses; {t.name} Dodge {t.dodge}")
            else:
                dmg, why = self.rules.damage(items, total, t, p)
                if ev["damage"] is not None and ev["damage"] != dmg:
                    self.ref.violation("LB-ATK-4", f"the log says the damage is {ev['damage']}, but the rules give "
                                       f"{dmg} ({why})", ev.at("damage"))
                alt = self._alt(t, dmg) if ev["damage"] not in (None, dmg) else None
                if ev["damage"] is not None:
                    dmg = ev["damage"]
                self.rules.hurt(t, dmg)
                self._t(ev, f"{p.name} → {t.name} with {what}: {roll} hits for {dmg}; {t.brief()}")
                for c in items:
                    heal = self.rules.effect(c, "heal_on_hit")
                    if heal:
                        p.health = min(p.max_health, p.health + int(heal))
                        self._t(ev, f"{p.name} recovers {heal} Health ({c.name})")
            if len(targets) == 1:
                self._claims(ev, t, alt if hit else None)
            if t.health <= 0 or (ev["ko"] and len(targets) == 1):
                t.health = 0
                down_here.add(t.name)
                self._enemy_down(t, ev)
        self._after_blow(enc, ev)

    def on_heal(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev, "player")
        t = self._find_player(ev["target"], ev, "target")
        enc = self._combat(ev)
        if enc is None:
            return
        self._player_action(ev, p, enc, "heal")
        healers = [c for c in self.rules.items(p) if c.get("health") is not None and c.get("damage") is None]
        if ev["with"] is not None:
            spell = self._find_card(ev["with"], ("loot",), ev, "with")
            if spell.id not in p.equipment:
                self.ref.violation("LB-EQUIP-1", f"{p.name} has no {spell.name} equipped", ev.at("with"))
            if spell.get("health") is None or spell.get("damage") is not None:
                self.ref.violation("LB-HEAL-1", f"{spell.name} is not a Healing spell", ev.at("with"))
        elif healers:
            spell = healers[0]
        else:
            spell = None
            self.ref.violation("LB-HEAL-1", f"{p.name} holds no Healing spell", ev.loc)
        if t is p:
            self.ref.violation("LB-HEAL-1", "a Healing spell heals another player, not its caster", ev.at("target"))
        if t.ko:
            self.ref.violation("LB-DMG-1", f"{t.name} is knocked out until the Battle ends: no healing", ev.at("target"))
        elif spell is not None:
            t.health = min(t.max_health, t.health + int(spell.get("health") or 0))
        if ev["hp_left"] is not None:
            self.ref.claim("LB-HEAL-1", f"{t.name}'s Health", ev["hp_left"], t.health, ev.at("hp_left"))
            t.health = ev["hp_left"]
        self._t(ev, f"{p.name} heals {t.name}{' with ' + spell.name if spell else ''}: {t.brief()}")

    def on_enemy_attack(self, ev: Event) -> None:
        enc = self._combat(ev)
        if enc is None:
            return
        e = self._find_enemy(ev["enemy"], enc, ev, "enemy")
        if e.ko:
            self.ref.violation("LB-DMG-1", f"{e.name} was defeated and removed: it does not attack", ev.loc)
            return
        owner = self.by_name[e.front]
        if e.name in enc.attacked:
            if self._marked_rounds(enc):
                self.ref.violation("LB-RND-1", f"{e.name} already attacked in round {enc.round}, and the log marks "
                                   "the ends of rounds (round_end): an enemy attacks once a round", ev.loc)
            else:
                self._end_round(enc, ev, f"{e.name} attacks again, so round {enc.round} is over")
        self._report_missing(enc, owner, ev, f"{e.name} attacks")
        if owner.name not in enc.acted and (enc.round, f"{owner.name}'s turn") not in enc.reported:
            enc.reported.add((enc.round, f"{owner.name}'s turn"))
            self.ref.violation("LB-RND-1", f"{e.name} attacks before {owner.name} acted (a player acts, then the "
                               "enemies in front of them attack)", ev.loc)
        enc.attacked.add(e.name)
        self._close_upto(enc, owner)
        t = owner
        if ev["target"] is not None:
            t = self._find_player(ev["target"], ev, "target")
            if t is not owner:
                self.ref.violation("LB-RND-1", f"{e.name} stands in front of {owner.name} and attacks "
                                   f"{owner.name}, not {t.name}", ev.at("target"))
        if t.ko:
            self.ref.violation("LB-DMG-1", f"{t.name} is knocked out until the Battle ends", ev.loc)
            return
        n = int(e.enemy_card.get("attack") or 1)
        total = self._roll(ev, n, e.name)
        hit = self._resolve_hit(ev, total, n, t)
        alt: dict[str, int] | None = None
        roll = f"[{', '.join(map(str, ev['dice']))}]" if ev["dice"] is not None else "(dice not recorded)"
        if not hit:
            self.rules.miss(t)
            self._t(ev, f"{e.name} → {t.name}: {roll} misses; {t.name} Dodge {t.dodge}")
        else:
            dmg = int(e.enemy_card.get("damage") or 0)
            if ev["damage"] is not None and ev["damage"] != dmg:
                self.ref.violation("LB-ATK-4", f"the log says the damage is {ev['damage']}, but a {e.enemy_card.name} "
                                   f"deals {dmg}", ev.at("damage"))
            alt = self._alt(t, dmg) if ev["damage"] not in (None, dmg) else None
            if ev["damage"] is not None:
                dmg = ev["damage"]
            self.rules.hurt(t, dmg)
            self._t(ev, f"{e.name} → {t.name}: {roll} hits for {dmg}; {t.brief()}")
            if isinstance(t, Player):
                for c in self.rules.items(t):
                    frac = self.rules.effect(c, "reflect")
                    if frac:
                        back = int(dmg * float(frac))
                        if back:
                            self.rules.hurt(e, back)
                            self._t(ev, f"{c.name} reflects {back} to {e.name}: {e.brief()}")
                            if e.health <= 0:
                                self._enemy_down(e, ev)
        self._claims(ev, t, alt)
        if t.health <= 0 or ev["ko"]:
            t.health = 0
            self._knock_out(t, enc, ev)
        self._after_blow(enc, ev)

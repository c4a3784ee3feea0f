"""Boss Fight rules engine: attacks, line of sight, defence, damage, death and the end (BF-LOS-1/2, BF-CMB-1…3, BF-END-1)."""

from __future__ import annotations

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core import hexgrid as hg
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.table_base import TableBase
from cardgen.games.boss_fight.vocab import BOSS, HEROES
from cardgen.play.resync import unslipped


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def damage_formula(base: int, s: int, t: int, f: dict[str, int]) -> tuple[int, str]:
    """BF-CMB-2: damage from the attack's ``base`` with statistic ``s`` against ``t``; the
    doubling and halving tests come first (ruling). Returns (damage, why)."""
    if base <= 0:
        return 0, "no damage"
    if s >= f["double_at"] * t:
        return base * f["multiply"], f"S ≥ {f['double_at']}×T: {base} × {f['multiply']}"
    if f["halve_at"] * s <= t:
        return _ceil_div(base, f["divide"]), f"S ≤ T÷{f['halve_at']}: {base} ÷ {f['divide']}, rounded up"
    if s > t:
        return base + f["step"], f"S > T: {base} + {f['step']}"
    if s < t:
        return max(f["min_damage"], base - f["step"]), f"S < T: {base} − {f['step']} (not below {f['min_damage']})"
    return base, "S = T: unchanged"




class CombatRules(TableBase):
    """Combat of :class:`~.table.Table`."""

    # -- attacks (BF-LOS-1, 2, BF-CMB-1, 2, 3) --------------------------------------------------------------

    def _attack_lines(self, f: Fighter, atype: str) -> list[tuple[str, dict]]:
        """What ``f`` carries that makes a ``atype`` attack: (name, {damage, stat, range, sight})."""
        out = []
        for e in f.equipment:
            line = e.get(atype)
            if isinstance(line, dict):
                out.append((e.id, {"damage": line.get("damage"), "stat": e.get("stat"), "range": line.get("range"),
                                   "sight": line.get("sight")}))
        cards = {c.id: c for c in [p.card for p in f.pieces] + ([f.card] if f.card is not None else [])
                 + list(f.abilities)}
        for c in cards.values():
            line = self._piece_attack(c, atype)
            if line is not None:
                out.append((c.id, line))
        return out

    def _piece_attack(self, c: Card, atype: str) -> dict | None:
        """The attack a Boss Piece prints (its ``attack`` field), if it is a ``atype`` attack."""
        line = c.get("attack")
        if not isinstance(line, dict) or str(line.get("kind")).lower() != atype:
            return None
        return {"damage": line.get("damage"), "stat": line.get("stat"), "range": line.get("range"),
                "sight": bool(line.get("sight"))}

    def play_attack(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if (ev["card"] is None) == (ev["source"] is None):
            raise LogError("LOG-FIELD", "an attack names the Attack card played ('card') or the card whose text grants "
                           "it ('source'), one of them", ev.loc)
        card = None
        if ev["card"] is not None:
            self._action(ev, f, attack=True)
            card = self._play(ev, f, "attack")
        else:
            self._card_or_text(ev["source"], ev.at("source"), "source")
            if self.phase == "place":
                self._end_placement(ev)
            if not f.alive:
                assert f.dead is not None
                self.ref.violation("BF-CMB-3", f"{f.key} died at line {f.dead.line}: the dead do not attack", ev.loc)
        atype = ev["attack"]
        if atype is None and card is not None:
            atype = card.get("attack")
        if atype is None and ev["source"] is not None:
            sc = self.cards.get(str(ev["source"]))
            atype = sc.get("attack") if sc is not None and sc.type == "action" else None
        if atype is not None:
            atype = str(atype).lower()
            if atype not in self.attack_names:
                raise LogError("LOG-FIELD", f"'attack' must be one of {', '.join(self.attack_names)}, not {atype!r}",
                               ev.at("attack"))
        if ev["target"] is None:
            self._t(ev, f"{f.key} plays {card.name if card else ev['source']} (no attack roll)")
            if card is not None:
                self._after_action(ev, f)
            return
        t = self._fighter(ev["target"], ev.at("target"), "target")
        if f.alive:
            self._resolve(ev, f, t, atype, card)
        if card is not None:
            self._after_action(ev, f)

    def _weapon(self, ev: Event, f: Fighter, atype: str | None) -> tuple[str, dict]:
        line: dict = {}
        name = "card text"
        if atype is not None:
            lines = self._attack_lines(f, atype)
            if ev["with"] is not None:
                w = self._card(ev["with"], ev.at("with"), "with")
                hit = [x for x in lines if x[0] == w.id]
                name = w.name
                if hit:
                    line = dict(hit[0][1])
                elif w.type == "equipment" and w not in f.equipment:
                    self.ref.violation("BF-ACT-2", f"{f.key} does not carry {w.name}", ev.at("with"))
                    line = {k: (w.get(atype) or {}).get(k) for k in ("damage", "range", "sight")} | {"stat": w.get("stat")}
                elif ev["base"] is None:
                    self.ref.violation("BF-ACT-2", f"{w.name} makes no {self.attack_names[atype]} Attack",
                                       ev.at("with"))
            elif len(lines) == 1:
                name = self.cards[lines[0][0]].name
                line = dict(lines[0][1])
            elif len(lines) > 1 and ev["base"] is None:
                raise LogError("LOG-FIELD", f"{f.key} has {len(lines)} things that make a "
                               f"{self.attack_names[atype]} Attack: name one with 'with'", ev.loc,
                               ", ".join(self.cards[x[0]].id for x in lines))
            elif not lines and ev["base"] is None:
                self.ref.violation("BF-ACT-2", f"{f.key} has nothing that makes a {self.attack_names[atype]} Attack",
                                   ev.at("card") if ev["card"] else ev.loc)
        for k, fld in (("damage", "base"), ("stat", "stat"), ("range", "range"), ("sight", "sight")):
            if ev[fld] is not None:
                line[k] = ev[fld]
        if line.get("stat") is not None:
            line["stat"] = str(line["stat"]).lower()
            if line["stat"] not in self.combat_stats:
                byname = {v.lower(): k for k, v in self.stat_names.items()}
                if line["stat"] in byname and byname[line["stat"]] in self.combat_stats:
                    line["stat"] = byname[line["stat"]]
                else:
                    raise LogError("LOG-FIELD", f"'stat' must be one of {', '.join(self.combat_stats)}, not "
                                   f"{line['stat']!r}", ev.at("stat"))
        return name, line

    def _resolve(self, ev: Event, f: Fighter, t: Fighter, atype: str | None, card: Card | None) -> None:
        if not t.alive:
            assert t.dead is not None
            self.ref.violation("BF-CMB-3", f"{t.key} died at line {t.dead.line}: a death token cannot be attacked",
                               ev.at("target"))
            return
        wname, line = self._weapon(ev, f, atype)
        missing = [k for k in ("damage", "stat") if line.get(k) is None]
        if missing:
            raise LogError("LOG-FIELD", f"this attack's {' and '.join(missing)} "
                           f"{'are' if len(missing) > 1 else 'is'} not printed on anything {f.key} carries: give "
                           f"{' and '.join('base' if k == 'damage' else k for k in missing)}", ev.loc)
        key = line["stat"]
        label = f"{self.attack_names.get(atype, '')} Attack".strip() if atype else "attack"
        # range and sight (BF-LOS-1, 2)
        d = self._dist(f, t)
        notes = []
        if line.get("range") is not None and d is not None:
            reach = int(line["range"]) + int(ev["range_bonus"] or 0)
            notes.append(f"range {reach}, distance {d}")
            if d > reach:
                self.ref.violation("BF-LOS-1", f"{t.key} is {d} tile{'s' if d != 1 else ''} from {f.key}; {wname}'s "
                                   f"{label} reaches {reach}", ev.at("target"))
        now = self.sees(f, t) if d is not None else True
        if ev["in_sight"] is not None and d is not None and ev["in_sight"] != now:
            self.ref.violation("BF-LOS-1", f"the log says {t.key} is {'' if ev['in_sight'] else 'not '}in {f.key}'s "
                               "line of sight, but it " + ("is: a corner-to-corner line crosses no obstacle" if now
                                                           else f"is not ({self._blocked_text(f, t)})"),
                               ev.at("in_sight"))
        if line.get("sight") and d is not None:
            if now:
                notes.append("in sight")
            elif t.key in f.seen_last:
                notes.append("out of sight, seen on its previous turn (BF-LOS-2)")
            elif t.key in f.seen_when or t.key in f.seen_now:
                when = "earlier this turn" if t.key in f.seen_now else f"in round {f.seen_when[t.key]}"
                self.ref.violation("BF-LOS-2", f"{f.key} has no line of sight to {t.key} ({self._blocked_text(f, t)}); "
                                   f"it saw it {when}, but only sight on its previous turn lets it attack an unseen "
                                   "target", ev.at("target"))
            else:
                self.ref.violation("BF-LOS-1", f"{wname}'s {label} needs sight, and {f.key} has no line of sight to "
                                   f"{t.key} ({self._blocked_text(f, t)})", ev.at("target"))
        # defence (BF-CMB-1)
        roll = ev["defence"]
        hit = True
        if roll is not None and self.ref.die(roll, self.die, "BF-CMB-1", ev.at("defence"), f"{t.key}'s defence d{self.die}"):
            hit = roll != self.miss
        if ev["hit"] is not None and ev["hit"] != hit:
            self.ref.violation("BF-CMB-1", f"the log says the attack {'hit' if ev['hit'] else 'missed'}, but "
                               + (f"a defence roll of {self.miss} makes it miss" if not hit else
                                  "only a defence roll of " + str(self.miss) + " makes an attack miss"
                                  + (f" (the roll is {roll})" if roll is not None else " (no roll is recorded)")),
                               ev.at("hit"))
        if ev["hit"] is not None:
            hit = bool(ev["hit"])
        elif not hit and ev["damage"]:
            # BF-CMB-1, not the damage formula: the roll made the attack miss, whatever damage is written
            self.ref.violation("BF-CMB-1", f"{t.key}'s defence roll of {roll} makes the attack miss: it deals 0 "
                               f"damage, but the log says {ev['damage']}", ev.at("damage"))
            dmg = int(ev["damage"])
            before = t.hp
            t.hp -= dmg
            t.hp_rule = "BF-CMB-2"
            self._t(ev, f"{f.key} at {t.key}: defence {roll} misses; as recorded {dmg} damage, {t.key} {before} → "
                        f"{t.hp} HP")
            self._hp_claim(t, ev["hp_left"], ev.at("hp_left"), "BF-CMB-2")
            if ev["hp_left"] is not None:
                t.hp = int(ev["hp_left"])
            self._settle(t, ev)
            return
        s = self.stat(f, key)
        tt = self.stat(t, key)
        dtext = ""
        if roll is not None and hit:
            add = int(roll) + int(ev["defence_bonus"] or 0)
            b = int(ev["defence_bonus"] or 0)
            dtext = f" + defence {roll}" + (f" {'+' if b > 0 else '−'} {abs(b)} by card text" if b else "")
            tt += add
        base = int(line["damage"]) + int(ev["bonus"] or 0)
        if hit:
            dmg, why = damage_formula(base, s, tt, self.formula)
            if ev["reduce"] and dmg > 0:
                dmg = max(self.formula["min_damage"], dmg - int(ev["reduce"]))
                why += f", − {ev['reduce']} (card text, not below {self.formula['min_damage']})"
        else:
            dmg, why = 0, f"defence {roll}: the attack misses"
        self.ref.claim("BF-CMB-2", "the damage", ev["damage"], dmg, ev.at("damage"))
        rules_dmg = dmg
        if ev["damage"] is not None:
            dmg = int(ev["damage"])
        before = t.hp
        t.hp -= dmg
        t.hp_rule = "BF-CMB-2"
        short = self.stat_short.get(key, key)
        head = f"{f.key}: {label} with {wname} at {t.key}" + (f" ({'; '.join(notes)})" if notes else "")
        if hit:
            self._t(ev, f"{head}: {short} {s} vs {self.stat(t, key)}{dtext}" + (f" = {tt}" if dtext else "")
                        + f" → {why} = {dmg} damage; {t.key} {before} → {t.hp} HP")
        else:
            self._t(ev, f"{head}: {why}" + (f"; as recorded {dmg} damage, {t.key} {t.hp} HP" if dmg else ""))
        if dmg == rules_dmg or ev["hp_left"] != before - rules_dmg:    # a wrong damage with the right Health
            self._hp_claim(t, ev["hp_left"], ev.at("hp_left"), "BF-CMB-2")     # left is one slip, reported once
        if ev["hp_left"] is not None and ev["hp_left"] != t.hp:
            t.hp = int(ev["hp_left"])
        if hit and dmg >= 0:
            for s_ in ev["status"] or []:
                self._inflict(t, self._status(s_, ev.at("status"), "status"), ev)
        self._settle(t, ev)

    def _blocked_text(self, f: Fighter, t: Fighter) -> str:
        obs = self._obstacles()
        ha, hb = f.hexes(), t.hexes()
        near = min(((x, y) for x in ha for y in hb), key=lambda p: hg.distance(*p))
        x, y = near
        blockers = sorted((h for h in obs if h not in (x, y) and hg.distance(h, x) < hg.distance(x, y)
                           and hg.distance(h, y) < hg.distance(x, y)), key=lambda h: hg.distance(h, x))
        return "sight blocked" + (f" near {self._offs(blockers[:3])}" if blockers else "")

    # -- health, death, the end (BF-CMB-3, BF-END-1) ---------------------------------------------------------

    def _settle(self, f: Fighter, ev: Event) -> None:
        if f.hp <= 0 and f.alive:
            f.dead = ev.loc
            self.deaths.append(f.key)
            self.died_here.append(f.key)
            f.statuses = {}
            self._t(ev, f"{f.key} dies ({f.hp} HP)" + (": a death token takes its place" if f.side == "hero" else ""))
            self._check_end(ev)
        elif f.hp > 0 and not f.alive and f.key in self.died_here:
            f.dead = None
            if f.key in self.deaths:
                self.deaths.remove(f.key)
            self._t(ev, f"{f.key} lives on (as recorded): {f.hp} HP")
            if self.over:
                self.over, self.winner, self.end_loc = False, None, None
            self._check_end(ev)

    def _check_end(self, ev: Event) -> None:
        """BF-END-1: all heroes dead, the boss wins; the boss dead, the heroes win."""
        if self.over:
            return
        if not self.boss().alive:
            self.winner = HEROES
        elif self.heroes() and not any(h.alive for h in self.heroes()):
            self.winner = BOSS
        else:
            return
        self.over = True
        self.end_loc = ev.loc
        self._t(ev, f"the game ends: {'the boss wins' if self.winner == BOSS else 'the heroes win'} (BF-END-1)")

    def play_death(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if f.alive:
            alt = unslipped(self.ref, f"{f.key}'s Health", f.hp)
            if alt is None or alt > 0:      # else the Health stated before was the slip: back in step
                self.ref.violation("BF-CMB-3", f"{f.key} has {f.hp} Health: a character dies at 0 or below",
                                   ev.at("character"))
            f.dead = ev.loc
            self.deaths.append(f.key)
            f.statuses = {}
            self._t(ev, f"{f.key} dies (as recorded)")
            self._check_end(ev)

    def play_game_end(self, ev: Event) -> None:
        w = ev["winner"]
        for f in self.fighters.values():     # alive only by a Health the log stated wrong: back in step
            alt = unslipped(self.ref, f"{f.key}'s Health", f.hp) if f.alive and not self.over else None
            if alt is not None and alt <= 0:
                f.hp = alt
                self._settle(f, ev)
        if not self.over:
            self.ref.violation("BF-END-1", "the game is not over: it ends when every hero or the boss is dead "
                               f"(the boss has {self.boss().hp} Health; {sum(h.alive for h in self.heroes())} "
                               "heroes live)", ev.loc)
            if w is not None:
                self.over, self.winner, self.end_loc = True, w, ev.loc
        elif w is not None and w != self.winner:
            self.ref.violation("BF-END-1", f"the log says {w} won, but {self.winner} did", ev.at("winner"))

    def _inflict(self, t: Fighter, s: str, ev: Event) -> None:
        if not t.alive:
            return
        if s in t.statuses:
            self._t(ev, f"{t.key} is already {self.status_names[s]}: a status does not stack (BF-STATUS-1)")
        t.statuses[s] = t.turns + 1
        self._t(ev, f"{t.key} is {self.status_names[s]}"
                    + (" until the end of its next turn" if s in self.short_statuses else ""))

    def _heal(self, t: Fighter, n: int) -> int:
        cap = t.stats["health"] if self.heal_cap == "start" else None
        new = t.hp + n
        if cap is not None:
            new = max(t.hp, min(new, cap))
        got = new - t.hp
        t.hp = new
        return got

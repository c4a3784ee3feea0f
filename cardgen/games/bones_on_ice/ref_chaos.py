"""Bones on Ice referee, part 4: the Chaos Table (BOI-CHAOS-1/2/3) — the roll, penalty shots,
Bone Shuffle."""

from __future__ import annotations

from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import did_you_mean
from cardgen.games.bones_on_ice.ref_rounds import EngineRounds
from cardgen.games.bones_on_ice.vocab import MID_PHASES


class EngineChaos(EngineRounds):
    """The Chaos Table's events."""

    def _chaos_card(self, value: Any, ev: Event) -> Card:
        s = str(value).strip().lower()
        cards = self.r.by_type.get("chaos", [])
        c = next((c for c in cards if s in (c.id.lower(), c.name.lower())), None)
        if c is None:
            raise LogError("LOG-FIELD", f"'entry' names no Chaos Table card: {value!r}", ev.at("entry"),
                           did_you_mean(s, [c.id for c in cards]))
        return c

    def on_chaos(self, ev: Event) -> None:
        late = self.phase in MID_PHASES and self.round in self.r.chaos_rounds and not self.chaos_done
        if self.phase in ("setup", "recovered") or (self.phase in MID_PHASES and not late and not self.markers):
            if not self._begin_round(ev):
                return
        if self.round not in self.r.chaos_rounds:
            self.ref.violation("BOI-CHAOS-1", f"a Chaos event is triggered at the start of rounds "
                               f"{', '.join(map(str, self.r.chaos_rounds))} only, not in round {self.round}", ev.loc)
        elif self.chaos_done:
            self.ref.violation("BOI-CHAOS-1", f"round {self.round} already had its Chaos event", ev.loc)
        if self.phase != "start":
            self.ref.violation("BOI-CHAOS-2", "the Chaos die is rolled at the start of the round, before the "
                               "Face-Off", ev.loc)
        self.chaos_done = True
        value = ev["die"]
        entry = None
        if self.ref.die(value, self.r.chaos_die, "BOI-ROLL-1", ev.at("die"), "the Chaos die"):
            entry = next((c for c in self.r.by_type.get("chaos", []) if c.get("face") == value), None)
        if ev.get("entry") is not None:
            stated = self._chaos_card(ev["entry"], ev)
            if entry is not None and stated is not entry:
                self.ref.violation("BOI-CHAOS-1", f"the Chaos die shows {value}: that is {entry.name}, not "
                                   f"{stated.name}", ev.at("entry"))
            entry = stated
        if entry is None:
            self._t(ev, f"Chaos die {value}: no entry")
            return
        self.chaos_entry = entry
        eff = self._effect("chaos_effects", entry)
        a, b = self.teams
        trailing = [] if a.score == b.score else [a if a.score < b.score else b]
        level = not trailing
        if eff.get("who", "all") == "all":
            who = list(self.teams)
        elif level:
            who = list(self.teams) if eff.get("level") == "both" else []
        else:
            who = trailing
        self.trailing = trailing
        kind = eff["effect"]
        text = f"Chaos die {value}: {entry.name}"
        if kind == "penalty_shot":
            first = self.last_faceoff_team or a
            self.penalty_queue = sorted(who, key=lambda t: t is not first)
            text += f" — penalty shot for the {' then the '.join(t.label for t in self.penalty_queue)}"
        elif kind == "scramble":
            self.scramble_due = True
            text += " — every skater but the Goalies is scrambled after the Face-Off"
        elif kind == "recover":
            amount = int(eff["amount"])
            for t in who:
                t.stamina = min(self.r.st_max, t.stamina + amount)
            text += (f" — {' and '.join(t.label for t in who)} recover {amount} Stamina ({self._stamina_text()})"
                     if who else " — nobody")
        elif kind == "win_faceoff":
            self.power_play = who[0] if len(who) == 1 else None
            text += (f" — the {self.power_play.label} win the Face-Off without a roll" if self.power_play
                     else " — level score: the Face-Off is rolled as usual")
        elif kind == "no_boost":
            self.no_boost = True
            text += " — no Boosts this round"
        elif kind == "roll_bonus":
            amount = int(eff["amount"])
            self.roll_bonus = (who[0], amount) if len(who) == 1 else None
            text += (f" — the {who[0].label} add {amount} to every roll this round" if len(who) == 1
                     else " — level score: nobody")
        self._t(ev, text)

    def on_penalty_shot(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        team = sk.team
        eff = self._effect("chaos_effects", self.chaos_entry) if self.chaos_entry else {}
        if eff.get("effect") != "penalty_shot" or self.phase != "start":
            self.ref.violation("BOI-CHAOS-2", "a penalty shot is taken only when the Chaos Table gives one, before "
                               "the Face-Off", ev.loc)
        elif team not in self.penalty_queue:
            self.ref.violation("BOI-CHAOS-2", f"the {team.label} have no penalty shot (the trailing team's "
                               "Attacker shoots; on a level score both Attackers)", ev.loc)
        elif self.penalty_queue[0] is not team:
            self.ref.violation("BOI-CHAOS-2", f"the {self.penalty_queue[0].label} shoot first (the last "
                               "Face-Off's winner)", ev.loc)
        if team in self.penalty_queue:
            self.penalty_queue.remove(team)
        role = eff.get("shooter")
        if role and sk.role != role:
            self.ref.violation("BOI-CHAOS-2", f"the penalty shot is taken by the {role}, not {sk.short} "
                               f"({sk.role})", ev.at("skater"))
        self._shot_on_goal(ev, sk, "penalty", "penalty shot", "BOI-1V1-1")
        self._score_claims(ev, "BOI-1V1-1")

    def on_scramble(self, ev: Event) -> None:
        eff = self._effect("chaos_effects", self.chaos_entry) if self.chaos_entry else {}
        if eff.get("effect") != "scramble":
            if not (self.chaos_reported and not self.chaos_done):    # else: the missing Chaos roll is the slip
                self.ref.violation("BOI-CHAOS-2", "skaters are scrambled only when the Chaos Table says so", ev.loc)
            eff = next((e for e in self.r.chaos_effects.values()
                        if isinstance(e, dict) and e.get("effect") == "scramble"), {})
        elif self.phase not in ("mid",) or self.mid_started:
            self.ref.violation("BOI-CHAOS-2", f"{self.chaos_name}'s rolls follow the Face-Off, before the "
                               "first Mid-Game action", ev.loc)
        self.scramble_due = False
        die = int(eff.get("die") or self.r.chaos_die)
        zones = eff.get("zones")
        zones = zones if isinstance(zones, dict) else {}
        rolls = ev["rolls"]
        seen = set()
        moved = []
        for key, value in rolls.items():
            sk = self._find_skater(key, ev, "rolls")
            seen.add(id(sk))
            if sk.role == self.r.goalie_role:
                self.ref.violation("BOI-SETUP-2", f"{sk.short} is a Goalie: Goalies stay in their own Defensive "
                                   "Zone and are not scrambled", ev.at("rolls"))
                continue
            if not self.ref.die(value, die, "BOI-ROLL-1", ev.at("rolls"), f"{sk.short}'s d{die}"):
                continue
            z = next((z for z, faces in zones.items() if value in (faces or [])), None)
            if z in self.r.zones:
                sk.zone = self._abs(sk.team, self.r.zones.index(z))
                moved.append(f"{sk.short} {value}→{self.r.zone_names.get(z, z)}")
        missing = [sk.short for sk in self.skaters if sk.role != self.r.goalie_role and id(sk) not in seen]
        if missing:
            self.ref.violation("BOI-CHAOS-2", f"each team rolls for each of its skaters except the Goalie: no roll "
                               f"for {', '.join(missing)}", ev.at("rolls"))
        self._t(ev, "scramble: " + ", ".join(moved))
        self.ref.trace(f"        rink: {self._rink_text()}")

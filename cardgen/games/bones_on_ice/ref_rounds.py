"""Bones on Ice referee, part 3: rounds and Recovery, the Chaos Table, the Face-Off."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...model import Card
from ...playlog import Event, LogError
from ...problems import did_you_mean
from .model import Skater, Team
from .ref_rolls import EngineRolls
from .vocab import CONTINUES, MID_PHASES


class EngineRounds(EngineRolls):
    """Rounds, Chaos and Face-Offs."""

    # -- rounds -------------------------------------------------------------------------------

    def _begin_round(self, ev: Event, stated: Any = None) -> bool:
        """Start the next round (closing the current one if the log skipped its Recovery).

        In step with the log's markers: a ``round_start`` names the round, and the replay takes
        its number (a wrong number is one BOI-ROUND-1, never a shift of every later round)."""
        if self.phase == "start":
            if not self.slipped:
                self.ref.violation("BOI-ROUND-1", f"round {self.round + 1} starts, but round {self.round} had no "
                                   "Face-Off", ev.loc)
            self._recover(ev, silent=True)
        elif self.phase not in ("setup", "recovered"):
            self.ref.violation("BOI-ROUND-1", f"round {self.round} ends without its Recovery (each round is "
                               "Face-Off, Mid-Game, 1v1, Recovery)", ev.loc)
            self._recover(ev, silent=True)
        if self.over or self.phase == "shootout":
            return False
        expected = self.round + 1
        numbered = isinstance(stated, int) and not isinstance(stated, bool) and 1 <= stated
        if numbered and stated != expected and self.unlabelled is not None and stated == self.unlabelled + 1:
            self.round = stated - 1     # the log's numbering resumes: the last marker was a typo
        elif numbered and stated != expected:
            self.ref.violation("BOI-ROUND-1", f"the log says round {stated} starts, but round {expected} comes "
                               f"next (round {self.round} was the last one played); the replay goes on from "
                               f"round {stated}", ev.at("round"))
            self.unlabelled = expected
            self.round = min(stated, self.r.rounds) - 1
        else:
            self.unlabelled = None
        self.round += 1
        self.phase = "start"
        self.slipped = False
        self.faceoff_done = False
        self.before_recovery = None
        self._reset_round_chaos()
        self.active, self.puck = None, None
        self.faceoff_pair = None
        for t in self.teams:
            t.touched_zero = False
            t.spirit_uses = 0
        self.ref.trace(f"      — round {self.round}{' (Chaos)' if self.round in self.r.chaos_rounds else ''} —")
        return True

    def _may_begin(self) -> bool:
        """Whether an event that opens a round (Face-Off, Chaos, Team Spirit) begins the next one
        here. A log with ``round_start`` markers begins rounds with them: until the next marker,
        the events belong to the current round (out of order, they are a slip of that round).
        Without markers, a Face-Off after the round's own Face-Off begins the next round; the
        first Face-Off of a round that began with a Mid-Game action (the slip) is its own."""
        return self.phase in ("setup", "recovered") or (not self.markers and self.phase in MID_PHASES
                                                         and self.faceoff_done)

    def on_round_start(self, ev: Event) -> None:
        self.markers = True
        if self.phase == "start" and ev["round"] == self.round and not self.chaos_done and not self.penalty_queue:
            self.ref.violation("BOI-ROUND-1", f"round {self.round} has started already (its marker is repeated)",
                               ev.loc)
            return
        self._begin_round(ev, ev["round"])

    def _recover(self, ev: Event, silent: bool = False) -> None:
        for t in self.teams:
            amount = self.r.exhausted_recovery if t.touched_zero else self.r.recovery
            t.stamina = min(self.r.st_max, t.stamina + amount)
        if not silent and ev.get("stamina"):
            self._stamina_claims(ev, ev["stamina"], "BOI-REC-1")
        if not silent:
            self._t(ev, "Recovery: " + ", ".join(
                f"{t.label} +{self.r.exhausted_recovery if t.touched_zero else self.r.recovery}"
                f"{' (Exhausted)' if t.touched_zero else ''}" for t in self.teams))
        self._state_lines(f"end of round {self.round}")
        self.phase = "recovered"
        self.pending = []
        if self.round >= self.r.rounds:
            self._end_regulation(ev)

    def _end_regulation(self, ev: Event) -> None:
        a, b = self.teams
        if a.score != b.score:
            w = a if a.score > b.score else b
            self._decide(w, "regulation", ev)
        else:
            self.phase = "shootout"
            self.shots = []
            for t in self.teams:
                t.spirit_uses = 0
            first = self.last_faceoff_team or a
            self._t(ev, f"tied {a.score}–{b.score} after round {self.r.rounds}: shootout of {self.r.shootout_rounds} "
                    f"rounds, the {first.label} shoot first")

    def _decide(self, team: Team | None, how: str, ev: Event) -> None:
        self.winner = team.key if team else None
        self.decided_by = how
        self.over = True
        self.phase = "over"
        if how == "shootout" or how == "draw":
            self.end_rule = "BOI-END-2"
        self._t(ev, f"the {team.label} win ({how})" if team else "the game ends in a draw")

    def on_recovery(self, ev: Event) -> None:
        ph = self.phase
        if ph in ("setup", "recovered"):
            self.ref.violation("BOI-ROUND-1", f"round {self.round} already had its Recovery" if self.round
                               else "a Recovery before the first round", ev.loc)
            return
        if ph in ("start", "faceoff_tie") and self.slipped:
            pass                        # the round's slip is reported already
        elif ph in ("start", "faceoff_tie"):
            self.ref.violation("BOI-ROUND-1", f"Recovery in round {self.round} before its Face-Off (each round is "
                               "Face-Off, Mid-Game, 1v1, Recovery)", ev.loc)
        elif ph == "one_v_one":
            self.ref.violation("BOI-MID-3", f"{self.shot.short}'s shot got through: the 1v1 comes before the "
                               "Recovery", ev.loc)
        elif ph == "rebound":
            self.ref.violation("BOI-1V1-1", "after a Save both roll for the rebound, before the Recovery", ev.loc)
        if self.scramble_due:
            self._scramble_missed(ev)
        self.pending = []
        # the score claim is checked before the recovery closes the round (and maybe the game)
        self._score_claims(ev, "BOI-1V1-1")
        self.before_recovery = self._snapshot(ph, ev)
        self._recover(ev)

    # -- keeping in step with the log: a Recovery the round goes on after ----------------------

    def _snapshot(self, phase: str, ev: Event) -> dict[str, Any]:
        """What a Recovery changes, to take it back if the log shows the round was not over."""
        phase, pass_info = self.pre_event
        return {"phase": phase, "pass_info": pass_info, "loc": ev.loc, "teams": [(t.stamina, t.touched_zero, t.spirit_uses) for t in self.teams],
                "over": self.over, "end_rule": self.end_rule}

    def _same_mid_game(self, ev: Event, snap: dict[str, Any]) -> bool:
        """Whether ``ev`` goes on with the Mid-Game the Recovery closed: the 1v1 or rebound it
        left open, or an action by a skater of the team that was acting."""
        if snap["phase"] in ("one_v_one", "rebound") or ev.kind in ("one_v_one", "rebound", "intercept"):
            return True
        try:
            sk = self._find_skater(ev.get("skater"), ev, "skater")
        except LogError:
            return False
        return self.active is not None and sk.team is self.active

    def reopen_if_premature(self, ev: Event) -> None:
        """An event that belongs to the round (a Mid-Game action, the 1v1, a rebound) right after
        its Recovery shows the Recovery came too early (in a log without ``round_start``
        markers: an action of the team that was acting): one BOI-ROUND-1 at the Recovery's
        line; the round is reopened (the Recovery taken back) and goes on, so the real Recovery
        and every later round replay in step."""
        snap = self.before_recovery
        if snap is None or self.shots or self.phase not in ("recovered", "over", "shootout"):
            return
        pre = snap["phase"]
        goes_on = ev.kind in CONTINUES if pre in ("mid", "pass", "one_v_one", "rebound") else (
            ev.kind == "faceoff" and pre in ("start", "faceoff_tie") and self.markers)
        if not goes_on or self.decided_by not in (None, "regulation"):
            return
        if not self.markers and not self._same_mid_game(ev, snap):
            return                      # without markers: the next round's action, its Face-Off forgotten
        if pre in ("mid", "pass"):      # otherwise the Recovery was reported when it came
            line = f" (line {ev.loc.line})" if ev.loc else ""
            self.ref.violation("BOI-ROUND-1", f"a Recovery in the middle of round {self.round}: '{ev.kind}'{line} "
                               "still belongs to the round, and the Recovery is its last step", snap["loc"])
        for t, (stamina, touched, uses) in zip(self.teams, snap["teams"]):
            t.stamina, t.touched_zero, t.spirit_uses = stamina, touched, uses
        self.over, self.end_rule = snap["over"], snap["end_rule"]
        self.winner = self.decided_by = None
        self.phase, self.pass_info = pre, snap["pass_info"]
        self.slipped = True
        self.before_recovery = None

    # -- Chaos Table (BOI-CHAOS-1/2/3) ---------------------------------------------------------

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
            self.ref.violation("BOI-CHAOS-2", f"{self.chaos_entry.name}'s rolls follow the Face-Off, before the "
                               "first Mid-Game action", ev.loc)
        self.scramble_due = False
        die = int(eff.get("die") or self.r.chaos_die)
        zones = eff.get("zones") if isinstance(eff.get("zones"), dict) else {}
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

    def _scramble_missed(self, ev: Event) -> None:
        self.ref.violation("BOI-CHAOS-2", f"{self.chaos_entry.name}: the skaters are scrambled after the Face-Off "
                           "('scramble' event) before the Mid-Game goes on", ev.loc)
        self.scramble_due = False

    # -- Face-Off (BOI-FO-1, BOI-SETUP-2) ----------------------------------------------------

    def on_faceoff(self, ev: Event) -> None:
        if self._may_begin():
            if not self._begin_round(ev):
                return
        elif self.phase in MID_PHASES and self.faceoff_done:
            self.ref.violation("BOI-ROUND-1", f"round {self.round} already had its Face-Off; the next round "
                               "starts after the Recovery ('round_start')", ev.loc)
        self.faceoff_done = True
        if self.round in self.r.chaos_rounds and not self.chaos_done and not self.chaos_reported:
            self.chaos_reported = True
            self.ref.violation("BOI-CHAOS-1", f"round {self.round} starts with a Chaos event (rolled before the "
                               "Face-Off)", ev.loc)
        if self.penalty_queue:
            self.ref.violation("BOI-CHAOS-2", f"{self.chaos_entry.name}: the penalty shot of the "
                               f"{' and the '.join(t.label for t in self.penalty_queue)} comes before the Face-Off",
                               ev.loc)
            self.penalty_queue = []
        skaters = [self._find_skater(s, ev, "skaters") for s in ev["skaters"]]
        by_team: dict[int, Skater] = {}
        for sk in skaters:
            if sk.role not in self.r.acting_roles:
                self.ref.violation("BOI-FO-1", f"{sk.short} is a Goalie: each team picks a skater other than the "
                                   "Goalie for the Face-Off", ev.at("skaters"))
            if sk.team.idx in by_team:
                self.ref.violation("BOI-FO-1", f"each team picks one skater for the Face-Off; the {sk.team.label} "
                                   f"send {by_team[sk.team.idx].short} and {sk.short}", ev.at("skaters"))
            else:
                by_team[sk.team.idx] = sk
        self._place_for_faceoff()
        stated = self._stated_winner(ev)
        pp = self.power_play if self.phase == "start" else None
        if pp is not None:
            if ev.get("rolls") is not None:
                self.ref.violation("BOI-CHAOS-2", f"{self.chaos_entry.name}: the {pp.label} win the Face-Off "
                                   "without a roll", ev.at("rolls"))
            if stated is not None and stated is not pp:
                self.ref.violation("BOI-CHAOS-2", f"{self.chaos_entry.name}: the {pp.label} win this Face-Off, "
                                   f"not the {stated.label}", ev.at("winner"))
                pp = stated
            sk = by_team.get(pp.idx)
            if sk is None:
                self.ref.violation("BOI-FO-1", f"the {pp.label} pick their Face-Off skater: name it in 'skaters'",
                                   ev.at("skaters"))
                sk = next(s for s in pp.skaters if s.role in self.r.acting_roles)
            self.pending = []
            self._won_faceoff(ev, sk, f"Face-Off: {self.chaos_entry.name} gives it to {sk.short}")
            return
        if len(by_team) < 2:
            missing = [t for t in self.teams if t.idx not in by_team]
            self.ref.violation("BOI-FO-1", "each team picks one skater for the Face-Off; the log names none for "
                               f"the {' and the '.join(t.label for t in missing)}", ev.at("skaters"))
            for t in missing:
                by_team[t.idx] = next((s for s in t.skaters if s.role in self.r.acting_roles), t.skaters[0])
        pair = (by_team[0], by_team[1])
        if self.phase == "faceoff_tie" and self.faceoff_pair and pair != self.faceoff_pair:
            self.ref.violation("BOI-ROLL-2", f"the tied Face-Off is re-rolled by the same skaters "
                               f"({self.faceoff_pair[0].short} and {self.faceoff_pair[1].short})", ev.at("skaters"))
        first = skaters[0] if skaters and skaters[0] in pair else pair[0]
        second = pair[1] if first is pair[0] else pair[0]
        a, d = self._side(first, "reflexes"), self._side(second, "reflexes")
        w, text = self._contest(ev, "faceoff", a, d, self.r.ties["face_off"], "BOI-FO-1", "Face-Off",
                                stated)
        if w is None:
            self.phase = "faceoff_tie"
            self.faceoff_pair = pair
            self._t(ev, f"Face-Off: {text} — tie, re-roll")
            return
        self._won_faceoff(ev, w.skater, f"Face-Off: {text} → {w.skater.short}")

    def _won_faceoff(self, ev: Event, sk: Skater, text: str) -> None:
        self.active, self.puck = sk.team, sk
        self.last_faceoff_team = sk.team
        self.phase = "mid"
        self.acted, self.extra = Counter(), Counter()
        self.mid_started = False
        self.defense_everywhere = set()
        self.shot, self.pass_info = None, None
        self._t(ev, f"{text}: the {sk.team.label} have the puck")


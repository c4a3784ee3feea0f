"""Bones on Ice referee, part 3: rounds and Recovery (in step with the log's markers), the
Face-Off."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.games.bones_on_ice.model import Skater, Team
from cardgen.games.bones_on_ice.ref_rolls import EngineRolls
from cardgen.games.bones_on_ice.vocab import CONTINUES, MID_PHASES


class EngineRounds(EngineRolls):
    """Rounds, Chaos and Face-Offs."""

    def _place_for_faceoff(self) -> None:
        for sk in self.skaters:
            zone = self.r.goalie_zone if sk.role == self.r.goalie_role else self.r.faceoff_zone
            sk.zone = self._abs(sk.team, self.r.zones.index(zone) if zone in self.r.zones else 0)

    def _scramble_missed(self, ev: Event) -> None:
        self.ref.violation("BOI-CHAOS-2", f"{self.chaos_name}: the skaters are scrambled after the Face-Off "
                           "('scramble' event) before the Mid-Game goes on", ev.loc)
        self.scramble_due = False

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
            assert self.shot is not None        # the phase of a shot that got through
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
        self.ref.trace(f"      the Recovery is taken back: round {self.round} goes on")
        self.slipped = True
        self.before_recovery = None

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
            self.ref.violation("BOI-CHAOS-2", f"{self.chaos_name}: the penalty shot of the "
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
                self.ref.violation("BOI-CHAOS-2", f"{self.chaos_name}: the {pp.label} win the Face-Off "
                                   "without a roll", ev.at("rolls"))
            if stated is not None and stated is not pp:
                self.ref.violation("BOI-CHAOS-2", f"{self.chaos_name}: the {pp.label} win this Face-Off, "
                                   f"not the {stated.label}", ev.at("winner"))
                pp = stated
            picked = by_team.get(pp.idx)
            if picked is None:
                self.ref.violation("BOI-FO-1", f"the {pp.label} pick their Face-Off skater: name it in 'skaters'",
                                   ev.at("skaters"))
                picked = next(s for s in pp.skaters if s.role in self.r.acting_roles)
            self.pending = []
            self._won_faceoff(ev, picked, f"Face-Off: {self.chaos_name} gives it to {picked.short}")
            return
        if len(by_team) < self.r.n_teams:
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


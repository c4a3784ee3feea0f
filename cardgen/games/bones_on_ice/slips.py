"""Bones on Ice — events out of order within a round, named once and applied as recorded: a
Mid-Game action before the Face-Off or after the Mid-Game ended, a second Face-Off, a Chaos
roll, penalty shot or Bone Shuffle at the wrong moment, an Interception with no Pass, a 1v1 or
rebound with no shot, a shootout shot out of turn. The state is put where the log has it; an
event applied outside its round's order leaves the round where it was."""

from __future__ import annotations

from typing import Any

from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.words import chaos_name, label, short
from cardgen.play.api import Action
from cardgen.play.replay import Finding

MID_PHASES = ("mid", "pass", "one_v_one", "rebound", "mid_over")
#: events that belong to a round's Mid-Game or 1v1: after the round's Recovery they show it came early
CONTINUES = ("move", "shoot", "pass", "intercept", "tactical_move", "one_v_one", "rebound", "scramble")
ROUND_1 = "BOI-ROUND-1"
Slipped = tuple[list[Finding], bool]


def phase_of(st: BoiState) -> str:
    """The round's phase as the log's order sees it (between two events)."""
    if st.is_terminal():
        return "over"
    if st.roll is not None:
        return {"faceoff": "faceoff_tie", "one_v_one": "one_v_one", "rebound": "rebound"}.get(st.roll["kind"],
                                                                                              "mid")
    return {"round": "setup" if st.round == 0 else "recovered", "chaos": "start", "penalty": "start",
            "faceoff": "start", "window": "mid", "scramble": "mid"}.get(st.phase, st.phase)


def shooter(st: BoiState) -> str:
    return short(st, st.shot) if st.shot is not None else "?"


def no_recovery(st: BoiState) -> Finding:
    """BOI-ROUND-1: the round the log ends without its Recovery."""
    return Finding(ROUND_1, f"round {st.round} ends without its Recovery (each round is Face-Off, Mid-Game, "
                            "1v1, Recovery)")


class Slips:
    """The order slips of one replay (mixed into :class:`.instep.InStep`)."""

    def __init__(self) -> None:
        self.markers = False  # the log has round_start markers: rounds begin with them
        self.slipped = False  # this round's order slip is named (one slip, one problem)
        self.mute = False  # the event is applied as recorded, not judged again
        self.silent = False  # the event is not played and states nothing checked
        self.ok: tuple[str, ...] = ()  # action kinds of this event judged here already
        self.stray: tuple[str, int | None, list[int]] | None = None  # the phase to go back to after the event
        self.taken_back = False
        self.fo_done = False  # this round had its Face-Off
        self.chaos_named = False  # this round's missing Chaos roll is named
        self.mid_end: tuple[str, str] = ("BOI-MID-1", "")
        self.unlabelled: int | None = None  # the round the rules count, after a marker named another
        self.offsets: dict[Any, int] = {}  # stated values off by a slip (see claims)
        self.next_round: Any = None     # the number the log's next round marker states

    def begin(self, st: BoiState, stated: Any = None) -> list[Finding]:
        """The next round starts (its marker naming ``stated``); the current one is closed first
        if the log skipped its Recovery. The state is left at the round's chance node."""
        out = self.close(st)
        if phase_of(st) in ("over", "shootout"):
            return out
        expected = st.round + 1
        numbered = isinstance(stated, int) and not isinstance(stated, bool) and stated >= 1
        if numbered and stated != expected and self.unlabelled is not None and stated == self.unlabelled + 1:
            st.round = stated - 1  # the log's numbering resumes: the last marker was a typo
        elif numbered and stated != expected and self.next_round == expected + 1:
            out.append(Finding(ROUND_1, f"the log says round {stated} starts, but round {expected} comes "
                               f"next (round {st.round} was the last one played; the next marker says round "
                               f"{expected + 1}): the replay goes on from round {expected}", "round"))
            self.unlabelled = None      # a typo: the rules' count goes on
        elif numbered and stated != expected:
            out.append(Finding(ROUND_1,
                               f"the log says round {stated} starts, but round {expected} comes next "
                               f"(round {st.round} was the last one played); the replay goes on from round "
                               f"{stated}", "round"))
            self.unlabelled = expected
            st.round = min(stated, st.r.rounds) - 1
        else:
            self.unlabelled = None
        self.slipped = False
        return out

    def close(self, st: BoiState) -> list[Finding]:
        """A round the log ends without its Recovery (or without a Face-Off)."""
        ph = phase_of(st)
        out = []
        if ph == "start":
            if not self.slipped:
                out.append(Finding(ROUND_1,
                                   f"round {st.round + 1} starts, but round {st.round} had no Face-Off"))
            recover(st)
        elif ph not in ("setup", "recovered", "over", "shootout"):
            out.append(no_recovery(st))
            recover(st)
        return out

    def may_begin(self, st: BoiState) -> bool:
        """Whether an event that opens a round (Face-Off, Chaos, Team Spirit) begins the next one
        here (a log with markers begins rounds with them)."""
        ph = phase_of(st)
        return ph in ("setup", "recovered") or (not self.markers and ph in MID_PHASES and self.fo_done)

    def scramble_missed(self, st: BoiState) -> list[Finding]:
        if not st.scramble_due:
            return []
        st.scramble_due, st.scramble = False, None
        if st.phase == "scramble":
            st.open_mid()
        return [Finding("BOI-CHAOS-2",
                        f"{chaos_name(st)}: the skaters are scrambled after the Face-Off ('scramble' "
                        "event) before the Mid-Game goes on")]

    def away(self, st: BoiState) -> None:
        """The event is applied outside the round's order: the round stays where it was (its
        phase, who acts, and among the penalty shots those still due)."""
        self.stray = (st.phase, st.active, list(st.penalty_queue))

    def after(self, st: BoiState, ev: dict[str, Any], was: str) -> None:
        """After the event: a stray event's round put back; why a Mid-Game ended, kept."""
        if self.stray is not None:
            st.phase, st.active, due = self.stray
            if st.phase == "penalty":   # back among the penalty shots: those still due stay due
                st.penalty_queue = due
            st.roll, st.pass_info = None, None
            self.stray = None
        elif st.phase == "mid_over" and was != "mid_over":
            self.mid_end = _why_over(st, ev)

    # -- the Face-Off ---------------------------------------------------------------------------
    def step_faceoff(self, st: BoiState, ev: dict[str, Any]) -> Slipped:
        out: list[Finding] = []
        ph = phase_of(st)
        if self.may_begin(st):
            out += self.begin(st)
            if phase_of(st) in ("over", "shootout"):
                return out, False
            st.begin_round(st.round + 1)
            self.fo_done = self.chaos_named = False
        elif ph in MID_PHASES and self.fo_done:
            out.append(Finding(ROUND_1,
                               f"round {st.round} already had its Face-Off; the next round starts after "
                               "the Recovery ('round_start')"))
            st.roll, st.pass_info, st.phase, st.picks = None, None, "faceoff", []
        self.fo_done = True
        out += self.before_faceoff(st)
        if st.roll is None and st.phase != "faceoff":  # a Face-Off where the log has it
            st.phase, st.picks = "faceoff", []
        return out + self.faceoff_skaters(st, ev), True

    def before_faceoff(self, st: BoiState) -> list[Finding]:
        out = []
        if st.phase == "chaos":
            if not self.chaos_named:
                self.chaos_named = True
                out.append(Finding("BOI-CHAOS-1",
                                   f"round {st.round} starts with a Chaos event (rolled before the "
                                   "Face-Off)"))
            st.phase = "faceoff"
        if st.penalty_queue:
            teams = " and the ".join(label(st, t) for t in st.penalty_queue)
            out.append(Finding("BOI-CHAOS-2",
                               f"{chaos_name(st)}: the penalty shot of the {teams} comes before the "
                               "Face-Off"))
            st.penalty_queue, st.phase = [], "faceoff"
        return out

    def faceoff_skaters(self, st: BoiState, ev: dict[str, Any]) -> list[Finding]:
        """Each team's one skater (BOI-FO-1), the tie re-rolled by the same pair (BOI-ROLL-2), a
        Power Play's team (BOI-CHAOS-2); the log's picks as recorded."""
        P, out = st.s.pieces, []
        by_team: dict[int, str] = {}
        for sid in ev.get("skaters") or []:
            t = P[st.piece(sid)].team
            if t in by_team and by_team[t] != sid:
                out.append(Finding("BOI-FO-1",
                                   f"each team picks one skater for the Face-Off; the {label(st, t)} send "
                                   f"{short(st, st.piece(by_team[t]))} and {short(st, st.piece(sid))}",
                                   "skaters"))
            by_team.setdefault(t, sid)
        if st.roll is not None:  # a tie re-rolled
            pair = {P[st.roll["a"]].id, P[st.roll["d"]].id}
            if set(by_team.values()) != pair and len(by_team) == 2:
                a, d = short(st, st.roll["a"]), short(st, st.roll["d"])
                out.append(Finding("BOI-ROLL-2",
                                   f"the tied Face-Off is re-rolled by the same skaters ({a} and {d})",
                                   "skaters"))
                ta = P[st.roll["a"]].team  # as recorded: the log's pair rolls
                st.roll["a"], st.roll["d"] = st.piece(by_team[ta]), st.piece(by_team[1 - ta])
            return out
        if st.power_play is not None:
            return out + self.power_play(st, ev, by_team)
        missing = [t for t in (0, 1) if t not in by_team]
        if missing:
            out.append(Finding("BOI-FO-1",
                               "each team picks one skater for the Face-Off; the log names none for the "
                               f"{' and the '.join(label(st, t) for t in missing)}", "skaters"))
        for t in missing:
            by_team[t] = P[st.m.acting[t][0]].id
        ev["skaters"] = [by_team[t] for t in (0, 1)]
        return out

    def power_play(self, st: BoiState, ev: dict[str, Any], by_team: dict[int, str]) -> list[Finding]:
        assert st.power_play is not None
        pp, out = st.power_play, []
        if ev.get("rolls") is not None:
            out.append(Finding("BOI-CHAOS-2",
                               f"{chaos_name(st)}: the {label(st, pp)} win the Face-Off without a roll",
                               "rolls"))
        if ev.get("winner") is not None and ev["winner"] != st.players[pp]:
            out.append(Finding("BOI-CHAOS-2",
                               f"{chaos_name(st)}: the {label(st, pp)} win this Face-Off, not the "
                               f"{label(st, 1 - pp)}", "winner"))
            pp = st.power_play = 1 - pp
        if pp not in by_team:
            out.append(Finding("BOI-FO-1",
                               f"the {label(st, pp)} pick their Face-Off skater: name it in 'skaters'",
                               "skaters"))
            by_team[pp] = st.s.pieces[st.m.acting[pp][0]].id
        ev["skaters"] = [by_team[pp]]
        return out

    # -- the Mid-Game -----------------------------------------------------------------------------
    def step_move(self, st: BoiState, ev: dict[str, Any]) -> Slipped:
        return self.mid_check(st, ev), True

    step_shoot = step_pass = step_tactical_move = step_move

    def mid_check(self, st: BoiState, ev: dict[str, Any]) -> list[Finding]:
        """A Mid-Game action where the round is not in its Mid-Game: named once, applied as recorded."""
        ph = phase_of(st)
        team = st.s.pieces[st.piece(ev["skater"])].team
        out = self.out_of_mid(st, ph, team)
        if ph == "faceoff_tie":
            out.append(Finding("BOI-ROLL-2", "the Face-Off was tied: it is re-rolled before the Mid-Game"))
            st.roll, st.active, st.phase = None, team, "mid"
        elif ph in ("one_v_one", "rebound"):
            out.append(Finding("BOI-MID-3", f"{shooter(st)}'s shot got through: the 1v1 comes next")
                       if ph == "one_v_one"
                       else Finding("BOI-1V1-1", "after a Save both roll for the rebound ('rebound' event)"))
            st.roll, st.phase = None, "mid"
        elif ph == "mid_over":
            rule, why = self.mid_end
            who = f"the {label(st, st.active)}'" if st.active is not None else "the active team's"
            out.append(Finding(rule, f"{who} Mid-Game is over ({why}): no more actions this round"))
            st.phase, st.active, self.mute = "mid", team, True
        if st.active is None:
            st.active = team
        return out if self.mute else out + self.scramble_missed(st)

    def out_of_mid(self, st: BoiState, ph: str, team: int) -> list[Finding]:
        if ph not in ("setup", "recovered", "start"):
            return []
        out = []
        if self.markers:
            if not self.slipped:
                out.append(Finding(ROUND_1,
                                   f"round {st.round} is over (its Recovery was played): the next round "
                                   "starts with 'round_start' and its Face-Off"
                                   if ph == "recovered"
                                   else f"the Mid-Game follows the Face-Off; round {st.round} had none yet"))
            self.away(st)
        else:
            out.append(
                Finding(ROUND_1,
                        "the Mid-Game follows the Face-Off; "
                        + ("no round is under way" if ph != "start" else f"round {st.round} had none"))
            )
            if ph != "start":
                out += self.begin(st)
                st.begin_round(st.round + 1)
                self.fo_done = self.chaos_named = False
        self.slipped = self.mute = True
        st.phase, st.active, st.penalty_queue = "mid", team, []
        st.acted, st.extra = [0] * len(st.acted), [0] * len(st.extra)
        return out

    def step_intercept(self, st: BoiState, ev: dict[str, Any]) -> Slipped:
        if st.phase == "pass" and st.pass_info is not None:
            return [], True
        out = [Finding("BOI-MID-4", "an Interception answers a Pass, right after it; no Pass was just made")]
        sk = st.piece(ev["skater"])
        if st.puck is None or st.s.pieces[st.puck].team == st.s.pieces[sk].team or st.roll is not None:
            return out, False
        st.phase, st.pass_info = "pass", (st.puck, st.puck)
        return out, True

    def step_one_v_one(self, st: BoiState, ev: dict[str, Any]) -> Slipped:
        if phase_of(st) == "one_v_one":
            named = ev.get("skater")
            if named is None or st.piece(named) == st.shot:
                return [], True
            s = shooter(st)
            return [Finding("BOI-MID-3",
                            f"{s}'s shot got through: {s} takes the 1v1, not {short(st, st.piece(named))}",
                            "skater")], True
        out = [Finding("BOI-MID-3", "a 1v1 follows a Shoot that gets past the defending skater")]
        sk = st.piece(ev["skater"]) if ev.get("skater") is not None else st.puck
        if sk is None:
            return out, False
        team = st.s.pieces[sk].team
        st.shot, st.shot_pos, st.pass_info = sk, st.pos[sk], None
        st.start_roll("one_v_one", {"kind": "one_v_one", "skater": st.s.pieces[sk].id}, sk,
                      st.goalie(1 - team), "marksmanship", "reflexes")
        return out, True

    def step_rebound(self, st: BoiState, ev: dict[str, Any]) -> Slipped:
        if phase_of(st) == "rebound":
            return [], True
        out = [Finding("BOI-1V1-1", "a rebound is rolled after a Save in the 1v1")]
        if st.shot is None:
            return out, False
        team = st.s.pieces[st.shot].team
        st.pass_info = None
        st.start_roll("rebound", {"kind": "rebound"}, st.shot, st.goalie(1 - team), "reflexes", "reflexes")
        return out, True


def _why_over(st: BoiState, ev: dict[str, Any]) -> tuple[str, str]:
    kind = ev["kind"]
    taker = short(st, st.puck) if st.puck is not None else "?"
    if kind == "move":
        return "BOI-MID-1", f"{taker} stopped {short(st, st.piece(ev['skater']))}'s Move and took the puck"
    if kind == "shoot":
        return "BOI-MID-7", f"{taker} blocked the shot and took the puck"
    if kind == "intercept":
        return "BOI-MID-1", f"{taker} intercepted the pass"
    if kind == "one_v_one":
        return "BOI-MID-7", f"{shooter(st)} scored"
    if kind == "rebound":
        return "BOI-MID-1", f"{taker} won the rebound"
    return "BOI-MID-1", f"the {kind}"


def recover(st: BoiState) -> None:
    """The round ends here as the log has it (its Recovery, silently)."""
    st.roll, st.pass_info, st.scramble = None, None, None
    st.do_recovery(Action("recovery", ()))
    if st.log and st.events and st.events[-1]["kind"] == "recovery":
        st.events.pop()

"""Bones on Ice — the replay kept in step with the log: an event is applied as recorded, and
the round follows the log's own markers (``round_start``, the Face-Off, the Recovery). One slip
is one problem, never a cascade: a round that ends without its Recovery, a marker repeated or
misnumbered (a one-off typo does not shift the next marker), play after the end or instead of
the shootout, a Team Spirit with no roll to change, a Recovery the round goes on after (taken
back: one problem at its line). Events out of order within a round: :mod:`.slips`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.content.playlog import LogError
from cardgen.games.bones_on_ice.claims import scores
from cardgen.games.bones_on_ice.slips import (
    CONTINUES,
    MID_PHASES,
    ROUND_1,
    Slips,
    no_recovery,
    phase_of,
    recover,
    shooter,
)
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.words import chaos_name, label, short
from cardgen.play.api import Action
from cardgen.play.dice import die_slip, off_die
from cardgen.play.replay import Finding

if TYPE_CHECKING:
    from cardgen.games.bones_on_ice.translate import Translator

ROLL_KINDS = ("faceoff", "move", "shoot", "intercept", "one_v_one", "rebound", "penalty_shot", "shootout")


class InStep(Slips):
    """One replay's view of the log's markers."""

    def __init__(self) -> None:
        super().__init__()
        self.past_end = False  # play after the end (or instead of the shootout) is named once
        self.nxt: dict[str, Any] | None = None  # the log's next event

    def before(self, st: BoiState, ev: dict[str, Any], tr: Translator) -> tuple[list[Finding], bool]:
        """What the log's order gets wrong before ``ev`` is played, and whether it is played."""
        kind = ev["kind"]
        self.mute, self.silent, self.stray, self.ok = False, False, None, ()
        if st.is_terminal():
            self.silent = True
            return self.after_end(st, kind), False
        if st.phase == "shootout" and st.roll is None and kind not in ("shootout", "team_spirit"):
            self.silent = True
            return self.not_shootout(st, kind), False
        over = boosts_over(st, ev)
        self.ok = ("boost",) if over else ()  # named once: a second Boost is played as recorded
        noted = self.unused_spirits(st, kind, tr) + over
        handler = getattr(self, "step_" + kind, None)
        if handler is None:
            return noted, True
        more, play = handler(st, ev)
        return noted + more, play

    def unused_spirits(self, st: BoiState, kind: str, tr: Translator) -> list[Finding]:
        if not tr.waiting or kind in ROLL_KINDS or kind == "team_spirit":
            return []
        out = [
            Finding("BOI-SPIRIT-1",
                    f"the {label(st, st.players.index(a['team']))}' {_spirit_name(st, a['team'])} is used "
                    f"before a roll, but no roll follows ('{kind}' comes next)")
            for a in tr.waiting
        ]
        tr.waiting.clear()
        return out

    def after_end(self, st: BoiState, kind: str) -> list[Finding]:
        if self.past_end:
            return []
        self.past_end = True
        why = f"the {label(st, st.winner)} won" if st.winner is not None else "it ended in a draw"
        when = "in the shootout" if st.decided_by == "shootout" else f"after round {st.r.rounds}"
        rule = "BOI-END-2" if st.decided_by in ("shootout", "draw") else "BOI-END-1"
        return [Finding(rule,
                        f"event '{kind}' after the game has ended ({why} {when}); the events after it are "
                        "not replayed")]

    def not_shootout(self, st: BoiState, kind: str) -> list[Finding]:
        if self.past_end:
            return []
        self.past_end = True
        return [Finding("BOI-END-2",
                        f"the score is tied after round {st.r.rounds}: the game goes to a shootout "
                        f"('shootout' events), not '{kind}'")]

    # -- rounds -------------------------------------------------------------------------------
    def step_round_start(self, st: BoiState, ev: dict[str, Any]) -> tuple[list[Finding], bool]:
        self.markers = True
        ph = phase_of(st)
        if (
            ph == "start"
            and ev.get("round") == st.round
            and not st.effect
            and not st.penalty_queue
            and st.entry_id is None
        ):
            return [Finding(ROUND_1, f"round {st.round} has started already (its marker is repeated)")], False
        out = self.begin(st, ev.get("round"))
        return out, phase_of(st) not in ("over", "shootout")

    def step_team_spirit(self, st: BoiState, ev: dict[str, Any]) -> tuple[list[Finding], bool]:
        """A Team Spirit used before the Face-Off begins the round (a log without its marker); one
        that names a skater needs its ``skater``."""
        card, eff = st.spirit(st.players.index(ev["team"]))
        if card is None:
            raise LogError("LOG-GAME", f"the {ev['team']} have no Team Spirit card", None)
        if eff is not None and eff["effect"] != "defense_everywhere" and ev.get("skater") is None:
            raise LogError("LOG-FIELD", f"'team_spirit' for {card.name} needs 'skater' (the skater it names)",
                           None)
        if phase_of(st) not in ("setup", "recovered"):
            return [], True
        out = self.begin(st)
        if phase_of(st) in ("over", "shootout"):
            return out, False
        st.begin_round(st.round + 1)
        self.fo_done = self.chaos_named = False
        return out, True

    # -- the Recovery ---------------------------------------------------------------------------
    def step_recovery(self, st: BoiState, ev: dict[str, Any]) -> tuple[list[Finding], bool]:
        ph = phase_of(st)
        if ph in ("setup", "recovered"):
            return [Finding(ROUND_1,
                            f"round {st.round} already had its Recovery"
                            if st.round
                            else "a Recovery before the first round")], False
        out = self.recovery_slips(st, ph)
        if self.goes_on(st, ph, self.nxt):
            if ph in ("mid", "pass"):
                out.append(Finding(ROUND_1, f"a Recovery in the middle of round {st.round}: "
                                   f"'{(self.nxt or {}).get('kind')}' (the next event) still belongs to "
                                   "the round, and the Recovery is its last step"))
            self.taken_back = self.slipped = True
            ev.pop("stamina", None)  # the Recovery is taken back: its Stamina is not compared
            return out, False
        st.roll, st.pass_info, st.scramble = None, None, None
        if st.phase not in ("mid", "mid_over"):
            st.phase = "mid_over"
        if isinstance(ev.get("score"), dict):  # checked before the Recovery closes the round (the game)
            out += scores(st, ev.pop("score"), False, self.offsets)
        return out, True

    def recovery_slips(self, st: BoiState, ph: str) -> list[Finding]:
        out = []
        if ph in ("start", "faceoff_tie") and not self.slipped:
            out.append(Finding(ROUND_1,
                               f"Recovery in round {st.round} before its Face-Off (each round is Face-Off, "
                               "Mid-Game, 1v1, Recovery)"))
        elif ph == "one_v_one":
            out.append(Finding("BOI-MID-3",
                               f"{shooter(st)}'s shot got through: the 1v1 comes before the Recovery"))
        elif ph == "rebound":
            out.append(Finding("BOI-1V1-1", "after a Save both roll for the rebound, before the Recovery"))
        return out + self.scramble_missed(st)

    def goes_on(self, st: BoiState, ph: str, nxt: dict[str, Any] | None) -> bool:
        """The log's next event still belongs to the round this Recovery closes."""
        if nxt is None or st.decided_by not in (None, "regulation") or st.shots:
            return False
        kind = nxt.get("kind")
        if ph in ("mid", "pass", "one_v_one", "rebound"):
            if kind not in CONTINUES:
                return False
            return self.markers or self.same_mid_game(st, ph, nxt)
        return kind == "faceoff" and ph in ("start", "faceoff_tie") and self.markers

    def same_mid_game(self, st: BoiState, ph: str, nxt: dict[str, Any]) -> bool:
        if ph in ("one_v_one", "rebound") or nxt.get("kind") in ("one_v_one", "rebound", "intercept"):
            return True
        sid = nxt.get("skater")
        team = next((p.team for p in st.s.pieces if sid in (p.id, *p.aliases)), None)
        return st.active is not None and team == st.active

    def accepts(self, st: BoiState, action: Action) -> bool:
        """An action of an event applied out of order (its order slip is the one problem), or one
        this module judged already."""
        return self.mute or action.kind in self.ok


def boosts_over(st: BoiState, ev: dict[str, Any]) -> list[Finding]:
    """A team that Boosts one roll more often than the rules allow (BOI-STAM-2)."""
    boosts = ev.get("boosts") or []
    out = []
    for key in dict.fromkeys(boosts):
        n = boosts.count(key)
        if n > st.r.boost_per_roll:
            out.append(Finding("BOI-STAM-2",
                               f"the {label(st, st.players.index(key))} Boost this roll {n} times; a team "
                               f"Boosts a roll at most {st.r.boost_per_roll} time(s)", "boosts"))
    return out


def _spirit_name(st: BoiState, team: str) -> str:
    card = st.s.spirits[st.players.index(team)]
    return card.name if card is not None else team


class Table(InStep):
    """The Chaos Table's events and the shootout, in step with the log."""

    def step_chaos(self, st: BoiState, ev: dict[str, Any]) -> tuple[list[Finding], bool]:
        ph = phase_of(st)
        done = st.phase != "chaos" and (st.entry_id is not None or bool(st.effect))
        late = ph in MID_PHASES and st.round in st.r.chaos_rounds and not done
        out: list[Finding] = []
        if ph in ("setup", "recovered") or (ph in MID_PHASES and not late and not self.markers):
            out += self.begin(st)
            if phase_of(st) in ("over", "shootout"):
                return out, False
            st.begin_round(st.round + 1)
            self.fo_done = self.chaos_named = False
            done = False
        if st.round not in st.r.chaos_rounds:
            out.append(Finding("BOI-CHAOS-1", "a Chaos event is triggered at the start of rounds "
                               f"{', '.join(map(str, st.r.chaos_rounds))} only, not in round {st.round}"))
        elif done:
            out.append(Finding("BOI-CHAOS-1", f"round {st.round} already had its Chaos event"))
        if phase_of(st) != "start":
            out.append(Finding("BOI-CHAOS-2",
                               "the Chaos die is rolled at the start of the round, before the Face-Off"))
        if st.phase != "chaos":
            self.away(st)
            st.phase = "chaos"
        self.ok += ("chaos",) if out else ()
        return out, True

    def step_penalty_shot(self, st: BoiState, ev: dict[str, Any]) -> tuple[list[Finding], bool]:
        sk = st.piece(ev["skater"])
        team = st.s.pieces[sk].team
        out = []
        if st.effect.get("effect") != "penalty_shot" or phase_of(st) != "start":
            out.append(Finding("BOI-CHAOS-2",
                               "a penalty shot is taken only when the Chaos Table gives one, before the "
                               "Face-Off"))
        elif team not in st.penalty_queue:
            out.append(Finding("BOI-CHAOS-2",
                               f"the {label(st, team)} have no penalty shot (the trailing team's Attacker "
                               "shoots; on a level score both Attackers)"))
        elif st.penalty_queue[0] != team:
            out.append(Finding("BOI-CHAOS-2",
                               f"the {label(st, st.penalty_queue[0])} shoot first (the last Face-Off's "
                               "winner)"))
        role = st.effect.get("shooter")
        if role and st.s.pieces[sk].role != role:
            out.append(Finding("BOI-CHAOS-2", f"the penalty shot is taken by the {role}, not {short(st, sk)} "
                               f"({st.s.pieces[sk].role})", "skater"))
        if st.phase != "penalty":
            self.away(st)
        st.penalty_queue = [team, *(t for t in st.penalty_queue if t != team)]
        st.phase, st.roll = "penalty", None
        self.ok += ("penalty_shot",)
        return out, True

    def step_scramble(self, st: BoiState, ev: dict[str, Any]) -> tuple[list[Finding], bool]:
        out = []
        eff = st.effect
        if eff.get("effect") != "scramble":
            if not (self.chaos_named and st.entry_id is None):
                out.append(Finding("BOI-CHAOS-2", "skaters are scrambled only when the Chaos Table says so"))
            eff = next(
                (
                    e
                    for e in st.r.chaos_effects.values()
                    if isinstance(e, dict) and e.get("effect") == "scramble"
                ),
                {},
            )
        elif st.phase != "scramble" and (phase_of(st) != "mid" or any(st.acted)):
            out.append(Finding("BOI-CHAOS-2",
                               f"{chaos_name(st)}'s rolls follow the Face-Off, before the first Mid-Game "
                               "action"))
        out += scramble(st, ev.get("rolls") or {}, eff)
        return out, False

    def step_shootout(self, st: BoiState, ev: dict[str, Any]) -> tuple[list[Finding], bool]:
        out: list[Finding] = []
        if st.phase != "shootout" and st.round >= st.r.rounds and phase_of(st) not in ("setup", "recovered"):
            if not self.slipped:
                out.append(no_recovery(st))
            self.slipped = True
            recover(st)
        if st.phase != "shootout":
            self.silent = True
            if not self.past_end:
                out.append(Finding("BOI-END-2",
                                   "a shootout is played only when the score is tied after round "
                                   f"{st.r.rounds}"))
            self.past_end = True
            return out, False
        return out + self.shootout_turn(st, ev), True

    def shootout_turn(self, st: BoiState, ev: dict[str, Any]) -> list[Finding]:
        sk = st.piece(ev["skater"])
        team, out = st.s.pieces[sk].team, []
        first = st.last_fo if st.last_fo is not None else 0
        n = [sum(1 for t, _ in st.shots if t == k) for k in (0, 1)]
        due = st.due_shooter()
        if team != due:
            out.append(Finding("BOI-END-3",
                               f"shootout round {min(n) + 1}: the {label(st, due)} shoot now (each round "
                               f"the {label(st, first)}, who won the last Face-Off, shoot first)", "skater"))
        if st.s.pieces[sk].role not in st.r.shooter_roles:
            out.append(Finding("BOI-END-3",
                               f"{short(st, sk)} is the Goalie; a shootout shot is taken by another skater",
                               "skater"))
        self.ok += ("shootout",)
        return out


def scramble(st: BoiState, rolls: dict[str, Any], eff: dict[str, Any]) -> list[Finding]:
    """Bone Shuffle's rolls applied as recorded: each skater but the Goalies to the zone its die gives."""
    die = int(eff.get("die") or st.r.chaos_die)
    zones = eff.get("zones") if isinstance(eff.get("zones"), dict) else {}
    out, seen = [], set()
    for sid, value in rolls.items():
        sk = st.piece(sid)
        seen.add(sk)
        if st.s.pieces[sk].role == st.r.goalie_role:
            out.append(Finding("BOI-SETUP-2",
                               f"{short(st, sk)} is a Goalie: Goalies stay in their own Defensive Zone and "
                               "are not scrambled", "rolls"))
            continue
        if off_die(value, die):
            out.append(Finding("BOI-ROLL-1", die_slip(f"{short(st, sk)}'s d{die}", value, die), "rolls"))
            continue
        z = next((z for z, faces in (zones or {}).items() if value in (faces or [])), None)
        if z in st.r.zones:
            st.pos[sk] = st.r.pos(st.s.pieces[sk].team, st.r.zones.index(z))
    missing = [short(st, i) for i,
               p in enumerate(st.s.pieces) if p.role != st.r.goalie_role and i not in seen]
    if missing:
        out.append(Finding("BOI-CHAOS-2",
                           "each team rolls for each of its skaters except the Goalie: no roll for "
                           f"{', '.join(missing)}", "rolls"))
    st.scramble_due = False
    if st.phase == "scramble":
        st.scramble = None
        st.open_mid()
    return out

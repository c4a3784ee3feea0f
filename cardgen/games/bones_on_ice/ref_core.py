"""Bones on Ice referee, part 1: the rules read once from params.yaml and the cards, name
lookup (skaters, teams, zones), the trace, and Stamina/score claims."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc, did_you_mean
from cardgen.games.bones_on_ice.model import Skater, Team
from cardgen.games.bones_on_ice.rules import Rules, RulesError
from cardgen.play.lookup import Names, NotFound
from cardgen.play.referee import BaseEngine


class EngineCore(BaseEngine):
    """The state of a replay and the helpers every rule uses."""

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "BOI-END-1"
        self.head_loc = header_locs.get("teams") or Loc(str(self.params_file), 1, 1)
        try:
            self.r = Rules.read(game)
        except RulesError as e:
            raise LogError("LOG-GAME", e.message, e.loc, "add it to the rules parameters") from None
        # state
        self.teams: list[Team] = []
        self.skaters: list[Skater] = []
        self.round = 0
        self.markers = False            # the log has round_start markers: rounds begin with them
        self.slipped = False            # this round's order slip is reported (one slip, one problem)
        self.stray: str | None = None   # the phase to go back to after an event applied out of order
        self.faceoff_done = False
        self.past_end = False           # play after the end (or instead of the shootout) is reported
        self.unlabelled: int | None = None  # the round the rules count, after a marker named another
        self.pre_event: tuple[str, Any] = ("setup", None)
        self.before_recovery: dict[str, Any] | None = None
        self.phase = "setup"
        self.active: Team | None = None
        self.puck: Skater | None = None
        self.acted: Counter = Counter()
        self.extra: Counter = Counter()
        self.mid_started = False
        self.mid_end: tuple[str, str] = ("BOI-MID-1", "")
        self.shot: Skater | None = None
        self.shot_zone = 0
        self.pass_info: tuple[Skater, Skater] | None = None
        self.pending: list[tuple[Team, dict, Skater, Event]] = []
        self.defense_everywhere: set[int] = set()
        self.last_faceoff_team: Team | None = None
        self.faceoff_pair: tuple | None = None
        self.winner: str | None = None
        self.decided_by: str | None = None
        self._reset_round_chaos()
        self.shots: list[tuple[Team, bool]] = []

    def _reset_round_chaos(self) -> None:
        self.chaos_done = False
        self.chaos_reported = False
        self.chaos_entry: Card | None = None
        self.trailing: list[Team] = []
        self.penalty_queue: list[Team] = []
        self.scramble_due = False
        self.power_play: Team | None = None
        self.no_boost = False
        self.roll_bonus: tuple[Team, int] | None = None

    # -- reading the rules and the cards ---------------------------------------------------

    def _effect(self, table: str, card: Card) -> dict:
        """What a Chaos entry or Team Spirit does: its ``params.yaml`` entry, checked."""
        try:
            return self.r.effect(table, card)
        except RulesError as e:
            raise LogError("LOG-GAME", e.message, e.loc) from None

    def _index_names(self) -> None:
        """The skaters and teams by every name they answer to (id, name, short name)."""
        self.skater_names = Names("skater of the two teams", ((sk.card.id, sk) for sk in self.skaters),
                                  lambda sk: (sk.name, sk.short))
        self.team_names = Names("team (or skater) of this game", ((t.key, t) for t in self.teams),
                                lambda t: (t.name, t.label))
        for sk in self.skaters:        # a skater's name stands for its team (e.g. in 'boosts')
            if sk.card.id not in self.team_names:
                self.team_names.add(sk.card.id, sk.team, (sk.name, sk.short))

    def _find_skater(self, value: Any, ev: Event | None, fname: str, loc: Loc | None = None) -> Skater:
        try:
            return self.skater_names.find(value)
        except NotFound as e:
            raise LogError("LOG-FIELD", f"'{fname}' {e.message}", loc or (ev.at(fname) if ev else self.head_loc),
                           e.hint) from None

    def _find_team(self, value: Any, ev: Event, fname: str) -> Team:
        try:
            return self.team_names.find(value)
        except NotFound as e:
            raise LogError("LOG-FIELD", f"'{fname}' {e.message}", ev.at(fname), e.hint) from None

    def _zone(self, value: Any, team: Team, ev: Event, fname: str) -> int:
        s = str(value).strip().lower()
        for i, z in enumerate(self.r.zones):
            names = {z.lower(), str(self.r.zone_names.get(z, z)).lower()}
            names |= {n.removesuffix(" zone") for n in names}
            if s in names or s.removesuffix(" zone") in names:
                return self._abs(team, i)
        raise LogError("LOG-FIELD", f"'{fname}' names no zone: {value!r} (zones, from the acting team's goal: "
                       f"{', '.join(self.r.zones)})", ev.at(fname), did_you_mean(s, self.r.zones))

    def _abs(self, team: Team, i: int) -> int:
        """A zone index from ``team``'s own goal → a rink position."""
        return i if team.idx == 0 else len(self.r.zones) - 1 - i

    def _rel(self, team: Team, pos: int) -> str:
        """A rink position → its zone key from ``team``'s point of view."""
        return self.r.zones[pos if team.idx == 0 else len(self.r.zones) - 1 - pos]

    def _zname(self, team: Team, pos: int) -> str:
        z = self._rel(team, pos)
        return str(self.r.zone_names.get(z, z))

    def _other(self, team: Team) -> Team:
        return self.teams[1 - team.idx]

    # -- trace ------------------------------------------------------------------------------

    def _score_text(self) -> str:
        a, b = self.teams
        return f"{a.label} {a.score} – {b.score} {b.label}"

    def _stamina_text(self) -> str:
        return ", ".join(f"{t.label} {t.stamina}" + (" (Exhausted)" if t.touched_zero else "") for t in self.teams)

    def _rink_text(self) -> str:
        parts = []
        n = len(self.r.zones)
        for pos in range(n):
            if pos == 0 or pos == n - 1:
                owner = self.teams[0] if pos == 0 else self.teams[1]
                label = f"{owner.label}' {self.r.zone_names.get(self.r.zones[0], self.r.zones[0])}"
            else:
                label = str(self.r.zone_names.get(self.r.zones[pos], self.r.zones[pos]))
            here = [("●" if sk is self.puck else "") + sk.short for sk in self.skaters if sk.zone == pos]
            parts.append(f"{label}: {', '.join(here) or '—'}")
        return " | ".join(parts)

    def _state_lines(self, title: str) -> None:
        holder = f"{self.puck.short} ({self.puck.team.label})" if self.puck else "none"
        self.ref.trace(f"      {title}: {self._score_text()} · Stamina {self._stamina_text()} · puck: {holder}")
        self.ref.trace(f"        rink: {self._rink_text()}")


    # -- stamina, claims --------------------------------------------------------------------

    def _spend(self, team: Team, amount: int, what: str, ev: Event, loc: Loc | None = None) -> None:
        if amount <= 0:
            return
        if amount > team.stamina:
            self.ref.violation("BOI-STAM-1", f"the {team.label} pay {amount} Stamina for {what} but have only "
                               f"{team.stamina}", loc or ev.loc)
        team.stamina = max(self.r.st_min, team.stamina - amount)
        if team.stamina <= self.r.st_min:
            team.touched_zero = True

    def _int_map(self, ev: Event, fname: str) -> dict[Team, int]:
        out = {}
        raw = ev.get(fname)
        if not isinstance(raw, dict):
            return out
        for k, v in raw.items():
            t = self._find_team(k, ev, fname)
            if isinstance(v, bool) or not isinstance(v, int):
                raise LogError("LOG-FIELD", f"'{fname}' of a '{ev.kind}' event: {k}'s value must be a whole "
                               f"number, not {v!r}", ev.at(fname))
            out[t] = v
        return out

    def _stamina_claims(self, ev: Event, raw: Any, rule: str) -> None:
        for t, v in self._int_map(ev, "stamina").items():
            if not self.r.st_min <= v <= self.r.st_max:
                self.ref.violation("BOI-STAM-1", f"the log gives the {t.label} {v} Stamina; Stamina stays within "
                                   f"{self.r.st_min}–{self.r.st_max}", ev.at("stamina"))
            self.ref.claim(rule, f"the {t.label}' Stamina", v, t.stamina, ev.at("stamina"))
            t.stamina = v
            if v <= self.r.st_min:
                t.touched_zero = True

    def _score_claims(self, ev: Event, rule: str, shootout: bool = False) -> None:
        for t, v in self._int_map(ev, "score").items():
            have = t.shootout if shootout else t.score
            self.ref.claim(rule, f"the {t.label}' {'shootout goals' if shootout else 'score'}", v, have,
                           ev.at("score"))
            if shootout:
                t.shootout = v
            else:
                t.score = v


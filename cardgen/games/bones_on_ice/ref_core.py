"""Bones on Ice referee, part 1: the rules read once from params.yaml and the cards, name
lookup (skaters, teams, zones), the trace, and Stamina/score claims."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ...model import Card
from ...play.referee import BaseEngine
from ...playlog import Event, LogError
from ...problems import Loc, did_you_mean
from .model import Skater, Team


class EngineCore(BaseEngine):
    """The state of a replay and the helpers every rule uses."""

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "BOI-END-1"
        self.head_loc = header_locs.get("teams") or Loc(str(self.params_file), 1, 1)
        p = self._param
        self.n_teams = self._int("teams")
        self.team_roles = {str(r): self._int("team_roles", r) for r in self._list("team_roles", kind=dict)}
        self.zones = [str(z) for z in self._list("zones")]
        self.zone_names = dict(self._list("zone_names", kind=dict))
        self.faceoff_zone = str(p("faceoff_zone"))
        self.goalie_zone = str(p("goalie_zone"))
        self.acting_roles = [str(r) for r in self._list("acting_roles")]
        self.defending_roles = [str(r) for r in self._list("defending_roles")]
        self.goalie_role = next((r for r in self.team_roles if r not in self.acting_roles), "goalie")
        self.st_start, self.st_max, self.st_min = (self._int("stamina", k) for k in ("start", "max", "min"))
        self.recovery = self._int("stamina", "recovery")
        self.exhausted_recovery = self._int("stamina", "exhausted_recovery")
        self.costs = {k: self._int("costs", k)
                      for k in ("move", "shoot", "pass", "interception", "tactical_move", "boost")}
        self.boost_bonus, self.boost_per_roll = self._int("boost", "bonus"), self._int("boost", "per_roll")
        self.spirit_per_round = self._int("spirit_uses_per_round")
        # who wins a tie: 'defender' / 'goalie' (the reacting side), 'attacker' / 'shooter', or 'reroll'
        self.ties = {k: str(p("ties", k)) for k in ("contested", "face_off", "one_on_one", "rebound")}
        self.attack_bonus, self.defense_bonus = self._int("zone_bonus", "attack"), self._int("zone_bonus", "defense")
        self.zone_rolls = {str(r) for r in self._list("zone_bonus", "rolls")}
        self.blocked_shot = str(p("blocked_shot"))
        self.rounds = self._int("rounds")
        self.chaos_die, self.chaos_rounds = self._int("chaos", "die"), [r for r in self._list("chaos", "rounds")]
        self.shootout_rounds = self._int("shootout", "rounds")
        self.sudden_death = bool(p("shootout", "sudden_death"))
        self.shooter_roles = [str(r) for r in self._list("shootout", "shooter_roles")]
        self.chaos_effects = p("chaos_effects")
        self.spirit_effects = p("spirit_effects")
        self.by_type: dict[str, list[Card]] = {}
        for c in game.cards:
            self.by_type.setdefault(c.type, []).append(c)
        # state
        self.teams: list[Team] = []
        self.skaters: list[Skater] = []
        self.round = 0
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

    def _list(self, *path: Any, kind: type = list) -> Any:
        v = self._param(*path)
        if not isinstance(v, kind):
            name = ".".join(str(k) for k in path)
            raise LogError("LOG-GAME", f"'{name}' in {self.params_file.name} must be a "
                           f"{'list' if kind is list else 'mapping'}, not {v!r}", Loc(str(self.params_file), 1, 1))
        return v

    def _effect(self, table: str, card: Card, known: dict[str, tuple[str, ...]]) -> dict:
        """What a Chaos entry or Team Spirit does: its ``params.yaml`` entry, checked."""
        effects = self._param(table)
        eff = effects.get(card.id) if isinstance(effects, dict) else None
        loc = getattr(eff, "loc", None) or getattr(effects, "loc", None) or Loc(str(self.params_file), 1, 1)
        if not isinstance(eff, dict) or eff.get("effect") not in known:
            raise LogError("LOG-GAME", f"'{table}.{card.id}' in {self.params_file.name} must be a mapping with "
                           f"'effect', one of: {', '.join(known)}", loc)
        missing = [k for k in known[eff["effect"]] if k not in eff]
        bad = [k for k in ("die", "amount", "actions", "dice") if k in eff and (isinstance(eff[k], bool)
                                                                              or not isinstance(eff[k], int))]
        if bad:
            raise LogError("LOG-GAME", f"'{table}.{card.id}.{bad[0]}' in {self.params_file.name} must be a whole "
                           f"number, not {eff[bad[0]]!r}", loc)
        if missing:
            raise LogError("LOG-GAME", f"'{table}.{card.id}' ({eff['effect']}) in {self.params_file.name} lacks "
                           f"{', '.join(repr(k) for k in missing)}", loc)
        return eff

    @staticmethod
    def _die(value: Any) -> int:
        m = re.fullmatch(r"d(\d+)", str(value).strip().lower())
        return int(m.group(1)) if m else 0

    def _find_skater(self, value: Any, ev: Event | None, fname: str, loc: Loc | None = None) -> Skater:
        s = str(value).strip().lower()
        found = [sk for sk in self.skaters if s in (sk.card.id.lower(), sk.name.lower(), sk.short.lower())]
        exact = [sk for sk in found if s == sk.card.id.lower()]
        if len(exact) == 1 or len(found) == 1:
            return (exact or found)[0]
        if found:
            raise LogError("LOG-FIELD", f"'{fname}' is ambiguous: {value!r} could be "
                           f"{' or '.join(sk.card.id for sk in found)}", loc or (ev.at(fname) if ev else self.head_loc),
                           "use the card id")
        names = [sk.card.id for sk in self.skaters] + [sk.short.lower() for sk in self.skaters]
        raise LogError("LOG-FIELD", f"'{fname}' names no skater of the two teams: {value!r}",
                       loc or (ev.at(fname) if ev else self.head_loc),
                       did_you_mean(s, names) or "skaters: " + ", ".join(sk.short.lower() for sk in self.skaters))

    def _find_team(self, value: Any, ev: Event, fname: str) -> Team:
        s = str(value).strip().lower()
        for t in self.teams:
            if s in (t.key.lower(), t.name.lower(), t.label.lower()):
                return t
        for sk in self.skaters:
            if s in (sk.card.id.lower(), sk.name.lower(), sk.short.lower()):
                return sk.team
        raise LogError("LOG-FIELD", f"'{fname}' names no team (or skater) of this game: {value!r}", ev.at(fname),
                       did_you_mean(s, [t.key for t in self.teams]) or "teams: " + ", ".join(t.key for t in self.teams))

    def _zone(self, value: Any, team: Team, ev: Event, fname: str) -> int:
        s = str(value).strip().lower()
        for i, z in enumerate(self.zones):
            names = {z.lower(), str(self.zone_names.get(z, z)).lower()}
            names |= {n.removesuffix(" zone") for n in names}
            if s in names or s.removesuffix(" zone") in names:
                return self._abs(team, i)
        raise LogError("LOG-FIELD", f"'{fname}' names no zone: {value!r} (zones, from the acting team's goal: "
                       f"{', '.join(self.zones)})", ev.at(fname), did_you_mean(s, self.zones))

    def _abs(self, team: Team, i: int) -> int:
        """A zone index from ``team``'s own goal → a rink position."""
        return i if team.idx == 0 else len(self.zones) - 1 - i

    def _rel(self, team: Team, pos: int) -> str:
        """A rink position → its zone key from ``team``'s point of view."""
        return self.zones[pos if team.idx == 0 else len(self.zones) - 1 - pos]

    def _zname(self, team: Team, pos: int) -> str:
        z = self._rel(team, pos)
        return str(self.zone_names.get(z, z))

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
        n = len(self.zones)
        for pos in range(n):
            if pos == 0 or pos == n - 1:
                owner = self.teams[0] if pos == 0 else self.teams[1]
                label = f"{owner.label}' {self.zone_names.get(self.zones[0], self.zones[0])}"
            else:
                label = str(self.zone_names.get(self.zones[pos], self.zones[pos]))
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
        team.stamina = max(self.st_min, team.stamina - amount)
        if team.stamina <= self.st_min:
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
            if not self.st_min <= v <= self.st_max:
                self.ref.violation("BOI-STAM-1", f"the log gives the {t.label} {v} Stamina; Stamina stays within "
                                   f"{self.st_min}–{self.st_max}", ev.at("stamina"))
            self.ref.claim(rule, f"the {t.label}' Stamina", v, t.stamina, ev.at("stamina"))
            t.stamina = v
            if v <= self.st_min:
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


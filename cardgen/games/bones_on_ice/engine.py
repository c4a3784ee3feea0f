"""Bones on Ice — the playtest rules engine (``cardgen check bones_on_ice LOG``).


A state machine over ``rules/bones_on_ice/params.yaml`` and the card YAML: the skaters and
their stat dice come from the team cards, the Team Spirits' costs from their cards, the
Chaos Table from the chaos cards; every rules number (Stamina, costs, Boost, zone bonuses,
rounds, Chaos rounds, shootout) and what each Chaos entry and Team Spirit does
(``chaos_effects``, ``spirit_effects``) is read from ``params.yaml``. A number the rules
need and the YAML lacks is a ``LOG-GAME`` error naming the missing key.

Rules enforced (catalogue ``specs/rules/bones_on_ice.md``): BOI-SETUP-1/2, BOI-STAM-1/2,
BOI-ROLL-1/2, BOI-ZONE-1/2, BOI-ROUND-1, BOI-FO-1, BOI-MID-1…5, BOI-1V1-1, BOI-REC-1,
BOI-CHAOS-1, BOI-END-1/2, and the rulings of ``params.yaml`` (BOI-SPIRIT-1, BOI-CHAOS-2/3,
BOI-MID-6/7, BOI-ROLL-3, BOI-ZONE-3, BOI-END-3).

The rink is three zones in a row; positions are kept as an index from the first team's
goal (0) to the second team's (2). A zone named in an event is named from the acting
skater's team: ``attack`` is that team's Attack Zone. The log format is documented in
``docs/playtest-logs.md``; the event kinds and fields are :data:`EVENTS`.

The referee is split by topic: :mod:`.ref_core` (rules, lookup, trace, claims), :mod:`.ref_chaos`,
:mod:`.ref_rolls`, :mod:`.ref_rounds`, :mod:`.ref_play`; this module holds the lifecycle
(setup, each event, the end).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import did_you_mean
from cardgen.games.bones_on_ice.model import Skater, Team
from cardgen.games.bones_on_ice.ref_play import EnginePlay
from cardgen.games.bones_on_ice.rules import die_sides
from cardgen.games.bones_on_ice.vocab import EVENTS, HEADER, ROLL_KINDS, STAT_NAMES


class Engine(EnginePlay):
    """Replays a Bones on Ice playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "BOI-END-1", "decided_by": "BOI-END-2", "score": "BOI-1V1-1", "shootout": "BOI-END-2",
        "stamina": "BOI-STAM-1", "round": "BOI-ROUND-1", "teams": "BOI-END-1",
    }

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        raw = self.header.get("teams") or []
        if len(raw) != self.r.n_teams:
            self.ref.violation("BOI-SETUP-1", f"{len(raw)} team(s); Bones on Ice is played by exactly "
                               f"{self.r.n_teams} teams", self.header_locs.get(f"teams[{self.r.n_teams}]", self.head_loc))
        spirits = {str(c.get("team")): c for c in self.r.by_type.get("spirit", [])}
        all_skaters = self.r.by_type.get("skater", [])
        keys = sorted({str(c.get("team")) for c in all_skaters} | set(spirits))
        taken: dict[str, str] = {}
        for i, entry in enumerate(raw[:self.r.n_teams]):
            loc = self.header_locs.get(f"teams[{i}]", self.head_loc)
            if not isinstance(entry, dict) or entry.get("team") is None:
                raise LogError("LOG-FIELD", "each team is a mapping with its 'team' (id or name) and optionally "
                               "'skaters'", loc)
            want = str(entry.get("team")).strip().lower()
            key = next((k for k in keys if want in (k.lower(), str(spirits[k].get("team_name")).lower()
                                                    if k in spirits else k.lower())), None)
            if key is None:
                raise LogError("LOG-FIELD", f"'team' names no team of the cards: {entry.get('team')!r}", loc,
                               did_you_mean(want, keys) or f"teams: {', '.join(keys)}")
            if any(t.key == key for t in self.teams):
                raise LogError("LOG-FIELD", f"both teams are the {key}: two different teams play", loc)
            spirit = spirits.get(key)
            team = Team(i, key, str(spirit.get("team_name")) if spirit else key, spirit, self.r.st_start)
            stated = entry.get("stamina")
            if stated is not None:
                self.ref.claim("BOI-STAM-1", f"the {team.label}' starting Stamina", stated, self.r.st_start, loc)
                team.stamina = stated
            names = entry.get("skaters")
            if names is None:
                cards = [c for c in all_skaters if str(c.get("team")) == key]
            else:
                cards = []
                for n in names:
                    s = str(n).strip().lower()
                    c = next((c for c in all_skaters if s in (c.id.lower(), c.name.lower())), None) or next(
                        (c for c in all_skaters if s == c.id.lower().removeprefix(f"{c.get('team')}_")
                         and str(c.get("team")) == key), None) or next(
                        (c for c in all_skaters if s == c.id.lower().removeprefix(f"{c.get('team')}_")), None)
                    if c is None:
                        raise LogError("LOG-FIELD", f"'skaters' names no skater card: {n!r}", loc,
                                       did_you_mean(s, [c.id for c in all_skaters] + [c.id.removeprefix(f"{c.get('team')}_")
                                                                   for c in all_skaters]))
                    cards.append(c)
            for c in cards:
                if c.id in taken:
                    self.ref.violation("BOI-SETUP-1", f"{c.name} plays for both the {taken[c.id]} and the "
                                       f"{team.label}", loc)
                taken[c.id] = team.label
                sk = Skater(c, team, str(c.get("role")), {s: die_sides(c.get(s)) for s in STAT_NAMES})
                team.skaters.append(sk)
            have = Counter(sk.role for sk in team.skaters)
            if any(have.get(r, 0) != n for r, n in self.r.team_roles.items()) or len(team.skaters) != sum(
                    self.r.team_roles.values()):
                want_txt = ", ".join(f"{n} {r}" for r, n in self.r.team_roles.items())
                self.ref.violation("BOI-CARD-2", f"the {team.label}' line-up is "
                                   f"{', '.join(f'{n} {r}' for r, n in have.items()) or 'empty'}; a team has "
                                   f"{want_txt}", loc)
            self.teams.append(team)
        if len(self.teams) < self.r.n_teams or any(not any(sk.role in self.r.acting_roles for sk in t.skaters)
                                      or t.goalie(self.r.goalie_role) is None for t in self.teams):
            self.teams = []             # no game can be replayed: the violation above says why
            self.replayable = False
            return
        self.skaters = [sk for t in self.teams for sk in t.skaters]
        self._index_names()
        self._place_for_faceoff()
        a, b = self.teams
        self.ref.trace(f"      {a.name} ({a.key}) vs {b.name} ({b.key}): {self.r.rounds} rounds, Stamina "
                       f"{a.stamina}/{b.stamina}; {a.label} defend the left end")

    def before(self, ev: Event) -> None:
        self.reopen_if_premature(ev)
        if self.over and not self.past_end:   # one problem: the play after the end is not judged again
            self.past_end = True
            why = f"the {self.winner.title()} won" if self.winner else "it ended in a draw"
            when = "in the shootout" if self.decided_by == "shootout" else f"after round {self.r.rounds}"
            self.ref.violation(self.end_rule, f"event '{ev.kind}' after the game has ended ({why} {when}); "
                               "the events after it are not replayed", ev.loc)

    def apply(self, ev: Event) -> None:
        if not self.teams:
            return
        self._apply(ev)

    def _apply(self, ev: Event) -> None:
        if self.over:
            return
        if self.phase == "shootout" and ev.kind not in ("shootout", "team_spirit"):
            if not self.past_end:       # one problem for the play that should have been a shootout
                self.ref.violation("BOI-END-2", f"the score is tied after round {self.r.rounds}: the game goes to "
                                   f"a shootout ('shootout' events), not '{ev.kind}'", ev.loc)
            self.past_end = True
            return
        if self.pending and ev.kind not in ROLL_KINDS and ev.kind != "team_spirit":
            for team, _eff, _sk, _e in self.pending:
                self.ref.violation("BOI-SPIRIT-1", f"the {team.label}' {team.spirit_name} is used before a roll, "
                                   f"but no roll follows ('{ev.kind}' comes next)", ev.loc)
            self.pending = []
        self.pre_event = (self.phase, self.pass_info)
        if self.phase == "pass" and ev.kind not in ("intercept", "team_spirit"):
            self.phase = "mid"
            self.pass_info = None
        ref = self.ref
        try:
            super().apply(ev)
            st = ev.get("stamina")
            if st and ev.kind != "recovery":
                self._stamina_claims(ev, st, "BOI-CHAOS-2" if ev.kind == "chaos" else "BOI-STAM-2")
        finally:
            self.ref = ref
        if self.stray is not None:      # applied as recorded; the round stays where it was
            self.phase, self.stray = self.stray, None

    def finish(self) -> None:
        if not self.teams:
            return
        if self.phase == "shootout":
            # tied after the last round, the shootout undecided: a winner claimed breaks the
            # shootout's rule (BOI-END-2), not BOI-END-1
            self.EXPECT_RULES = {**type(self).EXPECT_RULES, "winner": "BOI-END-2"}
        if not self.over and self.phase != "recovered":
            where = "during the shootout" if self.phase == "shootout" else f"in round {self.round}"
            self._state_lines(f"the log ends {where} (no winner yet)")
        self.ref.trace(f"      final: {self._score_text()}"
                       + (f" (shootout {self.teams[0].shootout}–{self.teams[1].shootout})"
                          if self.decided_by == "shootout" or self.shots else "")
                       + f"; winner {self.winner or 'none'}")

    def final(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "decided_by": self.decided_by,
            "round": self.round,
            "score": {t.key: t.score for t in self.teams},
            "shootout": {t.key: t.shootout for t in self.teams} if self.shots else None,
            "stamina": {t.key: t.stamina for t in self.teams},
            "teams": {t.key: {"name": t.name, "score": t.score, "stamina": t.stamina, "shootout": t.shootout,
                              "skaters": [sk.card.id for sk in t.skaters]} for t in self.teams},
        }

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts (for simulated playtests)."""
        if self.over or not self.teams:
            return []
        ph = self.phase
        if ph in ("setup", "recovered"):
            nxt = self.round + 1
            return ["round_start", "chaos"] if nxt in self.r.chaos_rounds else ["round_start", "faceoff", "team_spirit"]
        if ph == "start":
            if self.round in self.r.chaos_rounds and not self.chaos_done:
                return ["chaos"]
            if self.penalty_queue:
                return ["penalty_shot", "team_spirit"]
            return ["faceoff", "team_spirit"]
        if ph == "faceoff_tie":
            return ["faceoff", "team_spirit"]
        if ph == "one_v_one":
            return ["one_v_one", "team_spirit"]
        if ph == "rebound":
            return ["rebound", "team_spirit"]
        if ph == "mid_over":
            return ["recovery"]
        if ph == "shootout":
            return ["shootout", "team_spirit"]
        if self.scramble_due:
            return ["scramble"]
        kinds = ["intercept"] if ph == "pass" else []
        act = self.active
        can = [sk for sk in (act.skaters if act else []) if sk.role in self.r.acting_roles
               and self.acted[id(sk)] < 1 + self.extra[id(sk)]]
        if act is not None and self.puck in can:
            kinds += ["move", "shoot"]
            if act.stamina >= self.r.costs["pass"]:
                kinds.append("pass")
        if act is not None and any(sk is not self.puck for sk in can) and \
                act.stamina >= self.r.costs["tactical_move"]:
            kinds.append("tactical_move")
        return kinds + ["team_spirit", "recovery"]


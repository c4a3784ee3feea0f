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
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..checker import BaseEngine
from ..model import Card
from ..playlog import Event, LogError
from ..problems import Loc, did_you_mean
from ..schema import Opt

# ---------------------------------------------------------------------------------------
# The log's vocabulary: header keys and event kinds with their typed fields.


def _rolls(order: str) -> Opt:
    dead_eye = " A Dead Eye roll is the list of its values, e.g. [[7, 11], 5]." if "Marksmanship" in order else ""
    return Opt("list", item=Opt("any"), doc=f"the two die values: {order} (BOI-ROLL-1).{dead_eye} May be left "
               "out when the outcome is stated")


_BOOSTS = Opt("list", item=Opt("str"), doc="the teams (or their skaters) that Boost this roll, each paying "
              "its Boost cost for the Boost bonus; at most one per team (BOI-STAM-2)")
_WINNER = Opt("str", doc="stated: the team (or skater) that wins the roll (checked)")
_STAMINA = Opt("map", item=Opt("int"), doc="stated: Stamina after the event, by team, e.g. {femurs: 18} (checked)")
_SCORE = Opt("map", item=Opt("int"), doc="stated: the score after the event, by team, e.g. {femurs: 1, titans: 0} "
             "(checked)")


def _skater(doc: str, required: bool = True) -> Opt:
    return Opt("str", required=required, doc=doc + " (card id, name, or id without the team prefix)")


EVENTS: dict[str, dict[str, Opt]] = {
    "round_start": {
        "round": Opt("int", doc="stated: the number of the round that starts (checked, BOI-ROUND-1)"),
    },
    "chaos": {
        "die": Opt("int", required=True, doc="the value of the Chaos die (BOI-CHAOS-1)"),
        "entry": Opt("str", doc="stated: the Chaos Table entry (card id or name) the value gives (checked)"),
        "stamina": _STAMINA,
    },
    "penalty_shot": {
        "skater": _skater("the shooter: the trailing team's Attacker"),
        "rolls": _rolls("[shooter's Marksmanship, Goalie's Reflexes]"), "boosts": _BOOSTS,
        "goal": Opt("bool", doc="stated: the penalty shot scores (checked)"),
        "score": _SCORE, "stamina": _STAMINA,
    },
    "faceoff": {
        "skaters": Opt("list", required=True, item=Opt("str"),
                       doc="one skater of each team, not the Goalie (BOI-FO-1); the rolls follow this order"),
        "rolls": _rolls("the two skaters' Reflexes, in the order of 'skaters'; a tie is re-rolled in a new "
                        "'faceoff' event"),
        "boosts": _BOOSTS, "winner": _WINNER, "stamina": _STAMINA,
    },
    "scramble": {
        "rolls": Opt("map", required=True, doc="Bone Shuffle: the die value of each skater except the Goalies, "
                     "by skater, e.g. {sully: 5, frank: 2, …}"),
    },
    "move": {
        "skater": _skater("the puck carrier"),
        "zone": Opt("str", required=True, doc="the zone moved into, named from the mover's team "
                    "(defensive, neutral, attack)"),
        "defender": _skater("the opposing skater who defends (the opponent picks, BOI-MID-6)"),
        "rolls": _rolls("[carrier's Reflexes, defender's Reflexes]"),
        "boosts": _BOOSTS, "winner": _WINNER, "stamina": _STAMINA,
    },
    "shoot": {
        "skater": _skater("the puck carrier who shoots"),
        "defender": _skater("the opposing skater who tries to block (the opponent picks, BOI-MID-6)"),
        "rolls": _rolls("[shooter's Marksmanship, defender's Reflexes]"),
        "boosts": _BOOSTS, "winner": _WINNER, "stamina": _STAMINA,
    },
    "pass": {
        "skater": _skater("the puck carrier who passes"),
        "to": _skater("the teammate who receives the pass"),
        "stamina": _STAMINA,
    },
    "intercept": {
        "skater": _skater("the opposing skater who tries to intercept the pass just made"),
        "rolls": _rolls("[passer's Reflexes, interceptor's Reflexes]"),
        "boosts": _BOOSTS, "winner": _WINNER, "stamina": _STAMINA,
    },
    "tactical_move": {
        "skater": _skater("a skater of the active team without the puck"),
        "zone": Opt("str", required=True, doc="the zone moved into, named from the skater's team"),
        "stamina": _STAMINA,
    },
    "one_v_one": {
        "skater": _skater("stated: the shooter (checked: the skater whose shot got through)", required=False),
        "rolls": _rolls("[shooter's Marksmanship, Goalie's Reflexes]"), "boosts": _BOOSTS,
        "goal": Opt("bool", doc="stated: the shot scores (checked, BOI-1V1-1)"),
        "score": _SCORE, "stamina": _STAMINA,
    },
    "rebound": {
        "rolls": _rolls("[shooter's Reflexes, Goalie's Reflexes]"),
        "boosts": _BOOSTS, "winner": _WINNER, "stamina": _STAMINA,
    },
    "team_spirit": {
        "team": Opt("str", required=True, doc="the team that uses its Team Spirit"),
        "skater": _skater("the skater the Team Spirit names: Bone Rush's skater that acts again, "
                          "Cold Snap's opposing skater, Dead Eye's shooter", required=False),
        "stamina": _STAMINA,
    },
    "recovery": {
        "stamina": _STAMINA, "score": _SCORE,
    },
    "shootout": {
        "skater": _skater("the shooter, not the Goalie (BOI-END-3)"),
        "rolls": _rolls("[shooter's Marksmanship, opposing Goalie's Reflexes]"), "boosts": _BOOSTS,
        "goal": Opt("bool", doc="stated: the shot scores (checked)"),
        "score": Opt("map", item=Opt("int"), doc="stated: shootout goals so far, by team (checked)"),
        "stamina": _STAMINA,
    },
}

_TEAM = Opt("map", doc="a team: its id or name from the cards, and optionally its skaters", fields={
    "team": Opt("str", required=True, doc="the team: its key (e.g. femurs) or its name (Frostbite Femurs)"),
    "skaters": Opt("list", item=Opt("str"), doc="the line-up (default: the team's four skater cards)"),
    "stamina": Opt("int", doc="stated: the starting Stamina (checked, BOI-STAM-1)"),
})

HEADER: dict[str, Opt] = {
    "teams": Opt("list", required=True, item=_TEAM, doc="the two teams (BOI-SETUP-1); the first one's goal is "
                 "at the left end of the rink in the trace"),
}

ROLL_KINDS = ("faceoff", "move", "shoot", "intercept", "one_v_one", "rebound", "penalty_shot", "shootout")
MID_PHASES = ("mid", "pass", "one_v_one", "rebound", "mid_over")
# The effects the engine knows, with the keys each needs in params.yaml (chaos_effects, spirit_effects).
CHAOS_EFFECTS = {"penalty_shot": ("who", "level", "shooter"), "scramble": ("die", "zones"),
                 "recover": ("who", "level", "amount"), "win_faceoff": ("who", "level"), "no_boost": (),
                 "roll_bonus": ("who", "level", "amount")}
SPIRIT_EFFECTS = {"extra_action": ("actions",), "opponent_die": ("die",), "best_of": ("dice", "stat"),
                  "defense_everywhere": ()}
STAT_NAMES = {"reflexes": "Reflexes", "marksmanship": "Marksmanship"}


# ---------------------------------------------------------------------------------------
# State


@dataclass(eq=False)
class Skater:
    card: Card
    team: Team
    role: str
    dice: dict[str, int]
    zone: int = 0

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def short(self) -> str:
        prefix = f"{self.card.get('team')}_"
        s = self.card.id[len(prefix):] if self.card.id.startswith(prefix) else self.card.id
        return s.replace("_", " ").title()


@dataclass(eq=False)
class Team:
    idx: int
    key: str
    name: str
    spirit: Card | None
    stamina: int
    skaters: list[Skater] = field(default_factory=list)
    score: int = 0
    shootout: int = 0
    touched_zero: bool = False
    spirit_uses: int = 0

    @property
    def label(self) -> str:
        return self.key.replace("_", " ").title()

    def goalie(self, role: str) -> Skater | None:
        return next((s for s in self.skaters if s.role == role), None)


@dataclass
class Side:
    """One side of a roll: who rolls which die, the value, and what is added to it."""

    skater: Skater
    stat: str
    sides: int
    raw: Any = None
    value: int | None = None
    best_of: int = 0
    mods: list[tuple[str, int, str]] = field(default_factory=list)     # (label, amount, rule)

    @property
    def team(self) -> Team:
        return self.skater.team

    def total(self, without: int | None = None) -> int | None:
        if self.value is None:
            return None
        return self.value + sum(m[1] for i, m in enumerate(self.mods) if i != without)

    def text(self) -> str:
        if self.value is None:
            return f"{self.skater.short} ?"
        shown = f"{self.raw}" if isinstance(self.raw, list) else f"{self.value}"
        if self.sides != self.skater.dice.get(self.stat):
            shown += f" (d{self.sides})"
        if not self.mods:
            return f"{self.skater.short} {shown}"
        return f"{self.skater.short} {shown}" + "".join(f"+{m[1]} {m[0]}" for m in self.mods) + f" = {self.total()}"


# ---------------------------------------------------------------------------------------


class Engine(BaseEngine):
    """Replays a Bones on Ice playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "BOI-END-1", "decided_by": "BOI-END-2", "score": "BOI-1V1-1", "shootout": "BOI-END-2",
        "stamina": "BOI-STAM-1", "round": "BOI-ROUND-1", "teams": "BOI-END-1",
    }

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

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        raw = self.header.get("teams") or []
        if len(raw) != self.n_teams:
            self.ref.violation("BOI-SETUP-1", f"{len(raw)} team(s); Bones on Ice is played by exactly "
                               f"{self.n_teams} teams", self.header_locs.get(f"teams[{self.n_teams}]", self.head_loc))
        spirits = {str(c.get("team")): c for c in self.by_type.get("spirit", [])}
        all_skaters = self.by_type.get("skater", [])
        keys = sorted({str(c.get("team")) for c in all_skaters} | set(spirits))
        taken: dict[str, str] = {}
        for i, entry in enumerate(raw[:2]):
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
            team = Team(i, key, str(spirit.get("team_name")) if spirit else key, spirit, self.st_start)
            stated = entry.get("stamina")
            if stated is not None:
                self.ref.claim("BOI-STAM-1", f"the {team.label}' starting Stamina", stated, self.st_start, loc)
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
                                       did_you_mean(s, [c.id for c in all_skaters]))
                    cards.append(c)
            for c in cards:
                if c.id in taken:
                    self.ref.violation("BOI-SETUP-1", f"{c.name} plays for both the {taken[c.id]} and the "
                                       f"{team.label}", loc)
                taken[c.id] = team.label
                sk = Skater(c, team, str(c.get("role")), {s: self._die(c.get(s)) for s in STAT_NAMES})
                team.skaters.append(sk)
            have = Counter(sk.role for sk in team.skaters)
            if any(have.get(r, 0) != n for r, n in self.team_roles.items()) or len(team.skaters) != sum(
                    self.team_roles.values()):
                want_txt = ", ".join(f"{n} {r}" for r, n in self.team_roles.items())
                self.ref.violation("BOI-CARD-2", f"the {team.label}' line-up is "
                                   f"{', '.join(f'{n} {r}' for r, n in have.items()) or 'empty'}; a team has "
                                   f"{want_txt}", loc)
            self.teams.append(team)
        if len(self.teams) < 2 or any(not any(sk.role in self.acting_roles for sk in t.skaters)
                                      or t.goalie(self.goalie_role) is None for t in self.teams):
            self.teams = []             # no game can be replayed: the violation above says why
            self.replayable = False
            return
        self.skaters = [sk for t in self.teams for sk in t.skaters]
        self._place_for_faceoff()
        a, b = self.teams
        self.ref.trace(f"      {a.name} ({a.key}) vs {b.name} ({b.key}): {self.rounds} rounds, Stamina "
                       f"{a.stamina}/{b.stamina}; {a.label} defend the left end")

    def _place_for_faceoff(self) -> None:
        for sk in self.skaters:
            zone = self.goalie_zone if sk.role == self.goalie_role else self.faceoff_zone
            sk.zone = self._abs(sk.team, self.zones.index(zone) if zone in self.zones else 0)

    def before(self, ev: Event) -> None:
        if self.over:
            why = f"the {self.winner.title()} won" if self.winner else "it ended in a draw"
            when = "in the shootout" if self.decided_by == "shootout" else f"after round {self.rounds}"
            self.ref.violation(self.end_rule, f"event '{ev.kind}' after the game has ended ({why} {when})", ev.loc)

    def apply(self, ev: Event) -> None:
        if not self.teams:
            return
        self._apply(ev)

    def _apply(self, ev: Event) -> None:
        if self.over:
            return
        if self.phase == "shootout" and ev.kind not in ("shootout", "team_spirit"):
            self.ref.violation("BOI-END-2", f"the score is tied after round {self.rounds}: the game goes to a "
                               f"shootout ('shootout' events), not '{ev.kind}'", ev.loc)
            return
        if self.pending and ev.kind not in ROLL_KINDS and ev.kind != "team_spirit":
            for team, _eff, _sk, _e in self.pending:
                self.ref.violation("BOI-SPIRIT-1", f"the {team.label}' {team.spirit.name} is used before a roll, "
                                   f"but no roll follows ('{ev.kind}' comes next)", ev.loc)
            self.pending = []
        if self.phase == "pass" and ev.kind not in ("intercept", "team_spirit"):
            self.phase = "mid"
            self.pass_info = None
        super().apply(ev)
        st = ev.get("stamina")
        if st and ev.kind != "recovery":
            self._stamina_claims(ev, st, "BOI-CHAOS-2" if ev.kind == "chaos" else "BOI-STAM-2")

    def finish(self) -> None:
        if not self.teams:
            return
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
            return ["round_start", "chaos"] if nxt in self.chaos_rounds else ["round_start", "faceoff", "team_spirit"]
        if ph == "start":
            if self.round in self.chaos_rounds and not self.chaos_done:
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
        can = [sk for sk in (act.skaters if act else []) if sk.role in self.acting_roles
               and self.acted[id(sk)] < 1 + self.extra[id(sk)]]
        if self.puck in can:
            kinds += ["move", "shoot"]
            if act.stamina >= self.costs["pass"]:
                kinds.append("pass")
        if any(sk is not self.puck for sk in can) and act.stamina >= self.costs["tactical_move"]:
            kinds.append("tactical_move")
        return kinds + ["team_spirit", "recovery"]

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

    # -- rolls --------------------------------------------------------------------------------

    def _side(self, sk: Skater, stat: str) -> Side:
        return Side(sk, stat, sk.dice.get(stat, 0))

    def _contest(self, ev: Event, kind: str, a: Side, d: Side, tie: str, base: str, what: str,
                 stated: Team | None) -> tuple[Side | None, str]:
        """Resolve a contested roll: a (initiator) against d. Returns (winner or None on a re-roll tie, text)."""
        for team, eff, target, _e in self.pending:
            side = a if target is a.skater else d if target is d.skater else None
            name = team.spirit.name
            if eff["effect"] == "opponent_die" and side is not None:
                side.sides = int(eff["die"])
            elif eff["effect"] == "best_of" and side is not None and side.stat == eff["stat"]:
                side.best_of = int(eff["dice"])
            else:
                self.ref.violation("BOI-SPIRIT-1", f"the {team.label}' {name} names {target.short}, who makes no "
                                   f"{'Marksmanship ' if eff['effect'] == 'best_of' else ''}roll in this {what}",
                                   ev.loc)
        self.pending = []
        rolls = ev.get("rolls")
        if rolls is not None:
            if len(rolls) != 2:
                raise LogError("LOG-FIELD", f"'rolls' of a '{ev.kind}' event holds two values: "
                               f"[{a.skater.short.lower()}, {d.skater.short.lower()}]", ev.at("rolls"))
            for side, raw in ((a, rolls[0]), (d, rolls[1])):
                side.raw = raw
                side.value = self._roll_value(ev, side, raw)
        elif stated is None:
            field_name = "goal" if "goal" in self.EVENTS[ev.kind] else "winner"
            raise LogError("LOG-FIELD", f"a '{ev.kind}' event needs its 'rolls' or a stated '{field_name}'", ev.loc)
        # Boosts (BOI-STAM-2), zone bonuses (BOI-ZONE-1/2/3), Chaos roll bonus (BOI-CHAOS-2)
        boosts = ev.get("boosts") or []
        per: Counter = Counter()
        for b in boosts:
            t = self._find_team(b, ev, "boosts")
            per[t.idx] += 1
            if per[t.idx] > self.boost_per_roll:
                self.ref.violation("BOI-STAM-2", f"the {t.label} Boost this roll {per[t.idx]} times; a team Boosts "
                                   f"a roll at most {self.boost_per_roll} time(s)", ev.at("boosts"))
            if self.no_boost:
                self.ref.violation("BOI-CHAOS-2", f"{self.chaos_entry.name}: no team may Boost a roll this round",
                                   ev.at("boosts"))
            self._spend(t, self.costs["boost"], "a Boost", ev, ev.at("boosts"))
            (a if t is a.team else d).mods.append(("Boost", self.boost_bonus, "BOI-STAM-2"))
        if kind in self.zone_rolls:
            if a.stat == "marksmanship" and self._rel(a.team, self.shot_zone if kind == "one_on_one"
                                                      else a.skater.zone) == self.zones[-1]:
                a.mods.append(("Attack Bonus", self.attack_bonus, "BOI-ZONE-1"))
            if d.stat == "reflexes":
                if self._rel(d.team, d.skater.zone) == self.zones[0]:
                    d.mods.append(("Defense Bonus", self.defense_bonus, "BOI-ZONE-2"))
                elif d.team.idx in self.defense_everywhere:
                    d.mods.append((d.team.spirit.name, self.defense_bonus, "BOI-SPIRIT-1"))
        if self.roll_bonus is not None:
            t, amount = self.roll_bonus
            for side in (a, d):
                if side.team is t:
                    side.mods.append((self.chaos_entry.name, amount, "BOI-CHAOS-2"))
        winner = self._winner(a, d, tie)
        text = f"{a.text()} vs {d.text()}"
        if a.value is None or d.value is None:
            winner = stated if stated is not None else winner
            w = a if winner is a.team else d if winner is d.team else None
            return w, text
        if stated is not None and (winner is None or stated is not winner.team):
            self._diagnose(ev, a, d, tie, base, what, stated, winner)
            winner = a if stated is a.team else d
        return winner, text

    def _roll_value(self, ev: Event, side: Side, raw: Any) -> int | None:
        what = f"{side.skater.short}'s {STAT_NAMES.get(side.stat, side.stat)} d{side.sides}"
        if isinstance(raw, list):
            if not side.best_of:
                self.ref.violation("BOI-ROLL-1", f"{what} is rolled once; the log gives {raw}", ev.at("rolls"))
            elif len(raw) != side.best_of:
                self.ref.violation("BOI-SPIRIT-1", f"{what} is rolled {side.best_of} times, keeping the higher; the "
                                   f"log gives {raw}", ev.at("rolls"))
            vals = [v for v in raw if self.ref.die(v, side.sides, "BOI-ROLL-1", ev.at("rolls"), what)]
            return max(vals) if vals else None
        if side.best_of:
            self.ref.violation("BOI-SPIRIT-1", f"{what} is rolled {side.best_of} times, keeping the higher; record "
                               f"every value, e.g. [3, 9]", ev.at("rolls"))
        if self.ref.die(raw, side.sides, "BOI-ROLL-1", ev.at("rolls"), what):
            return raw
        return raw if isinstance(raw, int) and not isinstance(raw, bool) else None

    @staticmethod
    def _winner(a: Side, d: Side, tie: str, skip_a: int | None = None, skip_d: int | None = None) -> Side | None:
        ta, td = a.total(skip_a), d.total(skip_d)
        if ta is None or td is None:
            return d if tie != "reroll" else None
        if ta != td:
            return a if ta > td else d
        return {"attacker": a, "shooter": a, "reroll": None}.get(tie, d)

    def _diagnose(self, ev: Event, a: Side, d: Side, tie: str, base: str, what: str, stated: Team,
                  winner: Side | None) -> None:
        """The log's winner differs from the rules': name the rule the table most likely missed."""
        loc = ev.at("goal") if "goal" in ev.fields else ev.at("winner")
        rules_say = f"the rules give it to the {winner.team.label}" if winner else "it is a tie, re-rolled"
        detail = f"({a.text()} vs {d.text()})"
        for side in (a, d):
            for i, (label, amount, rule) in enumerate(side.mods):
                alt = self._winner(a, d, tie, i if side is a else None, i if side is d else None)
                if alt is not None and alt.team is stated:
                    self.ref.violation(rule, f"the log gives the {what} to the {stated.label}; with "
                                       f"{side.skater.short}'s +{amount} {label} {rules_say} {detail}", loc)
                    return
        ta, td = a.total(), d.total()
        if ta == td:
            if tie == "reroll":
                self.ref.violation("BOI-ROLL-2", f"the {what} is tied {detail}: a tied Face-Off is re-rolled", loc)
            else:
                who = winner.skater.short if winner else "?"
                self.ref.violation(base, f"the log gives the {what} to the {stated.label}, but a tie goes to "
                                   f"{who} ({'the Goalie' if base == 'BOI-1V1-1' else 'the defender'}) {detail}", loc)
            return
        self.ref.violation(base, f"the log gives the {what} to the {stated.label}, but the higher roll wins: "
                           f"{rules_say} {detail}", loc)

    def _stated_winner(self, ev: Event) -> Team | None:
        return self._find_team(ev["winner"], ev, "winner") if ev.get("winner") is not None else None

    def _stated_goal(self, ev: Event, shooter: Team) -> Team | None:
        g = ev.get("goal")
        return None if g is None else shooter if g else self._other(shooter)

    # -- rounds -------------------------------------------------------------------------------

    def _begin_round(self, ev: Event, stated: Any = None) -> bool:
        """Start the next round (closing the current one if the log skipped its Recovery)."""
        if self.phase == "start":
            self.ref.violation("BOI-ROUND-1", f"round {self.round + 1} starts, but round {self.round} had no "
                               "Face-Off", ev.loc)
            self._recover(ev, silent=True)
        elif self.phase not in ("setup", "recovered"):
            self.ref.violation("BOI-ROUND-1", f"round {self.round} ends without its Recovery (each round is "
                               "Face-Off, Mid-Game, 1v1, Recovery)", ev.loc)
            self._recover(ev, silent=True)
        if self.over or self.phase == "shootout":
            return False
        self.round += 1
        self.phase = "start"
        self._reset_round_chaos()
        self.active, self.puck = None, None
        self.faceoff_pair = None
        for t in self.teams:
            t.touched_zero = False
            t.spirit_uses = 0
        if stated is not None:      # the count stays the rules' own: one slip does not shift every round
            self.ref.claim("BOI-ROUND-1", "the round", stated, self.round, ev.at("round"))
        self.ref.trace(f"      — round {self.round}{' (Chaos)' if self.round in self.chaos_rounds else ''} —")
        return True

    def on_round_start(self, ev: Event) -> None:
        self._begin_round(ev, ev["round"])

    def _recover(self, ev: Event, silent: bool = False) -> None:
        for t in self.teams:
            amount = self.exhausted_recovery if t.touched_zero else self.recovery
            t.stamina = min(self.st_max, t.stamina + amount)
        if not silent and ev.get("stamina"):
            self._stamina_claims(ev, ev["stamina"], "BOI-REC-1")
        if not silent:
            self._t(ev, "Recovery: " + ", ".join(
                f"{t.label} +{self.exhausted_recovery if t.touched_zero else self.recovery}"
                f"{' (Exhausted)' if t.touched_zero else ''}" for t in self.teams))
        self._state_lines(f"end of round {self.round}")
        self.phase = "recovered"
        self.pending = []
        if self.round >= self.rounds:
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
            self._t(ev, f"tied {a.score}–{b.score} after round {self.rounds}: shootout of {self.shootout_rounds} "
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
        if ph in ("start", "faceoff_tie"):
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
        self._recover(ev)

    # -- Chaos Table (BOI-CHAOS-1/2/3) ---------------------------------------------------------

    def _chaos_card(self, value: Any, ev: Event) -> Card:
        s = str(value).strip().lower()
        cards = self.by_type.get("chaos", [])
        c = next((c for c in cards if s in (c.id.lower(), c.name.lower())), None)
        if c is None:
            raise LogError("LOG-FIELD", f"'entry' names no Chaos Table card: {value!r}", ev.at("entry"),
                           did_you_mean(s, [c.id for c in cards]))
        return c

    def on_chaos(self, ev: Event) -> None:
        late = self.phase in MID_PHASES and self.round in self.chaos_rounds and not self.chaos_done
        if self.phase in ("setup", "recovered") or (self.phase in MID_PHASES and not late):
            if not self._begin_round(ev):
                return
        if self.round not in self.chaos_rounds:
            self.ref.violation("BOI-CHAOS-1", f"a Chaos event is triggered at the start of rounds "
                               f"{', '.join(map(str, self.chaos_rounds))} only, not in round {self.round}", ev.loc)
        elif self.chaos_done:
            self.ref.violation("BOI-CHAOS-1", f"round {self.round} already had its Chaos event", ev.loc)
        if self.phase != "start":
            self.ref.violation("BOI-CHAOS-2", "the Chaos die is rolled at the start of the round, before the "
                               "Face-Off", ev.loc)
        self.chaos_done = True
        value = ev["die"]
        entry = None
        if self.ref.die(value, self.chaos_die, "BOI-ROLL-1", ev.at("die"), "the Chaos die"):
            entry = next((c for c in self.by_type.get("chaos", []) if c.get("face") == value), None)
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
        eff = self._effect("chaos_effects", entry, CHAOS_EFFECTS)
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
                t.stamina = min(self.st_max, t.stamina + amount)
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
        eff = self._effect("chaos_effects", self.chaos_entry, CHAOS_EFFECTS) if self.chaos_entry else {}
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
        eff = self._effect("chaos_effects", self.chaos_entry, CHAOS_EFFECTS) if self.chaos_entry else {}
        if eff.get("effect") != "scramble":
            self.ref.violation("BOI-CHAOS-2", "skaters are scrambled only when the Chaos Table says so", ev.loc)
            eff = next((e for e in (self._param("chaos_effects") or {}).values()
                        if isinstance(e, dict) and e.get("effect") == "scramble"), {})
        elif self.phase not in ("mid",) or self.mid_started:
            self.ref.violation("BOI-CHAOS-2", f"{self.chaos_entry.name}'s rolls follow the Face-Off, before the "
                               "first Mid-Game action", ev.loc)
        self.scramble_due = False
        die = int(eff.get("die") or self.chaos_die)
        zones = eff.get("zones") if isinstance(eff.get("zones"), dict) else {}
        rolls = ev["rolls"]
        seen = set()
        moved = []
        for key, value in rolls.items():
            sk = self._find_skater(key, ev, "rolls")
            seen.add(id(sk))
            if sk.role == self.goalie_role:
                self.ref.violation("BOI-SETUP-2", f"{sk.short} is a Goalie: Goalies stay in their own Defensive "
                                   "Zone and are not scrambled", ev.at("rolls"))
                continue
            if not self.ref.die(value, die, "BOI-ROLL-1", ev.at("rolls"), f"{sk.short}'s d{die}"):
                continue
            z = next((z for z, faces in zones.items() if value in (faces or [])), None)
            if z in self.zones:
                sk.zone = self._abs(sk.team, self.zones.index(z))
                moved.append(f"{sk.short} {value}→{self.zone_names.get(z, z)}")
        missing = [sk.short for sk in self.skaters if sk.role != self.goalie_role and id(sk) not in seen]
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
        if self.phase in ("setup", "recovered") or self.phase in MID_PHASES:
            if not self._begin_round(ev):
                return
        if self.round in self.chaos_rounds and not self.chaos_done and not self.chaos_reported:
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
            if sk.role not in self.acting_roles:
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
                sk = next(s for s in pp.skaters if s.role in self.acting_roles)
            self.pending = []
            self._won_faceoff(ev, sk, f"Face-Off: {self.chaos_entry.name} gives it to {sk.short}")
            return
        if len(by_team) < 2:
            missing = [t for t in self.teams if t.idx not in by_team]
            self.ref.violation("BOI-FO-1", "each team picks one skater for the Face-Off; the log names none for "
                               f"the {' and the '.join(t.label for t in missing)}", ev.at("skaters"))
            for t in missing:
                by_team[t.idx] = next((s for s in t.skaters if s.role in self.acting_roles), t.skaters[0])
        pair = (by_team[0], by_team[1])
        if self.phase == "faceoff_tie" and self.faceoff_pair and pair != self.faceoff_pair:
            self.ref.violation("BOI-ROLL-2", f"the tied Face-Off is re-rolled by the same skaters "
                               f"({self.faceoff_pair[0].short} and {self.faceoff_pair[1].short})", ev.at("skaters"))
        first = skaters[0] if skaters and skaters[0] in pair else pair[0]
        second = pair[1] if first is pair[0] else pair[0]
        a, d = self._side(first, "reflexes"), self._side(second, "reflexes")
        w, text = self._contest(ev, "faceoff", a, d, self.ties["face_off"], "BOI-FO-1", "Face-Off",
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

    # -- Mid-Game (BOI-MID-1 … 7) -------------------------------------------------------------

    def _mid_check(self, ev: Event, sk: Skater, goalie_reported: bool = False) -> None:
        ph = self.phase
        ended = False
        if ph in ("setup", "recovered", "start"):
            self.ref.violation("BOI-ROUND-1", "the Mid-Game follows the Face-Off; "
                               + ("no round is under way" if ph != "start" else f"round {self.round} had none"),
                               ev.loc)
            if ph != "start":
                self._begin_round(ev)
            self.active = sk.team
            self.phase = "mid"
        elif ph == "faceoff_tie":
            self.ref.violation("BOI-ROLL-2", "the Face-Off was tied: it is re-rolled before the Mid-Game", ev.loc)
            self.active = sk.team
            self.phase = "mid"
        elif ph == "one_v_one":
            self.ref.violation("BOI-MID-3", f"{self.shot.short}'s shot got through: the 1v1 comes next", ev.loc)
            self.phase = "mid"
        elif ph == "rebound":
            self.ref.violation("BOI-1V1-1", "after a Save both roll for the rebound ('rebound' event)", ev.loc)
            self.phase = "mid"
        elif ph == "mid_over":
            rule, why = self.mid_end
            who = f"the {self.active.label}'" if self.active else "the active team's"
            self.ref.violation(rule, f"{who} Mid-Game is over ({why}): no more actions this round", ev.loc)
            ended = True
        if self.scramble_due:
            self._scramble_missed(ev)
        if self.active is None:
            self.active = sk.team
        if sk.role not in self.acting_roles:
            if not goalie_reported:
                self.ref.violation("BOI-MID-1", f"{sk.short} is a Goalie: the Goalie takes no action in the Mid-Game",
                                   ev.at("skater"))
        elif not ended and sk.team is not self.active:
            self.ref.violation("BOI-MID-1", f"{sk.short} plays for the {sk.team.label}; only the "
                               f"{self.active.label} (who won the Face-Off) act in this Mid-Game", ev.at("skater"))
        elif not ended and self.acted[id(sk)] >= 1 + self.extra[id(sk)]:
            self.ref.violation("BOI-MID-1", f"{sk.short} already acted in this Mid-Game (one action per skater)",
                               ev.at("skater"))
        self.acted[id(sk)] += 1
        self.mid_started = True

    def _end_mid(self, rule: str, why: str) -> None:
        self.phase = "mid_over"
        self.mid_end = (rule, why)

    def _carrier(self, ev: Event, sk: Skater, rule: str, verb: str) -> None:
        if self.puck is not sk:
            holder = f"{self.puck.short} has it" if self.puck else "nobody has it"
            self.ref.violation(rule, f"only the puck carrier {verb}; {sk.short} does not have the puck "
                               f"({holder})", ev.at("skater"))
            self.puck = sk

    def _defender(self, ev: Event, fname: str, against: Skater, what: str) -> Skater:
        d = self._find_skater(ev[fname], ev, fname)
        if d.team is against.team:
            self.ref.violation("BOI-MID-6", f"{d.short} is {against.short}'s teammate; the opponent picks one of "
                               f"its own skaters to {what}", ev.at(fname))
        elif d.role not in self.defending_roles:
            self.ref.violation("BOI-MID-6", f"{d.short} is the Goalie; the opponent picks a skater other than the "
                               f"Goalie to {what}", ev.at(fname))
        return d

    def on_move(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        self._mid_check(ev, sk)
        self._carrier(ev, sk, "BOI-MID-2", "moves with the puck")
        dest = self._zone(ev["zone"], sk.team, ev, "zone")
        if abs(dest - sk.zone) != 1:
            self.ref.violation("BOI-MID-2", f"{sk.short} is in the {self._zname(sk.team, sk.zone)}: a Move goes "
                               f"to an adjacent zone, not the {self._zname(sk.team, dest)}", ev.at("zone"))
        d = self._defender(ev, "defender", sk, "defend")
        self._spend(sk.team, self.costs["move"], "a Move", ev)
        frm = self._zname(sk.team, sk.zone)
        w, text = self._contest(ev, "move", self._side(sk, "reflexes"), self._side(d, "reflexes"),
                                self.ties["contested"], "BOI-ROLL-2", "Move", self._stated_winner(ev))
        if w is not None and w.skater is sk:
            sk.zone = dest
            self._t(ev, f"{sk.short} moves {frm} → {self._zname(sk.team, dest)} past {d.short}: {text} → through")
        else:
            self.puck = d
            self._end_mid("BOI-MID-1", f"{d.short} stopped {sk.short}'s Move and took the puck")
            self._t(ev, f"{sk.short} tries {frm} → {self._zname(sk.team, dest)}, {d.short} defends: {text} → "
                    f"stopped, {d.short} takes the puck; the {sk.team.label}' Mid-Game ends")

    def on_shoot(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        self._mid_check(ev, sk)
        self._carrier(ev, sk, "BOI-MID-3", "shoots")
        d = self._defender(ev, "defender", sk, "block the shot")
        self._spend(sk.team, self.costs["shoot"], "a Shoot", ev)
        w, text = self._contest(ev, "shoot", self._side(sk, "marksmanship"), self._side(d, "reflexes"),
                                self.ties["contested"], "BOI-ROLL-2", "Shoot roll",
                                self._stated_winner(ev))
        where = self._zname(sk.team, sk.zone)
        if w is not None and w.skater is sk:
            self.phase = "one_v_one"
            self.shot, self.shot_zone = sk, sk.zone
            self._t(ev, f"{sk.short} shoots from the {where}, {d.short} blocks: {text} → through to the 1v1")
        else:
            if self.blocked_shot == "blocker":
                self.puck = d
                self._end_mid("BOI-MID-7", f"{d.short} blocked the shot and took the puck")
                tail = f"{d.short} takes the puck; the {sk.team.label}' Mid-Game ends"
            else:
                tail = f"{sk.short} keeps the puck"
            self._t(ev, f"{sk.short} shoots from the {where}, {d.short} blocks: {text} → blocked, {tail}")

    def on_pass(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        self._mid_check(ev, sk)
        self._carrier(ev, sk, "BOI-MID-4", "passes")
        to = self._find_skater(ev["to"], ev, "to")
        if to.team is not sk.team or to is sk:
            self.ref.violation("BOI-MID-4", f"a Pass goes to a teammate; {to.short} is "
                               f"{'the passer' if to is sk else 'an opponent'}", ev.at("to"))
        elif abs(to.zone - sk.zone) > 1:
            self.ref.violation("BOI-MID-4", f"{to.short} is in the {self._zname(sk.team, to.zone)}, {sk.short} in "
                               f"the {self._zname(sk.team, sk.zone)}: a Pass goes to a teammate in the same or an "
                               "adjacent zone", ev.at("to"))
        self._spend(sk.team, self.costs["pass"], "a Pass", ev)
        self.puck = to
        self.phase = "pass" if self.phase == "mid" else self.phase
        self.pass_info = (sk, to)
        self._t(ev, f"{sk.short} passes to {to.short} ({self._zname(sk.team, to.zone)}); "
                f"{sk.team.label} Stamina {sk.team.stamina}")

    def on_intercept(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        if self.phase != "pass" or self.pass_info is None:
            self.ref.violation("BOI-MID-4", "an Interception answers a Pass, right after it; no Pass was just made",
                               ev.loc)
            if self.puck is None or self.puck.team is sk.team:
                return
            self.pass_info = (self.puck, self.puck)
        passer, receiver = self.pass_info
        self.pass_info = None
        if sk.team is passer.team:
            self.ref.violation("BOI-MID-6", f"{sk.short} is {passer.short}'s teammate; the opponent intercepts",
                               ev.at("skater"))
        elif sk.role not in self.defending_roles:
            self.ref.violation("BOI-MID-6", f"{sk.short} is the Goalie; the opponent intercepts with a skater "
                               "other than the Goalie", ev.at("skater"))
        self._spend(sk.team, self.costs["interception"], "an Interception attempt", ev)
        w, text = self._contest(ev, "interception", self._side(passer, "reflexes"), self._side(sk, "reflexes"),
                                self.ties["contested"], "BOI-ROLL-2", "Interception",
                                self._stated_winner(ev))
        if w is not None and w.skater is sk:
            self.puck = sk
            self._end_mid("BOI-MID-1", f"{sk.short} intercepted the pass")
            self._t(ev, f"{sk.short} intercepts: {text} → intercepted, {sk.short} takes the puck; the "
                    f"{passer.team.label}' Mid-Game ends")
        else:
            self.phase = "mid"
            self._t(ev, f"{sk.short} intercepts: {text} → the pass reaches {receiver.short}")

    def on_tactical_move(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        dest = self._zone(ev["zone"], sk.team, ev, "zone")
        if sk.role == self.goalie_role:
            self.ref.violation("BOI-SETUP-2", f"{sk.short} is a Goalie: Goalies stay in their own Defensive Zone",
                               ev.at("skater"))
            self._mid_check(ev, sk, goalie_reported=True)
        else:
            self._mid_check(ev, sk)
        if self.puck is sk:
            self.ref.violation("BOI-MID-5", f"{sk.short} has the puck: a Tactical Move is for a skater without it "
                               "(the carrier Moves)", ev.at("skater"))
        if abs(dest - sk.zone) != 1:
            self.ref.violation("BOI-MID-5", f"{sk.short} is in the {self._zname(sk.team, sk.zone)}: a Tactical Move "
                               f"goes to an adjacent zone, not the {self._zname(sk.team, dest)}", ev.at("zone"))
        self._spend(sk.team, self.costs["tactical_move"], "a Tactical Move", ev)
        frm = self._zname(sk.team, sk.zone)
        if sk.role != self.goalie_role:
            sk.zone = dest
        self._t(ev, f"{sk.short} skates {frm} → {self._zname(sk.team, dest)} (Tactical Move); "
                f"{sk.team.label} Stamina {sk.team.stamina}")

    # -- 1v1 (BOI-1V1-1), penalty and shootout shots ------------------------------------------

    def _shot_on_goal(self, ev: Event, sk: Skater, kind: str, what: str, base: str) -> bool:
        """A shot against the opposing Goalie; returns whether it scores."""
        opp = self._other(sk.team)
        goalie = opp.goalie(self.goalie_role) or opp.skaters[0]
        a, d = self._side(sk, "marksmanship"), self._side(goalie, "reflexes")
        w, text = self._contest(ev, kind, a, d, self.ties["one_on_one"], base, what, self._stated_goal(ev, sk.team))
        goal = w is not None and w.skater is sk
        if goal and kind != "shootout":
            sk.team.score += 1
        self._t(ev, f"{what}: {text} → " + (f"GOAL! {self._score_text()}" if goal and kind != "shootout"
                                             else "GOAL" if goal else f"SAVE by {goalie.short}"))
        return goal

    def on_one_v_one(self, ev: Event) -> None:
        shooter = self.shot
        if self.phase != "one_v_one" or shooter is None:
            self.ref.violation("BOI-MID-3", "a 1v1 follows a Shoot that gets past the defending skater", ev.loc)
            if ev.get("skater") is not None:
                shooter = self._find_skater(ev["skater"], ev, "skater")
            shooter = shooter or self.puck
            if shooter is None:
                return
            self.shot_zone = shooter.zone
        elif ev.get("skater") is not None:
            named = self._find_skater(ev["skater"], ev, "skater")
            if named is not shooter:
                self.ref.violation("BOI-MID-3", f"{shooter.short}'s shot got through: {shooter.short} takes the "
                                   f"1v1, not {named.short}", ev.at("skater"))
        self.shot = shooter
        goal = self._shot_on_goal(ev, shooter, "one_on_one", "1v1", "BOI-1V1-1")
        if goal:
            self.puck = None
            self._end_mid("BOI-MID-7", f"{shooter.short} scored")
        else:
            self.phase = "rebound"
        self._score_claims(ev, "BOI-1V1-1")

    def on_rebound(self, ev: Event) -> None:
        shooter = self.shot
        if self.phase != "rebound" or shooter is None:
            self.ref.violation("BOI-1V1-1", "a rebound is rolled after a Save in the 1v1", ev.loc)
            if shooter is None:
                return
        goalie = self._other(shooter.team).goalie(self.goalie_role) or self._other(shooter.team).skaters[0]
        w, text = self._contest(ev, "rebound", self._side(shooter, "reflexes"), self._side(goalie, "reflexes"),
                                self.ties["rebound"],
                                "BOI-1V1-1", "rebound", self._stated_winner(ev))
        if w is not None and w.skater is shooter:
            self.puck = shooter
            self.phase = "mid"
            self._t(ev, f"rebound: {text} → {shooter.short} keeps the puck")
        else:
            self.puck = goalie
            self._end_mid("BOI-MID-1", f"{goalie.short} won the rebound")
            self._t(ev, f"rebound: {text} → {goalie.short} covers the puck; the {shooter.team.label}' Mid-Game ends")

    def on_shootout(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        if self.phase != "shootout":
            self.ref.violation("BOI-END-2", f"a shootout is played only when the score is tied after round "
                               f"{self.rounds}", ev.loc)
            return
        team = sk.team
        first = self.last_faceoff_team or self.teams[0]
        n = {t.idx: sum(1 for s, _g in self.shots if s is t) for t in self.teams}
        due = first if n[first.idx] <= n[self._other(first).idx] else self._other(first)
        rnd = min(n.values()) + 1
        if team is not due:
            self.ref.violation("BOI-END-3", f"shootout round {rnd}: the {due.label} shoot now (each round the "
                               f"{first.label}, who won the last Face-Off, shoot first)", ev.at("skater"))
        if sk.role not in self.shooter_roles:
            self.ref.violation("BOI-END-3", f"{sk.short} is the Goalie; a shootout shot is taken by another "
                               "skater", ev.at("skater"))
        goal = self._shot_on_goal(ev, sk, "shootout", f"shootout round {rnd}", "BOI-1V1-1")
        self.shots.append((team, goal))
        if goal:
            team.shootout += 1
        self._score_claims(ev, "BOI-END-2", shootout=True)
        n[team.idx] += 1
        a, b = self.teams
        if n[0] == n[1]:
            for t in self.teams:       # the shootout round is over: Team Spirits may be used again
                t.spirit_uses = 0
        if n[0] == n[1] and n[0] >= self.shootout_rounds:
            self.ref.trace(f"      shootout after {n[0]} round(s): {a.label} {a.shootout} – {b.shootout} {b.label}")
            if a.shootout != b.shootout:
                self._decide(a if a.shootout > b.shootout else b, "shootout", ev)
            elif not self.sudden_death:
                self._decide(None, "draw", ev)

    # -- Team Spirit (BOI-SPIRIT-1) -------------------------------------------------------------

    def on_team_spirit(self, ev: Event) -> None:
        team = self._find_team(ev["team"], ev, "team")
        if self.phase in ("setup", "recovered") and not self._begin_round(ev):    # used before the Face-Off
            return
        card = team.spirit
        if card is None:
            raise LogError("LOG-GAME", f"the {team.key} have no Team Spirit card", ev.at("team"))
        eff = self._effect("spirit_effects", card, SPIRIT_EFFECTS)
        if team.spirit_uses >= self.spirit_per_round:
            self.ref.violation("BOI-SPIRIT-1", f"the {team.label} already used {card.name} this round (at most "
                               f"{self.spirit_per_round} per round)", ev.loc)
        team.spirit_uses += 1
        self._spend(team, int(card.get("cost") or 0), card.name, ev)
        kind = eff["effect"]
        sk = self._find_skater(ev["skater"], ev, "skater") if ev.get("skater") is not None else None
        if kind in ("extra_action", "opponent_die", "best_of") and sk is None:
            raise LogError("LOG-FIELD", f"'team_spirit' for {card.name} needs 'skater' (the skater it names)", ev.loc)
        text = f"the {team.label} use {card.name} ({card.get('cost')} Stamina, now {team.stamina})"
        if kind == "extra_action":
            if team is not self.active or self.phase not in ("mid", "pass"):
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} is used in the {team.label}' own Mid-Game", ev.loc)
            if sk.team is not team or not self.acted[id(sk)]:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} names a {team.label} skater that has already acted; "
                                   f"{sk.short} has not", ev.at("skater"))
            self.extra[id(sk)] += int(eff["actions"])
            text += f": {sk.short} acts once more"
        elif kind == "opponent_die":
            if sk.team is team:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} names an opposing skater; {sk.short} is a "
                                   f"{team.label} skater", ev.at("skater"))
            self.pending.append((team, eff, sk, ev))
            text += f": {sk.short} rolls a d{eff.get('die')} in the next roll"
        elif kind == "best_of":
            if sk.team is not team:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} names one of the {team.label}' skaters; "
                                   f"{sk.short} is not", ev.at("skater"))
            self.pending.append((team, eff, sk, ev))
            text += f": {sk.short} rolls {eff.get('dice')} dice and keeps the higher"
        elif kind == "defense_everywhere":
            if self.phase not in ("mid",) or team is self.active or self.mid_started:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} is used at the start of the opponent's Mid-Game, "
                                   "before its first action", ev.loc)
            self.defense_everywhere.add(team.idx)
            text += ": Defense Bonus in every zone until this Mid-Game ends"
        self._t(ev, text)

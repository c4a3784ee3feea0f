"""Bones on Ice — the rules, read once from ``params.yaml`` and the cards (typed; a missing parameter is
a :class:`RulesError` naming it, ``LOG-GAME``), and the rules as functions the game state uses."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.core.problems import Loc
from cardgen.core.record import record
from cardgen.games.bones_on_ice.vocab import CHAOS_EFFECTS, SPIRIT_EFFECTS
from cardgen.play.params import ParamError, Params


class RulesError(Exception):
    """A rules parameter or effect entry that is missing or malformed."""

    def __init__(self, message: str, loc: Loc):
        super().__init__(message)
        self.message, self.loc = message, loc


def die_sides(value: Any) -> int:
    """A card's stat die (``d8``) → its number of sides (0 if it is no die)."""
    m = re.fullmatch(r"d(\d+)", str(value).strip().lower())
    return int(m.group(1)) if m else 0


def start_stamina(r: Rules, spirit: Card | None) -> int:
    """A team's starting Stamina: its Team Spirit card's ``stamina`` when the card names one (a
    project addition, a finer balance knob than a die: the seed gives every team the same), else
    the shared ``stamina.start`` (BOI-STAM-1)."""
    own = spirit.get("stamina") if spirit is not None else None
    return own if isinstance(own, int) and not isinstance(own, bool) else r.st_start


@record(frozen=True)
class Rules:
    """The game's rules numbers and tables (see ``rules/bones_on_ice/params.yaml``)."""

    file: str
    n_teams: int
    team_roles: dict[str, int]
    zones: list[str]                       # from a team's own goal outwards
    zone_names: dict[str, str]
    faceoff_zone: str
    goalie_zone: str
    acting_roles: list[str]
    defending_roles: list[str]
    goalie_role: str
    st_start: int
    st_max: int
    st_min: int
    recovery: int
    exhausted_recovery: int
    costs: dict[str, int]
    boost_bonus: int
    boost_per_roll: int
    spirit_per_round: int
    ties: dict[str, str]                   # who wins a tie: defender/goalie, attacker/shooter, reroll
    attack_bonus: int
    defense_bonus: int
    zone_rolls: frozenset[str]
    blocked_shot: str
    rounds: int
    chaos_die: int
    chaos_rounds: list[int]
    shootout_rounds: int
    sudden_death: bool
    shooter_roles: list[str]
    chaos_effects: Mapping[str, Any]
    spirit_effects: Mapping[str, Any]
    by_type: dict[str, list[Card]]

    @classmethod
    def read(cls, game: Game) -> Rules:
        """The rules of ``game``; raises :class:`RulesError` for a missing or mistyped parameter."""
        file = game.rules_dir / "params.yaml"
        p = Params.of(game)
        try:
            roles = {str(r): p.int(f"team_roles.{r}") for r in p.mapping("team_roles")}
            acting = [str(r) for r in p.list("acting_roles")]
            by_type: dict[str, list[Card]] = {}
            for c in game.cards:
                by_type.setdefault(c.type, []).append(c)
            rules = cls(
                file=str(file), n_teams=p.int("teams"), team_roles=roles,
                zones=[str(z) for z in p.list("zones")],
                zone_names={str(k): str(v) for k, v in p.mapping("zone_names").items()},
                faceoff_zone=p.str("faceoff_zone"), goalie_zone=p.str("goalie_zone"),
                acting_roles=acting, defending_roles=[str(r) for r in p.list("defending_roles")],
                goalie_role=next((r for r in roles if r not in acting), "goalie"),
                st_start=p.int("stamina.start"), st_max=p.int("stamina.max"), st_min=p.int("stamina.min"),
                recovery=p.int("stamina.recovery"), exhausted_recovery=p.int("stamina.exhausted_recovery"),
                costs={k: p.int(f"costs.{k}") for k in ("move", "shoot", "pass", "interception", "tactical_move",
                                                        "boost")},
                boost_bonus=p.int("boost.bonus"), boost_per_roll=p.int("boost.per_roll"),
                spirit_per_round=p.int("spirit_uses_per_round"),
                ties={k: p.str(f"ties.{k}") for k in ("contested", "face_off", "one_on_one", "rebound")},
                attack_bonus=p.int("zone_bonus.attack"), defense_bonus=p.int("zone_bonus.defense"),
                zone_rolls=frozenset(str(r) for r in p.list("zone_bonus.rolls")),
                blocked_shot=p.choice("blocked_shot", ("blocker", "shooter")), rounds=p.int("rounds"),
                chaos_die=p.int("chaos.die"), chaos_rounds=[int(r) for r in p.list("chaos.rounds")],
                shootout_rounds=p.int("shootout.rounds"), sudden_death=p.bool("shootout.sudden_death"),
                shooter_roles=[str(r) for r in p.list("shootout.shooter_roles")],
                chaos_effects=p.mapping("chaos_effects"), spirit_effects=p.mapping("spirit_effects"),
                by_type=by_type)
        except ParamError as e:
            raise RulesError(e.message, Loc(str(file), 1, 1)) from None
        if rules.n_teams != 2:
            raise RulesError(f"'teams' in {file.name} is {rules.n_teams}: the rink has two ends, one team at each "
                             "(BOI-SETUP-1); the rules engine plays two teams", Loc(str(file), 1, 1))
        return rules

    # -- what a Chaos entry or Team Spirit does ----------------------------------------------
    def effect(self, table: str, card: Card) -> dict:
        """The ``params.yaml`` entry of a Chaos card (``chaos_effects``) or Team Spirit
        (``spirit_effects``), checked for the keys its effect needs."""
        effects = self.chaos_effects if table == "chaos_effects" else self.spirit_effects
        known = CHAOS_EFFECTS if table == "chaos_effects" else SPIRIT_EFFECTS
        name = self.file.rsplit("/", 1)[-1]
        eff = effects.get(card.id)
        loc = getattr(eff, "loc", None) or getattr(effects, "loc", None) or Loc(self.file, 1, 1)
        if not isinstance(eff, dict) or eff.get("effect") not in known:
            raise RulesError(f"'{table}.{card.id}' in {name} must be a mapping with 'effect', one of: "
                             f"{', '.join(known)}", loc)
        missing = [k for k in known[eff["effect"]] if k not in eff]
        bad = [k for k in ("die", "amount", "actions", "dice") if k in eff and (isinstance(eff[k], bool)
                                                                              or not isinstance(eff[k], int))]
        if bad:
            raise RulesError(f"'{table}.{card.id}.{bad[0]}' in {name} must be a whole number, not "
                             f"{eff[bad[0]]!r}", loc)
        if missing:
            raise RulesError(f"'{table}.{card.id}' ({eff['effect']}) in {name} lacks "
                             f"{', '.join(repr(k) for k in missing)}", loc)
        return eff

    def chaos_card(self, face: int) -> Card | None:
        return next((c for c in self.by_type.get("chaos", []) if c.get("face") == face), None)

    # -- the rink: positions 0 (the first team's goal) … len(zones)-1 -----------------------
    def pos(self, team_idx: int, zone_i: int) -> int:
        """A zone index counted from team ``team_idx``'s own goal → a rink position."""
        return zone_i if team_idx == 0 else len(self.zones) - 1 - zone_i

    def rel(self, team_idx: int, pos: int) -> str:
        """A rink position → its zone key from team ``team_idx``'s point of view."""
        return self.zones[self.pos(team_idx, pos)]

    def start_pos(self, team_idx: int, role: str) -> int:
        """Where a skater stands at a Face-Off (BOI-SETUP-2)."""
        zone = self.goalie_zone if role == self.goalie_role else self.faceoff_zone
        return self.pos(team_idx, self.zones.index(zone) if zone in self.zones else 0)


def tie_winner(ta: int, td: int, tie: str) -> str | None:
    """Who wins a contested roll of totals ``ta`` (the initiator) and ``td``: 'a', 'd', or None
    (a tie that is re-rolled). BOI-ROLL-2, BOI-1V1-1."""
    if ta != td:
        return "a" if ta > td else "d"
    return {"attacker": "a", "shooter": "a", "reroll": None}.get(tie, "d")


def zone_mods(r: Rules, roll: str, a_stat: str, a_team: int, a_pos: int, d_stat: str, d_team: int, d_pos: int,
              defense_everywhere: bool) -> tuple[int, int, str]:
    """The zone bonuses of a roll (BOI-ZONE-1/2/3, Grave Wall): (attacker's, defender's, the
    defender's bonus rule). ``a_pos`` is where the shot was taken from for a 1v1."""
    a = d = 0
    rule = "BOI-ZONE-2"
    if roll in r.zone_rolls:
        if a_stat == "marksmanship" and r.rel(a_team, a_pos) == r.zones[-1]:
            a = r.attack_bonus
        if d_stat == "reflexes":
            if r.rel(d_team, d_pos) == r.zones[0]:
                d = r.defense_bonus
            elif defense_everywhere:
                d, rule = r.defense_bonus, "BOI-SPIRIT-1"
    return a, d, rule

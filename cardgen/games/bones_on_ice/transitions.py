"""Bones on Ice — how the game state moves on: each decision and chance outcome applied, rolls
assembled (declaration, defender, Boosts, dice) and resolved, and the log event written.

The rolls follow the rules the referee applies (``rules.py``: ties, zone bonuses); each event
states its consequences (winner, goal, score, Stamina) so a replay of the log checks them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.games.bones_on_ice.rules import tie_winner, zone_mods
from cardgen.play.api import Action

if TYPE_CHECKING:
    from cardgen.games.bones_on_ice.moves import Moves
    from cardgen.games.bones_on_ice.rules import Rules
    from cardgen.games.bones_on_ice.state import Setup

# who wins a tie, by roll (params.yaml ties)
TIES = {"faceoff": "face_off", "move": "contested", "shoot": "contested", "intercept": "contested",
        "one_v_one": "one_on_one", "penalty_shot": "one_on_one", "shootout": "one_on_one", "rebound": "rebound"}
# the roll's name in params.yaml zone_bonus.rolls
ZONE_ROLL = {"move": "move", "shoot": "shoot", "intercept": "interception", "one_v_one": "one_on_one"}


def _value(v: Any) -> int:
    """A die's value (Dead Eye: the highest); a value no die shows (a log's slip) counts as 0."""
    if isinstance(v, tuple):
        return max([x for x in v if type(x) is int] or [0])
    return v if type(v) is int else 0


class Transitions:
    """The moves of :class:`~.state.BoiState` (a mixin: the state's fields are set there)."""

    s: Setup
    r: Rules
    m: Moves
    players: list[str]
    history: list[Action]
    events: list[dict[str, Any]]
    log: bool
    round: int
    phase: str
    stamina: list[int]
    score: list[int]
    so: list[int]
    touched: list[bool]
    pos: list[int]
    active: int | None
    puck: int | None
    acted: list[int]
    extra: list[int]
    spirit_uses: list[int]
    grave: list[bool]
    picks: list[int]
    effect: dict[str, Any]
    entry_id: str | None
    penalty_queue: list[int]
    power_play: int | None
    no_boost: bool
    roll_bonus: tuple[int, int] | None
    scramble_due: bool
    scramble: dict[str, Any] | None
    last_fo: int | None
    shot: int | None
    shot_pos: int
    pass_info: tuple[int, int] | None
    shots: list[tuple[int, bool]]
    winner: int | None
    decided_by: str | None
    roll: dict[str, Any] | None

    # -- helpers ----------------------------------------------------------------------------
    def piece(self, sid: str) -> int:
        return self.s.index[sid]

    def goalie(self, team: int) -> int:
        g = self.s.goalies[team]
        if g < 0:
            raise ValueError(f"the {self.players[team]} have no Goalie")
        return g

    def spend(self, team: int, amount: int) -> None:
        if amount > 0:
            self.stamina[team] = max(self.r.st_min, self.stamina[team] - amount)
            if self.stamina[team] <= self.r.st_min:
                self.touched[team] = True

    def due_shooter(self) -> int:
        first = self.last_fo if self.last_fo is not None else 0
        n = [sum(1 for t, _ in self.shots if t == k) for k in (0, 1)]
        return first if n[first] <= n[1 - first] else 1 - first

    # -- rolls ------------------------------------------------------------------------------
    def start_roll(self, kind: str, ev: dict[str, Any], a: int, d: int | None, a_stat: str, d_stat: str) -> None:
        """A contested roll: ``a`` (the initiator) against ``d`` (None: the opponent picks)."""
        self.roll = {"kind": kind, "ev": ev, "a": a, "d": d, "a_stat": a_stat, "d_stat": d_stat, "boosts": [],
                     "stage": "defend", "chooser": 1 - self.s.pieces[a].team, "order": [], "sides": (0, 0),
                     "die": (0, 0), "best": (1, 1), "spirited": []}
        if d is None:
            return
        self.next_stage()

    def next_stage(self) -> None:
        roll = self.roll
        assert roll is not None
        P = self.s.pieces
        if roll["stage"] == "defend":
            ta = P[roll["a"]].team
            roll["order"] = [ta, 1 - ta]
        order, cost = roll["order"], self.r.costs["boost"]
        while order:
            team = order.pop(0)
            roll["stage"], roll["chooser"] = "boost", team
            if (not self.no_boost and self.stamina[team] >= cost) or self.has_choice(team):
                return      # (the first test is has_choice's own, asked without a call)
        roll["stage"] = "dice"
        da, dd = roll["die"]
        roll["sides"] = (da or P[roll["a"]].dice.get(roll["a_stat"], 0), dd or P[roll["d"]].dice.get(roll["d_stat"], 0))

    def stage_options(self, team: int) -> list[Action]:
        """A team's choices before the dice of a roll: a Boost (BOI-STAM-2) and a Team Spirit
        that changes this roll (Cold Snap, Dead Eye: BOI-SPIRIT-1). Overridden in Spirits."""
        no, yes = self.m.boost[team]
        return [no, yes] if not self.no_boost and self.stamina[team] >= self.r.costs["boost"] else [no]

    def has_choice(self, team: int) -> bool:
        """Whether ``team`` has more than one choice before the dice (a Boost it can pay, or a
        Team Spirit for this roll)."""
        return (not self.no_boost and self.stamina[team] >= self.r.costs["boost"]) or \
            (self.s.spirit_fx[team] is not None and len(self.stage_options(team)) > 1)

    def resolve(self, values: tuple[int, int], won: str | None = "rules") -> None:
        """The dice of the roll under way; ``won`` ('a', 'd', None for a tie) is the outcome a log
        states where it differs from the rules' (a checked log is followed as recorded)."""
        roll = self.roll
        assert roll is not None
        self.roll = None
        r, P = self.r, self.s.pieces
        a, d, kind = roll["a"], roll["d"], roll["kind"]
        ta, td = P[a].team, P[d].team
        va, vd = values
        if type(va) is not int or type(vd) is not int:     # Dead Eye's tuple, or a log's slip
            va, vd = _value(va), _value(vd)
        for team in roll["boosts"]:
            if team == ta:
                va += r.boost_bonus
            else:
                vd += r.boost_bonus
        za, zd, _ = zone_mods(r, ZONE_ROLL.get(kind, kind), roll["a_stat"], ta,
                              self.shot_pos if kind == "one_v_one" else self.pos[a], roll["d_stat"], td, self.pos[d],
                              self.grave[td])
        va, vd = va + za, vd + zd
        if self.roll_bonus is not None:
            team, amount = self.roll_bonus
            va += amount if ta == team else 0
            vd += amount if td == team else 0
        w = tie_winner(va, vd, r.ties[TIES[kind]]) if won == "rules" else won
        ev, log = roll["ev"], self.log
        if log:                         # the event as the log states it (only when a log is kept)
            ev["rolls"] = [list(v) if isinstance(v, tuple) else v for v in values]
            if roll["boosts"]:
                ev["boosts"] = [self.players[t] for t in roll["boosts"]]
            if kind in ("one_v_one", "penalty_shot", "shootout"):
                ev["goal"] = w == "a"
            elif w is not None:
                ev["winner"] = self.players[ta if w == "a" else td]
        getattr(self, "after_" + kind)(ev, a, d, w)
        if not log:
            return
        if roll["boosts"] and kind not in ("intercept",):
            ev["stamina"] = {self.players[t]: self.stamina[t] for t in sorted(set(roll["boosts"]))}
        elif kind == "intercept":
            ev["stamina"] = {self.players[t]: self.stamina[t] for t in sorted({td, *roll["boosts"]})}
        self.events.append(ev)

"""Bones on Ice — Team Spirits in the game state (BOI-SPIRIT-1): what each card's effect
(``spirit_effects`` in params.yaml) lets its team choose, and when.

- ``extra_action`` (Bone Rush): in the team's own Mid-Game, a skater that has acted acts again;
- ``opponent_die`` (Cold Snap): before the dice of a roll, an opposing skater in it rolls a
  smaller die;
- ``best_of`` (Dead Eye): before the dice of a roll, one's own skater rolls its stat die
  several times and keeps the highest;
- ``defense_everywhere`` (Grave Wall): at the start of the opponent's Mid-Game, the Defense
  Bonus in every zone until it ends.

Each use costs the Stamina its card names, at most ``spirit_uses_per_round`` a round; the
``team_spirit`` event is written when it is used (before the roll it changes).
"""

from __future__ import annotations

from typing import Any

from cardgen.games.bones_on_ice.turns import Turns
from cardgen.play.api import Action


class Spirits(Turns):
    """Team Spirit choices and effects."""

    def spirit(self, team: int) -> tuple[Any, dict[str, Any]] | tuple[None, None]:
        eff = self.s.spirit_fx[team]
        return (None, None) if eff is None else (self.s.spirits[team], eff)

    def spirit_kind(self, team: int) -> str | None:
        return self.s.spirit_kind[team]

    def spirit_ok(self, team: int) -> bool:
        return self.s.spirit_kind[team] is not None and self.spirit_uses[team] < self.r.spirit_per_round and \
            self.s.spirits[team] is not None and self.stamina[team] >= self.s.spirit_cost[team]

    def stage_options(self, team: int) -> list[Action]:
        out = super().stage_options(team)
        kind = self.s.spirit_kind[team]
        if kind != "opponent_die" and kind != "best_of":   # no Team Spirit that changes a roll
            return out
        roll = self.roll
        if roll is None or team in roll["spirited"] or not self.spirit_ok(team):
            return out
        P, acts = self.s.pieces, self.m.spirit[team]
        if kind == "opponent_die":
            out += [acts[i] for i in (roll["a"], roll["d"]) if P[i].team != team]
        else:
            _card, eff = self.spirit(team)
            assert eff is not None              # a team with a Team Spirit of this kind
            out += [acts[i] for i, stat in ((roll["a"], roll["a_stat"]), (roll["d"], roll["d_stat"]))
                    if P[i].team == team and stat == eff["stat"]]
        return out

    def open_mid(self) -> None:
        opp = 1 - self.active if self.active is not None else 0
        if self.spirit_kind(opp) == "defense_everywhere" and self.spirit_ok(opp):
            self.phase = "window"
        else:
            self.phase = "mid"

    def do_no_spirit(self, action: Action) -> None:
        self.phase = "mid"

    def do_team_spirit(self, action: Action) -> None:
        team = self.players.index(action["team"])
        card, eff = self.spirit(team)
        assert card is not None and eff is not None
        self.spirit_uses[team] += 1
        self.spend(team, self.s.spirit_cost[team])
        sid = action.get("skater")
        if self.log:
            ev: dict[str, Any] = {"kind": "team_spirit", "team": action["team"]}
            if sid is not None:
                ev["skater"] = sid
            paid = self.roll.get("paid", {}).get(team, 0) if self.roll is not None else 0
            ev["stamina"] = {action["team"]: self.stamina[team] + paid}
            self.events.append(ev)
        kind = eff["effect"]
        if kind == "extra_action":
            self.extra[self.piece(sid)] += int(eff["actions"])
        elif kind == "defense_everywhere":
            self.grave[team] = True
            if self.phase == "window":
                self.phase = "mid"
        elif self.roll is not None:
            roll = self.roll
            roll["spirited"].append(team)
            side = 0 if self.piece(sid) == roll["a"] else 1
            if kind == "opponent_die":
                die = list(roll["die"])
                die[side] = int(eff["die"])
                roll["die"] = tuple(die)
            else:
                best = list(roll["best"])
                best[side] = int(eff["dice"])
                roll["best"] = tuple(best)
            # the same team's Boost is still to choose: stay at its stage
            roll["order"].insert(0, team)
            roll["stage"] = "defend_done"
            self.next_stage()

"""Bones on Ice — the search's prior (``GamePackage.prior``): greedy, with what the Stamina track
and the Team Spirits say that greedy does not act on.

- **Boost every roll.** A team recovers 8 Stamina a round up to 20, and greedy play spends far
  less: in 200 greedy games both teams stood at 20 at the start of 5,952 of 6,000 rounds. A Stamina
  point left unspent at the Recovery is lost, so the prior Boosts every roll of
  ``simulate.search.boost_rolls`` (greedy: only shots, 1v1s, Face-Offs and shootouts — never an
  Interception, a Move or a rebound) while the team keeps ``simulate.greedy.boost_reserve``.
- **An extra action is a shot from the Attack Zone.** A skater acts once a Mid-Game, so the
  Attack Bonus (+2 on the shot and on the 1v1) is out of reach — except for a team whose Team
  Spirit gives a skater that has acted another action (Bone Rush): its carrier skates into the
  Attack Zone, takes the Spirit, and shoots from there. Greedy spends that Spirit on the first
  skater that has acted, usually a passer without the puck. The prior keeps it for the carrier.

Its numbers are ``simulate.search`` and ``simulate.greedy`` in ``rules/bones_on_ice/params.yaml``;
the Team Spirits' effects and costs are read from the cards and ``spirit_effects``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.games.bones_on_ice.agents import Greedy
from cardgen.play.api import Action
from cardgen.play.package import Agent
from cardgen.play.params import Params

#: the Team Spirit effect that gives a skater that has acted another action (BOI-SPIRIT-1)
EXTRA_ACTION = "extra_action"


class Prior(Greedy):
    """Greedy, Boosting every roll and keeping an extra action for a shot from the Attack Zone."""

    def __init__(self, game: Game):
        super().__init__(game)
        p = Params.of(game)
        self.all_rolls = {str(k) for k in p.list("simulate.search.boost_rolls", [])}
        effects = p.raw("spirit_effects", {}) or {}
        #: by team key: the Stamina its extra-action Team Spirit costs (teams with another Spirit: absent)
        self.rush = {str(c.get("team")): int(c.get("cost") or 0) for c in game.cards
                     if c.type == "spirit" and (effects.get(c.id) or {}).get("effect") == EXTRA_ACTION}

    def __call__(self, obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        stamina = obs["stamina"][obs["player"]]
        kinds = {a.kind for a in legal}
        if "boost" in kinds and kinds <= {"boost", "team_spirit"}:
            if not ("team_spirit" in kinds and stamina >= self.spirit_reserve):   # greedy's Spirit first
                roll = obs["roll"] or {}
                want = roll.get("kind") in self.all_rolls and stamina > self.boost_reserve
                return next((a for a in legal if a.kind == "boost" and a["boost"] == want), legal[0])
        cost = self.rush.get(str(obs["team"]))
        if cost is not None and obs["roll"] is None and obs["phase"] == "mid":
            rush = self.rush_play(obs, legal, stamina, cost)
            return rush if rush is not None else super().__call__(obs, self.no_spirit(legal), rng)
        return super().__call__(obs, legal, rng)

    @staticmethod
    def no_spirit(legal: list[Action]) -> list[Action]:
        return [a for a in legal if a.kind != "team_spirit"] or legal

    def rush_play(self, obs: Mapping[str, Any], legal: list[Action], stamina: int,
                  cost: int) -> Action | None:
        """With an extra-action Team Spirit in the team's own Mid-Game: the Spirit for the puck
        carrier once it has acted (skated forward, or won its rebound); before anyone has
        acted, the carrier skates towards the Attack Zone if the Spirit will still be affordable
        (greedy then shoots from there). None: greedy's choice, without the Spirit."""
        puck = obs["puck"]
        spirit = [a for a in legal if a.kind == "team_spirit" and a.get("skater") == puck]
        if spirit:
            return spirit[0] if stamina >= max(cost, self.spirit_reserve) else None
        if obs.get("acted") or stamina < max(cost, self.spirit_reserve) + 1 or puck is None:
            return None
        here = self.zones.index(obs["zones"][puck])
        if here != len(self.zones) - 2:            # one skate from the Attack Zone
            return None
        return next((a for a in legal if a.kind == "move" and a["skater"] == puck
                     and self.zones.index(a["zone"]) == here + 1), None)


def prior(game: Game) -> Agent:
    """The search's prior for ``game``."""
    return Prior(game)

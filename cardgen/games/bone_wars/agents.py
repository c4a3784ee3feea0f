"""Bone Wars — the ``greedy`` agent of simulated playtests and the game's own measures.

The greedy agent sees only its player's observation (the table, its own hand) and the Part
cards' printed stats. Its few weights are ``simulate.greedy`` in ``rules/bone_wars/params.yaml``:
it builds the monster worth the most (stats and Traits weighted), attacks where the odds
favour it (unblockable, or at least an ``attack_odds`` share of its Atk expected through the
best blocker — a tie counts as the half damage it deals), keeps its last able blocker home
(``keep_back``) unless the attack finishes the target, blocks when the block holds (no damage:
a tie is not a hold) at least ``block_odds`` likely or the hit would be lethal, and rolls
rather than takes the damage when it may.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from cardgen.content.model import Game
from cardgen.core.record import record
from cardgen.games.bone_wars.rules import Part, Rules, meets
from cardgen.games.bone_wars.setup import rules_of
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.play.api import Action, GameState
from cardgen.play.package import Agent
from cardgen.play.params import Params
from cardgen.play.search import Evaluate, shares

# an observed monster: (owner, Str, Def, Atk, HP left, Traits, attacked)
OWNER, STR, DEF, ATK, HP, TRAITS, TAPPED = range(7)


@cache
def dice_odds(sides: int, margin: int) -> tuple[float, float]:
    """P(d + margin > d') and P(d + margin == d') for two fair d``sides``."""
    faces = range(1, sides + 1)
    wins = sum(1 for a in faces for b in faces if a + margin > b)
    return wins / (sides * sides), sum(1 for a in faces if 1 <= a + margin <= sides) / (sides * sides)


@record(frozen=True)
class Weights:
    attack_odds: float
    block_odds: float
    keep_back: bool
    value: Mapping[str, float]
    traits: Mapping[str, float]

    @classmethod
    def read(cls, game: Game) -> Weights:
        p = Params(game.params if isinstance(game.params, dict) else {}, game.rules_dir / "params.yaml")
        return cls(p.number("simulate.greedy.attack_odds"), p.number("simulate.greedy.block_odds"),
                   p.bool("simulate.greedy.keep_back"),
                   {str(k): float(v) for k, v in p.mapping("simulate.greedy.value").items()},
                   {str(k): float(v) for k, v in p.mapping("simulate.greedy.traits").items()})


class Greedy:
    """See the module docstring."""

    def __init__(self, game: Game):
        self.rules: Rules
        self.rules, self.parts = rules_of(game)
        self.w = Weights.read(game)
        self._one = {cid: self._value([part]) for cid, part in self.parts.items()}    # one part's worth
        self._hit: dict[tuple[int, int, int, bool], float] = {}
        self._guarded: dict[tuple, Any] = {}       # (Str, Atk, Traits, the guards) → :meth:`guarded_odds`

    def _value(self, parts: list[Part]) -> float:
        v, t = self.w.value, self.w.traits
        traits = frozenset().union(*(p.traits for p in parts)) if parts else frozenset()
        return (sum(v.get("str", 0) * p.str + v.get("def", 0) * p.def_ + v.get("atk", 0) * p.atk
                    + v.get("hp", 0) * p.hp for p in parts) + sum(t.get(x, 0.0) for x in traits))

    def _odds(self, a: tuple, b: tuple) -> tuple[float, float]:
        """P(``a``'s attack on a block by ``b`` hits), P(it ties) (BW-ATK-6, 7)."""
        pen = self.rules.penalty if "intimidating" in b[TRAITS] else 0
        return dice_odds(self.rules.die, a[STR] - pen - b[DEF])

    def hit_odds(self, a: tuple, b: tuple) -> float:
        """The share of ``a``'s Atk a block by ``b`` lets through, on average (BW-ATK-6, 7): a
        hit deals it all, a tie deals the tie damage (half, as the ruling rounds)."""
        key = (a[STR], a[ATK], b[DEF], "intimidating" in b[TRAITS])
        odds = self._hit.get(key)
        if odds is None:
            atk, (hit, tied) = a[ATK], self._odds(a, b)
            odds = self._hit[key] = hit + tied * (self.rules.tie(atk) / atk if atk > 0 else 0.0)
        return odds

    def hold_odds(self, a: tuple, b: tuple) -> float:
        """P(``b``'s block holds against ``a``: no damage at all) — a tie is not a hold."""
        hit, tied = self._odds(a, b)
        return 1.0 - hit - tied

    def __call__(self, obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        kinds = {a.kind for a in legal}
        if "block" in kinds:
            return self.block(obs, legal)
        if "defend_roll" in kinds:
            return next(a for a in legal if a.kind == "defend_roll")
        if len(kinds) == 1:
            return legal[0]
        edits = [a for a in legal if a.kind in ("create", "add_part", "replace_part")]
        if edits:
            best, gain = self.best_edit(obs, edits)
            if best is not None and gain > 0:
                return best
        attack = self.best_attack(obs, [a for a in legal if a.kind == "attack"])
        if attack is not None:
            return attack
        return next(a for a in legal if a.kind == "end_turn")

    def best_edit(self, obs: Mapping[str, Any], edits: list[Action]) -> tuple[Action | None, float]:
        best, gain = None, 0.0
        one = self._one
        for a in edits:
            f = dict(a.items)
            g = one[f["card"]]
            if a.kind == "replace_part":
                dead = obs["monsters"][f["monster"]][HP] <= 0
                g -= one[f["replaces"]] + (self.parts[f["card"]].hp if dead else 0)
            if g > gain:
                best, gain = a, g
        return best, gain

    def best_attack(self, obs: Mapping[str, Any], attacks: list[Action]) -> Action | None:
        me, mons, hp = obs["me"], obs["monsters"], obs["hp"]
        # keep the last able blocker home (unless Vigilant, or the attack finishes the target)
        lone = (self.w.keep_back and sum(1 for m in mons.values() if m[OWNER] == me and not m[TAPPED]) == 1
                and any(x[OWNER] != me for x in mons.values()))
        guards: dict[str, frozenset[tuple[int, frozenset[str]]]] = {}   # target → its guards' (Def, Traits)
        scored = []
        for a in attacks:
            f = dict(a.items)
            m, target = mons[f["monster"]], f["target"]
            lethal = m[ATK] >= hp[target]
            if lone and not lethal and "vigilant" not in m[TRAITS]:
                continue
            g = guards.get(target)
            if g is None:
                g = guards[target] = frozenset([(x[DEF], x[TRAITS]) for x in mons.values()
                                                if x[OWNER] == target
                                                and (not x[TAPPED] or "vigilant" in x[TRAITS])])
            key = (m[STR], m[ATK], m[TRAITS], g)
            odds = self._guarded.get(key, self)
            if odds is self:
                if len(self._guarded) > 100_000:       # bounded: stats and guards repeat from game to game
                    self._guarded.clear()
                odds = self._guarded[key] = self.guarded_odds(m, g)
            if odds is None:
                odds = min(1.0, max(0, m[STR]) / self.rules.die)      # the defender rolls against the Str
            elif odds < self.w.attack_odds and not lethal:
                continue
            scored.append((lethal, odds * m[ATK], -hp[target], a))
        if not scored:
            return None
        return max(scored, key=lambda s: s[:3])[3]

    def guarded_odds(self, m: tuple, guards: frozenset[tuple[int, frozenset[str]]]) -> float | None:
        """The least share of ``m``'s Atk any guard that meets it lets through, or None if none meets it."""
        ta, odds = m[TRAITS], None
        for d, tb in guards:
            if meets(ta, tb):
                o = self.hit_odds(m, (None, None, d, None, None, tb))
                if odds is None or o < odds:
                    odds = o
        return odds

    def block(self, obs: Mapping[str, Any], legal: list[Action]) -> Action:
        att_name, defender = obs["combat"][0], obs["combat"][1]
        mons = obs["monsters"]
        a = mons[att_name]
        lethal = a[ATK] >= obs["hp"][defender]
        best, held = None, -1.0
        for act in legal:
            name = act["monster"]
            if name not in mons:
                continue
            b = mons[name]
            odds = self.hold_odds(a, b)
            if odds > held:
                best, held = act, odds
        no = next(x for x in legal if x["monster"] not in mons)
        if best is not None and (held >= self.w.block_odds or lethal):
            return best
        return no


def greedy(game: Game) -> Agent:
    """The greedy agent for ``game`` (its weights read once)."""
    return Greedy(game)


def evaluate(game: Game) -> Evaluate:
    """Search's value of a game not yet over (``GamePackage.evaluate``): each player's chance to
    win from the share of the starting HP they keep (none once eliminated) — read from
    ``result()`` — sharpened by ``simulate.search.sharpness``."""
    p = Params(game.params if isinstance(game.params, dict) else {}, game.rules_dir / "params.yaml")
    start, sharp = p.int("starting_hp"), p.number("simulate.search.sharpness")

    def value(state: GameState) -> list[float]:
        players = state.result()["players"]
        kept = [0.0 if players[k]["eliminated"] else players[k]["hp"] / start for k in state.players]
        return shares(kept, sharp)
    return value


def measures(state: GameState) -> dict[str, Any]:
    """Bone Wars' own measures of a finished game: the winner's HP left, each player's HP at
    the end, turns played, monsters built and destroyed, parts played."""
    assert isinstance(state, BoneWarsState)
    return {"winner_hp": state.hp.get(state.winner) if state.winner else None,
            "hp_left": dict(state.hp), "turns": state.turn, "monsters_built": state.created,
            "monsters_destroyed": len(state.graveyard), "pile_left": state.pile}

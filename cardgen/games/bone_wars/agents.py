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
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from cardgen.content.model import Game
from cardgen.core.record import record
from cardgen.games.bone_wars.rules import Part, meets, rules_of
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.games.bone_wars.vocab import EDIT_KINDS
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
        p = Params.of(game)
        return cls(p.number("simulate.greedy.attack_odds"), p.number("simulate.greedy.block_odds"),
                   p.bool("simulate.greedy.keep_back"),
                   {str(k): float(v) for k, v in p.mapping("simulate.greedy.value").items()},
                   {str(k): float(v) for k, v in p.mapping("simulate.greedy.traits").items()})


class Greedy:
    """See the module docstring."""

    def __init__(self, game: Game):
        self.rules, self.parts = rules_of(game)
        self.w = Weights.read(game)
        self._one = {cid: self._value([part]) for cid, part in self.parts.items()}    # one part's worth
        self._hit: dict[tuple[int, int, int, bool], float] = {}
        self._guarded: dict[tuple, dict] = {}      # (Str, Atk, Traits) → guards, or a guard → its odds
        self._hold: dict[tuple[int, int, bool], float] = {}     # (Str, Def, Intimidating) → P(it holds)

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

    def __call__(self, obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        # the state lists a combat's answers alone, otherwise its edits, then attacks, then the end
        # of the turn (:meth:`BoneWarsState.legal_actions`): the first action says which list it is
        if len(legal) == 1:         # (a lone block is no block; a lone answer, taking the damage)
            return legal[0]
        first = legal[0].kind
        if first == "block":
            return self.block(obs, legal)
        if first in ("take_damage", "defend_roll"):
            return next((a for a in legal if a.kind == "defend_roll"), legal[0])
        if first in EDIT_KINDS:
            best, gain = self.best_edit(obs, legal)
            if best is not None and gain > 0:
                return best
        return self.best_attack(obs, legal) or legal[-1]      # (the end of the turn, listed last)

    def best_edit(self, obs: Mapping[str, Any], edits: list[Action]) -> tuple[Action | None, float]:
        """The create or edit among ``edits`` (other actions skipped) worth the most, and its gain.
        An add (or a replacement costing nothing) of a card already offered as a create gains no
        more than that create: it cannot be the first best, so it is not scored."""
        best, gain, one, made, dead = None, 0.0, self._one, set(), dict[str, bool]()
        for a in edits:
            k = a.kind
            if k not in EDIT_KINDS:
                continue
            f = a.items[1 if k == "create" else 2]      # (the card's place in the state's actions)
            card = f[1] if f[0] == "card" else a["card"]
            g = one[card]
            if k == "create":
                made.add(card)
            elif k == "add_part":
                if card in made:
                    continue
            else:
                old, hp = one[_field(a, 3, "replaces")], self.parts[card].hp
                if card in made and old >= 0 and hp >= 0:
                    continue
                name = _field(a, 1, "monster")
                if name not in dead:
                    dead[name] = obs["monsters"][name][HP] <= 0
                g -= old + (hp if dead[name] else 0)
            if g > gain:
                best, gain = a, g
        return best, gain

    def best_attack(self, obs: Mapping[str, Any], attacks: list[Action]) -> Action | None:
        """The attack among ``attacks`` (other actions skipped) the greedy makes, or None."""
        me, mons, hp = obs["me"], obs["monsters"], obs["hp"]
        seen = mons.values()
        able, foes, by_owner = _look(me, seen)
        # keep the last able blocker home (unless Vigilant, or the attack finishes the target)
        lone = self.w.keep_back and able == 1 and foes
        sides: dict[str, tuple[frozenset[tuple[int, frozenset[str]]], int]] = {}    # target → guards, HP
        cache, at_least, best, top = self._guarded, self.w.attack_odds, None, None
        name = m = odds_of = None
        for a in attacks:
            if a.kind != "attack":
                continue
            it = a.items        # (player, monster, target), as the state makes them
            who, target = (it[1][1], it[2][1]) if it[1][0] == "monster" and it[2][0] == "target" else \
                (a["monster"], a["target"])
            if who != name:     # a monster's attacks come one target after another: seen once
                name, m = who, mons[who]
                stay, atk = lone and "vigilant" not in m[TRAITS], m[ATK]
                odds_of = cache.setdefault((m[STR], atk, m[TRAITS]), {})     # → the guards → odds
            assert m is not None and odds_of is not None
            side = sides.get(target)
            if side is None:
                # (a player's own guards, never the state's target, from a look as nobody)
                of = by_owner if target != me else _look("", seen)[2]
                side = sides[target] = (frozenset(of.get(target, ())), hp[target])
            g, left = side
            lethal = atk >= left
            if stay and not lethal:
                continue
            odds = odds_of.get(g, -1.0)
            if odds is not None and odds < 0:      # (not met yet; bounded: stats and guards repeat)
                if len(odds_of) > 10_000:
                    odds_of.clear()
                odds = odds_of[g] = self.guarded_odds(m, g, odds_of)
            if odds is None:
                odds = min(1.0, max(0, m[STR]) / self.rules.die)      # the defender rolls against the Str
            elif odds < at_least and not lethal:
                continue
            score = (lethal, odds * atk, -left)
            if top is None or score > top:      # the first of the best
                best, top = a, score
        return best

    def guarded_odds(self, m: tuple, guards: frozenset[tuple[int, frozenset[str]]],
                     known: dict[Any, float | None]) -> float | None:
        """The least share of ``m``'s Atk any guard that meets it lets through, or None if none meets it
        (``known``: each guard's share against ``m``'s stats, kept as first met)."""
        ta, odds = m[TRAITS], None
        for guard in guards:
            o = known.get(guard, -1.0)
            if o is not None and o < 0:
                d, tb = guard
                o = known[guard] = self.hit_odds(m, (0, 0, d, 0, 0, tb)) if meets(ta, tb) else None
            if o is not None and (odds is None or o < odds):
                odds = o
        return odds

    def block(self, obs: Mapping[str, Any], legal: list[Action]) -> Action:
        combat, mons = obs["combat"], obs["monsters"]
        a = mons[combat[0]]
        lethal = a[ATK] >= obs["hp"][combat[1]]
        best, held, no, hold = None, -1.0, None, self._hold
        for act in legal:
            name = _field(act, 1, "monster")
            if name not in mons:
                if no is None:
                    no = act
                continue
            b = mons[name]
            key = (a[STR], b[DEF], "intimidating" in b[TRAITS])
            odds = hold.get(key)
            if odds is None:
                hit, tied = self._odds(a, b)
                odds = hold[key] = 1.0 - hit - tied
            if odds > held:
                best, held = act, odds
        if no is None:
            raise LookupError("a block with no 'no block' answer")
        if best is not None and (held >= self.w.block_odds or lethal):
            return best
        return no


def _look(me: str, seen: Iterable[tuple]) -> tuple[int, bool, dict[str, list[tuple[int, frozenset[str]]]]]:
    """One look at the table: ``me``'s monsters able to block, whether anyone else has a monster,
    and each other player's guards (those able to block: untapped or Vigilant) as (Def, Traits)."""
    able, foes = 0, False
    by_owner: dict[str, list[tuple[int, frozenset[str]]]] = {}
    for x in seen:
        o = x[OWNER]
        if o == me:
            if not x[TAPPED]:
                able += 1
            continue
        foes = True
        if not x[TAPPED] or "vigilant" in x[TRAITS]:
            by_owner.setdefault(o, []).append((x[DEF], x[TRAITS]))
    return able, foes, by_owner


def _field(a: Action, at: int, name: str) -> Any:
    """``a[name]``, read at its place ``at`` in the state's actions (looked up when elsewhere)."""
    items = a.items
    if len(items) > at and items[at][0] == name:
        return items[at][1]
    return a[name]


#: the greedy agent for a loaded game (its weights read once): the package's ``agents["greedy"]``
greedy: Callable[[Game], Agent] = Greedy


def evaluate(game: Game) -> Evaluate:
    """Search's value of a game not yet over (``GamePackage.evaluate``): each player's chance to
    win from the share of the starting HP they keep (none once eliminated) — read from the
    table's HP and the players out, as ``result()`` gives them, without building the rest of it —
    sharpened by ``simulate.search.sharpness``."""
    p = Params.of(game)
    start, sharp = p.int("starting_hp"), p.number("simulate.search.sharpness")

    def value(state: GameState) -> list[float]:
        assert isinstance(state, BoneWarsState)
        hp, out = state.hp, state.out
        return shares([0.0 if k in out else hp[k] / start for k in state.players], sharp)
    return value


def measures(state: GameState) -> dict[str, Any]:
    """Bone Wars' own measures of a finished game: the winner's HP left, each player's HP at
    the end, turns played, monsters built and destroyed, parts played."""
    assert isinstance(state, BoneWarsState)
    return {"winner_hp": state.hp.get(state.winner) if state.winner else None,
            "hp_left": dict(state.hp), "turns": state.turn, "monsters_built": state.created,
            "monsters_destroyed": len(state.graveyard), "pile_left": state.pile}

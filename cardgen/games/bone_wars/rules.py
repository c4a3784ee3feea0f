"""Bone Wars — the rules as data and pure functions: the typed parameters (read once from
``params.yaml``), the Part cards, a monster's stats and Traits, who meets whom in a block,
the combat arithmetic and the turn-order rolls. Shared by the game state (legal actions,
apply) and the referee (``cardgen check``)."""

from __future__ import annotations

import builtins
import math
from collections.abc import Mapping
from dataclasses import field
from functools import cache

from cardgen.content.model import Game
from cardgen.core.record import record
from cardgen.play.params import Params, per_game

MEET_TRAITS = ("flying", "marine")     # BW-ATK-4: the Traits that restrict who meets whom
REACH = "reach"


@record(frozen=True)
class Rules:
    """Every number and ruling of ``rules/bone_wars/params.yaml`` the engine needs, typed."""

    n_min: int
    n_max: int
    hand_size: int
    start_hp: int
    die: int
    draw_per_turn: int
    edits_per_turn: int
    max_parts: int
    penalty: int
    tie_div: int
    tie_round: str
    tie_rule: str
    replaced_to: str
    damage_stays: bool
    trait_names: Mapping[str, str] = field(default_factory=dict)
    part_names: Mapping[str, str] = field(default_factory=dict)
    stat_names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, p: Params) -> Rules:
        """Raises :class:`cardgen.play.params.ParamError` naming a missing or mistyped key."""
        return cls(
            n_min=p.int("players.min"), n_max=p.int("players.max"), hand_size=p.int("hand_size"),
            start_hp=p.int("starting_hp"), die=p.int("die"), draw_per_turn=p.int("draw_per_turn"),
            edits_per_turn=p.int("edits_per_turn"), max_parts=p.int("max_parts"),
            penalty=p.int("intimidating_str_penalty"), tie_div=max(1, p.int("tie_damage.divisor")),
            tie_round=p.choice("tie_damage.rounding", ("down", "up")),
            tie_rule=p.choice("turn_order_tie", ("reroll", "first_listed")),
            replaced_to=p.choice("replaced_part_to", ("discard", "hand")),
            damage_stays=p.bool("damage_stays_on_replace"),
            trait_names=p.names("traits"), part_names=p.names("part_types"), stat_names=p.names("stats"))

    def tie(self, atk: int) -> int:
        """BW-ATK-7: a tie deals Atk ÷ divisor, rounded as the ruling says."""
        q = atk / self.tie_div
        return math.ceil(q) if self.tie_round == "up" else math.floor(q)

    def trait(self, key: str) -> str:
        return self.trait_names.get(key, key.capitalize())

    def trait_list(self, traits: set[str] | frozenset[str]) -> str:
        return ", ".join(self.trait_names.get(t, t) for t in sorted(traits))


@record(frozen=True)
class Part:
    """A Part card: its type, the four stats and its Traits (BW-CARD-1)."""

    id: str
    name: str
    part: str
    str: int
    def_: int
    atk: int
    hp: int
    traits: frozenset[builtins.str]       # (``str`` here is the Strength field)
    copies: int


def parts_of(game: Game) -> dict[str, Part]:
    """The center pile's Part cards by id."""
    return {c.id: Part(c.id, c.name, str(c.get("part")), int(c.get("str") or 0), int(c.get("def") or 0),
                       int(c.get("atk") or 0), int(c.get("hp") or 0),
                       frozenset(str(t) for t in (c.get("traits") or [])), int(c.copies))
            for c in game.cards if c.type == "part"}


@per_game
def rules_of(game: Game) -> tuple[Rules, dict[str, Part]]:
    """The game's typed rules and Part cards, read once per loaded game."""
    return Rules.read(Params.of(game)), parts_of(game)


class Monster:
    """A Fossil Monster on the table.

    BW-CREATE-5: its stats are the sums of its parts', its Traits their union — kept up to
    date by :meth:`set_parts` (every change of parts goes through it, or :meth:`add`). ``view``: how a player
    sees it (:meth:`seen`), kept until its parts, damage or ``tapped`` change (whoever changes
    them sets it to None)."""

    __slots__ = ("name", "owner", "parts", "born", "damage", "replaced", "attacked", "tapped",
                 "str", "def_", "atk", "hp", "traits", "types", "view")

    def __init__(self, name: str, owner: str, parts: list[Part], born: int):
        self.name, self.owner, self.born = name, owner, born
        self.damage = 0                         # damage counters (BW-ATK-7)
        self.replaced: int | None = None        # the turn of its last part replacement (BW-CREATE-6)
        self.attacked: int | None = None        # the turn it last attacked (BW-ATK-2)
        self.tapped = False                     # attacked since its controller's turn began (BW-ATK-5)
        self.view: tuple[str, int, int, int, int, frozenset[str], bool] | None = None
        self.set_parts(parts)

    def set_parts(self, parts: list[Part]) -> None:
        self.parts, self.view = parts, None
        s = d = a = h = 0
        for p in parts:
            s, d, a, h = s + p.str, d + p.def_, a + p.atk, h + p.hp
        self.str, self.def_, self.atk, self.hp = s, d, a, h
        self.traits: frozenset[str] = parts[0].traits if len(parts) == 1 else frozenset().union(
            *(p.traits for p in parts))
        self.types: dict[str, str] = {p.part: p.id for p in parts}     # type → card (a new dict each time)

    def add(self, part: Part) -> None:
        """:meth:`set_parts` with ``part`` added, from the sums it kept."""
        self.parts, self.view, self.types = [*self.parts, part], None, {**self.types, part.part: part.id}
        self.str, self.def_, self.atk, self.hp = self.str + part.str, self.def_ + part.def_, \
            self.atk + part.atk, self.hp + part.hp
        self.traits = self.traits | part.traits

    def copy(self) -> Monster:
        m = Monster.__new__(Monster)
        m.name, m.owner, m.born = self.name, self.owner, self.born
        m.parts, m.damage, m.replaced = self.parts, self.damage, self.replaced
        m.attacked, m.tapped = self.attacked, self.tapped
        m.str, m.def_, m.atk, m.hp = self.str, self.def_, self.atk, self.hp
        m.traits, m.types, m.view = self.traits, self.types, self.view     # (shared, as parts: never changed)
        return m

    def seen(self) -> tuple[str, int, int, int, int, frozenset[str], bool]:
        """As a player sees it: (owner, Str, Def, Atk, HP left, Traits, attacked) — made once
        until it changes."""
        v = self.view
        if v is None:
            v = self.view = (self.owner, self.str, self.def_, self.atk,
                             self.hp - self.damage if self.hp > self.damage else 0, self.traits, self.tapped)
        return v

    def stat(self, key: str) -> int:
        return {"str": self.str, "def": self.def_, "atk": self.atk, "hp": self.hp}.get(key, 0)

    @property
    def hp_left(self) -> int:
        return max(0, self.hp - self.damage)


def unmet(ta: frozenset[str], tb: frozenset[str]) -> tuple[str, bool] | None:
    """BW-ATK-4 on two monsters' Traits: if either has Flying (Marine), the other has Flying
    (Marine) or Reach. The first Trait that keeps them apart and whether the first monster has it,
    or None when they meet."""
    for t in MEET_TRAITS:
        if t in ta and t not in tb and REACH not in tb:
            return t, True
        if t in tb and t not in ta and REACH not in ta:
            return t, False
    return None


@cache
def meets(ta: frozenset[str], tb: frozenset[str]) -> bool:
    """Whether monsters of these Traits meet (BW-ATK-4; cached: a game's monsters have few sets
    of Traits)."""
    return unmet(ta, tb) is None


def meet_reason(rules: Rules, a: Monster, b: Monster) -> str:
    """Why ``a`` and ``b`` do not meet (BW-ATK-4), or ''."""
    apart = unmet(a.traits, b.traits)
    if apart is None:
        return ""
    t, a_has = apart
    x, y = (a, b) if a_has else (b, a)
    name = rules.trait(t)
    return f"{x.name} has {name}, so only a {name} or {rules.trait(REACH)} monster meets it, and {y.name} " \
           "is neither"


@record(frozen=True)
class Blocked:
    """BW-ATK-6…9: the arithmetic of a blocked attack."""

    penalty: int
    attack_total: int
    block_total: int
    damage: int            # to the blocker (0 when blocked)


def blocked_combat(rules: Rules, a: Monster, b: Monster, ra: int, rb: int) -> Blocked:
    """d20 + Str (− Intimidating) against d20 + Def: the blocker's damage."""
    pen = rules.penalty if "intimidating" in b.traits else 0
    at, bt = ra + a.str - pen, rb + b.def_
    if bt > at:
        return Blocked(pen, at, bt, 0)
    return Blocked(pen, at, bt, a.atk if at > bt else rules.tie(a.atk))


def tied_highest(rules: Rules, players: list[str], rnd: Mapping[str, int]) -> list[str]:
    """BW-SETUP-3: the players of a round of turn-order rolls (in ``players``' order) tied for the
    highest roll; the ruling ``first_listed`` keeps the first of them only. One: the first player."""
    top = max([v for v in rnd.values() if isinstance(v, int)], default=None)
    tied = [p for p in players if rnd.get(p) == top]
    return tied[:1] if rules.tie_rule == "first_listed" else tied

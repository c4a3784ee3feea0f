"""Loot & Battles: the pieces of a game in play — fighters (players and enemies), the
Encounters of a Battle and the Battle itself, held by the playable state (``play.py``, which the
checker replays a log over); the rules over them are in ``rules.py``."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from cardgen.content.model import Card
from cardgen.core.record import record


@record(slots=True)
class Fighter:
    name: str
    max_health: int = 0
    max_armor: int = 0
    max_dodge: int = 0
    health: int = 0
    armor: int = 0
    dodge: int = 0
    ko: bool = False

    def recover(self) -> None:
        self.health, self.armor, self.dodge, self.ko = self.max_health, self.max_armor, self.max_dodge, False

    def brief(self) -> str:
        if self.ko:
            return f"{self.name} KO"
        return f"{self.name} HP {self.health}/{self.max_health} A {self.armor} D {self.dodge}"

    def as_dict(self) -> dict[str, Any]:
        return {"health": self.health, "armor": self.armor, "dodge": self.dodge, "knocked_out": self.ko}


@record(slots=True)
class Player(Fighter):
    cls: Card | None = None
    base: dict[str, int] = field(default_factory=dict)
    equipment: list[str] = field(default_factory=list)
    numbers: list[int] | None = None
    #: what Health and Dodge would be had they been restored when the current reinforcement
    #: began (LB-ENC-1: only Armor is): a stated value equal to these names that slip
    restored: dict[str, Any] | None = None

    @property
    def class_card(self) -> Card:
        """The player's class card (every player picks one)."""
        assert self.cls is not None
        return self.cls

    def copy(self) -> Player:
        new = object.__new__(Player)        # (slots named one by one: the fastest copy)
        new.name, new.max_health, new.max_armor = self.name, self.max_health, self.max_armor
        new.max_dodge = self.max_dodge
        new.health, new.armor, new.dodge, new.ko = self.health, self.armor, self.dodge, self.ko
        new.cls, new.base, new.numbers = self.cls, self.base, self.numbers
        new.equipment = list(self.equipment)
        new.restored = dict(self.restored) if self.restored is not None else None
        return new


@record(slots=True)
class Enemy(Fighter):
    card: Card | None = None
    front: str = ""

    @property
    def enemy_card(self) -> Card:
        """The Encounter's enemy card this enemy stands for (each has one)."""
        assert self.card is not None
        return self.card

    def copy(self, front: str | None = None) -> Enemy:
        """A copy (standing in front of ``front``, if given)."""
        new = object.__new__(Enemy)
        new.name, new.max_health, new.max_armor = self.name, self.max_health, self.max_armor
        new.max_dodge = self.max_dodge
        new.health, new.armor, new.dodge, new.ko = self.health, self.armor, self.dodge, self.ko
        new.card, new.front = self.card, self.front if front is None else front
        return new


#: an enemy's name → its place among the Encounter's enemies (``<card>#<k>``: k - 1; -1: none)
_PLACE: dict[str, int] = {}


@record(slots=True)
class Encounter:
    card: Card
    reinforcement: bool
    enemies: list[Enemy] = field(default_factory=list)
    placed: bool = False
    done: bool = False
    round: int = 1
    acted: set = field(default_factory=set)
    attacked: set = field(default_factory=set)
    excused: set = field(default_factory=set)      # moved after their new player's turn: attack next round
    #: player → {"attack", "heal", "pass"}; → item ids rolled this turn; → Attack values rolled this
    #: turn (frozensets: replaced, never changed — a copy shares them)
    turn: dict = field(default_factory=dict)
    used: dict = field(default_factory=dict)
    used_dice: dict = field(default_factory=dict)

    def alive(self) -> list[Enemy]:
        return [e for e in self.enemies if not e.ko]

    def cleared(self) -> bool:
        """No enemy of the Encounter stands."""
        for e in self.enemies:
            if not e.ko:
                return False
        return True

    def enemy(self, name: str) -> Enemy:
        """The enemy called ``name`` (``<enemy card>#<k>``, the k-th placed; StopIteration if none)."""
        i = _PLACE.get(name)
        if i is None:
            k = name.rpartition("#")[2]
            i = int(k) - 1 if k.isdigit() else -1
            if len(_PLACE) < 10_000:
                _PLACE[name] = i
        if 0 <= i < len(self.enemies) and self.enemies[i].name == name:
            return self.enemies[i]
        return next(e for e in self.enemies if e.name == name)

    def foe(self, name: Any) -> Enemy | None:
        """The enemy called ``name`` (a log's name for one), or None."""
        return next((e for e in self.enemies if e.name == name), None)

    def copy(self) -> Encounter:
        new = object.__new__(Encounter)
        new.card, new.reinforcement, new.placed, new.done, new.round = (
            self.card, self.reinforcement, self.placed, self.done, self.round)
        new.enemies = [e.copy() for e in self.enemies]
        new.acted, new.attacked, new.excused = set(self.acted), set(self.attacked), set(self.excused)
        new.turn, new.used, new.used_dice = dict(self.turn), dict(self.used), dict(self.used_dice)
        return new


@record(slots=True)
class Battle:
    number: int
    first: Card
    queue: list[Encounter]
    index: int = 0

    @property
    def current(self) -> Encounter | None:
        return self.queue[self.index] if self.index < len(self.queue) else None

    def copy(self) -> Battle:
        """A copy; the Encounters already fought are shared (nothing changes them again)."""
        new = object.__new__(Battle)
        new.number, new.first, new.index = self.number, self.first, self.index
        new.queue = [e if i < self.index else e.copy() for i, e in enumerate(self.queue)]
        return new


class Unkept(list[dict[str, Any]]):
    """The events of a state that records none (shared, always empty): an event appended is dropped."""

    def append(self, ev: dict[str, Any]) -> None:
        pass


UNKEPT = Unkept()

"""Bones on Ice — the pieces of the game: skaters, teams, and one side of a roll."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from cardgen.content.model import Card
from cardgen.core.record import record
from cardgen.play.referee import Referee


@record(eq=False)
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


@record(eq=False)
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

    @property
    def spirit_name(self) -> str:
        """The name of its Team Spirit card (asked only of a team that plays one)."""
        assert self.spirit is not None
        return self.spirit.name

    def goalie(self, role: str) -> Skater | None:
        return next((s for s in self.skaters if s.role == role), None)


@record
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


class Muted(Referee):
    """A referee that traces but judges nothing: the rest of an event applied out of order
    (its order slip is the one problem reported; what follows from it is not another)."""

    def __init__(self, ref: Referee):   # none of the referee's own state: it only passes traces on
        self.inner = ref

    def violation(self, *args: Any, **kw: Any) -> None:
        return None

    def claim(self, *args: Any, **kw: Any) -> None:
        return None

    def die(self, value: Any, sides: int, *args: Any, **kw: Any) -> bool:
        return not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= sides

    def trace(self, text: str) -> None:
        self.inner.trace(text)

"""Bone Wars — what one player may see of the game state, each key computed when read."""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, Mapping, ValuesView
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardgen.games.bone_wars.state import BoneWarsState

#: each key of an observation: (the state, the player seeing it) → what they see
SEE: dict[str, Callable[[BoneWarsState, str], Any]] = {
    "me": lambda s, me: me, "players": lambda s, me: list(s.players), "turn": lambda s, me: s.turn,
    "current": lambda s, me: s.current, "phase": lambda s, me: s.phase,
    "edits_left": lambda s, me: s.rules.edits_per_turn - s.edits, "hp": lambda s, me: dict(s.hp),
    "out": lambda s, me: [p for p in s.players if p in s.out], "hand": lambda s, me: s.hands[me].cards(),
    "hand_sizes": lambda s, me: {p: h.size for p, h in s.hands.items()}, "pile": lambda s, me: s.pile,
    "discard": lambda s, me: len(s.discard),
    "monsters": lambda s, me: Monsters(s),
    "combat": lambda s, me: None if s.combat is None else (
        s.combat.attacker.name, s.combat.defender, s.combat.stage,
        s.combat.blocker.name if s.combat.blocker is not None else None),
}


class Monsters(Mapping[str, tuple]):
    """The monsters on the table (name → :meth:`Monster.seen`, kept by each monster until it
    changes), read when asked: a block or an edit reads one or two, an attack all of them."""

    def __init__(self, state: BoneWarsState):
        self._s, self._on, self._at = state, state.monsters, len(state.history)
        self._all: dict[str, tuple] | None = None

    def _fresh(self) -> None:
        if len(self._s.history) != self._at:
            raise RuntimeError("an observation is read when it is made: the state has moved on")

    def __getitem__(self, name: str) -> tuple:
        self._fresh()
        return self._on[name].seen()

    def __contains__(self, name: object) -> bool:
        self._fresh()
        return name in self._on

    def __iter__(self) -> Iterator[str]:
        self._fresh()
        return iter(self._on)

    def __len__(self) -> int:
        self._fresh()
        return len(self._on)

    def seen_all(self) -> dict[str, tuple]:
        if self._all is None:
            self._fresh()
            self._all = {name: m.view or m.seen() for name, m in self._on.items()}
        return self._all

    def values(self) -> ValuesView[tuple]:      # type: ignore[override]
        return self.seen_all().values()

    def items(self) -> ItemsView[str, tuple]:      # type: ignore[override]
        return self.seen_all().items()


class Observation(Mapping[str, Any]):
    """What one player may see, each key computed when first read (random play reads none).
    Public: ``players``, ``turn``, ``current``, ``phase``, ``edits_left``, ``hp``, ``out``,
    ``hand_sizes``, ``pile``, ``discard`` (how many), ``monsters`` (name → owner, Str, Def,
    Atk, HP left, Traits, attacked), ``combat`` (attacker, defender, stage, blocker).
    Private: ``me`` and ``hand``, that player's own cards. Read it at once: it shows the state
    as it is when read, and refuses once the state has moved on."""

    def __init__(self, state: BoneWarsState, player: int):
        self._s, self._me, self._at = state, state.players[player], len(state.history)
        self._seen: dict[str, Any] = {}

    def __iter__(self) -> Iterator[str]:
        return iter(SEE)

    def __len__(self) -> int:
        return len(SEE)

    def __getitem__(self, key: str) -> Any:
        if key in self._seen:
            return self._seen[key]
        see = SEE[key]
        if len(self._s.history) != self._at:
            raise RuntimeError("an observation is read when it is made: the state has moved on")
        v = self._seen[key] = see(self._s, self._me)
        return v

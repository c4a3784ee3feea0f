"""Bone Wars — what one player may see of the game state, computed when read."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardgen.games.bone_wars.state import BoneWarsState


class Observation(Mapping[str, Any]):
    """What one player may see, each key computed when first read (random play reads none).
    Public: ``players``, ``turn``, ``current``, ``phase``, ``edits_left``, ``hp``, ``out``,
    ``hand_sizes``, ``pile``, ``discard`` (how many), ``monsters`` (name → owner, Str, Def,
    Atk, HP left, Traits, attacked), ``combat`` (attacker, defender, stage, blocker).
    Private: ``me`` and ``hand``, that player's own cards. Read it at once: it shows the state
    as it is when read, and refuses once the state has moved on."""

    KEYS = ("me", "players", "turn", "current", "phase", "edits_left", "hp", "out", "hand", "hand_sizes", "pile",
            "discard", "monsters", "combat")

    def __init__(self, state: BoneWarsState, player: int):
        self._s, self._p, self._at = state, player, len(state.history)
        self._seen: dict[str, Any] = {}

    def __iter__(self) -> Iterator[str]:
        return iter(self.KEYS)

    def __len__(self) -> int:
        return len(self.KEYS)

    def __getitem__(self, key: str) -> Any:
        if key in self._seen:
            return self._seen[key]
        if key not in self.KEYS:
            raise KeyError(key)
        s = self._s
        if len(s.history) != self._at:
            raise RuntimeError("an observation is read when it is made: the state has moved on")
        me = s.players[self._p]
        c = s.combat
        v: Any
        if key == "me":
            v = me
        elif key == "players":
            v = list(s.players)
        elif key in ("turn", "current", "phase", "pile"):
            v = getattr(s, key)
        elif key == "edits_left":
            v = s.rules.edits_per_turn - s.edits
        elif key == "hp":
            v = dict(s.hp)
        elif key == "out":
            v = [p for p in s.players if p in s.out]
        elif key == "hand":
            v = s.hands[me].cards()
        elif key == "hand_sizes":
            v = {p: h.size for p, h in s.hands.items()}
        elif key == "discard":
            v = len(s.discard)
        elif key == "monsters":
            v = {m.name: (m.owner, m.str, m.def_, m.atk, m.hp - m.damage if m.hp > m.damage else 0,
                          m.traits, m.tapped)
                 for m in s.monsters.values()}     # (``hp_left`` inline: read on every greedy decision)
        else:
            v = None if c is None else (c.attacker.name, c.defender, c.stage,
                                        c.blocker.name if c.blocker is not None else None)
        self._seen[key] = v
        return v


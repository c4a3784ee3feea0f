"""Bone Wars — what one player may see of the game state (a :class:`cardgen.play.view.KeyedView`
over :data:`SEE`), each key computed when first read (random play reads none). Public:
``players``, ``turn``, ``current``, ``phase``, ``edits_left``, ``hp``, ``out``, ``hand_sizes``,
``pile``, ``discard`` (how many), ``monsters`` (name → owner, Str, Def, Atk, HP left, Traits,
attacked), ``combat`` (attacker, defender, stage, blocker). Private: ``me`` and ``hand``, that
player's own cards. Read it at once: it refuses once the state has moved on."""

from __future__ import annotations

from collections.abc import Callable
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
    "monsters": lambda s, me: {name: m.seen() for name, m in s.monsters.items()},
    "combat": lambda s, me: None if s.combat is None else (
        s.combat.attacker.name, s.combat.defender, s.combat.stage,
        s.combat.blocker.name if s.combat.blocker is not None else None),
}

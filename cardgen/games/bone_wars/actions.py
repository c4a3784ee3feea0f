"""Bone Wars — the game state's actions, made once and shared by every state (a random game and a
search build none of them again): dice, draws, creates and edits."""

from __future__ import annotations

from functools import cache
from typing import Any

from cardgen.games.bone_wars.vocab import NO_BLOCK
from cardgen.play.api import Action, Made
from cardgen.play.dice import die_outcomes

DEFEND_ROLL = "defend_roll"     # the unblocked defender chooses to roll (not a log event)
DROP_ATTACK = "drop_attack"     # a replayed log leaves an attack unanswered (never legal: the replay's)


@cache
def die(kind: str, sides: int, field: str, player: str | None = None) -> tuple[tuple[Action, float], ...]:
    return tuple(die_outcomes(kind, sides, field, player=player))


@cache
def two_dice(sides: int) -> tuple[tuple[Action, float], ...]:
    """The blocked attack's two dice (made once, shared by every state)."""
    p = 1.0 / (sides * sides)
    return tuple((Action(kind="roll", items=(("attacker", a), ("blocker", b))), p)
                 for a in range(1, sides + 1) for b in range(1, sides + 1))


@cache
def _act(kind: str, *items: tuple[str, Any]) -> Action:
    return Action(kind, items)


@cache
def draws(kind: str, p: str | None) -> Made[Action]:
    return Made(lambda cid: Action(kind, (("player", p), ("card", cid))))


END = Made(lambda p: Action("end_turn", (("player", p),)))     # each player's end of the turn


@cache
def blocks(d: str, able: tuple[str, ...]) -> tuple[Action, ...]:
    """``d``'s blocks with the monsters ``able``, then no block."""
    return tuple(_act("block", ("player", d), ("monster", b)) for b in (*able, NO_BLOCK))


@cache
def answers(d: str) -> tuple[Action, Action]:
    """An unblocked defender's answers: take the damage, or roll."""
    return _act("take_damage", ("player", d)), _act(DEFEND_ROLL, ("player", d))


@cache
def _creates(p: str, name: str) -> Made[Action]:
    return Made(lambda cid: Action("create", (("player", p), ("card", cid), ("monster", name))))


@cache
def _edits(p: str, name: str) -> tuple[Made[Action], Made[Action]]:
    """``p``'s adds (by card) and replacements (by card and the part replaced) on monster ``name``."""
    return (Made(lambda cid: Action("add_part", (("player", p), ("monster", name), ("card", cid)))),
            Made(lambda k: Action("replace_part", (("player", p), ("monster", name), ("card", k[0]),
                                                    ("replaces", k[1])))))


@cache
def attacks(p: str, name: str, targets: tuple[str, ...]) -> tuple[Action, ...]:
    return tuple(Action("attack", (("player", p), ("monster", name), ("target", t))) for t in targets)


@cache
def attacks_by(p: str, targets: tuple[str, ...]) -> Made[tuple[Action, ...]]:
    """``p``'s attacks on ``targets``, by the monster attacking (:func:`attacks`, looked up by name)."""
    return Made(lambda name: attacks(p, name, targets))


def edit_actions(self: Any, p: str, cards: list[str]) -> list[Action]:
    """Every create and edit ``p`` may make with ``cards`` at the state ``self`` (BW-CREATE-2…4)."""
    creates = _creates(p, self.next_name())
    out = [creates[cid] for cid in cards]
    parts, room, typed = self.parts, self.rules.max_parts, None
    for m in self.owned(p):
        if typed is None:
            typed = [(cid, parts[cid].part) for cid in cards]
        types = m.types
        can_add = len(m.parts) < room
        adds, replaces = _edits(p, m.name)
        for cid, t in typed:
            old = types.get(t)
            if old is not None:
                out.append(replaces[cid, old])
            elif can_add:
                out.append(adds[cid])
    return out

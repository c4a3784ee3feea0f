"""Bone Wars — the game state's actions, made once and shared by every state (a random game and a
search build none of them again): dice, draws, creates and edits."""

from __future__ import annotations

from functools import cache
from typing import Any

from cardgen.play.api import Action
from cardgen.play.dice import die_outcomes


@cache
def _die(kind: str, sides: int, field: str, player: str | None = None) -> tuple[tuple[Action, float], ...]:
    return tuple(die_outcomes(kind, sides, field, player=player))


@cache
def _two_dice(sides: int) -> list[tuple[Action, float]]:
    """The blocked attack's two dice (one list shared by every state: read, never changed)."""
    p = 1.0 / (sides * sides)
    return [(Action(kind="roll", items=(("attacker", a), ("blocker", b))), p)
            for a in range(1, sides + 1) for b in range(1, sides + 1)]


_EDITS: dict[tuple[str, ...], Action] = {}      # the edit actions made so far, by a flat key


@cache
def _draw_actions(kind: str, p: str | None) -> dict[str, Action]:
    return _DrawActions(kind, p)


class _DrawActions(dict):
    def __init__(self, kind: str, p: str | None):
        super().__init__()
        self.kind, self.p = kind, p

    def __missing__(self, cid: str) -> Action:
        a = self[cid] = Action(self.kind, (("player", self.p), ("card", cid)))
        return a


@cache
def _act(kind: str, *items: tuple[str, Any]) -> Action:
    return Action(kind, items)


def edit_actions(self: Any, p: str, cards: list[str]) -> list[Action]:
    """Every create and edit ``p`` may make with ``cards`` at the state ``self`` (BW-CREATE-2…4)."""
    name = self.next_name()
    acts = _EDITS
    if len(acts) > 200_000:         # bounded: names and cards repeat from game to game
        acts.clear()
    out = []
    for cid in cards:
        key: tuple[str, ...] = ("create", p, cid, name)
        a = acts.get(key)
        if a is None:
            a = acts[key] = Action("create", (("player", p), ("card", cid), ("monster", name)))
        out.append(a)
    parts, room = self.parts, self.rules.max_parts
    for m in self.monsters.values():
        if m.owner != p:
            continue
        types = {x.part: x.id for x in m.parts}
        can_add = len(m.parts) < room
        for cid in cards:
            old = types.get(parts[cid].part)
            if old is not None:
                key = ("replace_part", p, m.name, cid, old)
                a = acts.get(key)
                if a is None:
                    a = acts[key] = Action("replace_part", (("player", p), ("monster", m.name), ("card", cid),
                                                            ("replaces", old)))
                out.append(a)
            elif can_add:
                key = ("add_part", p, m.name, cid)
                a = acts.get(key)
                if a is None:
                    a = acts[key] = Action("add_part", (("player", p), ("monster", m.name), ("card", cid)))
                out.append(a)
    return out

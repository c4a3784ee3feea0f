"""Loot & Battles: a log's header — the table it sets up (players and their classes, the Battles
to win, the first Leader, the target numbers), checked against the rules before the replay
(LB-SETUP-1, LB-SETUP-2, LB-TGT-1). A header the game cannot be set up from at all (no class
cards, two players of one name, a class misspelt) is an unreadable log (``LogError``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import LogError
from cardgen.games.loot_battles.rules import Rules
from cardgen.play.dice import off_die
from cardgen.play.lookup import nearest

#: a setup fact the header gets wrong: (rule, message, header key)
Slip = tuple[str, str, str | None]


class HeaderError(LogError):
    """An unreadable header, at its key (the shared replay places it: ``players[1]``)."""

    def __init__(self, rule: str, message: str, key: str, hint: str | None = None):
        super().__init__(rule, message, None, hint)
        self.key = key


def class_of(classes: Sequence[Card], want: Any) -> Card | None:
    """The class card a header names (by id, class or name, any case)."""
    w = str(want).strip().lower()
    return next((c for c in classes if w in (c.id.lower(), str(c.get("class")).lower(), c.name.lower())),
                None)


def readable(rules: Rules, header: Mapping[str, Any]) -> None:
    """Raise ``LogError`` for a header no game can be set up from."""
    classes = rules.by_type.get("class", [])
    if not classes:
        raise LogError("LOG-GAME", "the game has no class cards", None)
    seen: set[str] = set()
    for i, entry in enumerate(header.get("players") or []):
        name = str(entry.get("name"))
        if name in seen:
            raise HeaderError("LOG-FIELD", f"two players are called {name!r}", f"players[{i}]")
        seen.add(name)
        if class_of(classes, entry.get("class")) is None:
            near = nearest(str(entry.get("class")).strip().lower(),
                           [n for c in classes for n in (str(c.get("class")), c.id)])
            if near:  # a misspelling: the log cannot be read as meant
                raise HeaderError("LOG-FIELD", f"{name}'s class {entry.get('class')!r} names no class card",
                                  f"players[{i}]", f"did you mean '{near[0]}'?")


def slips(rules: Rules, header: Mapping[str, Any]) -> list[Slip]:
    """The setup facts the header gets wrong that still let the game be played."""
    classes = rules.by_type.get("class", [])
    out: list[Slip] = []
    players = list(header.get("players") or [])
    for i, entry in enumerate(players):
        name, cls = entry.get("name"), class_of(classes, entry.get("class"))
        if cls is None:
            out.append(
                (
                    "LB-SETUP-2",
                    f"{name} picks class {entry.get('class')!r}; a player picks "
                    + " or ".join(c.name for c in classes),
                    f"players[{i}]",
                )
            )
            cls = classes[0]
        for stat in ("health", "armor", "dodge"):
            stated, computed = entry.get(stat), int(cls.get(stat) or 0)
            if stated is not None and stated != computed:
                out.append(
                    ("LB-SETUP-2", f"the log says {name}'s starting {stat.capitalize()} is {stated!r}, but "
                     f"the rules give {computed!r}", f"players[{i}]")
                )
    n = len(players)
    if not rules.n_min <= n <= rules.n_max:
        out.append(
            ("LB-SETUP-1", f"{n} player(s); Loot & Battles is for {rules.n_min}–{rules.n_max}",
             f"players[{rules.n_max}]" if n > rules.n_max else "players[0]")
        )
    to_win, stated = rules.battles_to_win(n), header.get("battles_to_win")
    if stated is not None and to_win is not None and stated != to_win:
        out.append(
            ("LB-SETUP-1",
             f"the log says the number of Battles to win is {stated!r}, but the rules give {to_win!r}",
             "battles_to_win")
        )
    held = {str(e.get("name")): e.get("numbers") for e in players}
    if any(v is not None for v in held.values()):
        bad = numbers(rules, {k: list(v or []) for k, v in held.items()}, list(held))
        out += [("LB-TGT-1", bad, None)] if bad else []
    return out


def numbers(rules: Rules, held: Mapping[str, list[Any]], active: list[str]) -> str | None:
    """LB-TGT-1: numbers 1…d all held, each by one player; what is wrong, or None."""
    die, bad = rules.target_die, []
    owner: dict[int, str] = {}
    for name, nums in held.items():
        for n in nums:
            if off_die(n, die):
                bad.append(f"{name} holds {n!r}, not a number on the d{die}")
            elif n in owner:
                bad.append(f"{n} is held by both {owner[n]} and {name}")
            else:
                owner[n] = name
    missing = [n for n in range(1, die + 1) if n not in owner]
    if missing:
        bad.append(f"nobody holds {', '.join(map(str, missing))}")
    empty = [p for p in active if not held.get(p)]
    if empty:
        bad.append(f"{', '.join(empty)} hold(s) no number")
    return f"each player holds numbers so that 1–{die} are all assigned: {'; '.join(bad)}" if bad else None

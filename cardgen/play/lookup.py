"""Names in a log (cards, players, pieces, teams) resolved to things, with "did you mean".

One lookup for every engine: exact key, then a case-insensitive match on any of the thing's
names (id, display name, aliases). An ambiguous name is an error naming the candidates,
each once; an unknown one gets the nearest known names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from cardgen.content.playlog import LogError
from cardgen.core.problems import hint_for as hint_for
from cardgen.core.problems import nearest as nearest

T = TypeVar("T")


class NotFound(Exception):
    """A name that resolves to nothing (or to several things)."""

    def __init__(self, message: str, hint: str | None):
        super().__init__(message)
        self.message, self.hint = message, hint


class Names(Generic[T]):
    """Things found by name. ``names(thing)`` gives every name a thing answers to."""

    def __init__(self, what: str, things: Iterable[tuple[str, T]], names: Callable[[T], Iterable[str]] = lambda t: ()):
        self.what = what
        self.by_key: dict[str, T] = {}
        self.by_low: dict[str, list[tuple[str, T]]] = {}
        self.spelled: dict[str, str] = {}       # every name as written (for "did you mean")
        for key, thing in things:
            self.add(key, thing, names(thing))

    def add(self, key: str, thing: T, aliases: Iterable[str] = ()) -> None:
        self.by_key[key] = thing
        for n in {key, *aliases}:
            self.spelled.setdefault(str(n), key)
            bucket = self.by_low.setdefault(str(n).strip().lower(), [])
            if all(k != key for k, _ in bucket):
                bucket.append((key, thing))

    def remove(self, key: str) -> None:
        self.by_key.pop(key, None)
        for bucket in self.by_low.values():
            bucket[:] = [(k, t) for k, t in bucket if k != key]

    def __contains__(self, key: str) -> bool:
        return key in self.by_key

    def __len__(self) -> int:
        return len(self.by_key)

    def keys(self) -> list[str]:
        return list(self.by_key)

    def find(self, name: object) -> T:
        """The thing named; raises :class:`NotFound` with a hint."""
        s = str(name).strip()
        if s in self.by_key:
            return self.by_key[s]
        hits = self.by_low.get(s.lower(), [])
        if len(hits) == 1:
            return hits[0][1]
        if len(hits) > 1:
            keys = sorted({k for k, _ in hits})
            raise NotFound(f"{name!r} could be any of {', '.join(keys)}", "name it by its id")
        raise NotFound(f"names no {self.what}: {name!r}",
                       hint_for(s, [n for n, k in self.spelled.items() if k in self.by_key]) or (f"known: {', '.join(list(self.by_key)[:12])}"
                                                    if self.by_key else f"there is no {self.what} yet"))

    def knows(self, name: object) -> bool:
        """Whether ``name`` names anything (one thing, or several: :meth:`find` says which)."""
        s = str(name).strip()
        return s in self.by_key or bool(self.by_low.get(s.lower()))

    def get(self, name: object) -> T | None:
        try:
            return self.find(name)
        except NotFound:
            return None


def log_name(names: Names[T], value: object, field: str, more: str = "", hint: str | None = None) -> T:
    """The thing a log's ``field`` names, or the log's LOG-FIELD error: "'field' names no …"
    (``more`` after the name; ``hint`` unless the lookup's own is a near miss)."""
    try:
        return names.find(value)
    except NotFound as e:
        near = e.hint if hint is None or (e.hint and "did you mean" in e.hint) else hint
        raise LogError("LOG-FIELD", f"'{field}' names no {names.what}: {value!r}{more}", None, near) from None


def log_player(players: Sequence[str], value: object, field: str) -> str:
    """The player a log's ``field`` names (exactly, or by a case-insensitive match), or its
    ``LOG-FIELD`` error with the near miss, else the players, as the hint."""
    if isinstance(value, str) and value in players:
        return value
    names = Names("player", [(p, p) for p in players])
    return log_name(names, value, field, hint=f"players: {', '.join(players)}")

"""What constraints run over: entries (a card or component and how many of it) in a collection,
and which of them a constraint selects.

A card that failed to load is *known but invalid*: its raw keys are kept (``Collection.unread``)
with the keys whose value is not known (``bad``: misspelt, missing, of the wrong type; ``*`` when
its card type is unknown). A constraint that may select such a card waits (reports nothing) until
the card is fixed, so one mistake is reported once, at its own line.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from cardgen.core.problems import Loc
from cardgen.core.record import record

ANY_KEY = "*"       # in ``bad``: nothing of the card is known (its card type is unknown)


@record
class Entry:
    """One line of a collection: a card (or component) and how many of it."""

    id: str
    name: str
    fields: dict[str, Any]
    count: int
    loc: Loc          # where the count is written
    field_locs: dict[str, Loc] = field(default_factory=dict)   # where each field is written
    card_loc: Loc | None = None     # the card's first line (a field it lacks is reported there)

    def at(self, name: str) -> Loc:
        """Where field ``name`` is written (the entry's line when not known)."""
        return self.field_locs.get(name, self.loc)


@record
class Collection:
    """A set of entries a constraint counts: the card pool, the components or one deck-like file."""

    kind: str               # "cards", "components" or a deck kind such as "deck"
    entries: list[Entry]
    loc: Loc                # where the collection as a whole is declared
    label: str
    unread: list[dict[str, Any]] = field(default_factory=list)   # raw keys of entries that failed to load
    unreadable: list[str] = field(default_factory=list)          # files of it that could not be read at all


def selects(fields: dict[str, Any], c: dict) -> bool:
    """The entry matches the constraint's ``where`` and not its ``except``."""
    return matches(fields, c.get("where")) and not (c.get("except") and matches(fields, c["except"]))


def matches(fields: dict[str, Any], where: dict[str, Any] | None) -> bool:
    """Every key of ``where`` equals the field (or is one of a listed set of values).

    A field holding a list (e.g. traits) matches when it contains the wanted value.
    """
    if not where:
        return True
    for k, want in where.items():
        have = fields.get(k)
        if isinstance(have, list):
            wanted = want if isinstance(want, list) else [want]
            if not any(w in have for w in wanted):
                return False
            continue
        if isinstance(want, list):
            if have not in want:
                return False
        elif have != want:
            return False
    return True


def bad_keys(raw: Any) -> frozenset[str]:
    """The keys of a card that failed to load whose value is not known."""
    return frozenset(getattr(raw, "bad", None) or ())


def decides(c: dict) -> set[str]:
    """The card keys that decide whether a constraint selects a card (and into which group)."""
    keys: set[str] = set()
    for arg in ("where", "except", "exclude"):
        if isinstance(c.get(arg), dict):
            keys |= {str(k) for k in c[arg]}
    for arg in ("per", "group_by", "key"):
        v = c.get(arg)
        keys |= {v} if isinstance(v, str) else {str(x) for x in v} if isinstance(v, list) else set()
    return keys


def uncertain(raw: dict[str, Any], c: dict) -> bool:
    """A card that failed to load may be one ``c`` counts: it selects the raw keys, or a key
    that decides the selection is among the card's unknown ones."""
    bad = bad_keys(raw)
    return ANY_KEY in bad or bool(bad & decides(c)) or selects(raw, c)

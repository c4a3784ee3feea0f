"""Boss Fight builds: the model (pieces, characters, a build), the reader helpers, footprint
geometry text and abilities' requirements (see :mod:`.builds`)."""


from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from cardgen.content import collection_files as cols
from cardgen.content.constraints import Entry
from cardgen.content.model import Card, Game
from cardgen.core.hexgrid import Hex, neighbors
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, YList

STATS = ("health", "intelligence", "strength", "agility", "slots")
SIDE_SETS = {"boss": ("boss", "neutral"), "hero": ("hero", "neutral")}    # params side_sets overrides
NO_LIMIT = ("none", "no limit", "unlimited")


# --------------------------------------------------------------------------- the model of a build


@record
class Piece:
    """A Boss Piece as a build places it."""

    card: Card
    label: str
    at: Hex
    rotate: int
    loc: Loc                  # the piece's line in the build file
    at_loc: Loc               # where its placement is written
    cells: list[Hex] = field(default_factory=list)
    equipment: list[Card] = field(default_factory=list)

    @property
    def used(self) -> int:
        return sum(e.get("slots") or 0 for e in self.equipment)

    @property
    def free(self) -> int:
        return (self.card.get("slots") or 0) - self.used


@record
class Character:
    """The boss or one hero: its card (heroes), equipment, abilities and action deck."""

    name: str
    card: Card | None
    loc: Loc
    equipment: list[Card] = field(default_factory=list)
    abilities: list[Card] = field(default_factory=list)
    deck: list[Entry] = field(default_factory=list)
    deck_loc: Loc | None = None


@record
class Build:
    kind: str                        # boss | party | deck
    name: str
    side: str | None                 # boss | hero
    limit: int | None
    limit_loc: Loc
    loc: Loc
    entries: list[Entry] = field(default_factory=list)        # every card the side uses
    pieces: list[Piece] = field(default_factory=list)
    characters: list[Character] = field(default_factory=list)  # boss: one; party: the heroes
    hero_entries: list[Entry] = field(default_factory=list)
    heroes_loc: Loc | None = None
    hexes: list[Hex] = field(default_factory=list)
    waits: bool = False              # names a card that failed to load: its construction checks wait

    def points(self, types: tuple[str, ...] | None = None) -> int:
        return sum((e.fields.get("points") or 0) * e.count for e in self.entries
                   if types is None or e.fields.get("type") in types)


# --------------------------------------------------------------------------- reading build files


def side_sets(game: Game) -> dict[str, tuple[str, ...]]:
    """BF-BUILD-5: the card sets each side may use (params ``side_sets``)."""
    given = (game.params or {}).get("side_sets") if isinstance(game.params, dict) else None
    return {k: tuple(v) for k, v in (given or SIDE_SETS).items()}


class _Reader:
    def __init__(self, game: Game, problems: Problems):
        self.game = game
        self.problems = problems
        self.by_id = {c.id: c for c in game.cards}
        self.sides = side_sets(game)
        self.waits = False      # names a card that failed to load (reported there): the build's checks wait

    def items(self, body: YDict, key: str, allowed: tuple[str, ...], what: str) -> list[tuple[YDict | None, Any, Loc]]:
        """A list of ids or of mappings with ``id`` → (mapping or None, id, where the id is)."""
        val = body.get(key)
        if val is None:
            return []
        if not isinstance(val, YList):
            self.problems.error("YAML-TYPE", f"'{key}' of {what} must be a list", body.at(key))
            return []
        out: list[tuple[YDict | None, Any, Loc]] = []
        for i, it in enumerate(val):
            if isinstance(it, YDict):
                for k in it:
                    if k not in allowed:
                        hint = did_you_mean(str(k), allowed)
                        if isinstance(k, bool):
                            hint = f"YAML reads a bare on/off/yes/no key as {k}; expected one of: {', '.join(allowed)}"
                        self.problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' in an entry of '{key}' of {what}",
                                            it.key_at(k), hint=hint)
                        if any(f"'{a}'" in (hint or "") and a not in it for a in allowed):
                            self.waits = True       # a misspelt key: what it holds is unknown, its checks wait
                if "id" not in it:
                    self.problems.error("YAML-MISSING-KEY", f"an entry of '{key}' of {what} lacks 'id'", it.loc)
                    continue
                out.append((it, it["id"], it.at("id")))
            elif isinstance(it, str):
                out.append((None, it, val.at(i)))
            else:
                self.problems.error("YAML-TYPE", f"an entry of '{key}' of {what} must be a card id or a mapping "
                                    f"with 'id', not {it!r}", val.at(i))
        return out

    def card(self, cid: Any, loc: Loc, want: str, side: str, rule: str, what: str) -> Card | None:
        """The card ``cid``; unknown ids and cards of the wrong type (same side) are problems."""
        if not isinstance(cid, str):
            self.problems.error("YAML-TYPE", f"a card id in {what} must be text, not {cid!r}", loc)
            return None
        card = self.by_id.get(cid)
        if card is None and cid in self.game.failed_ids:
            self.waits = True       # known but invalid: one problem, at the card's own line
            return None
        if card is None:
            same = [c.id for c in self.game.cards if c.type == want]
            self.problems.error("CARD-UNKNOWN-ID", f"{what} names card '{cid}', which does not exist in "
                                f"{self.game.title}", loc, hint=did_you_mean(cid, same) or did_you_mean(cid, self.by_id))
            return None
        if card.type != want and card.get("set") in self.sides.get(side, ()):
            # a card of the other side is BF-BUILD-5's business (see analyse)
            ct = self.game.card_types
            self.problems.error(rule, f"'{cid}' ({card.name}) is {_a(ct[card.type].name)} card, not "
                                f"{_a(ct[want].name)}: it cannot stand in {what}", loc)
        return card

    def deck(self, holder: YDict, label: str, problems: Problems | None = None) -> tuple[list[Entry], Loc]:
        where = holder.at("cards") if "cards" in holder else holder.loc
        items = holder.get("cards")
        problems = self.problems if problems is None else problems      # an empty Problems is falsy
        if items is not None and not isinstance(items, (YDict, YList)):
            problems.error("YAML-TYPE", f"the cards of {label} must be a mapping id → count or a list, not {items!r}",
                           where)
            return [], where
        unread: list[dict] = []
        entries = cols.entries_from(items, self.game, problems, label, None, unread)
        self.waits = self.waits or bool(unread)
        return entries, where


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _entry(card: Card, loc: Loc) -> Entry:
    return Entry(card.id, card.name, card.fields, 1, loc)


def _limit(game: Game, body: YDict, problems: Problems) -> tuple[int | None, Loc]:
    default = game.params.get("points_limit") if isinstance(game.params, dict) else None
    if "points_limit" not in body:
        return default, body.loc
    v = body["points_limit"]
    loc = body.at("points_limit")
    if v is None or (isinstance(v, str) and v.strip().lower() in NO_LIMIT):
        return None, loc
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        problems.error("YAML-TYPE", f"points_limit must be a whole number of points or 'none', not {v!r}", loc)
        return default, loc
    return v, loc


def _name(body: YDict) -> str:
    return str(body.get("name") or Path(body.loc.file).stem)


def _cell(v: Any) -> Hex | None:
    if (isinstance(v, list) and len(v) == 2
            and all(isinstance(c, int) and not isinstance(c, bool) for c in v)):
        return Hex(v[0], v[1])
    return None


def _components(cells: set[Hex]) -> list[set[Hex]]:
    parts, todo = [], set(cells)
    while todo:
        start = todo.pop()
        part, stack = {start}, [start]
        while stack:
            for n in neighbors(stack.pop()):
                if n in todo:
                    todo.discard(n)
                    part.add(n)
                    stack.append(n)
        parts.append(part)
    return parts


def _cells_text(cells: list[Hex]) -> str:
    return ", ".join(f"[{h.q}, {h.r}]" for h in cells)


def need_phrases(game: Game, needs: Any) -> list[tuple[str, str]]:
    """(key, the words a card prints for it) for each build requirement of an ability's ``needs``."""
    params = game.params if isinstance(game.params, dict) else {}
    out = []
    for key, want in (needs or {}).items():
        if key == "piece":
            out.append((key, f"{(params.get('piece_types') or {}).get(want, want)} piece"))
        elif key == "constitution":
            out.append((key, f"{((params.get('constitutions') or {}).get(want) or {}).get('name', want)} hero"))
        else:
            out.append((key, f"{(params.get('stats') or {}).get(key, key)} {want} or more"))
    return out


def check_needs(game: Game, ab: Card, loc: Loc, who: str, piece_types: set | None, stats: dict[str, int],
                constitution: str | None, problems: Problems) -> None:
    """An ability's requirements (``needs``) that the boss or hero taking it does not meet as built: a
    warning under BF-BUILD-4 — the card is legal to take, but only usable once they are met."""
    needs = ab.get("needs") or {}
    unmet = []
    for key, phrase in need_phrases(game, needs):
        want = needs[key]
        phrase = f"a {phrase}" if key in ("piece", "constitution") else phrase
        if key == "piece":
            ok, has = piece_types is not None and want in piece_types, "it has none"
        elif key == "constitution":
            ok, has = constitution == want, f"it is {constitution}" if constitution else "it has no constitution"
        else:
            ok, has = stats.get(key, 0) >= want, f"it has {stats.get(key, 0)}"
        if not ok:
            unmet.append(f"{phrase} ({has})")
    if unmet:
        problems.warning("BF-BUILD-4", f"'{ab.id}' ({ab.name}) requires {' and '.join(unmet)}: as built, {who} "
                         "cannot use it", loc)

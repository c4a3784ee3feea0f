"""Boss Fight: build computations for boss and party files, content checks, printables.

Deck-like files (kinds declared in ``rules/boss_fight/game.yaml`` under ``collections``)::

    deck:  {name, side: boss | hero, cards: {id: count}}
    boss:  {name, points_limit, pieces: [{id, as, at: [q, r], rotate}],
            equipment: [{id, piece}], abilities: [id], cards: {id: count}}
    party: {name, points_limit, heroes: [{id, equipment: [id], abilities: [id], cards: {…}}]}

``cards`` is always an action deck. The generic constraints (``rules/boss_fight/
constraints.yaml``) run over collections built here: ``deck`` (each character's action
deck), ``boss_build`` / ``party_build`` (every card a side uses) and ``heroes``. This module
checks what needs geometry, per-piece structure or a position per card: footprints placed
and joined (BF-BUILD-2), equipment in free slots (BF-BUILD-3), section types (BF-BUILD-2/3/4),
each card's set against its side (BF-BUILD-5, params ``side_sets``).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable

from .. import collections as cols
from ..constraints import Collection, Entry, evaluate
from ..hexgrid import Hex, is_connected, neighbors, rotate
from ..model import Card, Game
from ..problems import Loc, Problems, did_you_mean
from ..render_pdf import MM
from ..scene import Circle, Polygon, Text
from ..yamlsrc import YDict, YList

STATS = ("health", "intelligence", "strength", "agility", "slots")
SIDE_SETS = {"boss": ("boss", "neutral"), "hero": ("hero", "neutral")}    # params side_sets overrides
NO_LIMIT = ("none", "no limit", "unlimited")


# --------------------------------------------------------------------------- the model of a build


@dataclass
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


@dataclass
class Character:
    """The boss or one hero: its card (heroes), equipment, abilities and action deck."""

    name: str
    card: Card | None
    loc: Loc
    equipment: list[Card] = field(default_factory=list)
    abilities: list[Card] = field(default_factory=list)
    deck: list[Entry] = field(default_factory=list)
    deck_loc: Loc | None = None


@dataclass
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

    def items(self, body: YDict, key: str, allowed: tuple[str, ...], what: str) -> list[tuple[YDict | None, Any, Loc]]:
        """A list of ids or of mappings with ``id`` → (mapping or None, id, where the id is)."""
        val = body.get(key)
        if val is None:
            return []
        if not isinstance(val, YList):
            self.problems.error("YAML-TYPE", f"'{key}' of {what} must be a list", body.at(key))
            return []
        out = []
        for i, it in enumerate(val):
            if isinstance(it, YDict):
                for k in it:
                    if k not in allowed:
                        hint = did_you_mean(str(k), allowed)
                        if isinstance(k, bool):
                            hint = f"YAML reads a bare on/off/yes/no key as {k}; expected one of: {', '.join(allowed)}"
                        self.problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' in an entry of '{key}' of {what}",
                                            it.key_at(k), hint=hint)
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
        if items is not None and not isinstance(items, (YDict, YList)):
            (problems or self.problems).error("YAML-TYPE", f"the cards of {label} must be a mapping id → count "
                                              f"or a list, not {items!r}", where)
            return [], where
        return cols.entries_from(items, self.game, problems or self.problems, label), where


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


def read_boss(game: Game, body: YDict, problems: Problems) -> Build:
    rd = _Reader(game, problems)
    name = _name(body)
    what = f"boss '{name}'"
    limit, lloc = _limit(game, body, problems)
    b = Build("boss", name, "boss", limit, lloc, body.loc)
    boss = Character(name, None, body.loc)
    b.characters.append(boss)
    for it, cid, loc in rd.items(body, "pieces", ("id", "as", "at", "rotate"), what):
        card = rd.card(cid, loc, "boss_piece", "boss", "BF-BUILD-2", f"the pieces of {what}")
        if card is None:
            continue
        b.entries.append(_entry(card, loc))
        if card.type != "boss_piece":
            continue
        it = it if it is not None else YDict()
        at, at_loc = Hex(0, 0), it.at("at") if "at" in it else loc
        if "at" in it:
            h = _cell(it["at"])
            if h is None:
                problems.error("YAML-TYPE", f"'at' of piece '{cid}' must be an axial cell [q, r] of whole numbers, "
                               f"not {it['at']!r}", it.at("at"))
            else:
                at = h
        turn = it.get("rotate", 0)
        if isinstance(turn, bool) or not isinstance(turn, int):
            problems.error("YAML-TYPE", f"'rotate' of piece '{cid}' must be a whole number of 60° steps, "
                           f"not {turn!r}", it.at("rotate"))
            turn = 0
        label = it.get("as", cid)
        if not isinstance(label, str):
            problems.error("YAML-TYPE", f"'as' of piece '{cid}' must be a name", it.at("as"))
            label = cid
        p = Piece(card, label, at, turn % 6, loc, at_loc)
        p.cells = [at + rotate(Hex(q, r), p.rotate) for q, r in (card.get("footprint") or [])
                   if isinstance(q, int) and isinstance(r, int)]
        b.pieces.append(p)
    by_label: dict[str, list[Piece]] = {}
    for p in b.pieces:
        by_label.setdefault(p.label, []).append(p)
    for it, cid, loc in rd.items(body, "equipment", ("id", "piece"), what):
        card = rd.card(cid, loc, "equipment", "boss", "BF-BUILD-3", f"the equipment of {what}")
        if card is None:
            continue
        b.entries.append(_entry(card, loc))
        if card.type != "equipment" or card.get("set") != "boss":
            continue
        _attach(b, by_label, it, card, loc, problems)
    for _it, cid, loc in rd.items(body, "abilities", ("id",), what):
        card = rd.card(cid, loc, "ability", "boss", "BF-BUILD-4", f"the abilities of {what}")
        if card is None:
            continue
        b.entries.append(_entry(card, loc))
        if card.type == "ability":
            boss.abilities.append(card)
    boss.deck, boss.deck_loc = rd.deck(body, f"the action deck of {what}", Problems())   # loader reported ids
    b.entries += boss.deck
    _geometry(game, b, problems)
    return b


def _attach(b: Build, by_label: dict[str, list[Piece]], it: YDict | None, card: Card, loc: Loc,
            problems: Problems) -> None:
    """BF-BUILD-3: boss equipment goes on a named piece with enough free slots."""
    need = card.get("slots") or 0
    fits = [p.label for p in b.pieces if p.free >= need]
    hint = f"pieces with {need} free slot{'s' if need != 1 else ''}: {', '.join(fits)}" if fits else \
        "no piece of this boss has that many free slots"
    on = it.get("piece") if it is not None else None
    if on is None:
        problems.error("BF-BUILD-3", f"'{card.id}' ({card.name}) must be attached to a piece of boss '{b.name}': "
                       "add `piece:` naming it", loc, hint=hint)
        return
    where = it.at("piece")
    pieces = by_label.get(str(on), [])
    if not pieces:
        problems.error("BF-BUILD-3", f"'{card.id}' ({card.name}) is attached to piece '{on}', which boss "
                       f"'{b.name}' does not have", where, hint=did_you_mean(str(on), by_label) or hint)
        return
    if len(pieces) > 1:
        problems.error("BF-BUILD-3", f"'{on}' names {len(pieces)} pieces of boss '{b.name}'; name each with "
                       "`as:` and attach to one", where)
        return
    p = pieces[0]
    if p.free < need:
        held = f" (holding {', '.join(e.name for e in p.equipment)})" if p.equipment else ""
        problems.error("BF-BUILD-3", f"'{card.id}' ({card.name}) needs {need} equipment slot{'s' if need != 1 else ''}"
                       f" but piece '{p.label}' ({p.card.name}) has {max(p.free, 0)} free of "
                       f"{p.card.get('slots') or 0}{held}", where, hint=hint)
        return
    p.equipment.append(card)
    b.characters[0].equipment.append(card)


def _geometry(game: Game, b: Build, problems: Problems) -> None:
    """BF-BUILD-2: footprints as placed must not overlap (ruling) and must form one shape."""
    params = game.params if isinstance(game.params, dict) else {}
    owner: dict[Hex, Piece] = {}
    clashes: dict[tuple[int, int], list[Hex]] = {}
    for i, p in enumerate(b.pieces):
        for h in p.cells:
            if h in owner and owner[h] is not p:
                j = b.pieces.index(owner[h])
                clashes.setdefault((j, i), []).append(h)
            else:
                owner.setdefault(h, p)
    if not params.get("footprint_overlap", False):
        for (j, i), cells in clashes.items():
            a, c = b.pieces[j], b.pieces[i]
            problems.error("BF-BUILD-2", f"pieces '{a.label}' and '{c.label}' of boss '{b.name}' both cover "
                           f"{_cells_text(cells)}; each hex belongs to one piece", c.at_loc,
                           hint="move one of them with `at:` or turn it with `rotate:`")
    union = sorted(set(owner)) or [Hex(0, 0)]      # a boss of size 0 is set to one hex (1x1)
    b.hexes = union
    if not is_connected(union):
        parts = _components(set(union))
        main = max(parts, key=len)
        for p in b.pieces:
            if p.cells and not (set(p.cells) & main):
                problems.error("BF-BUILD-2", f"boss '{b.name}' is not one connected shape: piece '{p.label}' "
                               f"({p.card.name}) at {_cells_text(p.cells)} touches no hex of the rest "
                               f"({len(parts)} separate parts)", p.at_loc,
                               hint="place it with `at:` so one of its hexes borders another piece's")


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


def read_party(game: Game, body: YDict, problems: Problems) -> Build:
    rd = _Reader(game, problems)
    name = _name(body)
    what = f"party '{name}'"
    limit, lloc = _limit(game, body, problems)
    b = Build("party", name, "hero", limit, lloc, body.loc)
    b.heroes_loc = body.at("heroes") if "heroes" in body else body.loc
    for it, cid, loc in rd.items(body, "heroes", ("id", "equipment", "abilities", "cards"), what):
        card = rd.card(cid, loc, "hero", "hero", "BF-PLAYERS-1", f"the heroes of {what}")
        if card is None:
            continue
        b.entries.append(_entry(card, loc))
        if card.type != "hero":
            continue
        b.hero_entries.append(_entry(card, loc))
        it = it if it is not None else YDict()
        if it.loc.file == "":
            it.loc = loc
        hero = Character(card.name, card, loc)
        b.characters.append(hero)
        hwhat = f"{card.name} ({what})"
        slots = card.get("slots") or 0
        for _e, eid, eloc in rd.items(it, "equipment", ("id",), hwhat):
            eq = rd.card(eid, eloc, "equipment", "hero", "BF-BUILD-3", f"the equipment of {hwhat}")
            if eq is None:
                continue
            b.entries.append(_entry(eq, eloc))
            if eq.type != "equipment" or eq.get("set") != "hero":
                continue
            used = sum(e.get("slots") or 0 for e in hero.equipment)
            need = eq.get("slots") or 0
            if used + need > slots:
                held = f" (holding {', '.join(e.name for e in hero.equipment)})" if hero.equipment else ""
                problems.error("BF-BUILD-3", f"'{eq.id}' ({eq.name}) needs {need} equipment slot"
                               f"{'s' if need != 1 else ''} but {card.name} has {max(slots - used, 0)} free of "
                               f"{slots}{held}", eloc)
                continue
            hero.equipment.append(eq)
        for _ab, aid, aloc in rd.items(it, "abilities", ("id",), hwhat):
            ab = rd.card(aid, aloc, "ability", "hero", "BF-BUILD-4", f"the abilities of {hwhat}")
            if ab is None:
                continue
            b.entries.append(_entry(ab, aloc))
            if ab.type == "ability":
                hero.abilities.append(ab)
        hero.deck, hero.deck_loc = rd.deck(it, f"the action deck of {card.name}")
        b.entries += hero.deck
    return b


def read_deck(game: Game, body: YDict, problems: Problems) -> Build:
    name = _name(body)
    side = body.get("side")
    sides = side_sets(game)
    if side is not None and side not in sides:
        problems.error("YAML-TYPE", f"'side' of deck '{name}' must be one of {', '.join(sides)}, not {side!r}",
                       body.at("side"), hint=did_you_mean(str(side), sides))
        side = None
    b = Build("deck", name, side, None, body.loc, body.loc)
    ch = Character(name, None, body.loc)
    ch.deck, ch.deck_loc = _Reader(game, problems).deck(body, f"deck '{name}'", Problems())
    b.characters.append(ch)
    b.entries = list(ch.deck)
    return b


READERS = {"boss": read_boss, "party": read_party, "deck": read_deck}


def analyse(game: Game, kind: str, body: YDict, problems: Problems) -> Build | None:
    """Read a build file and check it against every construction rule."""
    reader = READERS.get(kind)
    if reader is None or not isinstance(body, YDict):
        return None
    b = reader(game, body, problems)
    params = dict(game.params) if isinstance(game.params, dict) else {}
    params["points_limit"] = b.limit
    label = {"boss": f"boss '{b.name}'", "party": f"party '{b.name}'", "deck": f"deck '{b.name}'"}[kind]
    if b.side is not None:
        _sides(game, b, label, problems)
    if kind != "deck":
        for ch in b.characters:
            evaluate(game.constraints, {"deck": Collection("deck", ch.deck, ch.deck_loc or ch.loc,
                                                           f"the action deck of {label if ch.card is None else ch.name}")},
                     params, problems)
        build = Collection(f"{kind}_build", b.entries, b.limit_loc, label)
        extra = {f"{kind}_build": build}
        if kind == "party":
            extra["heroes"] = Collection("heroes", b.hero_entries, b.heroes_loc or b.loc, label)
        evaluate(game.constraints, extra, params, problems)
    elif b.side is None:
        sides = {s: [e for e in b.entries if e.fields.get("set") == s] for s in ("boss", "hero")}
        if sides["boss"] and sides["hero"]:
            few = min(sides.values(), key=len)
            problems.error("BF-BUILD-5", f"deck '{b.name}' mixes Boss Set and Hero Set cards; a deck belongs to one "
                           f"side (here: '{few[0].id}', {few[0].name})", few[0].loc,
                           hint="add `side: boss` or `side: hero` to say which")
    return b


def _sides(game: Game, b: Build, label: str, problems: Problems) -> None:
    """BF-BUILD-5: a boss uses Boss and Neutral cards, a party Hero and Neutral cards (params side_sets)."""
    allowed = side_sets(game).get(b.side or "", ())
    names = (game.params or {}).get("sets") or {}
    ok = " and ".join(str(names.get(s, s)) for s in allowed)
    for e in b.entries:
        s = e.fields.get("set")
        if s not in allowed:
            problems.error("BF-BUILD-5", f"'{e.id}' ({e.name}) is {_a(str(names.get(s, s)))} card; {label} takes only "
                           f"{ok} cards", e.loc)


# --------------------------------------------------------------------------- computed figures


def boss_stats(b: Build) -> dict[str, int]:
    return {k: sum(p.card.get(k) or 0 for p in b.pieces) for k in STATS}


def leg_count(b: Build) -> int:
    return sum(p.card.get("legs") if p.card.get("legs") is not None else int(p.card.get("piece_type") == "leg")
               for p in b.pieces)


def movement(game: Game, b: Build) -> str:
    table = list((game.params or {}).get("movement_by_legs") or [0, 0.5, 1])
    legs = leg_count(b)
    f = table[min(legs, len(table) - 1)]
    word = "none" if f == 0 else "full" if f == 1 else "half, rounded down" if f == 0.5 else f"× {f:g}"
    return f"{word} ({legs} Leg piece{'s' if legs != 1 else ''})"


def shape_lines(hexes: list[Hex]) -> list[str]:
    """The footprint as text: one line per row r, hexes shown as 'o', the anchor [0, 0] as '@'."""
    if not hexes:
        return []
    rows: dict[int, list[Hex]] = {}
    for h in hexes:
        rows.setdefault(h.r, []).append(h)
    left = min(2 * h.q + h.r for h in hexes)
    out = []
    for r in range(min(rows), max(rows) + 1):
        line = [" "] * (max(2 * h.q + h.r for h in hexes) - left + 1)
        for h in rows.get(r, []):
            line[2 * h.q + h.r - left] = "@" if (h.q, h.r) == (0, 0) else "o"
        out.append("".join(line).rstrip())
    return out


def summary(game: Game, b: Build) -> dict[str, Any]:
    """What `cardgen validate boss_fight FILE` prints for a build."""
    params = game.params if isinstance(game.params, dict) else {}
    names = params.get("stats") or {k: k for k in STATS}
    pts: dict[str, Any] = {"total": b.points(), "limit": b.limit if b.limit is not None else "none"}
    out: dict[str, Any] = {"name": b.name, "cards": sum(e.count for e in b.entries)}
    if b.kind == "boss":
        pts.update({"pieces": b.points(("boss_piece",)), "equipment": b.points(("equipment",)),
                    "abilities": b.points(("ability",))})
        out["points"] = pts
        out["stats"] = {names.get(k, k): v for k, v in boss_stats(b).items()}
        out["size"] = len(b.hexes)
        out["footprint"] = _cells_text(b.hexes)
        out["shape"] = shape_lines(b.hexes)
        out["movement"] = movement(game, b)
        out["slots"] = [f"{p.label} ({p.card.name}): {p.used} of {p.card.get('slots') or 0} used"
                        + (f" — {', '.join(e.name for e in p.equipment)}" if p.equipment else "")
                        for p in b.pieces if (p.card.get("slots") or 0) or p.equipment]
        out["abilities"] = ", ".join(a.name for a in b.characters[0].abilities) or "none"
        out["deck"] = sum(e.count for e in b.characters[0].deck)
    elif b.kind == "party":
        pts.update({"heroes": b.points(("hero",)), "equipment": b.points(("equipment",)),
                    "abilities": b.points(("ability",))})
        out["points"] = pts
        out["heroes"] = [_hero_line(params, h) for h in b.characters]
        out["players"] = _players(params, len(b.characters))
    else:
        out["side"] = b.side or "any"
        out["deck"] = sum(e.count for e in b.entries)
    return out


def _players(params: dict, heroes: int) -> str:
    """BF-PLAYERS-1: how many people can play this party (one Boss player, the rest share the heroes)."""
    pl = params.get("players") or {}
    boss = int(params.get("boss_players") or 1)
    lo = max(1, int(pl.get("min", 2)) - boss)
    hi = min(heroes, int(pl.get("max", 5)) - boss)
    if heroes < 1 or hi < lo:
        return f"{heroes} heroes: no legal table"
    span = f"{lo + boss}" if lo == hi else f"{lo + boss}–{hi + boss}"
    share = f"{lo}" if lo == hi else f"{lo}–{hi}"
    return (f"{heroes} hero{'es' if heroes != 1 else ''}: {span} players (one Boss player, {share} "
            f"sharing the party)")


def _hero_line(params: dict, h: Character) -> str:
    c = h.card
    short = params.get("stat_short") or {}
    stats = ", ".join(f"{short.get(k, k)} {c.get(k)}" for k in ("health", "intelligence", "strength", "agility",
                                                               "feat_cost"))
    used = sum(e.get("slots") or 0 for e in h.equipment)
    eq = f"slots {used} of {c.get('slots')}" + (f": {', '.join(e.name for e in h.equipment)}" if h.equipment else "")
    ab = f"abilities: {', '.join(a.name for a in h.abilities)}" if h.abilities else "no abilities"
    return f"{c.name} ({c.get('title')}): {stats}; {eq}; {ab}; deck {sum(e.count for e in h.deck)}"


# --------------------------------------------------------------------------- hooks


def check_file(game: Game, kind: str, body: Any, problems: Problems) -> dict[str, Any] | None:
    b = analyse(game, kind, body, problems)
    return summary(game, b) if b is not None else None


_MOVE_TEXT = re.compile(r"\bmove (?:up to )?(\d+) tiles?\b", re.IGNORECASE)


def check_game(game: Game, problems: Problems) -> None:
    """Content rules the field declarations of game.yaml cannot say (BF-CARD-1, -3, -4)."""
    for c in game.cards:
        if c.type == "boss_piece":
            seen = [tuple(x) for x in c.get("footprint") or []]     # [q, r] pairs: game.yaml
            if len(set(seen)) != len(seen):
                problems.error("BF-CARD-1", f"'{c.id}' ({c.name}): its footprint lists a hex twice", c.at("footprint"))
            if seen and (0, 0) not in seen:
                problems.error("BF-CARD-1", f"'{c.id}' ({c.name}): a footprint holds its anchor [0, 0] (it has "
                               f"{_cells_text([Hex(*x) for x in seen])})", c.at("footprint"))
        elif c.type == "equipment":
            if not any(c.get(k) is not None for k in ("basic", "heavy", "special")) and not c.get("text"):
                problems.error("BF-CARD-3", f"'{c.id}' ({c.name}) has neither an attack nor an effect", c.loc)
        elif c.type == "action":
            if c.get("kind") == "move":
                m = _MOVE_TEXT.search(c.get("text") or "")
                if m and c.get("move") is not None and int(m.group(1)) != c.get("move"):
                    problems.error("BF-CARD-4", f"'{c.id}' ({c.name}) says \"{m.group(0)}\" but its move is "
                                   f"{c.get('move')}", c.at("text"))
            elif c.get("move") is not None:
                problems.error("BF-CARD-4", f"'{c.id}' ({c.name}) is not a Move card but sets 'move'", c.at("move"))
            if c.get("attack") is not None and c.get("kind") != "attack":
                problems.error("BF-CARD-4", f"'{c.id}' ({c.name}) is not an Attack card but sets 'attack'",
                               c.at("attack"))


def printables() -> dict[str, Any]:
    return {"card-list": build_card_list, "presets": build_presets}


# --------------------------------------------------------------------------- printables


def _styles(game: Game):
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase.pdfmetrics import registerFontFamily

    from ..fonts import font
    f = game.fonts
    for role in ("regular", "bold", "italic", "bolditalic"):
        font(f[role])
    registerFontFamily(f["regular"], normal=f["regular"], bold=f["bold"], italic=f["italic"],
                       boldItalic=f["bolditalic"])
    ink = colors.HexColor(game.colors.get("ink", "#000000"))
    base = ParagraphStyle("base", fontName=f["regular"], fontSize=8, leading=10, textColor=ink)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7, leading=8.6),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.2, leading=8.6),
        "title": ParagraphStyle("title", parent=base, fontName=f["bold"], fontSize=20, leading=24, spaceAfter=2),
        "sub": ParagraphStyle("sub", parent=base, fontName=f["italic"], fontSize=9, leading=12, spaceAfter=8,
                              textColor=colors.HexColor(game.colors.get("muted", "#555555"))),
        "h1": ParagraphStyle("h1", parent=base, fontName=f["bold"], fontSize=14, leading=17, spaceBefore=8,
                             spaceAfter=4, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=base, fontName=f["bold"], fontSize=10.5, leading=13, spaceBefore=6,
                             spaceAfter=3, keepWithNext=1),
    }


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _markup(game: Game, text: str) -> str:
    """Card text markup (**bold**, *italic*, {icon}) → reportlab paragraph markup."""
    s = _esc(text)
    s = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s)
    s = re.sub(r"\*(.+?)\*", r"<i>\1</i>", s)

    def icon(m):
        ic = game.icons.get(m.group(1))
        if ic is None:
            return m.group(0)
        return f'<font color="{ic.color or "#000000"}">{_esc(ic.glyph)}</font>'
    return re.sub(r"\{([a-z0-9_]+)\}", icon, s)


def _table(game: Game, st, head: list[str], rows: list[list[Any]], widths: list[float], set_key: str):
    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Table, TableStyle
    hs = st["cell"].clone("head", fontName=game.fonts["bold"], textColor=colors.white)
    data = [[Paragraph(_esc(h), hs) for h in head]]
    for r in rows:
        data.append([c if not isinstance(c, str) else Paragraph(c, st["cell"]) for c in r])
    t = Table(data, colWidths=[w * mm for w in widths], repeatRows=1)
    band = colors.HexColor(game.colors.get(set_key, "#333333"))
    t.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), band),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f4efe3")]),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#c9bda3")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
    ]))
    return t


def _attack_cell(line: Any) -> str:
    if not isinstance(line, dict):
        return "—"
    return f"<b>{line.get('damage')}</b> dmg · range {line.get('range')}" + (" · sight" if line.get("sight") else "")


def _doc(game: Game, buf, title: str, subject: str):
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate
    ps = game.print
    return SimpleDocTemplate(buf, pagesize=(ps.page_w * mm, ps.page_h * mm), leftMargin=14 * mm,
                             rightMargin=14 * mm, topMargin=14 * mm, bottomMargin=14 * mm, title=title,
                             author=str(game.meta.get("designer") or "cardgen"), subject=subject,
                             creator="cardgen", invariant=1)


def _footer(game: Game, label: str):
    from reportlab.lib.units import mm

    def draw(canv, doc):
        canv.saveState()
        canv.setFont(game.fonts["regular"], 7)
        canv.drawString(14 * mm, 8 * mm, f"{game.title} — {label}")
        canv.drawRightString(doc.pagesize[0] - 14 * mm, 8 * mm, f"page {doc.page}")
        canv.restoreState()
    return draw


def build_card_list(laid, **_opts) -> dict[str, bytes]:
    """card-list.pdf — the seed's Card List: every card by set and type, key stats, points."""
    from reportlab.platypus import Paragraph

    game: Game = laid.game
    st = _styles(game)
    params = game.params if isinstance(game.params, dict) else {}
    sets = params.get("sets") or {}
    kinds = params.get("action_kinds") or {}
    attacks = params.get("attacks") or {}
    consts = params.get("constitutions") or {}
    ptypes = params.get("piece_types") or {}
    stat_names = params.get("stats") or {}
    story: list = [Paragraph(_esc(game.title), st["title"]),
                   Paragraph(f"Card List — {len(game.cards)} unique cards, "
                             f"{sum(c.copies for c in game.cards)} printed. Points are what a card costs a side "
                             f"(the beginner Points Limit is {params.get('points_limit')}); action cards cost "
                             "nothing.", st["sub"])]
    icon = {k: f'<font color="{v.color or "#000000"}">{_esc(v.glyph)}</font>' for k, v in game.icons.items()}

    def of(set_key, type_key):
        return sorted((c for c in game.cards if c.get("set") == set_key and c.type == type_key),
                      key=lambda c: (c.get("piece_type") and list(ptypes).index(c.get("piece_type")), c.name))

    def size(c):
        n = len(c.get("footprint") or [])
        return str(n) if n else "—"

    sections = {
        "boss_piece": (["Boss Piece", "Type", "HP", "INT", "STR", "AGI", "Slots", "Size", "Copies", "Points"],
                       [46, 18, 11, 11, 11, 11, 12, 12, 14, 14],
                       lambda c: [f"<b>{_esc(c.name)}</b>", ptypes.get(c.get("piece_type"), c.get("piece_type")),
                                  *(str(c.get(k)) for k in ("health", "intelligence", "strength", "agility",
                                                            "slots")), size(c), str(c.copies),
                                  f"<b>{c.get('points')}</b>"]),
        "hero": (["Hero", "Constitution", "HP", "INT", "STR", "AGI", "Feat", "Slots", "Points"],
                 [52, 30, 11, 11, 11, 11, 12, 12, 14],
                 lambda c: [f"<b>{_esc(c.name)}</b>, {_esc(c.get('title'))}",
                            f"{icon.get(c.get('constitution'), '')} "
                            f"{_esc((consts.get(c.get('constitution')) or {}).get('name', c.get('constitution')))}",
                            *(str(c.get(k)) for k in ("health", "intelligence", "strength", "agility", "feat_cost",
                                                      "slots")), f"<b>{c.get('points')}</b>"]),
        "equipment": (["Equipment", "Slots", "Statistic", "Basic", "Heavy", "Special", "Copies", "Points"],
                      [30, 9, 21, 33, 33, 33, 11, 11],
                      lambda c: [f"<b>{_esc(c.name)}</b>", str(c.get("slots")),
                                 f"{icon.get(c.get('stat'), '')} {_esc(stat_names.get(c.get('stat'), ''))}",
                                 _attack_cell(c.get("basic")), _attack_cell(c.get("heavy")),
                                 _attack_cell(c.get("special")), str(c.copies), f"<b>{c.get('points')}</b>"]),
        "ability": (["Ability", "Use", "Requires", "Copies", "Points"], [44, 18, 94, 14, 14],
                    lambda c: [f"<b>{_esc(c.name)}</b>", c.get("usage").title(),
                               _markup(game, c.get("requires")) if c.get("requires") else "—", str(c.copies),
                               f"<b>{c.get('points')}</b>"]),
        "action": (["Action", "Kind", "Does", "Deck limit", "Copies"], [40, 26, 86, 18, 14],
                   lambda c: [f"<b>{_esc(c.name)}</b>",
                              kinds.get(c.get("kind"), c.get("kind")) +
                              (f" {c.get('move')}" if c.get("move") is not None else "") +
                              (f" · {attacks.get(c.get('attack'))}" if c.get("attack") else ""),
                              _markup(game, c.get("text")),
                              str(c.get("max_copies") or (params.get("deck") or {}).get("copy_limit", "")),
                              str(c.copies)]),
        "token": (["Token", "Obstacle", "Does", "Copies"], [40, 18, 112, 14],
                  lambda c: [f"<b>{_esc(c.name)}</b>", "yes" if c.get("obstacle") else "no",
                             _markup(game, c.get("text")), str(c.copies)]),
    }
    plural = {"boss_piece": "Boss Pieces", "hero": "Heroes", "equipment": "Equipment", "ability": "Abilities",
              "action": "Actions", "token": "Tokens"}
    for set_key, set_name in sets.items():
        story.append(Paragraph(_esc(set_name), st["h1"]))
        for type_key in sorted(game.card_types, key=lambda t: t == "action"):   # actions last, as the seed
            cards = of(set_key, type_key)
            if not cards:
                continue
            head, widths, row = sections[type_key]
            story.append(Paragraph(f"{_esc(plural[type_key])} ({len(cards)})", st["h2"]))
            story.append(_table(game, st, head, [row(c) for c in cards], widths, set_key))
    buf = io.BytesIO()
    doc = _doc(game, buf, f"{game.title} — Card List", "card list")
    doc.build(story, onFirstPage=_footer(game, "Card List"), onLaterPages=_footer(game, "Card List"))
    return {"card-list.pdf": buf.getvalue()}


class Diagram(Flowable):
    """A platypus flowable drawing scene primitives (millimetres, y down) in a w × h box."""

    def __init__(self, items: list, w: float, h: float):
        super().__init__()
        self.items, self.w, self.h = items, w, h

    def wrap(self, *_a):
        return self.w * MM, self.h * MM

    def draw(self):
        c, h = self.canv, self.h
        for it in self.items:
            if isinstance(it, Polygon):
                p = c.beginPath()
                (x0, y0), *rest = it.points
                p.moveTo(x0 * MM, (h - y0) * MM)
                for x, y in rest:
                    p.lineTo(x * MM, (h - y) * MM)
                p.close()
                if it.fill:
                    c.setFillColor(HexColor(it.fill))
                if it.stroke:
                    c.setStrokeColor(HexColor(it.stroke))
                    c.setLineWidth(it.width * MM)
                c.drawPath(p, stroke=int(bool(it.stroke)), fill=int(bool(it.fill)))
            elif isinstance(it, Circle):
                c.setFillColor(HexColor(it.fill or "#000000"))
                c.circle(it.cx * MM, (h - it.cy) * MM, it.r * MM, stroke=0, fill=1)
            elif isinstance(it, Text):
                c.setFillColor(HexColor(it.color))
                c.setFont(it.font, it.size)
                c.drawCentredString(it.x * MM, (h - it.y) * MM, it.text)


PIECE_TINTS = ("#d9c7a3", "#b9d3c2", "#c9c2e0", "#e6c3b5", "#bcd0e6", "#e3dba6", "#d4b8cf", "#c3d9a5",
               "#e0c9a0", "#a9cfd4")


def build_presets(laid, **_opts) -> dict[str, bytes]:
    """presets.pdf — one reference sheet per preset: computed figures, footprint, cards, deck list."""
    from reportlab.platypus import KeepTogether, PageBreak, Paragraph

    game: Game = laid.game
    st = _styles(game)
    params = game.params if isinstance(game.params, dict) else {}
    story: list = []
    builds = []
    for path in cols.collection_files(game):
        scratch = Problems()
        kind, body, _ = cols.load_collection_file(path, game, scratch)
        b = analyse(game, kind, body, scratch) if kind else None
        if b is not None:
            builds.append((path, b, scratch))
    order = {"boss": 0, "party": 1, "deck": 2}
    builds.sort(key=lambda x: (order[x[1].kind], x[1].name))
    for i, (path, b, scratch) in enumerate(builds):
        if i:
            story.append(PageBreak())
        story += _sheet(game, st, params, path, b, scratch, KeepTogether, Paragraph)
    if not story:
        story.append(Paragraph("No presets.", st["base"]))
    buf = io.BytesIO()
    doc = _doc(game, buf, f"{game.title} — Presets", "preset reference sheets")
    doc.build(story, onFirstPage=_footer(game, "Presets"), onLaterPages=_footer(game, "Presets"))
    return {"presets.pdf": buf.getvalue()}


def _deck_rows(game: Game, entries: list[Entry]) -> list[str]:
    kinds = (game.params or {}).get("action_kinds") or {}
    merged: dict[str, int] = {}
    for e in entries:
        merged[e.id] = merged.get(e.id, 0) + e.count
    by_id = {c.id: c for c in game.cards}
    out = []
    for cid, n in merged.items():
        c = by_id[cid]
        out.append(f"<b>{n}×</b> {_esc(c.name)} <font color='#6b6256'>({kinds.get(c.get('kind'), c.type)})</font>")
    return out


def _sheet(game, st, params, path, b: Build, scratch: Problems, KeepTogether, Paragraph) -> list:
    from reportlab.lib.units import mm
    from reportlab.platypus import Spacer

    from ..elements.footprint import diagram
    kind_name = {"boss": "Boss build", "party": "Hero party", "deck": "Action deck"}[b.kind]
    limit = f"of {b.limit}" if b.limit is not None else "(no limit)"
    if b.kind == "deck":
        side = {"boss": "for a boss", "hero": "for a hero"}.get(b.side or "", "for either side")
        figure = f"{sum(e.count for e in b.entries)} cards {side} (actions cost no points)"
    else:
        figure = f"<b>{b.points()} points</b> {limit}"
    out: list = [Paragraph(_esc(b.name), st["title"]),
                 Paragraph(f"{kind_name} · {figure} · preset file {_esc(path.name)}", st["sub"])]
    if scratch.has_errors:
        out.append(Paragraph(f"<font color='#b3261e'><b>This preset breaks {len(scratch.errors)} rule(s)</b>; run "
                             f"cardgen validate {game.slug} {_esc(path.name)}.</font>", st["base"]))
    set_key = "boss" if b.side == "boss" else "hero" if b.side == "hero" else "neutral"
    stat_names = params.get("stats") or {}
    if b.kind == "boss":
        stats = boss_stats(b)
        out.append(Paragraph("Boss statistics (the sums of its pieces)", st["h2"]))
        head = [stat_names.get(k, k) for k in STATS] + ["Size", "Movement (BF-MOVE-2)"]
        out.append(_table(game, st, head, [[f"<b>{stats[k]}</b>" for k in STATS] +
                                           [f"<b>{len(b.hexes)}</b> hex{'es' if len(b.hexes) != 1 else ''}",
                                            _esc(movement(game, b))]],
                          [19, 23, 19, 19, 27, 19, 56], set_key))
        tints = {}
        for k, p in enumerate(b.pieces):
            for h in p.cells:
                tints.setdefault((h.q, h.r), PIECE_TINTS[k % len(PIECE_TINTS)])
        cells = [(h.q, h.r) for h in b.hexes]
        items = diagram(cells, 0, 0, 80, 52, max_hex=13, fill="#d9c7a3", stroke=game.colors.get("ink", "#000000"),
                        width=0.35, anchor=game.colors.get("boss"), empty="1 hex",
                        font=game.fonts["italic"], fills=tints)
        out.append(Paragraph("Footprint (each colour one piece; the dot is the build's anchor [0, 0])", st["h2"]))
        out.append(Diagram(items, 80, 52))
        rows = []
        for k, p in enumerate(b.pieces):
            swatch = f"<font color='{PIECE_TINTS[k % len(PIECE_TINTS)]}'>■</font>" if p.cells else "·"
            rows.append([f"{swatch} <b>{_esc(p.label)}</b>", _esc(p.card.name),
                         _esc((params.get("piece_types") or {}).get(p.card.get("piece_type"), "")),
                         f"[{p.at.q}, {p.at.r}]" + (f", turned {p.rotate}×60°" if p.rotate else "")
                         if p.cells else "—",
                         *(str(p.card.get(k)) for k in STATS),
                         _slot_text(p),
                         f"<b>{p.card.get('points')}</b>"])
        out.append(Paragraph("Pieces", st["h2"]))
        short = params.get("stat_short") or {}
        out.append(_table(game, st, ["Piece", "Card", "Type", "Placed at", *(short.get(k, k) for k in STATS),
                                     "Equipment slots", "Points"], rows,
                          [26, 28, 14, 19, 9, 9, 9, 9, 11, 39, 11], set_key))
        boss = b.characters[0]
        out += _gear(game, st, boss, set_key)
        out.append(Paragraph(f"Action deck ({sum(e.count for e in boss.deck)} cards)", st["h2"]))
        out.append(_columns(game, st, _deck_rows(game, boss.deck)))
    elif b.kind == "party":
        short = params.get("stat_short") or {}
        consts = params.get("constitutions") or {}
        for h in b.characters:
            c = h.card
            ic = game.icons.get(c.get("constitution"))
            glyph = f"<font color='{ic.color}'>{_esc(ic.glyph)}</font> " if ic else ""
            block = [Paragraph(f"{glyph}{_esc(c.name)}, {_esc(c.get('title'))} — "
                               f"{_esc((consts.get(c.get('constitution')) or {}).get('name', ''))} · "
                               f"{c.get('points')} points", st["h1"])]
            keys = ("health", "intelligence", "strength", "agility", "feat_cost", "slots")
            block.append(_table(game, st, [short.get(k, k) for k in keys],
                                [[f"<b>{c.get(k)}</b>" for k in keys]], [30] * 6, set_key))
            block.append(Paragraph(f"<b>{_esc(c.get('ability_name'))}:</b> {_markup(game, c.get('ability'))}<br/>"
                                   f"<b>Heroic Feat — {_esc(c.get('feat_name'))}</b> (expend {c.get('feat_cost')}): "
                                   f"{_markup(game, c.get('feat'))}", st["small"]))
            block += _gear(game, st, h, set_key)
            block.append(Paragraph(f"Action deck ({sum(e.count for e in h.deck)} cards)", st["h2"]))
            block.append(_columns(game, st, _deck_rows(game, h.deck)))
            out.append(KeepTogether(block))
            out.append(Spacer(1, 3 * mm))
    else:
        out.append(Paragraph(f"Action deck ({sum(e.count for e in b.entries)} cards)", st["h2"]))
        out.append(_columns(game, st, _deck_rows(game, b.entries)))
    return out


def _slot_text(p: Piece) -> str:
    if not (p.card.get("slots") or p.equipment):
        return "—"
    held = (": " + ", ".join(_esc(e.name) for e in p.equipment)) if p.equipment else ""
    return f"{p.used} of {p.card.get('slots') or 0} used{held}"


def _gear(game, st, ch: Character, set_key: str) -> list:
    from reportlab.platypus import Paragraph
    out = []
    stat_names = (game.params or {}).get("stats") or {}
    if ch.equipment:
        rows = [[f"<b>{_esc(e.name)}</b>", str(e.get("slots")), _esc(stat_names.get(e.get("stat"), "")),
                 _attack_cell(e.get("basic")), _attack_cell(e.get("heavy")), _attack_cell(e.get("special")),
                 f"<b>{e.get('points')}</b>"] for e in ch.equipment]
        out.append(Paragraph("Equipment", st["h2"]))
        out.append(_table(game, st, ["Equipment", "Slots", "Statistic", "Basic", "Heavy", "Special", "Points"],
                          rows, [36, 11, 21, 28, 28, 28, 12], set_key))
    if ch.abilities:
        rows = [[f"<b>{_esc(a.name)}</b>", a.get("usage").title(), _markup(game, a.get("text")),
                 f"<b>{a.get('points')}</b>"] for a in ch.abilities]
        out.append(Paragraph("Abilities", st["h2"]))
        out.append(_table(game, st, ["Ability", "Use", "Effect", "Points"], rows, [34, 16, 120, 14], set_key))
    return out


def _columns(game, st, rows: list[str]):
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Table, TableStyle
    half = (len(rows) + 1) // 2
    left, right = rows[:half], rows[half:]
    data = [[Paragraph(a, st["base"]), Paragraph(right[i] if i < len(right) else "", st["base"])]
            for i, a in enumerate(left)]
    t = Table(data or [[""]], colWidths=[91 * mm, 91 * mm])
    t.setStyle(TableStyle([("TOPPADDING", (0, 0), (-1, -1), 0.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6),
                           ("LEFTPADDING", (0, 0), (-1, -1), 1)]))
    return t


def boss_footprints(game: Game, problems: Problems) -> list[tuple[str, list[tuple[int, int]]]]:
    """Every preset boss's footprint (axial cells), for the maps' start checks (BF-PLACE-1)."""
    out = []
    for path in cols.collection_files(game):
        kind, body, _ = cols.load_collection_file(path, game, problems)
        if kind == "boss" and isinstance(body, YDict):
            b = read_boss(game, body, problems)
            out.append((f"preset boss '{b.name}'", [(h.q, h.r) for h in b.hexes]))
    return out

"""Boss Fight: the model of a build and reading boss, party and deck files.

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
each card's set against its side (BF-BUILD-5, params ``side_sets``), abilities' requirements
(the card's ``needs``; a warning under BF-BUILD-4 when unmet as built).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import collections as cols
from ...constraints import Collection, Entry, evaluate
from ...hexgrid import Hex, is_connected, neighbors, rotate
from ...model import Card, Game
from ...problems import Loc, Problems, did_you_mean
from ...yamlsrc import YDict, YList

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
        placed = True       # a bad `at:` or `rotate:` (reported) leaves the piece unplaced: no overlap at a default
        if "at" in it:
            h = _cell(it["at"])
            if h is None:
                problems.error("YAML-TYPE", f"'at' of piece '{cid}' must be an axial cell [q, r] of whole numbers, "
                               f"not {it['at']!r}", it.at("at"))
                placed = False
            else:
                at = h
        turn = it.get("rotate", 0)
        if isinstance(turn, bool) or not isinstance(turn, int):
            problems.error("YAML-TYPE", f"'rotate' of piece '{cid}' must be a whole number of 60° steps, "
                           f"not {turn!r}", it.at("rotate"))
            turn, placed = 0, False
        label = it.get("as", cid)
        if not isinstance(label, str):
            problems.error("YAML-TYPE", f"'as' of piece '{cid}' must be a name", it.at("as"))
            label = cid
        p = Piece(card, label, at, turn % 6, loc, at_loc)
        p.cells = [at + rotate(Hex(q, r), p.rotate) for q, r in (card.get("footprint") or [])
                   if placed and isinstance(q, int) and isinstance(r, int)]
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
            stats = {k: sum(p.card.get(k) or 0 for p in b.pieces) for k in STATS}
            if not rd.waits:        # a piece failed to load: the boss's stats are not known
                check_needs(game, card, loc, what, {p.card.get("piece_type") for p in b.pieces}, stats, None,
                            problems)
    boss.deck, boss.deck_loc = rd.deck(body, f"the action deck of {what}", Problems())   # loader reported ids
    b.entries += boss.deck
    b.waits = rd.waits
    if not b.waits:
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
                check_needs(game, ab, aloc, card.name, None, {k: card.get(k) or 0 for k in STATS},
                            card.get("constitution"), problems)
        hero.deck, hero.deck_loc = rd.deck(it, f"the action deck of {card.name}")
        b.entries += hero.deck
    b.waits = rd.waits
    return b


def read_deck(game: Game, body: YDict, problems: Problems) -> Build:
    name = _name(body)
    side = body.get("side")
    sides = side_sets(game)
    if side is not None and (not isinstance(side, str) or side not in sides):
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
    if b.waits:
        return b
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


def boss_footprints(game: Game, problems: Problems) -> list[tuple[str, list[tuple[int, int]]]]:
    """Every preset boss's footprint (axial cells), for the maps' start checks (BF-PLACE-1)."""
    out = []
    for path in cols.collection_files(game):
        kind, body, _ = cols.load_collection_file(path, game, problems)
        if kind == "boss" and isinstance(body, YDict):
            b = read_boss(game, body, problems)
            out.append((f"preset boss '{b.name}'", [(h.q, h.r) for h in b.hexes]))
    return out

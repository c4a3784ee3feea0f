"""Boss Fight builds: reading a boss build file (pieces placed and joined, BF-BUILD-2; equipment in
free slots, BF-BUILD-3; abilities' requirements; see :mod:`.builds`)."""


from __future__ import annotations

from cardgen.content.model import Card, Game
from cardgen.core.hexgrid import Hex, is_connected, rotate
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict
from cardgen.games.boss_fight.build_model import (
    STATS,
    Build,
    Character,
    Piece,
    _cell,
    _cells_text,
    _components,
    _entry,
    _limit,
    _name,
    _Reader,
    check_needs,
)


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
        if card.type != "equipment" or card.get("set") != "boss" or rd.waits:
            continue        # (waits: a piece failed to load, the pieces and their slots are not known)
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
    assert it is not None                       # on was read from it
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

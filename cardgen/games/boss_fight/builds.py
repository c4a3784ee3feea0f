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

from cardgen.content import collection_files as cols
from cardgen.content.constraints import Collection, evaluate
from cardgen.content.model import Game
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.yamlsrc import YDict
from cardgen.games.boss_fight.build_boss import read_boss
from cardgen.games.boss_fight.build_model import (
    STATS,
    Build,
    Character,
    Piece,
    _a,
    _cells_text,
    _entry,
    _limit,
    _name,
    _Reader,
    check_needs,
    need_phrases,
    side_sets,
)

__all__ = ["STATS", "Build", "Character", "Piece", "_cells_text", "analyse", "boss_footprints", "need_phrases",
           "read_boss", "read_deck", "read_party"]


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
        if s not in allowed and s in names:      # a set that is none of the game's: the card's own slip (BF-CARD-*)
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

"""The game as an older rulebook version knew it: its own card data, kept with its rules.

An older version's folder (``rules/<game>/versions/<v>/``) may hold what differed then, and only
that — every number stays written once, today's in ``cards/`` and ``params.yaml``, the old one
in the version it belongs to:

``params.yaml``  rules parameters that differed, merged over today's (``null`` removes a key:
                 a ruling that version did not have yet)
``cards.yaml``   ``cards: [{id: …, <field>: …}]``: for each card that read differently, the
                 fields that differed, checked as the card files' fields are

The version's chapters, its card pictures and its cover then read that game; its title page
says which cards it pictures. A version without either file pictures today's cards, and says so.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from cardgen.content.cardfile import parse_card
from cardgen.content.model import Card, Game
from cardgen.core.options import Opt, check_mapping
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, load_yaml
from cardgen.rulebook.source import Version

PARAMS_FILE = "params.yaml"
CARDS_FILE = "cards.yaml"


def own_data(version: Version) -> list[Path]:
    """The card-data files an older version keeps (none for the current version)."""
    if version.current:
        return []
    return [p for p in (version.folder / PARAMS_FILE, version.folder / CARDS_FILE) if p.is_file()]


def merge(base: Any, over: Any, problems: Problems, path: str = "params") -> Any:
    """``over`` merged into ``base``: mappings key by key, anything else replaced; ``null`` removes.
    A key today's params do not have is reported (a warning: an old version may have had it)."""
    if not isinstance(base, dict) or not isinstance(over, dict):
        return over
    out = dict(base)
    for k, v in over.items():
        if k not in base:
            hint = did_you_mean(str(k), [str(x) for x in base])
            problems.warning("RULEBOOK-META", f"{path} has no key '{k}' today; the older version adds it",
                             over.at(k) if isinstance(over, YDict) else None, hint=hint)
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge(base.get(k), v, problems, f"{path}.{k}")
    return out


def versioned_game(game: Game, version: Version, problems: Problems) -> Game:
    """``game`` as ``version`` pictures it: the game itself unless the version keeps its own data."""
    files = own_data(version)
    if not files:
        return game
    params = game.params
    cards = list(game.cards)
    pfile, cfile = version.folder / PARAMS_FILE, version.folder / CARDS_FILE
    if pfile in files:
        raw = load_yaml(pfile, problems)
        if isinstance(raw, dict):
            params = merge(game.params if isinstance(game.params, dict) else {}, raw, problems)
        elif raw is not None:
            problems.error("YAML-TYPE", f"{PARAMS_FILE} of version {version.version} must be a mapping of "
                           "the parameters that differed", getattr(raw, "loc", None))
    if cfile in files:
        cards = _cards(game, cfile, problems)
    return dataclasses.replace(game, params=params, cards=cards)


def _cards(game: Game, path: Path, problems: Problems) -> list[Card]:
    """Today's cards with the version's differing fields in place."""
    doc = load_yaml(path, problems)
    if doc is None:
        return list(game.cards)
    res = check_mapping(doc, {"cards": Opt("list", required=True, doc="each card that read differently: "
                                           "its id and the fields that differed")}, problems, path.name)
    if not res.ok:
        return list(game.cards)
    by_id = game.cards_by_id
    changed: dict[str, Card] = {}
    for i, entry in enumerate(doc["cards"]):
        loc = doc["cards"].at(i)
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            problems.error("YAML-TYPE", "each entry names a card by its id, with the fields that differed", loc)
            continue
        cid = entry["id"]
        base = by_id.get(cid)
        if base is None:
            problems.error("RULEBOOK-CARD", f"unknown card id '{cid}'",
                           entry.at("id") if isinstance(entry, YDict) else loc,
                           hint=did_you_mean(cid, by_id))
            continue
        if cid in changed:
            problems.error("CARD-DUPLICATE-ID", f"card '{cid}' is listed twice", loc)
            continue
        if "type" in entry and entry["type"] != base.type:
            problems.error("RULEBOOK-CARD", f"card '{cid}' cannot change its type in an older version "
                           f"(today: {base.type})", entry.at("type") if isinstance(entry, YDict) else loc)
            continue
        card = parse_card(entry, base.fields, game.card_types, game.colors, problems, loc)
        if card is not None:
            changed[cid] = card
    return [changed.get(c.id, c) for c in game.cards]

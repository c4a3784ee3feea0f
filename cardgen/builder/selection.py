"""Printing a subset: which printables (``build --only``) and which cards (``--cards``).

A card selection is a comma-separated list of card ids, ``type:<card type>``,
``set:<set>``, or the path of a deck/party/build file — which selects exactly that file's
cards at its counts. Whatever names nothing is a usage error with the nearest names.
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path

from cardgen.content import collection_files as cols
from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.core.problems import Problems, hint_for
from cardgen.core.record import record
from cardgen.layout.imposition import Placement

#: ``--only`` groups: a word designers use → the printables it means
GROUPS: dict[str, tuple[str, ...]] = {
    "cards": ("cards", "duplex-calibration"),
    "boards": ("maps", "board", "mats"),
    "rulebooks": ("rulebook",),
    "tokens": ("tokens",),
}


class SelectionError(Exception):
    """A selection that names nothing (a usage error, exit 2)."""


def printables(only: list[str], available: list[str]) -> list[str]:
    """The printables ``--only`` asks for, among those a game has (in the game's order)."""
    wanted: set[str] = set()
    for word in only:
        for w in (x.strip() for x in word.split(",") if x.strip()):
            if w in GROUPS:
                wanted |= set(GROUPS[w])
            elif w in available:
                wanted.add(w)
            else:
                hint = hint_for(w, [*GROUPS, *available])
                raise SelectionError(f"--only {w!r} names no printable" + (f"; {hint}" if hint else "") +
                                     f" (groups: {', '.join(GROUPS)}; printables: {', '.join(available)})")
    return [p for p in available if p in wanted]


@record
class CardSelection:
    """The cards ``--cards`` picks, with their copies."""

    label: str                                  # for the output file names
    counts: dict[str, int] = field(default_factory=dict)   # card id → copies (None: the card's own)
    whole: set[str] = field(default_factory=set)           # card ids at their own copies


def select_cards(text: str, game: Game, root: Path, problems: Problems) -> CardSelection:
    """Parse ``--cards``; deck files are read with the validator's own reader."""
    sel = CardSelection(label="")
    labels = []
    ids = {c.id: c for c in game.cards}
    for part in (x.strip() for x in text.split(",") if x.strip()):
        key, _, val = part.partition(":")
        if val and key in ("type", "set"):
            if key == "type":
                hit = [c.id for c in game.cards if c.type == val]
                names = list(game.card_types)
            else:
                hit = [c.id for c in game.cards if str(c.get("set")) == val]
                names = sorted({str(c.get("set")) for c in game.cards if c.get("set") is not None})
            if not hit:
                hint = hint_for(val, names)
                raise SelectionError(f"--cards {part!r} selects no card" + (f"; {hint}" if hint else "") +
                                     f" ({key}s: {', '.join(names)})")
            sel.whole |= set(hit)
            labels.append(val)
        elif part.endswith((".yaml", ".yml")) or "/" in part:
            path = Path(part)
            path = path if path.is_absolute() else (Path.cwd() / path)
            if not sources.is_file(path):
                raise SelectionError(f"--cards {part!r}: no such deck, party or build file")
            _, body, collections = cols.load_collection_file(path.resolve(), game, problems)
            for coll in collections:
                for e in coll.entries:
                    if e.id in ids:
                        sel.counts[e.id] = sel.counts.get(e.id, 0) + e.count
            if isinstance(body, dict):      # the file's other cards: a build's pieces, equipment, abilities
                for key, value in body.items():
                    if key != "cards":
                        for cid in _named_cards(value, ids):
                            sel.counts[cid] = sel.counts.get(cid, 0) + 1
            labels.append(path.stem)
        elif part in ids:
            sel.whole.add(part)
            labels.append(part)
        else:
            hint = hint_for(part, ids)
            raise SelectionError(f"--cards {part!r} names no card, type:, set: or file" +
                                 (f"; {hint}" if hint else ""))
    sel.label = re.sub(r"[^A-Za-z0-9_.-]+", "-", "+".join(labels))[:80].strip("-") or "selection"
    return sel


def _named_cards(value: object, ids: dict) -> list[str]:
    """Card ids a deck-like file names outside its ``cards``: ``{id: …}`` entries and plain ids."""
    if isinstance(value, str):
        return [value] if value in ids else []
    if isinstance(value, dict):
        if isinstance(value.get("id"), str) and value["id"] in ids:
            return [value["id"]]
        return [c for v in value.values() for c in _named_cards(v, ids)]
    if isinstance(value, list):
        return [c for v in value for c in _named_cards(v, ids)]
    return []


def apply(groups: dict[str, list[Placement]], sel: CardSelection) -> dict[str, list[Placement]]:
    """The placements of the selection: whole cards at their copies, file entries at their counts."""
    out: dict[str, list[Placement]] = {}
    for size, placements in groups.items():
        keep: list[Placement] = []
        first: dict[str, Placement] = {}
        for pl in placements:
            first.setdefault(pl.card_id, pl)
            if pl.card_id in sel.whole:
                keep.append(pl)
        for cid, n in sel.counts.items():
            if cid in first and cid not in sel.whole:
                pl = first[cid]
                keep += [Placement(pl.card_id, pl.name, k + 1, pl.front, pl.back, pl.bleed) for k in range(n)]
        if keep:
            out[size] = keep
    return out

"""``cardgen export``: choose the cards, render their faces for the target, write the files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from cardgen.builder.selection import CardSelection
from cardgen.content.model import Card, Game
from cardgen.core.problems import Loc, Problems
from cardgen.export import services, tts
from cardgen.export.faces import render_faces
from cardgen.export.raster import Target

DEFAULT_DPI = {"png": 300, "tts": 200}


class ExportError(Exception):
    """A usage problem (unknown target): exit 2."""


def targets(root: Path) -> list[str]:
    return ["png", "tts", *services.available(root)]


def chosen(game: Game, sel: CardSelection | None) -> list[tuple[Card, int]]:
    """(card, copies) in the game's order: the selection's, or every card at its copies."""
    out = []
    for c in game.cards:
        if c.dangling:
            continue
        if sel is None or c.id in sel.whole:
            out.append((c, c.copies))
        elif c.id in sel.counts:
            out.append((c, sel.counts[c.id]))
    return out


def export(game: Game, to: str, sel: CardSelection | None, dpi: int | None, trim: bool, url: str | None,
           problems: Problems, progress: Callable[[int], None] | None = None,
           workers: int | None = None) -> tuple[dict[str, bytes], int]:
    """Files to write (relative name → bytes) and how many faces were rendered."""
    cards = chosen(game, sel)
    if to in ("png", "tts"):
        service = None
        safe = game.print.safe
    elif to in services.available(game.root):
        service = services.load(game.root, to, problems)
        if service is None:
            return {}, 0
        safe = service.safe
    else:
        raise ExportError(to)
    by_size: dict[str, list[tuple[Card, int]]] = {}
    for c, n in cards:
        by_size.setdefault(game.card_types[c.type].size, []).append((c, n))
    files: dict[str, bytes] = {}
    rendered = 0
    manifest = {"game": game.slug, "target": to, "faces": []}
    for size, group in by_size.items():
        ct = game.card_types[group[0][0].type]
        if service is not None:
            if not services.fits(service, ct.width, ct.height):
                problems.error("EXPORT-SIZE", f"{ct.name} cards are {ct.width:g} × {ct.height:g} mm; {service.name} "
                               f"takes {service.trim[0]:g} × {service.trim[1]:g} mm", ct.loc,
                               hint="choose cards of that size with --cards type:…")
                continue
            if (ct.width, ct.height) != service.trim:
                problems.note("EXPORT-SIZE", f"{ct.name} cards ({ct.width:g} × {ct.height:g} mm) are centred on "
                              f"{service.name}'s {service.trim[0]:g} × {service.trim[1]:g} mm, the bleed extended",
                              ct.loc)
            target = Target(service.trim[0], service.trim[1], service.bleed, dpi or service.dpi)
        else:
            keep = 0.0 if (trim or to == "tts") else game.print.bleed
            target = Target(ct.width, ct.height, keep, dpi or DEFAULT_DPI[to])
        faces: dict[tuple[str, str], bytes] = {}
        for cid, side, data, probs in render_faces(game, [c for c, _ in group], target, safe, workers, progress):
            faces[(cid, side)] = data
            rendered += 1
            for r, sev, msg, loc, hint in probs:
                problems.add(r, sev, msg, loc if isinstance(loc, Loc) else None, hint)
        if to == "tts":
            decks = _decks(game, group, sel)
            sheets, saved = tts.build(decks, faces, url if url is not None else "", f"{game.slug}-{size}")
            files.update(sheets)
            files[f"{game.slug}-{size}.json"] = (json.dumps(saved, indent=1, ensure_ascii=False) + "\n").encode()
            continue
        naming = service.naming if service else "{id}{side}.png"
        for c, n in group:
            for side in ("front", "back"):
                name = naming.format(id=c.id, name=c.name, side="" if side == "front" else "-back", copy=1, n=n)
                files[name] = faces[(c.id, side)]
                manifest["faces"].append({"file": name, "id": c.id, "side": side, "copies": n,
                                          "px": list(target.px), "dpi": target.dpi})
    if to != "tts":
        files["export.json"] = (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode()
    return files, rendered


def _decks(game: Game, group: list[tuple[Card, int]], sel: CardSelection | None) -> list[tts.Deck]:
    """A deck file's cards as one deck; otherwise a deck per card type."""
    if sel is not None and sel.counts and not sel.whole:
        return [tts.Deck(sel.label, [(c.id, c.name, n) for c, n in group])]
    decks: dict[str, tts.Deck] = {}
    for c, n in group:
        ct = game.card_types[c.type]
        decks.setdefault(c.type, tts.Deck(ct.name, [])).cards.append((c.id, c.name, n))
    return list(decks.values())

"""Boss Fight: the figures computed for a build (what ``cardgen validate boss_fight FILE``
prints) and the ``check_file`` hook."""

from __future__ import annotations

from typing import Any

from cardgen.content.model import Game
from cardgen.core.hexgrid import Hex
from cardgen.core.problems import Problems
from cardgen.games.boss_fight.builds import STATS, Build, Character, _cells_text, analyse

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
    assert c is not None                        # a party's characters are its hero cards
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

"""Deck statistics: what designers tally by hand, for a card pool or a deck-like file.

Counts (every copy counts) by card type, by set and by cost; each numeric field's min, median
and max over the copies that have it; points totals; and a cost curve. A *cost* field is an
int or number field named ``cost`` or ``…_cost``; a *points* field one named ``points`` or
``…_points`` — the framework reads the names, no game is special.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeGuard

from cardgen.content.model import Game
from cardgen.core.lazymod import lazy

statistics = lazy("statistics")     # 2 ms of imports (fractions, decimal, random) only when a tally is made

BAR = 40            # the widest bar of the cost curve, in characters


def is_cost(name: str) -> bool:
    return name == "cost" or name.endswith("_cost")


def is_points(name: str) -> bool:
    return name == "points" or name.endswith("_points")


def numeric_fields(game: Game) -> list[str]:
    """The int and number fields of the game's card types, in game.yaml order."""
    out: list[str] = []
    for ct in game.card_types.values():
        out += [k for k, o in ct.fields.items() if o.kind.numeric and k not in out]
    return out


def _num(v: Any) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def summary(game: Game, entries: Iterable[tuple[dict[str, Any], int]]) -> dict[str, Any]:
    """``entries``: (card fields, copies) pairs → the statistics as plain data."""
    entries = [(f, n) for f, n in entries if n > 0]
    names = {k: ct.name for k, ct in game.card_types.items()}
    by_type: dict[str, int] = {}
    by_set: dict[str, int] = {}
    for f, n in entries:
        t = names.get(str(f.get("type")), str(f.get("type")))
        by_type[t] = by_type.get(t, 0) + n
        s = f.get("set") or "(no set)"
        by_set[str(s)] = by_set.get(str(s), 0) + n
    fields: dict[str, dict[str, Any]] = {}
    costs: dict[str, dict[str, int]] = {}
    points: dict[str, int | float] = {}
    for name in numeric_fields(game):
        values = [v for f, n in entries if _num(v := f.get(name)) for _ in range(n)]
        if not values:
            continue
        fields[name] = {"cards": len(values), "min": min(values), "median": statistics.median(values),
                        "max": max(values)}
        if is_cost(name):
            curve: dict[Any, int] = {}
            for v in values:
                curve[v] = curve.get(v, 0) + 1
            costs[name] = {str(k): curve[k] for k in sorted(curve)}
        if is_points(name):
            points[name] = sum(values)
    return {"cards": sum(n for _, n in entries), "designs": len(entries), "by_type": by_type, "by_set": by_set,
            "fields": fields, "by_cost": costs, "points": points}


def text(st: dict[str, Any]) -> list[str]:
    """The statistics as indented text lines."""
    out = [f"statistics: {st['cards']} cards ({st['designs']} designs)",
           "  by type: " + ", ".join(f"{k} {v}" for k, v in st["by_type"].items())]
    if len(st["by_set"]) > 1 or "(no set)" not in st["by_set"]:
        out.append("  by set: " + ", ".join(f"{k} {v}" for k, v in st["by_set"].items()))
    if st["fields"]:
        w = max(len(k) for k in st["fields"])
        out.append(f"  {'field':<{w}}  cards    min  median    max")
        for k, f in st["fields"].items():
            out.append(f"  {k:<{w}}  {f['cards']:>5}  {_n(f['min']):>5}  {_n(f['median']):>6}  {_n(f['max']):>5}")
    for k, total in st["points"].items():
        out.append(f"  {k} total: {_n(total)}")
    for k, curve in st["by_cost"].items():
        top = max(curve.values())
        out.append(f"  {k} curve:")
        for v, n in curve.items():
            out.append(f"    {v:>3} {'█' * max(1, round(n / top * BAR))} {n}")
    return out


def _n(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)

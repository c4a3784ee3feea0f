"""The report's tables beyond the win rates: the first mover, matchups, the rules in play.

- **First mover** (per player count): the seat that moved first — the game's word
  (``result()['first_mover']``) or the player of the first non-chance action — and its win
  rate against the fair share. Seat order (the first-listed seat) is reported apart
  (``first_seat``): in a game that rolls for the start they differ.
- **Matchups**: for every pair of the setups' dimensions, a table of win rates with intervals.
  Two per-seat attributes (team × team, deck × deck, class × class): the row's seat-games
  against an opponent of the column's (seats that share every result of their setup — a
  party's heroes — are teammates, not opponents). A per-seat attribute and a whole-game one (class × map):
  the row's seat-games in games of the column's. Two whole-game dimensions (boss × party,
  party × map): the first seat's win rate (named by what it always is, e.g. ``role boss``).
- **Rules in play**: per catalogue rule the game's ``simulate.coverage`` names, the games it
  came into play in and how often; a rule that never did is flagged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from cardgen.simulate.rates import label_of, natural, r6, rate
from cardgen.simulate.spec import NOT_SETUP


def first_movers(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player count: the first mover's win rate, the fair share and the advantage."""
    by_n: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        if g.get("first_mover") is not None:
            by_n[len(g["returns"])].append(g)
    out = []
    for n, gs in sorted(by_n.items()):
        wins = sum(g["returns"][g["first_mover"]] for g in gs)
        fair = sum(sum(g["returns"]) / n for g in gs) / len(gs)
        r = rate(wins, len(gs))
        out.append({"players": n, **r, "fair": r6(fair), "advantage": r6(wins / len(gs) - fair)})
    return out


def _values(v: Any) -> list[str]:
    return [str(x) for x in v] if isinstance(v, list) else [str(v)]


def game_dims(setups: Sequence[Mapping[str, Any]]) -> dict[str, list[str | None]]:
    """Whole-game setup keys with a plain value that varies between setups (per setup)."""
    keys = sorted({k for s in setups for k in s if k not in NOT_SETUP})
    out = {}
    for k in keys:
        vals = [label_of(s.get(k)) for s in setups]
        if len({v for v in vals if v is not None}) >= 2:
            out[k] = vals
    return out


def _cells(tally: Mapping[tuple[str, str], list[float]]) -> dict[str, Any]:
    rows = sorted({a for a, _ in tally}, key=lambda k: natural((k, None)))
    cols = sorted({b for _, b in tally}, key=lambda k: natural((k, None)))
    return {"rows": rows, "cols": cols,
            "cells": [[({**rate(*tally[a, b])} if (a, b) in tally else None) for b in cols] for a in rows]}


def matchups(games: list[dict[str, Any]], sides: Sequence[Sequence[Mapping[str, Any]]],
             setups: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The matchup tables (see the module's docstring); ``sides[i]`` are game i's seats'
    attributes."""
    mates = teammates(games)
    seat_attrs = sorted({a for ss in sides for s in ss for a in s})
    seat_attrs = [a for a in seat_attrs if len({v for ss in sides for s in ss for v in _values(s.get(a, []))}) >= 2]
    dims = game_dims(setups)
    out = []
    for i, a in enumerate(seat_attrs):
        for b in seat_attrs[i:]:
            t: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
            for g, ss in zip(games, sides):
                for p, sp in enumerate(ss):
                    for q, sq in enumerate(ss):
                        if p == q or a not in sp or b not in sq or (g["setup"], p, q) in mates:
                            continue
                        for x in _values(sp[a]):
                            for y in _values(sq[b]):
                                t[x, y][0] += g["returns"][p]
                                t[x, y][1] += 1
            if t:
                out.append({"rows_by": a, "cols_by": b, "subject": "the row against the column", **_cells(t)})
        for d, per_setup in dims.items():
            t = defaultdict(lambda: [0.0, 0])
            for g, ss in zip(games, sides):
                col = per_setup[g["setup"]]
                for p, sp in enumerate(ss):
                    if col is not None and a in sp:
                        for x in _values(sp[a]):
                            t[x, col][0] += g["returns"][p]
                            t[x, col][1] += 1
            if t:
                out.append({"rows_by": a, "cols_by": d, "subject": "the row in games of the column", **_cells(t)})
    names = list(dims)
    first = _first_seat_name(sides)
    for i, d1 in enumerate(names):
        for d2 in names[i + 1:]:
            t = defaultdict(lambda: [0.0, 0])
            for g in games:
                x, y = dims[d1][g["setup"]], dims[d2][g["setup"]]
                if x is not None and y is not None:
                    t[x, y][0] += g["returns"][0]
                    t[x, y][1] += 1
            if t:
                out.append({"rows_by": d1, "cols_by": d2, "subject": f"seat 1 ({first})" if first else "seat 1", **_cells(t)})
    return out


def teammates(games: list[dict[str, Any]]) -> set[tuple[int, int, int]]:
    """(setup, p, q) for seats that share every result of their setup's games (some of them
    decisive): a party's heroes are each other's teammates, not opponents."""
    by_setup: dict[int, list[list[float]]] = defaultdict(list)
    for g in games:
        by_setup[g["setup"]].append(g["returns"])
    out = set()
    for setup, rets in by_setup.items():
        n = len(rets[0])
        if not any(max(r) > min(r) for r in rets):
            continue
        for p in range(n):
            for q in range(n):
                if p != q and all(len(r) == n and r[p] == r[q] for r in rets):
                    out.add((setup, p, q))
    return out


def _first_seat_name(sides: Sequence[Sequence[Mapping[str, Any]]]) -> str:
    """What the first seat always is (``role boss``), or ''."""
    common: dict[str, str] | None = None
    for ss in sides:
        mine = {a: "+".join(_values(v)) for a, v in (ss[0].items() if ss else [])}
        common = mine if common is None else {a: v for a, v in common.items() if mine.get(a) == v}
    return ", ".join(f"{a} {v}" for a, v in sorted((common or {}).items()))


#: a rule "seldom" in play: in some games, but its share's whole interval under this
SELDOM = 0.05


def rules_in_play(games: list[dict[str, Any]], rules: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]] | None:
    """Per rule the coverage names (``rules``: id → {title, rulings}): games it came into play
    in (with an interval), times in all, ``never`` when it came into play in none, ``seldom``
    when in some but surely under :data:`SELDOM` of the games."""
    if not rules:
        return None
    out = []
    for rid, info in rules.items():
        counts = [int((g.get("rules") or {}).get(rid, 0)) for g in games]
        played = sum(1 for c in counts if c)
        r = rate(played, len(games))
        out.append({"rule": rid, "title": str(info.get("title", "")), "rulings": list(info.get("rulings", [])),
                    "times": sum(counts), **r, "never": played == 0 and bool(games),
                    "seldom": 0 < played and r["high"] < SELDOM})
    return out

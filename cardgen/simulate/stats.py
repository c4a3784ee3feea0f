"""The balance statistics of a run's game records (one result block per rules variant).

Win rates count a game's ``returns`` (1 a win, 0 a loss, a share for a draw) over the finished
games, each with a 95 % Wilson score interval. Draws are finished games shared without a
winner (returns above 0, none of 1); games that everybody lost (all returns 0: a cooperative
defeat, a game that ends with no winner) are counted as ``no_winner``. Unfinished games (the step cap) and errors are counted apart,
with their seeds. See docs/simulate.md for every figure.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardgen.simulate.spec import NOT_SETUP

Z95 = 1.959963984540054
#: a card is "dead" when drawn in at least DEAD_MIN player-games and played in under DEAD_SHARE of them
DEAD_MIN, DEAD_SHARE = 20, 0.05
#: a "must-pick": played and not played both in at least PICK_MIN player-games, the win rates'
#: intervals apart and at least PICK_GAP apart
PICK_MIN, PICK_GAP = 20, 0.10
THRESHOLDS = {"dead_min_games": DEAD_MIN, "dead_play_share": DEAD_SHARE, "must_pick_min_games": PICK_MIN,
              "must_pick_gap": PICK_GAP}


def r6(x: float) -> float:
    return round(float(x), 6)


def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (0, 1 when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: float, n: float) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"games": n, "wins": r6(wins), "rate": r6(wins / n) if n else None, "low": r6(low), "high": r6(high)}


def percentile(sorted_xs: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of sorted values."""
    k = max(0, math.ceil(q * len(sorted_xs)) - 1)
    return sorted_xs[k]


def distribution(xs: Iterable[float]) -> dict[str, Any]:
    s = sorted(xs)
    if not s:
        return {"n": 0, "mean": None, "median": None, "p95": None, "min": None, "max": None}
    return {"n": len(s), "mean": r6(statistics.fmean(s)), "median": r6(statistics.median(s)),
            "p95": r6(percentile(s, 0.95)), "min": r6(s[0]), "max": r6(s[-1])}


def histogram(xs: Sequence[float], bins: int = 30) -> dict[str, list[Any]]:
    """Counts per bin; ``edges`` has one more entry than ``counts``. Whole numbers over a
    small range get a bin each."""
    if not xs:
        return {"edges": [], "counts": []}
    lo, hi = min(xs), max(xs)
    if all(float(x).is_integer() for x in xs) and hi - lo < 60:
        edges = [lo - 0.5 + k for k in range(int(hi - lo) + 2)]
    else:
        width = (hi - lo) / bins or 1.0
        edges = [lo + k * width for k in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for x in xs:
        k = min(len(counts) - 1, max(0, int((x - edges[0]) // (edges[1] - edges[0]))))
        counts[k] += 1
    return {"edges": [r6(e) for e in edges], "counts": counts}


# --- who is who: the attributes a setup gives each seat --------------------------------
def _label(v: Any) -> str | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (str, int, float)):
        return str(v)
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, (str, int)) for x in v):
        return "+".join(map(str, v))
    return None


def profiles(header: Mapping[str, Any], players: Sequence[str]) -> list[dict[str, str | list[str]]]:
    """Per seat, what the setup header gives it: fields of per-seat entries (``players: [{name,
    class}]``, ``teams: [{team}]`` → class, team) and per-player mappings (``players: {ana:
    [boss], bo: [aldric, wren]}`` → role; a seat with several counts for each of them)."""
    n = len(players)
    out: list[dict[str, str | list[str]]] = [{} for _ in range(n)]
    for key, v in header.items():
        if key in NOT_SETUP:
            continue
        if isinstance(v, (list, tuple)) and len(v) == n and all(isinstance(x, Mapping) for x in v):
            for p, entry in enumerate(v):
                for f, y in entry.items():
                    lab = _label(y)
                    if f not in ("name", "player") and lab is not None:
                        out[p][str(f)] = lab
        elif isinstance(v, Mapping) and n and set(map(str, v)) == set(players):
            for p, name in enumerate(players):
                y = v.get(name)
                attr = "role" if key == "players" else str(key)
                if isinstance(y, (list, tuple)) and y and all(isinstance(x, (str, int)) for x in y):
                    out[p][attr] = [str(x) for x in y]
                elif _label(y) is not None:
                    out[p][attr] = str(_label(y))
    return out


# --- the report of one variant -----------------------------------------------------------
def _win_rates(games: list[dict[str, Any]], setups: Sequence[Mapping[str, Any]]) -> dict[str, list[dict]]:
    tally: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    for g in games:
        sides = g.get("sides") or profiles(setups[g["setup"]], g["players"])
        for p, ret in enumerate(g["returns"]):
            keys = {"seat": str(p + 1), "agent": g["agents"][p], **(sides[p] if p < len(sides) else {})}
            for attr, vals in keys.items():
                for val in (vals if isinstance(vals, list) else [vals]):
                    t = tally[attr][str(val)]
                    t[0] += ret
                    t[1] += 1
    out = {}
    for attr, groups in tally.items():
        if attr != "seat" and len(groups) < 2:
            continue
        out[attr] = [{"group": val, **rate(w, n)} for val, (w, n) in sorted(groups.items(), key=_natural)]
    return out


def _natural(item: tuple[str, Any]) -> tuple:
    k = item[0]
    return (0, int(k), "") if k.isdigit() else (1, 0, k)


def _first_seat(games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(games)
    wins = sum(g["returns"][0] for g in games)
    seats = [len(g["returns"]) for g in games]
    mean_share = statistics.fmean(sum(g["returns"]) / len(g["returns"]) for g in games) if games else 0.0
    out = rate(wins, n)
    out["fair"] = r6(mean_share) if games else None
    out["advantage"] = r6(wins / n - mean_share) if n else None
    out["players"] = sorted(set(seats))
    return out


def _cards(games: list[dict[str, Any]], card_types: Mapping[str, str]) -> list[dict[str, Any]]:
    drawn_n: Counter = Counter()
    played_n: Counter = Counter()
    known: set[str] = set()
    for g in games:
        for d in g["drawn"]:
            known.update(d)
        for p in g["played"]:
            known.update(p)
    seat_games = [(g["returns"][p], g["drawn"][p], g["played"][p], (g["setup"], p))
                  for g in games for p in range(len(g["returns"]))]
    played_types = {card_types.get(c) for g in games for p in g["played"] for c in p}
    rows = []
    for card in sorted(known):
        any_draws = False
        pw = pn = nw = nn = 0.0
        gd = gp = 0
        seats_playing = set()       # (setup, seat) that ever play it: who has it to play
        for ret, drawn, played, seat in seat_games:
            d, k = drawn.get(card, 0), played.get(card, 0)
            drawn_n[card] += d
            played_n[card] += k
            any_draws = any_draws or d > 0
            if d:
                gd += 1
            if k:
                gp += 1
                pw += ret
                pn += 1
                seats_playing.add(seat)
        # not played: of the seat-games that drew it, when draws are known; else of the seats (a
        # setup's seat) that play it in some game — not of seats that never have it to play
        for ret, drawn, played, seat in seat_games:
            if not played.get(card) and (drawn.get(card) if any_draws else seat in seats_playing):
                nw += ret
                nn += 1
        win_p, win_n = rate(pw, int(pn)), rate(nw, int(nn))
        pool = gd if any_draws else gp + int(nn)
        # a card type none of whose cards is ever seen played: the game's plays of it are not
        # visible to the simulation (see docs/simulate.md), so no card of it is called dead
        dead = pool >= DEAD_MIN and gp / pool < DEAD_SHARE and card_types.get(card) in played_types
        pick = (pn >= PICK_MIN and nn >= PICK_MIN and win_p["low"] > win_n["high"]
                and (win_p["rate"] or 0) - (win_n["rate"] or 0) >= PICK_GAP)
        rows.append({"card": card, "drawn": drawn_n[card], "played": played_n[card], "games_drawn": gd,
                     "games_played": gp, "win_played": win_p, "win_not_played": win_n,
                     "dead": bool(dead), "must_pick": bool(pick)})
    return rows


def _flatten(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out = {}
    for k, v in value.items():
        if isinstance(v, Mapping):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def measures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Each measure over the finished games: numbers → distribution; true/false → rate;
    text → counts of each value; mapping of numbers → totals (and mean per game); list of
    numbers → the pooled distribution."""
    values: dict[str, list[Any]] = defaultdict(list)
    for g in games:
        for k, v in (g.get("measures") or {}).items():
            values[k].append(v)
    out: dict[str, Any] = {}
    for k in sorted(values):
        vs = values[k]
        if all(isinstance(v, bool) for v in vs):
            out[k] = {"kind": "rate", **rate(sum(vs), len(vs))}
        elif all(_is_num(v) for v in vs):
            out[k] = {"kind": "number", **distribution(vs)}
        elif all(isinstance(v, str) for v in vs):
            c = Counter(vs)
            out[k] = {"kind": "values", "n": len(vs), "counts": dict(sorted(c.items()))}
        elif all(isinstance(v, Mapping) for v in vs):
            flat = [_flatten(v) for v in vs]
            if all(_is_num(x) for f in flat for x in f.values()):
                tot: Counter = Counter()
                for f in flat:
                    tot.update(f)
                out[k] = {"kind": "totals", "n": len(vs), "totals": {a: r6(b) for a, b in sorted(tot.items())},
                          "mean_per_game": {a: r6(b / len(vs)) for a, b in sorted(tot.items())}}
            else:
                out[k] = {"kind": "other", "n": len(vs)}
        elif all(isinstance(v, list) and all(_is_num(x) for x in v) for v in vs):
            out[k] = {"kind": "numbers", **distribution(x for v in vs for x in v)}
        else:
            out[k] = {"kind": "other", "n": len(vs)}
    return out


def block(records: list[dict[str, Any]], setups: Sequence[Mapping[str, Any]], label: str, value: Any,
          card_types: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The result block of one variant's records (``card_types``: card id → its type)."""
    finished = [r for r in records if r["status"] == "finished"]
    unfinished = [{"index": r["index"], "seed": r["seed"], "steps": r["steps"]} for r in records
                  if r["status"] == "unfinished"]
    errors = [{"index": r["index"], "seed": r["seed"], "error": r["error"]} for r in records if r["status"] == "error"]
    draws = sum(1 for r in finished if sum(r["returns"]) > 0 and max(r["returns"]) < 1 - 1e-9)
    nobody = sum(1 for r in finished if sum(r["returns"]) <= 0)
    length_names = sorted({k for r in finished for k in r["length"]}, key=lambda k: (k != "steps", k))
    lengths = {}
    for name in length_names:
        xs = [r["length"][name] for r in finished if name in r["length"]]
        lengths[name] = {**distribution(xs), "histogram": histogram(xs)}
    dr = rate(draws, len(finished))
    return {"label": label, "value": value, "games": len(records), "finished": len(finished),
            "draws": {"count": draws, "rate": dr["rate"], "low": dr["low"], "high": dr["high"]},
            "no_winner": nobody,
            "unfinished": {"count": len(unfinished), "games": unfinished},
            "errors": {"count": len(errors), "games": errors},
            "win_rates": _win_rates(finished, setups), "first_seat": _first_seat(finished),
            "length": lengths, "cards": _cards(finished, card_types or {}), "measures": measures(finished)}

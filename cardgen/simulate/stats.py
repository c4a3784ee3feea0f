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

from cardgen.simulate import cardeffect, tables
from cardgen.simulate.rates import Z95, label_of, natural, r6, rate, wilson
from cardgen.simulate.spec import NOT_SETUP

__all__ = ["Z95", "block", "distribution", "histogram", "measures", "profiles", "r6", "rate", "wilson"]

#: the flags' thresholds (see cardeffect): dead below a played share, must-pick above an effect
THRESHOLDS = {"dead_min_games": cardeffect.DEAD_MIN, "dead_play_share": cardeffect.DEAD_SHARE,
              "must_pick_effect": cardeffect.PICK_EFFECT, "effect_arm_min": cardeffect.ARM_MIN}


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


def histogram(xs: Sequence[float], bins: int = 20) -> dict[str, list[Any]]:
    """At most ``bins`` bins of equal width over the 1st–99th percentile, so a long tail does not
    squash the distribution into one bar (values beyond fall into the end bins: ``clipped``
    counts them, below and above). Whole numbers get whole-number bins (one a value when the
    range is small); ``edges`` has one more entry than ``counts``."""
    if not xs:
        return {"edges": [], "counts": [], "clipped": [0, 0]}
    s = sorted(xs)
    lo, hi = (s[0], s[-1]) if len(s) < 100 else (percentile(s, 0.01), percentile(s, 0.99))
    if all(float(x).is_integer() for x in s):
        step = max(1, math.ceil((hi - lo + 1) / bins))
        edges = [lo - 0.5 + k * step for k in range(math.ceil((hi - lo + 1) / step) + 1)]
    else:
        width = (hi - lo) / bins or 1.0
        edges = [lo + k * width for k in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    clipped = [0, 0]
    for x in s:
        k = int((x - edges[0]) // (edges[1] - edges[0]))
        slack = 1e-9 * (edges[-1] - edges[0])
        clipped[0] += x < edges[0] - slack
        clipped[1] += x > edges[-1] + slack
        counts[min(len(counts) - 1, max(0, k))] += 1
    return {"edges": [r6(e) for e in edges], "counts": counts, "clipped": clipped}


# --- who is who: the attributes a setup gives each seat --------------------------------
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
                    lab = label_of(y)
                    if f not in ("name", "player") and lab is not None:
                        out[p][str(f)] = lab
        elif isinstance(v, Mapping) and n and set(map(str, v)) == set(players):
            for p, name in enumerate(players):
                y = v.get(name)
                attr = "role" if key == "players" else str(key)
                if isinstance(y, (list, tuple)) and y and all(isinstance(x, (str, int)) for x in y):
                    out[p][attr] = [str(x) for x in y]
                elif label_of(y) is not None:
                    out[p][attr] = str(label_of(y))
    return out


# --- the report of one variant -----------------------------------------------------------
def _sides(games: list[dict[str, Any]], setups: Sequence[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """Per game, what each seat is (the game's ``sides`` measure, else the setup's)."""
    return [g.get("sides") or profiles(setups[g["setup"]], g["players"]) for g in games]


def _win_rates(games: list[dict[str, Any]], all_sides: list[list[dict[str, Any]]]) -> dict[str, list[dict]]:
    tally: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    for g, sides in zip(games, all_sides):
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
        out[attr] = [{"group": val, **rate(w, n)} for val, (w, n) in sorted(groups.items(), key=natural)]
    return out


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
    """Per card: copies drawn and played, the descriptive win rates of seat-games that played it
    and did not (survivorship included: see cardeffect), its controlled effect and its flags."""
    known: set[str] = set()
    for g in games:
        for d in g["drawn"]:
            known.update(d)
        for p in g["played"]:
            known.update(p)
    seat_games = [(g["returns"][p], g["drawn"][p], g["played"][p], (g["setup"], p))
                  for g in games for p in range(len(g["returns"]))]
    played_types = {card_types.get(c) for g in games for p in g["played"] for c in p}
    effect = cardeffect.effects(games, sorted(known))
    rows = []
    for card in sorted(known):
        any_draws = False
        pw = pn = nw = nn = 0.0
        gd = gp = gdp = drawn_n = played_n = 0
        seats_playing = set()       # (setup, seat) that ever play it: who has it to play
        for ret, drawn, played, seat in seat_games:
            d, k = drawn.get(card, 0), played.get(card, 0)
            drawn_n += d
            played_n += k
            any_draws = any_draws or d > 0
            gd += d > 0
            gdp += d > 0 and k > 0
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
        pool = gd if any_draws else gp + int(nn)
        share = rate(gdp if any_draws else gp, pool)
        # a card type none of whose cards is ever seen played: the game's plays of it are not
        # visible to the simulation (see docs/simulate.md), so no card of it is called dead
        fl = cardeffect.flags(effect[card], pool, share["high"], card_types.get(card) in played_types)
        rows.append({"card": card, "drawn": drawn_n, "played": played_n, "games_drawn": gd,
                     "games_played": gp, "played_share": share, "win_played": rate(pw, int(pn)),
                     "win_not_played": rate(nw, int(nn)), "effect": effect[card], **fl})
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
          card_types: Mapping[str, str] | None = None, rules: Mapping[str, Mapping[str, Any]] | None = None
          ) -> dict[str, Any]:
    """The result block of one variant's records (``card_types``: card id → its type; ``rules``:
    the catalogue rules the game's coverage names, id → {title, rulings})."""
    finished = [r for r in records if r["status"] == "finished"]
    sides = _sides(finished, setups)
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
            "win_rates": _win_rates(finished, sides), "first_seat": _first_seat(finished),
            "first_mover": tables.first_movers(finished),
            "matchups": tables.matchups(finished, sides, setups),
            "length": lengths, "cards": _cards(finished, card_types or {}), "measures": measures(finished),
            "rules_in_play": tables.rules_in_play(finished, rules or {})}

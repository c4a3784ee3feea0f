"""What tune minimises, read from a simulate report block (each with a 95 % interval).

- ``balance``: the worst deviation of any group's win share (team, deck, class, seat — every
  grouping of the report but the agents) from the fair share (1/players, draws counted).
- ``matchups``: the worst deviation from the fair share of any matchup — a team against another
  team, a deck against another deck (the report's tables of an attribute against itself, the
  mirror cells aside). Stricter than ``balance`` and noisier: each cell has a share of the games.
- ``first_seat``: the first seat's advantage over the fair share, in absolute value.
- ``first_mover``: the first mover's advantage (the player who moved first, as the game says) over
  the fair share, in absolute value — the worst of the player counts played.
- ``length=LO..HI``: how far the mean game length (the report's first length measure) lies
  outside LO..HI.
- ``measure:NAME=LO..HI``: the same for one of the game's own measures (a number or true/false
  per game, as ``cardgen simulate`` lists them), e.g. ``measure:goals=2..4``.
- ``skill=LO..HI``: skill vs luck — how often the stronger of two agents (``--agent mcts:200
  --agent random``) wins a game between them (½ a win for an even game) — how far it lies outside
  LO..HI (shares, 0.5..1): 0.5 is a coin flip, near 1 a game of pure skill.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from cardgen.core.record import record
from cardgen.simulate.ladder import game_score
from cardgen.simulate.spec import SimError
from cardgen.simulate.stats import rate

BUILT_IN = ("balance", "matchups", "first_seat", "first_mover", "length=LO..HI", "measure:NAME=LO..HI", "skill=LO..HI")


@record
class Objective:
    name: str
    low: float = 0.0              # length or measure target
    high: float = 0.0
    measure: str = ""


@record
class Measured:
    value: float
    low: float                    # 95 % interval of the value
    high: float


def parse(texts: Sequence[str]) -> list[Objective]:
    out = []
    for t in texts or ("balance",):
        if t in ("balance", "matchups", "first_seat", "first_mover"):
            out.append(Objective(t))
            continue
        if t.startswith(("length=", "measure:", "skill=")):
            head, _, rng = t.partition("=")
            lo, sep, hi = rng.partition("..")
            try:
                a, b = float(lo), float(hi)
            except ValueError:
                a = b = math.nan
            what = head.removeprefix("measure:")
            if not sep or not a <= b or not what:
                raise SimError(f"--objective {t}: expects length=LO..HI, measure:NAME=LO..HI or skill=LO..HI "
                               "(numbers, LO ≤ HI)")
            if head == "skill" and not 0.5 <= a <= b <= 1:
                raise SimError(f"--objective {t}: the stronger agent's share lies in 0.5..1 (e.g. skill=0.6..0.8)")
            out.append(Objective(head, a, b) if head in ("length", "skill") else Objective("measure", a, b, what))
            continue
        raise SimError(f"unknown objective '{t}'", f"built in: {', '.join(BUILT_IN)}")
    if len({label(o) for o in out}) != len(out):
        raise SimError("an objective is given twice")
    return out


def _dev(rate: Mapping[str, Any], fair: float) -> Measured:
    r, lo, hi = rate["rate"], rate["low"], rate["high"]
    return Measured(abs(r - fair), max(0.0, lo - fair, fair - hi), max(hi - fair, fair - lo))


def measure(obj: Objective, block: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> Measured:
    fs = block["first_seat"]
    if not block["finished"]:
        return Measured(1.0, 1.0, 1.0)
    fair = fs["fair"]
    if obj.name == "first_seat":
        return _dev(fs, fair)
    if obj.name == "first_mover":
        movers = block.get("first_mover") or []
        if not movers:
            raise SimError(f"--objective {label(obj)}: this game's results do not say who moved first",
                           "first_seat measures the seat order instead")
        return _worst([_dev(m, m["fair"]) for m in movers])
    if obj.name == "balance":
        devs = [_dev(g, fair) for attr, groups in block["win_rates"].items() if attr != "agent" for g in groups
                if g["rate"] is not None]
        return _worst(devs)
    if obj.name == "matchups":
        return _worst([_dev(c, fair) for c in matchup_cells(block)])
    finished = [r for r in records if r["status"] == "finished"]
    if obj.name == "skill":
        return skill(obj, finished)
    if obj.name == "measure":
        xs = [float(r["measures"][obj.measure]) for r in finished
              if isinstance((r.get("measures") or {}).get(obj.measure), (int, float))]
        if not xs:
            known = sorted(k for k, v in block["measures"].items() if v.get("kind") in ("number", "rate"))
            raise SimError(f"--objective {label(obj)}: {obj.measure!r} is no measure of numbers or true/false "
                           f"of this game", f"measures: {', '.join(known) or 'none'}")
        return _outside(obj, xs)
    names = list(block["length"])
    xs = [float(r["length"][names[0]]) for r in finished if names and names[0] in r["length"]]
    return _outside(obj, xs)


def _worst(devs: Sequence[Measured]) -> Measured:
    if not devs:
        return Measured(0.0, 0.0, 0.0)
    return Measured(max(d.value for d in devs), max(d.low for d in devs), max(d.high for d in devs))


def matchup_cells(block: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cells of the report's matchup tables of an attribute against itself (team × team…),
    the mirror cells (a team against itself) aside."""
    out = []
    for t in block.get("matchups") or []:
        if t["rows_by"] != t["cols_by"]:
            continue
        for row, cells in zip(t["rows"], t["cells"]):
            out += [c for col, c in zip(t["cols"], cells) if col != row and c and c.get("rate") is not None]
    return out


def skill(obj: Objective, finished: Sequence[Mapping[str, Any]]) -> Measured:
    """How far the stronger agent's share of the games between the first two agents lies
    outside the target (its 95 % Wilson interval carried through)."""
    names = list(dict.fromkeys(n for r in finished for n in r["agents"]))
    if len(names) < 2:
        raise SimError(f"--objective {label(obj)}: skill vs luck needs two agents",
                       "e.g. --agent mcts:200 --agent random")
    scores = [s for r in finished if (s := game_score(dict(r), names[0], names[1])) is not None]
    if not scores:
        return Measured(1.0, 1.0, 1.0)
    share = sum(scores) / len(scores)
    r = rate(max(share, 1 - share) * len(scores), len(scores))

    def off(m: float) -> float:
        return max(0.0, obj.low - m, m - obj.high)
    ends = (off(r["low"]), off(r["high"]))
    inside = obj.low <= r["high"] and r["low"] <= obj.high
    return Measured(off(r["rate"]), 0.0 if inside else min(ends), max(ends))


def _outside(obj: Objective, xs: Sequence[float]) -> Measured:
    if not xs:
        return Measured(math.inf, math.inf, math.inf)
    mean = statistics.fmean(xs)
    half = 1.96 * (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0)

    def off(m: float) -> float:
        return max(0.0, obj.low - m, m - obj.high)
    ends = (off(mean - half), off(mean + half))
    inside = obj.low <= mean + half and mean - half <= obj.high
    return Measured(off(mean), 0.0 if inside else min(ends), max(ends))


def label(obj: Objective) -> str:
    if obj.name == "measure":
        return f"{obj.measure} in {obj.low:g}..{obj.high:g}"
    if obj.name == "skill":
        return f"skill in {obj.low:g}..{obj.high:g}"
    return f"length in {obj.low:g}..{obj.high:g}" if obj.name == "length" else obj.name

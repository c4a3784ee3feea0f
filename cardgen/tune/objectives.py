"""What tune minimises, read from a simulate report block (each with a 95 % interval).

- ``balance``: the worst deviation of any group's win share (team, deck, class, seat — every
  grouping of the report but the agents) from the fair share (1/players, draws counted).
- ``first_seat``: the first seat's advantage over the fair share, in absolute value.
- ``length=LO..HI``: how far the mean game length (the report's first length measure) lies
  outside LO..HI.
- ``measure:NAME=LO..HI``: the same for one of the game's own measures (a number or true/false
  per game, as ``cardgen simulate`` lists them), e.g. ``measure:goals=2..4``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from cardgen.core.record import record
from cardgen.simulate.spec import SimError

BUILT_IN = ("balance", "first_seat", "length=LO..HI", "measure:NAME=LO..HI")


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
        if t in ("balance", "first_seat"):
            out.append(Objective(t))
            continue
        if t.startswith(("length=", "measure:")):
            head, _, rng = t.partition("=")
            lo, sep, hi = rng.partition("..")
            try:
                a, b = float(lo), float(hi)
            except ValueError:
                a = b = math.nan
            what = head.removeprefix("measure:")
            if not sep or not a <= b or not what:
                raise SimError(f"--objective {t}: expects length=LO..HI or measure:NAME=LO..HI (numbers, LO ≤ HI)")
            out.append(Objective("length", a, b) if head == "length" else Objective("measure", a, b, what))
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
    if obj.name == "balance":
        devs = [_dev(g, fair) for attr, groups in block["win_rates"].items() if attr != "agent" for g in groups
                if g["rate"] is not None]
        if not devs:
            return Measured(0.0, 0.0, 0.0)
        return Measured(max(d.value for d in devs), max(d.low for d in devs), max(d.high for d in devs))
    finished = [r for r in records if r["status"] == "finished"]
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
    return f"length in {obj.low:g}..{obj.high:g}" if obj.name == "length" else obj.name

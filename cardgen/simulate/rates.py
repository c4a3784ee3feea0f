"""The figures every table of the report is made of: rates with Wilson intervals, labels."""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054


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


def label_of(v: Any) -> str | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (str, int, float)):
        return str(v)
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, (str, int)) for x in v):
        return "+".join(map(str, v))
    return None


def natural(item: tuple[str, Any]) -> tuple:
    k = item[0]
    return (0, int(k), "") if k.isdigit() else (1, 0, k)



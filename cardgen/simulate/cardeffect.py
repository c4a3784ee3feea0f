"""A card's effect on winning, measured by a controlled comparison: the shuffle's own experiment.

Comparing the games in which a card was *played* with those in which it was not measures
survivorship, not the card: a card is played more in games that last longer or go well (a
finisher played when ahead looks like a must-pick; with random agents every card does). What
the players do not choose is the order the shuffle deals the cards in. So, for each setup and
seat, take the first K draws, K the fewest draws any finished game of that setup and seat had:
every game has them, whatever happened later, and whether the card is among them is decided
by the shuffle alone. The card's effect is the difference in mean return between the
seat-games that drew it early and those that did not, per (setup, seat), pooled with
inverse-variance-like weights n₁n₀/(n₁+n₀) (the Mantel–Haenszel weights for a difference),
with a normal 95 % interval. Drawing a card early is the "treatment": its effect is an
intention-to-treat effect — what having the card does, played or not.

Flags (thresholds in the report): **must-pick** when the effect's whole interval lies above
``PICK_EFFECT``; **dead** when the share of
seat-games that drew a card and played it is, interval and all, under ``DEAD_SHARE`` (a card
its holders do not play). A card whose draws are not visible to the simulation has no effect
figure and is never flagged must-pick.

A card that does nothing is not "neutral" by this measure: drawing it early costs a draw that
could have been a better card, so its effect is a little below zero, the more so the stronger
the deck's best cards — a price a player pays too. Hence no flag for a negative effect: the
figure and its interval are printed for the designer to read.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

Z95 = 1.959963984540054
#: must-pick: the effect's 95 % interval lies wholly above PICK_EFFECT (in win-rate points)
PICK_EFFECT = 0.05
#: dead: drawn in ≥ DEAD_MIN seat-games, and the played share's interval under DEAD_SHARE
DEAD_MIN, DEAD_SHARE = 20, 0.05
#: an arm of a comparison needs this many seat-games in some (setup, seat) to count
ARM_MIN = 5


def _mean_var(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the variance of the mean (sample variance / n; a floor of p(1-p)/n's with a
    half-game prior so that an arm of all wins still has some spread)."""
    n = len(xs)
    m = sum(xs) / n
    s2 = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.25
    prior = (m * n + 0.5) / (n + 1)
    return m, max(s2, prior * (1 - prior) / 4) / n


def early_window(games: list[dict[str, Any]]) -> dict[tuple[int, int], int]:
    """Per (setup, seat): K, the fewest draws any of its finished games had."""
    k: dict[tuple[int, int], int] = {}
    for g in games:
        for p, order in enumerate(g.get("draw_order") or []):
            key = (g["setup"], p)
            k[key] = min(k.get(key, len(order)), len(order))
    return k


def effects(games: list[dict[str, Any]], cards: Sequence[str]) -> dict[str, dict[str, Any] | None]:
    """Per card, its controlled effect ``{effect, low, high, early, late, strata}`` (None when
    no (setup, seat) deals it early in some games and not in others)."""
    window = early_window(games)
    arms: dict[str, dict[tuple[int, int], tuple[list[float], list[float]]]] = defaultdict(dict)
    wanted = set(cards)
    for g in games:
        for p, order in enumerate(g.get("draw_order") or []):
            key = (g["setup"], p)
            k = window.get(key, 0)
            if not k:
                continue
            early = set(order[:k]) & wanted
            seen = arms_for_key(arms, wanted, key)
            for c in wanted:
                seen[c][0 if c in early else 1].append(g["returns"][p])
    out: dict[str, dict[str, Any] | None] = {}
    for c in cards:
        num = den = var = 0.0
        n1 = n0 = strata = 0
        for _key, (a1, a0) in sorted(arms[c].items()):
            if len(a1) < ARM_MIN or len(a0) < ARM_MIN:
                continue
            m1, v1 = _mean_var(a1)
            m0, v0 = _mean_var(a0)
            w = len(a1) * len(a0) / (len(a1) + len(a0))
            num += w * (m1 - m0)
            var += w * w * (v1 + v0)
            den += w
            n1, n0, strata = n1 + len(a1), n0 + len(a0), strata + 1
        if not den:
            out[c] = None
            continue
        eff, se = num / den, math.sqrt(var) / den
        out[c] = {"effect": round(eff, 6), "low": round(eff - Z95 * se, 6), "high": round(eff + Z95 * se, 6),
                  "early": n1, "late": n0, "strata": strata}
    return out


def arms_for_key(arms: dict[str, dict[tuple[int, int], tuple[list[float], list[float]]]], wanted: set[str],
                 key: tuple[int, int]) -> dict[str, tuple[list[float], list[float]]]:
    """The two arms of every card in one (setup, seat), made on first use."""
    out = {}
    for c in wanted:
        if key not in arms[c]:
            arms[c][key] = ([], [])
        out[c] = arms[c][key]
    return out


def flags(effect: Mapping[str, Any] | None, drawn_games: int, played_share_high: float,
          types_seen_played: bool) -> dict[str, bool]:
    """The flags of one card (see the module's docstring)."""
    return {"must_pick": bool(effect and effect["low"] > PICK_EFFECT),
            "dead": drawn_games >= DEAD_MIN and played_share_high < DEAD_SHARE and types_seen_played}

"""Biomechanic Dino Battles: what an exchange of the Combat phase takes, from its totals alone
(BDB-CMB-2…5) — so the checker can tell what a total stated wrong moved (one slip, one problem)."""

from __future__ import annotations


def exchange_losses(kind: str, a: int, o: int | None, negated: bool, unanswered_hits: bool) -> tuple[int, int]:
    """The HP an exchange of ``kind`` takes from (the attacker, the defender): ``a`` the ATK total,
    ``o`` the answer's (a counterattack's ATK, an evade's EVA, a defend's DEF)."""
    o = o or 0
    if negated:
        return (o, 0) if kind == "counterattack" else (0, 0)
    if kind == "counterattack":
        return (o, a)
    if kind == "evade":
        return (0, 0 if o > a else a)
    if kind == "defend":
        return (max(0, o - a), max(0, a - o))
    return (0, a if unanswered_hits else 0)

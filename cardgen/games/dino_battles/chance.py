"""Dino Battles' chance nodes: the d6 of the Initiative, paralysis and moves, and every card dealt
(one ``deal`` outcome per distinct card left in the pile, weighted by its copies, in the deck's
sorted order). Listed (:func:`outcomes`: the checker and search read them) and sampled straight
from ``r`` (:func:`sample`: play and playouts) — on exactly the outcome the walk over the list
falls on, the walk itself where ``r`` lies near a boundary or the pile holds a card its deck
never had."""

from __future__ import annotations

from collections import Counter
from itertools import repeat
from typing import Any, Protocol

from cardgen.core.record import record
from cardgen.play.api import Action, walk
from cardgen.play.dice import count_index, die_outcomes, uniform_index


@record(frozen=True)
class Deals:
    """A seat's chance outcomes of a card dealt: its deck's cards in order, each with its action."""

    cards: tuple[str, ...]
    acts: tuple[Action, ...]
    known: frozenset[str]


_ROLLS: dict[int, list[tuple[Action, float]]] = {}
_DEALS: dict[tuple[str, tuple[str, ...]], Deals] = {}


class Chancy(Protocol):
    """What of the state its chance nodes read."""

    chance: dict[str, Any] | None
    die_sides: int
    players: list[str]
    decks: list[Counter]
    comps: list[Counter]
    deal_acts: list[Deals]


def deals(player: str, cards: tuple[str, ...]) -> Deals:
    """``player``'s outcomes of being dealt each of ``cards`` (sorted; made once per deck)."""
    made = _DEALS.get((player, cards))
    if made is None:
        who = ("player", player)
        acts = tuple(Action("deal", (who, ("card", c))) for c in cards)
        made = _DEALS[(player, cards)] = Deals(cards, acts, frozenset(cards))
    return made


def rolls(sides: int) -> list[tuple[Action, float]]:
    """A d``sides``'s ``roll`` outcomes (made once)."""
    out = _ROLLS.get(sides)
    if out is None:
        out = _ROLLS[sides] = die_outcomes("roll", sides)
    return out


def _pile(st: Chancy, c: dict[str, Any]) -> Counter:
    return st.comps[c["seat"]] if c["purpose"] == "ko_comp" else st.decks[c["seat"]]


def outcomes(st: Chancy) -> list[tuple[Action, float]]:
    """The chance node's outcomes with their probabilities (none when there is no chance node)."""
    c = st.chance
    if c is None:
        return []
    if c["kind"] == "roll":
        return list(rolls(st.die_sides))
    pile = _pile(st, c)
    total = sum(pile.values())
    get, d = pile.get, st.deal_acts[c["seat"]]
    out = [(a, n / total) for card, a in zip(d.cards, d.acts) if (n := get(card, 0)) > 0]
    if len(out) == len(pile):
        return out
    who = st.players[c["seat"]]                 # a pile holding a card its deck never had
    return [(Action("deal", (("player", who), ("card", card))), n / total)
            for card, n in sorted(pile.items()) if n > 0]


def sample(st: Chancy, r: float) -> Action | None:
    """The outcome :func:`outcomes`' walk falls on for ``r``: a die's face by index, a card by
    the pile's counts over the deck's cards in order (near a boundary: the walk)."""
    c = st.chance
    if c is None:
        return None
    if c["kind"] == "roll":
        outs = rolls(st.die_sides)
        i = uniform_index(r, len(outs))
        return walk(outs, r) if i is None else outs[i][0]
    pile, d = _pile(st, c), st.deal_acts[c["seat"]]
    if pile.keys() <= d.known:                  # every card in the pile in the deck's order
        i = count_index(r, map(pile.get, d.cards, repeat(0)), sum(pile.values()))
        if i is not None:
            return d.acts[i]
    outs = outcomes(st)
    return walk(outs, r) if outs else None

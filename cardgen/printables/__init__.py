"""Printables: each turns a laid-out game into output files (name → bytes).

A game lists the printables it wants in game.yaml ``printables``; a game's engine module
may add its own through ``printables()``.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import boards, gamehooks, rulebook
from . import calibration, cards

Builder = Callable[..., dict[str, bytes]]

REGISTRY: dict[str, Builder] = {
    "cards": cards.build,
    "duplex-calibration": calibration.build,
    "maps": boards.build_maps,
    "board": boards.build_board,
    "mats": boards.build_mats,
    "tokens": boards.build_tokens,
    "rulebook": rulebook.build,
}


def register(name: str, builder: Builder) -> None:
    REGISTRY[name] = builder


def for_game(slug: str) -> dict[str, Builder]:
    out = dict(REGISTRY)
    extra = gamehooks.hook(slug, "printables")
    if extra:
        out.update(extra())
    return out

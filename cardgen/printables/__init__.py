"""Printables: each turns a laid-out game into output files (name → bytes).

A game lists the printables it wants in game.yaml ``printables``; a game's engine module
may add its own through ``printables()``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from cardgen import gamehooks
from cardgen.printables import calibration, cards

Builder = Callable[..., dict[str, bytes]]


def _lazy(module: str, name: str, *needs: str) -> Builder:
    """A builder whose module loads on first use, after ``needs``: the boards and the rulebook (0.2 s and more
    of imports that a cards-only build skips)."""
    def builder(*args, **kwargs) -> dict[str, bytes]:
        for m in needs:
            importlib.import_module(m, __package__)
        return getattr(importlib.import_module(module, __package__), name)(*args, **kwargs)
    builder.__name__ = name
    return builder


REGISTRY: dict[str, Builder] = {
    "cards": cards.build,
    "duplex-calibration": calibration.build,
    "maps": _lazy("..boards", "build_maps"),
    "board": _lazy("..boards", "build_board"),
    "mats": _lazy("..boards", "build_mats"),
    "tokens": _lazy("..boards", "build_tokens"),
    "reference": _lazy("..boards", "build_reference"),
    "rulebook": _lazy("..rulebook", "build"),
    "readme": _lazy(".readme", "build"),
}



def for_game(slug: str) -> dict[str, Builder]:
    out = dict(REGISTRY)
    pkg = gamehooks.package(slug)
    extra = pkg.printables if pkg is not None else None
    if extra:
        out.update(extra())
    return out

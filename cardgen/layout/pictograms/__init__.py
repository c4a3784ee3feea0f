"""Drawn pictograms: recognisable silhouettes (a sword, a shield, a skull, …) drawn with the
scene's primitives, for icons a game names in ``game.yaml`` (``icons: {sword: {draw: sword}}``).

The library names things, never games: a game chooses which drawing stands for which of its
card types. :func:`draw` returns the primitives of one pictogram in a square; ``ink`` is the
icon's colour and ``paper`` the colour it stands on (its cut-outs are painted with it).
"""

from __future__ import annotations

from collections.abc import Callable

from cardgen.core.lazymod import lazy
from cardgen.layout.pictograms.pen import Pen

Drawing = Callable[[Pen], None]

# the drawings' modules load when a pictogram is first drawn or described, not when a game's
# icon names are checked against the table
arms = lazy("cardgen.layout.pictograms.arms")
beasts = lazy("cardgen.layout.pictograms.beasts")

_MODULES = {
    arms: ("sword", "crossed_swords", "dagger", "bow", "target", "shield", "armor", "spell", "club", "claw", "flask",
           "gear", "bolt", "infinity", "crown", "helmet", "scales", "chest", "banner", "swerve"),
    beasts: ("rat", "long_limbs", "footprint", "fangs", "skull", "ribcage", "bone", "tail", "dinosaur", "tombstone",
             "rubble"),
}


def _drawing(module: object, name: str) -> Drawing:
    """The function ``name`` of ``module``, looked up when first called."""
    def drawing(pen: Pen) -> None:
        getattr(module, name)(pen)
    drawing.__name__ = drawing.__qualname__ = name
    return drawing


DRAWINGS: dict[str, Drawing] = {name: _drawing(mod, name) for mod, names in _MODULES.items() for name in names}
_SOURCE = {name: mod for mod, names in _MODULES.items() for name in names}


def describe(name: str) -> str:
    """The drawing's one-line description (its docstring)."""
    return (getattr(_SOURCE[name], name).__doc__ or name).strip().splitlines()[0]


def draw(name: str, cx: float, cy: float, side: float, ink: str, paper: str = "#ffffff") -> list:
    """The pictogram ``name`` in a ``side`` mm square centred on (cx, cy), bleed-box mm."""
    pen = Pen(cx - side / 2, cy - side / 2, side, ink, paper)
    DRAWINGS[name](pen)
    return pen.items


__all__ = ["DRAWINGS", "draw", "describe"]

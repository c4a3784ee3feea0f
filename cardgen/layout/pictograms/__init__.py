"""Drawn pictograms: recognisable silhouettes (a sword, a shield, a skull, …) drawn with the
scene's primitives, for icons a game names in ``game.yaml`` (``icons: {sword: {draw: sword}}``).

The library names things, never games: a game chooses which drawing stands for which of its
card types. :func:`draw` returns the primitives of one pictogram in a square; ``ink`` is the
icon's colour and ``paper`` the colour it stands on (its cut-outs are painted with it).
"""

from __future__ import annotations

from collections.abc import Callable

from cardgen.layout.pictograms import arms, beasts, marks
from cardgen.layout.pictograms.pen import Pen

Drawing = Callable[[Pen], None]

_MODULES = {
    arms: ("sword", "crossed_swords", "dagger", "bow", "target", "shield", "armor", "spell", "club", "claw", "flask",
           "gear", "bolt", "infinity", "crown", "helmet", "scales", "chest", "banner", "swerve"),
    beasts: ("rat", "long_limbs", "footprint", "fangs", "skull", "ribcage", "bone", "tail", "dinosaur", "tombstone",
             "rubble"),
    marks: ("heart", "dumbbell", "book", "eye", "socket", "anvil", "paw", "sun", "moon", "chevrons", "wing", "wave",
            "spear", "warning", "die", "hourglass", "pyramid", "puck", "net", "back_arrow", "spiral", "drop", "slashes", "spikes",
            "leaf"),
}


DRAWINGS: dict[str, Drawing] = {name: getattr(mod, name) for mod, names in _MODULES.items() for name in names}
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

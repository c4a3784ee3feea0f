"""Drawn pictograms: recognisable silhouettes (a sword, a shield, a skull, …) drawn with the
scene's primitives, for icons a game names in ``game.yaml`` (``icons: {sword: {draw: sword}}``).

The library names things, never games: a game chooses which drawing stands for which of its
card types. :func:`draw` returns the primitives of one pictogram in a square; ``ink`` is the
icon's colour and ``paper`` the colour it stands on (its cut-outs are painted with it).
"""

from __future__ import annotations

from collections.abc import Callable

from cardgen.layout.pictograms import arms, beasts
from cardgen.layout.pictograms.pen import Pen

Drawing = Callable[[Pen], None]

DRAWINGS: dict[str, Drawing] = {
    "sword": arms.sword, "crossed_swords": arms.crossed_swords, "dagger": arms.dagger, "bow": arms.bow,
    "target": arms.target, "shield": arms.shield, "armor": arms.armor, "spell": arms.spell, "club": arms.club,
    "claw": arms.claw, "flask": arms.flask, "gear": arms.gear, "bolt": arms.bolt, "infinity": arms.infinity,
    "crown": arms.crown, "helmet": arms.helmet, "scales": arms.scales, "chest": arms.chest, "banner": arms.banner,
    "swerve": arms.swerve,
    "rat": beasts.rat, "long_limbs": beasts.long_limbs, "footprint": beasts.footprint, "fangs": beasts.fangs,
    "skull": beasts.skull, "ribcage": beasts.ribcage, "bone": beasts.bone, "tail": beasts.tail,
    "dinosaur": beasts.dinosaur, "tombstone": beasts.tombstone, "rubble": beasts.rubble,
}


def describe(name: str) -> str:
    """The drawing's one-line description (its docstring)."""
    return (DRAWINGS[name].__doc__ or name).strip().splitlines()[0]


def draw(name: str, cx: float, cy: float, side: float, ink: str, paper: str = "#ffffff") -> list:
    """The pictogram ``name`` in a ``side`` mm square centred on (cx, cy), bleed-box mm."""
    pen = Pen(cx - side / 2, cy - side / 2, side, ink, paper)
    DRAWINGS[name](pen)
    return pen.items


__all__ = ["DRAWINGS", "draw", "describe"]

"""Pictograms of creatures, body parts and the marks they leave."""

from __future__ import annotations

from cardgen.layout.pictograms.pen import Pen, arc


def rat(p: Pen) -> None:
    """A rat in profile, facing left, tail curling up behind."""
    p.poly(arc(54, 62, 32, 20, 180, 360, 16) + [(86, 70), (24, 74)])
    p.poly([(4, 66), (30, 46), (34, 74)])
    p.circle(30, 46, 9)
    p.circle(30, 46, 4, paper=True)
    p.circle(18, 58, 2.8, paper=True)
    p.stroke(arc(88, 50, 9, 22, 100, -80, 14), 4, taper=True)
    for x in (36, 70):
        p.rect(x, 72, 7, 12, radius=2)


def long_limbs(p: Pen) -> None:
    """A gangling figure with long arms and legs (reach)."""
    p.circle(50, 12, 9)
    p.stroke([(50, 20), (50, 56)], 8)
    p.stroke([(50, 28), (24, 40), (4, 62)], 5, taper=True)
    p.stroke([(50, 28), (76, 40), (96, 62)], 5, taper=True)
    p.stroke([(50, 54), (34, 76), (26, 98)], 6)
    p.stroke([(50, 54), (66, 76), (74, 98)], 6)


def footprint(p: Pen) -> None:
    """A heavy bare footprint: a broad sole and five toes."""
    p.poly(arc(52, 66, 26, 32, 0, 360, 28))
    for x, y, r in ((30, 22, 9), (46, 14, 8), (61, 14, 7), (73, 20, 6), (82, 30, 5)):
        p.circle(x, y, r)


def fangs(p: Pen) -> None:
    """A snarling open jaw with fangs."""
    p.poly(arc(50, 50, 46, 36, 0, 360, 32))
    p.poly(arc(50, 50, 36, 24, 0, 360, 28), paper=True)
    for x in (24, 40, 60, 76):
        big = x in (24, 76)
        p.poly([(x - 7, 27), (x + 7, 27), (x, 27 + (22 if big else 12))])
        p.poly([(x - 7, 73), (x + 7, 73), (x, 73 - (12 if big else 8))])


def skull(p: Pen) -> None:
    """A skull, front view."""
    p.circle(50, 42, 36)
    p.rect(30, 60, 40, 30, radius=6)
    p.circle(36, 46, 10, paper=True)
    p.circle(64, 46, 10, paper=True)
    p.poly([(50, 58), (44, 70), (56, 70)], paper=True)
    for x in (40, 50, 60):
        p.rect(x - 1.5, 78, 3, 12, paper=True)


def ribcage(p: Pen) -> None:
    """A ribcage: a spine and four pairs of curving ribs."""
    p.rect(45, 4, 10, 92, radius=3)
    for k, y in enumerate((18, 36, 54, 72)):
        w = 40 - k * 4
        p.stroke(arc(50, y + 14, w, 16, 270, 180, 10), 7)
        p.stroke(arc(50, y + 14, w, 16, 270, 360, 10), 7)


def bone(p: Pen) -> None:
    """A long bone with knobbed ends, across the box."""
    p.stroke([(22, 78), (78, 22)], 14)
    for x, y in ((14, 74), (26, 86), (74, 14), (86, 26)):
        p.circle(x, y, 11)


def tail(p: Pen) -> None:
    """A tail curling from a thick root to a thin tip, its vertebrae marked."""
    pts = arc(50, 62, 40, 32, 180, 360, 14) + arc(70, 62, 20, 18, 0, 200, 10)[1:]
    p.stroke(pts, 22, taper=True)
    for x, y in pts[2:14:3]:
        p.circle(x, y, 2.4, paper=True)


def dinosaur(p: Pen) -> None:
    """A long-necked dinosaur in profile, facing right."""
    p.poly(arc(46, 62, 28, 18, 180, 360, 16) + [(74, 66), (18, 66)])
    p.stroke([(64, 54), (72, 36), (78, 18)], 10)
    p.poly(arc(84, 16, 12, 7, 0, 360, 16))
    p.stroke([(22, 60), (8, 74), (0, 92)], 10, taper=True)
    for x in (26, 38, 56, 66):
        p.rect(x - 4, 64, 8, 26, radius=2)


def tombstone(p: Pen) -> None:
    """A narrow gravestone with a cross, on a mound."""
    p.poly(arc(50, 34, 24, 24, 180, 360, 16) + [(74, 84), (26, 84)])
    p.poly(arc(50, 96, 46, 14, 180, 360, 12))
    p.rect(46, 20, 8, 44, paper=True)
    p.rect(34, 32, 32, 8, paper=True)


def rubble(p: Pen) -> None:
    """A heap of broken rocks."""
    p.poly([(6, 92), (12, 62), (34, 52), (48, 70), (44, 92)])
    p.poly([(40, 92), (48, 60), (64, 40), (86, 54), (94, 92)])
    p.poly([(26, 50), (32, 26), (52, 16), (62, 36), (50, 52)])
    p.stroke([(60, 60), (70, 72), (66, 86)], 2.5, paper=True)

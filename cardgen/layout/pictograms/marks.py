"""Pictograms of qualities and conditions: stats (a heart, a dumbbell, a book, an eye), traits
and abilities (wings, a wave, a drop, spikes), and small things of play (a die, a puck, a net)."""

from __future__ import annotations

import math

from cardgen.layout.pictograms.pen import Pen, arc, star


def heart(p: Pen) -> None:
    """A heart (health, hit points)."""
    p.circle(30, 34, 22)
    p.circle(70, 34, 22)
    p.poly([(9.5, 42), (50, 92), (90.5, 42), (50, 30)])


def dumbbell(p: Pen) -> None:
    """A dumbbell (strength)."""
    p.rect(22, 45, 56, 10)
    for x in (6, 78):
        p.rect(x, 22, 16, 56, radius=3)


def book(p: Pen) -> None:
    """An open book (intelligence, knowledge)."""
    p.poly([(50, 24), (26, 14), (4, 18), (4, 82), (26, 78), (50, 88)])
    p.poly([(50, 24), (74, 14), (96, 18), (96, 82), (74, 78), (50, 88)])
    p.stroke([(50, 26), (50, 86)], 3, paper=True)
    for y in (34, 48, 62):
        p.stroke([(14, y - 2), (40, y + 3)], 3, paper=True)
        p.stroke([(60, y + 3), (86, y - 2)], 3, paper=True)


def eye(p: Pen) -> None:
    """An open eye (watchfulness)."""
    p.poly(arc(50, 78, 50, 52, 200, 340, 16) + arc(50, 22, 50, 52, 20, 160, 16))
    p.circle(50, 50, 17, paper=True)
    p.circle(50, 50, 10)


def socket(p: Pen) -> None:
    """An empty square socket with a plus (a slot to fill)."""
    p.rect(8, 8, 84, 84, radius=10)
    p.rect(18, 18, 64, 64, paper=True, radius=6)
    p.rect(45, 30, 10, 40)
    p.rect(30, 45, 40, 10)


def anvil(p: Pen) -> None:
    """An anvil (stalwart, unmoving)."""
    p.poly([(4, 26), (80, 26), (96, 34), (80, 46), (64, 50), (60, 66), (36, 66), (32, 50), (14, 44)])
    p.poly([(22, 74), (78, 74), (82, 90), (18, 90)])
    p.rect(36, 64, 24, 12)


def paw(p: Pen) -> None:
    """A paw print (wild)."""
    p.poly(arc(50, 68, 24, 22, 0, 360, 20))
    for x, y in ((18, 40), (38, 22), (62, 22), (82, 40)):
        p.circle(x, y, 10)


def sun(p: Pen) -> None:
    """A sun with rays (radiance, light)."""
    p.poly(star(50, 50, 48, 30, 12))
    p.circle(50, 50, 26)


def moon(p: Pen) -> None:
    """A crescent moon (shadow, darkness)."""
    p.circle(46, 50, 42)
    p.circle(66, 40, 36, paper=True)


def chevrons(p: Pen) -> None:
    """Two chevrons pointing right (haste, speed)."""
    for dx in (0, 38):
        p.poly([(6 + dx, 10), (30 + dx, 10), (62 + dx, 50), (30 + dx, 90), (6 + dx, 90), (38 + dx, 50)])


def wing(p: Pen) -> None:
    """A feathered wing (flying)."""
    p.poly([(8, 30), (30, 14), (62, 10), (96, 16), (84, 32)] + arc(46, 34, 38, 24, 10, 150, 10)[::-1])
    for k, y in enumerate((38, 52, 66)):
        p.poly([(14 + 8 * k, y), (90 - 12 * k, y - 10), (80 - 14 * k, y + 8), (24 + 8 * k, y + 10)])


def wave(p: Pen) -> None:
    """Two rolling waves (water, swimming)."""
    for y in (34, 64):
        p.stroke(arc(20, y, 14, 12, 180, 360, 10) + arc(48, y, 14, 12, 180, 0, 10)[::-1][1:]
                 + arc(76, y, 14, 12, 180, 360, 10)[1:], 9)


def spear(p: Pen) -> None:
    """A long spear, upright (reach)."""
    p.poly([(50, 2), (62, 24), (50, 32), (38, 24)])
    p.rect(46, 28, 8, 70)
    p.rect(40, 34, 20, 5)


def warning(p: Pen) -> None:
    """A triangle with an exclamation mark (intimidation, danger)."""
    p.poly([(50, 4), (97, 92), (3, 92)])
    p.poly([(50, 22), (82, 82), (18, 82)], paper=True)
    p.poly([(45, 36), (55, 36), (53, 64), (47, 64)])
    p.circle(50, 73, 5)


def die(p: Pen) -> None:
    """A six-sided die showing five (a roll)."""
    p.rect(6, 6, 88, 88, radius=16)
    for x, y in ((28, 28), (72, 28), (50, 50), (28, 72), (72, 72)):
        p.circle(x, y, 8, paper=True)


def hourglass(p: Pen) -> None:
    """An hourglass with its sand run half through (used up for a while)."""
    p.rect(14, 4, 72, 9, radius=3)
    p.rect(14, 87, 72, 9, radius=3)
    p.poly([(22, 13), (78, 13), (54, 50), (78, 87), (22, 87), (46, 50)])
    p.poly([(30, 19), (70, 19), (50, 44)], paper=True)
    p.poly([(50, 60), (66, 81), (34, 81)], paper=True)
    p.poly([(38, 24), (62, 24), (50, 40)])


def pyramid(p: Pen) -> None:
    """A four-sided die, a pyramid seen from the side (a d4)."""
    p.poly([(50, 4), (96, 88), (4, 88)])
    p.poly([(50, 14), (56, 80), (14, 82)], paper=True)
    p.poly([(50, 22), (52, 76), (24, 78)])


def puck(p: Pen) -> None:
    """A hockey puck: a flat black disc seen from the side."""
    p.poly(arc(50, 44, 44, 18, 180, 360, 16) + arc(50, 62, 44, 18, 0, 180, 16))
    p.stroke(arc(50, 44, 44, 18, 20, 160, 12), 3, paper=True)


def net(p: Pen) -> None:
    """A goal: a frame and its net (a goal scored)."""
    p.stroke([(8, 92), (8, 12), (92, 12), (92, 92)], 9)
    for x in (29, 50, 71):
        p.stroke([(x, 16), (x, 90)], 3)
    for y in (34, 56, 78):
        p.stroke([(12, y), (88, y)], 3)


def back_arrow(p: Pen) -> None:
    """A curved arrow turning back to the left (retreat, return)."""
    p.stroke(arc(50, 56, 36, 34, -90, 120, 18), 12)
    p.poly([(50, 4), (50, 42), (22, 22)])


def spiral(p: Pen) -> None:
    """A spiral (paralysis, dizziness)."""
    pts = [(50 + (4 + 40 * k / 48) * math.cos(k * 0.4), 50 + (4 + 40 * k / 48) * math.sin(k * 0.4))
           for k in range(49)]
    p.stroke(pts, 8)


def drop(p: Pen) -> None:
    """A drop with a cross-bone cut-out (poison)."""
    p.poly([(50, 2)] + arc(50, 64, 32, 32, -30, 210, 20))
    p.stroke([(38, 54), (62, 78)], 7, paper=True)
    p.stroke([(62, 54), (38, 78)], 7, paper=True)


def slashes(p: Pen) -> None:
    """Three claw slashes (a wound)."""
    for dx in (-24, 0, 24):
        p.stroke([(34 + dx, 8), (66 + dx, 92)], 11, taper=True)


def spikes(p: Pen) -> None:
    """A row of spikes on a base (spiked hide)."""
    p.rect(4, 76, 92, 18)
    for x in (4, 35, 66):
        p.poly([(x, 78), (x + 15, 8), (x + 30, 78)])


def leaf(p: Pen) -> None:
    """A leaf with its veins (camouflage, the wild)."""
    p.poly(arc(50, 50, 46, 30, 180, 360, 14) + arc(50, 50, 46, 30, 0, 180, 14))
    p.stroke([(6, 50), (94, 50)], 4, paper=True)
    for x in (30, 50, 70):
        p.stroke([(x, 50), (x + 12, 30)], 3, paper=True)
        p.stroke([(x, 50), (x + 12, 70)], 3, paper=True)

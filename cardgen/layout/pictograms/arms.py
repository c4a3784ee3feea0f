"""Pictograms of things carried, worn or cast: weapons, armour, magic, tools and marks of rank."""

from __future__ import annotations

from cardgen.layout.pictograms.pen import Pen, arc, rotated, star


def _blade(p: Pen, turn: float, length: float = 1.0, paper: bool = False) -> None:
    """A sword upright in the box (point up), turned by ``turn`` degrees."""
    top = 50 - 46 * length
    p.poly(rotated([(50, top), (56, top + 8), (56, 62), (44, 62), (44, top + 8)], turn), paper)
    p.poly(rotated([(30, 61), (70, 61), (70, 68), (30, 68)], turn), paper)
    p.poly(rotated([(46.5, 68), (53.5, 68), (53.5, 86), (46.5, 86)], turn), paper)
    x, y = rotated([(50, 90)], turn)[0]
    p.circle(x, y, 5.5, paper)


def sword(p: Pen) -> None:
    """A long straight sword, point to the upper right."""
    _blade(p, 45)


def crossed_swords(p: Pen) -> None:
    """Two swords crossed (close combat)."""
    _blade(p, 45, 0.95)
    _blade(p, -45, 0.95)


def dagger(p: Pen) -> None:
    """A short leaf-shaped blade with a broad guard, point to the upper left."""
    pts = [(50, 4), (64, 28), (62, 58), (38, 58), (36, 28)]
    p.poly(rotated(pts, -40))
    p.poly(rotated([(24, 57), (76, 57), (76, 66), (24, 66)], -40))
    p.poly(rotated([(44, 66), (56, 66), (56, 86), (44, 86)], -40))
    x, y = rotated([(50, 91)], -40)[0]
    p.circle(x, y, 7)
    p.stroke(rotated([(50, 12), (50, 54)], -40), 3, paper=True)


def bow(p: Pen) -> None:
    """A drawn bow, its string and an arrow across it."""
    limb = arc(62, 50, 40, 46, 115, 245, 24)
    p.stroke(limb, 8)
    (x0, y0), (x1, y1) = limb[0], limb[-1]
    p.stroke([(x0, y0), (70, 50), (x1, y1)], 2.4)
    p.stroke([(14, 50), (88, 50)], 4)
    p.poly([(97, 50), (84, 42), (86, 50), (84, 58)])
    p.poly([(8, 42), (20, 42), (26, 50), (20, 58), (8, 58), (14, 50)])


def target(p: Pen) -> None:
    """An archery target with an arrow in its heart (aim, reach)."""
    p.circle(50, 50, 44)
    p.circle(50, 50, 34, paper=True)
    p.circle(50, 50, 25)
    p.circle(50, 50, 15, paper=True)
    p.circle(50, 50, 7)
    p.stroke([(52, 48), (92, 8)], 4)
    p.poly([(84, 2), (98, 2), (98, 16), (90, 10)])


def shield(p: Pen) -> None:
    """A heater shield with a cross on it."""
    edge = [(14, 10), (86, 10)] + arc(50, 38, 36, 58, 0, 90, 10)[:-1] + arc(50, 38, 36, 58, 90, 180, 10)
    p.poly(edge)
    p.rect(45, 14, 10, 72, paper=True)
    p.rect(18, 34, 64, 10, paper=True)


def armor(p: Pen) -> None:
    """A breastplate with shoulder guards."""
    p.poly([(24, 14), (40, 10), (44, 22), (56, 22), (60, 10), (76, 14), (90, 34), (78, 42), (76, 90),
            (24, 90), (22, 42), (10, 34)])
    p.stroke([(50, 28), (50, 84)], 3, paper=True)
    p.stroke(arc(50, 28, 22, 20, 20, 160, 12), 3, paper=True)
    p.stroke([(26, 66), (74, 66)], 3, paper=True)


def spell(p: Pen) -> None:
    """A burst of magic: a large four-pointed spark and two small ones."""
    p.poly(star(44, 54, 42, 10, 4))
    p.poly(star(80, 18, 15, 4, 4))
    p.poly(star(84, 78, 10, 3, 4))
    p.circle(44, 54, 9, paper=True)


def club(p: Pen) -> None:
    """A heavy spiked club."""
    p.poly(rotated([(44, 92), (56, 92), (64, 28), (36, 28)], 35))
    p.circle(*rotated([(50, 24)], 35)[0], 17)
    for tip in ([(50, 2)], [(72, 18)], [(28, 18)], [(74, 44)], [(26, 44)]):
        x, y = rotated(tip, 35)[0]
        bx, by = rotated([(50, 26)], 35)[0]
        dx, dy = (y - by) * 0.22, (bx - x) * 0.22
        p.poly([(x, y), (x + (bx - x) * 0.45 + dx, y + (by - y) * 0.45 + dy),
                (x + (bx - x) * 0.45 - dx, y + (by - y) * 0.45 - dy)])


def claw(p: Pen) -> None:
    """Three claw slashes."""
    for off in (-22, 0, 22):
        p.stroke([(24 + off, 92), (44 + off, 60), (60 + off, 30), (70 + off, 6)], 11, taper=True)


def flask(p: Pen) -> None:
    """A round potion flask with a stopper."""
    p.circle(50, 64, 30)
    p.rect(40, 14, 20, 28)
    p.rect(36, 6, 28, 9, radius=2)
    p.poly(arc(50, 64, 24, 24, 10, 170, 12), paper=True)
    p.circle(50, 64, 18)
    p.circle(40, 74, 4, paper=True)
    p.circle(58, 66, 3, paper=True)


def gear(p: Pen) -> None:
    """A toothed gear wheel."""
    for k in range(8):
        p.poly(rotated([(43, 4), (57, 4), (59, 20), (41, 20)], 45 * k))
    p.circle(50, 50, 34)
    p.circle(50, 50, 13, paper=True)


def bolt(p: Pen) -> None:
    """A lightning bolt."""
    p.poly([(60, 2), (22, 56), (46, 56), (34, 98), (80, 40), (55, 40), (70, 2)])


def infinity(p: Pen) -> None:
    """The infinity loop (lasts for ever)."""
    p.ring(29, 50, 19, 10)
    p.ring(71, 50, 19, 10)


def crown(p: Pen) -> None:
    """A crown of five points."""
    p.poly([(8, 80), (8, 26), (28, 52), (38, 16), (50, 46), (62, 16), (72, 52), (92, 26), (92, 80)])
    p.rect(8, 84, 84, 10)
    for x in (24, 50, 76):
        p.circle(x, 68, 5, paper=True)


def helmet(p: Pen) -> None:
    """A knight's closed helmet, a plume streaming back from its crown."""
    p.poly(arc(46, 58, 30, 34, 180, 360, 16) + [(80, 96), (12, 96)])
    p.rect(20, 52, 52, 7, paper=True)
    p.rect(43, 59, 6, 30, paper=True)
    p.stroke([(46, 26), (60, 12), (80, 8), (96, 16)], 10, taper=True)


def scales(p: Pen) -> None:
    """A balance: a post, a beam and two hanging pans."""
    p.rect(46, 10, 8, 78)
    p.rect(24, 88, 52, 8, radius=2)
    p.stroke([(8, 22), (92, 22)], 5)
    p.circle(50, 12, 7)
    for cx in (18, 82):
        p.stroke([(cx, 22), (cx - 13, 58)], 2)
        p.stroke([(cx, 22), (cx + 13, 58)], 2)
        p.poly(arc(cx, 58, 17, 12, 0, 180, 10))


def chest(p: Pen) -> None:
    """A treasure chest with a domed lid and a lock."""
    p.poly(arc(50, 40, 42, 22, 180, 360, 16) + [(92, 44), (8, 44)])
    p.rect(8, 48, 84, 42, radius=3)
    p.rect(8, 44, 84, 4, paper=True)
    p.rect(42, 38, 16, 20, radius=2, paper=True)
    p.rect(46, 42, 8, 12, radius=1)
    p.rect(20, 48, 5, 42, paper=True)
    p.rect(75, 48, 5, 42, paper=True)


def banner(p: Pen) -> None:
    """A swallow-tailed war banner on a pole."""
    p.rect(14, 4, 7, 92, radius=2)
    p.circle(17.5, 5, 6)
    p.poly([(21, 12), (92, 12), (76, 34), (92, 56), (21, 56)])


def swerve(p: Pen) -> None:
    """An arrow swerving aside (a dodge)."""
    p.stroke([(10, 90), (30, 70)] + arc(50, 50, 26, 26, 135, 45, 12)[1:] + [(70, 70)], 10)
    p.stroke(arc(50, 50, 26, 26, 45, -20, 6)[1:], 10)
    p.poly([(92, 36), (62, 22), (70, 50)])

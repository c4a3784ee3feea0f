"""Tests for cardgen.core.hexgrid: coordinates, layouts, offsets, footprints, movement and line of sight.

Pictures in the comments use a pointy-top layout with y pointing down: row ``r`` is a
horizontal row, ``Hex(q + 1, r)`` is east of ``Hex(q, r)``, ``Hex(q, r - 1)`` is north-west
and ``Hex(q + 1, r - 1)`` north-east.  With across-flats ``F`` and circumradius ``R``, the
centre of ``Hex(q, r)`` is at ``x = F * (q + r / 2)``, ``y = 1.5 * R * r``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.core.hexgrid import (
    DIRECTIONS,
    OFFSET_STYLES,
    ORIGIN,
    Hex,
    Layout,
    are_adjacent,
    cube_round,
    direction,
    distance,
    fits,
    fits_turned,
    footprint,
    from_cube,
    from_offset,
    hex_corners,
    hex_range,
    hex_to_pixel,
    is_connected,
    lattice_center,
    lattice_corners,
    line_of_sight,
    move_costs,
    neighbor,
    neighbors,
    path_is_legal,
    pixel_to_hex,
    place,
    reachable,
    reachable_placements,
    reanchor,
    reflect,
    ring,
    rotate,
    segment_enters_hex,
    spiral,
    to_cube,
    to_offset,
)

FAST = settings(max_examples=60, deadline=None)

coord = st.integers(-40, 40)
hexes = st.builds(Hex, coord, coord)
near = st.builds(Hex, st.integers(-4, 4), st.integers(-4, 4))
obstacle_sets = st.frozensets(st.builds(Hex, st.integers(-5, 5), st.integers(-5, 5)), max_size=18)


def everywhere(_h: Hex) -> bool:
    return True


# --------------------------------------------------------------------------- coordinates


def test_cube_coordinates():
    h = Hex(2, -5)
    assert h.s == 3
    assert to_cube(h) == (2, -5, 3)
    assert from_cube(2, -5, 3) == h
    with pytest.raises(ValueError):
        from_cube(1, 1, 1)


def test_vector_arithmetic():
    a, b = Hex(2, -1), Hex(-3, 4)
    assert a + b == Hex(-1, 3)
    assert a - b == Hex(5, -5)
    assert a * 3 == 3 * a == a.scale(3) == Hex(6, -3)
    assert -a == Hex(-2, 1)


def test_neighbours_in_fixed_order():
    assert neighbors(ORIGIN) == list(DIRECTIONS)
    assert neighbors(Hex(2, -1)) == [Hex(3, -1), Hex(3, -2), Hex(2, -2), Hex(1, -1), Hex(1, 0), Hex(2, 0)]
    assert [neighbor(Hex(2, -1), i) for i in range(6)] == neighbors(Hex(2, -1))
    assert direction(7) == direction(1) == Hex(1, -1)
    for i, d in enumerate(DIRECTIONS):
        assert rotate(d, 1) == DIRECTIONS[(i + 1) % 6]
        assert distance(ORIGIN, d) == 1


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        (Hex(0, 0), Hex(0, 0), 0),
        (Hex(0, 0), Hex(1, 0), 1),
        (Hex(0, 0), Hex(3, -3), 3),
        (Hex(0, 0), Hex(2, 1), 3),
        (Hex(1, -4), Hex(-2, 3), 7),
        (Hex(-1, 2), Hex(2, -1), 3),
        (Hex(5, 5), Hex(-5, -5), 20),
    ],
)
def test_distance_examples(a, b, d):
    assert distance(a, b) == distance(b, a) == d
    assert are_adjacent(a, b) == (d == 1)


@given(hexes, hexes, hexes)
@FAST
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) >= 0
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@pytest.mark.parametrize("radius", range(7))
def test_ring_sizes(radius):
    center = Hex(3, -2)
    cells = ring(center, radius)
    assert len(cells) == max(1, 6 * radius)
    assert len(set(cells)) == len(cells)
    assert all(distance(center, h) == radius for h in cells)
    if radius:  # a closed walk: consecutive cells (and last-first) are adjacent
        assert all(are_adjacent(x, y) for x, y in zip(cells, cells[1:] + cells[:1], strict=True))


@pytest.mark.parametrize("radius", range(7))
def test_range_sizes(radius):
    center = Hex(-1, 4)
    cells = spiral(center, radius)
    assert len(cells) == len(set(cells)) == 3 * radius * (radius + 1) + 1
    assert cells[0] == center
    assert [distance(center, h) for h in cells] == sorted(distance(center, h) for h in cells)
    box = {Hex(q, r) for q in range(-12, 12) for r in range(-8, 16)}
    assert hex_range(center, radius) == {h for h in box if distance(center, h) <= radius}


def test_negative_radius_rejected():
    with pytest.raises(ValueError):
        ring(ORIGIN, -1)
    with pytest.raises(ValueError):
        spiral(ORIGIN, -1)


# --------------------------------------------------------------------------- rotation


@pytest.mark.parametrize(
    ("h", "steps", "center", "expected"),
    [
        (Hex(1, 0), 1, ORIGIN, Hex(1, -1)),
        (Hex(1, 0), 2, ORIGIN, Hex(0, -1)),
        (Hex(1, 0), 3, ORIGIN, Hex(-1, 0)),
        (Hex(2, -1), 1, ORIGIN, Hex(1, -2)),
        (Hex(2, -1), -1, ORIGIN, Hex(1, 1)),
        (Hex(2, -1), 5, ORIGIN, Hex(1, 1)),
        (Hex(3, 0), 3, Hex(1, 0), Hex(-1, 0)),
        (Hex(4, 2), 2, Hex(4, 2), Hex(4, 2)),
    ],
)
def test_rotation_examples(h, steps, center, expected):
    assert rotate(h, steps, center) == expected


@given(hexes, hexes, st.integers(-20, 20), st.integers(-20, 20))
@FAST
def test_rotation_properties(h, center, a, b):
    assert rotate(h, 6, center) == h
    x = h
    for _ in range(6):
        x = rotate(x, 1, center)
    assert x == h
    assert rotate(rotate(h, a, center), b, center) == rotate(h, a + b, center)
    assert distance(rotate(h, a, center), center) == distance(h, center)


@given(hexes, hexes, hexes)
@FAST
def test_reflection_properties(h, g, center):
    assert reflect(reflect(h, center), center) == h
    assert distance(reflect(h, center), reflect(g, center)) == distance(h, g)
    assert reflect(Hex(center.q + 3, center.r), center) == Hex(center.q + 3, center.r)  # on the axis
    assert reflect(center + Hex(0, 1), center) == center + Hex(1, -1)  # south-east <-> north-east
    layout = Layout("pointy", 10.0)
    (x, y), (_, cy) = hex_to_pixel(h, layout), hex_to_pixel(center, layout)
    assert hex_to_pixel(reflect(h, center), layout) == pytest.approx((x, 2 * cy - y))


# --------------------------------------------------------------------------- layouts

layouts = st.builds(
    Layout,
    st.sampled_from(["flat", "pointy"]),
    st.floats(1.0, 60.0),
    st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
    st.booleans(),
)


@given(hexes, layouts)
@FAST
def test_pixel_round_trip(h, layout):
    x, y = hex_to_pixel(h, layout)
    assert pixel_to_hex(x, y, layout) == h
    for cx, cy in hex_corners(h, layout):  # points just inside each corner
        assert pixel_to_hex(x + 0.97 * (cx - x), y + 0.97 * (cy - y), layout) == h


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_layout_geometry(orientation):
    layout = Layout(orientation, 25.0, origin=(100.0, 50.0))
    assert hex_to_pixel(ORIGIN, layout) == (100.0, 50.0)
    assert layout.circumradius == pytest.approx(25.0 / math.sqrt(3))
    assert layout.across_corners == pytest.approx(2 * 25.0 / math.sqrt(3))
    h = Hex(2, -3)
    centre = hex_to_pixel(h, layout)
    for n in neighbors(h):  # neighbouring centres are exactly one across-flats apart
        assert math.dist(centre, hex_to_pixel(n, layout)) == pytest.approx(25.0)
    corners = hex_corners(h, layout)
    for c in corners:
        assert math.dist(centre, c) == pytest.approx(layout.circumradius)
    for i in range(6):  # consecutive corners are one edge (= R) apart
        assert math.dist(corners[i], corners[(i + 1) % 6]) == pytest.approx(layout.circumradius)
    top = min(y for _, y in corners)
    on_top = [c for c in corners if c[1] == pytest.approx(top)]
    assert len(on_top) == (2 if orientation == "flat" else 1)


def test_layout_y_up_mirrors_y():
    down, up = Layout("pointy", 10.0), Layout("pointy", 10.0, y_up=True)
    x, y = hex_to_pixel(Hex(1, 2), down)
    assert hex_to_pixel(Hex(1, 2), up) == (x, -y)


def test_layout_rejects_bad_values():
    with pytest.raises(ValueError):
        Layout("pointy", 0)
    for bad in (math.nan, math.inf):
        with pytest.raises(ValueError, match="finite"):
            Layout("pointy", bad)
        with pytest.raises(ValueError, match="finite"):
            Layout("pointy", 10, (bad, 0.0))
        with pytest.raises(ValueError, match="finite"):
            pixel_to_hex(bad, 0.0, Layout("flat", 10))
    with pytest.raises(ValueError):
        Layout("square", 10)  # type: ignore[arg-type]


def test_cube_round():
    assert cube_round(0.3, 0.3) == Hex(0, 0)
    assert cube_round(0.6, 0.2) == Hex(1, 0)
    assert cube_round(2.1, -0.9) == Hex(2, -1)


def test_corners_match_lattice_and_neighbours():
    layout = Layout("flat", 12.0)
    h = Hex(-2, 3)
    for i, (lx, ly) in enumerate(lattice_corners(h)):
        # corner i is shared by h and its neighbours i and i + 1
        owners = {g for g in hex_range(h, 2) if (lx, ly) in lattice_corners(g)}
        assert owners == {h, neighbor(h, i), neighbor(h, i + 1)}
        px, py = hex_corners(h, layout)[i]
        fq, fr = lx / 3, ly / 3
        assert (px, py) == pytest.approx((12.0 * math.sqrt(3) / 2 * fq, 12.0 * (fq / 2 + fr)))
    assert lattice_center(h) == (-6, 9)


# --------------------------------------------------------------------------- offset coordinates


@given(hexes, st.sampled_from(OFFSET_STYLES))
@FAST
def test_offset_round_trip_from_axial(h, style):
    col, row = to_offset(h, style)
    assert from_offset(col, row, style) == h


@given(coord, coord, st.sampled_from(OFFSET_STYLES))
@FAST
def test_offset_round_trip_from_offset(col, row, style):
    assert to_offset(from_offset(col, row, style), style) == (col, row)


@pytest.mark.parametrize("style", OFFSET_STYLES)
def test_offset_styles_shove_the_right_rows_or_columns(style):
    """A rectangle of offset cells lays out as straight rows/columns, the named ones pushed half a hex."""
    f = 10.0
    layout = Layout("flat" if style.endswith("q") else "pointy", f)
    seen = set()
    for col in range(-3, 5):
        for row in range(-3, 5):
            h = from_offset(col, row, style)
            seen.add(h)
            x, y = hex_to_pixel(h, layout)
            sign = 1 if style.startswith("odd") else -1
            if style.endswith("r"):  # pointy-top rows; odd-r: odd rows pushed right
                assert (x, y) == pytest.approx(
                    (f * (col + sign * 0.5 * (row & 1)), f * math.sqrt(3) / 2 * row)
                )
            else:  # flat-top columns; odd-q: odd columns pushed down
                assert (x, y) == pytest.approx(
                    (f * math.sqrt(3) / 2 * col, f * (row + sign * 0.5 * (col & 1)))
                )
    assert len(seen) == 64


def test_offset_examples_and_bad_style():
    assert from_offset(0, 1, "odd-r") == Hex(0, 1)
    assert from_offset(0, 2, "odd-r") == Hex(-1, 2)
    assert from_offset(3, 0, "odd-q") == Hex(3, -1)
    assert to_offset(Hex(3, -1), "even-q") == (3, 1)
    with pytest.raises(ValueError):
        to_offset(ORIGIN, "odd-x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        from_offset(0, 0, "odd-x")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- footprints

TRIANGLE = footprint({ORIGIN, Hex(1, 0), Hex(0, 1)})
BAR = footprint({ORIGIN, Hex(1, 0)})


def test_connectivity():
    assert is_connected([])
    assert is_connected([Hex(4, 4)])
    assert is_connected(TRIANGLE)
    assert is_connected(ring(ORIGIN, 2))
    assert not is_connected({ORIGIN, Hex(2, 0)})
    assert not is_connected(set(ring(ORIGIN, 2)) | {ORIGIN})
    assert is_connected(hex_range(ORIGIN, 2))


def test_footprint_validation_and_reanchor():
    with pytest.raises(ValueError):
        footprint({Hex(1, 0), Hex(2, 0)})  # no anchor
    with pytest.raises(ValueError):
        footprint({ORIGIN, Hex(2, 0)})  # not connected
    with pytest.raises(ValueError):
        place(frozenset({Hex(1, 0)}), ORIGIN)
    moved = reanchor(TRIANGLE, Hex(1, 0))
    assert moved == {Hex(-1, 0), ORIGIN, Hex(-1, 1)}
    assert place(moved, Hex(6, 2)) == place(TRIANGLE, Hex(5, 2))
    with pytest.raises(ValueError):
        reanchor(TRIANGLE, Hex(3, 3))


def test_place_with_rotation():
    assert place(TRIANGLE, Hex(5, 5)) == {Hex(5, 5), Hex(6, 5), Hex(5, 6)}
    assert place(TRIANGLE, Hex(5, 5), 1) == {Hex(5, 5), Hex(6, 4), Hex(6, 5)}
    assert place(TRIANGLE, Hex(5, 5), 3) == {Hex(5, 5), Hex(4, 5), Hex(5, 4)}
    assert place(TRIANGLE, Hex(5, 5), 6) == place(TRIANGLE, Hex(5, 5), 0)
    assert place(BAR, Hex(0, 0), 2) == {ORIGIN, Hex(0, -1)}


@given(
    st.frozensets(st.builds(Hex, st.integers(-2, 2), st.integers(-2, 2)), max_size=6),
    hexes,
    st.integers(-8, 8),
)
@FAST
def test_place_keeps_shape(cells, anchor, rotation):
    fp = frozenset(cells | {ORIGIN})
    placed = place(fp, anchor, rotation)
    assert len(placed) == len(fp)
    assert anchor in placed
    assert is_connected(placed) == is_connected(fp)


def test_fits_with_set_or_predicate():
    cells = place(TRIANGLE, Hex(1, 1))
    assert fits(cells, hex_range(Hex(1, 1), 1))
    assert not fits(cells, {Hex(1, 1), Hex(2, 1)})
    assert fits(cells, lambda h: h.q >= 1)
    assert not fits(cells, lambda h: h.r <= 1)


# --------------------------------------------------------------------------- movement

# A wall of impassable hexes at q = 1 (r = -1, 0, 1) between the start Hex(0, 0) and Hex(2, 0).
# Every step changes q by at most 1, so a path must cross column q = 1 at r <= -2 or r >= 2:
# via Hex(1, -2): 2 + 3 = 5 moves; via Hex(1, 2): 3 + 2 = 5 moves.
WALL = frozenset({Hex(1, -1), Hex(1, 0), Hex(1, 1)})


def off_wall(h: Hex) -> bool:
    return h not in WALL


@pytest.mark.parametrize(
    ("passable", "blocked", "target", "cost"),
    [
        (everywhere, frozenset(), Hex(2, 0), 2),  # open ground
        (off_wall, frozenset(), Hex(2, 0), 5),  # walk round the wall
        (everywhere, WALL, Hex(2, 0), 5),  # the same wall made of enemy pieces
        # wall plus enemies on both short ways round: cross at Hex(1, -3) (3 + 4) or Hex(1, 3) (4 + 3)
        (off_wall, frozenset({Hex(1, -2), Hex(1, 2)}), Hex(2, 0), 7),
        (off_wall, frozenset(), Hex(1, 0), None),  # never onto an impassable hex
        (everywhere, frozenset({Hex(3, 0)}), Hex(3, 0), None),  # never onto a blocked hex
    ],
)
def test_reachability_table(passable, blocked, target, cost):
    costs = move_costs(ORIGIN, 9, passable, blocked)
    assert costs.get(target) == cost
    if cost is not None:
        assert target not in reachable(ORIGIN, cost - 1, passable, blocked)
        assert target in reachable(ORIGIN, cost, passable, blocked)


def test_reachable_basics():
    assert reachable(ORIGIN, 0, everywhere) == {ORIGIN}
    assert reachable(ORIGIN, 2, everywhere) == hex_range(ORIGIN, 2)
    assert reachable(Hex(1, 0), 1, off_wall, blocked={Hex(1, 0)}) >= {Hex(1, 0), Hex(2, 0)}  # start kept
    board = hex_range(ORIGIN, 3)
    assert reachable(ORIGIN, 10, board.__contains__) == board
    # two starting hexes
    both = hex_range(Hex(-5, 0), 1) | hex_range(Hex(5, 0), 1)
    assert reachable([Hex(-5, 0), Hex(5, 0)], 1, everywhere) == both
    with pytest.raises(ValueError):
        reachable(ORIGIN, -1, everywhere)


def test_path_is_legal():
    round_wall = [ORIGIN, Hex(0, -1), Hex(1, -2), Hex(2, -2), Hex(2, -1), Hex(2, 0)]
    assert path_is_legal(round_wall, off_wall)
    assert path_is_legal(round_wall, off_wall, max_steps=5)
    assert not path_is_legal(round_wall, off_wall, max_steps=4)
    assert not path_is_legal(round_wall, everywhere, blocked={Hex(2, -2)})  # crosses an enemy
    assert not path_is_legal([ORIGIN, Hex(1, 0), Hex(2, 0)], off_wall)  # through the wall
    assert not path_is_legal([ORIGIN, Hex(2, 0)], everywhere)  # not adjacent
    assert path_is_legal([Hex(1, 0)], off_wall)  # no move
    assert not path_is_legal([], everywhere)


# Two rooms joined by a corridor one hex wide:
#   room A = Hex(0, 0) and its ring, corridor = Hex(2..6, 0), room B = Hex(8, 0) and its ring.
ROOM_A = frozenset(hex_range(ORIGIN, 1))
CORRIDOR = frozenset(Hex(q, 0) for q in range(2, 7))
ROOM_B = frozenset(hex_range(Hex(8, 0), 1))
FLOOR = ROOM_A | CORRIDOR | ROOM_B


def on_floor(h: Hex) -> bool:
    return h in FLOOR


def test_big_piece_cannot_end_in_a_narrow_corridor():
    """A triangle of 3 mutually adjacent hexes never fits a straight 1-wide corridor; its anchor
    may walk through it (only the end placement is checked)."""
    end_anchors = {a for a, _ in reachable_placements(TRIANGLE, ORIGIN, 10, on_floor)}
    assert not end_anchors & CORRIDOR
    assert end_anchors == ROOM_A | ROOM_B
    # Hex(7, 0) (7 moves) is the first hex where the triangle fits again: (7,0), (8,0), (7,1).
    assert {a for a, _ in reachable_placements(TRIANGLE, ORIGIN, 6, on_floor)} == ROOM_A
    assert (Hex(7, 0), 0) in reachable_placements(TRIANGLE, ORIGIN, 7, on_floor)
    assert Hex(8, 0) not in {a for a, _ in reachable_placements(TRIANGLE, ORIGIN, 7, on_floor)}
    # an enemy in the corridor cuts room B off
    cut = reachable_placements(TRIANGLE, ORIGIN, 10, on_floor, blocked={Hex(4, 0)})
    assert {a for a, _ in cut} == ROOM_A


def test_a_swept_piece_does_not_pass_a_corridor_narrower_than_itself():
    """With ``sweep``, the whole piece must fit (in some rotation) on every hex its anchor steps
    onto: the triangle never crosses the 1-wide corridor, so room B is out of reach; a bar, which
    fits the corridor turned along it, still crosses."""
    swept = {a for a, _ in reachable_placements(TRIANGLE, ORIGIN, 10, on_floor, sweep=True)}
    assert swept == ROOM_A
    assert not fits_turned(TRIANGLE, next(iter(CORRIDOR)), on_floor)
    bar = {a for a, _ in reachable_placements(BAR, ORIGIN, 10, on_floor, sweep=True)}
    assert bar == {a for a, _ in reachable_placements(BAR, ORIGIN, 10, on_floor)}


def test_thin_piece_ends_in_corridor_only_along_it():
    placements = reachable_placements(BAR, ORIGIN, 10, on_floor)
    assert {p for p in placements if p[0] in CORRIDOR} == {(h, k) for h in CORRIDOR for k in (0, 3)}
    for anchor, k in placements:
        assert fits(place(BAR, anchor, k), FLOOR)


def test_piece_is_not_blocked_by_itself():
    here = place(TRIANGLE, ORIGIN, 0)
    placements = reachable_placements(TRIANGLE, ORIGIN, 0, on_floor, blocked=here | {Hex(-1, 0)})
    assert (ORIGIN, 0) in placements
    assert all(Hex(-1, 0) not in place(TRIANGLE, a, k) for a, k in placements)


@given(
    st.frozensets(st.builds(Hex, st.integers(-1, 1), st.integers(-1, 1)), max_size=3),
    st.integers(0, 4),
    obstacle_sets,
    st.integers(0, 5),
)
@FAST
def test_placements_always_fit(cells, steps, blocked, rotation):
    fp = frozenset(cells | {ORIGIN})
    board = hex_range(ORIGIN, 4)
    result = reachable_placements(fp, ORIGIN, steps, board.__contains__, blocked, rotation)
    free = set(board) - (set(blocked) - place(fp, ORIGIN, rotation))
    anchors = reachable(ORIGIN, steps, board.__contains__, set(blocked) - place(fp, ORIGIN, rotation))
    for anchor, k in result:
        assert 0 <= k < 6
        assert anchor in anchors
        assert fits(place(fp, anchor, k), free)


# --------------------------------------------------------------------------- line of sight


def clear_corner_pairs(a: Hex, b: Hex, obstacles: set[Hex]) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """Every (corner of a, corner of b) whose segment enters no obstacle (brute force)."""
    others = [h for h in obstacles if h not in (a, b)]
    return {
        (p, q)
        for p in lattice_corners(a)
        for q in lattice_corners(b)
        if not any(segment_enters_hex(p, q, h) for h in others)
    }


def collinear(p, q, c) -> bool:
    return (q[0] - p[0]) * (c[1] - p[1]) - (q[1] - p[1]) * (c[0] - p[0]) == 0


def on_segment(p, q, c) -> bool:
    return (
        collinear(p, q, c)
        and min(p[0], q[0]) <= c[0] <= max(p[0], q[0])
        and min(p[1], q[1]) <= c[1] <= max(p[1], q[1])
    )


def test_los_clear_line():
    assert line_of_sight(ORIGIN, Hex(5, -2), set())
    assert line_of_sight(ORIGIN, Hex(5, -2), {Hex(-3, 0), Hex(0, 4), Hex(5, 3)})


def test_los_blocked_by_a_wall():
    """Target 4 hexes east behind a wall of three hexes at q = 2.

    Every corner of both hexes has |y| <= R, so every line stays in that band.  The band's
    edge y = -R is the chord between two lower corners of Hex(2, -1), y = R the chord between
    two upper corners of Hex(2, 1), and any line strictly inside crosses x = 2F (the middle of
    Hex(2, 0)) with |y| < R: blocked.  Each wall hex is needed."""
    wall = {Hex(2, -1), Hex(2, 0), Hex(2, 1)}
    assert not line_of_sight(ORIGIN, Hex(4, 0), wall)
    for h in wall:
        assert line_of_sight(ORIGIN, Hex(4, 0), wall - {h})


def test_los_a_single_hex_never_blocks_alone():
    """Under this rule one obstacle hex can't block: the line joining the two corners of the
    attacker and target that lie furthest to one side of the centre line at most grazes it."""
    assert line_of_sight(ORIGIN, Hex(4, 0), {Hex(2, 0)})  # the lines y = ±R graze its top/bottom corners
    assert line_of_sight(ORIGIN, Hex(2, 1), {Hex(1, 0)})


@given(near, near, near)
@FAST
def test_los_single_obstacle_property(a, b, o):
    assert line_of_sight(a, b, {o})


def test_los_grazing_along_an_edge_is_not_blocked():
    """Target Hex(2, -4) straight north.  Obstacle Hex(1, -2) fills the middle; Hex(1, -3) blocks
    the lines west of it.  All corners lie in x <= F/2, so the only line left is x = F/2 itself,
    which runs exactly along the east edge of Hex(1, -2) (Hex(2, -2) beyond it is clear)."""
    a, b, obstacles = ORIGIN, Hex(2, -4), {Hex(1, -2), Hex(1, -3)}
    assert line_of_sight(a, b, obstacles)
    pairs = clear_corner_pairs(a, b, obstacles)
    assert pairs == {(p, q) for p in [(2, -1), (1, 1)] for q in [(8, -13), (7, -11)]}
    edge = lattice_corners(Hex(1, -2))[5], lattice_corners(Hex(1, -2))[0]  # its edge towards direction 0
    assert edge == ((4, -5), (5, -7))
    for p, q in pairs:
        assert on_segment(p, q, edge[0]) and on_segment(p, q, edge[1])
    # The same line through the obstacle's middle is blocked, of course.
    assert segment_enters_hex((0, 0), (6, -12), Hex(1, -2))


def test_los_through_an_obstacle_corner_is_not_blocked():
    """Target Hex(2, 0) two hexes east; obstacles Hex(1, 0) between and Hex(1, -1) north of the
    gap.  The only clear line joins the two bottom corners, y = R, touching the bottom corner of
    Hex(1, 0) and passing through the clear hexes of the row below."""
    a, b, obstacles = ORIGIN, Hex(2, 0), {Hex(1, 0), Hex(1, -1)}
    assert line_of_sight(a, b, obstacles)
    ((p, q),) = clear_corner_pairs(a, b, obstacles)
    assert (p, q) == ((-1, 2), (5, 2))
    assert on_segment(p, q, lattice_corners(Hex(1, 0))[4])
    assert not line_of_sight(a, b, obstacles | {Hex(0, 1)})  # closing the row below blocks it


def test_los_between_two_obstacles_that_touch():
    """In a hex grid two hexes that share a corner share an edge, and a line through the corner
    where two obstacles meet stays out of both only by running along their common edge.

    Target Hex(-1, 2) straight south; obstacles Hex(-1, 1) and Hex(0, 1) side by side fill the
    row between.  The only line is x = 0, from the attacker's bottom corner to the target's
    top corner: exactly the common edge, through both shared corners."""
    a, b, obstacles = ORIGIN, Hex(-1, 2), {Hex(-1, 1), Hex(0, 1)}
    assert line_of_sight(a, b, obstacles)
    shared = set(lattice_corners(Hex(-1, 1))) & set(lattice_corners(Hex(0, 1)))
    assert shared == {(-1, 2), (-2, 4)}
    assert ((-1, 2), (-2, 4)) in clear_corner_pairs(a, b, obstacles)
    for p, q in clear_corner_pairs(a, b, obstacles):  # all on that one line x = 0
        assert all(collinear(p, q, c) for c in shared)


def test_los_through_two_touching_pairs():
    """A longer line x = 0 from Hex(1, -2) to Hex(-2, 4) passes exactly through the corners
    where Hex(0, -1)/Hex(1, -1) meet and where Hex(-1, 1)/Hex(0, 1) meet, crossing the clear
    Hex(0, 0) between them; filling Hex(0, 0) blocks it."""
    obstacles = {Hex(0, -1), Hex(1, -1), Hex(-1, 1), Hex(0, 1)}
    assert line_of_sight(Hex(1, -2), Hex(-2, 4), obstacles)
    assert not line_of_sight(Hex(1, -2), Hex(-2, 4), obstacles | {ORIGIN})


def test_los_ignores_own_hexes_and_accepts_a_predicate():
    obstacles = {ORIGIN, Hex(3, 0), Hex(5, 5)}
    assert line_of_sight(ORIGIN, Hex(3, 0), obstacles)
    wall = {Hex(2, -1), Hex(2, 0), Hex(2, 1)}
    assert not line_of_sight(ORIGIN, Hex(4, 0), wall.__contains__)
    assert line_of_sight(ORIGIN, Hex(4, 0), lambda h: h == Hex(2, 0))


@given(near, near, obstacle_sets)
@FAST
def test_los_is_symmetric_and_set_equals_predicate(a, b, obstacles):
    result = line_of_sight(a, b, obstacles)
    assert line_of_sight(b, a, obstacles) == result
    assert line_of_sight(a, b, obstacles.__contains__) == result
    assert line_of_sight(a, b, obstacles | {a, b}) == result


@given(near, near, obstacle_sets)
@FAST
def test_los_matches_brute_force(a, b, obstacles):
    """The culled search agrees with trying every corner pair against every obstacle."""
    expected = distance(a, b) <= 1 or bool(clear_corner_pairs(a, b, set(obstacles)))
    assert line_of_sight(a, b, obstacles) == expected


@given(near, near, obstacle_sets, obstacle_sets)
@FAST
def test_los_more_obstacles_never_help(a, b, some, more):
    if not line_of_sight(a, b, some):
        assert not line_of_sight(a, b, some | more)


@given(hexes, hexes)
@FAST
def test_los_without_obstacles_everywhere(a, b):
    assert line_of_sight(a, b, set())
    assert line_of_sight(a, b, lambda h: False)


@given(hexes, st.integers(0, 5), obstacle_sets)
@FAST
def test_los_to_a_neighbour_always(h, i, obstacles):
    assert line_of_sight(h, neighbor(h, i), obstacles | set(hex_range(h, 3)))


def _reference_enters(p, q, h) -> bool:
    """Exact reference: test the parameter values where the segment crosses a hexagon side line,
    and the midpoints between them, for a point strictly inside."""
    cx, cy = lattice_center(h)
    dx, dy = q[0] - p[0], q[1] - p[1]
    forms = [(2, 1), (1, 2), (1, -1)]
    ts = {Fraction(0), Fraction(1)}
    for fa, fb in forms:
        u, w = fa * (p[0] - cx) + fb * (p[1] - cy), fa * dx + fb * dy
        if w:
            ts |= {t for t in (Fraction(3 - u, w), Fraction(-3 - u, w)) if 0 <= t <= 1}
    ordered = sorted(ts)
    candidates = ordered + [(s + t) / 2 for s, t in zip(ordered, ordered[1:], strict=False)]
    for t in candidates:
        x, y = p[0] + t * dx - cx, p[1] + t * dy - cy
        if all(abs(fa * x + fb * y) < 3 for fa, fb in forms):
            return True
    return False


lattice_points = st.tuples(st.integers(-8, 8), st.integers(-8, 8))


@given(lattice_points, lattice_points, st.builds(Hex, st.integers(-2, 2), st.integers(-2, 2)))
@settings(max_examples=300, deadline=None)
def test_segment_enters_hex_matches_reference(p, q, h):
    assert segment_enters_hex(p, q, h) == _reference_enters(p, q, h)


def test_segment_enters_hex_cases():
    h = ORIGIN  # corners (2,-1) (1,-2) (-1,-1) (-2,1) (-1,2) (1,1)
    assert segment_enters_hex((-3, 0), (3, 0), h)  # straight through the middle
    assert not segment_enters_hex((2, -1), (1, 1), h)  # exactly one edge
    assert not segment_enters_hex((3, -3), (-1, 5), h)  # along an edge line, beyond both ends
    assert not segment_enters_hex((3, 0), (0, 3), h)  # touches the corner (1, 1) from outside
    assert segment_enters_hex((1, 1), (-1, -1), h)  # corner to opposite corner
    assert not segment_enters_hex((1, 1), (1, 1), h)  # a single corner point
    assert segment_enters_hex((0, 0), (0, 0), h)  # the centre as a point
    assert not segment_enters_hex((5, 5), (9, 9), h)  # far away


# --------------------------------------------------------------------------- robustness


@given(
    hexes,
    hexes,
    st.integers(-12, 12),
    st.integers(0, 4),
    layouts,
    st.sampled_from(OFFSET_STYLES),
    obstacle_sets,
    st.floats(-1e4, 1e4),
    st.floats(-1e4, 1e4),
)
@FAST
def test_nothing_raises_on_valid_input(a, b, k, radius, layout, style, obstacles, x, y):
    rotate(a, k, b)
    reflect(a, b)
    ring(a, radius)
    spiral(a, radius)
    hex_to_pixel(a, layout)
    pixel_to_hex(x, y, layout)
    hex_corners(a, layout)
    from_offset(*to_offset(a, style), style)
    fp = frozenset({ORIGIN, Hex(1, 0)})
    place(fp, a, k)
    is_connected(obstacles)
    fits(obstacles, obstacles)
    small = Hex(a.q % 5, a.r % 5)
    reachable(small, radius, lambda h: distance(h, ORIGIN) <= 6, obstacles)
    reachable_placements(fp, small, radius, lambda h: distance(h, ORIGIN) <= 6, obstacles, k)
    path_is_legal([small, neighbor(small, k)], everywhere, obstacles)
    line_of_sight(a, b, obstacles)
    line_of_sight(small, Hex(b.q % 5, b.r % 5), obstacles.__contains__)


huge = st.integers(-10**12, 10**12)
huge_hexes = st.builds(Hex, huge, huge)


@given(huge_hexes, huge_hexes, st.integers(), st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12,
                                                         max_value=1e12), st.sampled_from(OFFSET_STYLES), layouts)
@FAST
def test_no_input_makes_the_pure_functions_raise(a, b, k, x, style, layout):
    """Any coordinates (far beyond any map), any number of turns, any finite page point."""
    assert distance(a, b) == distance(b, a) >= 0
    assert rotate(rotate(a, k, b), -k, b) == a
    assert reflect(reflect(a, b), b) == a
    assert from_cube(*to_cube(a)) == a and from_offset(*to_offset(a, style), style) == a
    assert len(neighbors(a)) == 6 and neighbor(a, k) in neighbors(a)
    assert len(ring(a, 2)) == 12 and len(spiral(b, 1)) == 7
    assert place(BAR, a, k) == {a, a + rotate(Hex(1, 0), k)}
    assert isinstance(pixel_to_hex(x, -x, layout), Hex)
    assert len(hex_corners(a, layout)) == 6 and len(lattice_corners(b)) == 6
    assert line_of_sight(a, a + Hex(3, -1), {a + Hex(1, 0), a + Hex(2, 0)}) in (True, False)
    assert reachable(a, 2, everywhere, {b}) <= hex_range(a, 2)


def test_fast_enough_for_a_30_by_30_map():
    """Line of sight from one hex to every hex of a 30 x 30 map with some obstacles, plus a
    long multi-hex move, stay well inside a second."""
    import time

    cells = [from_offset(c, r, "odd-r") for c in range(30) for r in range(30)]
    obstacles = {h for i, h in enumerate(cells) if i % 7 == 3}
    board = set(cells)
    start = time.perf_counter()
    seen = sum(line_of_sight(cells[0], h, obstacles) for h in cells)
    placements = reachable_placements(
        TRIANGLE, from_offset(15, 15, "odd-r"), 12, board.__contains__, obstacles
    )
    assert time.perf_counter() - start < 5.0
    assert 0 < seen < len(cells)
    assert placements


# --------------------------------------------------------------------------- hand-checked tables from the rules
#
# Each row was worked out by hand on the pointy-top picture of the module docstring (row r
# horizontal, Hex(q + 1, r) east, Hex(q, r - 1) north-west), in lattice coordinates where needed.
# The reason column is the argument; the test then checks the library agrees, both ways round.

LOS_TABLE = [
    # (case, attacker, target, obstacles, sight)
    ("BF-LOS-1 open ground: nothing between",
     ORIGIN, Hex(5, -2), set(), True),
    ("BF-LOS-1 obstacles off the line do nothing",
     ORIGIN, Hex(5, -2), {Hex(-3, 0), Hex(0, 4), Hex(5, 3)}, True),
    ("neighbours share two corners: always in sight",
     ORIGIN, Hex(1, 0), {Hex(0, -1), Hex(1, -1), Hex(0, 1), Hex(-1, 1)}, True),
    ("a wall of three across the row: every line stays within |y| <= R and crosses the middle hex",
     ORIGIN, Hex(4, 0), {Hex(2, -1), Hex(2, 0), Hex(2, 1)}, False),
    ("the same wall, its south hex missing: the line y = +R joining the two bottom corners is clear",
     ORIGIN, Hex(4, 0), {Hex(2, -1), Hex(2, 0)}, True),
    ("ruling: a single obstacle never blocks; y = -R only touches its top corner",
     ORIGIN, Hex(4, 0), {Hex(2, 0)}, True),
    ("ruling: along an edge is not blocked; x = F/2 runs along the east edge of Hex(1, -2)",
     ORIGIN, Hex(2, -4), {Hex(1, -2), Hex(1, -3)}, True),
    ("ruling: through a vertex is not blocked; y = +R touches the bottom corner of Hex(1, 0)",
     ORIGIN, Hex(2, 0), {Hex(1, 0), Hex(1, -1)}, True),
    ("…and with the row below closed too, no line is left",
     ORIGIN, Hex(2, 0), {Hex(1, 0), Hex(1, -1), Hex(0, 1)}, False),
    ("ruling: between two touching obstacles, exactly along their common edge (x = 0)",
     ORIGIN, Hex(-1, 2), {Hex(-1, 1), Hex(0, 1)}, True),
    ("two touching pairs on one line x = 0, the clear Hex(0, 0) between them",
     Hex(1, -2), Hex(-2, 4), {Hex(0, -1), Hex(1, -1), Hex(-1, 1), Hex(0, 1)}, True),
    ("…and Hex(0, 0) filled: x = 0 now runs through it, every other line through a pair",
     Hex(1, -2), Hex(-2, 4), {Hex(0, -1), Hex(1, -1), Hex(-1, 1), Hex(0, 1), ORIGIN}, False),
    ("the attacker's and target's own hexes never block",
     ORIGIN, Hex(3, 0), {ORIGIN, Hex(3, 0)}, True),
]


@pytest.mark.parametrize(("case", "a", "b", "obstacles", "sight"), LOS_TABLE, ids=[row[0][:60] for row in LOS_TABLE])
def test_los_hand_checked_table(case, a, b, obstacles, sight):
    assert line_of_sight(a, b, obstacles) is sight, case
    assert line_of_sight(b, a, obstacles) is sight, case                       # symmetric
    assert line_of_sight(a, b, frozenset(obstacles).__contains__) is sight, case  # set or predicate alike
    # the brute force over all 36 corner pairs agrees
    assert (distance(a, b) <= 1 or bool(clear_corner_pairs(a, b, set(obstacles)))) is sight, case


# BF-MOVE-1 for one-hex figures: (case, start, steps, obstacles, enemies, target, fewest moves or None)
MOVE_TABLE = [
    ("open ground: distance", ORIGIN, 4, set(), set(), Hex(2, 1), 3),
    ("round a wall of three obstacles (q = 1, r = -1..1)", ORIGIN, 9, WALL, set(), Hex(2, 0), 5),
    ("enemy pieces block like obstacles", ORIGIN, 9, set(), WALL, Hex(2, 0), 5),
    ("never crossing: both short ways round closed by enemies", ORIGIN, 9, WALL,
     {Hex(1, -2), Hex(1, 2)}, Hex(2, 0), 7),
    ("never onto an obstacle", ORIGIN, 9, WALL, set(), Hex(1, 0), None),
    ("never onto an enemy", ORIGIN, 9, set(), {Hex(3, 0)}, Hex(3, 0), None),
    ("out of reach with too few moves", ORIGIN, 4, WALL, set(), Hex(2, 0), None),
    ("a ring of enemies shuts a hero in", ORIGIN, 9, set(), set(ring(ORIGIN, 1)), Hex(2, 0), None),
]


@pytest.mark.parametrize(("case", "start", "steps", "obstacles", "enemies", "target", "cost"), MOVE_TABLE,
                         ids=[row[0][:50] for row in MOVE_TABLE])
def test_move_hand_checked_table(case, start, steps, obstacles, enemies, target, cost):
    costs = move_costs(start, steps, lambda h: h not in obstacles, enemies)
    assert costs.get(target) == cost, case
    assert (target in reachable(start, steps, lambda h: h not in obstacles, enemies)) is (cost is not None), case


# BF-MOVE-1 for a multi-hex boss in the two rooms and corridor above:
# (case, footprint, start anchor, steps, enemies, end anchor, rotation, legal)
BOSS_TABLE = [
    ("stays put", TRIANGLE, ORIGIN, 0, set(), ORIGIN, 0, True),
    ("turns in place by 60° steps (all its hexes still on room A)", TRIANGLE, ORIGIN, 0, set(), ORIGIN, 3, True),
    ("a triangle cannot end in the 1-wide corridor", TRIANGLE, ORIGIN, 10, set(), Hex(4, 0), 0, False),
    ("…but its anchor walks through it to room B: 7 moves to Hex(7, 0)", TRIANGLE, ORIGIN, 7, set(),
     Hex(7, 0), 0, True),
    ("…one move short", TRIANGLE, ORIGIN, 6, set(), Hex(7, 0), 0, False),
    ("an enemy in the corridor blocks the way", TRIANGLE, ORIGIN, 10, {Hex(4, 0)}, Hex(7, 0), 0, False),
    ("an enemy beside the end placement (7,0) (8,0) (7,1) does not matter", TRIANGLE, ORIGIN, 10, {Hex(8, 1)},
     Hex(7, 0), 0, True),
    ("an enemy under one of its end hexes makes it illegal", TRIANGLE, ORIGIN, 10, {Hex(7, 1)},
     Hex(7, 0), 0, False),
    ("a bar ends in the corridor lying along it", BAR, ORIGIN, 10, set(), Hex(4, 0), 0, True),
    ("…but not across it", BAR, ORIGIN, 10, set(), Hex(4, 0), 1, False),
]


@pytest.mark.parametrize(("case", "fp", "start", "steps", "enemies", "end", "rot", "legal"), BOSS_TABLE,
                         ids=[row[0][:50] for row in BOSS_TABLE])
def test_boss_move_hand_checked_table(case, fp, start, steps, enemies, end, rot, legal):
    assert ((end, rot) in reachable_placements(fp, start, steps, on_floor, enemies)) is legal, case
    if legal:
        assert fits(place(fp, end, rot), lambda h: on_floor(h) and h not in enemies), case

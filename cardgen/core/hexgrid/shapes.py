"""Footprints (a piece's cells relative to its anchor) and movement: costs, reach, placements, paths."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence

from cardgen.core.hexgrid.coords import ORIGIN, Hex, are_adjacent, neighbors, rotate

# --------------------------------------------------------------------------- footprints

#: Cells of a multi-hex piece relative to its anchor; by convention ``Hex(0, 0)`` (the anchor) is a member.
Footprint = frozenset[Hex]
#: A hex filter: a set of allowed/blocked hexes or a predicate.
HexTest = Collection[Hex] | Callable[[Hex], bool]


def footprint(cells: Iterable[Hex]) -> Footprint:
    """A footprint from relative cells; raises ``ValueError`` unless it holds ``Hex(0, 0)`` and is connected."""
    fp = frozenset(cells)
    _check_footprint(fp)
    if not is_connected(fp):
        raise ValueError(f"footprint cells are not connected: {sorted(fp)}")
    return fp


def _check_footprint(fp: Collection[Hex]) -> None:
    if ORIGIN not in fp:
        raise ValueError("a footprint must contain its anchor Hex(0, 0)")


def reanchor(fp: Footprint, cell: Hex) -> Footprint:
    """The same shape with ``cell`` (a member, relative to the old anchor) as the new anchor."""
    if cell not in fp:
        raise ValueError(f"{cell} is not a cell of the footprint")
    return frozenset(h - cell for h in fp)


def place(fp: Footprint, anchor: Hex, rotation: int = 0) -> frozenset[Hex]:
    """Absolute cells of ``fp`` turned ``rotation`` 60° steps about its anchor, anchor put on ``anchor``."""
    _check_footprint(fp)
    return frozenset(anchor + rotate(h, rotation) for h in fp)


def is_connected(hexes: Iterable[Hex]) -> bool:
    """True when the hexes form one edge-connected group (an empty group counts as connected)."""
    cells = set(hexes)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbors(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _as_predicate(test: HexTest) -> Callable[[Hex], bool]:
    """A predicate from a hex set or a predicate."""
    if callable(test):
        return test
    return test.__contains__


def fits(cells: Iterable[Hex], allowed: HexTest) -> bool:
    """True when every cell is allowed (``allowed`` is a set of hexes or a predicate)."""
    ok = _as_predicate(allowed)
    return all(ok(h) for h in cells)


# --------------------------------------------------------------------------- movement


def _check_steps(steps: int) -> None:
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps}")


def move_costs(
    start_cells: Hex | Iterable[Hex],
    steps: int,
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
) -> dict[Hex, int]:
    """Fewest moves (at most ``steps``) to every hex a single-hex piece can reach.

    Breadth-first search from ``start_cells`` (one hex or several); a move steps to a
    neighbour that is ``passable`` and not in ``blocked``.  The start cells themselves are
    always included with cost 0, whatever stands there.
    """
    _check_steps(steps)
    starts = [start_cells] if isinstance(start_cells, Hex) else list(start_cells)
    cost = {h: 0 for h in starts}
    frontier = deque(cost)
    while frontier:
        h = frontier.popleft()
        c = cost[h]
        if c >= steps:
            continue
        for n in neighbors(h):
            if n not in cost and n not in blocked and passable(n):
                cost[n] = c + 1
                frontier.append(n)
    return cost


def reachable(
    start_cells: Hex | Iterable[Hex],
    steps: int,
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
) -> set[Hex]:
    """Hexes a single-hex piece can reach in at most ``steps`` moves, never entering or crossing
    an impassable or blocked hex (the start cells are included)."""
    return set(move_costs(start_cells, steps, passable, blocked))


def fits_turned(fp: Iterable[Hex], anchor: Hex, allowed: Callable[[Hex], bool]) -> bool:
    """True when the footprint ``fp`` with its [0, 0] on ``anchor`` lies on allowed hexes in at
    least one of its six rotations (a multi-hex piece passing a hex, turning as it goes)."""
    cells = list(fp)
    return any(all(allowed(anchor + rotate(c, k)) for c in cells) for k in range(6))


def reachable_placements(
    fp: Footprint,
    anchor: Hex,
    steps: int,
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
    rotation: int = 0,
    sweep: bool = False,
) -> set[tuple[Hex, int]]:
    """End placements ``(anchor_hex, rotation 0..5)`` of a multi-hex piece after one move.

    The anchor walks at most ``steps`` single-hex moves over passable, unblocked hexes (the
    other cells are not checked on the way); at the end the footprint, in any of the six
    rotations, must lie entirely on passable, unblocked hexes.  Staying put (0 moves) is
    included.  The piece's own current cells (``place(fp, anchor, rotation)``) are never
    treated as blocked. With ``sweep``, the whole piece must pass every hex the anchor steps
    onto, in some rotation (:func:`fits_turned`): it cannot squeeze through a gap narrower
    than itself.
    """
    _check_footprint(fp)
    own = place(fp, anchor, rotation)
    free_blocked = frozenset(blocked) - own

    def clear(h: Hex) -> bool:
        return h not in free_blocked and passable(h)

    step_ok = (lambda h: passable(h) and fits_turned(fp, h, clear)) if sweep else passable
    shapes = [[rotate(h, k) for h in fp] for k in range(6)]
    out: set[tuple[Hex, int]] = set()
    for dest in move_costs(anchor, steps, step_ok, free_blocked):
        for k, shape in enumerate(shapes):
            if all(clear(dest + h) for h in shape):
                out.add((dest, k))
    return out


def path_is_legal(
    path: Sequence[Hex],
    passable: Callable[[Hex], bool],
    blocked: Collection[Hex] = frozenset(),
    max_steps: int | None = None,
) -> bool:
    """True when ``path`` (start hex first) is a legal single-hex move.

    Consecutive hexes must be adjacent; every hex after the start must be passable and not
    blocked; with ``max_steps``, the path may have at most that many moves.  An empty path is
    not legal; a one-hex path (no move) is.
    """
    if not path:
        return False
    if max_steps is not None and len(path) - 1 > max_steps:
        return False
    for prev, h in zip(path, path[1:], strict=False):
        if not are_adjacent(prev, h) or h in blocked or not passable(h):
            return False
    return True



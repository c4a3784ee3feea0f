"""Boss Fight: how a boss's whole footprint gets from hex to hex (BF-MOVE-1, the ruling on gaps).

The seed: a boss "can not move through spaces between obstacle tiles that the full size of the
boss creature could not fit through even when rotated". Checking each hex of the way alone (the
whole boss fits there in *some* facing) let a boss walk through a one-hex gap: on the gap its
body lies on one side, a hex later on the other. The project's ruling (the rulebook's
Clarifications) makes the facings of consecutive hexes agree: the boss slides from hex to hex,
each step keeping its facing or turning it 60°, and the facing it steps in must fit on clear
tiles there (obstacles decide this; heroes are checked as before: in some facing on every hex,
never under the anchor, never where it ends). Where the move starts and where it ends it may
turn in place to any facing that fits (so a slip in one move's facing never carries into the
next). A one-hex gap between obstacles thus lets through only a boss one hex wide along its
way.

The geometry works on ``(q, r)`` tuples and 6-bit facing masks, memoised per hex for one move.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from cardgen.core.hexgrid import Hex, rotate

Cell = tuple[int, int]
ALL = 0b111111
#: the six unit steps, in (q, r)
STEPS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Sweep:
    """A footprint (its cells around the anchor) over the hexes one move may cover: which
    facings fit where, and how far the anchor gets stepping as the ruling says."""

    def __init__(self, shape: Iterable[Hex], free: Callable[[Hex], bool]):
        cells = list(shape)
        self.turned: list[list[Cell]] = [[(t.q, t.r) for t in (rotate(c, k) for c in cells)] for k in range(6)]
        self._free = free
        self._free_memo: dict[Cell, bool] = {}
        self._fit_memo: dict[Cell, int] = {}

    def free(self, q: int, r: int) -> bool:
        got = self._free_memo.get((q, r))
        if got is None:
            got = self._free_memo[(q, r)] = bool(self._free(Hex(q, r)))
        return got

    def _all_free(self, q: int, r: int, offsets: list[Cell]) -> bool:
        free = self.free
        return all(free(q + dq, r + dr) for dq, dr in offsets)

    def fits(self, at: Cell) -> int:
        """The facings (a bit each) in which the footprint, anchor on ``at``, covers only free hexes."""
        got = self._fit_memo.get(at)
        if got is None:
            q, r = at
            got = 0
            for k, cells in enumerate(self.turned):
                if self._all_free(q, r, cells):
                    got |= 1 << k
            self._fit_memo[at] = got
        return got

    def step(self, at: Cell, facings: int) -> int:
        """The facings the footprint may have on ``at`` after a step onto it from a hex where it
        had ``facings``: kept or turned 60° as it steps."""
        return (facings | _spread(facings)) & self.fits(at)

    def walk(self, start: Cell, steps: Sequence[Cell]) -> int | None:
        """The index of the first hex of ``steps`` (the anchor's, after ``start``) the footprint
        cannot step onto; None when the walk passes. It starts in any facing that fits on
        ``start`` (in any at all where none does: where it stands was a problem of its own)."""
        now = self.fits(start) or ALL
        for i, h in enumerate(steps):
            now = self.step(h, now)
            if not now:
                return i
        return None

    def costs(self, start: Cell, limit: int,
              enter: Callable[[Cell], bool] | None = None) -> dict[tuple[Cell, int], int]:
        """Fewest steps (at most ``limit``) to every (anchor hex, facing) a move can end in: a hex
        the footprint steps onto, in any facing that fits there; the anchor steps only onto hexes
        ``enter`` allows."""
        first = self.fits(start) or ALL
        seen: set[tuple[Cell, int]] = {(start, first)}
        todo: deque[tuple[Cell, int, int]] = deque([(start, first, 0)])
        out: dict[tuple[Cell, int], int] = {(start, k): 0 for k in range(6) if first >> k & 1}
        while todo:
            at, faces, c = todo.popleft()
            if c >= limit:
                continue
            q, r = at
            for dq, dr in STEPS:
                n = (q + dq, r + dr)
                moved = self.step(n, faces)
                if moved and (n, moved) not in seen and (enter is None or enter(n)):
                    seen.add((n, moved))
                    todo.append((n, moved, c + 1))
                    ends = self.fits(n)
                    for k in range(6):
                        if ends >> k & 1 and (n, k) not in out:
                            out[(n, k)] = c + 1
        return out


def _spread(facings: int) -> int:
    """The facings one 60° turn away from ``facings``."""
    return ((facings << 1) | (facings >> 1) | ((facings & 1) << 5) | (facings >> 5)) & ALL

"""Boss Fight: how a boss's whole footprint gets from hex to hex (BF-MOVE-1, the ruling on gaps).

The seed: a boss "can not move through spaces between obstacle tiles that the full size of the
boss creature could not fit through even when rotated". The ruling (BF-MOVE-1 in the catalogue,
as the rulebook words it): on every hex its anchor steps onto, the whole boss, turned as the
player likes, fits on clear tiles — obstacles checked on every hex of the way, not only where the
move ends (which let a wide boss walk through a one-hex gap: issue 33). A boss anchored by a hex
at its very tip may still slip its body past a gap a hex at a time (its body on one side on the
gap, on the other a hex later). So a way the log spells out hex by hex (``path``) is walked with
consecutive facings agreeing — each step keeps the facing or turns it 60° (the project's
ruling) — and so are the moves the game state offers its agents; a move given only by where it
ends (``to``) is read leniently — some way where the boss fits in some facing on every hex —
because the stricter reading rejected moves of 7 of 30 games an earlier engine played legally.

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

    def walk(self, start: Cell, steps: Sequence[Cell], turns: int = 1) -> int | None:
        """The index of the first hex of ``steps`` (the anchor's, after ``start``) the footprint
        cannot step onto; None when the walk passes. It starts in any facing that fits on
        ``start`` (in any at all where none does: where it stands was a problem of its own)."""
        now = self.fits(start) or ALL
        for i, h in enumerate(steps):
            for _ in range(turns):          # a step keeps its facing or turns up to ``turns`` × 60°
                now |= _spread(now)
            now &= self.fits(h)
            if not now:
                return i
        return None

    def costs(self, start: Cell, limit: int, enter: Callable[[Cell], bool] | None = None,
              turns: int = 1) -> dict[tuple[Cell, int], int]:
        """Fewest steps (at most ``limit``) to every (anchor hex, facing) a move can end in: a hex
        the footprint steps onto, in any facing that fits there; the anchor steps only onto hexes
        ``enter`` allows."""
        first = self.fits(start) or ALL
        seen: set[tuple[Cell, int]] = {(start, first)}
        todo: deque[tuple[Cell, int, int]] = deque([(start, first, 0)])
        out: dict[tuple[Cell, int], int] = {(start, k): 0 for k in range(6) if first >> k & 1}
        known, fits = self._fit_memo, self.fits
        while todo:
            at, faces, c = todo.popleft()
            if c >= limit:
                continue
            q, r = at
            for _ in range(turns):          # the facings a step may keep or turn to (as in :meth:`walk`)
                faces |= _spread(faces)
            for dq, dr in STEPS:
                n = (q + dq, r + dr)
                ends = known.get(n)
                if ends is None:
                    ends = fits(n)
                moved = faces & ends
                if moved and (n, moved) not in seen and (enter is None or enter(n)):
                    seen.add((n, moved))
                    todo.append((n, moved, c + 1))
                    for k in range(6):
                        if ends >> k & 1 and (n, k) not in out:
                            out[(n, k)] = c + 1
        return out


#: ``turns`` for "any facing on every hex": the lenient reading of a move given by where it ends
ANY_FACING = 3


def _spread(facings: int) -> int:
    """The facings one 60° turn away from ``facings``."""
    return ((facings << 1) | (facings >> 1) | ((facings & 1) << 5) | (facings >> 5)) & ALL

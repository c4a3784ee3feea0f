"""Sheet fitting: how many cards of one size a sheet holds, and with what bleed.

A home printer leaves an unprintable margin at every edge (``print: margin``, 4.2 mm by
default: a laser printer's 1/6 inch, wider than an inkjet's): no card, bleed or mark may
fall in it. Crop marks need room beyond the block's outer bleed; a cutting machine's
registration marks need their corners kept clear. Within that, a sheet holds as many
cards as fit with at least ``BLEED_FLOOR`` of bleed, and the bleed narrows from the one
asked (never below the floor) only as far as that many cards need. What the fit gave up
— cards a sheet, or bleed — is said in words for a problem and for cards.json.

All lengths are millimetres from the page's top-left corner.
"""

from __future__ import annotations

import math
from dataclasses import field

from cardgen.content.model import PrintSettings
from cardgen.core.record import record

MARK_GAP = 1.0       # mm between a crop mark and the bleed box it points at
BLEED_TICK_INSET = 0.25  # mm between a tick in touching bleeds and the trims on either side
MIN_MARK = 2.0       # mm: the shortest crop mark worth printing
MARK_ROOM = MARK_GAP + MIN_MARK
BLEED_FLOOR = 1.0    # mm: a careful cut (±0.5 mm) plus a calibrated duplex's drift (±0.5 mm)

# Silhouette "Type 1" registration marks (CAMEO, Portrait, Curio), as Silhouette Studio draws
# them: a filled 5 mm square at the top-left, 20 mm L-brackets at the top-right and
# bottom-left, 0.5 mm thick, inset 10 mm from the paper's edges (Studio's smallest inset).
REG_INSET = 10.0
REG_SQUARE = 5.0
REG_LENGTH = 20.0
REG_THICKNESS = 0.5
REG_CLEAR = 2.0      # mm kept empty around each mark's 20 mm corner and inside the marks' lines


@record(frozen=True)
class Grid:
    """Cards placed on a sheet: columns and rows of one size, their gaps and the top-left trim (mm)."""

    cols: int
    rows: int
    w: float          # trim
    h: float
    bleed: float      # effective bleed (may be less than asked when a tight fit saves a row)
    gap_x: float      # distance between neighbouring trims
    gap_y: float
    x0: float         # trim of the top-left cell
    y0: float

    def trim(self, r: int, c: int) -> tuple[float, float, float, float]:
        return (self.x0 + c * (self.w + self.gap_x), self.y0 + r * (self.h + self.gap_y), self.w, self.h)

    def bleed_box(self, r: int, c: int) -> tuple[float, float, float, float]:
        x, y, w, h = self.trim(r, c)
        b = self.bleed
        return (x - b, y - b, w + 2 * b, h + 2 * b)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def _axis(span: float, trim: float, bleed: float, gutter: float, floor: float,
          cap: int | None = None) -> tuple[int, float]:
    """(count, bleed) along one axis: the most cards (at most ``cap``) whose trims, bleeds and
    gutters fit in ``span`` with at least min(bleed, floor) of bleed; the bleed as asked, or
    narrower to fit."""
    least = min(bleed, floor)
    n = max(math.floor((span + gutter + 1e-9) / (trim + 2 * least + gutter)), 0)
    if cap is not None:
        n = min(n, max(cap, 0))
    if n == 0:
        return 0, bleed
    room = (span - n * trim - (n - 1) * gutter) / (2 * n)
    return n, max(min(bleed, room), 0.0)


def make_grid(page_w: float, page_h: float, w: float, h: float, bleed: float, gutter: float = 0.0,
              margin: float = 0.0, room: float = 0.0, floor: float = BLEED_FLOOR,
              cols: int | None = None, rows: int | None = None, room_y: float | None = None) -> Grid:
    """The grid of one card size, centred on the page: inside ``margin`` plus ``room`` (for
    crop marks) at the left and right edges and ``room_y`` (default: ``room``) at the top and
    bottom; ``cols``/``rows`` cap the counts. Neighbouring bleed boxes touch, or stand
    ``gutter`` apart."""
    room_y = room if room_y is None else room_y
    nx, bx = _axis(page_w - 2 * (margin + room), w, bleed, gutter, floor, cols)
    ny, by = _axis(page_h - 2 * (margin + room_y), h, bleed, gutter, floor, rows)
    b = min(bx, by)
    gx = gy = 2 * b + gutter
    total_w = nx * w + (nx - 1) * gx
    total_h = ny * h + (ny - 1) * gy
    return Grid(nx, ny, w, h, b, gx, gy, (page_w - total_w) / 2, (page_h - total_h) / 2)


def registration_keepouts(page_w: float, page_h: float) -> list[tuple[float, float, float, float]]:
    """The corners a Silhouette reads its marks in (top-left, top-right, bottom-left), each
    the mark's 20 mm square plus its clearance: nothing else may be printed there."""
    s, c = REG_LENGTH + REG_CLEAR, REG_INSET - REG_CLEAR
    return [(c, c, s + REG_CLEAR, s + REG_CLEAR), (page_w - REG_INSET - s, c, s + REG_CLEAR, s + REG_CLEAR),
            (c, page_h - REG_INSET - s, s + REG_CLEAR, s + REG_CLEAR)]


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _clear_of(grid: Grid, boxes: list) -> bool:
    cells = [grid.bleed_box(r, c) for r in range(grid.rows) for c in range(grid.cols)]
    return not any(_overlaps(cell, k) for cell in cells for k in boxes)


@record
class Fit:
    """A card size's grid on the sheet, and what fitting it inside the margins gave up."""

    grid: Grid
    margin: float                 # the printable area's inset from every edge (with registration: the marks')
    warnings: list[str] = field(default_factory=list)    # cards a sheet given up
    notes: list[str] = field(default_factory=list)       # bleed narrowed, within the floor

    def record(self) -> dict:
        """What cards.json says about the fit."""
        return {"margin": round(self.margin, 4), "per_sheet": self.grid.per_page,
                "bleed": round(self.grid.bleed, 4),
                "given_up": [{"what": "cards", "message": m} for m in self.warnings]
                + [{"what": "bleed", "message": m} for m in self.notes]}


def usable_margin(ps: PrintSettings) -> float:
    """How far from every edge cards (with their bleed) must stay."""
    if ps.registration == "silhouette":
        return max(ps.margin, REG_INSET + REG_THICKNESS + REG_CLEAR)
    return ps.margin


def mark_room(ps: PrintSettings) -> float:
    """Room beyond the block's outer bleed for crop marks (a cutting machine needs none)."""
    return MARK_ROOM if ps.crop_marks and ps.registration == "none" else 0.0


def marks_between(gap: float) -> bool:
    """A cut line between two neighbouring cards ``gap`` mm apart (trim to trim) can be marked
    there: in the gutter, or as a tick in their touching bleeds, at least 1 mm long."""
    return gap - 2 * BLEED_TICK_INSET >= 1.0


def fit(ps: PrintSettings, w: float, h: float, size: str = "") -> Fit:
    """The grid of ``w`` × ``h`` mm cards on ``ps``'s paper, inside its margins."""
    margin, room = usable_margin(ps), mark_room(ps)
    grid = make_grid(ps.page_w, ps.page_h, w, h, ps.bleed, ps.gutter, margin, room)
    if room:        # crop marks on two outer edges only, the other cut lines marked where rows/columns meet
        dx, dy = (abs(d) for d in ps.offset)      # the backs, shifted by the duplex offset, stay inside too
        # room on the left and right: the column cuts are marked between the rows (in their gap),
        # and the other way round; a layout whose gap cannot take a mark is no layout
        sides = make_grid(ps.page_w, ps.page_h, w, h, ps.bleed, ps.gutter, margin, max(room, dx), room_y=dy)
        ends = make_grid(ps.page_w, ps.page_h, w, h, ps.bleed, ps.gutter, margin, dx, room_y=max(room, dy))
        one_side = [g for g, n, gap in ((sides, sides.rows, sides.gap_y), (ends, ends.cols, ends.gap_x))
                    if n <= 1 or marks_between(gap)]
        grid = max([grid, *one_side], key=lambda g: g.per_page)
    if ps.registration == "silhouette" and grid.per_page:
        keep = registration_keepouts(ps.page_w, ps.page_h)
        while grid.per_page and not _clear_of(grid, keep):
            fewer = [make_grid(ps.page_w, ps.page_h, w, h, ps.bleed, ps.gutter, margin, room,
                               cols=grid.cols - (k == 0), rows=grid.rows - (k == 1)) for k in (0, 1)]
            grid = max(fewer, key=lambda g: (g.per_page, g.bleed, -g.cols))
    out = Fit(grid, margin)
    what = f"{size} cards ({w:g} × {h:g} mm)" if size else f"{w:g} × {h:g} mm cards"
    why = (f"clear of the Silhouette registration marks ({margin:g} mm from the edges and their corners)"
           if ps.registration == "silhouette" else f"inside the printer's {ps.margin:g} mm margin"
           + (" with room for crop marks" if room else ""))
    whole = make_grid(ps.page_w, ps.page_h, w, h, ps.bleed, ps.gutter)     # the paper, edge to edge
    if 0 < grid.per_page < whole.per_page:
        bare = make_grid(ps.page_w, ps.page_h, w, h, ps.bleed, ps.gutter, margin).per_page if room else 0
        out.warnings.append(f"{what}: {grid.per_page} per {ps.paper} sheet ({grid.cols} × {grid.rows}), not "
                            f"{whole.per_page}, to keep them {why}; more would leave less than "
                            f"{min(ps.bleed, BLEED_FLOOR):g} mm bleed"
                            + (f"; without crop marks (print.crop_marks: false) {bare} fit" if bare > grid.per_page
                               else ""))
    if grid.per_page and grid.bleed < ps.bleed - 1e-9:
        out.notes.append(f"{what}: {grid.bleed:.2f} mm bleed on {ps.paper} sheets, not the {ps.bleed:g} mm asked, "
                         f"to keep {grid.per_page} per sheet {why}")
    return out

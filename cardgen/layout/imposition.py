"""Imposition: cards on printer sheets, fronts and mirrored backs, crop marks, manifest.

Cards of one size share sheets. Each front page is followed by its back page, where a
card's back stands behind its front: mirrored left-right for long-edge duplex; for
short-edge, mirrored top-bottom and turned 180° (so the back reads the same way up as a
long-edge print's); then shifted by the printer's duplex offset.
All positions are millimetres from the page's top-left corner.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from cardgen.content.model import PrintSettings
from cardgen.content.sheetfit import BLEED_TICK_INSET, MARK_GAP, Fit, Grid, fit, make_grid
from cardgen.core.record import maker, record
from cardgen.layout.cutfile import registration_marks
from cardgen.scene import Line, Page, Rotate, Use, make_clip, make_moved

__all__ = ["Placement", "back_position", "crop_marks", "make_grid", "sheet_scenes", "sheets"]

MARK_WIDTH = 0.25    # mm
MARK_LENGTH = 6.0    # mm, at most, for the marks in the page margins
GUTTER_INSET = 0.5   # mm between a mark in a gutter and the bleeds on either side


def back_position(x: float, y: float, w: float, h: float, ps: PrintSettings) -> tuple[float, float]:
    """Where the back of a card whose front trim is at (x, y) stands on the back page."""
    dx, dy = ps.offset
    if ps.duplex == "long":
        return ps.page_w - x - w + dx, y + dy
    return x + dx, ps.page_h - y - h + dy


def crop_marks(grid: Grid, page_w: float, page_h: float, used: int | None = None, margin: float = 0.5) -> list:
    """Crop marks on the trim lines, in the page margins and in the gutters — never inside a trim.

    Between cards, marks sit in the gutter (``print: gutter``) clear of every bleed. Without a
    gutter, a cut line is marked in the page margins where they have room. When a sheet holds
    more cards with marks on two opposite edges only (Letter poker: 9, not 6, with no marks
    above and below the block), the other cut lines are marked where rows (or columns) meet:
    a short tick in the neighbours' touching bleed, haloed white, which the cut takes away.

    ``used``: how many cells the sheet fills (row by row); a part-filled last sheet gets marks
    for the rows and columns it uses only. ``margin``: the printer's unprintable margin, which
    no mark enters (the sheet fit leaves room for the marks inside it).
    """
    out: list = []
    b = grid.bleed
    used = grid.per_page if used is None else used
    cols, rows = min(used, grid.cols), -(-used // grid.cols)
    xs = sorted({round(grid.x0 + c * (grid.w + grid.gap_x) + d, 6) for c in range(cols) for d in (0, grid.w)})
    ys = sorted({round(grid.y0 + r * (grid.h + grid.gap_y) + d, 6) for r in range(rows) for d in (0, grid.h)})
    top = grid.y0 - b
    bottom = grid.y0 + rows * grid.h + (rows - 1) * grid.gap_y + b
    left = grid.x0 - b
    right = grid.x0 + cols * grid.w + (cols - 1) * grid.gap_x + b

    def seg(a0, a1, fixed, vertical) -> bool:
        if a1 - a0 >= 1.0:
            out.append(Line(fixed, a0, fixed, a1, "#000000", MARK_WIDTH) if vertical
                       else Line(a0, fixed, a1, fixed, "#000000", MARK_WIDTH))
            return True
        return False

    def inner(end: float, gap: float, fixed: float, vertical: bool, outer: bool) -> None:
        """Marks between neighbours: in the gutter when there is one (clear of both bleeds);
        without one, only for a cut line the page margins leave no room to mark."""
        gutter = gap - 2 * b
        if gutter >= 1.0 + 2 * GUTTER_INSET:
            seg(end + b + GUTTER_INSET, end + b + gutter - GUTTER_INSET, fixed, vertical)
        elif not outer:         # in the neighbours' bleed, cut away: a white-haloed tick
            inset = MARK_GAP if gap - 2 * MARK_GAP >= 1.0 else BLEED_TICK_INSET
            a0, a1 = end + inset, end + gap - inset
            if a1 - a0 >= 1.0:
                out.append(Line(fixed, a0, fixed, a1, "#ffffff", 3 * MARK_WIDTH) if vertical
                           else Line(a0, fixed, a1, fixed, "#ffffff", 3 * MARK_WIDTH))
            seg(a0, a1, fixed, vertical)

    for x in xs:
        outer = seg(max(margin, top - MARK_GAP - MARK_LENGTH), top - MARK_GAP, x, True)
        outer = seg(bottom + MARK_GAP, min(page_h - margin, bottom + MARK_GAP + MARK_LENGTH), x, True) or outer
        for r in range(1, rows):
            inner(grid.y0 + r * (grid.h + grid.gap_y) - grid.gap_y, grid.gap_y, x, True, outer)
    for y in ys:
        outer = seg(max(margin, left - MARK_GAP - MARK_LENGTH), left - MARK_GAP, y, False)
        outer = seg(right + MARK_GAP, min(page_w - margin, right + MARK_GAP + MARK_LENGTH), y, False) or outer
        for c in range(1, cols):
            inner(grid.x0 + c * (grid.w + grid.gap_x) - grid.gap_x, grid.gap_x, y, False, outer)
    return out


@record
class Placement:
    """One printed copy: its card id and the primitives of each side (bleed-box coordinates)."""

    card_id: str
    name: str
    copy: int
    front: Sequence[Any]    # a list, or a card side from the cache decoded when read (scene.Deferred)
    back: Sequence[Any]
    bleed: float      # the bleed the primitives were laid out with


#: ``Placement(...)`` made without the class's call (:func:`cardgen.core.record.maker`): a printed copy
make_placement = maker(Placement)


def sheets(placements: Sequence[Placement], w: float, h: float, ps: PrintSettings, first_page: int = 1,
           fitted: Fit | None = None, release: bool = False) -> Iterator[tuple[Page, Page, dict, dict]]:
    """Fronts and backs of cards of one size on sheets, one sheet at a time: its front page, back
    page and their manifest entries (``fitted``: the size's sheet fit, default: worked out here;
    ``first_page``: the front page's number). ``release``: the caller's last use of
    ``placements`` — each sheet's placements are dropped from the list once the sheet was taken
    (its scenes freed when the caller drops the pages; placements laid out as they are taken,
    ``layout.streamed``, hold no scenes to drop)."""
    imposer = Imposer(w, h, ps, fitted)
    page_no = first_page
    for start in range(0, len(placements), imposer.per_page):
        chunk = placements[start:start + imposer.per_page]
        n = len(chunk)
        sheet = imposer.sheet(chunk, page_no)
        del chunk
        if release and isinstance(placements, list):
            placements[start:start + n] = [None] * n
        yield sheet
        del sheet
        page_no += 2


class Imposer:
    """One sheet of cards of one size at a time (:func:`sheets`), what every sheet has alike made
    once: a sheet imposed when asked for (the card sheets' reuse imposes only the sheets that
    changed)."""

    def __init__(self, w: float, h: float, ps: PrintSettings, fitted: Fit | None = None) -> None:
        fitted = fitted or fit(ps, w, h)
        self.grid = fitted.grid
        self.ps = ps
        if self.grid.per_page == 0:
            raise ValueError(f"a {w:g} × {h:g} mm card with {ps.bleed:g} mm bleed does not fit on {ps.paper}")
        self.per_page = self.grid.per_page
        self.slots: dict[int, tuple] = {}
        self.same: dict[tuple, Any] = {}     # what every sheet of as many cards has alike: crop marks, boxes;
        #                                      the last back placed at each slot (a shared back: placed once)

    def sheet(self, chunk: Sequence[Placement], page_no: int) -> tuple[Page, Page, dict, dict]:
        """The sheet of ``chunk`` (at most :attr:`per_page` placements), its front page numbered
        ``page_no``: its front and back pages and their manifest entries."""
        ps, grid, slots, same = self.ps, self.grid, self.slots, self.same
        front = Page(ps.page_w, ps.page_h, label="front")
        back = Page(ps.page_w, ps.page_h, label="back")
        fm: dict[str, Any] = {"page": page_no, "side": "front", "cards": []}
        bm: dict[str, Any] = {"page": page_no + 1, "side": "back", "cards": []}
        for k, pl in enumerate(chunk):
            slot = slots.get(k)
            if slot is None:        # a sheet's k-th place: the same on every sheet (its lists shared)
                x, y, tw, th = grid.trim(k // grid.cols, k % grid.cols)
                bx, by = back_position(x, y, tw, th, ps)
                slot = slots[k] = (x, y, tw, th, bx, by, _r(x, y, tw, th),
                                   _r(x - grid.bleed, y - grid.bleed, tw + 2 * grid.bleed, th + 2 * grid.bleed),
                                   _r(bx, by, tw, th),
                                   _r(bx - grid.bleed, by - grid.bleed, tw + 2 * grid.bleed, th + 2 * grid.bleed))
            x, y, tw, th, bx, by, f_trim, f_bleed, b_trim, b_bleed = slot
            _place(front, pl.front, x, y, tw, th, pl.bleed, grid.bleed)
            placed = same.get(("placed", k))   # the last back placed at this slot: a card type's
            if placed is not None and placed[0] is pl.back and placed[1] == pl.bleed:  # shared back
                back.items.extend(placed[2])    # (its placed primitives are immutable: shared too)
            else:
                n = len(back.items)
                _place(back, pl.back, bx, by, tw, th, pl.bleed, grid.bleed, turn=ps.duplex == "short")
                same["placed", k] = (pl.back, pl.bleed, back.items[n:])
            card_id, name, copy = pl.card_id, pl.name, pl.copy
            fm["cards"].append({"id": card_id, "name": name, "copy": copy, "side": "front", "trim": f_trim,
                                "bleed_box": f_bleed})
            bm["cards"].append({"id": card_id, "name": name, "copy": copy, "side": "back", "trim": b_trim,
                                "bleed_box": b_bleed})
        if ps.registration == "silhouette":        # a cutting machine cuts: its marks, no crop marks
            front.items.extend(registration_marks(ps.page_w, ps.page_h))
        elif ps.crop_marks:
            marks = same.get(("marks", len(chunk)))
            if marks is None:
                marks = same["marks", len(chunk)] = crop_marks(grid, ps.page_w, ps.page_h, len(chunk),
                                                              max(ps.margin, 0.5))
            front.items.extend(marks)
        for page, m in ((front, fm), (back, bm)):      # for print shops' preflight
            boxes = same.get((page.label, len(chunk)))      # the sheet's k-th cards: its k-th slots
            if boxes is None:
                boxes = same[page.label, len(chunk)] = (_union([c["trim"] for c in m["cards"]]),
                                                        _union([c["bleed_box"] for c in m["cards"]]))
            page.trim_box, page.bleed_box = boxes
        fm["grid"] = {"cols": grid.cols, "rows": grid.rows, "bleed": round(grid.bleed, 4)}
        bm["grid"] = fm["grid"]
        return front, back, fm, bm


def sheet_scenes(placements: list[Placement], per_page: int) -> Iterator[Sequence[Any]]:
    """The scenes of ``placements`` in the order :func:`sheets` puts them on pages (a sheet's
    fronts, then its backs)."""
    for start in range(0, len(placements), per_page):
        chunk = placements[start:start + per_page]
        for pl in chunk:
            yield pl.front
        for pl in chunk:
            yield pl.back


def _union(boxes: list[list[float]]) -> tuple[float, float, float, float]:
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)


def _r(*vals: float) -> list[float]:
    return [round(v, 4) for v in vals]


def _place(page: Page, items: Sequence[Any], x: float, y: float, w: float, h: float, laid_bleed: float,
           bleed: float, turn: bool = False) -> None:
    """One side of a card with its trim at (x, y); ``turn``: upside down about the trim's centre
    (a short-edge duplex back)."""
    ox, oy = x - laid_bleed, y - laid_bleed
    placed: list[Any]
    if bleed + 1e-9 < laid_bleed:
        placed = [make_clip(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, (make_moved(ox, oy, items),))]
    elif len(items) == 1 and isinstance(items[0], Use):
        placed = [Use(items[0].name, items[0].x + ox, items[0].y + oy)]
    else:
        placed = [make_moved(ox, oy, items)]
    page.items.extend([Rotate(x + w / 2, y + h / 2, 180.0, tuple(placed))] if turn else placed)

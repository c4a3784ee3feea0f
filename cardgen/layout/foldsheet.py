"""Fold-and-glue sheets (``print: layout: fold``): for printers without reliable duplex, each
card's front and back side by side on one side of the paper, joined at a fold line.

A pair is cut out whole, folded on the line (the back's panel goes behind the front's) and
glued: the back reads the right way up, standing exactly behind its front whatever the printer's
duplex drift. The fold edge has no bleed (the two panels meet there); the pair's outer edges
have the sheet's bleed. Crop marks stand at the pair's trim lines and at the fold, outside the
block, as on duplex sheets. All lengths are millimetres from the page's top-left corner.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from cardgen.content.model import PrintSettings
from cardgen.content.sheetfit import Fit, fit
from cardgen.layout.imposition import Placement, crop_marks
from cardgen.scene import Clip, Line, Moved, Page

FOLD_DASH = 1.5      # mm: the fold line's dashes, inside the pair


def fold_fit(ps: PrintSettings, w: float, h: float, size: str = "") -> Fit:
    """The sheet fit of a front-and-back pair (2w × h) as one card."""
    return fit(ps, 2 * w, h, f"{size} fold-and-glue pairs" if size else "")


def fold_line(x: float, y: float, h: float) -> list:
    """A dashed line down the fold, from the pair's top trim to its bottom trim."""
    return [Line(x, y, x, y + h, "#8a857d", 0.2, (FOLD_DASH, FOLD_DASH))]


def fold_sheets(placements: Sequence[Placement], w: float, h: float, ps: PrintSettings, fitted: Fit,
                first_page: int = 1) -> Iterator[tuple[Page, dict]]:
    """One page per sheet, each pair front (left) and back (right), with its manifest entry:
    ``cards`` with each copy's front ``trim`` and ``back_trim``, and the pair's ``bleed_box``."""
    grid = fitted.grid
    if grid.per_page == 0:
        raise ValueError(f"a {w:g} × {h:g} mm card's fold-and-glue pair does not fit on {ps.paper}")
    b = grid.bleed
    for n, start in enumerate(range(0, len(placements), grid.per_page)):
        chunk = placements[start:start + grid.per_page]
        page = Page(ps.page_w, ps.page_h, label="fold")
        entry: dict[str, Any] = {"page": first_page + n, "side": "fold", "cards": [],
                                 "grid": {"cols": grid.cols, "rows": grid.rows, "bleed": round(b, 4)}}
        for k, pl in enumerate(chunk):
            x, y, _, _ = grid.trim(k // grid.cols, k % grid.cols)
            fold = x + w
            laid = pl.bleed
            page.items += [Clip(x - b, y - b, w + b, h + 2 * b, (Moved(x - laid, y - laid, pl.front),)),
                           Clip(fold, y - b, w + b, h + 2 * b, (Moved(fold - laid, y - laid, pl.back),)),
                           *fold_line(fold, y, h)]
            entry["cards"].append({"id": pl.card_id, "name": pl.name, "copy": pl.copy,
                                   "trim": _r(x, y, w, h), "back_trim": _r(fold, y, w, h),
                                   "bleed_box": _r(x - b, y - b, 2 * w + 2 * b, h + 2 * b)})
        if ps.crop_marks:
            page.items.extend(crop_marks(grid, ps.page_w, ps.page_h, len(chunk), max(ps.margin, 0.5)))
            # and the fold, marked outside the block like a cut line (the same marks, on x = fold)
            folds = [c["back_trim"][0] for c in entry["cards"]]
            page.items.extend(m for m in crop_marks(_shifted(grid, w), ps.page_w, ps.page_h, len(chunk),
                                                    max(ps.margin, 0.5))
                              if isinstance(m, Line) and m.x1 == m.x2 and any(abs(m.x1 - f) < 1e-6 for f in folds))
        page.trim_box = _union([c["bleed_box"] for c in entry["cards"]], b)
        page.bleed_box = _union([c["bleed_box"] for c in entry["cards"]], 0.0)
        yield page, entry


def _shifted(grid, w: float):
    """The grid with each cell's left trim moved onto its fold (for the fold's marks)."""
    return type(grid)(grid.cols, grid.rows, grid.w - w, grid.h, grid.bleed, grid.gap_x + w, grid.gap_y,
                      grid.x0 + w, grid.y0)


def _union(boxes: list, inset: float) -> tuple[float, float, float, float]:
    x0, y0 = min(b[0] for b in boxes) + inset, min(b[1] for b in boxes) + inset
    x1, y1 = max(b[0] + b[2] for b in boxes) - inset, max(b[1] + b[3] for b in boxes) - inset
    return (x0, y0, x1 - x0, y1 - y0)


def _r(*vals: float) -> list[float]:
    return [round(v, 4) for v in vals]

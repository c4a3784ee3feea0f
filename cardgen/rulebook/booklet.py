"""Booklet imposition for saddle-stitch: half-size pages, two per sheet side, in booklet order.

The page count is padded with blank pages to a multiple of 4. Sheet ``i`` (of n/4) carries,
front: page n−2i (left) and page 2i+1 (right); back: page 2i+2 (left) and page n−2i−1
(right) (1-based). Print duplex, flipping on the short edge, fold the stack in the middle
and staple on the fold.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation

MM = 72.0 / 25.4


def padded(n: int) -> int:
    return max(4, (n + 3) // 4 * 4)


def booklet_order(n: int) -> list[tuple[int | None, int | None]]:
    """Sheet sides in print order, each (left page, right page), 0-based; None is a blank page."""
    total = padded(n)
    sides: list[tuple[int | None, int | None]] = []
    for i in range(total // 4):
        front = (total - 1 - 2 * i, 2 * i)
        back = (2 * i + 1, total - 2 - 2 * i)
        for side in (front, back):
            sides.append(tuple(p if p < n else None for p in side))  # type: ignore[arg-type]
    return sides


def slots(n: int, back_cover: bool) -> list[int | None]:
    """The booklet's pages in reading order: the ``n`` pages, blank pages, and — with
    ``back_cover`` — the back cover last, page ``n`` (never a page of the text: a chapter that
    runs to the end of the book ends on a page inside it)."""
    if not back_cover:
        return [*range(n), *[None] * (padded(n) - n)]
    total = padded(n + 1)
    return [*range(n), *[None] * (total - n - 1), n]


def impose(pdf: bytes, sheet_w: float, sheet_h: float, back: bytes | None = None) -> bytes:
    """Impose a PDF of half-size pages 2-up on landscape sheets (``sheet_w`` × ``sheet_h`` mm, portrait).

    Pages are scaled to fit their half of the sheet (1:1 for A5 on A4) and centred in it.
    ``back``, a one-page PDF, is the back cover: the last page of the folded booklet, with any
    blank pages before it. The outline (bookmarks) is kept, each entry pointing at the sheet
    side its page is printed on; links are dropped (a booklet is for the printer).
    """

    reader = PdfReader(io.BytesIO(pdf))
    pages = list(reader.pages)
    if back is not None:
        pages += list(PdfReader(io.BytesIO(back)).pages[:1])
    order = slots(len(reader.pages), back is not None)
    W, H = sheet_h * MM, sheet_w * MM          # landscape sheet
    half = W / 2
    writer = PdfWriter()
    side_of: dict[int, int] = {}
    for side, (left, right) in enumerate(booklet_order(len(order))):
        sheet = writer.add_blank_page(width=W, height=H)
        for slot, pos in enumerate((left, right)):
            idx = order[pos] if pos is not None else None
            if idx is None:
                continue
            side_of[idx] = side
            src = pages[idx]
            pw, ph = float(src.mediabox.width), float(src.mediabox.height)
            s = min(half / pw, H / ph, 1.0 if abs(half - pw) < 1 and abs(H - ph) < 1 else 10.0)
            x = slot * half + (half - pw * s) / 2
            y = (H - ph * s) / 2
            if "/Annots" in src:
                del src["/Annots"]
            sheet.merge_transformed_page(src, Transformation().scale(s, s).translate(x, y))
    _outline(reader, reader.outline, writer, side_of, None)
    if reader.outline:
        writer.page_mode = "/UseOutlines"
    writer.add_metadata({k: v for k, v in (reader.metadata or {}).items() if isinstance(v, str)})
    writer.add_metadata({"/Creator": "cardgen", "/Subject": "booklet: print duplex, flip on the short edge"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _outline(reader: PdfReader, items: list, writer: PdfWriter, side_of: dict[int, int], parent) -> None:
    """The source's outline, nested as it was, each entry on the sheet side of its page."""
    last = None
    for item in items:
        if isinstance(item, list):
            if last is not None:
                _outline(reader, item, writer, side_of, last)
            continue
        page = reader.get_destination_page_number(item)
        if page is None or page not in side_of:
            last = None
            continue
        last = writer.add_outline_item(title=str(item.title), page_number=side_of[page], parent=parent,
                                       is_open=parent is None)

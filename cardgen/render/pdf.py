"""Render a scene document to PDF with reportlab (deterministic: invariant mode).

Symbols become form XObjects drawn once and placed by reference; images are embedded
once; graphics state changes are emitted only when they change (the drawing itself:
:mod:`cardgen.render.pen`; text operators: :mod:`cardgen.render.pdftext`; the file:
:mod:`cardgen.render.pdfwrite`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from reportlab.pdfgen import canvas

from cardgen.core.fonts import base_font
from cardgen.render import pdfreuse
from cardgen.render.pdfreuse import PageReuse
from cardgen.render.pdfwrite import pack_page, pdf_data
from cardgen.render.pen import MM, Pen, form_name
from cardgen.scene import Deferred, Document, Moved, Page, Rect, Text, Use, children

__all__ = ["MM", "draw_items", "render", "render_pages", "used_symbols"]


def draw_items(c: canvas.Canvas, items: Iterable[Any], height_mm: float, doc: Document | None = None) -> None:
    """Draw scene primitives on any reportlab canvas (e.g. inside a platypus flowable);
    ``height_mm`` is the height of the area the scene's top-left origin refers to."""
    Pen(c, doc or Document("scene")).draw(items, height_mm)


def used_symbols(symbols: dict, scenes: Iterable[Sequence[Any]]) -> list[str]:
    """The names of the symbols ``scenes`` place, in the order first placed (a symbol's own
    symbols right after it): the order their forms are made in."""
    seen: dict[str, None] = {}
    walked: dict[int, list] = {}        # scenes looked through (a card's back, placed on every sheet)

    def walk(items: Iterable[Any]) -> None:
        for it in items:
            t = type(it)
            if t is Text or t is Rect:      # the commonest leaves: nothing inside
                continue
            if isinstance(it, Use) and it.name not in seen:
                seen[it.name] = None
                walk(symbols[it.name].items)
            elif type(it) is Moved:
                once(it.items)
            else:
                walk(children(it))

    def once(items: Any) -> None:
        if walked.get(id(items)) is not items:
            walked[id(items)] = items
            if type(items) is not Deferred:
                walk(items)
                return
            for name in items.uses:     # a card side from the cache: its symbols, not decoded
                if name not in seen:
                    seen[name] = None
                    walk(symbols[name].items)
    for items in scenes:
        once(items)
    return list(seen)


def _box(box: tuple[float, float, float, float] | None, page_h: float) -> tuple | None:
    """A top-left mm rectangle as a PDF box [x0 y0 x1 y1] in points (y up)."""
    if box is None:
        return None
    x, y, w, h = box
    return tuple(round(v * MM, 3) for v in (x, page_h - y - h, x + w, page_h - y))


def render(doc: Document, release: bool = False) -> bytes:
    """The document as PDF bytes; the same document always gives the same bytes. ``release``:
    the caller's last use of ``doc`` — each page's items are dropped once the page is drawn, so
    its laid-out scenes are freed before the file is formatted."""
    return render_pages(doc, doc.pages, used_symbols(doc.symbols, (p.items for p in doc.pages)), release)


def render_pages(doc: Document, pages: Iterable[Page | pdfreuse.Sheet], used: list[str],
                 release: bool = False, reuse: PageReuse | None = None) -> bytes:
    """:func:`render` of ``doc``'s title and symbols with ``pages`` (any iterable, drawn as it
    yields them: a page need not exist before the one before it is drawn; a
    :class:`~cardgen.render.pdfreuse.Sheet` stands for its pages); ``used``: the symbols the pages
    place, in :func:`used_symbols`' order; ``reuse``: the last build's pages and sheets, written
    again where nothing they depend on changed (:mod:`cardgen.render.pdfreuse`)."""
    buf = io.BytesIO()
    them = iter(pages)
    first = next(them, None)
    size = (first.w * MM, first.h * MM) if first else (595.27, 841.89)
    c = canvas.Canvas(buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=base_font())
    c.setTitle(doc.title)
    c.setAuthor(doc.author)
    c.setCreator("cardgen")
    if doc.subject:
        c.setSubject(doc.subject)
    pen = Pen(c, doc)
    # symbols: innermost first so a form may place another
    for name in reversed(used):
        sym = doc.symbols[name]
        c.beginForm(form_name(name), 0, 0, sym.w * MM, sym.h * MM)
        pen.reset()
        pen.draw(sym.items, sym.h)
        c.endForm()
    page: Page | pdfreuse.Sheet | None = first
    pending: pdfreuse.Pending = []
    draw = partial(_page, c, pen, reuse=reuse, release=release)
    while page is not None:
        if type(page) is Page:
            _page(c, pen, page, reuse, release)
        elif reuse is not None:         # sheets: the last build's written again, or made and drawn
            page = pdfreuse.sheets(c, page, them, reuse, pending, draw)     # type: ignore[arg-type]
            continue
        else:
            for p in page.pages():      # type: ignore[union-attr]
                _page(c, pen, p, None, release)
        page = next(them, None)
    del pen, draw, first        # its operator memos: their memory is the file's to use
    data = pdf_data(c)          # what save() writes, formatted into one buffer as it goes
    if pending and reuse is not None:
        pdfreuse.keep(c._doc, data, pending, reuse)
    return data


def _page(c: canvas.Canvas, pen: Pen, page: Page, reuse: PageReuse | None,
          release: bool) -> pdfreuse.Kept | None:
    """``page`` drawn (or, with ``reuse``, written from the last build's): what was kept of it."""
    c.setPageSize((page.w * MM, page.h * MM))
    c.setTrimBox(_box(page.trim_box, page.h))
    c.setBleedBox(_box(page.bleed_box, page.h))
    kept = None
    if reuse is None:
        pen.reset()
        pen.draw(page.items, page.h)
        c.showPage()
        pack_page(c)
    else:
        kept = _reuse_or_draw(c, pen, page, reuse)
    if release:
        page.items = []
    return kept


def _reuse_or_draw(c: canvas.Canvas, pen: Pen, page: Page, reuse: PageReuse) -> pdfreuse.Kept | None:
    """``page`` written from the last build's when it is kept there for the same state, else
    drawn (and kept for the next build)."""
    before = pdfreuse.state(c)
    key = reuse.key(page, before[0])
    hit = reuse.get(key) if key is not None else None
    if hit is not None and key is not None and pdfreuse.reused(c, hit):
        reuse.put(key, *hit)
        return key, hit[1], hit[2]
    pen.reset()
    pen.draw(page.items, page.h)
    return pdfreuse.shown(c, before, reuse, key)

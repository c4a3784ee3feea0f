"""The pen: scene primitives drawn on a reportlab canvas, remembering the graphics state.

Colours, line widths and fonts are written only when they change (:mod:`cardgen.render.penstate`,
the state the pen keeps); operators a primitive wrote at one place (a sheet slot: the same on
every sheet) are written again as they were; text goes through :mod:`cardgen.render.pdftext`. A
symbol is placed as the form XObject :func:`form_name` names (made by
:func:`cardgen.render.pdf.render_pages`).
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import is_, itemgetter
from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfgen import canvas

from cardgen.core import sources
from cardgen.render.penstate import PenState
from cardgen.render.pensvg import MM, draw_svg
from cardgen.scene import (
    Circle,
    Clip,
    Document,
    Image,
    Line,
    Link,
    Moved,
    Polygon,
    Rect,
    Rotate,
    Text,
    Use,
    translate,
)

_STATE = tuple(canvas.Canvas.STATE_ATTRIBUTES)     # what reportlab's saveState keeps
_state_of = itemgetter(*_STATE)


def save_state(c: canvas.Canvas) -> None:
    """``c.saveState()``, the same steps in fewer (a card side's clip does it on every card): the
    canvas's state attributes pushed as one dictionary, its extended graphics state copied, ``q``."""
    c.state_stack.append(dict(zip(_STATE, _state_of(c.__dict__))))
    c._extgstate = c._extgstate.pushCopy()
    c._code.append("q")


class Pen(PenState):
    """Draws primitives on a reportlab canvas, remembering the current paint state."""

    def __init__(self, c: canvas.Canvas, doc: Document):
        super().__init__(c)
        self.doc = doc
        self.forms: set[str] = set()      # SVG pictures already made into forms
        self._ops: dict[tuple, tuple[str, ...]] = {}   # path operators written, by call
        self._rects: dict[tuple, tuple] = {}           # a rect's operators, by the rect (kept) and place
        self._runs: dict[tuple, tuple] = {}            # a run of rects' operators, by the rects, place, state
        self._runs_seen: set[int] = set()              # the hashes of those keys met once
        self._paths: dict[str, str] = {}               # picture paths, checked once per document
        self._images: dict[tuple, tuple] = {}          # picture operators written, by picture and place
        self._uses: dict[tuple, tuple] = {}            # form placements written, by symbol and place
        self._placed: dict[tuple, tuple] = {}          # clipped sides placing one form, by place (clipped)

    def ops(self, method: Any, *args: Any) -> None:
        """``method(*args)`` for a canvas method that only appends path operators to the page:
        the same call (same sheet slot on another page) repeats the operators it wrote before."""
        code = self.c._code
        key = (method.__name__, self.c._fillMode, *args)
        done = self._ops.get(key)
        if done is None:
            n = len(code)
            method(*args)
            if len(self._ops) > 100_000:
                self._ops.clear()
            done = self._ops[key] = tuple(code[n:])
        else:
            code.extend(done)

    def text(self, x: float, y: float, text: str, align: str) -> None:
        """``text`` at (x, y) points in the current font (:mod:`cardgen.render.pdftext` for the
        TrueType fonts cardgen bundles; reportlab's ``drawString`` for any other)."""
        c, ttf = self.c, self._ttf
        if not c.bottomup or not getattr(ttf, "_dynamicFont", False):     # not the case it writes
            {"center": c.drawCentredString, "right": c.drawRightString}.get(align, c.drawString)(x, y, text)
            self.tx.tf = None
            return
        self.tx.show(c, ttf, x, y, text, align)

    def put_text(self, it: Text, x: float, y: float, H: float) -> None:
        """``it`` with its anchor at (x, y) (mm, top-left origin; ``H`` the page height)."""
        if it.color != self.fill:
            self.set_fill(it.color)
        font = self.font
        if font is None or font[1] != it.size or font[0] != it.font:
            self.set_font(it.font, it.size)
        if self._direct:
            self.tx.show(self.c, self._ttf, x * MM, (H - y) * MM, it.text, it.align)
        else:
            self.text(x * MM, (H - y) * MM, it.text, it.align)

    def rect(self, it: Rect, x: float, y: float, H: float) -> None:
        if it.fill is None and it.stroke is None:
            return
        if it.fill:
            self.set_fill(it.fill)
        if it.stroke:
            self.set_stroke(it.stroke, it.width)
        c = self.c
        key = (id(it), x, y, H, c._fillMode)
        done = self._rects.get(key)
        if done is not None and done[0] is it:      # this rect drawn here before (a sheet slot)
            c._code.extend(done[1])
            return
        n = len(c._code)
        args = (x * MM, (H - y - it.h) * MM, it.w * MM, it.h * MM)
        if it.radius:
            self.ops(c.roundRect, *args, it.radius * MM, int(bool(it.stroke)), int(bool(it.fill)))
        else:
            self.ops(c.rect, *args, int(bool(it.stroke)), int(bool(it.fill)))
        if len(self._rects) > 100_000:
            self._rects.clear()
        self._rects[key] = (it, tuple(c._code[n:]))

    def rects(self, run: list, dx: float, dy: float, H: float) -> None:
        """Rects one after the other in a card side moved by (dx, dy), as :meth:`rect` draws them
        one by one: drawn before at the same place from the same state (a card's frame and boxes
        in a sheet slot), their operators are written again and the state they left is set."""
        if len(run) == 1:
            it = run[0]
            self.rect(it, it.x + dx, it.y + dy, H)
            return
        c = self.c
        gs = c._extgstate.getValue
        key = (dx, dy, H, self.fill, self.stroke, self.lw, c._fillMode, gs("ca"), gs("CA"), *map(id, run))
        done = self._runs.get(key)
        if done is not None and all(map(is_, done[0], run)):
            c._code.extend(done[1])
            self.fill, self.stroke, self.lw, c._fillColorObj, c._strokeColorObj, c._lineWidth = done[2]
            return
        n = len(c._code)
        for it in run:
            self.rect(it, it.x + dx, it.y + dy, H)
        self._remember_run(key, run, n)

    def _remember_run(self, key: tuple, run: list, n: int) -> None:
        """The run just drawn (its operators from ``n`` on), kept from the second time its key is
        met (rects laid out anew for each card, read back from the cache, never meet again) when
        the state it leaves is all in the key and in what it keeps."""
        h = hash(key)
        if h not in self._runs_seen:
            if len(self._runs_seen) > 200_000:
                self._runs_seen.clear()
            self._runs_seen.add(h)
            return
        c = self.c
        gs = c._extgstate.getValue
        if (c._enforceColorSpace is not None or gs("ca") != key[7] or gs("CA") != key[8]
                or any(h and type(self.color(h)) is not Color for it in run for h in (it.fill, it.stroke))):
            return
        if len(self._runs) > 10_000:
            self._runs.clear()
        left = (self.fill, self.stroke, self.lw, c._fillColorObj, c._strokeColorObj, c._lineWidth)
        self._runs[key] = (tuple(run), tuple(c._code[n:]), left)

    def clip(self, it: Clip, H: float) -> None:
        """The clipping path of ``it`` (its operators written again for the same box: a sheet slot)."""
        c = self.c
        key = ("clip", c._fillMode, it.x, it.y, it.w, it.h, H)
        done = self._ops.get(key)
        if done is not None:
            c._code.extend(done)
            return
        n = len(c._code)
        p = c.beginPath()
        p.rect(it.x * MM, (H - it.y - it.h) * MM, it.w * MM, it.h * MM)
        c.clipPath(p, stroke=0, fill=0)
        if len(self._ops) > 100_000:
            self._ops.clear()
        self._ops[key] = tuple(c._code[n:])

    def clipped(self, it: Clip, H: float) -> None:
        """``it``'s items drawn inside its clip (``q``, the clipping path, the items, ``Q``). A card
        side that only places a symbol (a shared back) where one was placed before (a sheet slot)
        writes the operators it wrote there, its form noted in use on the page: what it draws
        depends on no state the ``q``/``Q`` around it lets out."""
        c = self.c
        items = it.items
        moved = items[0] if len(items) == 1 and type(items[0]) is Moved else None
        key = None
        if moved is not None and len(moved.items) == 1 and type(u := moved.items[0]) is Use:
            key = (it.x, it.y, it.w, it.h, H, moved.dx, moved.dy, u.name, u.x, u.y, c._fillMode)
            done = self._placed.get(key)
            if done is not None:
                c._code.extend(done[0])
                c._formsinuse.append(done[1])
                return
        n = len(c._code)
        save_state(c)
        self.clip(it, H)
        saved = self.saved()
        if moved is not None:
            self.moved(moved, H)
        else:
            self.draw(items, H)
        c.restoreState()
        self.restore(saved)
        if key is not None:
            if len(self._placed) > 10_000:
                self._placed.clear()
            self._placed[key] = (tuple(c._code[n:]), c._formsinuse[-1])

    def use(self, name: str, x: float, y: float, H: float) -> None:
        """A symbol's form placed with its top-left corner at (x, y); placed here before (a sheet
        slot), its operators are written again (``q``, ``cm``, ``Do``, ``Q``: the state is as
        before), with the form noted in use on the page as ``doForm`` notes it."""
        c = self.c
        key = (name, x, y, H)
        done = self._uses.get(key)
        if done is not None:
            c._code.extend(done[0])
            c._formsinuse.append(done[1])
            return
        sym = self.doc.symbols[name]
        n = len(c._code)
        c.saveState()
        c.translate(x * MM, (H - y - sym.h) * MM)
        c.doForm(form := form_name(name))
        c.restoreState()
        if len(self._uses) > 10_000:
            self._uses.clear()
        self._uses[key] = (tuple(c._code[n:]), form)

    def image(self, it: Image, x: float, y: float, H: float) -> None:
        """A raster picture (its file checked once per document)."""
        c = self.c
        key = (it.path, x, y, it.w, it.h, H)
        done = self._images.get(key)
        if done is not None:            # drawn here before (a sheet slot): its operators again, and
            c._currentPageHasImages = 1     # what drawImage notes for the page
            c._code.extend(done[0])
            c._formsinuse.append(done[1])
            return
        n = len(c._code)
        paths = self._paths
        c.drawImage(paths.get(it.path) or paths.setdefault(it.path, str(sources.resolve(it.path, cap=sources.MAX_IMAGE_BYTES))),
                    x * MM, (H - y - it.h) * MM, it.w * MM, it.h * MM, mask="auto",
                    preserveAspectRatio=True, anchor="c")
        if len(self._images) > 100_000:
            self._images.clear()
        self._images[key] = (tuple(c._code[n:]), c._formsinuse[-1])

    def moved(self, m: Moved, H: float) -> None:
        """``m`` drawn exactly as ``translate(m.items, m.dx, m.dy)`` would be (the offset added to
        each position as ``translate`` adds it), without making the moved copies of the common
        primitives; the others are moved, then drawn."""
        dx, dy = m.dx, m.dy
        show = self.tx.show
        run: list | None = None         # rects one after the other, drawn together (rects)
        items = m.items
        skip = 0                        # items drawn already (a paragraph's lines after its first)
        for i, it in enumerate(items):
            if skip:
                skip -= 1
                continue
            t = type(it)
            if t is Rect:
                if run is None:
                    run = [it]
                else:
                    run.append(it)
                continue
            if run is not None:
                self.rects(run, dx, dy, H)
                run = None
            if t is Text:       # put_text, inline: a card side's commonest primitive
                if it.color != self.fill:
                    self.set_fill(it.color)
                font = self.font
                if font is None or font[1] != it.size or font[0] != it.font:
                    self.set_font(it.font, it.size)
                if self._direct:
                    if len(it.text) > 16 and (skip := self.tx.paragraph(self.c, self._ttf, items, i, dx, dy,
                                                                          H)):
                        skip -= 1
                        continue
                    show(self.c, self._ttf, (it.x + dx) * MM, (H - (it.y + dy)) * MM, it.text, it.align)
                else:
                    self.text((it.x + dx) * MM, (H - (it.y + dy)) * MM, it.text, it.align)
            else:
                self._moved_one(it, t, dx, dy, H)
        if run is not None:
            self.rects(run, dx, dy, H)

    def _moved_one(self, it: Any, t: type, dx: float, dy: float, H: float) -> None:
        """:meth:`moved`'s primitive other than a rect or a text: a form or raster picture placed
        at its moved place, anything else moved, then drawn."""
        if t is Use:
            self.use(it.name, it.x + dx, it.y + dy, H)
        elif t is Image and not it.path.lower().endswith(".svg"):
            self.image(it, it.x + dx, it.y + dy, H)
        else:
            self.draw(translate([it], dx, dy), H)

    def draw(self, items: Iterable[Any], H: float) -> None:
        c = self.c
        for it in items:
            t = type(it)
            if t is Text:
                self.put_text(it, it.x, it.y, H)
            elif t is Rect:
                self.rect(it, it.x, it.y, H)
            elif t is Moved:
                self.moved(it, H)
            elif t is Use:
                self.use(it.name, it.x, it.y, H)
            elif t is Line:
                self.set_stroke(it.stroke, it.width)
                if it.dash:
                    c.setDash([d * MM for d in it.dash])
                self.ops(c.line, it.x1 * MM, (H - it.y1) * MM, it.x2 * MM, (H - it.y2) * MM)
                if it.dash:
                    c.setDash([])
            elif t is Circle:
                if it.fill:
                    self.set_fill(it.fill)
                if it.stroke:
                    self.set_stroke(it.stroke, it.width)
                c.circle(it.cx * MM, (H - it.cy) * MM, it.r * MM, stroke=int(bool(it.stroke)),
                         fill=int(bool(it.fill)))
            elif t is Polygon:
                if it.fill:
                    self.set_fill(it.fill)
                if it.stroke:
                    self.set_stroke(it.stroke, it.width)
                p = c.beginPath()
                (x0, y0), *rest = it.points
                p.moveTo(x0 * MM, (H - y0) * MM)
                for x, y in rest:
                    p.lineTo(x * MM, (H - y) * MM)
                p.close()
                c.drawPath(p, stroke=int(bool(it.stroke)), fill=int(bool(it.fill)))
            elif t is Image and it.path.lower().endswith(".svg"):
                draw_svg(self, it, H)
            elif t is Image:
                self.image(it, it.x, it.y, H)
            elif t is Clip:
                self.clipped(it, H)
            elif t is Rotate:
                c.saveState()
                c.translate(it.cx * MM, (H - it.cy) * MM)
                c.rotate(-it.angle)               # reportlab turns counter-clockwise, y up
                c.translate(-it.cx * MM, -(H - it.cy) * MM)
                saved = self.saved()
                self.draw(it.items, H)
                c.restoreState()
                self.restore(saved)
            elif t is Link:
                c.bookmarkHorizontal(it.name, it.x * MM, (H - it.y) * MM)


def form_name(name: str) -> str:
    """The PDF name of a symbol's form."""
    return "F" + "".join(ch if ch.isalnum() else "_" for ch in name)

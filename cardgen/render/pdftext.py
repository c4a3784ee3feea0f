"""Text operators of a page, written straight into a reportlab canvas's content stream.

A text shown in a TrueType font (reportlab's subset fonts) is written as
``BT [/Fn+k size Tf] x y Td (codes) Tj ET``: the position with ``Td`` (a text object starts
at the identity matrix, so ``x y Td`` places its text as ``1 0 0 1 x y Tm`` would), no leading
and no line break after it (nothing here uses them), and the font operator only when the font
or size differs from the one in effect: the text state outlives ``ET`` and is saved and
restored with the graphics state (``q``/``Q``), which the caller tracks through
:attr:`TextOps.tf`. Texts written one after the other with nothing between them (the lines of
a paragraph, a row of labels) share one text object, each placed from the one before with
``dx dy Td`` when those two numbers, as written, land on its position as written.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from cardgen.render.pensvg import MM
from cardgen.scene import Text

EXACT = 1e-9        # points: a relative move must land on the absolute position this close


class TextOps:
    """The text operators of one document (memos of subset codes, positions, repeated texts)."""

    def __init__(self) -> None:
        self.tf: str | None = None          # the font operator in effect (None: unknown)
        self._codes: dict[str, tuple] = {}  # font → (assignments seen, code table, its characters, name)
        self._fp: dict[Any, Any] = {}       # numbers as written (fp_str), by value
        self._said: dict[tuple, tuple] = {}  # texts written, by text, place and font
        self._fixed = False                 # the last text's codes were all assigned before
        self._open: str | None = None       # the text object last written (open to the next text)
        self._at = (0.0, 0.0)               # where its last text starts, as written
        self._at_xy = ""                    # … and that place's text ("x y")
        self._moves: dict[tuple, str] = {}  # relative moves written, by the places' texts (from, to)
        self._known: dict[str, tuple] = {}  # font name → what :meth:`_know` found of its subset state

    def show(self, c: canvas.Canvas, ttf: Any, x: float, y: float, text: str, align: str) -> None:
        """``text`` in the canvas's current TrueType font and size with its anchor (left, centre
        or right end of the baseline) at (x, y) points: put where it starts (its numbers as
        written), by its operators, its first font operator written only when not in effect
        already (:meth:`_said_anew`)."""
        if len(text) <= 16:             # kept for short texts only (_said_anew)
            key = (x, y, text, align, ttf.fontName, c._fontsize)
            said = self._said.get(key)  # the same text at the same place (a sheet slot) said before?
            if said is None:
                said = self._said_anew(c, ttf, x, y, text, align, key)
            xy, x, y, tf, shown, last = said
        else:
            said = self._running(c, ttf, x, y, text) if align == "left" else None
            if said is None:
                said = self._said_anew(c, ttf, x, y, text, align, None)
            xy, x, y, tf, shown, last = said
        code = c._code
        font = "" if tf is None or tf == self.tf else f"{tf} "
        if last is not None:
            self.tf = last
        op = self._open
        if op is not None and code and code[-1] is op:
            move = self._moves.get((self._at_xy, xy))   # (strings: their hashes are kept)
            if move is None:
                move = self._move(x, y, xy)
            if move:
                self._at = (x, y)
                self._at_xy = xy
                self._open = code[-1] = f"{op[:-2]}{font}{move} {shown} ET"
                return
        self._at = (x, y)
        self._at_xy = xy
        self._open = f"BT {font}{xy} Td {shown} ET"
        code.append(self._open)

    def paragraph(self, c: canvas.Canvas, ttf: Any, items: Any, i: int, dx: float, dy: float,
                  H: float) -> int:
        """The lines of running text from ``items[i]`` on (left-aligned Texts longer than the short
        texts' memo, in one font, size and colour: a paragraph's lines), each moved by (dx, dy) mm
        on a page ``H`` mm high, written as :meth:`show` writes them one by one (the font's codes
        checked once, the text object joined once); how many it wrote: none when ``items[i]`` is
        not such a line of :meth:`_running`'s, or the next one is not (the caller shows it)."""
        first = items[i]
        font, size, color = first.font, first.size, first.color
        nxt = items[i + 1] if i + 1 < len(items) else None     # (a title: no line after it)
        if type(nxt) is not Text or nxt.font != font or nxt.size != size or nxt.color != color:
            return 0
        if not self._as_is(c, ttf):
            return 0
        fp = self._fp
        tf = fp.get((ttf.fontName, c._fontsize))
        if tf is None:
            return 0
        lines = []
        for it in items[i:]:
            if type(it) is not Text or it.font != font or it.size != size or it.color != color \
                    or it.align != "left" or len(it.text) <= 16 \
                    or not (it.text.isascii() and it.text.isprintable()):
                break
            at = fp.get(((it.x + dx) * MM, (H - (it.y + dy)) * MM))
            if at is None:
                break
            lines.append((at, it.text))
        if len(lines) < 2:
            return 0
        self._lines(c, tf, lines)
        return len(lines)

    def _lines(self, c: canvas.Canvas, tf: str, lines: list[tuple[tuple, str]]) -> None:
        """:meth:`paragraph`'s lines written: for each, what :meth:`show` writes for a line that
        :meth:`_running` says (its place as written, its codes as its own, ``tf`` its font)."""
        code = c._code
        escape = c._escape
        moves = self._moves
        font = "" if tf == self.tf else f"{tf} "
        self.tf = tf
        op = self._open
        body: list[str] | None = [op[:-2]] if op is not None and code and code[-1] is op else None
        extends = body is not None      # the open text object is code[-1]: joined in place
        for (xy, x, y), text in lines:
            shown = f"({escape(text.encode('latin-1'))}) Tj"
            if body is not None:
                move = moves.get((self._at_xy, xy))
                if move is None:
                    move = self._move(x, y, xy)
                if move:
                    body.append(f"{font}{move} {shown} ")
                    self._at = (x, y)
                    self._at_xy = xy
                    font = ""
                    continue
                self._close(code, body, extends)
                extends = False
            self._at = (x, y)
            self._at_xy = xy
            body = [f"BT {font}{xy} Td {shown} "]
            font = ""
        assert body is not None
        self._close(code, body, extends)

    def _close(self, code: list, body: list[str], extends: bool) -> None:
        """A text object's operators (``body`` and ``ET``) put in the content stream: in place of
        the open one it extends, or after it."""
        op = self._open = "".join(body) + "ET"
        if extends:
            code[-1] = op
        else:
            code.append(op)

    def _as_is(self, c: canvas.Canvas, ttf: Any) -> bool:
        """Whether ``ttf`` codes printable ASCII as itself in this document, as it did when its
        codes were last looked at (no character assigned since)."""
        known = self._known.get(ttf.fontName)
        return not (known is None or not known[7] or known[0] is not c._doc or known[1] is not ttf
                    or known[2] != len(known[3].assignments))

    def _running(self, c: canvas.Canvas, ttf: Any, x: float, y: float, text: str) -> tuple | None:
        """What :meth:`_said_anew` gives for a left-aligned line of running text whose characters
        the font codes as themselves, its place and font operator written before, without its
        steps; None when it is not such a line."""
        if not (self._as_is(c, ttf) and text.isascii() and text.isprintable()):
            return None
        at = self._fp.get((x, y))
        tf = self._fp.get((ttf.fontName, c._fontsize))
        if at is None or tf is None:
            return None
        return (*at, tf, f"({c._escape(text.encode('latin-1'))}) Tj", tf)

    def _said_anew(self, c: canvas.Canvas, ttf: Any, x: float, y: float, text: str, align: str,
                   key: tuple | None) -> tuple:
        """How ``text`` is said at (x, y): where it starts (``xy``, and its numbers as written), its
        first font operator, its operators, the font operator in effect after them; kept by
        ``key`` when its codes were all assigned before (the same next time: short texts, labels
        and numbers, which repeat)."""
        if align == "center":
            x = x - 0.5 * pdfmetrics.stringWidth(text, ttf.fontName, c._fontsize)
        elif align == "right":
            x = x - pdfmetrics.stringWidth(text, ttf.fontName, c._fontsize)
        at = self._fp.get((x, y))
        if at is None:
            if len(self._fp) > 100_000:
                self._fp.clear()
            xs, ys = fp_str(x), fp_str(y)
            at = self._fp[(x, y)] = (f"{xs} {ys}", float(xs), float(ys))
        self._fixed = False
        said = (*at, *self._shown(c, ttf, text))
        if self._fixed and key is not None:
            if len(self._said) > 20_000:
                self._said.clear()
            self._said[key] = said
        return said

    def _move(self, x: float, y: float, xy: str) -> str:
        """``dx dy Td`` from the last text's start to (x, y), or "" when those numbers as written
        would not land on (x, y) as written (remembered by the two places' texts, which give the
        numbers as written: sheet slots repeat the same moves)."""
        px, py = self._at
        dx, dy = fp_str(x - px), fp_str(y - py)
        exact = abs(px + float(dx) - x) < EXACT and abs(py + float(dy) - y) < EXACT
        if len(self._moves) > 100_000:
            self._moves.clear()
        move = self._moves[(self._at_xy, xy)] = f"{dx} {dy} Td" if exact else ""
        return move

    def _shown(self, c: canvas.Canvas, ttf: Any, text: str) -> tuple[str | None, str, str | None]:
        """The first font operator, the rest of the operators that show ``text``, and the font
        operator in effect after them
        (``PDFTextObject._formatText``: the font's subset codes; text whose characters all have a
        code in the first subset comes from one ``str.translate``, printable ASCII whose codes are
        its own (reportlab's ``ttfAsciiReadable``) from none)."""
        if not text:
            return None, "", None
        name = ttf.fontName
        known = self._known.get(name)
        if known is None or known[0] is not c._doc or known[1] is not ttf \
                or known[2] != len(known[3].assignments):
            known = self._know(c._doc, ttf)
        if known is not None:
            if known[7] and text.isascii() and text.isprintable():
                coded = text                    # every character 32–126, each its own code
            elif known[5].issuperset(text):
                coded = text.translate(known[4])
            else:
                coded = None
            if coded is not None:
                size = c._fontsize
                tf = self._fp.get((name, size))
                if tf is None:
                    tf = self._fp[(name, size)] = f"{known[6]} {fp_str(size)} Tf"
                self._fixed = True
                return tf, f"({c._escape(coded.encode('latin-1'))}) Tj", tf
        return self._split(c, ttf, text)

    def _know(self, doc: Any, ttf: Any) -> tuple | None:
        """The font's subset state in ``doc`` as :meth:`_shown` reads it (None: it has none yet):
        the document, the font, how many characters have codes, the state, the first subset's
        code table, its characters, its name, and whether printable ASCII is coded as itself."""
        state = ttf.state.get(doc)      # a weak-keyed dictionary: its get is Python code
        if state is None:
            return None
        table = {k: n for k, n in state.assignments.items() if n < 256}
        same = all(table.get(k) == k for k in range(32, 127))
        if 32 in table:
            table[0xA0] = table[32]         # splitString shows a no-break space as a space
        name = ttf.getSubsetInternalName(0, doc) if table else ""
        known = self._known[ttf.fontName] = (doc, ttf, len(state.assignments), state, table,
                                             frozenset(map(chr, table)), name, same)
        return known

    def _split(self, c: canvas.Canvas, ttf: Any, text: str) -> tuple[str | None, str, str | None]:
        """:meth:`_shown` by reportlab's ``splitString`` (assigning codes to new characters)."""
        doc = c._doc
        size = c._fontsize
        out: list[str] = []
        first = None
        cur = None
        for subset, t in ttf.splitString(text, doc):
            tf = f"{ttf.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf"
            if first is None:
                first = cur = tf
            elif tf != cur:
                out.append(tf)
                cur = tf
            out.append(f"({c._escape(t)}) Tj")
        return first, " ".join(out), cur

"""The text a player reads in a typeset rulebook, section by section.

Read back from the flowables the typesetter lays out (:meth:`Rulebook.body`), not from the
Markdown: game numbers are filled in, ``{icon}`` is its glyph, links are their words, a
``::: tip`` box is its label and its text. A *section* is a heading of levels 1–3 and what follows
it up to the next one; its *passages* are the units a reader compares — a paragraph however it
is wrapped, a list item, a table row, a box's title, a picture's caption.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import field

from reportlab.platypus import Flowable, KeepTogether, ListFlowable, ListItem, Paragraph, Preformatted, Table

from cardgen.boards.inlineicons import as_text
from cardgen.core.problems import safe
from cardgen.core.record import record
from cardgen.rulebook.flowables import CardRow, FullWidth, Heading
from cardgen.scene import Text, children

SEP = " › "
SECTION_LEVELS = 3          # headings #, ## and ### start a section; #### is a passage of its section


@record
class Passage:
    text: str
    kind: str = "text"      # text | item | row | box | picture | heading


@record
class Section:
    """One section of a version as typeset: its heading path and its passages in reading order."""

    path: tuple[str, ...]
    level: int
    anchor: str
    passages: list[Passage] = field(default_factory=list)
    file: str = ""
    line: int = 0            # 1-based source line of the heading

    @property
    def title(self) -> str:
        return SEP.join(self.path)

    @property
    def lines(self) -> list[str]:
        return [p.text for p in self.passages]


_SUPER = re.compile(r"<super>(.*?)</super>", re.S)
_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def markup_text(markup: str) -> str:
    """Paragraph markup → the words it prints (a footnote mark as ``[1]``)."""
    s = _SUPER.sub(lambda m: f"[{_TAG.sub('', m.group(1))}]", as_text(markup))
    s = _BREAK.sub(" ", s)
    s = _TAG.sub("", s)
    return safe(_SPACE.sub(" ", html.unescape(s)).strip())


def passages(flows: Iterable[Flowable], kind: str = "text") -> Iterable[Passage | Heading]:
    """Every passage (and every section heading) of a run of flowables, in reading order."""
    term: str | None = None
    for f in flows:
        for got in _one(f, kind):
            if isinstance(got, Passage) and got.kind == "term":
                term = got.text
                continue
            if term is not None and isinstance(got, Passage):
                got = Passage(f"{term}: {got.text}", got.kind if got.kind != "text" else "item")
                term = None
            yield got


def _one(f: Flowable, kind: str) -> Iterable[Passage | Heading]:
    if isinstance(f, Heading):
        if f.level < SECTION_LEVELS:
            yield f
        else:
            yield Passage(markup_text(f.plain), "heading")
    elif isinstance(f, Paragraph):
        text = markup_text(f.text)
        if text:
            yield Passage(text, "term" if getattr(f.style, "name", "") == "term" else kind)
    elif isinstance(f, Preformatted):
        text = _SPACE.sub(" ", "\n".join(f.lines)).strip()
        if text:
            yield Passage(text, kind)
    elif isinstance(f, ListFlowable):
        for item in f._flowables:
            inner = item._flowables if isinstance(item, ListItem) else [item]
            texts = [p.text for p in passages(inner, "item") if isinstance(p, Passage)]
            if texts:
                yield Passage(" ".join(texts), "item")
    elif isinstance(f, ListItem):
        yield from passages(f._flowables, "item")
    elif isinstance(f, KeepTogether):
        yield from passages(f._content, kind)
    elif isinstance(f, FullWidth):
        yield from _table(f.make(480.0), f.kind)
    elif isinstance(f, Table):
        yield from _table(f, "table")
    elif isinstance(f, CardRow):
        for c in f.cards:           # a pictured card is read as printed: a changed card is a change
            cap = markup_text(c.caption) if c.caption else "Card"
            yield Passage(f"[{cap}] " + card_text(c.items), "picture")


def card_text(items) -> str:
    """The words printed on a pictured card, in the order they are drawn."""
    out: list[str] = []
    for it in items:
        if isinstance(it, Text):
            out.append(it.text)
        out += [card_text(children(it))] if children(it) else []
    return safe(_SPACE.sub(" ", " ".join(out)).strip())


def _cells(cell) -> list[Flowable]:
    if isinstance(cell, (list, tuple)):
        return [c for c in cell if isinstance(c, Flowable)]
    return [cell] if isinstance(cell, Flowable) else []


def _table(t: Table, kind: str) -> Iterable[Passage | Heading]:
    rows = t._cellvalues
    if kind == "box":                       # a callout: its title, then its blocks
        first = True
        for row in rows:
            for cell in row:
                for p in passages(_cells(cell)):
                    if isinstance(p, Passage) and first:
                        p = Passage(p.text, "box")
                        first = False
                    yield p
        return
    for row in rows:
        cells = []
        for cell in row:
            words = [p.text for p in passages(_cells(cell)) if isinstance(p, Passage)]
            if not words and isinstance(cell, str):
                words = [markup_text(cell)]
            cells.append(" ".join(words))
        if any(cells):
            yield Passage(" | ".join(cells), "row")


def sections(flows: Iterable[Flowable], where: dict[str, tuple[str, int]] | None = None) -> list[Section]:
    """The typeset story → its sections; ``where`` maps a heading anchor to its (file, line)."""
    out: list[Section] = []
    stack: list[tuple[int, str]] = []
    seen: dict[tuple[str, ...], int] = {}
    cur: Section | None = None
    where = where or {}
    for got in passages(flows):
        if isinstance(got, Heading):
            level = got.level + 1
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, markup_text(got.plain)))
            path = tuple(t for _, t in stack)
            n = seen.get(path, 0) + 1
            seen[path] = n
            if n > 1:
                path = (*path[:-1], f"{path[-1]} ({n})")
            file, line = where.get(got.key, ("", 0))
            cur = Section(path, level, got.key, [], file, line)
            out.append(cur)
            continue
        if cur is None:
            cur = Section(("Opening",), 1, "", [])
            out.append(cur)
        cur.passages.append(got)
    return out

"""Pages of the last build written again from their encoded content streams (an edit re-draws
only the pages it touches), byte for byte what drawing them would write.

A page's content stream depends on its primitives and on the document's state where the page
starts: the subset codes each TrueType font has given (in the order characters first appear in
the document) and what the document already holds (fonts, pictures, forms). Drawing a page
changes that state only by the codes its new characters take — or else (a font or a picture
seen first, a link, an extended graphics state, colour spaces, annotations) the page is not
kept. A kept page is written again when its primitives and the state where it starts are those
of the last build: its encoded stream in place, its forms and pictures noted, and the codes it
gave replayed (``splitString`` of the same characters in the same order gives the same codes).
The caller keeps the pages (:class:`PageReuse`): what a page depends on, as a key, and the
pages of the last build by key.

A whole sheet (:class:`Sheet`: its pages made only when asked for) is kept too, by what it is made
from and the state where it starts: its pages' objects as the file had them (each page's text with
its references by name, its stream's text), put in the document as they are (:func:`placed`) —
no imposition, no drawing, no formatting; kept from the file just written (:func:`keep`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from cardgen.render.pdffmt import Ready
from cardgen.render.pdfwrite import pack_page, put_packed
from cardgen.scene import Page

Stream = bytes | memoryview       # an encoded content stream (a view of a file of them)
Kept = tuple[str, list[str], list[list[str]]]      # a page kept: its key, forms, codes (as ``get``'s)
#: a page of a sheet as the file had it: its key (None: none), its text's parts, the references
#: between them (internal names; "" its stream, "^" the page tree), its stream's text, where the
#: encoded stream lies in that text (offset, length), the forms it places and the codes its
#: characters took
ReadyPage = tuple[str | None, list[Stream], list[str], Stream, int, int, list[str], list[list[str]]]


class Sheet(Protocol):
    """A sheet: its pages made only when the last build's are not written again."""

    w: float
    h: float
    sig: str            # what its pages (and ``records``) are made from, but the document's state

    def pages(self) -> list[Page]:
        """Its pages, made now."""

    def records(self) -> Stream:
        """After :meth:`pages`: what the caller keeps with the sheet (given back by :meth:`reused`)."""

    def reused(self, records: Stream) -> None:
        """The sheet was written from the last build's: what was kept with it."""


class PageReuse(Protocol):
    """The pages of the last build, and this build's as it goes."""

    def key(self, page: Page, state: str) -> str | None:
        """What ``page``'s stream depends on (``state``: the document's where it starts), or None
        when it cannot tell (the page is drawn and not kept)."""

    def get(self, key: str) -> tuple[Stream, list[str], list[list[str]]] | None:
        """The last build's page of that key: its encoded stream, the forms and pictures it
        places, the characters each font first gave a code to ([font, characters], in order)."""

    def put(self, key: str, stream: Stream, forms: list[str], codes: list[list[str]]) -> None:
        """This build's page (kept for the next build)."""

    def scene(self, items: Sequence[Any]) -> str:
        """A scene's digest (for a sheet's ``sig``)."""

    def card_lines(self, placements: Sequence[Any]) -> list[str]:
        """Each card placed as a line of text, exact (for a sheet's ``sig``): its id, name, copy,
        bleed and sides."""

    def sheet_key(self, sig: str, state: str) -> str:
        """A sheet's key: what it is made from (``sig``) and the state where it starts."""

    def get_sheet(self, key: str) -> tuple[Stream, list[ReadyPage]] | None:
        """The last build's sheet of that key: what was kept with it, and its pages."""

    def put_sheet(self, key: str, records: Stream, pages: list[ReadyPage]) -> None:
        """This build's sheet (kept for the next build)."""

    def run_key(self, sigs: list[str], state: str) -> str:
        """A run of sheets' key: what its sheets are made from, in order, and the state where
        the first starts (which, with them, fixes where each of the others starts)."""

    def get_run(self, key: str) -> list[str] | None:
        """The last build's run of that key: its sheets' keys."""

    def put_run(self, key: str, sheets: list[str]) -> None:
        """This build's run (kept for the next build)."""


def _fonts(doc: Any) -> list[tuple[str, Any]]:
    """(name, subset state) of every TrueType font with codes in ``doc``, by name."""
    out = []
    for name, f in sorted(pdfmetrics._fonts.items()):
        st = f.state.get(doc) if getattr(f, "_dynamicFont", False) and hasattr(f, "state") else None
        if st is not None:
            out.append((name, st))
    return out


State = tuple[str, tuple, list[tuple[str, Any, int]]]


def state(c: canvas.Canvas) -> State:
    """The document's state where a page starts: as text (for the page's key), what a kept page
    may not change (objects, fonts named, links), and each font's subset state and code count."""
    doc = c._doc
    fonts = [(n, st, len(st.assignments)) for n, st in _fonts(doc)]
    fixed = (len(doc.idToObject), tuple(sorted(doc.fontMapping.items())), len(c._destinations))
    codes = [(n, k, st.nextCode, st.internalName, st.frozen) for n, st, k in fonts]
    text = repr((rl_config.useA85, fixed, codes))
    return text, fixed, fonts


def reused(c: canvas.Canvas, hit: tuple[Stream, list[str], list[list[str]]]) -> bool:
    """The page set up by the caller (size, boxes) shown from ``hit``; False (nothing done) when
    it places a form or picture the document does not hold."""
    stream, forms, codes = hit
    doc = c._doc
    if not all(doc.hasForm(f) for f in forms) or c._code:
        return False
    for name, chars in codes:
        pdfmetrics.getFont(name).splitString(chars, doc)
    c._formsinuse = list(forms)
    c.showPage()
    put_packed(c, str(stream, "latin-1") if rl_config.useA85 else bytes(stream))    # ASCII85: text
    return True


def shown(c: canvas.Canvas, before: State, reuse: PageReuse,
          key: str | None) -> Kept | None:
    """The page just drawn shown and packed; kept by ``reuse`` under ``key`` when drawing it
    changed nothing of the document but the codes its characters took (and then returned: its
    key, forms and codes)."""
    keep = key is not None and not (c._annotationrefs or c._colorsUsed or c._shadingUsed or c._extgstate._c
                                    or c._psCommandsBeforePage or c._psCommandsAfterPage)
    forms = list(dict.fromkeys(c._formsinuse))      # (a page's forms are a set to the file: its
    codes: list[list[str]] = []                     # resources name each once, sorted)
    if keep:
        _, fixed, fonts = state(c)
        was = {n: k for n, _, k in before[2]}
        if [n for n, _, _ in fonts] != list(was) or fixed != before[1]:
            keep = False
        else:
            for n, st, k in fonts:
                if k != was[n]:
                    codes.append([n, "".join(map(chr, list(st.assignments)[was[n]:]))])
    c.showPage()
    packed = pack_page(c)
    if keep and key is not None and packed is not None:
        reuse.put(key, packed.encode("latin-1") if isinstance(packed, str) else packed, forms, codes)
        return key, forms, codes
    return None


Pending = list[tuple[str, bytes, list[tuple[str, Any, list[str], list[list[str]]]]]]


RUN = 16            # sheets a run: an edit places the others' runs whole


def sheets(c: canvas.Canvas, first: Sheet, rest: Iterator[Any], reuse: PageReuse, pending: Pending,
           draw: Callable[[Page], Kept | None]) -> Any:
    """``first`` and the sheets that follow it in ``rest`` (up to :data:`RUN` in all) written as
    one run: from the last build's sheets when the run is kept there for the same state (one
    key, one look-up, no state taken between its sheets), else sheet by sheet (:func:`sheet`).
    Returns what ``rest`` gave after them (None: nothing). The document's first sheet is a run
    of its own: its first page names the fonts, so it is never kept whole (nor a run with it)."""
    run = [first]
    size = RUN if c._doc.Pages.pages else 1
    nxt = next(rest, None) if size > 1 else None
    while nxt is not None and type(nxt) is not Page and len(run) < size:
        run.append(nxt)
        nxt = next(rest, None)
    key = reuse.run_key([s.sig for s in run], state(c)[0])
    keys = reuse.get_run(key)
    hits = [reuse.get_sheet(k) for k in keys] if keys is not None and len(keys) == len(run) else []
    if hits and all(h is not None for h in hits) \
            and placed(c, [p for h in hits for p in h[1]]):       # type: ignore[index]
        for s, k, h in zip(run, keys, hits, strict=True):        # type: ignore[arg-type]
            s.reused(h[0])                                      # type: ignore[index]
            reuse.put_sheet(k, *h)                              # type: ignore[misc]
        reuse.put_run(key, keys)                                # type: ignore[arg-type]
    else:
        reuse.put_run(key, [sheet(c, s, reuse, pending, draw) for s in run])
    return nxt if size > 1 else next(rest, None)


def sheet(c: canvas.Canvas, it: Sheet, reuse: PageReuse, pending: Pending,
          draw: Callable[[Page], Kept | None]) -> str:
    """``it`` written from the last build's sheet when it is kept there for the same state, else
    its pages made and each drawn by ``draw`` (which says what it kept of the page): a sheet
    whose every page was kept waits in ``pending`` for the file (:func:`keep`). Returns its key."""
    key = reuse.sheet_key(it.sig, state(c)[0])
    hit = reuse.get_sheet(key)
    if hit is not None and placed(c, hit[1]):
        it.reused(hit[0])
        reuse.put_sheet(key, *hit)
        return key
    pages = c._doc.Pages.pages
    kept = []
    for page in it.pages():
        k = draw(page)
        kept.append(None if k is None else (k[0], pages[-1], k[1], k[2]))
        if k is not None:
            watch(c, pages[-1])
    if all(k is not None for k in kept):
        pending.append((key, it.records(), kept))     # type: ignore[arg-type]
    return key


def placed(c: canvas.Canvas, pages: Sequence[ReadyPage]) -> bool:
    """The sheet's ``pages`` put in the document as the last build's file had them; False
    (nothing done) when one places a form the document does not hold."""
    doc = c._doc
    if c._code or not all(doc.hasForm(f) for f in {f for p in pages for f in p[6]}):
        return False
    for _, parts, refs, body, _, _, _, codes in pages:
        for name, chars in codes:
            pdfmetrics.getFont(name).splitString(chars, doc)
        stream = Ready([body])
        doc.addPage(Ready(parts, [stream if r == "" else doc.Pages if r == "^" else r for r in refs],
                          first=[doc.Pages]))
        c._pageNumber += 1
    return True


def watch(c: canvas.Canvas, page: Any) -> None:
    """Where the file puts ``page`` and its stream is to be noted (:func:`keep` reads them)."""
    kept = c._doc.__dict__.setdefault("_cardgen_keep", {})
    kept[id(page)] = kept[id(page.Contents)] = None


_REF = re.compile(rb"(\d+) 0 R(?=[\s\]>/])")
_AUTO = re.compile(r"R\d+")         # an internal name reportlab numbers: not the same next build
_END = b"endobj\n"
_STREAM_END = b"endstream\n"


def keep(doc: Any, data: bytes, pending: Pending, reuse: PageReuse) -> None:
    """The sheets drawn and kept (``pending``) handed to ``reuse`` with their pages' objects as
    the file ``data`` has them."""
    view = memoryview(data)
    for key, records, pages in pending:
        got = []
        for pkey, page, forms, codes in pages:
            found = _ready(doc, view, page)
            if found is None:
                break
            got.append((pkey, *found, forms, codes))
        else:
            reuse.put_sheet(key, records, got)      # type: ignore[arg-type]


def _text(doc: Any, view: memoryview, obj: Any) -> memoryview | None:
    """``obj``'s text in the file, between ``N 0 obj`` and ``endobj``."""
    at = doc.__dict__.get("_cardgen_keep", {}).get(id(obj))
    if not isinstance(at, tuple):
        return None
    text = view[at[0]:at[0] + at[1]]
    head = bytes(text[:32]).find(b" obj\n") + 5
    return text[head:len(text) - len(_END)] if head > 4 and text[len(text) - len(_END):] == _END else None


def _ready(doc: Any, view: memoryview, page: Any) -> tuple[list[Stream], list[str], Stream, int, int] | None:
    """A page drawn: its text's parts and references, its stream's text and where its encoded
    stream lies in it (None: not as expected, not kept)."""
    text, body = _text(doc, view, page), _text(doc, view, page.Contents)
    if text is None or body is None or not body.tobytes().endswith(_STREAM_END):
        return None
    raw = text.tobytes()
    own = getattr(page.Contents, "__InternalName__", None)
    tree = getattr(doc.Pages, "__InternalName__", None)
    parts: list[Stream] = []
    refs: list[str] = []
    at = 0
    for m in _REF.finditer(raw):
        name = doc.numberToId.get(int(m.group(1)))
        if name is None or (name != own and name != tree and _AUTO.fullmatch(name)):
            return None
        parts.append(raw[at:m.start()])
        refs.append("" if name == own else "^" if name == tree else name)
        at = m.end()
    parts.append(raw[at:])
    start = bytes(body[:200]).find(b"\nstream\n") + 8
    if start < 8:
        return None
    return parts, refs, body, start, len(body) - start - len(_STREAM_END)

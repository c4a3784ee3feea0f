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
"""

from __future__ import annotations

from typing import Any, Protocol

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from cardgen.render.pdfwrite import pack_page, put_packed
from cardgen.scene import Page

Stream = bytes | memoryview       # an encoded content stream (a view of a file of them)


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
          key: str | None) -> None:
    """The page just drawn shown and packed; kept by ``reuse`` under ``key`` when drawing it
    changed nothing of the document but the codes its characters took."""
    keep = key is not None and not (c._annotationrefs or c._colorsUsed or c._shadingUsed or c._extgstate._c
                                    or c._psCommandsBeforePage or c._psCommandsAfterPage)
    forms = list(c._formsinuse)
    codes: list[list[str]] = []
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

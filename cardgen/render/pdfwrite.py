"""The PDF file of a finished reportlab canvas, formatted object by object into one buffer.

``Canvas.getpdfdata`` formats every object into a list of byte strings and joins them at the
end, so the whole file exists twice (three times with the page streams still held) at the
moment of the largest memory use of a build. :func:`pdf_data` writes the same bytes, in the
same order, but each object into one growing buffer as it is formatted, and lets go of a
stream's content once it is written: the file exists once, and the page streams leave as it
grows. :func:`pack_page` encodes a page's content stream as soon as the page is shown and
keeps it in an unnamed temporary file until the file is formatted (memory flat per page).
"""

from __future__ import annotations

import io
import tempfile
from typing import Any

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFBase85Encode,
    PDFCrossReferenceTable,
    PDFDocument,
    PDFFile,
    PDFIndirectObject,
    PDFName,
    PDFStream,
    PDFTrailer,
    PDFZCompress,
)
from reportlab.pdfgen import canvas

from cardgen.render.pdffmt import TOP, Formatter


class _Out(PDFFile):
    """reportlab's output collector (offsets as it counts them), writing into one buffer."""

    def __init__(self, version: tuple[int, int]):
        self.buf = io.BytesIO()
        super().__init__(version)
        head = b"".join(self.strings)
        self.strings: list[bytes] = []
        self.buf.write(head)
        self.write = self.buf.write

    def format(self, document: Any) -> bytes:
        return self.buf.getvalue()


def pdf_data(c: canvas.Canvas) -> bytes:
    """What ``c.getpdfdata()`` returns, byte for byte (``PDFDocument.GetPDFData`` and ``format``
    of reportlab 4, unencrypted and unsigned, as cardgen makes its documents). The canvas is
    spent afterwards: its streams' contents are gone."""
    if len(c._code):
        c.showPage()
    doc: PDFDocument = c._doc
    if doc.encrypt.info() or getattr(doc, "_digiSigs", None):   # not cardgen's: reportlab's way
        data = doc.GetPDFData(c)
        return data.encode("latin1") if isinstance(data, str) else data
    for fnt in doc.delayedFonts:
        fnt.addObjects(doc)
    doc.info.invariant = doc.invariant
    doc.info.digest(doc.signature)
    doc.Reference(doc.Catalog)
    doc.Reference(doc.info)
    doc.Outlines.prepare(doc, c)
    if doc.Outlines.ready < 0:
        doc.Catalog.Outlines = None
    return _format(doc)


def _format(doc: PDFDocument) -> bytes:
    """``PDFDocument.format``, each object written as it is formatted."""
    doc.encrypt.prepare(doc)
    cat, info = doc.Catalog, doc.info
    doc.Reference(cat)
    doc.Reference(info)
    out = _Out(doc._pdfVersion)
    ids = []
    counter = 0
    number_to_id, id_to_ob, id_to_of = doc.numberToId, doc.idToObject, doc.idToOffset
    comments = not rl_config.invariant and rl_config.pdfComments
    fast = None if comments else Formatter(doc)     # pages and their streams (reportlab's bytes)
    spill: _Spill | None = getattr(doc, "_cardgen_spill", None)
    keep: dict[int, Any] | None = getattr(doc, "_cardgen_keep", None)    # id → (offset, length): pdfreuse's
    while True:                 # objects may be added while others are formatted
        counter += 1
        if counter not in number_to_id:
            break
        oid = number_to_id[counter]
        obj = id_to_ob[oid]
        if spill is not None and type(obj) is PDFStream:
            spill.take(obj)
        if fast is not None and type(obj) in TOP:
            text = fast.indirect(oid, obj)
        else:
            text = PDFIndirectObject(oid, obj).format(doc)
        if comments:
            out.add(f"% {ascii(oid)}: class {type(obj).__name__[:50]} \n")
        id_to_of[oid] = at = out.add(text)
        if keep is not None and id(obj) in keep:
            keep[id(obj)] = (at, len(text))
        ids.append(oid)
        if type(obj) is PDFStream:      # written: its content is not needed again
            obj.content = b""
    n = len(number_to_id)
    if counter - 1 != n:
        raise ValueError(f"counter {counter} does not match the number to id dictionary {n}")
    at = out.add(_xref(doc, ids))
    out.add(PDFTrailer(startxref=at, Size=n + 1, Root=doc.Reference(cat), Info=doc.Reference(info),
                       ID=doc.ID()).format(doc))
    if spill is not None:
        spill.file.close()
    return out.format(doc)


def _xref(doc: PDFDocument, ids: list[str]) -> bytes:
    """``PDFCrossReferenceTable`` of one section from 0 (``ids``: the objects numbered 1, 2, …
    in order, as :func:`_format` writes them): the same bytes, without its checks' bookkeeping
    (2,400 objects for 5,400 cards)."""
    numbers, offsets = doc.idToObjectNumberAndVersion, doc.idToOffset
    if any(numbers[oid][0] != k for k, oid in enumerate(ids, 1)):     # (not so: reportlab's, which says why)
        xref = PDFCrossReferenceTable()
        xref.addsection(0, ids)
        return xref.format(doc)
    rows = [b"%010d %05d n " % (offsets[oid], numbers[oid][1]) for oid in ids]
    return b"xref\n0 %d\n0000000000 65535 f \n" % (len(ids) + 1) + b"\n".join(rows) + b"\n"


def pack_page(c: canvas.Canvas, spill: bool = True) -> bytes | str | None:
    """The page just shown, its content stream encoded now rather than when the document is
    saved: what ``PDFPage.check_format`` and ``PDFStream.format`` would write, byte for byte, but
    a page keeps its compressed operators instead of its whole text until ``save``. ``spill``:
    the encoded stream waits in a temporary file (the canvas is then written by :func:`pdf_data`
    only); else in memory (``getpdfdata`` and ``save`` still work). Returns the encoded stream
    (None: the page is left to reportlab)."""
    page = c._doc.Pages.pages[-1]
    if not page.compression or page.Contents or not page.stream:
        return None
    filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    raw = page.stream
    same = _same(c) if len(raw) <= SAME_MAX else None
    content = same.get((raw, rl_config.useA85)) if same is not None else None
    if content is None:
        content = raw
        for f in reversed(filters):         # as PDFStream.format applies them
            content = f.encode(content)
        if same is not None and len(same) < 256:
            same[(raw, rl_config.useA85)] = content
    _contents(c, page, content, filters, spill)
    return content


SAME_MAX = 4096     # page streams this short are encoded once per document (a sheet of backs: every
#                     sheet's back page the same operators, the same stream)


def _same(c: canvas.Canvas) -> dict:
    """The document's short page streams encoded so far, by their operators."""
    same = getattr(c._doc, "_cardgen_same", None)
    if same is None:
        same = c._doc._cardgen_same = {}
    return same


def put_packed(c: canvas.Canvas, content: bytes | str) -> None:
    """The page just shown given ``content``, its stream as :func:`pack_page` encoded it for the
    same operators: the page is as ``pack_page`` leaves it."""
    page = c._doc.Pages.pages[-1]
    if not page.compression or page.Contents:
        raise ValueError("not a page pack_page encodes")
    filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    _contents(c, page, content, filters, True)


def _contents(c: canvas.Canvas, page: Any, content: bytes | str, filters: list, spill: bool) -> None:
    s = PDFStream(content=b"" if spill else content, filters=[])
    s.dictionary["Filter"] = PDFArray([PDFName(f.pdfname) for f in filters])
    s.__Comment__ = "page stream"
    page.Contents = s
    page.stream = None
    if spill:
        _spill(c).put(s, content)


class _Spill:
    """Encoded page streams kept in an unnamed temporary file, each read back as it is written
    into the PDF file (the streams of a 1,200-page document are ~4 MiB)."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile()
        self.at: dict[int, tuple[PDFStream, int, int, bool]] = {}   # id(stream) → it, offset, length, text?
        self.end = 0

    def put(self, s: PDFStream, content: bytes | str) -> None:
        data = content.encode("latin1") if isinstance(content, str) else content    # ASCII85 text
        self.file.write(data)
        self.at[id(s)] = (s, self.end, len(data), isinstance(content, str))
        self.end += len(data)

    def take(self, s: PDFStream) -> None:
        """``s``'s content back in place, when it was spilled."""
        hit = self.at.pop(id(s), None)
        if hit is not None and hit[0] is s:
            self.file.seek(hit[1])
            data = self.file.read(hit[2])
            s.content = data.decode("latin1") if hit[3] else data
            self.file.seek(0, 2)


def _spill(c: canvas.Canvas) -> _Spill:
    sp = getattr(c._doc, "_cardgen_spill", None)
    if sp is None:
        sp = c._doc._cardgen_spill = _Spill()
    return sp

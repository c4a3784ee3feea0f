"""The PDF file of a finished reportlab canvas, formatted object by object into one buffer.

``Canvas.getpdfdata`` formats every object into a list of byte strings and joins them at the
end, so the whole file exists twice (three times with the page streams still held) at the
moment of the largest memory use of a build. :func:`pdf_data` writes the same bytes, in the
same order, but each object into one growing buffer as it is formatted, and lets go of a
stream's content once it is written: the file exists once, and the page streams leave as it
grows. :func:`pack_page` encodes a page's content stream as soon as the page is shown.
"""

from __future__ import annotations

import io

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


class _Out(PDFFile):
    """reportlab's output collector (offsets as it counts them), writing into one buffer."""

    def __init__(self, version: tuple[int, int]):
        self.buf = io.BytesIO()
        super().__init__(version)
        head = b"".join(self.strings)
        self.strings: list[bytes] = []
        self.buf.write(head)
        self.write = self.buf.write

    def format(self, document) -> bytes:
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
    while True:                 # objects may be added while others are formatted
        counter += 1
        if counter not in number_to_id:
            break
        oid = number_to_id[counter]
        obj = id_to_ob[oid]
        text = PDFIndirectObject(oid, obj).format(doc)
        if comments:
            out.add(f"% {ascii(oid)}: class {type(obj).__name__[:50]} \n")
        id_to_of[oid] = out.add(text)
        ids.append(oid)
        if type(obj) is PDFStream:      # written: its content is not needed again
            obj.content = b""
    n = len(number_to_id)
    if counter - 1 != n:
        raise ValueError(f"counter {counter} does not match the number to id dictionary {n}")
    xref = PDFCrossReferenceTable()
    xref.addsection(0, ids)
    at = out.add(xref.format(doc))
    out.add(PDFTrailer(startxref=at, Size=n + 1, Root=doc.Reference(cat), Info=doc.Reference(info),
                       ID=doc.ID()).format(doc))
    return out.format(doc)


def pack_page(c: canvas.Canvas) -> None:
    """The page just shown, its content stream encoded now rather than when the document is
    saved: what ``PDFPage.check_format`` and ``PDFStream.format`` would write, byte for byte, but
    a page keeps its compressed operators instead of its whole text until ``save``."""
    page = c._doc.Pages.pages[-1]
    if not page.compression or page.Contents or not page.stream:
        return
    filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    content = page.stream
    for f in reversed(filters):         # as PDFStream.format applies them
        content = f.encode(content)
    s = PDFStream(content=content, filters=[])
    s.dictionary["Filter"] = PDFArray([PDFName(f.pdfname) for f in filters])
    s.__Comment__ = "page stream"
    page.Contents = s
    page.stream = None

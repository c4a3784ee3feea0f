"""reportlab's object formatting, the same bytes at a fraction of the cost, for the objects a
card sheet has by the thousand: pages, their content streams, the page tree.

``pdfdoc.format`` walks every object through ``isinstance`` tests, builds a ``PDFName`` and
encodes every name, number and reference through the ``extpdfdoc`` codec each time it meets
it: about 60 µs a page and as much again for its stream, a tenth of a 5,400-card build.
:class:`Formatter` writes the same bytes (``PDFIndirectObject.format`` of reportlab 4 and 5, without
encryption or PDF comments, which :mod:`cardgen.render.pdfwrite` leaves to reportlab) with the
text of each name, number and reference kept once made. The classes it knows are matched
exactly, not by ``isinstance`` (a subclass may format itself otherwise): anything else is
formatted by reportlab. ``tests/test_pdf_stream.py`` holds whole documents equal to
``getpdfdata``'s bytes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import (
    NoEncryption,
    PDFArray,
    PDFCatalog,
    PDFDictionary,
    PDFName,
    PDFObject,
    PDFObjectReference,
    PDFPage,
    PDFPages,
    PDFResourceDictionary,
    PDFStream,
    pdfdocEnc,
)

_REF_ONLY = "__RefOnly__"
_NAME = "__InternalName__"      # where reportlab notes an object's name once referenced
# the ASCII the extpdfdoc codec does not keep as it is, looked for one by one (``in`` scans a
# text like ``memchr``: a page stream's ASCII85 text, ~4 KB, in a 40th of the time a character
# class takes, which tests every character)
_NOT_AS_IS = "\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"


class Ready(PDFObject):
    """An object as the last build formatted it (:mod:`cardgen.render.pdfreuse`): its text
    between ``N 0 obj`` and ``endobj``, ``parts`` with its references between them, each by its
    internal name, or an object given its number when this one is formatted (a page's stream).
    ``first``: objects given their numbers before (a page's tree: ``PDFPage.check_format`` names
    it before the page's stream is)."""

    def __init__(self, parts: Sequence[bytes | memoryview], refs: Sequence[Any] = (),
                 first: Sequence[Any] = ()) -> None:
        if len(parts) != len(refs) + 1:
            raise ValueError("a ready object's parts surround its references")
        self.parts = parts
        self.refs = refs
        self.first = first

    def format(self, document: Any) -> bytes:
        """Its text (reportlab's own path formats it so too)."""
        return bytes(Formatter(document).top(self))


# the objects formatted here at the top (one indirect object each), by exact class
TOP = (PDFPage, PDFStream, PDFPages, Ready)


class Formatter:
    """Formats the objects of one document (its references' numbers are fixed by then)."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.numbers = doc.idToObjectNumberAndVersion
        self._text: dict[str, bytes] = {}       # str → its bytes (names, numbers, operators)
        self._names: dict[str, bytes] = {}      # dictionary key → "/Key" as bytes
        self._refs: dict[str, bytes] = {}       # internal name → "n v R"
        self._nums: dict[float, bytes] = {}     # number → its text (equal numbers: the same text)
        self._multi = bool(rl_config.pdfMultiLine)
        # (the document's encryption told of each object: nothing to tell when there is none)
        self._register = None if type(doc.encrypt) is NoEncryption else doc.encrypt.register

    def indirect(self, oid: str, obj: Any) -> bytes:
        """``PDFIndirectObject(oid, obj).format(doc)`` (its text copied once: a kept page's
        stream is a view of the last build's file)."""
        n, v = self.numbers[oid]
        if self._register is not None:
            self._register(n, v)
        body = self.top(obj)
        return b"".join((b"%d %d obj\n" % (n, v), body, b"endobj\n" if body[-1:] == b"\n" else b"\nendobj\n"))

    def top(self, obj: Any) -> bytes | memoryview:
        """An object's text (a kept one's may be a view of the last build's file)."""
        kind = type(obj)
        if kind is PDFStream:
            return self._stream(obj)
        if kind is PDFPage:
            return self._catalog(obj)
        if kind is PDFPages:
            return self._catalog(obj)
        if kind is Ready:
            for it in obj.first:
                if getattr(it, _NAME, None) is None:    # (named already: reportlab's Reference does nothing)
                    self.doc.Reference(it)
            parts = obj.parts
            if not obj.refs:
                return parts[0]
            out = [parts[0]]
            for ref, part in zip(obj.refs, parts[1:], strict=True):
                if type(ref) is not str:
                    ref = getattr(ref, _NAME, None) or self.doc.Reference(ref).name
                out += (self._ref(ref), part)
            return b"".join(out)
        return pdfdoc.format(obj, self.doc, toplevel=1)

    def value(self, e: Any) -> bytes:
        """``pdfdoc.format(e, doc)`` (not at the top)."""
        kind = type(e)
        if kind is str:
            t = self._text.get(e)
            if t is None:
                t = self._text[e] = pdfdocEnc(e)
            return t
        if kind is int or kind is float:
            t = self._nums.get(e)
            if t is None:
                t = self._nums[e] = self.value(fp_str(e))
            return t
        if kind is bytes:
            return e
        if kind is PDFObjectReference:
            return self._ref(e.name)
        if kind is PDFDictionary:
            return self._dict(e)
        if kind is PDFArray:
            return self._array(e)
        if isinstance(e, PDFObject):
            if hasattr(e, _REF_ONLY):
                return self._ref(self.doc.Reference(e).name)
            if kind is PDFResourceDictionary:
                return self._resources(e)
        return pdfdoc.format(e, self.doc)

    def _ref(self, name: str) -> bytes:
        t = self._refs.get(name)
        if t is None:
            try:        # (numbers: ASCII, as the codec would write them)
                t = self._refs[name] = b"%d %d R" % self.numbers[name]
            except KeyError:
                raise KeyError(f"forward reference to {name!r} not resolved upon final formatting") from None
        return t

    def _key(self, k: str) -> bytes:
        t = self._names.get(k)
        if t is None:
            t = self._names[k] = self.value(PDFName(k))
        return t

    def _dict(self, d: PDFDictionary) -> bytes:
        """``PDFDictionary.format``."""
        items = d.dict
        keys = list(items.keys())
        if not isinstance(items, OrderedDict):
            keys.sort()
        parts = [self._key(k) + b" " + self.value(items[k]) for k in keys]
        return self._joined(parts, d.multiline, 6, b"<<\n", b"\n>>")

    def _array(self, a: PDFArray) -> bytes:
        """``PDFArray.format``."""
        return self._joined([self.value(e) for e in a.sequence], a.multiline, 10, b"[ ", b" ]")

    def _joined(self, parts: list[bytes], multiline: Any, every: int, start: bytes, end: bytes) -> bytes:
        """A dictionary's or an array's parts, one a line (multiline), else a line break every
        ``every`` parts."""
        if (multiline and self._multi) or multiline == "forced":
            return start + b"\n ".join(parts) + end
        for i in reversed(range(every, len(parts), every)):
            parts.insert(i, b"\n ")
        return start + b" ".join(parts) + end

    def _catalog(self, obj: PDFCatalog) -> bytes:
        """``PDFCatalog.format`` (pages and the page tree are catalogs to reportlab)."""
        obj.check_format(self.doc)
        found: dict[str, Any] = {}
        for k, v in obj.__Defaults__.items():
            v = getattr(obj, k, v)
            if v is not None:
                found[k] = v
        for k in obj.__NoDefault__:
            v = getattr(obj, k, None)
            if v is not None:
                found[k] = v
        for k in obj.__Refs__:
            if k in found:
                found[k] = self.doc.Reference(found[k])
        return self._dict(PDFDictionary(found))

    def _resources(self, r: PDFResourceDictionary) -> bytes:
        """``PDFResourceDictionary.format``."""
        found: dict[str, Any] = {}
        for name in r.dict_attributes:
            v = getattr(r, name)
            if isinstance(v, dict):
                if v:
                    found[name] = PDFDictionary(v)
            else:
                found[name] = v
        procs = r.ProcSet
        if isinstance(procs, (list, tuple)):
            if procs:
                found["ProcSet"] = PDFArray(procs)
        else:
            found["ProcSet"] = procs
        return self._dict(PDFDictionary(found))

    def _stream(self, s: PDFStream) -> bytes:
        """``PDFStream.format`` (no encryption: ``encrypt.encode`` leaves the content as it is)."""
        if s.content is None:
            raise ValueError("stream content not set")
        d = PDFDictionary(s.dictionary.dict.copy())
        content = s.content
        filters = s.filters if s.filters is not None else self.doc.defaultStreamFilters
        if filters is not None and "Filter" not in d.dict:
            names: list[str] = []
            for f in reversed(list(filters)):
                content = f.encode(content)
                names.insert(0, PDFName(f.pdfname))
            d["Filter"] = PDFArray(names)
        content = self.doc.encrypt.encode(content)
        if type(content) is bytes:
            data = content
        elif type(content) is str and content.isascii() and not any(ch in content for ch in _NOT_AS_IS):
            data = content.encode("ascii")      # what extpdfdoc gives for it (ASCII85 text)
        else:
            data = pdfdoc.format(content, self.doc)
        d["Length"] = len(content)
        return self._dict(d) + b"\nstream\n" + data + b"endstream\n"


__all__ = ["TOP", "Formatter", "Ready"]

"""A card file parsed again only where it changed: each card of the ``cards:`` list kept, checked,
by the text of its lines (with the build cache on; a one-card edit of a 5,400-card file parses one).

The file is cut into its top-level parts without a parser (:func:`split`): the lines before the
cards' list (``defaults``…), each card's lines (a line ``- …`` at the list's indentation, and every
line after it indented deeper, blank or a comment), and what follows the list (a top-level key).
A card whose lines, whose file's other parts and whose game (its rules folder, the code: the
``context``) are those of a card that loaded without a problem is made again from what it loaded
to: its values and its positions, kept relative to its own first line. The other cards are parsed
as the whole file would parse them: the file with the kept cards' lines left blank (every line and
column where it was), so their problems, and the file's, stand where a whole parse puts them.

Anything unusual is parsed whole, as without the cache: a file with an anchor (``&``: an alias
could reach across cards), a list that is not a block list of ``- `` lines, tabs in the indentation,
a parse whose cards do not start on the lines the cut found. Only plain values are kept (text,
numbers, flags, none: what JSON gives back as it was); a card with any other value is parsed.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Protocol

from cardgen.content.keptcard import KeptCard, values_text
from cardgen.content.model import Card
from cardgen.core import sources
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, YList, load_yaml, parse_yaml

KIND = "cardfile"
_TOP = re.compile(r"[A-Za-z_][\w-]*[ \t]*:")
_PLAIN = (str, int, float, bool, type(None))
_DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_HEAD = json.JSONDecoder().raw_decode


class BytesStore(Protocol):
    """Where the kept cards are stored (the build cache: ``layout.cachestore.Store``)."""

    def get_view(self, kind: str, key: str) -> memoryview | None: ...

    def put_bytes(self, kind: str, key: str, parts: list[bytes | memoryview],
                  suffix: str = ".bin") -> None: ...


@record
class Cut:
    """A card file cut into its parts: ``starts[k]``: the first line (0-based) of card ``k``;
    ``end``: the first line after the list; the file's lines (their ends kept)."""

    lines: list[str]
    starts: list[int]
    end: int

    def item(self, k: int) -> str:
        stop = self.starts[k + 1] if k + 1 < len(self.starts) else self.end
        return "".join(self.lines[self.starts[k]:stop])

    def span(self, k: int) -> tuple[int, int]:
        """Card ``k``'s lines, 1-based, [first, after last)."""
        stop = self.starts[k + 1] if k + 1 < len(self.starts) else self.end
        return self.starts[k] + 1, stop + 1

    def skeleton(self) -> str:
        """The file's lines that are no card's, with where the cards stand."""
        first = self.starts[0] if self.starts else self.end
        return "".join(self.lines[:first]) + f"\0{len(self.starts)}\0" + "".join(self.lines[self.end:])

    def sparse(self, live: list[int]) -> str:
        """The file with every card but ``live`` left as blank lines (each line where it was)."""
        if not self.starts:
            return "".join(self.lines + self.lines[self.end:])
        top = self.starts[0]            # the cards' lines are [top, end): blank but the live ones'
        out = self.lines[:top] + ["\n"] * (self.end - top) + self.lines[self.end:]
        for k in live:
            first, after = self.span(k)
            out[first - 1:after - 1] = self.lines[first - 1:after - 1]
        return "".join(out)


def split(text: str) -> Cut | None:
    """The cut of a card file (see the module), or None when it is not of the plain shape."""
    if "&" in text:
        return None
    lines = text.splitlines(keepends=True)
    head = next((i for i, row in enumerate(lines) if row.rstrip() == "cards:"), None)
    if head is None:
        return None
    starts: list[int] = []
    indent = -1
    i = head + 1
    while i < len(lines):
        row = lines[i]
        body = row.strip()
        if not body or body.startswith("#"):
            i += 1
            continue
        ind = len(row) - len(row.lstrip(" "))
        if row[ind] == "\t":
            return None
        dash = body == "-" or body.startswith("- ")
        if indent < 0:
            if not dash:
                return None
            indent = ind
        if ind == indent and dash:
            starts.append(i)
        elif ind <= indent:
            if ind == 0 and _TOP.match(row):
                break               # the next top-level key: the list ends
            return None
        i += 1
    return Cut(lines, starts, i)


def _loc_row(loc: Loc, path: str, span: tuple[int, int], tail: int) -> list | None:
    """A position kept: [line, col, how] — how 1: from the card's first line, 2: from the line
    after the list, 0: as it is (the lines before the list)."""
    if loc.file != path:
        return None
    if span[0] <= loc.line < span[1]:
        return [loc.line - span[0], loc.col, 1]
    if loc.line >= tail:
        return [loc.line - tail, loc.col, 2]
    return [loc.line, loc.col, 0]


class CardMemo:
    """The kept cards of a game's card files (``context``: the digest of what a card's check reads
    besides its file: the game's rules folder, the code)."""

    def __init__(self, store: BytesStore, context: str) -> None:
        self.store = store
        self.context = context

    def _key(self, path: str, part: str = "") -> str:
        return hashlib.sha256(f"{KIND}\0{self.context}\0{path}{part}".encode()).hexdigest()

    def read(self, path: str, cut: Cut) -> FileMemo:
        """The kept cards of the file at ``path`` (cut as ``cut``) that still hold: those of the
        last whole memo, and those the loads since added (kept beside it, when written over it)."""
        base = _rows(self.store.get_view(KIND, self._key(path)))
        added = _rows(self.store.get_view(KIND, self._key(path, _ADDED)))
        whole = base.pop(_ID, b"")[65:] or None      # (its rows whole: the name after the digest)
        held = set(base) if whole is not None else set()
        if whole is not None and added.pop(_OVER, b"")[65:] == whole:
            base.update(added)
        return FileMemo(self, path, cut, base, whole, held)


_ID, _OVER = b"=" * 64, b"+" * 64    # a whole memo's name; the memo a memo of additions is over
_ADDED = "\0added"


def _rows(raw: memoryview | None) -> dict[bytes, bytes]:
    """A memo's rows by their digest, each row whole (its digest and a space before it: not copied
    again without them, ~3.6 MB for a 5,400-card file)."""
    if raw is None:
        return {}
    return {row[:64]: row for row in bytes(raw).split(b"\n") if len(row) > 65}


class FileMemo:
    """One card file's kept cards, and this load's (for the next)."""

    def __init__(self, memo: CardMemo, path: str, cut: Cut, kept: dict[bytes, bytes],
                 whole: bytes | None = None, held: set[bytes] | None = None) -> None:
        self.memo, self.path, self.cut, self.kept = memo, path, cut, kept
        self.whole = whole          # the name of the whole memo read (None: none), and its cards
        self.held = held or set()
        base = hashlib.sha256(f"{memo.context}\0{path}\0{cut.skeleton()}".encode())
        self.digests: list[bytes] = []
        lines, add = cut.lines, self.digests.append
        for first, stop in zip(cut.starts, [*cut.starts[1:], cut.end]):      # (cut.item(k), unrolled)
            h = base.copy()
            h.update("".join(lines[first:stop]).encode("utf-8", "surrogatepass"))
            add(h.hexdigest().encode())
        self.now: dict[bytes, bytes | memoryview] = {}      # this load's cards kept, by digest
        self.bad: set[int] = set()              # lines the file's parse found problems on

    def card(self, k: int) -> Card | None:
        """Card ``k`` made again from what it loaded to (its values decoded when first read:
        :class:`~.keptcard.KeptCard`), or None (parse it)."""
        row = self.kept.get(self.digests[k])
        if row is None:
            return None
        parts = row.split(b"\t")
        if len(parts) != 3 or row[64:65] != b" ":
            return None
        try:
            text = parts[0][65:].decode("utf-8")
            head, end = _HEAD(text)         # (json.loads: ~3 µs more a card, 5,399 of them)
            cid, name, ctype, copies = head
        except (ValueError, TypeError):
            return None
        if end != len(text):
            return None
        if (type(cid), type(name), type(ctype), type(copies)) != (str, str, str, int):
            return None
        card = KeptCard(cid, name, ctype, copies, parts[1], parts[2], self.path,
                        (0, self.cut.starts[k] + 1, self.cut.end + 1))      # see _loc_row
        self.now[self.digests[k]] = memoryview(row)[65:]
        return card

    def keep(self, k: int, card: Card) -> None:
        """Card ``k`` loaded without a problem: kept for the next load when its values are plain
        (and its lines had none when the file was parsed). Its row: the JSON of its id, name, type
        and copies; its values text (:func:`~.keptcard.values_text`); the JSON of its fields'
        order, its own keys and its positions — joined by tabs (JSON writes none)."""
        first, after = self.cut.span(k)
        if any(first <= line < after for line in self.bad) or type(card.fields) is not dict \
                or not all(type(v) in _PLAIN for v in card.fields.values()) \
                or not all(type(f) is str for f in card.fields) \
                or (type(card.id), type(card.name), type(card.type), type(card.copies)) \
                != (str, str, str, int):
            return
        span, tail = self.cut.span(k), self.cut.end + 1
        loc = _loc_row(card.loc, self.path, span, tail)
        flocs = {f: _loc_row(v, self.path, span, tail) for f, v in card.field_locs.items()}
        if loc is None or any(v is None for v in flocs.values()):
            return
        self.now[self.digests[k]] = b"\t".join(s.encode("utf-8") for s in (
            _DUMPS([card.id, card.name, card.type, card.copies]), values_text(card),
            _DUMPS([list(card.fields), sorted(card.own), loc, flocs])))

    def save(self) -> None:
        """This load's kept cards, for the next (not written when they are those read): the whole
        memo, or (when the whole memo read holds all but an eighth of them) the memo of those it
        lacks, beside it."""
        if self.now.keys() == self.kept.keys():
            return
        store, key = self.memo.store, self.memo._key(self.path)
        fresh = [d for d in self.now if d not in self.held]
        if self.whole is not None and len(fresh) * 8 <= len(self.now):
            parts: list[bytes | memoryview] = [_OVER, b" ", self.whole or b"", b"\n"]
            for d in fresh:
                parts += [d, b" ", self.now[d], b"\n"]
            store.put_bytes(KIND, self.memo._key(self.path, _ADDED), parts)
            return
        parts = [_ID, b" ", hashlib.sha256(b"".join(self.now)).hexdigest().encode(), b"\n"]
        for d, row in self.now.items():
            parts += [d, b" ", row, b"\n"]
        store.put_bytes(KIND, key, parts)


def cut_holds(doc: Any, cut: Cut, live: list[int]) -> bool:
    """The parsed file is as cut: its cards are the ``live`` cards of the cut, each starting on
    its first line, and the line after the list is a top-level key (no card ran on into it)."""
    items = doc.get("cards") if isinstance(doc, YDict) else None
    if not isinstance(items, YList) or len(items) != len(live):
        return False
    after = cut.end + 1
    if cut.end < len(cut.lines) and not any(kl.line == after and kl.col == 1 for kl in doc.key_locs.values()):
        return False
    return all(isinstance(cd, YDict) and cd.loc is not None and cd.loc.line == cut.starts[k] + 1
               for cd, k in zip(items, live))


def file_text(path: Path) -> str | None:
    """The file's text as the YAML reader takes it (UTF-8, without a byte-order mark), or None
    (then the whole file is read as usual, which reports why)."""
    try:
        text = sources.read_bytes(path).decode("utf-8")
    except (sources.SourceError, OSError, UnicodeDecodeError):
        return None
    return text[1:] if text.startswith("\ufeff") else text


def lines_of(problems: Problems, mark: int, path: str) -> set[int]:
    """The lines of ``path`` the problems after ``mark`` stand on."""
    return {p.loc.line for p in problems.items[mark:] if p.loc is not None and p.loc.file == path}


def plan(memo: CardMemo | None, path: Path, problems: Problems) -> tuple[Any, FileMemo | None, list]:
    """The file's document and how each card is had: [(k, the card kept, or None; its place in
    the document's cards)], with the file's memo; (None, None, []) when the file is to be read
    whole (no cache, or anything unusual)."""
    text = file_text(path) if memo is not None else None
    cut = split(text) if text is not None else None
    if memo is None or cut is None or not cut.starts:
        return None, None, []
    fm = memo.read(str(path), cut)
    hits = {k: c for k in range(len(cut.starts)) if (c := fm.card(k)) is not None}
    live = [k for k in range(len(cut.starts)) if k not in hits] or [0]     # (a list is never empty)
    hits.pop(live[0], None)
    own = Problems()
    doc = parse_yaml(cut.sparse(live), str(path), own)
    if not cut_holds(doc, cut, live):
        return None, FileMemo(memo, str(path), cut, {}), []     # read whole; kept when its cards start as cut
    problems.extend(own)
    at = {k: j for j, k in enumerate(live)}
    fm.bad = lines_of(own, 0, str(path))
    return doc, fm, [(k, hits.get(k), at.get(k, -1)) for k in range(len(cut.starts))]


def read(memo: CardMemo | None, path: Path, problems: Problems) -> tuple[Any, FileMemo | None, list]:
    """A card file's document, its memo and how each card is had (:func:`plan`); without a plan,
    the file parsed whole, with one (every card parsed) when the cut holds."""
    doc, fm, how = plan(memo, path, problems)
    if how:
        return doc, fm, how
    before = len(problems.items)
    doc = load_yaml(path, problems)
    if fm is None or not cut_holds(doc, fm.cut, list(range(len(fm.cut.starts)))):
        return doc, None, []
    fm.bad = lines_of(problems, before, str(path))       # kept for the next load
    return doc, fm, [(k, None, k) for k in range(len(fm.cut.starts))]

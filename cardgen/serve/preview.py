"""The live preview's model: one game loaded, checked and laid out, card by card.

A :class:`Preview` rebuilds on demand (the server calls it when a source changes). The card
layouts come through the build cache (``build/.cache``), so a rebuild after one edit lays
out only the cards whose inputs changed; a face's PNG is rendered on first request and kept
under the digest of its drawing, so an unchanged card is never rendered again. Problems are
attached to the card whose source lines they point into; a card with errors shows them in
place of its (stale) image.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from cardgen.builder.pipeline import check_game
from cardgen.content.loader import load_game
from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.core.problems import Problem, Problems, display_path
from cardgen.core.record import record
from cardgen.export.raster import Target, face_pdf, png
from cardgen.layout.cache import digest
from cardgen.layout.cachestore import Store, default_folder, enabled
from cardgen.layout.card import CardLayout
from cardgen.layout.scenecodec import encode
from cardgen.scene import Clip, Image, Symbol, Use

SOURCES = ("rules", "cards", "templates", "maps", "art")
SLOW = {"rulebook", "maps", "board", "mats", "tokens"}     # printables whose checks read everything
KEEP_IMAGES = 2000          # PNGs kept in memory (front and back, two sizes)


@record
class Face:
    """One side of a card as drawn: its primitives, the symbols they use, its digest."""

    items: list
    symbols: dict[str, Symbol]
    key: str
    w: float
    h: float


@record
class Entry:
    """A card (or a card that failed to load) as the page shows it."""

    id: str
    name: str
    type: str
    type_name: str
    set: str | None
    copies: int
    file: str
    line: int
    text: str                       # what the card says, for the page's search and alt text
    faces: dict[str, Face] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def broken(self) -> bool:
        return any(p.severity == "error" for p in self.problems) or "front" not in self.faces

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "type": self.type, "type_name": self.type_name,
                "set": self.set, "copies": self.copies, "file": self.file, "line": self.line, "text": self.text,
                "broken": self.broken, "faces": {s: f.key for s, f in self.faces.items()},
                "problems": [problem_dict(p) for p in self.problems]}


def problem_dict(p: Problem) -> dict[str, Any]:
    return {"rule": p.rule, "severity": p.severity, "message": p.message, "hint": p.hint,
            "where": f"{display_path(p.loc.file)}:{p.loc.line}:{p.loc.col}" if p.loc else None}


@record
class Snapshot:
    """Everything the page shows at one moment; replaced whole on each rebuild."""

    version: int
    title: str
    entries: list[Entry]
    general: list[Problem]
    printables: list[str]
    seconds: float
    laid_out: int = 0               # card sides laid out anew (cache misses) by this rebuild
    checking: bool = False          # the slow checks (rulebook, boards) are still to come

    def as_dict(self) -> dict[str, Any]:
        return {"version": self.version, "title": self.title, "seconds": round(self.seconds, 3),
                "laid_out": self.laid_out, "checking": self.checking, "cards": [e.as_dict() for e in self.entries],
                "problems": [problem_dict(p) for p in self.general], "printables": self.printables}


class Preview:
    """A game's cards, kept current: :meth:`rebuild` after a change, :meth:`image` for a face."""

    def __init__(self, root: Path, slug: str, out: Path | None = None):
        self.root, self.slug = root, slug
        self.store = Store(default_folder(out or root / "build")) if enabled() else None
        self.snapshot = Snapshot(0, slug, [], [], [], 0.0)
        self._images: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._faces: dict[str, Face] = {}
        self._render_lock = threading.Lock()     # pdfium is not thread-safe
        self._build_lock = threading.Lock()
        self.game: Game | None = None

    def watched(self) -> list[Path]:
        """The project's source folders (rules/, cards/, templates/, maps/, art/: those that exist),
        so a game folder made while the preview runs (art/<game>/) is seen too. A folder linked out
        of the project is not watched (the game's load reports it: PATH-ESCAPE)."""
        return [p for p in (self.root / d for d in SOURCES) if p.is_dir() and sources.leaves(p, self.root) is None]

    def concerns(self, path: str | Path) -> bool:
        """Whether a changed file is one of this game's sources."""
        try:
            parts = Path(path).relative_to(self.root).parts
        except ValueError:
            return False
        return len(parts) > 2 and parts[0] in SOURCES and parts[1] == self.slug

    def rebuild(self) -> Snapshot:
        """Both phases: the cards, then the slow checks."""
        self.rebuild_cards()
        return self.recheck()

    def rebuild_cards(self) -> Snapshot:
        """Load, check the content rules and lay out every card (from the cache where nothing it
        read changed). The slow checks that read everything (rulebook, boards) wait for
        :meth:`recheck`, so an edited card shows at once."""
        with self._build_lock:
            started = time.monotonic()
            problems = Problems()
            game = load_game(self.root, self.slug, problems)
            entries: list[Entry] = []
            printables: list[str] = []
            misses = 0
            if game is not None:
                check_game(replace(game, printables=[p for p in game.printables if p not in SLOW]), problems,
                           store=self.store)
                before = self.store.misses if self.store else 0
                entries = self._lay_out(game, problems)
                misses = (self.store.misses - before) if self.store else len(entries)
                printables = [p for p in game.printables if p != "cards"]
            general = _attach(entries, problems)
            self.game = game
            self._faces = {f.key: f for e in entries for f in e.faces.values()}
            snap = Snapshot(self.snapshot.version + 1, game.title if game else self.slug, entries, general,
                            printables, time.monotonic() - started, misses,
                            checking=game is not None and bool(set(game.printables) & SLOW))
            self.snapshot = snap
            return snap

    def recheck(self) -> Snapshot:
        """The slow checks of the game :meth:`rebuild_cards` loaded; their problems join the cards'."""
        with self._build_lock:
            snap, game = self.snapshot, self.game
            if game is None or not snap.checking:
                return snap
            started = time.monotonic()
            known = {p for e in snap.entries for p in e.problems} | set(snap.general)
            # as in a build: while the content has errors, the rulebook is not checked (it would
            # only repeat them — a card that failed to load is an unknown card there too)
            problems = Problems([p for p in known if p.severity == "error"])
            check_game(game, problems, errors_before=0, store=self.store)
            entries = [replace(e, problems=list(e.problems)) for e in snap.entries]
            general = list(snap.general) + _attach(entries, Problems([p for p in problems if p not in known]))
            new = replace(snap, version=snap.version + 1, entries=entries, general=general, checking=False,
                          seconds=snap.seconds + time.monotonic() - started)
            self.snapshot = new
            return new

    def failed(self, e: Exception) -> Snapshot:
        """A rebuild that raised (a cardgen bug): the page says so (SERVE-INTERNAL) and keeps the
        last cards; the next save tries again."""
        p = Problem("SERVE-INTERNAL", "error", f"the preview failed to rebuild ({type(e).__name__}: {e}); "
                    "this is a cardgen bug — `cardgen validate` may say more")
        snap = replace(self.snapshot, version=self.snapshot.version + 1, general=[p, *self.snapshot.general],
                       checking=False)
        self.snapshot = snap
        return snap

    def _lay_out(self, game: Game, problems: Problems) -> list[Entry]:
        layout = CardLayout(game, problems, self.store)
        out: list[Entry] = []
        for card in game.cards:
            ct = game.card_types[card.type]
            e = Entry(card.id, card.name, card.type, ct.name, card.get("set"), card.copies, card.loc.file,
                      card.loc.line, _words(card.fields))
            mark = len(problems.items)
            if not card.dangling:
                for side in ("front", "back"):
                    items = layout.draw(card, side)
                    if items or side == "front":
                        used = _used(items, layout.symbols)
                        key = digest(encode(items), {n: [s.w, s.h, encode(s.items)] for n, s in used.items()},
                                     ct.width, ct.height, game.print.bleed, _pictures(items, used))
                        e.faces[side] = Face(items, used, key, ct.width, ct.height)
            e.problems += problems.items[mark:]
            out.append(e)
        for raw in game.unread_cards:
            loc = getattr(raw, "loc", None)
            known = game.card_types.get(str(raw.get("type")))
            out.append(Entry(str(raw.get("id", "?")), str(raw.get("name", "?")), str(raw.get("type", "?")),
                             known.name if known else str(raw.get("type", "?")), _opt_str(raw.get("set")), 0,
                             loc.file if loc else "", loc.line if loc else 0, _words(raw)))
        for f in game.unread_files:
            out.append(Entry(f"file:{f.name}", f"{f.name} could not be read", "?", "?", None, 0, str(f), 1, ""))
        return sorted(out, key=lambda e: (e.file, e.line))      # a card that failed to load stays in its place

    def image(self, key: str, dpi: int) -> bytes | None:
        """The PNG of the face with this digest, at ``dpi`` (rendered once, then kept)."""
        face = self._faces.get(key)
        hit = self._images.get((key, dpi))
        if hit is not None:
            self._images.move_to_end((key, dpi))
            return hit
        if face is None:
            return None
        target = Target(face.w, face.h, 0.0, dpi)
        bleed = self.game.print.bleed if self.game else 0.0
        with self._render_lock:
            data = png(face_pdf(face.items, face.symbols, face.w, face.h, bleed, target), target)
        self._images[(key, dpi)] = data
        while len(self._images) > KEEP_IMAGES:
            self._images.popitem(last=False)
        return data

    def source(self, entry: Entry) -> str:
        return f"{display_path(entry.file)}:{entry.line}"


def _attach(entries: list[Entry], problems: Problems) -> list[Problem]:
    """Each problem to the card whose lines it points into (the last card starting at or before
    its line in its file); the rest are the game's. Returns the game's."""
    starts: dict[str, list[tuple[int, Entry]]] = {}
    for e in entries:
        starts.setdefault(e.file, []).append((e.line, e))
    for lst in starts.values():
        lst.sort(key=lambda t: t[0])
    general: list[Problem] = []
    for p in problems:
        owner = None
        if p.loc is not None:
            for line, e in starts.get(p.loc.file, ()):
                if line <= p.loc.line:
                    owner = e
        if owner is None:
            general.append(p)
        elif p not in owner.problems:
            owner.problems.append(p)
    return general


def _pictures(items: list, symbols: dict[str, Symbol]) -> list[list]:
    """Each picture file the face shows, with its size and time: a replaced picture is a new face."""
    out: list[list] = []

    def walk(its: Iterable[Any]) -> None:
        for it in its:
            if isinstance(it, Image):
                try:
                    st = Path(it.path).stat()
                    out.append([it.path, st.st_size, st.st_mtime_ns])
                except OSError:
                    out.append([it.path, None, None])
            elif isinstance(it, Clip):
                walk(it.items)
    walk(items)
    for s in symbols.values():
        walk(s.items)
    return out


def _used(items: list, symbols: dict[str, Symbol]) -> dict[str, Symbol]:
    return {it.name: symbols[it.name] for it in items if isinstance(it, Use) and it.name in symbols}


def _words(fields: Any) -> str:
    """The card's field values as one line of text (for searching and the image's alt text)."""
    out: list[str] = []
    for k, v in (fields or {}).items():
        if k in ("type", "copies"):
            continue
        if isinstance(v, list):
            v = ", ".join(str(x) for x in v)
        out.append(f"{k}: {v}")
    return "; ".join(out)


def _opt_str(v: Any) -> str | None:
    return v if isinstance(v, str) else None

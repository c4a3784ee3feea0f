"""Board pictures in rulebooks: ``![caption](board:<name>)``.

``<name>`` is the stem of a file in ``maps/<game>/``: a hex map, a board (the rink), a mats
file or a token sheet. The picture is the board pipeline's own scene (:func:`maps.scene`,
:func:`rink.scene`, :func:`mats.scene`, the token sheet's front page) drawn as vectors,
scaled to the text width and centred, never tiled; a picture taller than
:data:`MAX_RATIO` × the text width is scaled down to that height, so it fits a page.

Options follow the name (``board:arena?width=0.6&bare``):

``#<n>``                     the n-th mat (or token sheet) of the file, from 1 (default: the first)
``width=<fraction>``         a fraction of the text width (0 < fraction ≤ 1; default 1)
``bare``                     hex maps only: the terrain alone, for diagrams: no title, legend or start
                             zones (the coordinate labels stay)
``thumb``                    a thumbnail: a hex map without title, legend or labels, standing side
                             by side with the other images of its paragraph like cards do (scaled
                             together to fit; ``"scale=…"`` in the image title sets the largest scale)
``crop=c,r:c,r``              hex maps only: just the hexes from the first column,row to the second
``sight=c,r:c,r[;c,r:c,r…]`` hex maps only: draw line of sight between two hexes given as the printed
                             ``column,row`` labels, decided exactly as :func:`hexgrid.line_of_sight`
                             decides it: a green corner-to-corner line when there is sight (the line
                             closest to the centres), a dashed red line between the centres and the
                             blocking hexes outlined in red when there is none

Problems (at the image's line): RULEBOOK-BOARD — an unknown name (the hint lists the pictures the
game has), a file that is not a picture (the terrain legend), a file that does not load (run
``cardgen validate``), an unknown option, a ``sight`` hex that is not on the map.

The scheme is registered with :func:`cardgen.rulebook.printable.register_image_scheme` when
:mod:`cardgen.boards` is imported (its ``__init__`` imports this module).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.platypus import Flowable

from .. import hexgrid as hg
from ..problems import Loc, Problems, did_you_mean
from ..render_pdf import MM, draw_items
from ..rulebook.flowables import CardPicture
from ..rulebook.printable import register_image_scheme
from ..scene import Circle, Line, Polygon, Rect, Text, translate
from . import common, maps, mats, rink, tokens
from .tiling import bbox

SCHEME = "board"
PRESET = "preset"
MAX_RATIO = 1.3            # a picture is never taller than this × the text width
SEEN = "#1e7d32"           # sight lines
BLOCKED = "#b3261e"
OPTIONS = ("width", "bare", "thumb", "sight", "crop")


@dataclass
class Picture:
    """What one file draws: scene primitives (mm, top-left origin) in a ``w`` × ``h`` box."""

    items: list
    w: float
    h: float


class BoardPicture(Flowable):
    """A board drawn at (a fraction of) the text width, centred; never taller than
    ``MAX_RATIO`` × the text width."""

    def __init__(self, pic: Picture, fraction: float = 1.0, keep_with_next: bool = False):
        super().__init__()
        self.pic = pic
        self.fraction = fraction
        self.keepWithNext = keep_with_next
        self.s = 1.0
        self.aw = 0.0

    def wrap(self, availWidth, availHeight):
        w, h = self.pic.w * MM, self.pic.h * MM
        s = availWidth * self.fraction / w
        if h * s > availWidth * MAX_RATIO:
            s = availWidth * MAX_RATIO / h
        self.s, self.aw = s, availWidth
        self.width, self.height = availWidth, h * s
        return self.width, self.height

    def draw(self):
        c = self.canv
        c.saveState()
        c.translate((self.aw - self.pic.w * MM * self.s) / 2, 0)
        c.scale(self.s, self.s)
        draw_items(c, self.pic.items, self.pic.h)
        c.restoreState()


# --------------------------------------------------------------------------- the files of a game


class _Boards:
    """A game's ``maps/`` folder, loaded once per rulebook: name → (kind, model(s))."""

    def __init__(self, game):
        self.game = game
        self.scratch = Problems()
        self.files: dict[str, tuple[str, Path]] = {}
        self.loaded: dict[str, list] = {}
        self._done = False

    def load(self) -> None:
        if self._done:
            return
        self._done = True
        game = self.game
        files = common.board_files(game.maps_dir, self.scratch)
        for kind, entries in files.items():
            for path, _doc in entries:
                self.files[path.stem] = (kind, path)
        for m in maps.load_all(game, self.scratch, files):
            self.loaded[m.path.stem] = [m]
        for path, doc in files["board"]:
            r = rink.load(path, doc, game, self.scratch)
            if r is not None:
                self.loaded[path.stem] = [r]
        defs = tokens.all_defs(game, Problems(), files)
        for path, doc in files["mats"]:
            got = mats.load(path, doc, game, self.scratch, defs)
            if got:
                self.loaded[path.stem] = got
        for path, doc in files["tokens"]:
            sheet = tokens.load(path, doc, game, self.scratch)
            if sheet is not None:
                self.loaded[path.stem] = [sheet]

    def pictures(self) -> list[str]:
        return sorted(k for k, (kind, _) in self.files.items() if kind != "terrain")

    def first_problem(self, path: Path) -> str:
        for p in self.scratch.errors:
            if p.loc is not None and Path(p.loc.file).name == path.name:
                return f" (first: {p.loc.file}:{p.loc.line}: {p.rule} {p.message})"
        return ""


def _options(query: str, loc: Loc, problems: Problems) -> dict | None:
    out: dict = {}
    for part in filter(None, query.split("&")):
        key, eq, value = part.partition("=")
        key = key.strip()
        if key not in OPTIONS:
            problems.error("RULEBOOK-BOARD", f"unknown board picture option '{key}'", loc,
                           hint=did_you_mean(key, OPTIONS) or f"options: {', '.join(OPTIONS)}")
            return None
        if key in ("bare", "thumb"):
            out[key] = True
        elif key == "width":
            try:
                f = float(value)
            except ValueError:
                f = -1.0
            if not 0 < f <= 1:
                problems.error("RULEBOOK-BOARD", f"width={value!r}: give a fraction of the text width, "
                               "above 0 and at most 1 (e.g. width=0.5)", loc)
                return None
            out["width"] = f
        elif key == "crop":
            m = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*:\s*(\d+)\s*,\s*(\d+)\s*", value)
            if not m:
                problems.error("RULEBOOK-BOARD", f"crop={value!r}: write the first and last hex as "
                               "column,row:column,row (the printed labels), e.g. crop=0,0:7,6", loc)
                return None
            a, b, c, d = (int(x) for x in m.groups())
            out["crop"] = (min(a, c), min(b, d), max(a, c), max(b, d))
        else:
            pairs = []
            for seg in filter(None, value.split(";")):
                m = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*:\s*(\d+)\s*,\s*(\d+)\s*", seg)
                if not m:
                    problems.error("RULEBOOK-BOARD", f"sight={seg!r}: write two hexes as column,row:column,row "
                                   "(the printed labels), e.g. sight=2,4:9,4", loc)
                    return None
                a, b, c, d = (int(x) for x in m.groups())
                pairs.append(((a, b), (c, d)))
            out.setdefault("sight", []).extend(pairs)
    return out


# --------------------------------------------------------------------------- drawing


def _map_picture(m: maps.HexMap, fonts: dict[str, str], opts: dict, loc: Loc, problems: Problems) -> Picture | None:
    thumb, bare = opts.get("thumb", False), opts.get("bare", False)
    if thumb:
        m = replace(m, legend=False, labels=False)
    elif bare:
        m = replace(m, legend=False, zones={k: set() for k in m.zones})
    full = m
    if opts.get("crop"):
        c0, r0, c1, r1 = opts["crop"]
        keep = {h for h, (c, r) in m.offsets.items() if c0 <= c <= c1 and r0 <= r <= r1}
        if not keep:
            problems.error("RULEBOOK-BOARD", f"crop: map '{m.name}' has no hex from {c0},{r0} to {c1},{r1}", loc)
            return None
        m = replace(m, tiles={h: t for h, t in m.tiles.items() if h in keep},
                    offsets={h: o for h, o in m.offsets.items() if h in keep},
                    zones={k: cells & keep for k, cells in m.zones.items()})
    board = maps.scene(m, fonts)
    lay, _, _ = maps.hex_layout(m)
    items = list(board.items)
    extra: list = []
    for a, b in opts.get("sight", []):
        got = _sight(m, full, lay, a, b, loc, problems)
        if got is None:
            return None
        extra += got
    items += extra
    if not (thumb or bare):
        return Picture(items, board.w, board.h)
    top = maps.TITLE_H - maps.PAD
    keep = [it for it in items if not (isinstance(it, Text) and it.y < maps.TITLE_H - 1)
            and not (isinstance(it, Rect) and it.x == 0 and it.y == 0)]
    h = board.h - top
    frame = [] if thumb else [Rect(0, 0, board.w, h, "#ffffff", None, 0)]
    return Picture(frame + translate(keep, 0, -top), board.w, h)


def _sight(m: maps.HexMap, full: maps.HexMap, lay: hg.Layout, a_off: tuple[int, int], b_off: tuple[int, int],
           loc: Loc, problems: Problems) -> list | None:
    """The sight line between two hexes of the map drawn (``m``, perhaps cropped), as the exact rule
    decides it on the whole map (``full``)."""
    by_off = {off: h for h, off in m.offsets.items()}
    ends = []
    for off in (a_off, b_off):
        h = by_off.get(off)
        if h is None:
            where = "the cropped part of " if len(m.tiles) < len(full.tiles) else ""
            problems.error("RULEBOOK-BOARD", f"sight: {where}map '{m.name}' has no hex {off[0]},{off[1]}", loc)
            return None
        ends.append(h)
    a, b = ends
    walls = [h for h in full.tiles if full.blocks(h) and h not in (a, b)]
    seen = hg.line_of_sight(a, b, walls)
    col = SEEN if seen else BLOCKED
    out: list = []
    for h in (a, b):
        cx, cy = hg.hex_to_pixel(h, lay)
        poly = hg.hex_corners(h, lay)
        out.append(Polygon(_inset(poly, cx, cy, 0.06), None, col, 1.1))
        out.append(Circle(cx, cy, m.size * 0.09, col, None, 0))
    if seen:
        best = _witness(a, b, walls, lay)
        if best is not None:
            (x0, y0), (x1, y1) = best
            out.append(Line(x0, y0, x1, y1, col, 0.9))
            out += [Circle(x0, y0, m.size * 0.05, col, None, 0), Circle(x1, y1, m.size * 0.05, col, None, 0)]
        return out
    (x0, y0), (x1, y1) = hg.hex_to_pixel(a, lay), hg.hex_to_pixel(b, lay)
    out.append(Line(x0, y0, x1, y1, col, 0.9, dash=(2.5, 1.5)))
    for h in (w for w in walls if w in m.tiles):
        if any(hg.segment_enters_hex(p, q, h) for p in hg.lattice_corners(a) for q in hg.lattice_corners(b)):
            cx, cy = hg.hex_to_pixel(h, lay)
            out.append(Polygon(_inset(hg.hex_corners(h, lay), cx, cy, 0.06),
                               None, col, 0.9))
    return out


def _inset(poly, cx: float, cy: float, k: float) -> tuple:
    """The hexagon ``poly`` shrunk towards its centre by the fraction ``k``."""
    return tuple((cx + (x - cx) * (1 - k), cy + (y - cy) * (1 - k)) for x, y in poly)


def _witness(a: hg.Hex, b: hg.Hex, walls: list[hg.Hex], lay: hg.Layout):
    """The clear corner-to-corner line of ``a`` and ``b`` closest to the line between their centres."""
    ca, cb = hg.hex_to_pixel(a, lay), hg.hex_to_pixel(b, lay)
    pa, pb = hg.hex_corners(a, lay), hg.hex_corners(b, lay)
    la, lb = hg.lattice_corners(a), hg.lattice_corners(b)
    near = [h for h in walls if hg.distance(h, a) + hg.distance(h, b) <= hg.distance(a, b) + 2]
    best, best_d = None, math.inf
    for i in range(6):
        for j in range(6):
            if any(hg.segment_enters_hex(la[i], lb[j], h) for h in near):
                continue
            d = math.dist(pa[i], ca) + math.dist(pb[j], cb) + _off_line(pa[i], pb[j], ca, cb)
            if d < best_d - 1e-9:
                best, best_d = (pa[i], pb[j]), d
    return best


def _off_line(p, q, ca, cb) -> float:
    """How far the segment p–q strays from the segment ca–cb (sum of the end distances to that line)."""
    dx, dy = cb[0] - ca[0], cb[1] - ca[1]
    n = math.hypot(dx, dy) or 1.0
    return sum(abs(dx * (y - ca[1]) - dy * (x - ca[0])) / n for x, y in (p, q))


def _picture(boards: _Boards, name: str, opts: dict, index: int, loc: Loc, problems: Problems) -> Picture | None:
    game = boards.game
    kind, path = boards.files[name]
    models = boards.loaded.get(name)
    if not models:
        problems.error("RULEBOOK-BOARD", f"board '{name}' ({path.name}) does not load; `cardgen validate "
                       f"{game.slug}` lists its problems{boards.first_problem(path)}", loc)
        return None
    if index > len(models):
        problems.error("RULEBOOK-BOARD", f"{path.name} holds {len(models)} "
                       f"{'picture' if len(models) == 1 else 'pictures'}, not {index}", loc)
        return None
    model = models[index - 1]
    fonts = common.fonts_of(game)
    if kind != "map":
        for key in ("bare", "sight", "crop"):
            if opts.get(key):
                problems.error("RULEBOOK-BOARD", f"option '{key}' is for hex maps; '{name}' is a {kind} file", loc)
                return None
    if kind == "map":
        return _map_picture(model, fonts, opts, loc, problems)
    if kind == "board":
        b = rink.scene(model, fonts)
        return Picture(b.items, b.w, b.h)
    if kind == "mats":
        b = mats.scene(model, model.copies[0], game, fonts)
        return Picture(b.items, b.w, b.h)
    pages, _ = tokens.pages(model, game, fonts)
    items = list(pages[0].items)
    boxes = [bx for bx in (bbox(it) for it in items) if bx is not None]
    x0, y0 = min(bx[0] for bx in boxes) - 2, min(bx[1] for bx in boxes) - 2
    x1, y1 = max(bx[2] for bx in boxes) + 2, max(bx[3] for bx in boxes) + 2
    return Picture(translate(items, -x0, -y0), x1 - x0, y1 - y0)


def factory(rulebook):
    """The ``board:`` resolver for one rulebook (its game's boards are loaded on first use)."""
    boards = _Boards(rulebook.game)

    def resolve(target: str, alt: str, loc: Loc, problems: Problems):
        spec, _, query = target.strip().partition("?")
        name, _, num = spec.partition("#")
        name = name.strip()
        boards.load()
        if name not in boards.files:
            problems.error("RULEBOOK-BOARD", f"no board '{name}' in {rulebook.game.maps_dir.name}/ of "
                           f"{rulebook.game.slug}", loc,
                           hint=did_you_mean(name, boards.pictures()) or
                           f"pictures: {', '.join(boards.pictures()) or 'none'}")
            return None
        if boards.files[name][0] == "terrain":
            problems.error("RULEBOOK-BOARD", f"'{name}' is the terrain legend, not a board; pictures: "
                           f"{', '.join(boards.pictures())}", loc)
            return None
        index = 1
        if num:
            if not num.strip().isdigit() or int(num) < 1:
                problems.error("RULEBOOK-BOARD", f"'#{num}': give the picture's number in its file, from 1", loc)
                return None
            index = int(num)
        opts = _options(query, loc, problems)
        if opts is None:
            return None
        pic = _picture(boards, name, opts, index, loc, problems)
        if pic is None:
            return None
        if opts.get("thumb"):
            return CardPicture(pic.items, pic.w, pic.h, 0.0)
        return BoardPicture(pic, opts.get("width", 1.0), keep_with_next=bool(alt))

    return resolve


register_image_scheme(SCHEME, factory)


# =========================================================================== preset: deck-like files


class Sketch(Flowable):
    """Scene primitives in a fixed ``w`` × ``h`` mm box (a footprint diagram in a table cell)."""

    def __init__(self, items: list, w: float, h: float):
        super().__init__()
        self.items, self.w, self.h = items, w, h

    def wrap(self, availWidth, availHeight):
        return self.w * MM, self.h * MM

    def draw(self):
        draw_items(self.canv, self.items, self.h)


class Seq(Flowable):
    """Flowables one under the other, drawn together when they fit; otherwise split into them,
    so the page may break between them."""

    def __init__(self, parts: list):
        super().__init__()
        self.parts = parts
        self._sizes: list[tuple[float, float]] = []

    def _gap(self, i: int) -> float:
        return 0.0 if i == 0 else max(self.parts[i - 1].getSpaceAfter(), self.parts[i].getSpaceBefore())

    def wrap(self, availWidth, availHeight):
        self._sizes = [p.wrapOn(self.canv, availWidth, availHeight) for p in self.parts]
        self.width = availWidth
        self.height = sum(h for _, h in self._sizes) + sum(self._gap(i) for i in range(len(self.parts)))
        return self.width, self.height

    def split(self, availWidth, availHeight):
        if not self.parts:
            return []
        first, rest = self.parts[0], list(self.parts[1:])
        _, h = first.wrapOn(self.canv, availWidth, availHeight)
        if h <= availHeight:
            return [first, *rest]
        head = first.splitOn(self.canv, availWidth, availHeight)
        return [*head, *rest] if head else []

    def getSpaceBefore(self):
        return self.parts[0].getSpaceBefore() if self.parts else 0

    def getSpaceAfter(self):
        return self.parts[-1].getSpaceAfter() if self.parts else 0

    def draw(self):
        y = self.height
        for i, (p, (_, h)) in enumerate(zip(self.parts, self._sizes)):
            y -= self._gap(i) + h
            p.drawOn(self.canv, 0, y)


_CELL = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_CELLS = re.compile(r"\s*\[\s*-?\d+\s*,\s*-?\d+\s*\](\s*,\s*\[\s*-?\d+\s*,\s*-?\d+\s*\])*\s*")
PRESET_OPTIONS = ("hide",)
SKIP_BODY = ("name", "points_limit", "notes")


def _is_block(it) -> bool:
    """An entry with lists of cards or a deck of its own (a hero of a party) gets a block of its own."""
    return isinstance(it, dict) and any(isinstance(v, dict) or (isinstance(v, list) and any(
        isinstance(x, (str, dict)) for x in v)) for v in it.values())


def _esc(text) -> str:
    from xml.sax.saxutils import escape
    return escape(str(text))


class _Presets:
    """The game's deck-like files (``collections`` in game.yaml) by file stem."""

    def __init__(self, rulebook):
        from .. import collections as cols
        self.rulebook = rulebook
        self.game = rulebook.game
        self.files = {p.stem: p for p in cols.collection_files(self.game)}
        self._st = None

    @property
    def st(self):
        if self._st is None:
            cur = self.rulebook.current or self.rulebook.versions[-1]
            self._st = self.rulebook.styles(cur, self.rulebook.page_spec(cur))
        return self._st

    def styles(self):
        from reportlab.lib.colors import HexColor
        from reportlab.lib.styles import ParagraphStyle
        st = self.st
        title = ParagraphStyle("preset-title", parent=st.heading[2], fontSize=st.heading[1].fontSize * 0.9,
                               leading=st.heading[1].leading * 0.9, textColor=HexColor(st.accent),
                               spaceBefore=4, spaceAfter=1)
        sub = ParagraphStyle("preset-sub", parent=st.td, textColor=HexColor("#5c574f"), spaceAfter=4)
        head = ParagraphStyle("preset-head", parent=st.heading[3], spaceBefore=6, spaceAfter=2)
        return title, sub, head

    def name_of(self, cid) -> str:
        c = self.game.cards_by_id.get(cid) if isinstance(cid, str) else None
        return c.name if c is not None else str(cid)

    def sheet(self, stem: str, opts: dict, loc: Loc, problems: Problems):
        from reportlab.platypus import KeepTogether, Paragraph, Spacer

        from .. import collections as cols
        from .. import gamehooks
        game, path = self.game, self.files[stem]
        scratch = Problems()
        kind, body, _ = cols.load_collection_file(path, game, scratch)
        if not kind or body is None:
            problems.error("RULEBOOK-PRESET", f"{path.name} does not load; `cardgen validate {game.slug} "
                           f"{path.name}` lists its problems", loc)
            return None
        hook = gamehooks.hook(game.slug, "check_file")
        figures = dict(hook(game, kind, body, scratch) or {}) if hook else {}
        if scratch.has_errors:
            first = scratch.errors[0]
            problems.error("RULEBOOK-PRESET", f"{path.name} breaks the rules ({first.rule}: {first.message}); "
                           f"a rulebook shows only legal presets", loc)
            return None
        hide = set(opts.get("hide", ()))
        title_st, sub_st, head_st = self.styles()
        name = body.get("name") or stem
        points = figures.pop("points", None)
        figures.pop("name", None)
        figures.pop("cards", None)
        sub = [str(kind).title()]
        if isinstance(points, dict) and "total" in points:
            rest = ", ".join(f"{k} {v}" for k, v in points.items() if k not in ("total", "limit"))
            lim = points.get("limit")
            sub.append(f"<b>{points['total']} points</b>" + (f" of {lim}" if lim not in (None, "none") else
                                                              " (no limit)") + (f": {rest}" if rest else ""))
        sub.append(f"preset file {path.name}")
        out: list = [Paragraph(_esc(name), title_st), Paragraph(" · ".join(sub), sub_st)]
        rows: dict = {k: self.value(v) for k, v in figures.items() if k not in hide}
        blocks = []
        for key, val in body.items():
            if key in SKIP_BODY or key in hide or key == "cards":
                continue
            if isinstance(val, list) and any(_is_block(it) for it in val):
                for it in val:
                    blocks.append(self.block(it, hide, head_st))
            elif isinstance(val, list):          # the file's own list replaces a figure of that name
                rows[key] = ", ".join(self.item(it) for it in val) or "—"
            elif not isinstance(val, dict):
                rows[key] = _esc(val)
        if rows:
            out.append(self.table([(self.label(k), v) for k, v in rows.items()]))
        if "cards" in body and "cards" not in hide:
            out += self.deck(body.get("cards"), head_st)
        return Seq([KeepTogether(out), *blocks, Spacer(1, 6)])

    def block(self, it, hide: set, head_st):
        from reportlab.platypus import KeepTogether, Paragraph
        if not isinstance(it, dict):
            return Paragraph(_esc(self.item(it)), head_st)
        parts: list = [Paragraph(_esc(self.name_of(it.get("id"))), head_st)]
        rows = []
        for key, val in it.items():
            if key in ("id", "cards") or key in hide:
                continue
            if isinstance(val, list):
                rows.append((self.label(key), ", ".join(self.item(x) for x in val) or "—"))
            elif not isinstance(val, dict):
                rows.append((self.label(key), _esc(val)))
        if rows:
            parts.append(self.table(rows))
        if "cards" in it and "cards" not in hide:
            parts += self.deck(it.get("cards"), None)
        return KeepTogether(parts)

    def item(self, it) -> str:
        if isinstance(it, dict):
            extra = ", ".join(f"{k} {self.plain(v)}" for k, v in it.items() if k != "id")
            return _esc(self.name_of(it.get("id"))) + (f" <font color='#5c574f'>({_esc(extra)})</font>"
                                                       if extra else "")
        return _esc(self.name_of(it))

    @staticmethod
    def plain(v) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(str(x) for x in v) + "]"
        return str(v)

    @staticmethod
    def label(key) -> str:
        return _esc(str(key).replace("_", " ").capitalize())

    def value(self, v):
        from reportlab.platypus import Paragraph
        st = self.st
        if isinstance(v, dict):
            return " · ".join(f"{_esc(k)} <b>{_esc(x)}</b>" for k, x in v.items())
        if isinstance(v, list):
            if v and all(isinstance(x, str) and set(x) <= set(" o@") for x in v):
                from reportlab.lib.styles import ParagraphStyle
                mono = ParagraphStyle("preset-mono", parent=st.td, fontName="Courier", leading=st.td.fontSize)
                return Paragraph("<br/>".join(_esc(x).replace(" ", "&nbsp;") for x in v), mono)
            return "<br/>".join(_esc(x) for x in v)
        if isinstance(v, str) and _CELLS.fullmatch(v):
            from ..elements.footprint import diagram
            cells = [(int(a), int(b)) for a, b in _CELL.findall(v)]
            ink = self.game.colors.get("ink", "#000000")
            items = diagram(cells, 0, 0, 70, 26, max_hex=9, fill="#d9c7a3", stroke=ink, width=0.3,
                            anchor=ink, font="LiberationSans-Italic")
            return [Sketch(items, 70, 26)]
        return _esc(v)

    def table(self, rows: list[tuple]):
        from reportlab.lib.colors import HexColor
        from reportlab.platypus import Paragraph, Table

        from ..rulebook.flowables import FullWidth
        st = self.st
        data = [[Paragraph(k, st.th), v if isinstance(v, list) or not isinstance(v, str) else Paragraph(v, st.td)]
                for k, v in rows]

        def make(width: float):
            t = Table(data, colWidths=[width * 0.2, width * 0.8], hAlign="LEFT")
            t.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                        ("LEFTPADDING", (0, 0), (-1, -1), st.cell_pad),
                        ("RIGHTPADDING", (0, 0), (-1, -1), st.cell_pad),
                        ("TOPPADDING", (0, 0), (-1, -1), 2.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                        ("LINEBELOW", (0, 0), (-1, -1), 0.25, HexColor("#cfc8bb")),
                        ("BACKGROUND", (0, 0), (0, -1), HexColor(st.head_fill))])
            return t

        return FullWidth(make)

    def deck(self, raw, head_st) -> list:
        from reportlab.lib.colors import HexColor
        from reportlab.platypus import Paragraph, Table

        from .. import collections as cols
        from ..rulebook.flowables import FullWidth
        st = self.st
        entries = cols.entries_from(raw, self.game, Problems(), "deck")
        merged: dict[str, int] = {}
        for e in entries:
            merged[e.id] = merged.get(e.id, 0) + e.count
        types = {self.game.cards_by_id[c].type for c in merged if c in self.game.cards_by_id}
        what = (self.game.card_types[types.pop()].name + " cards") if len(types) == 1 else "Cards"
        total = sum(merged.values())
        cells = [Paragraph(f"<b>{n}×</b> {_esc(self.name_of(cid))}", st.td) for cid, n in merged.items()]
        ncol = 3
        nrow = -(-len(cells) // ncol)
        data = [[cells[c * nrow + r] if c * nrow + r < len(cells) else "" for c in range(ncol)]
                for r in range(nrow)]
        head = Paragraph(f"{what} ({total})", st.th)

        def make(width: float):
            t = Table([[head, "", ""]] + data, colWidths=[width / ncol] * ncol, hAlign="LEFT")
            t.setStyle([("SPAN", (0, 0), (-1, 0)), ("BACKGROUND", (0, 0), (-1, 0), HexColor(st.head_fill)),
                        ("LEFTPADDING", (0, 0), (-1, -1), st.cell_pad), ("TOPPADDING", (0, 0), (-1, -1), 1.2),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
                        ("LINEBELOW", (0, -1), (-1, -1), 0.25, HexColor("#cfc8bb"))])
            return t

        return [FullWidth(make)]


def preset_factory(rulebook):
    """The ``preset:`` resolver for one rulebook."""
    presets = _Presets(rulebook)

    def resolve(target: str, alt: str, loc: Loc, problems: Problems):
        stem, _, query = target.strip().partition("?")
        stem = stem.strip()
        if stem not in presets.files:
            problems.error("RULEBOOK-PRESET", f"no preset file '{stem}' in the {rulebook.game.slug} collections",
                           loc, hint=did_you_mean(stem, presets.files) or
                           f"presets: {', '.join(sorted(presets.files)) or 'none'}")
            return None
        opts: dict = {}
        for part in filter(None, query.split("&")):
            key, _, value = part.partition("=")
            if key.strip() not in PRESET_OPTIONS:
                problems.error("RULEBOOK-PRESET", f"unknown preset picture option '{key.strip()}'", loc,
                               hint=f"options: {', '.join(PRESET_OPTIONS)}")
                return None
            opts["hide"] = [x.strip() for x in value.split(",") if x.strip()]
        return presets.sheet(stem, opts, loc, problems)

    return resolve


register_image_scheme(PRESET, preset_factory)

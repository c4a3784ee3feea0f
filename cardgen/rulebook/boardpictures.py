"""Board pictures in rulebooks: ``![caption](board:<name>)``.

``<name>`` is the stem of a file in ``maps/<game>/``: a hex map, a board of zones, a mats
file or a token sheet. The picture is the board pipeline's own scene (:func:`maps.scene`,
:func:`zoneboard.scene`, :func:`mats.scene`, the token sheet's front page) drawn as vectors,
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

The scheme is listed in :data:`cardgen.rulebook.images.IMAGE_SCHEMES`.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

from reportlab.platypus import Flowable

from cardgen.boards import common, maps, matfile, mats, tokens, zoneboard
from cardgen.boards.tiling import bbox
from cardgen.core import hexgrid as hg
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.render.pdf import MM, draw_items
from cardgen.rulebook.flowables import CardPicture, greeked
from cardgen.scene import Circle, Line, Polygon, Rect, Text, translate

SCHEME = "board"
MAX_RATIO = 1.3            # a picture is never taller than this × the text width
SEEN = "#1e7d32"           # sight lines
BLOCKED = "#b3261e"
OPTIONS = ("width", "bare", "thumb", "sight", "crop")


@record
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
        draw_items(c, greeked(self.pic.items, self.s), self.pic.h)     # no print under 6 pt: lines
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
            r = zoneboard.load(path, doc, game, self.scratch)
            if r is not None:
                self.loaded[path.stem] = [r]
        defs = tokens.all_defs(game, Problems(), files)
        for path, doc in files["mats"]:
            got = matfile.load(path, doc, game, self.scratch, defs)
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


_HEX_PAIR = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*:\s*(\d+)\s*,\s*(\d+)\s*")   # "column,row:column,row", two hexes by their printed labels


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
            m = _HEX_PAIR.fullmatch(value)
            if not m:
                problems.error("RULEBOOK-BOARD", f"crop={value!r}: write the first and last hex as "
                               "column,row:column,row (the printed labels), e.g. crop=0,0:7,6", loc)
                return None
            a, b, c, d = (int(x) for x in m.groups())
            out["crop"] = (min(a, c), min(b, d), max(a, c), max(b, d))
        else:
            pairs = []
            for seg in filter(None, value.split(";")):
                m = _HEX_PAIR.fullmatch(seg)
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
        cells = {h for h, (c, r) in m.offsets.items() if c0 <= c <= c1 and r0 <= r <= r1}
        if not cells:
            problems.error("RULEBOOK-BOARD", f"crop: map '{m.name}' has no hex from {c0},{r0} to {c1},{r1}", loc)
            return None
        m = replace(m, tiles={h: t for h, t in m.tiles.items() if h in cells},
                    offsets={h: o for h, o in m.offsets.items() if h in cells},
                    zones={k: zc & cells for k, zc in m.zones.items()})
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
        b = zoneboard.scene(model, fonts)
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
            return CardPicture(pic.items, pic.w, pic.h, 0.0, thumbnail=True)
        return BoardPicture(pic, opts.get("width", 1.0), keep_with_next=bool(alt))

    return resolve



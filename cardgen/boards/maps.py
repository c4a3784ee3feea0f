"""Hex maps: load and check ``maps/<game>/*.yaml`` maps, draw them true to scale.

A game's terrain file (top-level ``terrain:``) names every tile type — its legend name,
fill, pattern, layout symbol, and whether pieces may enter it and whether it blocks sight —
the start zones, and the placement check (``placement: {hook: NAME, …}``: the game's package
reads the rest and checks each map's starts). A map file (top-level ``map:``) gives the grid
as a ``layout`` of symbols, one text line per row of hexes (``-`` leaves a hole), or as
``size: {cols, rows}`` of the default terrain, then ``tiles`` that override single hexes
and ``starts`` that list start-zone hexes. Coordinates are offset ``[col, row]`` as the
layout reads, 0-based; the printed labels use the same numbers.

Problems: MAP-DUPLICATE (a hex listed twice), MAP-OFF-GRID (a hex outside the grid),
MAP-TERRAIN (unknown terrain or symbol), MAP-ISLAND (warning: clear tiles cut off from the
rest, named), the placement hook's rule,
BOARD-TOO-LARGE (the map cannot be tiled).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import gamehooks, sources
from .. import hexgrid as hg
from ..legibility import MIN_PT
from ..problems import Loc, Problems, did_you_mean
from ..scene import Circle, Line, Polygon, Rect, Text
from ..schema import Opt
from ..yamlsrc import YDict, YList
from . import common
from .tiling import NO_SEAMS, PT_MM, Board, Seams, text_box

DEFAULT_HEX = 25.0           # mm across flats: fits 25 mm miniature bases
PATTERNS = ("none", "hatch", "crosshatch", "dots", "waves")
INK = "#222222"

TERRAIN_SPEC = {
    "name": Opt("str", required=True, doc="legend name"),
    "symbol": Opt("str", required=True, doc="one character in map layouts"),
    "fill": Opt("color", required=True, doc="tile colour"),
    "pattern": Opt("enum", choices=PATTERNS, default="none", doc="overprint pattern"),
    "pattern_color": Opt("color", default="#000000", doc="pattern colour"),
    "passable": Opt("bool", required=True, doc="pieces may enter, cross and end on it (a clear tile)"),
    "blocks_sight": Opt("bool", required=True, doc="blocks line of sight"),
    "note": Opt("str", default="", doc="one line for the legend"),
}
ZONE_SPEC = {
    "name": Opt("str", required=True, doc="legend name"),
    "symbol": Opt("str", required=True, doc="layout symbol: this zone on its terrain"),
    "terrain": Opt("str", required=True, doc="the terrain under a zone symbol"),
    "color": Opt("color", required=True, doc="outline colour"),
    "letter": Opt("str", default="", doc="a letter printed in each zone hex"),
    "pattern": Opt("enum", choices=PATTERNS, default="none",
                   doc="overprint in the zone's colour: zones told apart in greyscale, not by colour alone"),
}
MAP_SPEC = {
    "name": Opt("str", required=True, doc="printed title"),
    "description": Opt("str", default="", doc="one line under the title"),
    "orientation": Opt("enum", choices=("pointy", "flat"), default="pointy", doc="hex orientation"),
    "hex_size": Opt("length", default=DEFAULT_HEX, min=5, doc="across flats"),
    "labels": Opt("bool", default=True, doc="print coordinate labels"),
    "legend": Opt("bool", default=True, doc="print the legend"),
    "fill": Opt("str", default=None, doc="terrain of hexes the layout or size does not set"),
    "size": Opt("map", default=None, doc="{cols, rows}: a rectangle of the default terrain",
                fields={"cols": Opt("int", required=True, min=1), "rows": Opt("int", required=True, min=1)}),
    "layout": Opt("str", default=None, doc="rows of symbols"),
}


@dataclass
class Terrain:
    key: str
    name: str
    symbol: str
    fill: str
    pattern: str
    pattern_color: str
    passable: bool
    blocks_sight: bool
    note: str


@dataclass
class Zone:
    key: str
    name: str
    symbol: str
    terrain: str
    color: str
    letter: str
    pattern: str = "none"


@dataclass
class TerrainSet:
    terrain: dict[str, Terrain] = field(default_factory=dict)
    zones: dict[str, Zone] = field(default_factory=dict)
    placement: Any = None             # the game's placement check (a hook's object with .check)
    default: str | None = None
    loc: Loc | None = None

    def by_symbol(self) -> dict[str, tuple[str, str | None]]:
        out = {t.symbol: (t.key, None) for t in self.terrain.values()}
        for z in self.zones.values():
            out[z.symbol] = (z.terrain, z.key)
        return out


@dataclass
class HexMap:
    key: str
    path: Path
    name: str
    description: str
    orientation: str
    size: float
    labels: bool
    legend: bool
    tiles: dict[hg.Hex, str]                     # hex → terrain key
    offsets: dict[hg.Hex, tuple[int, int]]       # hex → (col, row) as written
    zones: dict[str, set[hg.Hex]]
    terrain: TerrainSet
    loc: Loc
    zone_locs: dict[str, Loc] = field(default_factory=dict)

    @property
    def style(self) -> str:
        return "odd-r" if self.orientation == "pointy" else "odd-q"

    def passable(self, h: hg.Hex) -> bool:
        t = self.tiles.get(h)
        return t is not None and self.terrain.terrain[t].passable

    def blocks(self, h: hg.Hex) -> bool:
        t = self.tiles.get(h)
        return t is not None and self.terrain.terrain[t].blocks_sight


# --------------------------------------------------------------------------- loading


def load_terrain(files: list[tuple[Path, YDict]], game, problems: Problems) -> TerrainSet:
    ts = TerrainSet()
    for path, doc in files:
        r = common.check(doc, {"terrain": Opt("map", required=True), "zones": Opt("map", default={}),
                                "default": Opt("str", default=None, doc="terrain of unset hexes"),
                                "placement": Opt("map", default=None)}, problems, path.name)
        ts.loc = doc.loc
        raw_t = doc.get("terrain") or {}
        seen_sym: dict[str, str] = {}
        for key, td in raw_t.items() if isinstance(raw_t, dict) else []:
            rr = common.mapping(td, raw_t.at(key), TERRAIN_SPEC, problems, f"terrain '{key}'", game.colors)
            if not rr.ok:
                continue
            v = rr.values
            if len(v["symbol"]) != 1 or v["symbol"].isspace() or v["symbol"] == "-":
                problems.error("YAML-TYPE", f"symbol of terrain '{key}' must be one visible character other "
                               "than '-'", td.at("symbol"))
                continue
            if v["symbol"] in seen_sym:
                problems.error("MAP-TERRAIN", f"terrain '{key}' reuses the symbol '{v['symbol']}' of "
                               f"'{seen_sym[v['symbol']]}'", td.at("symbol"))
            seen_sym[v["symbol"]] = key
            ts.terrain[key] = Terrain(key, v["name"], v["symbol"], v["fill"], v["pattern"], v["pattern_color"],
                                      v["passable"], v["blocks_sight"], v["note"])
        raw_z = doc.get("zones") or {}
        for key, zd in raw_z.items() if isinstance(raw_z, dict) else []:
            rr = common.mapping(zd, raw_z.at(key), ZONE_SPEC, problems, f"zone '{key}'", game.colors)
            if not rr.ok:
                continue
            v = rr.values
            if v["terrain"] not in ts.terrain:
                problems.error("MAP-TERRAIN", f"zone '{key}' stands on unknown terrain '{v['terrain']}'",
                               zd.at("terrain"), hint=did_you_mean(v["terrain"], ts.terrain))
                continue
            if v["symbol"] in seen_sym:
                problems.error("MAP-TERRAIN", f"zone '{key}' reuses the symbol '{v['symbol']}' of "
                               f"'{seen_sym[v['symbol']]}'", zd.at("symbol"))
            seen_sym[v["symbol"]] = key
            ts.zones[key] = Zone(key, v["name"], v["symbol"], v["terrain"], v["color"], v["letter"],
                                 v["pattern"])
        if r.values.get("default"):
            if r.values["default"] not in ts.terrain:
                problems.error("MAP-TERRAIN", f"unknown default terrain '{r.values['default']}'", doc.at("default"),
                               hint=did_you_mean(r.values["default"], ts.terrain))
            else:
                ts.default = r.values["default"]
        pd = doc.get("placement")
        if pd is not None:
            ts.placement = _placement(pd, ts, game, problems)
    return ts


def _placement(pd: Any, ts: TerrainSet, game, problems: Problems) -> Any:
    """``placement: {hook: NAME, …}``: the game's package reads the rest (its start zones, sizes)
    and returns an object whose ``check(map, problems)`` checks each map's starts."""
    if not isinstance(pd, dict) or "hook" not in pd:
        problems.error("YAML-TYPE", "placement names its game's check: {hook: NAME, …}", getattr(pd, "loc", None))
        return None
    fn = gamehooks.hook(game.slug, str(pd["hook"])) if game is not None else None
    if fn is None:
        problems.error("MAP-TERRAIN", f"placement hook '{pd['hook']}' is not a hook of this game's package",
                       pd.at("hook"))
        return None
    return fn(pd, ts, game, problems)


def _layout_rows(doc: YDict, md: YDict) -> tuple[list[str], int, list[str]]:
    """The layout's text lines, the file line of its first row, and the raw file lines."""
    text = md.get("layout") or ""
    loc = md.at("layout")
    try:
        raw = sources.read_bytes(loc.file).decode("utf-8").splitlines()
    except (sources.SourceError, UnicodeDecodeError):
        raw = []
    line = loc.line
    if raw and 0 < line <= len(raw):
        head = raw[line - 1][max(loc.col - 1, 0):].lstrip()
        if head[:1] in "|>":
            line += 1
    return text.splitlines(), line, raw


def load_map(path: Path, doc: YDict, ts: TerrainSet, game, problems: Problems) -> HexMap | None:
    r = common.check(doc, {"map": Opt("map", required=True, fields=MAP_SPEC),
                            "tiles": Opt("list", default=[]), "starts": Opt("map", default={})},
                      problems, path.name)
    md = doc.get("map")
    if not r.ok or not isinstance(md, YDict):
        return None
    v = r.values["map"]
    style = "odd-r" if v["orientation"] == "pointy" else "odd-q"
    default = v["fill"] or ts.default
    if v["fill"] and v["fill"] not in ts.terrain:
        problems.error("MAP-TERRAIN", f"unknown terrain '{v['fill']}'", md.at("fill"),
                       hint=did_you_mean(v["fill"], ts.terrain))
        return None
    tiles: dict[hg.Hex, str] = {}
    offsets: dict[hg.Hex, tuple[int, int]] = {}
    zones: dict[str, set[hg.Hex]] = {k: set() for k in ts.zones}
    zone_locs: dict[str, Loc] = {}
    ok = True

    def put(col: int, row: int, terrain: str) -> hg.Hex:
        h = hg.from_offset(col, row, style)
        tiles[h] = terrain
        offsets[h] = (col, row)
        return h

    if v["layout"] is not None and v["size"] is not None:
        problems.error("YAML-TYPE", "a map has either a layout or a size, not both", md.at("size"))
        return None
    if v["layout"] is not None:
        rows, first_line, raw = _layout_rows(doc, md)
        symbols = ts.by_symbol()
        for i, text in enumerate(rows):
            line = first_line + i
            raw_line = raw[line - 1] if 0 < line <= len(raw) else text
            tokens = list(re.finditer(r"\S", raw_line)) if raw_line.strip() == text.strip() else \
                list(re.finditer(r"\S", text))
            for col, m in enumerate(tokens):
                sym = m.group(0)
                if sym == "-":
                    continue
                if sym not in symbols:
                    problems.error("MAP-TERRAIN", f"unknown map symbol '{sym}' at column {col}, row {i}",
                                   Loc(str(path), line, m.start() + 1),
                                   hint=did_you_mean(sym, symbols) or "symbols: " + " ".join(
                                       f"'{s}' {k[1] or k[0]}" for s, k in symbols.items()))
                    ok = False
                    continue
                terr, zone = symbols[sym]
                h = put(col, i, terr)
                if zone:
                    zones[zone].add(h)
                    zone_locs.setdefault(zone, md.at("layout"))
    elif v["size"] is not None:
        if default is None:
            problems.error("MAP-TERRAIN", "a map given by size needs a fill terrain (map fill or the terrain "
                           "file's default)", md.at("size"))
            return None
        for row in range(v["size"]["rows"]):
            for col in range(v["size"]["cols"]):
                put(col, row, default)
    else:
        problems.error("YAML-MISSING-KEY", "a map needs a layout or a size {cols, rows}", md.loc)
        return None
    if not tiles:
        if ok:
            problems.error("MAP-OFF-GRID", "the map has no tiles", md.at("layout") if v["layout"] is not None else md.loc)
        return None
    # single-hex overrides
    seen: dict[hg.Hex, Loc] = {}
    tl = doc.get("tiles") or []
    for i, td in enumerate(tl if isinstance(tl, list) else []):
        loc = tl.at(i) if isinstance(tl, YList) else doc.loc
        rr = common.mapping(td, loc, {"at": Opt("list", required=True, item=Opt("int")),
                                      "terrain": Opt("str", required=True)}, problems, f"tile {i + 1}")
        if not rr.ok:
            ok = False
            continue
        h = _cell(rr.values["at"], td.at("at"), style, offsets, problems, f"tile {i + 1}")
        if h is None:
            ok = False
            continue
        if h in seen:
            problems.error("MAP-DUPLICATE", f"tile {_fmt(offsets[h])} is listed twice (first at line "
                           f"{seen[h].line}): tiles may not overlap", td.at("at"))
            ok = False
            continue
        seen[h] = loc
        terr = rr.values["terrain"]
        if terr not in ts.terrain:
            problems.error("MAP-TERRAIN", f"unknown terrain '{terr}' at {_fmt(offsets[h])}", td.at("terrain"),
                           hint=did_you_mean(terr, ts.terrain))
            ok = False
            continue
        tiles[h] = terr
    # start zones listed by coordinates
    st = doc.get("starts") or {}
    for zkey, cells in st.items() if isinstance(st, dict) else []:
        zone_locs[zkey] = st.key_at(zkey)
        if zkey not in ts.zones:
            problems.error("MAP-TERRAIN", f"unknown start zone '{zkey}'", st.key_at(zkey),
                           hint=did_you_mean(zkey, ts.zones))
            ok = False
            continue
        if isinstance(cells, dict):
            rect = _rect(cells, st.at(zkey), style, offsets, problems, f"start zone '{zkey}'")
            if rect is None:
                ok = False
            else:
                zones[zkey] |= rect
            continue
        if not isinstance(cells, list):
            problems.error("YAML-TYPE", f"start zone '{zkey}' must be a list of [col, row] or "
                           "{cols: [first, last], rows: [first, last]}", st.at(zkey))
            ok = False
            continue
        zseen: set[hg.Hex] = set()
        for i, c in enumerate(cells):
            cloc = cells.at(i) if isinstance(cells, YList) else st.at(zkey)
            h = _cell(c, cloc, style, offsets, problems, f"start zone '{zkey}' hex {i + 1}")
            if h is None:
                ok = False
                continue
            if h in zseen:
                problems.error("MAP-DUPLICATE", f"start zone '{zkey}' lists {_fmt(offsets[h])} twice", cloc)
                ok = False
                continue
            zseen.add(h)
            zones[zkey].add(h)
    if not ok:
        return None
    return HexMap(path.stem, path, v["name"], v["description"], v["orientation"], v["hex_size"], v["labels"],
                  v["legend"], tiles, offsets, zones, ts, md.loc, zone_locs)


def _rect(raw: dict, loc: Loc, style: str, offsets: dict, problems: Problems, what: str) -> set | None:
    """The hexes of ``{cols: [a, b], rows: [c, d]}`` (inclusive; holes skipped); every corner on the grid."""
    r = common.check(raw, {"cols": Opt("list", required=True, item=Opt("int")),
                            "rows": Opt("list", required=True, item=Opt("int"))}, problems, what)
    if not r.ok:
        return None
    cols, rows = r.values["cols"], r.values["rows"]
    if len(cols) != 2 or len(rows) != 2 or cols[0] > cols[1] or rows[0] > rows[1]:
        problems.error("YAML-TYPE", f"{what}: cols and rows are [first, last], first ≤ last", loc)
        return None
    max_c = max(c for c, _ in offsets.values())
    max_r = max(rr for _, rr in offsets.values())
    if cols[0] < 0 or rows[0] < 0 or cols[1] > max_c or rows[1] > max_r:
        problems.error("MAP-OFF-GRID", f"{what} (columns {cols[0]}–{cols[1]}, rows {rows[0]}–{rows[1]}) runs off "
                       f"the grid (columns 0–{max_c}, rows 0–{max_r})", loc)
        return None
    out = set()
    for c in range(cols[0], cols[1] + 1):
        for rr in range(rows[0], rows[1] + 1):
            h = hg.from_offset(c, rr, style)
            if h in offsets:
                out.add(h)
    return out


def _fmt(off: tuple[int, int]) -> str:
    return f"{off[0]},{off[1]}"


def _cell(raw: Any, loc: Loc, style: str, offsets: dict, problems: Problems, what: str) -> hg.Hex | None:
    if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                            for x in raw)):
        problems.error("YAML-TYPE", f"{what} must be [col, row] (whole numbers)", loc)
        return None
    h = hg.from_offset(raw[0], raw[1], style)
    if h not in offsets:
        cols = max((c for c, _ in offsets.values()), default=-1)
        rows = max((r for _, r in offsets.values()), default=-1)
        problems.error("MAP-OFF-GRID", f"{what} at {raw[0]},{raw[1]} is off the grid (columns 0–{cols}, "
                       f"rows 0–{rows}{', holes excluded' if len(offsets) < (cols + 1) * (rows + 1) else ''})", loc)
        return None
    return h


# --------------------------------------------------------------------------- checks


def islands(m: HexMap) -> list[set[hg.Hex]]:
    """Edge-connected groups of passable tiles, largest first."""
    todo = {h for h in m.tiles if m.passable(h)}
    groups = []
    while todo:
        start = todo.pop()
        group = {start}
        stack = [start]
        while stack:
            for n in hg.neighbors(stack.pop()):
                if n in todo:
                    todo.discard(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return sorted(groups, key=lambda g: (-len(g), min(g)))


def check_map(m: HexMap, problems: Problems) -> None:
    groups = islands(m)
    if len(groups) > 1:
        for i, g in enumerate(groups[1:], start=2):
            names = " ".join(_fmt(m.offsets[h]) for h in sorted(g, key=lambda h: m.offsets[h][::-1])[:8])
            more = f" and {len(g) - 8} more" if len(g) > 8 else ""
            problems.warning("MAP-ISLAND", f"map '{m.name}': island {i} of {len(groups)} ({len(g)} clear tile"
                             f"{'s' if len(g) != 1 else ''}: {names}{more}) cannot be reached from the "
                             f"{len(groups[0])} tiles of the main area", m.loc)
    if m.terrain.placement is not None:            # the game's own start check (a hook)
        m.terrain.placement.check(m, problems)


# --------------------------------------------------------------------------- drawing

TITLE_H = 16.0
PAD = 6.0


def _clip_line(p0, p1, poly) -> tuple | None:
    """The part of segment p0–p1 inside the convex polygon (counter-clockwise or clockwise)."""
    t0, t1 = 0.0, 1.0
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    n = len(poly)
    # orientation of the polygon
    area = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    sgn = 1.0 if area > 0 else -1.0
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        # inside: sgn * cross(e, p - a) >= 0
        num = sgn * (ex * (p0[1] - ay) - ey * (p0[0] - ax))
        den = sgn * (ex * dy - ey * dx)
        if abs(den) < 1e-12:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return None
    return (p0[0] + t0 * dx, p0[1] + t0 * dy), (p0[0] + t1 * dx, p0[1] + t1 * dy)


def _inset(poly, cx, cy, d: float, flats: float):
    k = (flats / 2 - d) / (flats / 2)
    return [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in poly]


def pattern_items(kind: str, poly, cx: float, cy: float, flats: float, color: str) -> list:
    """The pattern's strokes inside the hexagon ``poly`` (already inset a little)."""
    out: list = []
    r = flats
    if kind in ("hatch", "crosshatch"):
        step = flats / 8
        dirs = [(1, -1)] if kind == "hatch" else [(1, -1), (1, 1)]
        for ux, uy in dirs:
            nx, ny = -uy / math.sqrt(2), ux / math.sqrt(2)
            k = -r
            while k <= r:
                ox, oy = cx + nx * k, cy + ny * k
                seg = _clip_line((ox - ux * r, oy - uy * r), (ox + ux * r, oy + uy * r), poly)
                if seg:
                    (x0, y0), (x1, y1) = seg
                    out.append(Line(x0, y0, x1, y1, color, 0.35))
                k += step
    elif kind == "dots":
        step = flats / 7
        n = int(r / step) + 1
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                x = cx + i * step + (step / 2 if j % 2 else 0)
                y = cy + j * step * 0.866
                if _inside(poly, x, y):
                    out.append(Circle(x, y, flats / 60, color, None, 0))
    elif kind == "waves":
        step = flats / 6
        k = -r
        while k <= r:
            y = cy + k
            pts = []
            x = cx - r
            while x <= cx + r:
                pts.append((x, y + math.sin((x - cx) / flats * 4 * math.pi) * flats / 40))
                x += flats / 20
            for a, b in zip(pts, pts[1:]):
                seg = _clip_line(a, b, poly)
                if seg:
                    out.append(Line(seg[0][0], seg[0][1], seg[1][0], seg[1][1], color, 0.3))
            k += step
    return out


def _inside(poly, x: float, y: float) -> bool:
    n = len(poly)
    sign = 0
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        c = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        s = 1 if c > 0 else -1 if c < 0 else 0
        if s and sign and s != sign:
            return False
        sign = sign or s
    return True


def _luma(hexcol: str) -> float:
    h = hexcol.lstrip("#")
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


def hex_layout(m: HexMap) -> tuple[hg.Layout, float, float]:
    """The layout placing the map's top-left hex corner at (PAD, TITLE_H), and the map's extent."""
    probe = hg.Layout(m.orientation, m.size)
    xs, ys = [], []
    for h in m.tiles:
        for x, y in hg.hex_corners(h, probe):
            xs.append(x)
            ys.append(y)
    ox, oy = PAD - min(xs), TITLE_H - min(ys)
    return hg.Layout(m.orientation, m.size, (ox, oy)), max(xs) - min(xs), max(ys) - min(ys)


def _tint(color: str, k: float = 0.55) -> str:
    """A colour mixed with white (a zone's pattern, lighter than its outline and letter)."""
    h = color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return "#" + "".join(f"{round(c + (255 - c) * k):02x}" for c in (r, g, b))


def _label_ink(fill: str) -> str:
    """Coordinate label colour that reads on a tile of this fill."""
    lum = _luma(fill)
    return "#ffffff" if lum < 110 else "#222222" if lum < 185 else "#555555"


def draw_tile(m: HexMap, h: hg.Hex, lay: hg.Layout, fonts: dict[str, str], seams: Seams = NO_SEAMS) -> list:
    t = m.terrain.terrain[m.tiles[h]]
    poly = hg.hex_corners(h, lay)
    cx, cy = hg.hex_to_pixel(h, lay)
    out: list = [Polygon(tuple(poly), t.fill, None, 0)]
    if t.pattern != "none":
        out += pattern_items(t.pattern, _inset(poly, cx, cy, 1.0, m.size), cx, cy, m.size, t.pattern_color)
    zoned = False
    for zkey, cells in m.zones.items():
        if h in cells and t.passable:
            z = m.terrain.zones[zkey]
            if z.pattern != "none":
                zoned = True
                out += pattern_items(z.pattern, _inset(poly, cx, cy, m.size * 0.09, m.size), cx, cy, m.size,
                                     _tint(z.color))
            out.append(Polygon(tuple(_inset(poly, cx, cy, m.size * 0.09, m.size)), None, z.color, 0.9))
            if z.letter:
                out.append(Text(cx, cy + m.size * 0.36, z.letter, fonts["bold"], m.size * 0.28, z.color, "center"))
    if m.labels:
        col, row = m.offsets[h]
        dy = -m.size * (0.3 if m.orientation == "pointy" else 0.33)
        label = Text(cx, cy + dy, f"{col},{row}", fonts["regular"], max(MIN_PT, m.size * 0.24), _label_ink(t.fill),
                     "center")
        label = seams.nudge(label, cx - m.size * 0.3, cx + m.size * 0.3)   # off a seam, inside the hex
        if t.pattern != "none" or zoned:   # a patch of plain fill under the label: the pattern would drown it
            x0, y0, x1, y1 = text_box(label)
            out.append(Rect(x0 - 0.7, y0 - 0.4, x1 - x0 + 1.4, y1 - y0 + 0.8, t.fill, None, 0, 0.8))
        out.append(label)
    return out


LEGEND_SWATCH = 9.0
LEGEND_CELL = 84.0         # one legend entry: swatch, name and its note wrapped beside it
LEGEND_NOTE = 6.2          # pt


def legend_items(m: HexMap, x: float, y: float, width: float, fonts: dict[str, str],
                 seams: Seams = NO_SEAMS) -> tuple[list, float]:
    """Legend swatches of the terrain and zones the map uses, each with its name and its note
    wrapped beside it, flowing left to right and never across a seam; returns items and height."""
    used_t = [t for t in m.terrain.terrain.values() if t.key in set(m.tiles.values())]
    used_z = [z for k, z in m.terrain.zones.items() if m.zones.get(k)]
    entries: list[tuple[Any, str, str]] = [(t, t.name, t.note) for t in used_t]
    entries += [(z, z.name, f"start zone{' — marked ' + z.letter if z.letter else ''}") for z in used_z]
    sw, cell = LEGEND_SWATCH, min(LEGEND_CELL, width)
    lh = LEGEND_NOTE * PT_MM * 1.2
    out: list = [seams.nudge(Text(x, y + 4, "Legend", fonts["bold"], 9, INK), x, x + width)]
    row_y, row_h, cx0 = y + 7, 0.0, x
    for obj, name, note in entries:
        lines = common.wrap(note, fonts["regular"], LEGEND_NOTE, cell - sw - 4) if note else []
        h = max(sw, 3.0 + len(lines) * lh) + 2.5
        for _ in range(2):   # past a seam, or to a new row
            if cx0 + cell > x + width + 1e-6 and cx0 > x:
                cx0, row_y, row_h = x, row_y + row_h, 0.0
            crossing = [s for s in seams.xs if cx0 - seams.pad < s < cx0 + cell + seams.pad]
            if crossing:
                cx0 = max(crossing) + seams.pad
        row_h = max(row_h, h)
        cx, cy = cx0 + sw / 2, row_y + sw / 2
        lay = hg.Layout("pointy", sw, (cx, cy))
        poly = hg.hex_corners(hg.ORIGIN, lay)
        if isinstance(obj, Terrain):
            out.append(Polygon(tuple(poly), obj.fill, None, 0))
            if obj.pattern != "none":
                out += pattern_items(obj.pattern, _inset(poly, cx, cy, 0.4, sw), cx, cy, sw, obj.pattern_color)
            out.append(Polygon(tuple(poly), None, INK, 0.25))
        else:
            out.append(Polygon(tuple(poly), "#ffffff", INK, 0.25))
            out.append(Polygon(tuple(_inset(poly, cx, cy, 1.0, sw)), None, obj.color, 0.7))
            if obj.letter:
                out.append(Text(cx, cy + 1.3, obj.letter, fonts["bold"], 7, obj.color, "center"))
        tx = cx0 + sw + 2.5
        out.append(Text(tx, cy - 0.8, name, fonts["bold"], 8, INK))
        for i, ln in enumerate(lines):
            out.append(Text(tx, cy + 2.6 + i * lh, ln, fonts["regular"], LEGEND_NOTE, "#444444"))
        cx0 += cell + 4
    return out, row_y + row_h - y


def scene(m: HexMap, fonts: dict[str, str], seams: Seams | None = None) -> Board:
    """The whole map as one drawing: title, hexes true to scale, legend. With ``seams`` (where a
    tiling cuts it) the labels and the legend keep off the cut lines; the board's ``relayout``
    draws it again for other seams."""
    seams = seams or NO_SEAMS
    lay, mw, mh = hex_layout(m)
    width = max(mw + 2 * PAD, 190.0 if m.legend else 0)
    items: list = []
    hexes = sorted(m.tiles, key=lambda h: (h.r, h.q))
    for h in hexes:
        items += draw_tile(m, h, lay, fonts, seams)
    # outlines last, on top of fills and patterns
    for h in hexes:
        items.append(Polygon(tuple(hg.hex_corners(h, lay)), None, INK, 0.35))
    head = [Text(PAD, 9, m.name, fonts["bold"], 15, INK),
            Text(PAD, 13.5, (m.description + " · " if m.description else "") +
                 f"hexes {m.size:g} mm across flats · {len(m.tiles)} tiles" +
                 (" · labels: column,row" if m.labels else ""), fonts["regular"], 7.5, "#444444")]
    y = TITLE_H + mh + 4
    legend: list = []
    if m.legend:
        legend, lh = legend_items(m, PAD, y, width - 2 * PAD, fonts, seams)
        y += lh
    h_total = y + PAD
    frame = [Rect(0, 0, width, h_total, "#ffffff", None, 0)]
    board = Board(m.name, width, h_total, frame + head + items + legend)
    board.seam_cost = _seam_cost(m, lay)
    board.notes = [f"Check: a hex measures {m.size:g} mm across its flat sides."]
    board.relayout = lambda s: scene(m, fonts, s)
    return board


def _seam_cost(m: HexMap, lay: hg.Layout):
    """Cut between hex rows (in the zig-zag band) and a quarter hex from centres across them."""
    rows_y = sorted({round(hg.hex_to_pixel(h, lay)[1 if m.orientation == "pointy" else 0], 4) for h in m.tiles})
    cols_x = sorted({round(hg.hex_to_pixel(h, lay)[0 if m.orientation == "pointy" else 1], 4) for h in m.tiles})
    R = m.size / math.sqrt(3)
    along, across = ("y", "x") if m.orientation == "pointy" else ("x", "y")

    def nearest(vals, pos):
        import bisect
        i = bisect.bisect_left(vals, pos)
        return min((abs(vals[j] - pos) for j in (i - 1, i) if 0 <= j < len(vals)), default=1e9)

    def cost(axis: str, pos: float) -> float:
        if axis == along:
            d = nearest(rows_y, pos)
            return max(0.0, R / 2 + 0.5 - d) / R * 5
        d = nearest(cols_x, pos)
        return max(0.0, m.size / 4 - d) / m.size * 5
    return cost


def load_all(game, problems: Problems, files=None) -> list[HexMap]:
    """Every map of the game, loaded and checked."""
    files = files if files is not None else common.board_files(game.maps_dir, problems)
    if not files["map"]:
        return []
    ts = load_terrain(files["terrain"], game, problems)
    out = []
    for path, doc in files["map"]:
        m = load_map(path, doc, ts, game, problems)
        if m is not None:
            check_map(m, problems)
            out.append(m)
    return out

"""Reading one map file: its layout of symbols or its size, tiles and starts, in offset
coordinates (see :mod:`cardgen.boards.maps`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cardgen.boards import common
from cardgen.boards.mapmodel import MAP_SPEC, HexMap, TerrainSet
from cardgen.core import hexgrid as hg
from cardgen.core import sources
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, YList


def _layout_rows(text: str, md: YDict) -> tuple[list[str], int, list[str]]:
    """The layout's text lines (``text``: the layout as its option read it — a number written
    there is its text), the file line of its first row, and the raw file lines."""
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


def _unknown(problems: Problems, what: str, at: list[tuple[Loc, str]], hint: str | None) -> None:
    """One name unknown at several places: one problem, at the first (one slip, one problem)."""
    more = f" (and {len(at) - 1} more: {'; '.join(w for _, w in at[1:4])}{'; …' if len(at) > 4 else ''})" \
        if len(at) > 1 else ""
    problems.error("MAP-TERRAIN", f"{what} at {at[0][1]}{more}", at[0][0], hint=hint)


def load_map(path: Path, doc: YDict, ts: TerrainSet, game, problems: Problems) -> HexMap | None:
    r = common.check(doc, {"map": Opt("map", required=True, fields=MAP_SPEC),
                            "tiles": Opt("list", default=[]), "starts": Opt("map", default={})},
                      problems, path.name)
    md = doc.get("map")
    if not r.ok or not isinstance(md, YDict):
        return None
    v = r.values["map"]
    style: hg.OffsetStyle = "odd-r" if v["orientation"] == "pointy" else "odd-q"
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
    h: hg.Hex | None

    def put(col: int, row: int, terrain: str) -> hg.Hex:
        h = hg.from_offset(col, row, style)
        tiles[h] = terrain
        offsets[h] = (col, row)
        return h

    if v["layout"] is not None and v["size"] is not None:
        problems.error("YAML-TYPE", "a map has either a layout or a size, not both", md.at("size"))
        return None
    if v["layout"] is not None:
        rows, first_line, raw = _layout_rows(v["layout"], md)
        symbols = ts.by_symbol()
        unknown: dict[str, list[tuple[Loc, str]]] = {}      # one problem a symbol, at its first hex
        for i, text in enumerate(rows):
            line = first_line + i
            raw_line = raw[line - 1] if 0 < line <= len(raw) else text
            tokens = list(re.finditer(r"\S", raw_line)) if raw_line.strip() == text.strip() else \
                list(re.finditer(r"\S", text))
            for col, m in enumerate(tokens):
                sym = m.group(0)
                if sym == "-":
                    continue
                if sym not in symbols and ts.broken:
                    ok = False      # a definition failed its check (reported): the symbols are not known
                    continue
                if sym not in symbols:
                    unknown.setdefault(sym, []).append((Loc(str(path), line, m.start() + 1), f"column {col}, row {i}"))
                    ok = False
                    continue
                terr, zone = symbols[sym]
                h = put(col, i, terr)
                if zone:
                    zones[zone].add(h)
                    zone_locs.setdefault(zone, md.at("layout"))
        for sym, at in unknown.items():
            _unknown(problems, f"unknown map symbol '{sym}'", at, did_you_mean(sym, symbols) or "symbols: " + " ".join(
                f"'{s}' {k[1] or k[0]}" for s, k in symbols.items()))
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
    bad_terrain: dict[str, list[tuple[Loc, str]]] = {}
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
        if terr not in ts.terrain and ts.broken:
            ok = False
            continue
        if terr not in ts.terrain:
            bad_terrain.setdefault(terr, []).append((td.at("terrain"), _fmt(offsets[h])))
            ok = False
            continue
        tiles[h] = terr
    for terr, at in bad_terrain.items():
        _unknown(problems, f"unknown terrain '{terr}'", at, did_you_mean(terr, ts.terrain))
    # start zones listed by coordinates
    st = doc.get("starts")
    starts = st if isinstance(st, YDict) else YDict()
    for zkey, cells in starts.items():
        zone_locs[zkey] = starts.key_at(zkey)
        if zkey not in ts.zones:
            problems.error("MAP-TERRAIN", f"unknown start zone '{zkey}'", starts.key_at(zkey),
                           hint=did_you_mean(zkey, ts.zones))
            ok = False
            continue
        if isinstance(cells, dict):
            rect = _rect(cells, starts.at(zkey), style, offsets, problems, f"start zone '{zkey}'")
            if rect is None:
                ok = False
            else:
                zones[zkey] |= rect
            continue
        if not isinstance(cells, list):
            problems.error("YAML-TYPE", f"start zone '{zkey}' must be a list of [col, row] or "
                           "{cols: [first, last], rows: [first, last]}", starts.at(zkey))
            ok = False
            continue
        zseen: set[hg.Hex] = set()
        for i, c in enumerate(cells):
            cloc = cells.at(i) if isinstance(cells, YList) else starts.at(zkey)
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


def _rect(raw: dict, loc: Loc, style: hg.OffsetStyle, offsets: dict, problems: Problems, what: str) -> set | None:
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


def _cell(raw: Any, loc: Loc, style: hg.OffsetStyle, offsets: dict, problems: Problems, what: str) -> hg.Hex | None:
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

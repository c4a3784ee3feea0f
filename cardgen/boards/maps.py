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

from pathlib import Path
from typing import Any

from cardgen import gamehooks
from cardgen.boards import common
from cardgen.boards.mapdraw import PAD, TITLE_H, hex_layout, scene
from cardgen.boards.mapfile import _fmt, load_map
from cardgen.boards.mapmodel import MAP_SPEC, TERRAIN_SPEC, ZONE_SPEC, HexMap, Terrain, TerrainSet, Zone
from cardgen.core import hexgrid as hg
from cardgen.core.options import Opt
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.yamlsrc import YDict

__all__ = ["MAP_SPEC", "PAD", "TITLE_H", "HexMap", "check_map", "hex_layout", "islands", "load_all", "load_map",
           "load_terrain", "scene"]

# --------------------------------------------------------------------------- loading


def _broken(key: str, d: object) -> set[str]:
    """A definition that failed its check: its key, and its symbol when it wrote one."""
    sym = d.get("symbol") if isinstance(d, dict) else None
    return {str(key), *([sym] if isinstance(sym, str) else [])}


def load_terrain(files: list[tuple[Path, YDict]], game, problems: Problems) -> TerrainSet:
    ts = TerrainSet()
    for path, doc in files:
        r = common.check(doc, {"terrain": Opt("map", required=True), "zones": Opt("map", default={}),
                                "default": Opt("str", default=None, doc="terrain of unset hexes"),
                                "placement": Opt("map", default=None)}, problems, path.name)
        ts.loc = doc.loc
        raw_t = doc.get("terrain")
        raw_t = raw_t if isinstance(raw_t, YDict) else YDict()
        seen_sym: dict[str, str] = {}
        for key, td in raw_t.items():
            rr = common.mapping(td, raw_t.at(key), TERRAIN_SPEC, problems, f"terrain '{key}'", game.colors)
            v = rr.values
            if not rr.ok:
                ts.broken |= _broken(key, td)
                continue
            if len(v["symbol"]) != 1 or v["symbol"].isspace() or v["symbol"] == "-":
                problems.error("YAML-TYPE", f"symbol of terrain '{key}' must be one visible character other "
                               "than '-'", td.at("symbol"))
                ts.broken |= _broken(key, td)
                continue
            if v["symbol"] in seen_sym:
                problems.error("MAP-TERRAIN", f"terrain '{key}' reuses the symbol '{v['symbol']}' of "
                               f"'{seen_sym[v['symbol']]}'", td.at("symbol"))
            seen_sym[v["symbol"]] = key
            ts.terrain[key] = Terrain(key, v["name"], v["symbol"], v["fill"], v["pattern"], v["pattern_color"],
                                      v["passable"], v["blocks_sight"], v["note"])
        raw_z = doc.get("zones")
        raw_z = raw_z if isinstance(raw_z, YDict) else YDict()
        for key, zd in raw_z.items():
            rr = common.mapping(zd, raw_z.at(key), ZONE_SPEC, problems, f"zone '{key}'", game.colors)
            v = rr.values
            if not rr.ok or v["terrain"] in ts.broken:
                ts.broken |= _broken(key, zd)
                continue
            if v["terrain"] not in ts.terrain:
                problems.error("MAP-TERRAIN", f"zone '{key}' stands on unknown terrain '{v['terrain']}'",
                               zd.at("terrain"), hint=did_you_mean(v["terrain"], ts.terrain))
                ts.broken |= _broken(key, zd)
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
    if not isinstance(pd, YDict) or "hook" not in pd:
        problems.error("YAML-TYPE", "placement names its game's check: {hook: NAME, …}", getattr(pd, "loc", None))
        return None
    fn = gamehooks.board_hook(game.slug, str(pd["hook"])) if game is not None else None
    if fn is None:
        problems.error("MAP-TERRAIN", f"placement hook '{pd['hook']}' is not a hook of this game's package",
                       pd.at("hook"))
        return None
    return fn(pd, ts, game, problems)


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

"""Hex maps as data: the tile types, start zones and maps the terrain and map files declare
(see :mod:`cardgen.boards.maps`)."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from cardgen.core import hexgrid as hg
from cardgen.core.options import Opt
from cardgen.core.problems import Loc
from cardgen.core.record import record

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


@record
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


@record
class Zone:
    key: str
    name: str
    symbol: str
    terrain: str
    color: str
    letter: str
    pattern: str = "none"


@record
class TerrainSet:
    terrain: dict[str, Terrain] = field(default_factory=dict)
    zones: dict[str, Zone] = field(default_factory=dict)
    placement: Any = None             # the game's placement check (a hook's object with .check)
    default: str | None = None
    loc: Loc | None = None
    broken: set[str] = field(default_factory=set)     # terrain and zone keys and symbols whose definition
    #                                                   failed its check (reported there): maps using them wait

    def by_symbol(self) -> dict[str, tuple[str, str | None]]:
        out: dict[str, tuple[str, str | None]] = {t.symbol: (t.key, None) for t in self.terrain.values()}
        for z in self.zones.values():
            out[z.symbol] = (z.terrain, z.key)
        return out


@record
class HexMap:
    key: str
    path: Path
    name: str
    description: str
    orientation: hg.Orientation
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
    def style(self) -> hg.OffsetStyle:
        return "odd-r" if self.orientation == "pointy" else "odd-q"

    def passable(self, h: hg.Hex) -> bool:
        t = self.tiles.get(h)
        return t is not None and self.terrain.terrain[t].passable

    def blocks(self, h: hg.Hex) -> bool:
        t = self.tiles.get(h)
        return t is not None and self.terrain.terrain[t].blocks_sight

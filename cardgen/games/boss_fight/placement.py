"""Boss Fight's start check of its maps (BF-PLACE-1), the maps' ``placement`` hook: the largest
preset boss finds a start with every hex on a clear tile (in the boss zone when the map has one),
leaving enough clear tiles (in the hero zone) far enough from every boss hex for a party.
``boss_starts`` and ``hero_starts`` are also the rules engine's placement rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardgen import gamehooks
from cardgen.boards import common as board_common
from cardgen.core import hexgrid as hg
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YList

PLACEMENT_SPEC = {
    "hook": Opt("str", required=True, doc="this check: the package hook 'placement'"),
    "rule": Opt("str", required=True, doc="rule ID reported when a map has no legal start"),
    "boss_zone": Opt("str", required=True, doc="zone key of the boss start"),
    "hero_zone": Opt("str", required=True, doc="zone key of the hero starts"),
    "hero_distance": Opt("any", required=True, doc="heroes start at least this far from every boss hex"),
    "heroes": Opt("any", required=True, doc="hero figures that must find a start"),
    "boss_sizes": Opt("any", default=None, doc="where the preset bosses' footprints come from"),
    "default_boss": Opt("list", required=True, doc="footprint checked when no preset exists: [[q, r], …]"),
}


@record
class Placement:
    """The start check the terrain file asks for, read once."""

    rule: str
    boss_zone: str
    hero_zone: str
    hero_distance: int
    heroes: int
    footprints: list[tuple[str, frozenset]]   # (label, cells)
    loc: Loc

    def check(self, m: Any, problems: Problems) -> None:
        """BF-PLACE-1 on one map: each footprint finds a boss start and enough hero starts."""
        bzone = m.zones.get(self.boss_zone) or None
        hzone = m.zones.get(self.hero_zone) or None
        for label, fp in self.footprints:
            found_boss = False
            best = -1
            for cells in boss_starts(m, fp, bzone):
                found_boss = True
                n = len(hero_starts(m, cells, self.hero_distance, hzone))
                best = max(best, n)
                if n >= self.heroes:
                    break
            where = " in its start zone" if bzone else ""
            bloc = m.zone_locs.get(self.boss_zone, m.loc) if bzone else m.loc
            hloc = m.zone_locs.get(self.hero_zone, m.loc) if hzone else m.loc
            if not found_boss:
                problems.error(self.rule, f"map '{m.name}' has no legal boss start for {label} ({len(fp)} hexes): "
                               f"no placement puts every boss hex on a clear tile{where}", bloc)
            elif best < self.heroes:
                hz = " in the hero start zone" if hzone else ""
                problems.error(self.rule, f"map '{m.name}': with {label} placed, at most {best} clear tile"
                               f"{'s' if best != 1 else ''}{hz} stand at least {self.hero_distance} from every boss "
                               f"hex; {self.heroes} heroes need a start", hloc)


def read_placement(pd: Any, ts: Any, game: Any, problems: Problems) -> Placement | None:
    """The ``placement:`` of the terrain file (the maps' hook ``placement``)."""
    r = board_common.check(pd, PLACEMENT_SPEC, problems, "placement")
    if not r.ok:
        return None
    v = r.values
    for k in ("boss_zone", "hero_zone"):
        if v[k] not in ts.zones:
            problems.error("MAP-TERRAIN", f"placement {k} '{v[k]}' is not a zone", pd.at(k),
                           hint=did_you_mean(v[k], ts.zones))
            return None
    dist = board_common.param(v["hero_distance"], game, problems, pd.at("hero_distance"))
    heroes = board_common.param(v["heroes"], game, problems, pd.at("heroes"))
    if not isinstance(dist, int) or not isinstance(heroes, int):
        if dist is not None and heroes is not None:
            problems.error("YAML-TYPE", "placement hero_distance and heroes must be whole numbers", pd.loc)
        return None
    default = _footprint(v["default_boss"], pd.at("default_boss"), problems, "default_boss")
    if default is None:
        return None
    fps = boss_footprints(v["boss_sizes"], game, problems, pd.at("boss_sizes"))
    if not fps:
        fps = [("the default boss size (no preset bosses found)", default)]
    return Placement(v["rule"], v["boss_zone"], v["hero_zone"], dist, heroes, fps, pd.loc)


def _footprint(raw: Any, loc: Loc | None, problems: Problems, what: str) -> frozenset | None:
    cells = []
    if isinstance(raw, list):
        for i, c in enumerate(raw):
            if (isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                             for x in c)):
                cells.append(hg.Hex(c[0], c[1]))
            else:
                problems.error("YAML-TYPE", f"{what} cell {i + 1} must be [q, r] (axial, whole numbers)",
                               raw.at(i) if isinstance(raw, YList) else loc)
                return None
    if not cells:
        problems.error("YAML-TYPE", f"{what} must list at least one cell [q, r]", loc)
        return None
    fp = frozenset(cells)
    first = cells[0]
    fp = frozenset(h - first for h in fp)
    if not hg.is_connected(fp):
        problems.error("YAML-TYPE", f"{what} cells are not connected", loc)
        return None
    return fp


def boss_footprints(spec: Any, game: Any, problems: Problems, loc: Loc | None) -> list[tuple[str, frozenset]]:
    """Footprints of the preset bosses, as the game's own code computes them.

    ``boss_sizes: {hook: name}`` calls the package hook ``<name>(game, problems)``, which
    returns ``[(label, [(q, r), …]), …]``; a missing module or function gives none (the
    placement's ``default_boss`` is checked instead).
    """
    if spec is None or game is None:
        return []
    if not isinstance(spec, dict) or "hook" not in spec:
        problems.error("YAML-TYPE", "boss_sizes must be {hook: function name}", loc)
        return []
    fn = gamehooks.board_hook(game.slug, str(spec["hook"]))
    if fn is None:
        return []
    out = []
    sub = Problems()
    for label, cells in fn(game, sub) or []:
        cs = [hg.Hex(int(q), int(r)) for q, r in cells] or [hg.Hex(0, 0)]
        first = cs[0]
        out.append((str(label), frozenset(h - first for h in cs)))
    return out


def boss_starts(m: Any, fp: frozenset, zone: set[hg.Hex] | None) -> Iterator[frozenset]:
    """Every legal boss placement (cells) of footprint ``fp``: all cells clear (and in the zone)."""
    allowed = zone if zone else {h for h in m.tiles if m.passable(h)}
    allowed = {h for h in allowed if m.passable(h)}
    shapes = list({frozenset(hg.rotate(c, k) for c in fp) for k in range(6)})
    seen = set()
    for a in sorted(allowed):
        for shape in shapes:
            cells = frozenset(a + c for c in shape)
            if cells not in seen and all(c in allowed for c in cells):
                seen.add(cells)
                yield cells


def hero_starts(m: Any, boss: frozenset, dist: int, zone: set[hg.Hex] | None) -> list[hg.Hex]:
    """Clear hexes (in the hero zone, when the map has one) at least ``dist`` from every boss hex."""
    pool = zone if zone else set(m.tiles)
    return sorted(h for h in pool if m.passable(h) and h not in boss
                  and all(hg.distance(h, b) >= dist for b in boss))

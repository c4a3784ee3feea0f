"""Boss Fight rules engine: geometry on the hex map (clear tiles, distance, sight) and the --trace pictures."""

from __future__ import annotations

from typing import Any

from cardgen.core import hexgrid as hg
from cardgen.core.hexgrid import Hex, rotate
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.sweep import STEPS, Cell, Sweep
from cardgen.games.boss_fight.table_base import TableBase

#: the distance between two pieces by where both stand (their hexes as sorted (q, r)): geometry alone
_DIST: dict[tuple[tuple[Cell, ...], tuple[Cell, ...]], int] = {}


class MapView(TableBase):
    """Geometry and trace of :class:`~.table.Table`."""

    # -- geometry -----------------------------------------------------------------------------

    def _clear(self, h: Hex) -> bool:
        """A tile pieces may enter and stand on (BF-MAP-1): on the map, passable, no obstacle token."""
        return self.map.passable(h) and h not in self.rubble

    def ground(self, shape: list[Hex], over: bool = False) -> Sweep:
        """The boss's footprint ``shape`` over the terrain as it stands (:mod:`.sweep`): clear
        tiles, or every tile of the map when card text lets it cross obstacles. Shared by every
        copy of the game (the map never changes; the obstacle tokens are part of the key)."""
        rubble = self.rubble
        key = ("ground", tuple(shape), over, rubble)
        got = self.sight_memo.get(key)
        if got is None:
            m = self.map                    # the predicate reads nothing that changes: it is shared

            def clear(h: Hex) -> bool:
                return m.passable(h) and h not in rubble
            got = self.sight_memo[key] = Sweep(shape, m.tiles.__contains__ if over else clear)
        return got

    def _obstacles(self) -> frozenset[Hex]:
        """The hexes that block sight: the map's, and the obstacle tokens (made once per tokens)."""
        got = self.sight_memo.get(("walls", self.rubble))
        if got is None:
            walls = frozenset(h for h in self.map.tiles if self.map.blocks(h))
            got = self.sight_memo["walls", self.rubble] = walls | self.rubble
        return got

    def _grid(self) -> tuple[dict[Cell, tuple[Cell, ...]], dict[Cell, tuple[int, int]], set[Cell]]:
        """The map as (q, r) tuples, read once per map: each tile's passable neighbours (a step a
        piece may take but for obstacle tokens and pieces), each tile's (col, row), the passable tiles."""
        got = self.sight_memo.get("grid")
        if got is None:
            m, style = self.map, self.map.style
            ok = {(h.q, h.r) for h in m.tiles if m.passable(h)}
            adj = {(q, r): tuple(n for n in ((q + dq, r + dr) for dq, dr in STEPS) if n in ok)
                   for q, r in ((h.q, h.r) for h in m.tiles)}
            offsets = {(h.q, h.r): hg.to_offset(h, style) for h in m.tiles}
            got = self.sight_memo["grid"] = (adj, offsets, ok)
        return got

    def _where(self, h: Hex) -> str:
        """A hex and what stands in the way there, for messages: '4,3 (Obstacle)'."""
        if h not in self.map.tiles:
            return f"{self._off(h)} (off the map)"
        if h in self.rubble:
            return f"{self._off(h)} (an obstacle token)"
        t = self.map.terrain.terrain[self.map.tiles[h]]
        return f"{self._off(h)} ({t.name or t.key}{'' if t.passable else ', impassable'})"

    def occupant(self, h: Hex, but: Fighter | None = None) -> Fighter | None:
        for f in self.fighters.values():
            if f is not but and f.alive and h in f.hexes():
                return f
        return None

    def enemies_of(self, f: Fighter) -> list[Fighter]:
        return [g for g in self.fighters.values() if g.side != f.side]

    def _dist(self, a: Fighter, b: Fighter) -> int | None:
        ka, kb = a.qr(), b.qr()
        if not ka or not kb:
            return None
        got = _DIST.get((ka, kb))
        if got is None:
            if len(_DIST) > 50_000:         # (bounded: a long run starts it again)
                _DIST.clear()
            got = _DIST[ka, kb] = min((abs(q - p) + abs(r - s) + abs(q + r - p - s)) // 2
                                      for q, r in ka for p, s in kb)
        return got

    def sees(self, a: Fighter, b: Fighter) -> bool:
        """BF-LOS-1: some corner-to-corner line from a hex of ``a`` to a hex of ``b`` crosses no obstacle."""
        ka, kb = a.qr(), b.qr()                 # where both pieces stand → sight
        if not ka or not kb:
            return False
        rubble = self.rubble
        memo = self.sight_memo.get(rubble)      # per obstacle tokens: (x, y) → sight (the map never changes)
        if memo is None:
            memo = self.sight_memo[rubble] = {}
        pair = (ka, kb) if ka <= kb else (kb, ka)
        got = memo.get(pair)
        if got is None:
            got = memo[pair] = self._sees(a.hexes(), b.hexes(), memo)
        return got

    def _sees(self, ha: tuple[Hex, ...], hb: tuple[Hex, ...], memo: dict[Any, bool]) -> bool:
        unknown = []                # pairs not looked at yet: the nearest first, once no known one sees
        for x in ha:
            for y in hb:
                key = (x.q, x.r, y.q, y.r) if (x.q, x.r) <= (y.q, y.r) else (y.q, y.r, x.q, x.r)  # both ways
                seen = memo.get(key)
                if seen:
                    return True
                if seen is None:
                    dq, dr = x.q - y.q, x.r - y.r
                    unknown.append((abs(dq) + abs(dr) + abs(dq + dr), key, x, y))
        obs = self._obstacles() if unknown else frozenset()
        for _, key, x, y in sorted(unknown, key=lambda u: u[:2]):
            if memo.setdefault(key, hg.line_of_sight(x, y, obs)):
                return True
        return False

    def _look(self, f: Fighter) -> None:
        """Record what ``f`` sees now, during its turn (for BF-LOS-2): looked again only when a
        piece or an obstacle token has moved since its last look."""
        if not f.alive or f.origin is None:
            return
        fs = self.fighters.values()
        now = (f.key, self.round, self.rubble, *[g.origin for g in fs], *[g.rot for g in fs],
               *[g.dead for g in fs])
        if now == self.looked:
            return
        self.looked = now
        for g in self.enemies_of(f):
            if g.alive and g.origin is not None and self.sees(f, g):
                f.seen_now.add(g.key)
                f.seen_when[g.key] = self.round

    def _legs_factor(self) -> float:
        legs = self.boss().legs
        return self.legs_table[min(legs, len(self.legs_table) - 1)] if self.legs_table else 1.0

    def _legs_factor_text(self) -> str:
        f = self._legs_factor()
        return "none" if f == 0 else "full" if f == 1 else "half, rounded down" if f == 0.5 else f"× {f:g}, rounded down"

    def stat(self, f: Fighter, key: str) -> int:
        return f.stats.get(key, 0) + sum(m[1] for m in f.mods if m[0] == key)

    # -- trace ----------------------------------------------------------------------------------

    def map_lines(self) -> list[str]:
        """The hex grid as text, two characters a column: on a pointy-top map each row one line, the
        rows its offset layout pushes right shifted by half a hex; on a flat-top map the columns it
        pushes down sit half a row lower, so a row takes two lines, both numbered with it. Pieces by
        letter, death tokens in lower case, obstacle tokens '%'."""
        m = self.map
        marks: dict[Hex, str] = {h: "%" for h in self.rubble}
        for f in self.fighters.values():
            for h in f.hexes():
                if f.alive:
                    marks[h] = f.letter
                elif f.side == "hero":
                    marks.setdefault(h, f.letter.lower())
        flat = m.orientation == "flat"

        def half(h: Hex, col: int, row: int) -> int:
            """Half-hex steps of h from where (col, row) would sit unshifted: sideways for pointy
            tops (x ∝ 2q + r), downwards for flat tops (y ∝ q + 2r)."""
            return h.q + 2 * h.r - 2 * row if flat else 2 * h.q + h.r - 2 * col

        base = min(half(h, c, r) for h, (c, r) in m.offsets.items())
        width = max(c for c, _ in m.offsets.values()) + 1
        text: dict[int, list[str]] = {}                 # text line → its characters
        for h, (c, r) in m.offsets.items():
            s = half(h, c, r) - base
            y, x = (2 * r + s, 2 * c) if flat else (r, 2 * c + s)
            text.setdefault(y, [" "] * (2 * width + 1))[x] = marks.get(h) or m.terrain.terrain[m.tiles[h]].symbol
        out = ["     " + " ".join(str(c % 10) for c in range(width))]
        for y in range(min(text), max(text) + 1):
            out.append(f"  {y // 2 if flat else y:>2} " + "".join(text.get(y, [])).rstrip())
        return out

    def map_key(self) -> str:
        """What the symbols of :meth:`map_lines` mean: the map's terrain, tokens and pieces."""
        used = {self.map.tiles[h] for h in self.map.tiles}
        terr = [f"{t.symbol} {t.name or t.key}" for k, t in self.map.terrain.terrain.items() if k in used]
        return " · ".join(terr + ["% obstacle token", "capitals: pieces (as listed below)",
                                  "lower case: a hero's death token"])

    def _brief(self, f: Fighter) -> str:
        st = " · ".join(self.status_names.get(s, s) for s in f.statuses)
        mods = ", ".join(f"{self.stat_short.get(k, k)} {d:+d}" for k, d, *_ in f.mods)
        where = ""
        if f.origin is not None:
            where = f" at {self._off(f.hexes()[0])}" if f.side == "hero" else \
                f" at {self._off(f.origin + rotate(f.anchor, f.rot))} (anchor, turned {f.rot}×60°)"
        life = f"dead (line {f.dead.line})" if f.dead is not None else f"{f.hp}/{f.stats['health']} HP"
        return (f"{f.letter} {f.key}: {life}{where}" + (f" · {st}" if st else "") + (f" · {mods}" if mods else "")
                + f" · hand {f.hand.size}, deck {f.deck}, discard {f.discard.size}, expended {f.expended.size}, "
                  f"used {f.used.size}")

    def _state(self, title: str) -> None:
        if not self.pictures:
            return
        self.ref.trace(f"      {title}")
        if len(self.ref.trace_lines) - 1 == self.state_at:
            return                              # nothing happened since the last picture
        for ln in self.map_lines():
            self.ref.trace(f"      {ln}")
        if self.state_at < 0:                   # the first picture: its key
            self.ref.trace(f"        key: {self.map_key()}")
        for f in self.fighters.values():
            self.ref.trace(f"        {self._brief(f)}")
        self.state_at = len(self.ref.trace_lines)

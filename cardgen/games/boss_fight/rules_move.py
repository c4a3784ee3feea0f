"""Boss Fight rules engine: movement on the hex map (BF-MOVE-1, BF-MOVE-2)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.core import hexgrid as hg
from cardgen.core.hexgrid import Hex, rotate
from cardgen.core.problems import Loc
from cardgen.games.boss_fight.builds import _cells_text
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.sweep import ANY_FACING, Sweep
from cardgen.games.boss_fight.table_base import TableBase


class MoveRules(TableBase):
    """Movement of :class:`~.table.Table`."""

    # -- movement (BF-MOVE-1, BF-MOVE-2) ------------------------------------------------------------

    def play_move(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        card = None
        if (ev["card"] is None) == (ev["source"] is None):
            raise LogError("LOG-FIELD", "a move names the Move card played ('card') or the card whose text moves the "
                           "piece ('source'), one of them", ev.loc)
        if ev["card"] is not None:
            self._action(ev, f)
            card = self._play(ev, f, "move")
            blocked = [self.status_names[s] for s in f.statuses if s in self.no_move]
            if blocked and f.alive:
                self.ref.violation("BF-MOVE-2", f"{f.key} is {blocked[0]}: it plays no Move actions on its next turn",
                                   ev.at("card"))
        else:
            self._card_or_text(ev["source"], ev.at("source"), "source")
        if not f.alive:
            if ev["card"] is None:
                assert f.dead is not None
                self.ref.violation("BF-CMB-3", f"{f.key} died at line {f.dead.line}: a death token does not move", ev.loc)
            return
        tiles = None
        if card is not None:
            tiles = int(card.get("move") or 0) + int(ev["bonus"] or 0)
        elif ev["bonus"] is not None:
            tiles = int(ev["bonus"])
        limit = tiles
        if tiles is not None and f.side == "boss":
            limit = math.floor(tiles * self._legs_factor() + 1e-9)
        if ev["swap"] is not None:
            self._swap(ev, f)
        elif f.side == "boss":
            self._move_boss(ev, f, tiles, limit)
        else:
            self._move_hero(ev, f, tiles)
        self._claim_cells(ev, f, "BF-MOVE-1")
        if card is not None:
            self._after_action(ev, f)

    def _steps(self, ev: Event, start: Hex | None) -> list[Hex] | None:
        if ev["path"] is None:
            return None
        steps = [self._hex(c, ev.at("path")) for c in ev["path"]]
        if steps and start is not None and steps[0] == start:
            steps = steps[1:]
        if ev["to"] is not None and steps and self._hex(ev["to"], ev.at("to")) != steps[-1]:
            raise LogError("LOG-FIELD", f"the path ends at {self._off(steps[-1])} but 'to' says "
                           f"{self._off(self._hex(ev['to'], ev.at('to')))}", ev.at("to"))
        return steps

    def _walk(self, ev: Event, f: Fighter, start: Hex, steps: list[Hex], enemies: set[Hex]) -> bool:
        """Check a walked path step by step (BF-MOVE-1); report the first problem."""
        cross = ev["crosses"] or ""
        prev = start
        for i, h in enumerate(steps):
            last = i == len(steps) - 1
            if not hg.are_adjacent(prev, h):
                self.ref.violation("BF-MOVE-1", f"{self._off(prev)} → {self._off(h)} is not one step: a path lists "
                                   "neighbouring hexes", ev.at("path"))
                return False
            if not self._clear(h) and (last or cross not in ("obstacles", "both")):
                self.ref.violation("BF-MOVE-1", f"{f.key} moves through {self._where(h)}: obstacles cannot be entered, "
                                   "crossed or ended on", ev.at("path"))
                return False
            if h in enemies and (last or cross not in ("pieces", "both")):
                who = self.occupant(h, but=f)
                name = who.key if who else "an enemy"
                self.ref.violation("BF-MOVE-1", f"{f.key} moves through {self._off(h)}, where {name} stands: enemy "
                                   "pieces cannot be entered or crossed", ev.at("path"))
                return False
            prev = h
        return True

    def _passable_for(self, ev: Event, enemies: set[Hex]) -> Callable[[Hex], bool]:
        cross = ev["crosses"] or ""
        obst = cross in ("obstacles", "both")
        pcs = cross in ("pieces", "both")

        def ok(h: Hex) -> bool:
            if h not in self.map.tiles:
                return False
            if not obst and not self._clear(h):
                return False
            return pcs or h not in enemies
        return ok

    def _too_far(self, f: Fighter, n: int, tiles: int | None, limit: int | None, loc: Loc | None, ev: Event) -> None:
        if limit is None or n <= limit:
            return
        what = f"{self.cards[self._card(ev['card'], None, 'card').id].name}" if ev["card"] else "the move"
        if f.side == "boss" and tiles is not None and n <= tiles:
            self.ref.violation("BF-MOVE-2", f"the boss moves {n} tiles; {what} gives {tiles}, and with "
                               f"{f.legs} Leg piece{'s' if f.legs != 1 else ''} its movement is "
                               f"{self._legs_factor_text()}: {limit}", loc)
        else:
            self.ref.violation("BF-MOVE-1", f"{f.key} moves {n} tiles; {what} moves up to {limit}", loc)

    def _move_hero(self, ev: Event, f: Fighter, tiles: int | None) -> None:
        start = f.origin
        steps = self._steps(ev, start)
        if steps is None and ev["to"] is None:
            raise LogError("LOG-FIELD", "a move gives its 'path' or where it ends ('to')", ev.loc)
        if start is None:
            end = steps[-1] if steps else self._hex(ev["to"], ev.at("to"))
            f.origin = end
            return
        # a played state's own moves are the legal ones: the way there is checked in a log only
        enemies = {h for g in self.enemies_of(f) if g.alive for h in g.hexes()} \
            if steps is not None or self.ref.replaying else set()
        if steps is not None:
            ok = self._walk(ev, f, start, steps, enemies)
            end = steps[-1] if steps else start
            if ok:
                self._too_far(f, len(steps), tiles, tiles, ev.at("path"), ev)
        else:
            end = self._hex(ev["to"], ev.at("to"))
            ok = self._reach_check(ev, f, start, end, tiles, tiles, enemies) if self.ref.replaying else True
        if ok and end != start and self.ref.replaying:
            if not self._clear(end):
                self.ref.violation("BF-MOVE-1", f"{f.key} ends on {self._where(end)}", ev.at("to") if ev["to"] else
                                   ev.at("path"))
            else:
                other = self.occupant(end, but=f)
                if other is not None:
                    self.ref.violation("BF-MOVE-1", f"{f.key} ends on {self._off(end)}, where {other.key} stands",
                                       ev.at("to") if ev["to"] else ev.at("path"))
        if self.tracing:
            n = f" ({len(steps)} step{'s' if len(steps) != 1 else ''})" if steps is not None else ""
            self._t(ev, f"{f.key} moves {self._off(start)} → {self._off(end)}{n}")
        f.origin = end

    def _reach_check(self, ev: Event, f: Any, start: Any, end: Any, tiles: Any, limit: Any, enemies: Any,
                     shape: list[Hex] | None = None,
                     turned: int = 0) -> bool:
        """A move given by where it ends: some way there within its tiles (BF-MOVE-1, -2). With the
        boss's ``shape`` (its cells around the walking anchor; at the end turned ``turned``), the
        whole shape passes every hex on the way in some facing clear of enemies, and steps from
        hex to hex over the terrain as :mod:`.sweep` says (no gap narrower than the boss)."""
        ok = self._passable_for(ev, enemies)
        reach = max(limit or 0, 0) if limit is not None else 99
        if shape is None:
            far = hg.move_costs(start, reach, ok)
            anyhow = far if end in far or limit is None else hg.move_costs(start, 99, ok)
        else:
            whole, ground, e = Sweep(shape, ok), self._ground_for(ev, shape), (end.q, end.r)

            def step(h: Hex) -> bool:
                return ok(h) and (h == end or whole.fits((h.q, h.r)) > 0)
            if ground.fits(e) >> turned & 1:     # else the end check names it, once the anchor gets there
                here = (start.q, start.r)
                near = ground.costs(here, reach, lambda c: step(Hex(*c)), ANY_FACING).get((e, turned))
                if near is None and limit is not None:
                    near = ground.costs(here, 99, lambda c: step(Hex(*c)), ANY_FACING).get((e, turned))
                far = {end: near} if near is not None and near <= reach else {}
                anyhow = {end: near} if near is not None else {}
            else:
                far = hg.move_costs(start, reach, step)
                anyhow = far if end in far else hg.move_costs(start, 99, step)
        if end in far:
            return True
        if end in anyhow and limit is not None:
            plain = hg.move_costs(start, reach, ok) if shape is not None else {}
            if end in plain:        # near enough as the crow walks: the shape is what takes the long way
                self.ref.violation("BF-MOVE-1", f"the boss cannot reach {self._off(end)} in {limit} tiles: its "
                                   f"whole shape ({len(shape or ())} hexes) gets past the obstacles only by a way of "
                                   f"{anyhow[end]} (on every hex of the way it must fit in some facing)",
                                   ev.at("to"))
                return True
            self._too_far(f, anyhow[end], tiles, limit, ev.at("to"), ev)
            return True
        if shape is not None and end in hg.move_costs(start, 99, ok):
            self.ref.violation("BF-MOVE-1", f"the boss cannot reach {self._off(end)} from {self._off(start)}"
                               f": every way there leads "
                               f"through a gap its whole shape ({len(shape)} hexes) cannot pass, even when turned",
                               ev.at("to"))
            return False
        self.ref.violation("BF-MOVE-1", f"{f.key} cannot reach {self._off(end)} from {self._off(start)}: "
                           + (f"{self._where(end)} cannot be entered" if not self._clear(end) else
                              "obstacles and enemy pieces close every way"), ev.at("to"))
        return False

    def _ground_for(self, ev: Event, shape: list[Hex]) -> Sweep:
        """The boss's ``shape`` over the terrain (:mod:`.sweep`): clear tiles, or any tile of the
        map when card text lets it cross obstacles."""
        return self.ground(shape, (ev["crosses"] or "") in ("obstacles", "both"))

    def _tight(self, ev: Event, f: Fighter, a: Hex, start: Hex, steps: list[Hex], rot: int,
               heroes: set[Hex]) -> bool:
        """A boss's path hex by hex (BF-MOVE-1): the whole shape passes each hex on the way in
        some facing clear of enemies, and steps from hex to hex over the terrain as :mod:`.sweep`
        says; False after reporting the first hex it cannot pass."""
        shape = [c - a for c in f.cells]
        passes = self._passable_for(ev, heroes - set(f.hexes()))
        tight = next((i for i, h in enumerate(steps[:-1]) if not hg.fits_turned(shape, h, passes)), None)
        ground, end = self._ground_for(ev, shape), steps[-1]
        whole = bool(ground.fits((end.q, end.r)) >> rot & 1)          # else the end check names it
        slide = ground.walk((start.q, start.r), [(h.q, h.r) for h in (steps if whole else steps[:-1])])
        if slide is not None and (tight is None or slide < tight):
            tight = slide
        if tight is None:
            return True
        self.ref.violation("BF-MOVE-1", f"the boss's whole shape ({len(shape)} hexes) cannot pass "
                           f"{self._off(steps[tight])}, even when turned: a boss moves through no gap "
                           "narrower than itself", ev.at("path"))
        return False

    def _move_boss(self, ev: Event, f: Fighter, tiles: int | None, limit: int | None) -> None:
        if f.origin is None:
            raise LogError("LOG-FIELD", "the boss moves before it is placed", ev.loc)
        a = Hex(*ev["anchor"]) if ev["anchor"] is not None else f.anchor
        if a not in f.cells:
            raise LogError("LOG-FIELD", f"'anchor' [{a.q}, {a.r}] is not a cell of the boss (cells: "
                           f"{_cells_text(f.cells)})", ev.at("anchor"))
        start = f.origin + rotate(a, f.rot)
        rot = int(ev["rotate"]) % 6 if ev["rotate"] is not None else f.rot
        heroes = {h for g in self.heroes() if g.alive for h in g.hexes()}
        steps = self._steps(ev, start)
        if steps is None and ev["to"] is None:
            raise LogError("LOG-FIELD", "a move gives its 'path' or where it ends ('to')", ev.loc)
        end = steps[-1] if steps else (self._hex(ev["to"], ev.at("to")) if ev["to"] is not None else start)
        where = ev.at("to") if ev["to"] is not None else ev.at("path")
        ok = True
        if steps is not None:
            ok = self._walk(ev, f, start, [h for h in steps[:-1]], heroes) if len(steps) > 1 else True
            if ok and len(f.cells) > 1 and steps:
                ok = self._tight(ev, f, a, start, steps, rot, heroes)
            if ok and steps and not hg.are_adjacent(steps[-2] if len(steps) > 1 else start, steps[-1]):
                self.ref.violation("BF-MOVE-1", "the path's last step is not to a neighbouring hex", ev.at("path"))
                ok = False
            if ok:
                self._too_far(f, len(steps), tiles, limit, ev.at("path"), ev)
        elif self.ref.replaying:            # a played state's own moves are the legal ones
            ok = self._reach_check(ev, f, start, end, tiles, limit, heroes - set(f.hexes()),
                                   [c - a for c in f.cells] if len(f.cells) > 1 else None, rot)
        if self.ref.replaying or self.tracing:  # a played state's own moves are the legal ones
            self._boss_lands(ev, f, a, start, end, rot, steps, ok, where)
        f.anchor = a
        f.rot = rot
        f.origin = end - rotate(a, rot)

    def _boss_lands(self, ev: Event, f: Fighter, a: Hex, start: Hex, end: Hex, rot: int,
                    steps: list[Hex] | None, ok: bool, where: Loc | None) -> None:
        """Where the boss ends (BF-MOVE-1): every hex clear, no hero covered (checked in a log only)."""
        cells = [end + rotate(c - a, rot) for c in f.cells]
        if ok:
            bad = [h for h in cells if not self._clear(h)]
            on = [g.key for g in self.heroes() if g.alive and set(g.hexes()) & set(cells)]
            if bad:
                self.ref.violation("BF-MOVE-1", f"where the boss ends, every hex must be clear: {self._where(bad[0])} "
                                   f"(anchor at {self._off(end)}, turned {rot}×60°)", where)
            elif on:
                self.ref.violation("BF-MOVE-1", f"where the boss ends it would cover {on[0]}'s hex", where)
        n = f" in {len(steps)} step{'s' if len(steps) != 1 else ''}" if steps is not None else ""
        self._t(ev, f"the boss moves its anchor [{a.q}, {a.r}] {self._off(start)} → {self._off(end)}{n}"
                    + (f", turned {rot}×60°" if rot != f.rot else "") + f": {self._offs(cells)}")

    def _swap(self, ev: Event, f: Fighter) -> None:
        g = self._fighter(ev["swap"], ev.at("swap"), "swap")
        if g.side != f.side or not g.alive or f.origin is None or g.origin is None or \
                not hg.are_adjacent(f.origin, g.origin):
            self.ref.violation("BF-MOVE-1", f"{f.key} swaps places only with an adjacent living ally; {g.key} is not",
                               ev.at("swap"))
        f.origin, g.origin = g.origin, f.origin
        self._t(ev, f"{f.key} and {g.key} swap places")

"""Boss Fight: the playtest rules engine (``cardgen check boss_fight LOG``)."""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ... import collections as cols
from ... import hexgrid as hg
from ...boards import common as board_common
from ...boards import maps as board_maps
from ...checker import BaseEngine
from ...hexgrid import Hex, rotate
from ...model import Card
from ...playlog import Event, LogError
from ...problems import Loc, Problems, did_you_mean
from .builds import Build, _cells_text, analyse
from .events import BF_EVENTS, BF_HEADER, BOSS, HEROES, HIDDEN
from .figures import boss_stats, leg_count
from .state import Fighter, Pile

# =========================================================================== the playtest checker
#
# ``cardgen check boss_fight LOG``: a state machine over ``rules/boss_fight/params.yaml``, the
# cards, the boss build and hero party the log names (read with :func:`analyse`) and the map
# (``maps/boss_fight/``, read with ``cardgen.boards.maps``). Rules enforced (catalogue
# ``specs/rules/boss_fight.md``): BF-PLACE-1, BF-INIT-1, BF-DRAW-1/2, BF-ACT-1…3, BF-ABIL-1,
# BF-MOVE-1/2, BF-LOS-1/2, BF-CMB-1…3, BF-STATUS-1/2, BF-END-1, and BF-MAP-1 (the map's terrain,
# obstacle tokens put only on free clear tiles). Construction rules (BF-BUILD-…, BF-DECK-…) are
# checked on the builds first.
#
# The log: a header (``map``, ``boss``, ``party``), then ``place`` events, then rounds. A round
# is its ``draw`` s, then each character's turn: its actions (``move``, ``attack``, ``item``,
# ``discard``, ``ability`` using an action) and what is not an action (``feat``, ``effect``,
# free moves and attacks that card text grants with ``source:``). A turn starts with its
# character's first action (or ``turn``) and ends with the next character's (or ``end_turn``);
# a round ends when every living character has had its turn. See docs/playtest-logs.md.

CLAIMS_AFTER_END = ("death", "game_end", "end_turn")
_ATTACK_TEXT = re.compile(r"(Basic|Heavy|Special) Attack:\s*(\d+) damage,\s*\{(\w+)\}[^.,]*"
                          r"(?:,\s*range (\d+))?", re.IGNORECASE)
_NAMED_TEXT = re.compile(r"\*\*([^*]+)\*\*")


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def damage_formula(base: int, s: int, t: int, f: dict[str, int]) -> tuple[int, str]:
    """BF-CMB-2: damage from the attack's ``base`` with statistic ``s`` against ``t``; the
    doubling and halving tests come first (ruling). Returns (damage, why)."""
    if base <= 0:
        return 0, "no damage"
    if s >= f["double_at"] * t:
        return base * f["multiply"], f"S ≥ {f['double_at']}×T: {base} × {f['multiply']}"
    if f["halve_at"] * s <= t:
        return _ceil_div(base, f["divide"]), f"S ≤ T÷{f['halve_at']}: {base} ÷ {f['divide']}, rounded up"
    if s > t:
        return base + f["step"], f"S > T: {base} + {f['step']}"
    if s < t:
        return max(f["min_damage"], base - f["step"]), f"S < T: {base} − {f['step']} (not below {f['min_damage']})"
    return base, "S = T: unchanged"


_MAP_CACHE: dict[tuple, Any] = {}


class Engine(BaseEngine):
    """Replays a Boss Fight playtest on its hex map, event by event (see the section comment)."""

    HEADER = BF_HEADER
    EVENTS = BF_EVENTS
    EXPECT_RULES = {
        "winner": "BF-END-1", "round": "BF-INIT-1", "hp": "BF-CMB-2", "dead": "BF-CMB-3",
        "characters": "BF-CMB-2", "health": "BF-CMB-2", "statuses": "BF-STATUS-1", "at": "BF-MOVE-1",
        "cells": "BF-MOVE-1", "hand": "BF-DRAW-1", "deck": "BF-DRAW-2", "discard": "BF-ACT-2",
        "expended": "BF-ACT-3", "used": "BF-ACT-2",
    }

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "BF-END-1"
        n = self._int
        self.first_draw = n("draw", "first_round")
        self.draws = {"hero": n("draw", "hero"), "boss": n("draw", "boss")}
        self.actions = {"hero": n("actions", "hero"), "boss": n("actions", "boss")}
        self.attack_cap = n("actions", "boss_attacks")
        self.status_names = {str(k): str(v) for k, v in dict(self._param("statuses")).items()}
        self.draw_status = {k: int(v) for k, v in dict(self._param("draw")).items() if k in self.status_names}
        self.action_status = {k: int(v) for k, v in dict(self._param("actions")).items() if k in self.status_names}
        self.short_statuses = [str(s) for s in self._param("status_ends_after_next_turn")]
        self.no_move = [str(s) for s in self._param("no_move_statuses")]
        self.poison = str(self._param("poison_status"))
        self.poison_damage = n("poison_damage")
        self.poison_cure = {int(x) for x in self._param("poison_cure")}
        self.die = n("defence_die")
        self.miss = n("defence_miss")
        self.rest = n("ability_rest_rounds")
        self.distance = n("placement_distance")
        self.legs_table = [float(x) for x in self._param("movement_by_legs")]
        self.formula = {k: n("damage_formula", k) for k in ("double_at", "multiply", "halve_at", "divide", "step",
                                                              "min_damage")}
        self.heal_cap = str(self._param("healing_cap"))
        self.attack_names = {str(k): str(v) for k, v in dict(self._param("attacks")).items()}
        self.combat_stats = [str(s) for s in self._param("combat_stats")]
        self.stat_names = {str(k): str(v) for k, v in dict(self._param("stats")).items()}
        self.stat_short = {str(k): str(v) for k, v in dict(self._param("stat_short")).items()}
        self.cards = {c.id: c for c in game.cards}
        self.fighters: dict[str, Fighter] = {}
        self.order_keys: list[str] = []
        self.map = None
        self.rubble: set[Hex] = set()
        self.boss_build: Build | None = None
        self.party_build: Build | None = None
        # the game as it goes
        self.phase = "place"
        self.round = 0
        self.order: list[str] = []
        self.start_agility: dict[str, int] = {}
        self.acted: set[str] = set()
        self.due: dict[str, int] = {}
        self.drawn: Counter = Counter()
        self.turns_begun = False
        self.current: Fighter | None = None
        self.turn_loc: Loc | None = None
        self.used_actions = 0
        self.need = 0
        self.attacks = 0
        self.attack_limit = 0
        self.winner: str | None = None
        self.end_loc: Loc | None = None
        self.deaths: list[str] = []
        self.state_at = -1
        self.died_here: list[str] = []

    # -- reading the header: map and builds ---------------------------------------------------

    def start(self) -> None:
        self.map = self._load_map()
        self.boss_build = self._load_build("boss")
        self.party_build = self._load_build("party")
        self._fighters()
        m = self.map
        heroes = [f for f in self.fighters.values() if f.side == "hero"]
        self.ref.trace(f"      {self.game.title} on {m.name}: {self.boss_build.name} (boss, {len(self.boss().cells)} "
                       f"hex{'es' if len(self.boss().cells) != 1 else ''}) against {self.party_build.name} "
                       f"({', '.join(f.key for f in heroes)})")
        legs = self.boss().legs
        self.ref.trace(f"      boss movement: {self._legs_factor_text()} ({legs} Leg piece{'s' if legs != 1 else ''})")

    def _load_map(self):
        want = str(self.header.get("map")).strip()
        loc = self.header_locs.get("map")
        probs = Problems()
        files = board_common.board_files(self.game.maps_dir, probs)
        found = None
        names = []
        for path, doc in files.get("map", []):
            md = doc.get("map") if isinstance(doc, dict) else None
            title = str(md.get("name")) if isinstance(md, dict) and md.get("name") else path.stem
            names.append(path.stem)
            if want.lower() in (path.stem.lower(), title.lower(), path.name.lower()):
                found = (path, doc)
        if found is None:
            raise LogError("LOG-FIELD", f"'map' names no map of {self.game.title}: {want!r}", loc,
                           did_you_mean(want, names) or f"maps: {', '.join(names)}")
        path, doc = found
        key = (str(path), *(os.path.getmtime(p) for p, _ in [found, *files.get("terrain", [])]))
        if key in _MAP_CACHE:
            return _MAP_CACHE[key]
        ts = board_maps.load_terrain(files.get("terrain", []), self.game, probs)
        m = board_maps.load_map(path, doc, ts, self.game, probs)
        if m is None or probs.has_errors:
            first = probs.errors[0] if probs.errors else None
            raise LogError("LOG-GAME", f"the map {path.name} has errors"
                           + (f" ({first.message})" if first else "") + f"; run `cardgen validate {self.game.slug}`",
                           loc)
        _MAP_CACHE.clear()
        _MAP_CACHE[key] = m
        return m

    def _load_build(self, kind: str) -> Build:
        want = str(self.header.get(kind)).strip()
        loc = self.header_locs.get(kind)
        base = Path(loc.file).parent if loc and loc.file else Path.cwd()
        path = next((p for p in (base / want, base / f"{want}.yaml", self.game.root / want)
                     if p.suffix == ".yaml" and p.is_file()), None)
        if path is None:
            low = want.lower()
            stems = []
            for p in cols.collection_files(self.game):
                probs = Problems()
                k, body, _ = cols.load_collection_file(p, self.game, probs)
                if k != kind:
                    continue
                title = str(body.get("name") or "") if isinstance(body, dict) else ""
                stems.append(p.stem)
                if low in (p.stem.lower(), p.stem.lower().removeprefix(f"{kind}_"), title.lower()):
                    path = p
                    break
            if path is None:
                raise LogError("LOG-FIELD", f"'{kind}' names no {kind} build: {want!r} (a preset of "
                               f"{self.game.cards_dir}/presets or a file relative to the log)", loc,
                               did_you_mean(low, stems) or f"presets: {', '.join(stems)}")
        probs = Problems()
        k, body, _ = cols.load_collection_file(path, self.game, probs)
        if k != kind:
            raise LogError("LOG-FIELD", f"'{kind}' names {path.name}, which is {'a ' + k if k else 'no'} build file, "
                           f"not a {kind}", loc)
        b = analyse(self.game, kind, body, probs)
        bad = [p for p in probs.errors if not p.rule.startswith("BF-")]
        if b is None or bad:
            first = bad[0] if bad else None
            raise LogError("LOG-FIELD", f"the {kind} build {path.name} cannot be read"
                           + (f": {first.loc.line if first and first.loc else '?'}: {first.message}" if first else ""),
                           loc, f"run `cardgen validate {self.game.slug} {path}`")
        for p in probs.errors:                  # construction rules (BF-BUILD, BF-DECK): checked first
            self.ref.violation(p.rule, f"{p.message} (in the {kind} build)", p.loc or loc)
        return b

    def _fighters(self) -> None:
        b = self.boss_build
        boss = b.characters[0]
        stats = boss_stats(b)
        f = Fighter(BOSS, b.name, "boss", None, stats, None, list(boss.equipment), list(boss.abilities),
                    list(b.pieces), Counter(), list(b.hexes) or [Hex(0, 0)])
        f.legs = leg_count(b)
        f.anchor = Hex(0, 0) if Hex(0, 0) in f.cells else f.cells[0]
        for e in boss.deck:
            f.total[e.id] += e.count
        self.fighters[BOSS] = f
        for h in self.party_build.characters:
            c = h.card
            st = {k: int(c.get(k) or 0) for k in ("health", "intelligence", "strength", "agility")}
            hf = Fighter(c.id, c.name, "hero", c, st, int(c.get("feat_cost") or 0), list(h.equipment),
                         list(h.abilities), [], Counter(), [Hex(0, 0)])
            for e in h.deck:
                hf.total[e.id] += e.count
            self.fighters[c.id] = hf
        used = set()
        for fi in self.fighters.values():
            fi.hp = fi.stats["health"]
            fi.deck = sum(fi.total.values())
            letters = [ch.upper() for ch in (fi.key if fi.side == "hero" else "B" + fi.name) if ch.isalpha()]
            fi.letter = next((x for x in letters if x not in used), next(
                x for x in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if x not in used))
            used.add(fi.letter)
        self.order_keys = list(self.fighters)

    # -- names ------------------------------------------------------------------------------

    def boss(self) -> Fighter:
        return self.fighters[BOSS]

    def heroes(self) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.side == "hero"]

    def _fighter(self, value: Any, loc: Loc | None, fname: str) -> Fighter:
        s = str(value).strip()
        low = s.lower()
        for f in self.fighters.values():
            if low in (f.key.lower(), f.name.lower()) or (f.side == "boss" and low in ("the boss",)):
                return f
        raise LogError("LOG-FIELD", f"'{fname}' names no character: {value!r}", loc,
                       did_you_mean(s, list(self.fighters)) or f"characters: {', '.join(self.fighters)}")

    def _card(self, value: Any, loc: Loc | None, fname: str, types: tuple[str, ...] | None = None) -> Card:
        s = str(value).strip()
        low = s.lower()
        c = self.cards.get(s) or next((x for x in self.game.cards if low in (x.id.lower(), x.name.lower())), None)
        if c is None or (types and c.type not in types):
            pool = [x.id for x in self.game.cards if not types or x.type in types]
            raise LogError("LOG-FIELD", f"'{fname}' names no {'/'.join(types) if types else ''} card: {value!r}"
                           .replace("no  card", "no card"), loc, did_you_mean(s, pool))
        return c

    def _status(self, value: Any, loc: Loc | None, fname: str) -> str:
        s = str(value).strip().lower()
        for k, name in self.status_names.items():
            if s in (k.lower(), name.lower()):
                return k
        raise LogError("LOG-FIELD", f"'{fname}' names no status: {value!r}", loc,
                       did_you_mean(s, list(self.status_names)) or f"statuses: {', '.join(self.status_names)}")

    def _hex(self, raw: Any, loc: Loc | None) -> Hex:
        return hg.from_offset(int(raw[0]), int(raw[1]), self.map.style)

    def _off(self, h: Hex) -> str:
        c, r = hg.to_offset(h, self.map.style)
        return f"{c},{r}"

    def _offs(self, hexes) -> str:
        return " ".join(self._off(h) for h in sorted(hexes, key=lambda h: hg.to_offset(h, self.map.style)[::-1]))

    # -- geometry -----------------------------------------------------------------------------

    def _clear(self, h: Hex) -> bool:
        """A tile pieces may enter and stand on (BF-MAP-1): on the map, passable, no obstacle token."""
        return self.map.passable(h) and h not in self.rubble

    def _obstacles(self) -> set[Hex]:
        return {h for h in self.map.tiles if self.map.blocks(h)} | self.rubble

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
        ha, hb = a.hexes(), b.hexes()
        if not ha or not hb:
            return None
        return min(hg.distance(x, y) for x in ha for y in hb)

    def sees(self, a: Fighter, b: Fighter, obstacles: set[Hex] | None = None) -> bool:
        """BF-LOS-1: some corner-to-corner line from a hex of ``a`` to a hex of ``b`` crosses no obstacle."""
        ha, hb = a.hexes(), b.hexes()
        if not ha or not hb:
            return False
        obs = self._obstacles() if obstacles is None else obstacles
        return any(hg.line_of_sight(x, y, obs) for x in ha for y in hb)

    def _look(self, f: Fighter) -> None:
        """Record what ``f`` sees now, during its turn (for BF-LOS-2)."""
        if not f.alive or f.origin is None:
            return
        obs = self._obstacles()
        for g in self.enemies_of(f):
            if g.alive and g.origin is not None and self.sees(f, g, obs):
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
        life = f"dead (line {f.dead.line})" if not f.alive else f"{f.hp}/{f.stats['health']} HP"
        return (f"{f.letter} {f.key}: {life}{where}" + (f" · {st}" if st else "") + (f" · {mods}" if mods else "")
                + f" · hand {f.hand.size}, deck {f.deck}, discard {f.discard.size}, expended {f.expended.size}, "
                  f"used {f.used.size}")

    def _state(self, title: str) -> None:
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

    # -- placement (BF-PLACE-1) -------------------------------------------------------------------

    def _zone(self, which: str) -> set[Hex] | None:
        pl = self.map.terrain.placement
        if pl is None:
            return None
        key = pl.boss_zone if which == "boss" else pl.hero_zone
        return self.map.zones.get(key) or None

    def on_place(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        at = self._hex(ev["at"], ev.at("at"))
        rule = "BF-PLACE-1"
        if self.phase != "place":
            self.ref.violation(rule, f"{f.key} is placed in round {self.round}: pieces are placed before the game "
                               "begins", ev.loc)
        elif f.placed is not None:
            self.ref.violation(rule, f"{f.key} was already placed (line {f.placed.line})", ev.loc)
        if f.side == "boss":
            rot = int(ev["rotate"] or 0) % 6
            anchor = Hex(*ev["anchor"]) if ev["anchor"] is not None else f.anchor
            if anchor not in f.cells:
                raise LogError("LOG-FIELD", f"'anchor' [{anchor.q}, {anchor.r}] is not a cell of the boss (cells: "
                               f"{_cells_text(f.cells)})", ev.at("anchor"))
            f.anchor = anchor
            f.rot = rot
            f.origin = at - rotate(anchor, rot)
            cells = f.hexes()
            early = [h for h in self.heroes() if h.placed is not None]
            if early and self.phase == "place" and f.placed is None:
                self.ref.violation(rule, f"the boss is placed first, then the heroes; {early[0].key} was placed "
                                   f"before it (line {early[0].placed.line})", ev.loc)
            zone = self._zone("boss")
            bad = [h for h in cells if not self._clear(h)]
            if bad:
                self.ref.violation(rule, f"every boss hex must stand on a clear tile: {self._where(bad[0])}", ev.at("at"))
            elif zone and any(h not in zone for h in cells):
                out = [h for h in cells if h not in zone]
                self.ref.violation(rule, f"the boss starts inside the map's boss start zone; {self._offs(out)} "
                                   f"{'is' if len(out) == 1 else 'are'} outside it", ev.at("at"))
            else:
                on = [h.key for h in self.heroes() if h.alive and set(h.hexes()) & set(cells)]
                if on:
                    self.ref.violation(rule, f"the boss is placed on {on[0]}", ev.at("at"))
            self._t(ev, f"place boss at {self._off(at)} (anchor [{anchor.q}, {anchor.r}], turned {rot}×60°): "
                        f"{self._offs(cells)}")
        else:
            if ev["rotate"] is not None or ev["anchor"] is not None:
                raise LogError("LOG-FIELD", "'rotate' and 'anchor' place a boss; a hero stands on one hex", ev.loc)
            f.origin = at
            boss = self.boss()
            zone = self._zone("hero")
            other = self.occupant(at, but=f)
            if not self._clear(at):
                self.ref.violation(rule, f"heroes start on a clear tile: {self._where(at)}", ev.at("at"))
            elif other is not None:
                self.ref.violation(rule, f"{self._off(at)} is taken by {other.key}", ev.at("at"))
            elif zone and at not in zone:
                self.ref.violation(rule, f"heroes start inside the map's hero start zone; {self._off(at)} is outside "
                                   "it", ev.at("at"))
            elif boss.placed is None and self.phase == "place":
                self.ref.violation(rule, f"the boss is placed first, then the heroes: {f.key} is placed before it",
                                   ev.loc)
            elif boss.origin is not None:
                bc = boss.hexes()
                near = min(hg.distance(at, b) for b in bc)
                if near < self.distance:
                    taken = {h for g in self.heroes() if g is not f and g.alive for h in g.hexes()}
                    free = [h for h in board_maps.hero_starts(self.map, frozenset(bc), self.distance, zone)
                            if h not in taken and h not in self.rubble]
                    if free:
                        self.ref.violation(rule, f"{f.key} at {self._off(at)} is {near} tile{'s' if near != 1 else ''} "
                                           f"from the boss; heroes start at least {self.distance} from every boss hex "
                                           f"while such a tile is free ({len(free)} are, e.g. {self._off(free[0])})",
                                           ev.at("at"))
            self._t(ev, f"place {f.key} at {self._off(at)}")
        f.placed = f.placed or ev.loc
        self._claim_cells(ev, f, rule)

    def _claim_cells(self, ev: Event, f: Fighter, rule: str) -> None:
        if ev["cells"] is None:
            return
        stated = {self._hex(c, ev.at("cells")) for c in ev["cells"]}
        if stated != set(f.hexes()):
            self.ref.violation(rule, f"the log says {f.key} covers {self._offs(stated)}, but it covers "
                               f"{self._offs(f.hexes())}", ev.at("cells"))

    def _end_placement(self, ev: Event) -> None:
        if self.phase != "place":
            return
        missing = [f.key for f in self.fighters.values() if f.placed is None]
        if missing:
            self.ref.violation("BF-PLACE-1", f"every character is placed before the game begins; "
                               f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not", ev.loc)
        self.phase = "play"
        self._state("the pieces placed")
        self._new_round(ev, first=True)

    # -- rounds (BF-INIT-1, BF-DRAW-1) ---------------------------------------------------------------

    def _living(self) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.alive]

    def _need_actions(self, f: Fighter) -> int:
        if not f.alive:
            return 0
        n = self.actions[f.side]
        for s in f.statuses:
            if s in self.action_status:
                n = min(n, self.action_status[s])
        return n

    def _due_draw(self, f: Fighter) -> int:
        if not f.alive:
            return 0
        n = self.first_draw if self.round == 1 else self.draws[f.side]
        for s in f.statuses:
            if s in self.draw_status:
                n = min(n, self.draw_status[s])
        return min(n, f.deck + f.discard.size + f.expended.size)

    def _round_complete(self) -> bool:
        """Every living character has had its turn (the one in progress counts)."""
        done = self.acted | ({self.current.key} if self.current is not None else set())
        return all(f.key in done or self._need_actions(f) == 0 for f in self._living())

    def _new_round(self, ev: Event, first: bool = False) -> None:
        if not first:
            self._close_round(ev)
        self.round += 1
        self.acted = set()
        self.drawn = Counter()
        self.turns_begun = False
        self.current = None
        self.start_agility = {f.key: self.stat(f, "agility") for f in self._living()}
        self.order = sorted(self.start_agility, key=lambda k: -self.start_agility[k])
        self.due = {f.key: self._due_draw(f) for f in self.fighters.values()}
        groups = " ".join(f"{k} {self.start_agility[k]}" for k in self.order)
        self.ref.trace(f"      round {self.round} — order by Agility: {groups}")

    def _close_round(self, ev: Event) -> None:
        self._end_turn(ev)
        for f in self._living():
            if f.key in self.acted:
                continue
            if self._need_actions(f) == 0 or (f.hand.size == 0 and f.placed is not None):
                self._begin_turn(f, ev, quiet=True)     # a Stunned character's turn, left out of the log
                self._end_turn(ev, quiet=True)
            else:
                self.ref.violation("BF-ACT-1", f"{f.key} took no turn in round {self.round}: it must use "
                                   f"{self._need_actions(f)} action{'s' if self._need_actions(f) != 1 else ''}", ev.loc)
                self.acted.add(f.key)
        for f in self.fighters.values():
            f.mods = [m for m in f.mods if m[2] != "round"]

    def on_round(self, ev: Event) -> None:
        if self.turns_begun or self.current is not None or self.acted:
            self._new_round(ev)
        if ev["number"] is not None and ev["number"] != self.round:
            self.ref.violation("BF-INIT-1", f"the log says round {ev['number']}, but this is round {self.round}",
                               ev.at("number"))
        if ev["order"] is not None:
            stated = [self._fighter(x, ev.at("order"), "order").key for x in ev["order"]]
            living = set(self.start_agility)
            if set(stated) != living or len(stated) != len(living):
                self.ref.violation("BF-INIT-1", f"the order of round {self.round} lists every living character once: "
                                   f"{', '.join(self.order)}", ev.at("order"))
            else:
                ag = [self.start_agility[k] for k in stated]
                bad = next((i for i in range(1, len(ag)) if ag[i] > ag[i - 1]), None)
                if bad is not None:
                    a, b = stated[bad - 1], stated[bad]
                    self.ref.violation("BF-INIT-1", f"{b} (Agility {ag[bad]}) goes before {a} (Agility {ag[bad - 1]}): "
                                       "turn order is by current Agility, highest first", ev.at("order"))
                else:
                    self.order = stated

    # -- draws (BF-DRAW-1, BF-DRAW-2) ------------------------------------------------------------

    def _pool(self, f: Fighter, cid: str) -> int:
        """Copies of ``cid`` that may be in the deck or among the unnamed cards in hand."""
        return f.total[cid] - f.hand.known[cid] - f.discard.known[cid] - f.expended.known[cid] - f.used.known[cid]

    def _reshuffle(self, f: Fighter, ev: Event) -> None:
        n = f.discard.size + f.expended.size
        f.deck += n
        f.discard, f.expended = Pile(), Pile()
        self._t(ev, f"{f.key} shuffles its Discard and Expended piles into a new deck ({n} cards)")

    def on_reshuffle(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if f.deck > 0:
            self.ref.violation("BF-DRAW-2", f"{f.key}'s deck still holds {f.deck} card{'s' if f.deck != 1 else ''}: "
                               "the piles are shuffled into a new deck only when it must draw from an empty one",
                               ev.loc)
        self._reshuffle(f, ev)

    def on_draw(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        named = []
        for x in ev["cards"] or []:
            if str(x).strip() == HIDDEN:
                named.append(None)
                continue
            named.append(self._card(x, ev.at("cards"), "cards", ("action",)))
        source = ev["source"]
        if source is not None:
            source = self._card_or_text(source, ev.at("source"), "source")
        mid_turn = self.current is f and self.used_actions < self.need and f.hand.size > 0
        if source is None and self.turns_begun and self._round_complete() and not mid_turn:
            self._new_round(ev)         # the next round's draws (a draw in the middle of a turn is card text's)
        count = ev["count"]
        if count is None:
            if named:
                count = len(named)
            elif source is None:
                count = max(0, self.due.get(f.key, 0) - self.drawn[f.key])
            else:
                raise LogError("LOG-FIELD", "a draw by card text gives 'count' or names its 'cards'", ev.loc)
        if named and len(named) > count:
            raise LogError("LOG-FIELD", f"'cards' names {len(named)} cards but 'count' is {count}", ev.at("cards"))
        if source is None:
            if self.turns_begun:
                self.ref.violation("BF-DRAW-1", f"round draws come at the start of the round, before the first turn; "
                                   f"{f.key} draws {count} in round {self.round} after turns began", ev.loc,
                                   "a draw that card text makes names the card with 'source:'")
            elif not f.alive:
                self.ref.violation("BF-DRAW-1", f"{f.key} is dead (line {f.dead.line}): dead characters draw nothing",
                                   ev.loc)
            else:
                due = self.due.get(f.key, 0)
                if self.drawn[f.key] + count > due:
                    self.ref.violation("BF-DRAW-1", f"{f.key} draws {self.drawn[f.key] + count} at the start of round "
                                       f"{self.round}; it draws {due} ({self._why_due(f)})", ev.loc)
            self.drawn[f.key] += count
        elif not f.alive:
            self.ref.violation("BF-CMB-3", f"{f.key} is dead (line {f.dead.line}): it draws nothing", ev.loc)
        got = 0
        for i in range(count):
            if f.deck == 0:
                if f.discard.size + f.expended.size == 0:
                    self.ref.violation("BF-DRAW-2", f"{f.key} has no card left to draw: its deck, Discard and Expended "
                                       "piles are empty (the Used pile stays out)", ev.loc)
                    break
                self._reshuffle(f, ev)
            c = named[i] if i < len(named) else None
            if c is not None:
                if self._pool(f, c.id) <= 0:
                    piles = f.discard.known[c.id] + f.expended.known[c.id]
                    if piles and f.deck > 0:
                        self.ref.violation("BF-DRAW-2", f"{f.key} draws {c.name}, but its copies are in its Discard or "
                                           "Expended pile, which is shuffled in only when the deck is empty",
                                           ev.at("cards"))
                    else:
                        self.ref.violation("BF-DRAW-1", f"{f.key} draws {c.name}, but its deck holds no more: it has "
                                           f"{f.total[c.id]}", ev.at("cards"))
                f.hand.known[c.id] += 1
            else:
                f.hand.unknown += 1
            f.deck -= 1
            got += 1
        what = ", ".join(c.name for c in named if c is not None)
        self._t(ev, f"{f.key} draws {got}{' (' + what + ')' if what else ''}"
                    f"{' by ' + str(source) if source else ''}: hand {f.hand.size}, deck {f.deck}")

    def _why_due(self, f: Fighter) -> str:
        held = [self.status_names[s] for s in f.statuses if s in self.draw_status]
        if held:
            return f"{' and '.join(held)}"
        base = self.first_draw if self.round == 1 else self.draws[f.side]
        if self.due.get(f.key, 0) < base:
            return "all its deck and piles hold"
        return "the first round" if self.round == 1 else f"a {'boss' if f.side == 'boss' else 'hero'}"

    def _check_draws(self, ev: Event) -> None:
        """At the round's first turn: every living character drew what the round gives."""
        for f in self._living():
            due = self.due.get(f.key, 0)
            if self.drawn[f.key] < due:
                self.ref.violation("BF-DRAW-1", f"{f.key} drew {self.drawn[f.key]} of its {due} cards at the start of "
                                   f"round {self.round} ({self._why_due(f)})", ev.loc)

    # -- turns (BF-INIT-1, BF-ACT-1, BF-STATUS-1, 2) ---------------------------------------------------

    def _turn_event(self, ev: Event) -> bool:
        k = ev.kind
        if k in ("turn", "item", "discard", "feat"):
            return True
        if k in ("move", "attack"):
            return ev["card"] is not None
        if k == "ability":
            return bool(ev["uses_action"]) or ev["sacrifice"] is not None
        return False

    def _enter_turn(self, f: Fighter, ev: Event) -> None:
        """``f`` acts in its own turn: start it if it is not the one in progress."""
        if self.phase == "place":
            self._end_placement(ev)
        if self.current is f:
            return
        if self.current is not None:
            self._end_turn(ev)
        if f.key in self.acted and self._round_complete():
            self._new_round(ev)
        self._begin_turn(f, ev)

    def _begin_turn(self, f: Fighter, ev: Event, quiet: bool = False) -> None:
        if not quiet:
            if not self.turns_begun:
                self._check_draws(ev)
            if not f.alive:
                self.ref.violation("BF-CMB-3", f"{f.key} died at line {f.dead.line}: the dead have no turns", ev.loc)
            elif f.key in self.acted:
                self.ref.violation("BF-INIT-1", f"{f.key} already had its turn in round {self.round}", ev.loc)
            else:
                waiting = [k for k in self.order if k not in self.acted and k != f.key and self.fighters[k].alive
                           and self.start_agility.get(k, -1) > self.start_agility.get(f.key, -1)]
                if waiting:
                    w = waiting[0]
                    self.ref.violation("BF-INIT-1", f"{w} (Agility {self.start_agility[w]}) goes before {f.key} "
                                       f"(Agility {self.start_agility.get(f.key)}) in round {self.round}: turn order "
                                       "is by current Agility, highest first", ev.loc)
        self.turns_begun = True
        self.current = f
        self.turn_loc = ev.loc
        f.turns += 1
        f.seen_now = set()
        self.used_actions = 0
        self.attacks = 0
        self.attack_limit = self.attack_cap
        self.need = self._need_actions(f)
        if not quiet:
            st = ", ".join(self.status_names[s] for s in f.statuses)
            self.ref.trace(f"      turn · {f.key} (round {self.round}; {self.need} action{'s' if self.need != 1 else ''}"
                           f"{'; ' + st if st else ''})")
        if self.poison in f.statuses and f.alive:
            roll = ev["poison_roll"] if ev.kind == "turn" else None
            if roll is None:
                if not quiet:
                    self.ref.violation("BF-STATUS-2", f"{f.key} is {self.status_names[self.poison]}: its turn starts "
                                       f"with a d{self.die} roll ({'–'.join(map(str, sorted(self.poison_cure)))} "
                                       "removes it); none is recorded", ev.loc)
            elif self.ref.die(roll, self.die, "BF-STATUS-2", ev.at("poison_roll"), f"{f.key}'s poison d{self.die}"):
                if roll in self.poison_cure:
                    del f.statuses[self.poison]
                    self._t(ev, f"{f.key} rolls {roll}: no longer {self.status_names[self.poison]}")
                else:
                    self._t(ev, f"{f.key} rolls {roll}: still {self.status_names[self.poison]}")
        elif ev.kind == "turn" and ev["poison_roll"] is not None and not quiet:
            self.ref.violation("BF-STATUS-2", f"{f.key} is not {self.status_names[self.poison]}: no poison roll",
                               ev.at("poison_roll"))
        self._look(f)

    def _end_turn(self, ev: Event, quiet: bool = False) -> None:
        f = self.current
        if f is None:
            return
        self.current = None
        if not quiet and not self.over and f.alive and self.used_actions < self.need and f.hand.size > 0:
            self.ref.violation("BF-ACT-1", f"{f.key} used {self.used_actions} of its {self.need} action"
                               f"{'s' if self.need != 1 else ''} in its turn (line {self.turn_loc.line}); "
                               f"{'a hero uses' if f.side == 'hero' else 'the boss uses'} exactly "
                               f"{self.need}", ev.loc)
        for s in [s for s, end in f.statuses.items() if s in self.short_statuses and end <= f.turns]:
            del f.statuses[s]
        f.mods = [m for m in f.mods if not (m[2] == "turn" and m[3] <= f.turns)]
        f.seen_last = set(f.seen_now)
        self.acted.add(f.key)
        if not quiet:
            self._state(f"after {f.key}'s turn (round {self.round})")

    def on_turn(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if self.current is f:
            self._end_turn(ev)
        self._enter_turn(f, ev)

    def on_end_turn(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if self.over:
            pass
        elif self.current is not f:
            self._enter_turn(f, ev)              # a turn without actions (Stunned, or nothing in hand)
        if self.current is f:
            self._end_turn(ev)
        self._claim_state(ev)

    def _claim_state(self, ev: Event) -> None:
        for key, hp in (ev["hp"] or {}).items():
            g = self._fighter(key, ev.at("hp"), "hp")
            self.ref.claim(g.hp_rule, f"{g.key}'s Health", hp, g.hp, ev.at("hp"))
            if hp != g.hp:
                g.hp = hp
                self._settle(g, ev)
        for key, sts in (ev["statuses"] or {}).items():
            g = self._fighter(key, ev.at("statuses"), "statuses")
            stated = {self._status(s, ev.at("statuses"), "statuses") for s in sts}
            if stated != set(g.statuses):
                def names(keys) -> str:
                    return " and ".join(self.status_names[s] for s in sorted(keys)) or "free of statuses"
                ends = " and ".join(self.status_names[s] for s in self.short_statuses)
                self.ref.violation("BF-STATUS-1", f"the log says {g.key} is {names(stated)}, but it is "
                                   f"{names(g.statuses)} ({ends} end at the end of the character's next turn)",
                                   ev.at("statuses"))

    def _action(self, ev: Event, f: Fighter, attack: bool = False) -> None:
        """One of ``f``'s actions (BF-ACT-1)."""
        self._enter_turn(f, ev)
        if not f.alive:
            return
        self.used_actions += 1
        if self.used_actions > self.need:
            why = [self.status_names[s] for s in f.statuses if s in self.action_status]
            self.ref.violation("BF-ACT-1", f"{f.key} uses action {self.used_actions}; "
                               + (f"{' and '.join(why)}, it has {self.need}" if why else
                                  f"{'a hero' if f.side == 'hero' else 'the boss'} uses exactly {self.need}")
                               + " per turn", ev.loc)
        if attack:
            self.attacks += 1
            if f.side == "boss" and self.attacks > self.attack_limit:
                self.ref.violation("BF-ACT-1", f"the boss's attack action {self.attacks}: at most {self.attack_limit} "
                                   "of its actions per turn are attacks", ev.loc)

    def _after_action(self, ev: Event, f: Fighter) -> None:
        """BF-STATUS-2: a poisoned character takes damage for the action it used."""
        if f.alive and self.poison in f.statuses:
            f.hp -= self.poison_damage
            f.hp_rule = "BF-STATUS-2"
            self._t(ev, f"{f.key} is {self.status_names[self.poison]}: {self.poison_damage} damage, {f.hp} HP")
            self._settle(f, ev)

    # -- cards: hand and piles (BF-ACT-2, BF-ACT-3) -----------------------------------------------------

    def _from_hand(self, f: Fighter, c: Card | None, loc: Loc | None) -> None:
        hand = f.hand
        if c is None:
            if hand.unknown > 0:
                hand.unknown -= 1
            elif hand.known:
                hand.unknown = sum(hand.known.values()) - 1      # which one is not said: forget the names
                hand.known = Counter()
            else:
                self.ref.violation("BF-ACT-2", f"{f.key} has no card in hand", loc)
            return
        if hand.known[c.id] > 0:
            hand.take(c.id)
        elif hand.unknown > 0 and self._pool(f, c.id) > 0:
            hand.unknown -= 1
        else:
            have = ", ".join(self.cards[i].name for i in sorted(hand.known.elements())) or "none named"
            more = f" and {hand.unknown} unnamed" if hand.unknown else ""
            why = (f"its deck has {f.total[c.id]}, none left to be in its hand" if f.total[c.id] else
                   f"{c.name} is not in its action deck")
            self.ref.violation("BF-ACT-2", f"{f.key} plays {c.name}, which is not in its hand ({have}{more}): {why}",
                               loc)
            if hand.unknown > 0:
                hand.unknown -= 1

    def _play(self, ev: Event, f: Fighter, kind: str, fname: str = "card") -> Card:
        c = self._card(ev[fname], ev.at(fname), fname, ("action",))
        if c.get("kind") != kind:
            kinds = self.game.params.get("action_kinds") or {}
            self.ref.violation("BF-ACT-2", f"{c.name} is {('an ' if str(kinds.get(c.get('kind'), '')).lower()[:1] in 'aeiou' else 'a ')}"
                               f"{kinds.get(c.get('kind'), c.get('kind'))} card, not {kinds.get(kind, kind)}",
                               ev.at(fname))
        self._from_hand(f, c, ev.at(fname))
        if c.get("kind") == "item":
            f.used.put(c.id)
        else:
            f.discard.put(c.id)
        return c

    def _expend(self, f: Fighter, n: int, named: list[Card | None], ev: Event, what: str, loc: Loc | None) -> None:
        if f.discard.size < n:
            self.ref.violation("BF-ACT-3", f"{what} expends {n} card{'s' if n != 1 else ''} from the Discard pile, "
                               f"which holds {f.discard.size}: it cannot be used", loc)
        for i in range(n):
            c = named[i] if i < len(named) else None
            if c is not None and f.discard.known[c.id] == 0 and f.discard.unknown == 0:
                self.ref.violation("BF-ACT-3", f"{c.name} is not in {f.key}'s Discard pile: only discarded cards are "
                                   "expended", loc)
                continue
            if f.discard.take(c.id if c else None) or (c is None and f.discard.known and
                                                       f.discard.take(next(iter(f.discard.known)))):
                f.expended.put(c.id if c else next(iter([None])), 1)

    def _card_or_text(self, value: Any, loc: Loc | None, fname: str) -> str:
        """A source: any card by id or name, or a name printed in bold on a card (a feat, a piece's attack)."""
        s = str(value).strip()
        low = s.lower()
        c = self.cards.get(s) or next((x for x in self.game.cards if low in (x.id.lower(), x.name.lower())), None)
        if c is not None:
            return c.name
        for x in self.game.cards:
            names = [str(x.get(k)) for k in ("ability_name", "feat_name") if x.get(k)]
            names += _NAMED_TEXT.findall(str(x.get("text") or ""))
            if any(low == n.lower() for n in names):
                return s
        raise LogError("LOG-FIELD", f"'{fname}' names no card, feat or ability: {value!r}", loc,
                       did_you_mean(s, [x.id for x in self.game.cards]))

    # -- movement (BF-MOVE-1, BF-MOVE-2) ------------------------------------------------------------

    def on_move(self, ev: Event) -> None:
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

    def _passable_for(self, ev: Event, enemies: set[Hex]):
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
        enemies = {h for g in self.enemies_of(f) if g.alive for h in g.hexes()}
        steps = self._steps(ev, start)
        if steps is None and ev["to"] is None:
            raise LogError("LOG-FIELD", "a move gives its 'path' or where it ends ('to')", ev.loc)
        if start is None:
            end = steps[-1] if steps else self._hex(ev["to"], ev.at("to"))
            f.origin = end
            return
        if steps is not None:
            ok = self._walk(ev, f, start, steps, enemies)
            end = steps[-1] if steps else start
            if ok:
                self._too_far(f, len(steps), tiles, tiles, ev.at("path"), ev)
        else:
            end = self._hex(ev["to"], ev.at("to"))
            ok = self._reach_check(ev, f, start, end, tiles, tiles, enemies)
        if ok and end != start:
            if not self._clear(end):
                self.ref.violation("BF-MOVE-1", f"{f.key} ends on {self._where(end)}", ev.at("to") if ev["to"] else
                                   ev.at("path"))
            else:
                other = self.occupant(end, but=f)
                if other is not None:
                    self.ref.violation("BF-MOVE-1", f"{f.key} ends on {self._off(end)}, where {other.key} stands",
                                       ev.at("to") if ev["to"] else ev.at("path"))
        self._t(ev, f"{f.key} moves {self._off(start)} → {self._off(end)}"
                    + (f" ({len(steps)} step{'s' if len(steps) != 1 else ''})" if steps is not None else ""))
        f.origin = end

    def _reach_check(self, ev, f, start, end, tiles, limit, enemies) -> bool:
        ok = self._passable_for(ev, enemies)
        far = hg.move_costs(start, max(limit or 0, 0) if limit is not None else 99, ok)
        if end in far:
            return True
        anyhow = hg.move_costs(start, 99, ok)
        if end in anyhow and limit is not None:
            self._too_far(f, anyhow[end], tiles, limit, ev.at("to"), ev)
            return True
        self.ref.violation("BF-MOVE-1", f"{f.key} cannot reach {self._off(end)} from {self._off(start)}: "
                           + (f"{self._where(end)} cannot be entered" if not self._clear(end) else
                              "obstacles and enemy pieces close every way"), ev.at("to"))
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
            if ok and steps and not hg.are_adjacent(steps[-2] if len(steps) > 1 else start, steps[-1]):
                self.ref.violation("BF-MOVE-1", "the path's last step is not to a neighbouring hex", ev.at("path"))
                ok = False
            if ok:
                self._too_far(f, len(steps), tiles, limit, ev.at("path"), ev)
        else:
            ok = self._reach_check(ev, f, start, end, tiles, limit, heroes - set(f.hexes()))
        cells = [end + rotate(c - a, rot) for c in f.cells]
        if ok:
            bad = [h for h in cells if not self._clear(h)]
            on = [g.key for g in self.heroes() if g.alive and set(g.hexes()) & set(cells)]
            if bad:
                self.ref.violation("BF-MOVE-1", f"where the boss ends, every hex must be clear: {self._where(bad[0])} "
                                   f"(anchor at {self._off(end)}, turned {rot}×60°)", where)
            elif on:
                self.ref.violation("BF-MOVE-1", f"where the boss ends it would cover {on[0]}'s hex", where)
        self._t(ev, f"the boss moves its anchor [{a.q}, {a.r}] {self._off(start)} → {self._off(end)}"
                    + (f" in {len(steps)} step{'s' if len(steps) != 1 else ''}" if steps is not None else "")
                    + (f", turned {rot}×60°" if rot != f.rot else "") + f": {self._offs(cells)}")
        f.anchor = a
        f.rot = rot
        f.origin = end - rotate(a, rot)

    def _swap(self, ev: Event, f: Fighter) -> None:
        g = self._fighter(ev["swap"], ev.at("swap"), "swap")
        if g.side != f.side or not g.alive or f.origin is None or g.origin is None or \
                not hg.are_adjacent(f.origin, g.origin):
            self.ref.violation("BF-MOVE-1", f"{f.key} swaps places only with an adjacent living ally; {g.key} is not",
                               ev.at("swap"))
        f.origin, g.origin = g.origin, f.origin
        self._t(ev, f"{f.key} and {g.key} swap places")

    # -- attacks (BF-LOS-1, 2, BF-CMB-1, 2, 3) --------------------------------------------------------------

    def _attack_lines(self, f: Fighter, atype: str) -> list[tuple[str, dict]]:
        """What ``f`` carries that makes a ``atype`` attack: (name, {damage, stat, range, sight})."""
        out = []
        for e in f.equipment:
            line = e.get(atype)
            if isinstance(line, dict):
                out.append((e.id, {"damage": line.get("damage"), "stat": e.get("stat"), "range": line.get("range"),
                                   "sight": line.get("sight")}))
        cards = {c.id: c for c in [p.card for p in f.pieces] + ([f.card] if f.card is not None else [])
                 + list(f.abilities)}
        for c in cards.values():
            line = self._text_attack(c, atype)
            if line is not None:
                out.append((c.id, line))
        return out

    def _text_attack(self, c: Card, atype: str) -> dict | None:
        for m in _ATTACK_TEXT.finditer(str(c.get("text") or "")):
            if m.group(1).lower() == atype and m.group(3) in self.combat_stats:
                tail = str(c.get("text"))[m.end():m.end() + 60].lower()
                sight = "needs sight" in (m.group(0).lower() + tail.split(".")[0])
                return {"damage": int(m.group(2)), "stat": m.group(3),
                        "range": int(m.group(4)) if m.group(4) else None, "sight": sight}
        return None

    def on_attack(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if (ev["card"] is None) == (ev["source"] is None):
            raise LogError("LOG-FIELD", "an attack names the Attack card played ('card') or the card whose text grants "
                           "it ('source'), one of them", ev.loc)
        card = None
        if ev["card"] is not None:
            self._action(ev, f, attack=True)
            card = self._play(ev, f, "attack")
        else:
            self._card_or_text(ev["source"], ev.at("source"), "source")
            if self.phase == "place":
                self._end_placement(ev)
            if not f.alive:
                self.ref.violation("BF-CMB-3", f"{f.key} died at line {f.dead.line}: the dead do not attack", ev.loc)
        atype = ev["attack"]
        if atype is None and card is not None:
            atype = card.get("attack")
        if atype is None and ev["source"] is not None:
            sc = self.cards.get(str(ev["source"]))
            atype = sc.get("attack") if sc is not None and sc.type == "action" else None
        if atype is not None:
            atype = str(atype).lower()
            if atype not in self.attack_names:
                raise LogError("LOG-FIELD", f"'attack' must be one of {', '.join(self.attack_names)}, not {atype!r}",
                               ev.at("attack"))
        if ev["target"] is None:
            self._t(ev, f"{f.key} plays {card.name if card else ev['source']} (no attack roll)")
            if card is not None:
                self._after_action(ev, f)
            return
        t = self._fighter(ev["target"], ev.at("target"), "target")
        if f.alive:
            self._resolve(ev, f, t, atype, card)
        if card is not None:
            self._after_action(ev, f)

    def _weapon(self, ev: Event, f: Fighter, atype: str | None) -> tuple[str, dict]:
        line: dict = {}
        name = "card text"
        if atype is not None:
            lines = self._attack_lines(f, atype)
            if ev["with"] is not None:
                w = self._card(ev["with"], ev.at("with"), "with")
                hit = [x for x in lines if x[0] == w.id]
                name = w.name
                if hit:
                    line = dict(hit[0][1])
                elif w.type == "equipment" and w not in f.equipment:
                    self.ref.violation("BF-ACT-2", f"{f.key} does not carry {w.name}", ev.at("with"))
                    line = {k: (w.get(atype) or {}).get(k) for k in ("damage", "range", "sight")} | {"stat": w.get("stat")}
                elif ev["base"] is None:
                    self.ref.violation("BF-ACT-2", f"{w.name} makes no {self.attack_names[atype]} Attack",
                                       ev.at("with"))
            elif len(lines) == 1:
                name = self.cards[lines[0][0]].name
                line = dict(lines[0][1])
            elif len(lines) > 1 and ev["base"] is None:
                raise LogError("LOG-FIELD", f"{f.key} has {len(lines)} things that make a "
                               f"{self.attack_names[atype]} Attack: name one with 'with'", ev.loc,
                               ", ".join(self.cards[x[0]].id for x in lines))
            elif not lines and ev["base"] is None:
                self.ref.violation("BF-ACT-2", f"{f.key} has nothing that makes a {self.attack_names[atype]} Attack",
                                   ev.at("card") if ev["card"] else ev.loc)
        for k, fld in (("damage", "base"), ("stat", "stat"), ("range", "range"), ("sight", "sight")):
            if ev[fld] is not None:
                line[k] = ev[fld]
        if line.get("stat") is not None:
            line["stat"] = str(line["stat"]).lower()
            if line["stat"] not in self.combat_stats:
                byname = {v.lower(): k for k, v in self.stat_names.items()}
                if line["stat"] in byname and byname[line["stat"]] in self.combat_stats:
                    line["stat"] = byname[line["stat"]]
                else:
                    raise LogError("LOG-FIELD", f"'stat' must be one of {', '.join(self.combat_stats)}, not "
                                   f"{line['stat']!r}", ev.at("stat"))
        return name, line

    def _resolve(self, ev: Event, f: Fighter, t: Fighter, atype: str | None, card: Card | None) -> None:
        if not t.alive:
            self.ref.violation("BF-CMB-3", f"{t.key} died at line {t.dead.line}: a death token cannot be attacked",
                               ev.at("target"))
            return
        wname, line = self._weapon(ev, f, atype)
        missing = [k for k in ("damage", "stat") if line.get(k) is None]
        if missing:
            raise LogError("LOG-FIELD", f"this attack's {' and '.join(missing)} "
                           f"{'are' if len(missing) > 1 else 'is'} not printed on anything {f.key} carries: give "
                           f"{' and '.join('base' if k == 'damage' else k for k in missing)}", ev.loc)
        key = line["stat"]
        label = f"{self.attack_names.get(atype, '')} Attack".strip() if atype else "attack"
        # range and sight (BF-LOS-1, 2)
        d = self._dist(f, t)
        notes = []
        if line.get("range") is not None and d is not None:
            reach = int(line["range"]) + int(ev["range_bonus"] or 0)
            notes.append(f"range {reach}, distance {d}")
            if d > reach:
                self.ref.violation("BF-LOS-1", f"{t.key} is {d} tile{'s' if d != 1 else ''} from {f.key}; {wname}'s "
                                   f"{label} reaches {reach}", ev.at("target"))
        now = self.sees(f, t) if d is not None else True
        if ev["in_sight"] is not None and d is not None and ev["in_sight"] != now:
            self.ref.violation("BF-LOS-1", f"the log says {t.key} is {'' if ev['in_sight'] else 'not '}in {f.key}'s "
                               "line of sight, but it " + ("is: a corner-to-corner line crosses no obstacle" if now
                                                           else f"is not ({self._blocked_text(f, t)})"),
                               ev.at("in_sight"))
        if line.get("sight") and d is not None:
            if now:
                notes.append("in sight")
            elif t.key in f.seen_last:
                notes.append("out of sight, seen on its previous turn (BF-LOS-2)")
            elif t.key in f.seen_when or t.key in f.seen_now:
                when = "earlier this turn" if t.key in f.seen_now else f"in round {f.seen_when[t.key]}"
                self.ref.violation("BF-LOS-2", f"{f.key} has no line of sight to {t.key} ({self._blocked_text(f, t)}); "
                                   f"it saw it {when}, but only sight on its previous turn lets it attack an unseen "
                                   "target", ev.at("target"))
            else:
                self.ref.violation("BF-LOS-1", f"{wname}'s {label} needs sight, and {f.key} has no line of sight to "
                                   f"{t.key} ({self._blocked_text(f, t)})", ev.at("target"))
        # defence (BF-CMB-1)
        roll = ev["defence"]
        hit = True
        if roll is not None and self.ref.die(roll, self.die, "BF-CMB-1", ev.at("defence"), f"{t.key}'s defence d{self.die}"):
            hit = roll != self.miss
        if ev["hit"] is not None and ev["hit"] != hit:
            self.ref.violation("BF-CMB-1", f"the log says the attack {'hit' if ev['hit'] else 'missed'}, but "
                               + (f"a defence roll of {self.miss} makes it miss" if not hit else
                                  "only a defence roll of " + str(self.miss) + " makes an attack miss"
                                  + (f" (the roll is {roll})" if roll is not None else " (no roll is recorded)")),
                               ev.at("hit"))
        if ev["hit"] is not None:
            hit = bool(ev["hit"])
        s = self.stat(f, key)
        tt = self.stat(t, key)
        dtext = ""
        if roll is not None and hit:
            add = int(roll) + int(ev["defence_bonus"] or 0)
            b = int(ev["defence_bonus"] or 0)
            dtext = f" + defence {roll}" + (f" {'+' if b > 0 else '−'} {abs(b)} by card text" if b else "")
            tt += add
        base = int(line["damage"]) + int(ev["bonus"] or 0)
        if hit:
            dmg, why = damage_formula(base, s, tt, self.formula)
            if ev["reduce"] and dmg > 0:
                dmg = max(self.formula["min_damage"], dmg - int(ev["reduce"]))
                why += f", − {ev['reduce']} (card text, not below {self.formula['min_damage']})"
        else:
            dmg, why = 0, f"defence {roll}: the attack misses"
        self.ref.claim("BF-CMB-2", "the damage", ev["damage"], dmg, ev.at("damage"))
        if ev["damage"] is not None:
            dmg = int(ev["damage"])
        before = t.hp
        t.hp -= dmg
        t.hp_rule = "BF-CMB-2"
        short = self.stat_short.get(key, key)
        head = f"{f.key}: {label} with {wname} at {t.key}" + (f" ({'; '.join(notes)})" if notes else "")
        if hit:
            self._t(ev, f"{head}: {short} {s} vs {self.stat(t, key)}{dtext}" + (f" = {tt}" if dtext else "")
                        + f" → {why} = {dmg} damage; {t.key} {before} → {t.hp} HP")
        else:
            self._t(ev, f"{head}: {why}" + (f"; as recorded {dmg} damage, {t.key} {t.hp} HP" if dmg else ""))
        self.ref.claim("BF-CMB-2", f"{t.key}'s Health", ev["hp_left"], t.hp, ev.at("hp_left"))
        if ev["hp_left"] is not None and ev["hp_left"] != t.hp:
            t.hp = int(ev["hp_left"])
        if hit and dmg >= 0:
            for s_ in ev["status"] or []:
                self._inflict(t, self._status(s_, ev.at("status"), "status"), ev)
        self._settle(t, ev)

    def _blocked_text(self, f: Fighter, t: Fighter) -> str:
        obs = self._obstacles()
        ha, hb = f.hexes(), t.hexes()
        near = min(((x, y) for x in ha for y in hb), key=lambda p: hg.distance(*p))
        x, y = near
        blockers = sorted((h for h in obs if h not in (x, y) and hg.distance(h, x) < hg.distance(x, y)
                           and hg.distance(h, y) < hg.distance(x, y)), key=lambda h: hg.distance(h, x))
        return "sight blocked" + (f" near {self._offs(blockers[:3])}" if blockers else "")

    # -- health, death, the end (BF-CMB-3, BF-END-1) ---------------------------------------------------------

    def _settle(self, f: Fighter, ev: Event) -> None:
        if f.hp <= 0 and f.alive:
            f.dead = ev.loc
            self.deaths.append(f.key)
            self.died_here.append(f.key)
            f.statuses = {}
            self._t(ev, f"{f.key} dies ({f.hp} HP)" + (": a death token takes its place" if f.side == "hero" else ""))
            self._check_end(ev)
        elif f.hp > 0 and not f.alive and f.key in self.died_here:
            f.dead = None
            if f.key in self.deaths:
                self.deaths.remove(f.key)
            self._t(ev, f"{f.key} lives on (as recorded): {f.hp} HP")
            if self.over:
                self.over, self.winner, self.end_loc = False, None, None
            self._check_end(ev)

    def _check_end(self, ev: Event) -> None:
        """BF-END-1: all heroes dead, the boss wins; the boss dead, the heroes win."""
        if self.over:
            return
        if not self.boss().alive:
            self.winner = HEROES
        elif self.heroes() and not any(h.alive for h in self.heroes()):
            self.winner = BOSS
        else:
            return
        self.over = True
        self.end_loc = ev.loc
        self._t(ev, f"the game ends: {'the boss wins' if self.winner == BOSS else 'the heroes win'} (BF-END-1)")

    def on_death(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if f.alive:
            self.ref.violation("BF-CMB-3", f"{f.key} has {f.hp} Health: a character dies at 0 or below",
                               ev.at("character"))
            f.dead = ev.loc
            self.deaths.append(f.key)
            f.statuses = {}
            self._t(ev, f"{f.key} dies (as recorded)")
            self._check_end(ev)

    def on_game_end(self, ev: Event) -> None:
        w = ev["winner"]
        if not self.over:
            self.ref.violation("BF-END-1", "the game is not over: it ends when every hero or the boss is dead "
                               f"(the boss has {self.boss().hp} Health; {sum(h.alive for h in self.heroes())} "
                               "heroes live)", ev.loc)
            if w is not None:
                self.over, self.winner, self.end_loc = True, w, ev.loc
        elif w is not None and w != self.winner:
            self.ref.violation("BF-END-1", f"the log says {w} won, but {self.winner} did", ev.at("winner"))

    def _inflict(self, t: Fighter, s: str, ev: Event) -> None:
        if not t.alive:
            return
        if s in t.statuses:
            self._t(ev, f"{t.key} is already {self.status_names[s]}: a status does not stack (BF-STATUS-1)")
        t.statuses[s] = t.turns + 1
        self._t(ev, f"{t.key} is {self.status_names[s]}"
                    + (" until the end of its next turn" if s in self.short_statuses else ""))

    def _heal(self, t: Fighter, n: int) -> int:
        cap = t.stats["health"] if self.heal_cap == "start" else None
        new = t.hp + n
        if cap is not None:
            new = max(t.hp, min(new, cap))
        got = new - t.hp
        t.hp = new
        return got

    # -- items, sacrifices, abilities, feats, effects -------------------------------------------------------

    def on_item(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        self._action(ev, f)
        c = self._play(ev, f, "item")
        if ev["attack_limit"] is not None:
            self.attack_limit = int(ev["attack_limit"])
        t = self._fighter(ev["target"], ev.at("target"), "target") if ev["target"] is not None else f
        text = f"{f.key} uses {c.name} (to the Used pile)"
        if ev["heal"] is not None and t.alive:
            got = self._heal(t, int(ev["heal"]))
            t.hp_rule = "BF-CMB-3"
            text += f": {t.key} heals {got}, {t.hp} HP"
        self._t(ev, text)
        if ev["hp_left"] is not None:
            self.ref.claim("BF-CMB-3", f"{t.key}'s Health", ev["hp_left"], t.hp, ev.at("hp_left"))
            t.hp = int(ev["hp_left"])
        self._after_action(ev, f)

    def on_discard(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        self._action(ev, f)
        c = self._card(ev["card"], ev.at("card"), "card", ("action",)) if ev["card"] not in (None, HIDDEN) else None
        self._from_hand(f, c, ev.at("card") if ev["card"] else ev.loc)
        f.discard.put(c.id if c else None)
        self._t(ev, f"{f.key} sacrifices {c.name if c else 'a card'} (an action)")
        self._after_action(ev, f)

    def _ability(self, f: Fighter, value: Any, loc: Loc | None) -> tuple[str, str, Card | None]:
        """(key, name, ability card or None): an ability of ``f``."""
        s = str(value).strip()
        low = s.lower()
        for a in f.abilities:
            if low in (a.id.lower(), a.name.lower()):
                return a.id, a.name, a
        own = []
        if f.card is not None and f.card.get("ability_name"):
            own.append(str(f.card.get("ability_name")))
        for p in f.pieces:
            own += _NAMED_TEXT.findall(str(p.card.get("text") or ""))
        for n in own:
            if low == n.lower():
                return n, n, None
        c = next((x for x in self.game.cards if x.type == "ability" and low in (x.id.lower(), x.name.lower())), None)
        if c is not None:
            self.ref.violation("BF-ABIL-1", f"{f.key} does not have the ability {c.name}", loc)
            return c.id, c.name, c
        raise LogError("LOG-FIELD", f"'ability' names no ability of {f.key}: {value!r}", loc,
                       did_you_mean(s, [a.id for a in f.abilities] + own) or
                       f"{f.key}'s abilities: {', '.join([a.id for a in f.abilities] + own) or 'none'}")

    def on_ability(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        key, name, card = self._ability(f, ev["ability"], ev.at("ability"))
        uses = bool(ev["uses_action"]) or ev["sacrifice"] is not None
        if uses:
            self._action(ev, f)
            if ev["sacrifice"] is not None:
                c = self._card(ev["sacrifice"], ev.at("sacrifice"), "sacrifice", ("action",)) \
                    if ev["sacrifice"] != HIDDEN else None
                self._from_hand(f, c, ev.at("sacrifice"))
                f.discard.put(c.id if c else None)
        elif self.phase == "place":
            self._end_placement(ev)
        used = uses or (card is not None and card.get("usage") == "used")
        if used:
            last = f.used_abilities.get(key)
            if last is not None and self.round - last <= self.rest:
                self.ref.violation("BF-ABIL-1", f"{f.key} used {name} in round {last}: a used ability rests that round "
                                   f"and the next {self.rest}" if self.rest != 1 else
                                   f"{f.key} used {name} in round {last}: a used ability cannot be used again in that "
                                   "round or the next", ev.at("ability"))
            f.used_abilities[key] = self.round
        n = ev["expend"]
        named = [self._card(x, ev.at("expended"), "expended", ("action",)) for x in ev["expended"] or []]
        if n is None and named:
            n = len(named)
        if n:
            self._expend(f, int(n), named, ev, name, ev.at("expend") if ev["expend"] is not None else ev.loc)
        self._t(ev, f"{f.key} uses {name}" + (" (an action)" if uses else "")
                    + (f", expending {n}" if n else ""))
        if uses:
            self._after_action(ev, f)

    def on_feat(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        self._enter_turn(f, ev)
        if f.side != "hero" or f.card is None:
            self.ref.violation("BF-ACT-3", f"{f.key} has no Heroic Feat: only heroes do", ev.loc)
            return
        cost = int(f.feat_cost or 0)
        named = [self._card(x, ev.at("cards"), "cards", ("action",)) for x in ev["cards"] or []]
        n = ev["count"] if ev["count"] is not None else (len(named) if named else cost)
        if n != cost:
            self.ref.violation("BF-ACT-3", f"{f.card.get('feat_name')} costs exactly {cost} cards expended; the log "
                               f"expends {n}", ev.at("count") if ev["count"] is not None else ev.at("cards"))
        self._expend(f, int(n), named, ev, f"{f.key}'s Heroic Feat {f.card.get('feat_name')}", ev.loc)
        self._t(ev, f"{f.key} uses its Heroic Feat {f.card.get('feat_name')}, expending {n} (not an action): "
                    f"discard {f.discard.size}, expended {f.expended.size}")

    def on_effect(self, ev: Event) -> None:
        if self.phase == "place":
            self._end_placement(ev)
        src = self._card_or_text(ev["source"], ev.at("source"), "source")
        f = self._fighter(ev["character"], ev.at("character"), "character") if ev["character"] is not None else \
            self.current
        t = self._fighter(ev["target"], ev.at("target"), "target") if ev["target"] is not None else f
        parts = []
        for h in ev["rubble"] or []:
            x = self._hex(h, ev.at("rubble"))
            who = self.occupant(x)
            if not self._clear(x) or who is not None:
                there = self._where(x) if who is None else f"{self._off(x)} holds {who.key}"
                self.ref.violation("BF-MAP-1", f"an obstacle token goes on a free clear tile (no piece stands on an "
                                   f"obstacle); {there} is not", ev.at("rubble"))
            self.rubble.add(x)
            parts.append(f"obstacle token on {self._off(x)}")
        for h in ev["clear"] or []:
            self.rubble.discard(self._hex(h, ev.at("clear")))
            parts.append(f"obstacle token off {self._off(self._hex(h, ev.at('clear')))}")
        if t is None:
            if not parts:
                raise LogError("LOG-FIELD", "an effect names its 'target' (or whose card it is)", ev.loc)
            self._t(ev, f"{src}: {', '.join(parts)}")
            return
        if ev["expend"]:
            who = f if f is not None else t
            self._expend(who, int(ev["expend"]), [], ev, src, ev.at("expend"))
            parts.append(f"{who.key} expends {ev['expend']}")
        for x in ev["returns"] or []:
            c = self._card(x, ev.at("returns"), "returns", ("action",)) if str(x).strip() != HIDDEN else None
            self._from_hand(t, c, ev.at("returns"))
            t.deck += 1
            parts.append(f"{t.key} puts {c.name if c else 'a card'} on top of its deck")
        if ev["revive"]:
            if t.alive or t.side != "hero":
                self.ref.violation("BF-CMB-3", f"{t.key} is not dead: only a dead hero returns", ev.at("revive"))
            else:
                t.dead = None
                if t.key in self.deaths:
                    self.deaths.remove(t.key)
                t.hp = 0
                other = self.occupant(t.origin, but=t) if t.origin is not None else None
                if other is not None:
                    self.ref.violation("BF-MOVE-1", f"{t.key} returns at {self._off(t.origin)}, where {other.key} stands",
                                       ev.at("revive"))
                parts.append(f"{t.key} returns at its death token")
        if not t.alive and (ev["damage"] or ev["heal"] or ev["status"] or ev["to"]):
            self.ref.violation("BF-CMB-3", f"{t.key} died at line {t.dead.line}: only a death token is left", ev.loc)
        else:
            if ev["damage"]:
                t.hp -= int(ev["damage"])
                t.hp_rule = "BF-CMB-2"
                parts.append(f"{t.key} takes {ev['damage']}, {t.hp} HP")
            if ev["heal"]:
                got = self._heal(t, int(ev["heal"])) if not ev["revive"] else int(ev["heal"])
                if ev["revive"]:
                    t.hp = got
                t.hp_rule = "BF-CMB-3"
                parts.append(f"{t.key} heals {got}, {t.hp} HP")
            if ev["to"] is not None:
                x = self._hex(ev["to"], ev.at("to"))
                if t.side == "hero":
                    other = self.occupant(x, but=t)
                    if not self._clear(x) or other is not None:
                        where = self._where(x) if not self._clear(x) else f"{self._off(x)}, where {other.key} stands"
                        self.ref.violation("BF-MOVE-1", f"{t.key} is put on {where}", ev.at("to"))
                    t.origin = x
                else:
                    d = x - (t.origin + rotate(t.anchor, t.rot))
                    t.origin = t.origin + d
                parts.append(f"{t.key} to {self._off(x)}")
            for k, d in (ev["stats"] or {}).items():
                sk = str(k).lower()
                if sk not in t.stats:
                    byname = {v.lower(): k2 for k2, v in self.stat_names.items()}
                    sk = byname.get(sk, sk)
                if sk not in t.stats:
                    raise LogError("LOG-FIELD", f"'stats' names no statistic: {k!r}", ev.at("stats"),
                                   did_you_mean(str(k), list(t.stats)))
                t.mods.append([sk, int(d), ev["until"] or "round", t.turns + 1])
                parts.append(f"{t.key} {self.stat_short.get(sk, sk)} {int(d):+d} (until {ev['until'] or 'round'} end)")
        if parts:
            self._t(ev, f"{src}: {'; '.join(parts)}")
        for s_ in ev["status"] or []:
            self._inflict(t, self._status(s_, ev.at("status"), "status"), ev)
        for s_ in ev["cure"] or []:
            if str(s_).lower() == "all":
                t.statuses = {}
                self._t(ev, f"{t.key} is free of every status")
                continue
            k = self._status(s_, ev.at("cure"), "cure")
            if t.statuses.pop(k, None) is not None:
                self._t(ev, f"{t.key} is no longer {self.status_names[k]}")
        if ev["hp_left"] is not None:
            self.ref.claim(t.hp_rule, f"{t.key}'s Health", ev["hp_left"], t.hp, ev.at("hp_left"))
            t.hp = int(ev["hp_left"])
        self._settle(t, ev)

    # -- lifecycle ---------------------------------------------------------------------------------

    def before(self, ev: Event) -> None:
        self.died_here = []
        if self.over and ev.kind not in CLAIMS_AFTER_END:
            who = "the boss" if self.winner == BOSS else "the heroes"
            self.ref.violation(self.end_rule, f"'{ev.kind}' after the game ended ({who} won at line "
                               f"{self.end_loc.line if self.end_loc else '?'}): no event may follow the end", ev.loc)

    def apply(self, ev: Event) -> None:
        if self.over and ev.kind not in CLAIMS_AFTER_END:
            return
        if self.phase == "place" and ev.kind not in ("place",):
            if ev.kind in ("draw", "round", "reshuffle"):
                self._end_placement(ev)
        super().apply(ev)
        if self.current is not None:
            self._look(self.current)

    def finish(self) -> None:
        if self.current is not None and not self.over:
            f = self.current
            self.current = None
            f.seen_last = set(f.seen_now)
            self.acted.add(f.key)
        if self.over:
            self._state(f"game over in round {self.round}: {'the boss wins' if self.winner == BOSS else 'the heroes win'}")
        else:
            self._state(f"log ends in round {self.round}; no winner yet")

    def final(self) -> dict[str, Any]:
        chars = {}
        for f in self.fighters.values():
            d: dict[str, Any] = {"health": f.hp, "max_health": f.stats["health"], "dead": not f.alive,
                                 "statuses": sorted(f.statuses)}
            if f.side == "hero":
                d["at"] = list(hg.to_offset(f.origin, self.map.style)) if f.origin is not None and self.map else None
            else:
                d["cells"] = [list(hg.to_offset(h, self.map.style)) for h in
                              sorted(f.hexes(), key=lambda h: hg.to_offset(h, self.map.style)[::-1])] if self.map else []
            d.update({"hand": f.hand.size, "deck": f.deck, "discard": f.discard.size, "expended": f.expended.size,
                      "used": f.used.size})
            chars[f.key] = d
        return {"winner": self.winner, "round": self.round,
                "hp": {f.key: f.hp for f in self.fighters.values()},
                "dead": list(self.deaths), "characters": chars}

    # -- for programs: what may come next ---------------------------------------------------------------

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts (for simulated playtests): what may come next
        without breaking a rule. Card text (``effect``, a ``draw`` or ``reshuffle``) may come at any
        time once the pieces stand; claims (``death``, ``game_end``, ``end_turn``) once true."""
        if self.over:
            return list(CLAIMS_AFTER_END)
        if self.phase == "place":
            unplaced = [f for f in self.fighters.values() if f.placed is None]
            return ["place"] if unplaced else ["draw", "round", "effect"]
        anytime = ["effect", "draw", "reshuffle"] + (["death"] if any(not f.alive for f in self.fighters.values())
                                                     else [])
        if not self.turns_begun and any(self.drawn[f.key] < self.due.get(f.key, 0) for f in self._living()):
            return anytime
        actions = ["move", "attack", "item", "discard", "ability", "feat"]
        f = self.current
        if f is not None and self.used_actions < self.need and f.hand.size:
            if any(s in self.no_move for s in f.statuses):
                actions.remove("move")
            return actions + anytime                    # this turn's actions are not all used yet
        out = ["end_turn"] if f is not None else []
        out += ["round"] if self._round_complete() else ["turn"] + actions
        return out + anytime

    def legal_moves(self, key: str, tiles: int) -> set[tuple[int, ...]]:
        """Where ``key`` may end a Move action of ``tiles``: a hero's (col, row); the boss's anchor
        (col, row, rotation)."""
        f = self.fighters[key]
        if f.origin is None:
            return set()
        if f.side == "hero":
            enemies = {h for g in self.enemies_of(f) if g.alive for h in g.hexes()}
            ok = [h for h in hg.reachable(f.origin, tiles, lambda h: self._clear(h) and h not in enemies)
                  if self.occupant(h, but=f) is None]
            return {hg.to_offset(h, self.map.style) for h in ok}
        limit = math.floor(tiles * self._legs_factor() + 1e-9)
        heroes = frozenset(h for g in self.heroes() if g.alive for h in g.hexes())
        fp = hg.footprint(c - f.anchor for c in f.cells) if hg.is_connected(f.cells) else \
            frozenset(c - f.anchor for c in f.cells)
        ends = hg.reachable_placements(fp, f.origin + rotate(f.anchor, f.rot), limit, self._clear, heroes, f.rot)
        return {(*hg.to_offset(d, self.map.style), k) for d, k in ends}

"""Boss Fight rules engine: reading the header (map, builds, characters), names, placement (BF-PLACE-1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardgen.boards import common as board_common
from cardgen.boards import maps as board_maps
from cardgen.content import collection_files as cols
from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core import hexgrid as hg
from cardgen.core.hexgrid import Hex, rotate
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.games.boss_fight.builds import Build, _cells_text, analyse
from cardgen.games.boss_fight.figures import boss_stats, leg_count
from cardgen.games.boss_fight.placement import hero_starts
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.table_base import TableBase
from cardgen.games.boss_fight.vocab import BOSS
from cardgen.play.lookup import Names, NotFound


class SetupRules(TableBase):
    """The header and placement of :class:`~.table.Table`."""

    # -- reading the header: map and builds ---------------------------------------------------

    def start(self) -> None:
        self.map = self._load_map()
        self.boss_build = self._load_build("boss")
        self.party_build = self._load_build("party")
        self._fighters()
        self._check_players()
        m = self.map
        heroes = [f for f in self.fighters.values() if f.side == "hero"]
        self.ref.trace(f"      {self.game.title} on {m.name}: {self.boss_build.name} (boss, {len(self.boss().cells)} "
                       f"hex{'es' if len(self.boss().cells) != 1 else ''}) against {self.party_build.name} "
                       f"({', '.join(f.key for f in heroes)})")
        legs = self.boss().legs
        self.ref.trace(f"      boss movement: {self._legs_factor_text()} ({legs} Leg piece{'s' if legs != 1 else ''})")

    def _load_map(self) -> Any:
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
        ts = board_maps.load_terrain(files.get("terrain", []), self.game, probs)
        m = board_maps.load_map(path, doc, ts, self.game, probs)
        if m is None or probs.has_errors:
            first = probs.errors[0] if probs.errors else None
            raise LogError("LOG-GAME", f"the map {path.name} has errors"
                           + (f" ({first.message})" if first else "") + f"; run `cardgen validate {self.game.slug}`",
                           loc)
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
        for pr in probs.errors:                 # construction rules (BF-BUILD, BF-DECK): checked first
            self.ref.violation(pr.rule, f"{pr.message} (in the {kind} build)", pr.loc or loc)
        return b

    def _fighters(self) -> None:
        b = self.boss_build
        assert b is not None and self.party_build is not None      # start() read both builds first
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
            assert c is not None                # a party's characters are its hero cards
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
        if type(value) is str and value in self.fighters:      # its key (the lookup's first try)
            return self.fighters[value]
        names = self.__dict__.get("_names")
        if names is None:
            names = self._names = Names("character", self.fighters.items(),
                                        lambda f: [f.name] + (["the boss"] if f.side == "boss" else []))
        try:
            return names.find(value)
        except NotFound as e:
            raise LogError("LOG-FIELD", f"'{fname}' {e.message}", loc, e.hint) from None

    def _check_players(self) -> None:
        """BF-PLAYERS-1: the ``players`` header seats 2–5 players, one of them (alone) the boss's,
        the rest sharing the party; each character is played by one player."""
        seats = self.header.get("players")
        if seats is None:
            return
        loc = self.header_locs.get("players")
        rule = "BF-PLAYERS-1"
        lo, hi = self._int("players", "min"), self._int("players", "max")
        bosses = self._int("boss_players")
        owner: dict[str, str] = {}
        for who, chars in seats.items():
            for ch in chars if isinstance(chars, list) else [chars]:
                f = self._fighter(ch, loc, f"players: {who}")
                if f.key in owner:
                    self.ref.violation(rule, f"{f.key} is played by {owner[f.key]} and by {who}: each character has "
                                       "one player", loc)
                owner[f.key] = str(who)
        if not lo <= len(seats) <= hi:
            self.ref.violation(rule, f"{len(seats)} player{'s' if len(seats) != 1 else ''}: the game has {lo} to "
                               f"{hi} (one Boss player, the rest share the Hero Party)", loc)
        boss_seats = [w for w in seats if owner.get(BOSS) == w]
        heroes = [f.key for f in self.heroes()]
        if len(boss_seats) != bosses:
            self.ref.violation(rule, f"nobody plays the boss: the game has {bosses} Boss player", loc)
        else:
            mixed = [h for h in heroes if owner.get(h) == boss_seats[0]]
            if mixed:
                self.ref.violation(rule, f"{boss_seats[0]} plays the boss and {', '.join(mixed)}: the Boss player "
                                   "plays only the boss; the rest share the Hero Party", loc)
        free = [h for h in heroes if h not in owner]
        if free:
            self.ref.violation(rule, f"nobody plays {', '.join(free)}: the hero players share the whole party", loc)

    def _card(self, value: Any, loc: Loc | None, fname: str, types: tuple[str, ...] | None = None) -> Card:
        c = self.cards.get(value) if type(value) is str else None      # its id (the first try)
        if c is not None and (not types or c.type in types):
            return c
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

    def _offs(self, hexes: Iterable[Any]) -> str:
        return " ".join(self._off(h) for h in sorted(hexes, key=lambda h: hg.to_offset(h, self.map.style)[::-1]))

    # -- placement (BF-PLACE-1) -------------------------------------------------------------------

    def _zone(self, which: str) -> set[Hex] | None:
        pl = self.map.terrain.placement
        if pl is None:
            return None
        key = pl.boss_zone if which == "boss" else pl.hero_zone
        return self.map.zones.get(key) or None

    def play_place(self, ev: Event) -> None:
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
                assert early[0].placed is not None
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
                    free = [h for h in hero_starts(self.map, frozenset(bc), self.distance, zone)
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

"""Boss Fight's table: the one model of the game as it goes, and its rules. A log's events
(``cardgen check``, through :mod:`.contract`) and the state's actions (:mod:`.game_state`) are
played by the same ``play_<kind>`` methods, which name each rule an event breaks to
:class:`~.slips.Slips` (the modules by topic: ``docs/engines-boss_fight.md``; the log:
docs/playtest-logs.md)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

from cardgen.content.playlog import Event
from cardgen.core import hexgrid as hg
from cardgen.core.hexgrid import Hex, rotate
from cardgen.core.problems import Loc
from cardgen.games.boss_fight.builds import Build
from cardgen.games.boss_fight.rules_cards import CardRules
from cardgen.games.boss_fight.rules_combat import CombatRules
from cardgen.games.boss_fight.rules_move import MoveRules
from cardgen.games.boss_fight.rules_rounds import RoundRules
from cardgen.games.boss_fight.rules_setup import SetupRules
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.sweep import STEPS, Cell
from cardgen.games.boss_fight.view import MapView
from cardgen.games.boss_fight.vocab import BF_EVENTS, BOSS, CLAIMS_AFTER_END


class Table(SetupRules, MapView, RoundRules, CardRules, MoveRules, CombatRules):
    """The game on its hex map as it goes, event by event (see the module docstring)."""

    #: event kind → the method that plays it (``play_<kind>``), made once below the class
    _plays: dict[str, Callable[[Table, Event], None]] = {}

    def __init__(self, game: Any, header: Any, header_locs: Any, ref: Any) -> None:
        super().__init__(game, header, header_locs, ref)
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
        #: each card's kind, a Move card's tiles and an Attack card's attack type (read once)
        self.plays = {c.id: (c.get("kind"), int(c.get("move") or 0) if c.get("kind") == "move" else 0,
                             None if c.get("attack") is None else str(c.get("attack"))) for c in game.cards}
        self.fighters: dict[str, Fighter] = {}
        self.order_keys: list[str] = []
        self.map = None                     # type: ignore[assignment]  # start() loads it before any event
        self.rubble: frozenset[Hex] = frozenset()
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
        self.draw_at: dict[str, Loc] = {}
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
        self.pictures = True                # the map pictures of --trace (simulated play leaves them out)
        self.sight_memo: dict[Any, Any] = {}
        self.looked: tuple | None = None    # what the acting character last looked at (see _look)

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
        self._plays[ev.kind](self, ev)
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

    # -- for the state: where a Move may end ------------------------------------------------------

    def move_ends(self, key: str, tiles: int) -> tuple[tuple[int, ...], ...]:
        """:meth:`legal_moves`, sorted, found faster: where no enemy is in the way, the bare
        terrain's ends (once per map, start and tiles) less the hexes pieces stand on."""
        f = self.fighters[key]
        if f.origin is None:
            return ()
        return self._boss_ends(f, tiles, True) if f.side == "boss" else self._hero_ends(f, tiles, True)

    def legal_moves(self, key: str, tiles: int) -> set[tuple[int, ...]]:
        """Where ``key`` may end a Move action of ``tiles``: a hero's (col, row); the boss's anchor
        (col, row, rotation)."""
        f = self.fighters[key]
        if f.origin is None:
            return set()
        return set(self._boss_ends(f, tiles, False) if f.side == "boss" else self._hero_ends(f, tiles, False))

    def _hero_ends(self, f: Fighter, tiles: int, bare: bool) -> tuple[tuple[int, ...], ...]:
        """A hero's Move ends, sorted: breadth-first over clear tiles, never onto or through an enemy, off
        every other piece (BF-MOVE-1, BF-MAP-1); ``bare``: the bare terrain's when no enemy is in the way."""
        assert f.origin is not None
        start, rubble, at = (f.origin.q, f.origin.r), self.rubble, self._colrow()
        tokens = self.sight_memo.get(("tokens", rubble))
        if tokens is None:
            tokens = self.sight_memo["tokens", rubble] = frozenset((h.q, h.r) for h in rubble)
        stop = {c for g in self.fighters.values() if g.side != f.side and g.alive for c in g.qr()} | tokens
        taken = {c for g in self.fighters.values() if g is not f and g.alive for c in g.qr()}
        got = self.sight_memo.get(("reach", start, tiles, rubble)) if bare else None
        if got is None and bare:
            cost = self._reach(start, tiles, set(tokens))
            got = self.sight_memo["reach", start, tiles, rubble] = (cost, sorted((at(h), h) for h in cost))
        if got is None or any(got[0].get(c, tiles) < tiles for c in stop):     # an enemy in the way
            return tuple(sorted(at(h) for h in self._reach(start, tiles, stop) if h not in taken))
        return tuple(cr for cr, h in got[1] if h not in taken)

    def _boss_ends(self, f: Fighter, tiles: int, bare: bool) -> tuple[tuple[int, ...], ...]:
        """The boss's Move ends (BF-MOVE-1/2), sorted; ``bare``: those of the bare terrain (found
        once per footprint, start and reach) when no facing on any hex of the way meets a hero."""
        limit = math.floor(tiles * self._legs_factor() + 1e-9)
        assert f.origin is not None
        heroes = frozenset(c for g in self.fighters.values() if g.side == "hero" and g.alive for c in g.qr())
        start = f.origin + rotate(f.anchor, f.rot)
        # the footprint around its anchor and its ground, found once per cells, anchor and tokens
        sk = ("boss shape", id(f.cells), f.anchor.q, f.anchor.r, self.rubble)
        got = self.sight_memo.get(sk)
        if got is None or got[0] is not f.cells:
            shape = [c - f.anchor for c in f.cells]
            got = self.sight_memo[sk] = (f.cells, tuple((h.q, h.r) for h in shape), self.ground(shape))
        _, cells, ground = got
        turned, fit = ground.turned, ground.fits
        if bare:
            key = ("boss reach", cells, self.rubble, (start.q, start.r), limit)
            got = self.sight_memo.get(key)
            if got is None:         # (every hex a cell of the boss may cover on the way, the ends)
                at = self._colrow()
                ends = ground.costs((start.q, start.r), limit)
                cover, way = {c for t in turned for c in t}, {d for d, _ in ends}
                got = ({(q + dq, r + dr) for q, r in way for dq, dr in cover},
                       tuple(sorted((*at(d), k) for d, k in ends if fit(d) >> k & 1)))
                self.sight_memo[key] = got
            if got[0].isdisjoint(heroes):                           # no hero anywhere the boss may be
                return got[1]
            memo = self.sight_memo.setdefault("boss moves", {})
            if (key, heroes) in memo:                   # the heroes where they were (a search's playouts)
                return memo[key, heroes]
        # each anchor where some facing would put a cell of the boss on a hero (hero − cell per
        # cell): those facings, a bit each
        near = dict[tuple[int, int], int]()
        for k in range(6):
            for dq, dr in turned[k]:
                for q, r in heroes:
                    near[q - dq, r - dr] = near.get((q - dq, r - dr), 0) | 1 << k

        def whole(c: tuple[int, int]) -> int:
            """The facings that fit at ``c`` clear of the heroes too."""
            return fit(c) & ~near.get(c, 0)
        ends = ground.costs((start.q, start.r), limit, lambda c: whole(c) > 0)
        at = self._colrow()
        out = tuple(sorted({(*at(d), k) for d, k in ends if whole(d) >> k & 1}))
        if bare:                                        # (bounded: a long run starts it again)
            memo = self.sight_memo["boss moves"] = {} if len(memo) > 20_000 else memo
            memo[key, heroes] = out
        return out

    def _colrow(self) -> Callable[[Cell], tuple[int, int]]:
        """The (col, row) of the hex at a (q, r) on this map."""
        offset, style = self._grid()[1], self.map.style
        return lambda c: offset.get(c) or hg.to_offset(Hex(*c), style)

    def _reach(self, start: Cell, tiles: int, stop: set[Cell]) -> dict[Cell, int]:
        """Fewest steps (at most ``tiles``) from ``start`` to each clear tile, never onto ``stop``."""
        adj, _, ok = self._grid()
        cost, todo = {start: 0}, [start]
        for c in range(tiles):
            nxt = []
            for at in todo:
                around = adj.get(at)
                if around is None:          # a piece off the map (a log's slip): its neighbours
                    around = tuple(n for n in ((at[0] + dq, at[1] + dr) for dq, dr in STEPS) if n in ok)
                for n in around:
                    if n not in cost and n not in stop:
                        cost[n] = c + 1
                        nxt.append(n)
            todo = nxt
        return cost


Table._plays = {kind: getattr(Table, "play_" + kind) for kind in BF_EVENTS}

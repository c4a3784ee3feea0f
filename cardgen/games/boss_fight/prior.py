"""Boss Fight — the search's prior (``GamePackage.prior``): greedy, with what the cards on the
table say that greedy does not act on. Every character's cards lie face up (the seed's "Area of
Play"), so the prior reads each side's statistics and weapons from the game's setups.

- **The hardest blow.** Greedy attacks with any weapon and card alike; the prior picks the attack
  of the most expected damage (the weapon's line, the damage formula BF-CMB-2 against the
  target's statistic plus each defence roll, a rolled miss none), and the boss hits the hero it
  can most nearly kill (expected damage over Health left).
- **Hit and run.** Greedy walks every hero up to the boss, where the boss's three actions kill
  it. A hero with an attack in hand moves to where its longest reach still touches the boss, as
  far from it as that allows; when no move gets there, by the fewest steps over the map's clear
  tiles to that reach (round the Catacombs' walls and chasms, where the nearest tile as the crow
  flies can be a dead end). A hero with no attack in hand uses an Item card if it holds one (the
  Used pile never comes back to the deck, so its next draws hold more attacks; items' own text
  is not simulated), else moves away from the boss (and, with every move nearer, makes greedy's
  other choice). The boss closes in as greedy does.

It has no numbers of its own: it ranks moves by tiles and attacks by expected damage; the rules'
numbers (the damage formula, the defence die) are params.yaml's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardgen.boards.mapmodel import HexMap
from cardgen.content.model import Game
from cardgen.core import hexgrid as hg
from cardgen.core.hexgrid import Hex
from cardgen.games.boss_fight.agents import greedy
from cardgen.games.boss_fight.game_state import new_state, setups
from cardgen.games.boss_fight.rules_combat import damage_formula
from cardgen.games.boss_fight.vocab import BOSS
from cardgen.play.api import Action
from cardgen.play.package import Agent
from cardgen.play.params import Params

#: a character's attack lines: attack type → [(weapon, damage, stat, range)]
Lines = dict[str, list[tuple[str, int, str, int]]]


class Sheet:
    """What the cards on the table say of one character: its statistics and attack lines."""

    def __init__(self, stats: dict[str, int], lines: Lines):
        self.stats, self.lines = stats, lines

    def reach(self, kinds: set[str]) -> int:
        """The longest range of its attacks of ``kinds`` (0: none)."""
        return max((r for k in kinds for _w, _d, _s, r in self.lines.get(k, [])), default=0)


def shape(hexes: list[Hex]) -> tuple[tuple[int, int], ...]:
    """The footprint ``hexes`` wherever it stands and however it is turned (the least of its six
    turns, each moved to start at the origin): the same for every placing of one boss."""
    turns = []
    for rot in range(6):
        hs = [hg.rotate(h, rot) for h in hexes]
        o = min(hs, key=lambda h: (h.q, h.r))
        turns.append(tuple(sorted((h.q - o.q, h.r - o.r) for h in hs)))
    return min(turns)


def maps(game: Game) -> dict[str, HexMap]:
    """Every map the setups play on, by name (the map lies on the table: the observation names it)."""
    out: dict[str, HexMap] = {}
    for setup in setups(game, random.Random(0)):
        if str(setup["map"]) not in out:
            out[str(setup["map"])] = new_state(game, setup).eng.map
    return out


def sheets(game: Game) -> tuple[dict[str, Sheet], dict[tuple[tuple[int, int], ...], Sheet]]:
    """Each hero's sheet by key, and each boss's by its footprint's :func:`shape` (the boss's key
    is the same in every setup; its shape, on the table for all to see, tells the presets apart)."""
    heroes: dict[str, Sheet] = {}
    bosses: dict[tuple[tuple[int, int], ...], Sheet] = {}
    built: set[tuple[str, str]] = set()
    for setup in setups(game, random.Random(0)):
        pair = (str(setup["boss"]), str(setup["party"]))      # the sheets do not depend on the map
        if pair in built:
            continue
        built.add(pair)
        e = new_state(game, setup).eng
        for f in e.fighters.values():
            lines: Lines = {}
            for kind in ("basic", "heavy", "special"):
                lines[kind] = [(w, int(ln["damage"]), str(ln["stat"]), int(ln["range"] or 1))
                               for w, ln in e._attack_lines(f, kind)
                               if ln.get("damage") is not None and ln.get("stat") is not None]
            sheet = Sheet({k: e.stat(f, k) for k in ("intelligence", "strength", "agility")}, lines)
            if f.key == BOSS:
                bosses.setdefault(shape(list(f.cells) or [Hex(0, 0)]), sheet)
            else:
                heroes.setdefault(f.key, sheet)
    return heroes, bosses


class Prior:
    """Greedy's choice, except for attacks (the hardest blow) and the heroes' moves (hit and run)."""

    def __init__(self, game: Game):
        p = Params.of(game)
        self.base = greedy(game)
        self.heroes, self.bosses = sheets(game)
        self.kinds = {c.id: str(c.fields.get("attack")) for c in game.cards
                      if c.type == "action" and c.fields.get("attack")}
        self.formula = {k: int(v) for k, v in p.mapping("damage_formula").items()}
        self.die, self.miss = p.int("defence_die"), p.int("defence_miss")
        self.maps = maps(game)
        #: (map, where the boss stands, reach, obstacle tokens) → steps from each tile to the reach
        self.fields: dict[tuple[Any, ...], dict[Hex, int]] = {}
        #: where the boss stands → its shape
        self.seen: dict[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]] = {}

    def sheet(self, key: str, chars: Mapping[str, Any], style: Any) -> Sheet | None:
        if key != BOSS:
            return self.heroes.get(key)
        at = tuple(tuple(c) for c in chars[BOSS]["at"])
        if at not in self.seen:
            self.seen[at] = shape([hg.from_offset(c, r, style) for c, r in at] or [Hex(0, 0)])
        return self.bosses.get(self.seen[at])

    def expected(self, a: Action, obs: Mapping[str, Any]) -> float:
        """The attack's expected damage over the defender's roll (0: unknown)."""
        chars, style = obs["characters"], obs["style"]
        me, them = self.sheet(str(a["character"]), chars, style), self.sheet(str(a["target"]), chars, style)
        kind = self.kinds.get(str(a["card"]))
        if me is None or them is None or kind is None:
            return 0.0
        line = next((ln for ln in me.lines.get(kind, []) if ln[0] == a.get("with")), None)
        if line is None:
            return 0.0
        return self.blow(me, them, line)

    def blow(self, me: Sheet, them: Sheet, line: tuple[str, int, str, int]) -> float:
        """The expected damage of ``me``'s attack ``line`` on ``them`` over the defender's roll."""
        _w, dmg, stat, _r = line
        s, t = me.stats.get(stat, 0), them.stats.get(stat, 0)
        rolls = [r for r in range(1, self.die + 1) if r != self.miss]
        return sum(damage_formula(dmg, s, t + r, self.formula)[0] for r in rolls) / self.die

    def __call__(self, obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        chars = obs["characters"]
        attacks = [a for a in legal if a.kind == "attack" and a.get("target") is not None]
        if attacks:
            def blow(a: Action) -> float:
                e = self.expected(a, obs)
                return e / max(1, int(chars[a["target"]]["hp"])) if a["character"] == BOSS else e
            best = max(blow(a) for a in attacks)
            top = [a for a in attacks if blow(a) == best]
            return top[rng.randrange(len(top))]
        moves = [a for a in legal if a.kind == "move" and a.get("character") != BOSS]
        if moves:
            return self.hit_and_run(obs, moves, legal, rng)
        return self.base(obs, legal, rng)

    def hit_and_run(self, obs: Mapping[str, Any], moves: list[Action], legal: list[Action],
                    rng: random.Random) -> Action:
        """A hero's move: to its reach of the boss while it holds an attack (round the walls), else
        an item, else away from the boss."""
        chars, style = obs["characters"], obs["style"]
        who = str(moves[0]["character"])
        boss = [hg.from_offset(c, r, style) for c, r in chars[BOSS]["at"]]
        hand = chars[who]["hand"] or {}
        sheet = self.heroes.get(who)
        reach = sheet.reach({self.kinds[c] for c in hand if c in self.kinds}) if sheet else 0
        if not reach:
            items = [a for a in legal if a.kind == "item"]
            if items:
                return items[rng.randrange(len(items))]

        def gap(to: Any) -> int:
            h = hg.from_offset(int(to[0]), int(to[1]), style)
            return min(hg.distance(h, b) for b in boss)

        steps = self.steps(obs, reach) if reach else None

        def score(a: Action) -> float:
            d = gap(a["to"])
            if reach:
                if d <= reach or steps is None:
                    return d if d <= reach else reach - d
                # a tile with no way to the reach ranks below every tile with one
                return -steps.get(hg.from_offset(int(a["to"][0]), int(a["to"][1]), style), len(steps) + d)
            return d
        scores = [score(a) for a in moves]
        best = max(scores)
        if not reach and best < min(gap(at) for at in chars[who]["at"]):
            stay = [a for a in legal if a.kind != "move"]       # every move closer: greedy's other choice
            return self.base(obs, stay or legal, rng)
        top = [a for a, s in zip(moves, scores) if s == best]
        return top[rng.randrange(len(top))]

    def steps(self, obs: Mapping[str, Any], reach: int) -> dict[Hex, int] | None:
        """Steps over the map's clear tiles from each tile to the nearest within ``reach`` of the
        boss (None: a map the setups do not know) — the way round a wall or a chasm."""
        m = self.maps.get(str(obs.get("map")))
        if m is None:
            return None
        at = tuple(tuple(c) for c in obs["characters"][BOSS]["at"])
        rubble = frozenset(obs.get("rubble") or ())
        key = (m.key, at, reach, rubble)
        got = self.fields.get(key)
        if got is None:
            if len(self.fields) > 4096:
                self.fields.clear()
            boss = {hg.from_offset(c, r, obs["style"]) for c, r in at}
            clear = {h for h in m.tiles if m.passable(h) and h not in rubble and h not in boss}
            frontier = [h for h in clear if min((hg.distance(h, b) for b in boss), default=0) <= reach]
            got = self.fields[key] = dict.fromkeys(frontier, 0)
            while frontier:
                nxt = []
                for h in frontier:
                    for n in hg.neighbors(h):
                        if n in clear and n not in got:
                            got[n] = got[h] + 1
                            nxt.append(n)
                frontier = nxt
        return got


def prior(game: Game) -> Agent:
    """The search's prior for ``game``."""
    return Prior(game)

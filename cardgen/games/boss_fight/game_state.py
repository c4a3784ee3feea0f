"""Boss Fight on the game-state API: :class:`BossFightState`, its table played on by actions
that are log events (who acts and the chance nodes: ``docs/engines-boss_fight.md``)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from cardgen.boards import common as board_common
from cardgen.content.model import Game
from cardgen.content.playlog import Event
from cardgen.core import hexgrid as hg
from cardgen.core.options import MISSING
from cardgen.core.problems import Loc, Problems
from cardgen.games.boss_fight.legal import attack_event, player_actions
from cardgen.games.boss_fight.slips import Halt, Slips
from cardgen.games.boss_fight.state import Fighter, Pile
from cardgen.games.boss_fight.table import Table
from cardgen.games.boss_fight.vocab import BF_EVENTS, BOSS, HEROES
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState, Made, thaw, walk
from cardgen.play.dice import die_outcomes, weighted_index
from cardgen.play.hidden import counts
from cardgen.play.params import per_game
from cardgen.play.view import LazyView

T = TypeVar("T")

#: per loaded game: a started table by (map, boss, party), and what was found of sight by map
_KEPT: Callable[[Game], tuple[dict[tuple[str, str, str], Table], dict[str, dict[Any, Any]]]] = \
    per_game(lambda game: ({}, {}))


#: each event kind's fields with the defaults the log reader gives the ones left out
_BLANKS = {kind: {key: None if o.default is MISSING else o.default for key, o in spec.items()}
           for kind, spec in BF_EVENTS.items()}


def blank(kind: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """An event's fields with the defaults the log reader gives the ones left out."""
    return {**_BLANKS[kind], **fields}


def _engine(game: Game, setup: Mapping[str, Any]) -> Table:
    """A started table for ``setup`` (builds and map read once per game and setup, then copied)."""
    templates, by_map = _KEPT(game)
    key = (str(setup.get("map")), str(setup.get("boss")), str(setup.get("party")))
    eng = templates.get(key)
    if eng is None:
        header = {k: v for k, v in setup.items() if k != "game"}
        eng = Table(game, header, {}, Slips())
        eng.pictures = False
        eng.start()
        # sight and the boss's reach depend on the map (and the tokens, part of each key) only:
        # every setup on one map shares what was found
        eng.sight_memo = by_map.setdefault(key[0], eng.sight_memo)
        templates[key] = eng
    return _copy_engine(eng)


def _shallow(x: T) -> T:
    """``copy.copy(x)`` of a plain object (its ``__dict__``), without ``copy``'s protocol lookups."""
    twin = object.__new__(type(x))
    twin.__dict__.update(x.__dict__)
    return twin


def _pile(p: Pile) -> Pile:
    twin = object.__new__(Pile)
    twin.known, twin.unknown = counts(p.known), p.unknown
    return twin


def _copy_fighter(f: Fighter) -> Fighter:
    """A copy of ``f`` to play on: its piles, statuses, modifiers and sight copied; the rest (its
    cards, stats, footprint: what never changes; places and numbers: immutable) shared."""
    twin = _shallow(f)
    twin.hand, twin.discard, twin.expended, twin.used = map(_pile, (f.hand, f.discard, f.expended, f.used))
    twin.statuses, twin.used_abilities = dict(f.statuses), dict(f.used_abilities)
    twin.mods = [list(m) for m in f.mods]
    twin.seen_now, twin.seen_last, twin.seen_when = set(f.seen_now), set(f.seen_last), dict(f.seen_when)
    return twin


def _copy_engine(eng: Table) -> Table:
    """A copy to play on (a search's hot path): the game as it goes copied by name, the rest shared
    (the game, cards, map, builds, the rules read once: tests/test_play_boss_fight.py's SHARED)."""
    twin = _shallow(eng)
    twin.__dict__.pop("_names", None)       # the name lookup holds the fighters: built again when asked
    twin.ref = Slips()
    twin.fighters = {k: _copy_fighter(f) for k, f in eng.fighters.items()}
    twin.current = twin.fighters[eng.current.key] if eng.current is not None else None
    twin.acted, twin.drawn = set(eng.acted), Counter(eng.drawn)
    twin.order, twin.order_keys, twin.deaths, twin.died_here = list(eng.order), list(eng.order_keys), \
        list(eng.deaths), list(eng.died_here)
    twin.start_agility, twin.due, twin.draw_at = dict(eng.start_agility), dict(eng.due), dict(eng.draw_at)
    return twin


class BossFightState(GameState):
    """One position of a Boss Fight game (its table plus the chance steps pending)."""

    def __init__(self, game: Game, setup: Mapping[str, Any], table: Table | None = None):
        self.game = game
        self.setup = {k: v for k, v in setup.items()}
        self.eng = _engine(game, setup) if table is None else table
        owners = dict(setup.get("players") or {"boss": [BOSS], "heroes": [f.key for f in self.eng.heroes()]})
        self.players = [str(p) for p in owners]
        self.seat: dict[str, int] = {}
        for i, p in enumerate(self.players):
            for ch in owners[p] if isinstance(owners[p], list) else [owners[p]]:
                self.seat[str(ch)] = i
        #: a log's event to replay as recorded (set by the contract before it plays the event)
        self.at: Event | None = None
        self.step_at: tuple[int, tuple[str, Any]] | None = None    # (actions applied, what comes next)
        self.history: list[Action] = []
        self.events: list[dict[str, Any]] = []
        self.cap = self.eng.p.int("simulate.round_cap")
        self.pending_attack: Action | None = None       # an attack chosen, its defence roll to come

    # --- the table as the state -----------------------------------------------------------
    def _feed(self, kind: str, fields: Iterable[tuple[str, Any]]) -> None:
        n = len(self.events) + 2
        given = {k: (list(v) if not v or type(v[0]) is not tuple else thaw(v)) if type(v) is tuple else v
                 for k, v in fields}
        ev = Event(n, kind, {**_BLANKS[kind], **given}, Loc("<play>", n, 1))
        self.eng.before(ev)
        self.eng.apply(ev)
        self.events.append({"kind": kind, **given})

    # --- who acts ---------------------------------------------------------------------------
    def _next_step(self) -> tuple[str, Any]:
        """What comes next: ('place', fighter), ('round', n), ('draw', fighter), ('poison', fighter),
        ('defence', action), ('act', fighter), ('end', None); found once per action applied."""
        at = len(self.history)
        if self.step_at is not None and self.step_at[0] == at:
            return self.step_at[1]
        step = self._find_step()
        self.step_at = (at, step)
        return step

    def _find_step(self) -> tuple[str, Any]:
        e = self.eng
        if e.over:
            return "end", None
        if self.pending_attack is not None:
            return "defence", self.pending_attack
        if e.phase == "place":
            left = [f for f in e.fighters.values() if f.placed is None]
            if left:
                return "place", left[0]
            return "round", 1
        if e.current is None and e.turns_begun and e._round_complete():
            if e.round >= self.cap:
                return "end", None
            return "round", e.round + 1
        if not e.turns_begun:
            for f in e._living():
                if e.drawn[f.key] < e.due.get(f.key, 0):
                    return "draw", f
        if e.current is None:
            f = self._next_turn()
            if e.poison in f.statuses:
                return "poison", f
            return "act", f
        return "act", e.current

    def _next_turn(self) -> Fighter:
        e = self.eng
        for k in e.order:
            f = e.fighters[k]
            if f.alive and k not in e.acted:
                return f
        raise AssertionError("a round with nobody left to act is complete")

    def current_player(self) -> int:
        step, who = self._next_step()
        if step == "end":
            return TERMINAL
        if step in ("round", "draw", "poison", "defence"):
            return CHANCE
        return self.seat.get(who.key, 0)

    def legal_actions(self) -> list[Action]:
        step, who = self._next_step()
        if step in ("place", "act"):
            return player_actions(self.eng, who)
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        step, who = self._next_step()
        e = self.eng
        if step == "round":
            return [(Action.make("round", number=who), 1.0)]
        if step == "draw":
            cards, left = _draw_left(who)
            total = sum(left)
            return [(_DRAWS[who.key, c], n / total) for c, n in zip(cards, left) if n > 0]
        if step == "poison":
            return _die("turn", e.die, "poison_roll", who.key)
        if step == "defence":
            return _die("defence", e.die, "roll")
        return []

    def sample_chance(self, r: float) -> Action | None:
        """The outcome :meth:`chance_outcomes`' walk falls on for ``r``: a card drawn found by the
        counts left in card order, without listing them (near a boundary: the walk); a die's six
        faces or the round marker are walked (as cheap as computed)."""
        step, who = self._next_step()
        if step == "draw":
            cards, left = _draw_left(who)
            i = weighted_index(r, left, sum(left))
            if i is not None:
                return _DRAWS[who.key, cards[i]]
        outs = self.chance_outcomes()
        return walk(outs, r) if outs else None

    def apply_action(self, action: Action) -> None:
        if self.at is not None:                     # a log's event, played as recorded
            ev, self.at = self.at, None
            try:
                self.eng.before(ev)
                self.eng.apply(ev)
            except Halt:                            # --strict: its first broken rule ends the check
                pass
            return
        self.history.append(action)
        e = self.eng
        if (action.kind == "draw" and e.current is None and not e.turns_begun and e.phase != "place"
                and not e.over):
            key, (cid,) = action["character"], action["cards"]      # a round's draw: no event to read
            e.round_draw(e.fighters[key], cid, Loc("<play>", len(self.events) + 2, 1))
            self.events.append({"kind": "draw", "character": key, "cards": [cid]})
            return
        if action.kind == "round":
            self._feed("round", action.items)
            return
        if action.kind == "attack" and action.get("target") is not None and action.get("defence") is None:
            self.pending_attack = action             # the defender rolls next
            return
        if action.kind == "defence":
            chosen, self.pending_attack = self.pending_attack, None
            assert chosen is not None
            self._feed("attack", attack_event(self.eng, chosen, int(action["roll"])).items())
            return
        self._feed(action.kind, action.items)

    # --- the end ----------------------------------------------------------------------------
    def _winner(self) -> str | None:
        return self.eng.winner

    def returns(self) -> list[float]:
        w = self._winner()
        if w is None:
            return [0.0] * len(self.players)
        boss_seat = self.seat.get(BOSS, 0)
        return [1.0 if (i == boss_seat) == (w == BOSS) else 0.0 for i in range(len(self.players))]

    def result(self) -> dict[str, Any]:
        final = self.eng.final()
        return {"winner": final["winner"], "round": final["round"], "hp": final["hp"], "dead": final["dead"]}

    def is_terminal(self) -> bool:
        return self._next_step()[0] == "end"

    def observation(self, player: int) -> Mapping[str, Any]:
        """What ``player`` may see, built when an agent first reads it (a random agent never does)."""
        return LazyView(self, lambda: self._observe(player))

    def _observe(self, player: int) -> dict[str, Any]:
        e = self.eng
        mine = {k for k, s in self.seat.items() if s == player}
        chars = {}
        for f in e.fighters.values():
            chars[f.key] = {"side": f.side, "hp": f.hp, "alive": f.alive, "statuses": sorted(f.statuses),
                            "at": [list(hg.to_offset(h, e.map.style)) for h in f.hexes()], "deck": f.deck, "hand_size": f.hand.size,
                            "discard": dict(f.discard.known), "used": dict(f.used.known),
                            "hand": dict(f.hand.known) if f.key in mine else None}
        step, who = self._next_step()
        return {"player": player, "round": e.round, "acting": getattr(who, "key", None), "characters": chars,
                "rubble": sorted(e.rubble), "style": e.map.style, "map": self.setup.get("map")}

    # --- as a log -----------------------------------------------------------------------------
    def log_header(self) -> dict[str, Any]:
        owners: dict[str, list[str]] = {p: [] for p in self.players}
        for ch, i in self.seat.items():
            owners[self.players[i]].append(ch)
        return {"game": self.game.slug, "map": self.setup["map"], "boss": self.setup["boss"],
                "party": self.setup["party"], "players": owners}

    def log_events(self) -> list[dict[str, Any]]:
        out = [dict(e) for e in self.events]
        if self.eng.over and self.eng.winner in (BOSS, HEROES):
            out.append({"kind": "game_end", "winner": self.eng.winner})
        return out

    def clone(self) -> BossFightState:
        twin = _shallow(self)
        twin.eng = _copy_engine(self.eng)
        twin.step_at = None                 # it names the original's fighters
        twin.history = list(self.history)
        twin.events = list(self.events)
        twin.seat = dict(self.seat)
        return twin


#: each deck as built (a fighter's ``total``, shared by every copy): its cards in order, their counts, places
_DECKS: dict[int, tuple[Counter[str], list[str], list[int], dict[str, int]]] = {}


def _draw_left(f: Fighter) -> tuple[list[str], list[int]]:
    """The cards of ``f``'s deck in order, each with how many of it its next draw may show (0:
    none) — the deck; an empty deck is first reshuffled from the Discard and Expended piles."""
    deck = _DECKS.get(id(f.total))
    if deck is None or deck[0] is not f.total:
        if len(_DECKS) >= 1024:             # every game deals new decks: keep the recent ones only
            _DECKS.clear()
        cards = sorted(f.total)
        deck = _DECKS[id(f.total)] = (f.total, cards, [f.total[c] for c in cards],
                                      {c: i for i, c in enumerate(cards)})
    _, cards, total, place = deck
    left = list(total)
    for pile in (f.hand, f.used, f.discard, f.expended) if f.deck > 0 else (f.hand, f.used):
        for c, n in pile.known.items():     # (the piles hold a few cards; the deck's every card once)
            i = place.get(c)
            if i is not None:
                left[i] -= n
    return cards, [n if n > 0 else 0 for n in left]


#: a character's draw of a card (its fields as Action.make freezes them), made once
_DRAWS: Made[Action] = Made(lambda k: Action("draw", (("character", k[0]), ("cards", (k[1],)))))


@functools.cache
def _die(kind: str, sides: int, field: str, character: str | None = None) -> list[tuple[Action, float]]:
    """A die's outcomes (made once): a poisoned ``character``'s roll, or a defence roll."""
    return die_outcomes(kind, sides, field, character=character)


def new_state(game: Game, setup: Mapping[str, Any]) -> BossFightState:
    return BossFightState(game, setup)


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Every map × boss preset × party preset, each with a seating of 2–5 players (BF-PLAYERS-1:
    one boss player, the rest share the party), in an order shuffled by ``rng``."""
    maps = sorted(p.stem for p, _ in board_common.board_files(game.maps_dir, Problems()).get("map", []))
    presets = sorted(p.stem for p in (game.cards_dir / "presets").glob("*.yaml"))
    bosses = [p for p in presets if p.startswith("boss_")]
    parties = [p for p in presets if p.startswith("party_")]
    most = int(game.params["players"]["max"])
    out = []
    for m in maps:
        for b in bosses:
            for party in parties:
                setup = {"game": game.slug, "map": m, "boss": b, "party": party}
                heroes = [f.key for f in _engine(game, setup).heroes()]
                seats = 1 + rng.randrange(1, min(most - 1, len(heroes)) + 1)
                players: dict[str, list[str]] = {"p1": [BOSS]}
                for i, h in enumerate(heroes):
                    players.setdefault(f"p{2 + i % (seats - 1)}", []).append(h)
                out.append({**setup, "players": players})
    rng.shuffle(out)
    return out

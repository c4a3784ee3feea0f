"""Bones on Ice — the game state on the game-state API (:mod:`cardgen.play.api`): who acts, the legal
actions, the chance outcomes, applying them, the log (decisions and events:
``docs/engines-bones_on_ice.md``)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.core.record import record
from cardgen.games.bones_on_ice.moves import Moves, act
from cardgen.games.bones_on_ice.rules import Rules, die_sides, start_stamina
from cardgen.games.bones_on_ice.spirits import Spirits
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState, walk
from cardgen.play.dice import uniform_index
from cardgen.play.lookup import Names
from cardgen.play.params import per_game
from cardgen.play.view import KeyedView


@functools.cache
def two_dice(sa: int, sd: int, na: int = 1, nd: int = 1) -> list[tuple[Action, float]]:
    """The outcomes of a contested roll: a d``sa`` and a d``sd``, each pair equally likely; a side
    that rolls ``n`` > 1 dice (Dead Eye) shows the tuple of its values."""
    def faces(sides: int, n: int) -> list:
        return list(range(1, sides + 1)) if n == 1 else list(itertools.product(range(1, sides + 1), repeat=n))
    fa, fd = faces(sa, na), faces(sd, nd)
    p = 1.0 / (len(fa) * len(fd))
    return [(Action("rolls", (("rolls", (x, y)),)), p) for x in fa for y in fd]


@functools.cache
def scramble_roll(skater: str, die: int) -> list[tuple[Action, float]]:
    """A Scramble's die for ``skater``: each face equally likely."""
    return [(Action.make("scramble_roll", skater=skater, value=v), 1.0 / die) for v in range(1, die + 1)]


@record(frozen=True)
class Piece:
    """A skater as the state knows it (fixed for the game)."""

    id: str
    team: int
    role: str
    dice: dict[str, int]
    aliases: tuple[str, ...] = ()   # the card's name, its id without the team prefix


@record(frozen=True)
class Roster:
    """The teams and skater cards a log header may name: a team by its key or team name, a
    skater by its id, its name, or its id without the team prefix."""

    skaters: tuple[Card, ...]
    spirits: dict[str, Card]
    teams: Names[str]
    cards: Names[Card]

    @classmethod
    def of(cls, r: Rules) -> Roster:
        skaters = tuple(r.by_type.get("skater", []))
        spirits = {str(c.get("team")): c for c in r.by_type.get("spirit", [])}
        keys = sorted({str(c.get("team")) for c in skaters} | set(spirits))
        return cls(skaters, spirits,
                   Names("team", ((k, k) for k in keys),
                         lambda k: (str(spirits[k].get("team_name")),) if k in spirits else ()),
                   Names("skater card", ((c.id, c) for c in skaters),
                         lambda c: (c.name, c.id.removeprefix(f"{c.get('team')}_"))))

    def team_cards(self, key: str) -> list[Card]:
        return [c for c in self.skaters if str(c.get("team")) == key]


#: the last loaded game's setups, by their header's teams (see Setup.cached)
_SETUPS: Callable[[Game], dict[str, Setup]] = per_game(lambda game: {})


@record(frozen=True)
class Setup:
    """What does not change during a game: the rules, the two teams and their skaters."""

    rules: Rules
    teams: tuple[str, ...]
    names: tuple[str, ...]
    pieces: tuple[Piece, ...]
    spirits: tuple[Card | None, ...]
    #: read once for the hot path: each team's Team Spirit effect (None: no card, or no effect
    #: entry), each skater's index by id, each team's Goalie
    spirit_fx: tuple[dict[str, Any] | None, ...] = ()
    index: dict[str, int] = field(default_factory=dict)
    goalies: tuple[int, ...] = ()
    moves: Moves | None = None
    #: the skater cards as an observation shows them (shared by every observation: read only)
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: by team: its Team Spirit's kind (None: none) and Stamina cost, read once
    spirit_kind: tuple[str | None, ...] = (None, None)
    spirit_cost: tuple[int, ...] = (0, 0)
    #: by team: its starting Stamina (:func:`~cardgen.games.bones_on_ice.rules.start_stamina`)
    stamina: tuple[int, ...] = ()

    @classmethod
    def cached(cls, game: Game, header: dict[str, Any]) -> Setup:
        """:meth:`of`, kept for the last loaded game (a simulation sets up the same pairings again)."""
        key, made = repr(header.get("teams")), _SETUPS(game)
        if key not in made:
            made[key] = cls.of(game, header)
        return made[key]

    @classmethod
    def of(cls, game: Game, header: dict[str, Any]) -> Setup:
        """The setup a log header gives: its two ``teams`` (a key or a team name), each with
        its four skater cards or the ``skaters`` it names (an id, a name, an id without the
        team prefix). A name that matches nothing raises :class:`~cardgen.play.lookup.NotFound`."""
        r = Rules.read(game)
        ro = Roster.of(r)
        spirits = ro.spirits
        keys, names, pieces = [], [], []
        for i, entry in enumerate(header.get("teams") or []):
            key = ro.teams.find(entry["team"] if isinstance(entry, dict) else entry)
            keys.append(key)
            names.append(str(spirits[key].get("team_name")) if key in spirits else key)
            chosen = entry.get("skaters") if isinstance(entry, dict) else None
            line_up = [ro.cards.find(n) for n in chosen] if chosen else ro.team_cards(key)
            for c in line_up:
                pieces.append(Piece(c.id, i, str(c.get("role")),
                                    {s: die_sides(c.get(s)) for s in ("reflexes", "marksmanship")},
                                    (c.name, c.id.removeprefix(f"{c.get('team')}_"))))
        cards_of = tuple(spirits.get(k) for k in keys)
        fx = tuple(r.effect("spirit_effects", c) if c is not None and c.id in r.spirit_effects else None
                   for c in cards_of)
        goalies = tuple(next((i for i, p in enumerate(pieces) if p.team == t and p.role == r.goalie_role), -1)
                        for t in range(len(keys)))
        return cls(r, tuple(keys), tuple(names), tuple(pieces), cards_of, fx,
                   {p.id: i for i, p in enumerate(pieces)}, goalies, Moves.of(r, keys, pieces),
                   {p.id: {"team": keys[p.team], "role": p.role, **p.dice} for p in pieces},
                   tuple(e["effect"] if e else None for e in fx),
                   tuple(int(c.get("cost") or 0) if c is not None else 0 for c in cards_of),
                   tuple(start_stamina(r, c) for c in cards_of))


class BoiState(Spirits, GameState):
    """One position of a game of Bones on Ice."""

    def __init__(self, setup: Setup, fresh: bool = True, log: bool = False):
        self.s = setup
        self.r = setup.rules
        self.players = list(setup.teams)
        if not fresh:
            return
        r = self.r
        self.history: list[Action] = []
        #: the playtest log's events, kept only by a state that writes a log (``log``; a state
        #: that does not gives :meth:`log_events` by replaying its actions on one that does)
        self.log = log
        self.events: list[dict[str, Any]] = []
        self.round = 0
        self.phase = "round"             # round chaos penalty faceoff scramble mid pass mid_over shootout over
        self.stamina = list(setup.stamina) if len(setup.stamina) == 2 else [r.st_start, r.st_start]
        self.score = [0, 0]
        self.so = [0, 0]
        self.touched = [False, False]
        self.m: Moves = setup.moves or Moves.of(r, setup.teams, setup.pieces)
        self.pos = list(self.m.start)
        self.active: int | None = None
        self.puck: int | None = None
        self.acted = [0] * len(setup.pieces)    # actions taken this Mid-Game, by skater
        self.extra = [0] * len(setup.pieces)    # more actions allowed (Bone Rush)
        self.spirit_uses = [0, 0]
        self.grave = [False, False]             # Defense Bonus everywhere this Mid-Game (Grave Wall)
        self.picks: list[int] = []       # the Face-Off skaters picked so far
        self.effect: dict[str, Any] = {}  # this round's Chaos entry's effect
        self.entry_id: str | None = None
        self.penalty_queue: list[int] = []
        self.power_play: int | None = None
        self.no_boost = False
        self.roll_bonus: tuple[int, int] | None = None
        self.scramble_due = False
        self.scramble: dict[str, Any] | None = None
        self.last_fo: int | None = None
        self.shot: int | None = None
        self.shot_pos = 0
        self.pass_info: tuple[int, int] | None = None
        self.shots: list[tuple[int, bool]] = []
        self.winner: int | None = None
        self.decided_by: str | None = None
        self.roll: dict[str, Any] | None = None

    # -- the API ----------------------------------------------------------------------------
    def clone(self) -> BoiState:
        c = BoiState(self.s, fresh=False)
        c.__dict__.update(self.__dict__)
        c.history, c.events = list(self.history), list(self.events)
        c.stamina, c.score, c.so, c.touched = list(self.stamina), list(self.score), list(self.so), list(self.touched)
        c.pos, c.acted, c.extra, c.picks = list(self.pos), list(self.acted), list(self.extra), list(self.picks)
        c.spirit_uses, c.grave = list(self.spirit_uses), list(self.grave)
        c.penalty_queue, c.shots = list(self.penalty_queue), list(self.shots)
        if self.scramble is not None:
            c.scramble = {"left": list(self.scramble["left"]), "rolls": dict(self.scramble["rolls"])}
        if self.roll is not None:
            c.roll = dict(self.roll, ev=dict(self.roll["ev"]), boosts=list(self.roll["boosts"]),
                          order=list(self.roll["order"]), spirited=list(self.roll["spirited"]))
        return c

    def current_player(self) -> int:
        ph = self.phase
        if ph == "over":
            return TERMINAL
        if self.roll is not None:
            st = self.roll["stage"]
            return CHANCE if st == "dice" else self.roll["chooser"]
        if ph == "mid" or ph == "mid_over":
            return self.active if self.active is not None else 0
        if ph == "window":
            return 1 - self.active if self.active is not None else 0
        if ph in ("round", "chaos", "scramble"):
            return CHANCE
        if ph == "penalty":
            return self.penalty_queue[0]
        if ph == "faceoff":
            return self.power_play if self.power_play is not None else len(self.picks)
        if ph == "pass":
            return 1 - self.s.pieces[self.pass_info[0]].team if self.pass_info else 0
        if ph == "shootout":
            return self.due_shooter()
        return self.active if self.active is not None else 0

    def legal_actions(self) -> list[Action]:
        roll, m = self.roll, self.m
        if roll is not None and self.phase != "over":   # a roll's stage (as current_player() reads it)
            stage = roll["stage"]
            if stage == "dice":
                return []
            who = roll["chooser"]
            return list(m.defend[who]) if stage == "defend" else self.stage_options(who)
        who = self.current_player()
        if who < 0:                     # chance or the end
            return []
        ph = self.phase
        if ph == "mid":
            return self.mid_actions(who) + [m.recovery]
        if ph == "faceoff":
            return list(m.faceoff[who])
        if ph == "pass":
            return [m.no_intercept, *m.intercept[who]] if self.stamina[who] >= self.r.costs["interception"] \
                else [m.no_intercept]
        if ph == "mid_over":
            return [m.recovery]
        if ph == "penalty":
            role = self.effect.get("shooter")
            return [act("penalty_shot", skater=p.id) for p in self.s.pieces
                    if p.team == who and (p.role == role if role else p.role in self.r.acting_roles)]
        if ph == "shootout":
            return list(m.shootout[who])
        if ph == "window":
            return list(m.window[who])
        return self.mid_actions(who) + [m.recovery]

    def mid_actions(self, team: int) -> list[Action]:
        """The active team's Mid-Game actions (BOI-MID-1…5)."""
        r, m, pos, out = self.r, self.m, self.pos, []
        last = len(r.zones) - 1
        acted, extra = self.acted, self.extra
        can = [i for i in m.acting[team] if acted[i] < 1 + extra[i]]
        c = self.puck
        if c is not None and c in can:
            here = pos[c]
            if here > 0:
                out.append(m.move[c][here - 1])
            if here < last:
                out.append(m.move[c][here + 1])
            out.append(m.shoot[c])
            if self.stamina[team] >= r.costs["pass"]:
                out += [a for i, a in enumerate(m.passes[c]) if a is not None and abs(pos[i] - here) <= 1]
        if self.stamina[team] >= r.costs["tactical_move"]:
            for i in can:
                if i != c:
                    here = pos[i]
                    if here > 0:
                        out.append(m.tactical[i][here - 1])
                    if here < last:
                        out.append(m.tactical[i][here + 1])
        if self.s.spirit_kind[team] == "extra_action" and self.spirit_ok(team):
            out += [m.spirit[team][i] for i in m.acting[team] if acted[i] >= 1]
        return out

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        roll = self.roll
        if roll is not None and roll["stage"] == "dice" and self.phase != "over":
            return two_dice(*roll["sides"], *roll["best"])
        if self.current_player() != CHANCE:
            return []
        r = self.r
        if self.phase == "round":
            return [self.m.rounds[self.round]]
        if self.phase == "chaos":
            return list(self.m.chaos)
        assert self.scramble is not None       # the phase of a scramble
        sk = self.scramble["left"][0]
        die = int(self.effect.get("die") or r.chaos_die)
        return scramble_roll(self.s.pieces[sk].id, die)

    def sample_chance(self, r: float) -> Action | None:
        """The outcome :meth:`chance_outcomes`' walk falls on for ``r``: a roll's pair of dice by
        its index among the 32–144 equally likely pairs (near a boundary: the walk); a single
        die or a round's start is walked (as cheap as computed)."""
        roll = self.roll
        if roll is not None and roll["stage"] == "dice" and self.phase != "over":
            outs = two_dice(*roll["sides"], *roll["best"])
            i = uniform_index(r, len(outs))
            return walk(outs, r) if i is None else outs[i][0]
        outs = self.chance_outcomes()
        return walk(outs, r) if outs else None

    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0, 0.0]
        if self.winner is None:
            return [0.5, 0.5]
        return [1.0 if i == self.winner else 0.0 for i in range(2)]

    def result(self) -> dict[str, Any]:
        keys = self.players
        return {
            "winner": keys[self.winner] if self.winner is not None else None,
            "decided_by": self.decided_by,
            "round": self.round,
            "score": {k: self.score[i] for i, k in enumerate(keys)},
            "shootout": {k: self.so[i] for i, k in enumerate(keys)} if self.shots else None,
            "stamina": {k: self.stamina[i] for i, k in enumerate(keys)},
            "teams": {k: {"name": self.s.names[i], "score": self.score[i], "stamina": self.stamina[i],
                          "shootout": self.so[i], "skaters": [p.id for p in self.s.pieces if p.team == i]}
                      for i, k in enumerate(keys)},
        }

    def observation(self, player: int) -> Mapping[str, Any]:
        """Everything on the table is public in Bones on Ice: the rink, the puck, Stamina, score
        (built when an agent first reads it: a random agent never does)."""
        return KeyedView(self, SEEN, player)

    def log_header(self) -> dict[str, Any]:
        teams: list[dict[str, Any]] = []
        for i, k in enumerate(self.players):
            line_up = [p.id for p in self.s.pieces if p.team == i]
            default = [c.id for c in self.r.by_type.get("skater", []) if str(c.get("team")) == k]
            teams.append({"team": k} if line_up == default else {"team": k, "skaters": line_up})
        return {"game": "bones_on_ice", "teams": teams}

    def log_events(self) -> list[dict[str, Any]]:
        if not self.log:                # the events are written by a state that keeps a log
            twin = BoiState(self.s, log=True)
            for a in self.history:
                twin.apply_action(a)
            return twin.log_events()
        return [dict(e) for e in self.events]


def _roll(st: BoiState) -> dict[str, Any] | None:
    roll, P = st.roll, st.s.pieces
    return None if roll is None else {
        "kind": roll["kind"], "stage": roll["stage"], "boosts": [st.players[t] for t in roll["boosts"]],
        "a": P[roll["a"]].id, "d": P[roll["d"]].id if roll["d"] is not None else None}


#: an observation's entries, each read from the state on its own (an agent reads a few)
SEEN: dict[str, Callable[[BoiState, int], Any]] = {
    "player": lambda st, p: p, "team": lambda st, p: st.players[p], "round": lambda st, p: st.round,
    "phase": lambda st, p: st.phase, "score": lambda st, p: list(st.score),
    "stamina": lambda st, p: list(st.stamina), "shootout": lambda st, p: list(st.so),
    "active": lambda st, p: st.active,
    "puck": lambda st, p: st.s.pieces[st.puck].id if st.puck is not None else None,
    "zones": lambda st, p: dict(zip(st.s.index, [(st.r.zones if p == 0 else st.r.zones[::-1])[x]
                                                 for x in st.pos])),
    "acted": lambda st, p: sorted(st.s.pieces[i].id for i, n in enumerate(st.acted) if n),
    "chaos": lambda st, p: st.entry_id, "skaters": lambda st, p: st.s.cards,
    "roll": lambda st, p: _roll(st)}

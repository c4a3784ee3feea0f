"""Loot & Battles — the game state on the game-state API (:mod:`cardgen.play.api`): its phases,
actions, chance nodes and log in ``docs/engines-loot_battles.md`` ("State and phases", "The log")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.games.loot_battles.header import class_of
from cardgen.games.loot_battles.play_fight import NONE, Fight, as_event
from cardgen.games.loot_battles.rules import Rules
from cardgen.games.loot_battles.state import UNKEPT, Battle, Encounter, Enemy, Player
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState, walk
from cardgen.play.dice import deck_pick, uniform_index
from cardgen.play.hidden import counts
from cardgen.play.params import Params, per_game
from cardgen.play.view import LazyView


def rules_of(game: Game) -> Rules:
    """The rules of a loaded game (its params and cards), read anew."""
    return Rules(game, Params.of(game))


#: the rules read once per loaded game, shared by its states
shared_rules = per_game(rules_of)


_TURN = frozenset(("attack", "pass", "heal", "end_turn"))
_DECKS = frozenset(("loot", "draw", "reinforce"))


class LootState(Fight, GameState):
    """One position of a Loot & Battles game."""

    #: slots, copied one by one by :meth:`clone` (a copy made through ``__dict__`` reads its
    #: attributes three times slower)
    __slots__ = ("game", "rules", "setup", "seats", "players", "seat_of", "history", "events", "leader",
                 "target", "battles_won", "battle", "winner", "stalemate", "rounds_played", "knockouts",
                 "fought", "enc_deck", "loot_deck", "pool", "_shared", "drawn", "need", "turn_open",
                 "pending", "_cp", "_nxt", "loot_due", "phase", "record")

    def __init__(self, game: Game, setup: Mapping[str, Any], record: bool = True):
        self.game = game
        self.rules = r = shared_rules(game)
        self.setup = dict(setup)
        classes = r.by_type.get("class", [])
        self.seats: list[Player] = []
        for entry in setup.get("players") or []:
            # an unknown class: named by the header's check
            cls = class_of(classes, entry.get("class")) or classes[0]
            self.seats.append(r.new_player(str(entry["name"]), cls))
        self.players = [p.name for p in self.seats]
        self.seat_of = {p.name: i for i, p in enumerate(self.seats)}   # never changes: clones share it
        self.history: list[Action] = []
        # False (the package's, for play): no event made; log_events replays a twin
        self.record = record
        self.events: list[dict[str, Any]] = [] if record else UNKEPT
        self.leader = 0
        self.target = r.battles_to_win(len(self.seats)) or 1
        self.battles_won = 0
        self.battle: Battle | None = None
        self.winner: str | None = None
        self.stalemate = False
        self.rounds_played = 0
        self.knockouts: Counter = Counter()     # by Encounter card (measures)
        self.fought: Counter = Counter()
        self.enc_deck = counts(r.deck["encounter"])
        self.loot_deck = counts(r.deck["loot"])
        self.pool: Counter = Counter()
        self._shared = False                # the five tallies above shared with a clone: copy before a change
        self.drawn: list[Any] = []          # the chance node in progress: cards drawn, or placement dice
        self.need = 0                       # how many more that chance node draws
        self.turn_open: str | None = None
        self.pending: dict[str, Any] | None = None
        self._cp: int | None = None         # current_player(), until the next action
        self._nxt: Player | Enemy | None | bool = False     # who is next in the round (False: not known)
        self.loot_due = len(self.seats) if setup.get("starting_loot") else 0
        self.phase = "loot" if self.loot_due else "choose"
        self._enter()

    # -- the flow between phases --------------------------------------------------------------

    def _enter(self) -> None:
        """Settle the phase: skip what has nothing to do."""
        if self.phase == "loot":
            self.need = min(self.loot_due, sum(self.loot_deck.values()))
            if self.need == 0:
                self._after_loot()
        elif self.phase == "draw":
            self.need = self.rules.n_drawn
            if sum(self.enc_deck.values()) < self.need:      # LB-SETUP-3 ruling: discards shuffled back
                self.enc_deck = counts(self.rules.deck["encounter"])
        elif self.phase == "reinforce":
            b = self.battle
            assert b is not None
            self.need = int(b.first.get("reinforcement") or 0)
            if self.need == 0:
                self.phase = "place"
                self._enter()
            elif sum(self.enc_deck.values()) < self.need:
                self.enc_deck = counts(self.rules.deck["encounter"])
                self.enc_deck[b.first.id] -= 1
        elif self.phase == "place":
            enc = self._enc()
            self.need, self.drawn = self.rules.enemy_count(enc.card, enc.reinforcement), []

    def _after_loot(self) -> None:
        if self.drawn:
            self.events.append({"kind": "loot_drawn", "cards": list(self.drawn)})
            self.drawn = []
        self.loot_due = 0
        if self.winner is not None:
            self.phase = "over"
        else:
            self.phase = "equip"

    def _enc(self) -> Encounter:
        b = self.battle
        assert b is not None
        return b.queue[b.index]

    def _start_battle(self, card: Card) -> None:
        self.battle = Battle(self.battles_won + 1, card, [Encounter(card, False)])
        self.phase = "reinforce"
        self._enter()

    # -- the API ------------------------------------------------------------------------------

    def current_player(self) -> int:
        cp = self._cp
        if cp is None:
            cp = self._cp = self._current()
        return cp

    def _current(self) -> int:
        ph = self.phase
        if ph == "over":
            return TERMINAL
        if ph in ("loot", "draw", "reinforce", "place") or self.pending is not None:
            return CHANCE
        if ph == "fight":
            if self.turn_open is not None:
                return self.seat_of[self.turn_open]
            nxt = self._nxt
            if nxt is False:
                nxt = self._nxt = self._next_in_round(self._enc())
            if isinstance(nxt, Player):
                return self.seat_of[nxt.name]
            return CHANCE           # an enemy's attack (or the round's end, settled on apply)
        return self.leader          # choose, pick, equip: the Leader speaks for the party

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.pending is not None:
            return self.rules.attack_dice
        ph = self.phase
        if ph == "fight" and (self._cp if self._cp is not None else self.current_player()) == CHANCE:
            b = self.battle
            assert b is not None
            due = self._enemies_due(b.queue[b.index], self._nxt)
            return [(self.rules.one("enemy_turn", "enemy", e.name), 1.0 / len(due)) for e in due]
        if ph == "loot":
            return self.rules.draws(self.loot_deck)
        if ph in ("draw", "reinforce"):
            return self.rules.draws(self.enc_deck)
        if ph == "place":
            return self.rules.dice[("place", self.rules.target_die)]
        return []

    def sample_chance(self, r: float) -> Action | None:
        """The outcome :meth:`chance_outcomes`' walk falls on for ``r``, computed where the walk
        would cost: a blow's die and the enemy due as an index among equally likely outcomes, a
        card drawn by its deck's counts (near a boundary: the walk)."""
        if self.pending is not None:
            dice = self.rules.attack_dice
            i = uniform_index(r, len(dice))
            return dice[i][0] if i is not None else walk(dice, r)
        ph = self.phase
        if ph == "fight" and (self._cp if self._cp is not None else self.current_player()) == CHANCE:
            b = self.battle
            assert b is not None
            due = self._enemies_due(b.queue[b.index], self._nxt)
            i = uniform_index(r, len(due))
            if i is not None:
                return self.rules.one("enemy_turn", "enemy", due[i].name)
        elif ph in _DECKS:
            card = deck_pick(r, self.loot_deck if ph == "loot" else self.enc_deck)
            if card is not None:
                return self.rules.one("draw", "card", card)
        outs = self.chance_outcomes()
        return walk(outs, r) if outs else None

    def legal_actions(self) -> list[Action]:
        who = self._cp if self._cp is not None else self.current_player()
        if who < 0:
            return []
        ph, r = self.phase, self.rules
        if ph == "fight":
            p = self.seats[who]
            b = self.battle
            assert b is not None
            enc = b.queue[b.index]
            turn = self._spec(p, enc)
            if self.turn_open is not None:
                return [*self._attacks(p, enc, turn), turn.end]
            return [*self._attacks(p, enc, turn), *self._heals(p, turn), turn.pass_]
        leader = self.players[self.leader]
        if ph == "choose":
            return [self.rules.act("encounter_chosen", encounter=c.id, by=leader)
                    for c in r.by_type.get("encounter", [])
                    if c.get("loot") in r.first_loot and self.enc_deck[c.id]]
        if ph == "pick":
            return [self.rules.act("encounter_drawn", pick=c, by=leader) for c in dict.fromkeys(self.drawn)]
        if ph == "equip":       # each player's choices, read once per kit: the cards in the pool filtered
            pool = sorted([c for c, n in self.pool.items() if n])
            out: list[Action] = []
            for p in self.seats:
                out += r.kit_choices(p.name, tuple(p.equipment), pool)
            out.append(r.one("ready", "by", leader))
            return out
        return []

    def apply_action(self, action: Action) -> None:
        self._cp, self._nxt = None, False
        self.history.append(action)
        k, r = action.kind, self.rules
        if k == "die":
            pend = self.pending
            assert pend is not None
            dice = pend["dice"]
            dice.append(action["value"])
            if len(dice) >= pend["n"]:
                self._resolve()
                self._settle()
            elif self.phase != "over":
                self._cp = CHANCE       # more dice to roll
        elif k == "enemy_turn":
            enc = self._enc()
            self._start_enemy_attack(enc.enemy(action["enemy"]), enc, action.get("target"))
            self._cp = CHANCE           # its dice
        elif k in _TURN:
            self._turn(action)
        elif k == "draw":
            card = action["card"]
            self.drawn.append(card)
            self._unshare()
            if self.phase == "loot":
                self.loot_deck[card] -= 1
                self.pool[card] += 1
            else:
                self.enc_deck[card] -= 1
            self.need -= 1
            if self.need == 0:
                self._drawn()
        elif k == "place":
            self.drawn.append(action["value"])
            self.need -= 1
            if self.need == 0:
                self._place()
        elif k in ("encounter_chosen", "encounter_drawn"):
            card = r.cards[action.get("encounter") or action["pick"]]
            if k == "encounter_chosen":
                self._unshare()
                self.enc_deck[card.id] -= 1
                self.events.append({"kind": k, "encounter": card.id, "by": action["by"]})
            else:
                self.events.append({"kind": k, "cards": list(self.drawn), "pick": card.id,
                                    "by": action["by"]})
                self.drawn = []
            self._start_battle(card)
        elif k == "equip" or k == "unequip":
            p = self._by(action["player"])
            self._unshare()
            if k == "equip":        # (a log's equip of loot never drawn is followed: the pool stays at 0)
                self.pool[action["card"]] = max(0, self.pool[action["card"]] - 1)
                p.equipment.append(action["card"])
            elif action["card"] in p.equipment:
                p.equipment.remove(action["card"])
                self.pool[action["card"]] += 1
            r.refresh(p, full=True)
            self.events.append(as_event(action))
        elif k == "ready":
            self.phase = "draw" if self.battles_won else "choose"
            self._enter()
        else:
            self._turn(action)

    def _turn(self, a: Action) -> None:
        enc = self._enc()
        k = a.kind
        if k == "attack":
            self._start_attack(a, enc)
            if self.pending is None:
                self._settle()
            return
        if k == "end_turn":
            self.turn_open = None
        else:
            p = self._by(a["player"])
            enc.acted.add(p.name)
            enc.turn[p.name] = enc.turn.get(p.name, NONE) | {k}
            ev = as_event(a) if self.record else {}
            if k == "heal":
                t = self._by(a["target"])
                t.health = min(t.max_health, t.health + int(self.rules.cards[a["with"]].get("health") or 0))
                ev["hp_left"] = t.health
            self.events.append(ev)
        self._settle()

    def _settle(self) -> None:
        """After a blow or a turn: close a complete round (the next one then begins)."""
        b = self.battle
        if self.phase == "fight" and b is not None and self.pending is None and self.turn_open is None:
            enc = b.queue[b.index]
            nxt = self._next_in_round(enc)
            if nxt is None and not enc.cleared():
                self._end_round(enc)
            else:
                self._nxt = nxt         # who acts next, and so current_player()
                if nxt is not None:
                    self._cp = self.seat_of[nxt.name] if type(nxt) is Player else CHANCE

    def _drawn(self) -> None:
        if self.phase == "loot":
            self._after_loot()
        elif self.phase == "draw":
            self.phase = "pick"
        else:
            b = self.battle
            assert b is not None
            self.events.append({"kind": "reinforcements_drawn", "cards": list(self.drawn)})
            b.queue += [Encounter(self.rules.cards[c], True) for c in self.drawn]
            self.drawn = []
            self.phase = "place"
            self._enter()

    def _place(self) -> None:
        r, enc = self.rules, self._enc()
        rolls, self.drawn = list(self.drawn), []
        owner = {n: name for name, nums in r.default_numbers(self.seats).items() for n in nums}
        ecard = r.enemy_cards[str(enc.card.get("enemy"))]
        enc.enemies = [r.new_enemy(ecard, i, owner[v]) for i, v in enumerate(rolls)]
        enc.placed = True
        self._unshare()
        self.fought[enc.card.id] += 1
        for p in self.seats:
            if not p.ko:
                p.armor = p.max_armor
        self.events.append({"kind": "enemies_placed", "rolls": rolls})
        self.phase = "fight"

    def _end_encounter(self, enc: Encounter) -> None:
        super()._end_encounter(enc)
        if self.battle is not None and self.battle.current is not None:
            self.phase = "place"
            self._enter()

    # -- the end, what players see, the log -----------------------------------------------------

    def returns(self) -> list[float]:
        return [1.0 if self.winner == "players" else 0.0] * len(self.seats)

    def result(self) -> dict[str, Any]:
        b = self.battle
        enc = b.current if b is not None else None
        return {
            "winner": self.winner, "battles_won": self.battles_won, "battles_to_win": self.target,
            "leader": self.players[self.leader],
            "players": {p.name: {"class": p.cls.get("class") if p.cls else None, **p.as_dict(),
                                 "equipment": list(p.equipment)} for p in self.seats},
            "enemies_left": ({e.name: {"health": e.health, "armor": e.armor, "dodge": e.dodge,
                                       "front": e.front}
                              for e in enc.alive()} if enc is not None and enc.placed else {}),
            "loot_pool": sorted(self.pool.elements()),
        }

    def observation(self, player: int) -> Mapping[str, Any]:
        """Everything is face up: the table as ``result`` gives it, the phase and the choices
        (built when an agent reads it: a random playout never does)."""
        return LazyView(self, lambda: self._observe(player))

    def _observe(self, player: int) -> dict[str, Any]:
        obs = self.result()
        obs.update(me=self.players[player], phase=self.phase, drawn=list(self.drawn),
                   max_health={p.name: p.max_health for p in self.seats},
                   round=self.battle.current.round if self.battle and self.battle.current else None)
        return obs

    def log_header(self) -> dict[str, Any]:
        return {"game": self.game.slug, "rules_version": str(self.game.meta.get("version") or "1.0"),
                "players": [{"name": p.name, "class": p.cls.id if p.cls else None} for p in self.seats],
                "battles_to_win": self.target, "starting_loot": bool(self.setup.get("starting_loot"))}

    def log_events(self) -> list[dict[str, Any]]:
        if not self.record:         # written by replaying the game on a twin that records
            twin = LootState(self.game, self.setup)
            for a in self.history:
                twin.apply_action(a)
            return twin.log_events()
        return [dict(e) for e in self.events]

    def clone(self) -> LootState:
        # the decks, the pool and the tallies: copied by whichever changes one first
        self._shared = True
        new = object.__new__(LootState)
        new.game, new.rules, new.setup, new.players, new.seat_of = (
            self.game, self.rules, self.setup, self.players, self.seat_of)
        new.seats = [p.copy() for p in self.seats]
        new.battle = self.battle.copy() if self.battle is not None else None
        new.history, new.drawn, new.record = list(self.history), list(self.drawn), self.record
        new.events = list(self.events) if self.record else UNKEPT
        new.leader, new.target, new.battles_won = self.leader, self.target, self.battles_won
        new.winner = self.winner
        new.stalemate, new.rounds_played, new.need, new.loot_due = (
            self.stalemate, self.rounds_played, self.need, self.loot_due)
        new.knockouts, new.fought, new.enc_deck, new.loot_deck, new.pool, new._shared = (
            self.knockouts, self.fought, self.enc_deck, self.loot_deck, self.pool, True)
        new.turn_open, new.phase, new._cp, new._nxt = self.turn_open, self.phase, self._cp, False
        new.pending = self._remap(self.pending, new) if self.pending is not None else None
        if self.__dict__:       # (attributes beyond the slots, a test's or a tool's: kept)
            new.__dict__.update(self.__dict__)
        return new

    def _unshare(self) -> None:
        """Before a change to a deck, the pool or a tally: this state's own copies, if a clone shares them."""
        if self._shared:
            self._shared = False
            self.enc_deck, self.loot_deck = counts(self.enc_deck), counts(self.loot_deck)
            self.pool = counts(self.pool)
            self.knockouts, self.fought = counts(self.knockouts), counts(self.fought)

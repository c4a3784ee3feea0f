"""Loot & Battles — the referee of a playtest log (``cardgen check loot_battles LOG``).

Maps each log event onto the game's state (``state.py``) with the rules of ``rules.py`` — the
same rules the playable state (``play.py``) generates its legal actions from. An event the
rules do not allow is reported with the catalogue rule whose condition failed; stated
consequences are compared with the computed ones; the event is then applied as recorded,
and the log's own markers (``round_end``, ``encounter_end``, ``battle_end``,
``leader_passed``) keep the replay in step, so one slip is one problem.

Rules enforced (catalogue ``specs/rules/loot_battles.md``): LB-SETUP-1…4, LB-TGT-1,
LB-ATK-1…4, LB-DMG-1, LB-RND-1, LB-ENC-1, LB-LOOT-1, LB-EQUIP-1, LB-END-1, and the
checker's rulings listed in ``docs/playtest-logs.md`` (LB-HEAL-1 among them). The event
handlers are grouped by topic in ``engine_setup.py``, ``engine_round.py``,
``engine_attack.py`` and ``engine_end.py``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.games.loot_battles.engine_attack import AttackEvents
from cardgen.games.loot_battles.engine_end import EndEvents
from cardgen.games.loot_battles.engine_round import RoundEvents
from cardgen.games.loot_battles.engine_setup import SetupEvents
from cardgen.games.loot_battles.rules import Rules
from cardgen.games.loot_battles.state import Battle, Encounter, Enemy, Player
from cardgen.games.loot_battles.vocab import EVENTS, HEADER
from cardgen.play.lookup import Names, NotFound, nearest
from cardgen.play.referee import BaseEngine


class Engine(SetupEvents, RoundEvents, AttackEvents, EndEvents, BaseEngine):
    """Replays a Loot & Battles playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "LB-END-1", "battles_won": "LB-END-1", "players": "LB-DMG-1", "health": "LB-DMG-1",
        "knocked_out": "LB-DMG-1", "armor": "LB-RND-1", "dodge": "LB-ATK-3", "equipment": "LB-EQUIP-1",
        "leader": "LB-LOOT-1", "enemies_left": "LB-DMG-1", "loot_pool": "LB-LOOT-1",
    }
    ACK_KINDS = ("round_end", "encounter_end", "battle_end")

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "LB-END-1"
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        self.rules = r = Rules(game, self.p)
        self.n_min, self.n_max, self.win_table = r.n_min, r.n_max, r.win_table
        self.first_loot, self.n_drawn = r.first_loot, r.n_drawn
        self.target_die, self.attack_die, self.dodge_loss = r.target_die, r.attack_die, r.dodge_loss
        self.equip_limits, self.hands, self.hands_used = r.equip_limits, r.hands, r.hands_used
        self.cards, self.by_type, self.enemy_cards = r.cards, r.by_type, r.enemy_cards
        self._card_names: dict[tuple[str, ...], Names[Card]] = {}
        # state
        self.players: list[Player] = []
        self.by_name: dict[str, Player] = {}
        self.player_names: Names[Player] = Names("player", [])
        self.leader = 0
        self.target: int | None = None
        self.battles_won = 0
        self.battles_started = 0
        self.battle: Battle | None = None
        self.first_done = False
        self.winner: str | None = None
        self.loot_due = 0
        self.loot_for = ""
        self.loot_out: Counter = Counter()
        self.loot_unknown = 0
        self.pool: Counter = Counter()
        self.pool_unknown = 0
        self.enc_out: Counter = Counter()
        self.enc_unknown = 0
        self.last_encounter: Encounter | None = None    # ended, awaiting an optional encounter_end
        self.round_ack = False
        self.last_battle: dict | None = None            # ended, awaiting an optional battle_end
        self.rounds_marked = False                      # the log writes round_end markers
        self.after_end = 0                              # the line of the first event after the end
        self.battles_shift = 0                          # the log's Battles won minus the replay's

    # -- names in the log -------------------------------------------------------------------

    def _card_lookup(self, kinds: tuple[str, ...]) -> Names[Card]:
        names = self._card_names.get(kinds)
        if names is None:
            names = Names(" or ".join(kinds) + " card",
                          [(c.id, c) for k in kinds for c in self.by_type.get(k, [])], lambda c: [c.name])
            self._card_names[kinds] = names
        return names

    def _find_card(self, value: Any, kinds: tuple[str, ...], ev: Event, fname: str) -> Card:
        """A card of one of ``kinds`` by id or name, with "did you mean"."""
        try:
            return self._card_lookup(kinds).find(value)
        except NotFound as e:
            msg = (f"'{fname}': {e.message}" if "could be" in e.message
                   else f"'{fname}' names no {' or '.join(kinds)} card: {value!r}")
            raise LogError("LOG-FIELD", msg, ev.at(fname), e.hint) from None

    def _find_player(self, value: Any, ev: Event | None, fname: str, loc: Loc | None = None) -> Player:
        try:
            return self.player_names.find(value)
        except NotFound as e:
            hint = e.hint if e.hint and e.hint.startswith("did you mean") else f"players: {', '.join(self.by_name)}"
            raise LogError("LOG-FIELD", f"'{fname}' names no player: {value!r}", loc or (ev.at(fname) if ev else None),
                           hint) from None

    def _find_enemy(self, value: Any, enc: Encounter, ev: Event, fname: str) -> Enemy:
        s = str(value).strip()
        if "#" in s:
            prefix, _, num = s.rpartition("#")
        else:
            m = re.fullmatch(r"(.*?)\s*(\d+)", s)
            prefix, num = (m.group(1), m.group(2)) if m else (s, "")
        prefix = prefix.strip().lower()
        ecard = enc.enemies[0].card if enc.enemies else None
        names = {""}
        if ecard is not None:
            names |= {ecard.id.lower(), ecard.name.lower(), ecard.name.lower() + "s", ecard.id.lower().rstrip("s")}
        if prefix not in names or not num.isdigit() or not 1 <= int(num) <= len(enc.enemies):
            refs = f"{enc.enemies[0].name} … {enc.enemies[-1].name}" if enc.enemies else "none"
            raise LogError("LOG-FIELD", f"'{fname}' names no enemy of this Encounter: {value!r} (enemies: {refs})",
                           ev.at(fname))
        return enc.enemies[int(num) - 1]

    def _state_lines(self, title: str, enc: Encounter | None) -> None:
        self.ref.trace(f"      {title}")
        self.ref.trace("        players: " + " · ".join(p.brief() for p in self.players))
        if enc is not None:
            alive = enc.alive()
            self.ref.trace("        enemies: " + (" · ".join(f"{e.brief()} →{e.front}" for e in alive)
                                                  if alive else "none left"))

    def start(self) -> None:
        raw = self.header.get("players") or []
        classes = self.by_type.get("class", [])
        if not classes:
            raise LogError("LOG-GAME", "the game has no class cards", self.head_loc)
        for i, entry in enumerate(raw):
            loc = self.header_locs.get(f"players[{i}]", self.head_loc)
            name = str(entry.get("name"))
            if name in self.by_name:
                raise LogError("LOG-FIELD", f"two players are called {name!r}", loc)
            want = str(entry.get("class")).strip().lower()
            cls = next((c for c in classes if want in (c.id.lower(), str(c.get("class")).lower(), c.name.lower())),
                       None)
            near = nearest(want, [n for c in classes for n in (str(c.get("class")), c.id)]) if cls is None else []
            if near:        # a misspelling: the log cannot be read as meant (exit 2, issue 20 item 4)
                raise LogError("LOG-FIELD", f"{name}'s class {entry.get('class')!r} names no class card",
                               loc, f"did you mean '{near[0]}'?")
            if cls is None:
                cls = classes[0]
                self.ref.violation("LB-SETUP-2", f"{name} picks class {entry.get('class')!r}; a player picks "
                                   + " or ".join(c.name for c in classes), loc)
            base = {}
            for stat in ("health", "armor", "dodge"):
                stated, computed = entry.get(stat), int(cls.get(stat) or 0)
                self.ref.claim("LB-SETUP-2", f"{name}'s starting {stat.capitalize()}", stated, computed, loc)
                base[stat] = computed if stated is None else int(stated)
            p = Player(name=name, cls=cls, base=base, max_health=base["health"], numbers=entry.get("numbers"),
                       loc=loc)
            self.rules.refresh(p, full=True)
            p.recover()
            self.players.append(p)
            self.by_name[name] = p
            self.player_names.add(name, p)
        n = len(self.players)
        if not self.n_min <= n <= self.n_max:
            loc = self.header_locs.get(f"players[{self.n_max}]", self.head_loc) if n > self.n_max else self.head_loc
            self.ref.violation("LB-SETUP-1", f"{n} player(s); Loot & Battles is for {self.n_min}–{self.n_max}", loc)
        computed = self.win_table.get(n) if isinstance(self.win_table, dict) else None
        stated = self.header.get("battles_to_win")
        if stated is not None and computed is not None:
            self.ref.claim("LB-SETUP-1", "the number of Battles to win", stated, computed,
                           self.header_locs.get("battles_to_win", self.head_loc))
        self.target = stated if stated is not None else computed
        if "leader" in self.header and self.header["leader"] is not None and self.players:
            self.leader = self.players.index(self._find_player(self.header["leader"], None, "leader",
                                                               self.header_locs.get("leader")))
        if any(p.numbers is not None for p in self.players):
            self._check_numbers({p.name: p.numbers or [] for p in self.players}, self.head_loc)
        if self.header.get("starting_loot"):
            self.loot_due, self.loot_for = n, "the easier start (one Loot card per player)"
        if self.players:
            self.ref.trace(f"      {n} players ({', '.join(f'{p.name} {p.cls.name}' for p in self.players)}); "
                           f"{self.target} Battles to win; Leader {self.players[self.leader].name}")
            self._state_lines("start", None)

    def before(self, ev: Event) -> None:
        """Events after the end: the first is LB-END-1; the rest follow from it (one slip, one
        problem) and are only traced."""
        if self.over and not self._is_ack(ev):
            if self.after_end:
                self._t(ev, f"{ev.kind}: after the game's end (see line {self.after_end})")
                return
            self.after_end = ev.loc.line if ev.loc else 0
            self.ref.violation(self.end_rule, f"event '{ev.kind}' after the game has ended "
                               f"({'the players won' if self.winner == 'players' else 'the players lost'})", ev.loc)

    def _is_ack(self, ev: Event) -> bool:
        """An event the game's end still admits: the markers of the last Encounter and Battle,
        and (LB-LOOT-1 ruling ``final_battle_loot``) the final Battle's loot claimed and shared —
        the seed's step 6 comes before step 7, "the game is over"."""
        return (ev.kind == "battle_end" and self.last_battle is not None) or \
               (ev.kind in ("encounter_end", "round_end", "leader_passed") and self.last_encounter is not None) or \
               (ev.kind in ("loot_drawn", "equip", "unequip") and self._final_loot_open())

    def _final_loot_open(self) -> bool:
        return self.winner == "players" and self.rules.final_loot

    def apply(self, ev: Event) -> None:
        if not self.players or (self.over and not self._is_ack(ev)):
            return
        if ev.kind not in self.ACK_KINDS and ev.kind != "leader_passed":
            self.last_encounter = None
        if ev.kind not in (*self.ACK_KINDS, "loot_drawn", "equip", "unequip", "leader_passed"):
            self.last_battle = None
        super().apply(ev)

    def finish(self) -> None:
        b = self.battle
        if not self.over and b is not None and b.current is not None and b.current.placed:
            self._state_lines(f"log ends in Battle {b.number}, round {b.current.round}", b.current)
        self.ref.trace(f"      final: winner {self.winner or 'none yet'}; {self.battles_won} Battle(s) won "
                       f"of {self.target}")

    def final(self) -> dict[str, Any]:
        enc = self.battle.current if self.battle is not None else None
        out: dict[str, Any] = {
            "winner": self.winner,
            "battles_won": self.battles_won,
            "battles_to_win": self.target,
            "leader": self.players[self.leader].name if self.players else None,
            "players": {p.name: {"class": p.cls.get("class") if p.cls else None, **p.as_dict(),
                                 "equipment": list(p.equipment)} for p in self.players},
            "enemies_left": ({e.name: {"health": e.health, "armor": e.armor, "dodge": e.dodge, "front": e.front}
                              for e in enc.alive()} if enc is not None and enc.placed else {}),
            "loot_pool": sorted(self.pool.elements()) + ["?"] * self.pool_unknown,
        }
        return out

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts (for simulated playtests)."""
        acks = []
        if self.last_encounter is not None:
            acks += ["encounter_end", "leader_passed"] + ([] if self.round_ack else ["round_end"])
        if self.last_battle is not None:
            acks.append("battle_end")
        if self.over:
            if self._final_loot_open():
                acks += ["equip", "unequip"] + (["loot_drawn"] if self.loot_due and self._loot_left() > 0 else [])
            return acks
        b = self.battle
        if b is None:
            between = ["equip", "unequip", *acks]
            if self.loot_due and self._loot_left() > 0:
                return ["loot_drawn", *between]
            return ["encounter_drawn" if self.first_done else "encounter_chosen", *between]
        enc = b.current
        if enc is None:
            return acks
        if b.index == 0 and not enc.placed and enc.card.get("reinforcement") and len(b.queue) == 1:
            return ["reinforcements_drawn", *acks]
        if not enc.placed:
            return ["enemies_placed", *acks]
        if self._round_complete(enc):
            return ["round_end", "attack", "heal", "pass"]
        q = next(p for p in self.rules.order(self.players, self.leader) if self._missing(enc, p))
        if q.name not in enc.acted:
            return ["attack", "heal", "pass"]
        kinds = ["enemy_attack"]
        if q.name not in enc.closed and "attack" in enc.turn.get(q.name, ()) and self._unused_groups(q, enc):
            kinds.append("attack")
        return kinds

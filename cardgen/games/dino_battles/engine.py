"""Biomechanic Dino Battles — the playtest rules engine (``cardgen check dino_battles LOG``).

A state machine over ``rules/dino_battles/params.yaml`` and the card YAML: every number of
the rules (hand 6, Comp Cards 4, bench 3, Item Zone 5, 3 K.O.s, poison 10 HP, …) is read from
params.yaml, every Dinosaur's stats, Special Attacks and abilities and every Upgrade's stat
changes from the cards. A number the rules need and params.yaml lacks is a ``LOG-GAME`` error
naming the missing key.

The log header names both players and their 60-card decks (a deck file, or a deck's name in
``cards/dino_battles/decks/``); the decks are validated first with the BDB-DECK rules.
Cards may stay hidden: a draw need not name its cards, and the engine then tracks counts —
the hand, the Main Deck, the Comp Cards, the face-down Item Zone — and checks what the log
reveals (a card played must be in the hand; more copies than the deck holds cannot be).

Rules enforced (catalogue ``specs/rules/dino_battles.md``): BDB-SETUP-1…4, BDB-TURN-1, 2,
BDB-MAIN-1…3, BDB-ACT-1, BDB-END-1, BDB-CMB-1…6, BDB-ABIL-1…3, BDB-KO-1, BDB-END-2, 3, and the
deck rules BDB-DECK-1…3 on the decks named. Rulings are in params.yaml ``rulings:``.

Free-text card effects (Special Attacks, Items, Actions) are not read: the log states their
consequences — a ``bonus`` on a move, an ``effect`` event (HP, tokens, statuses, Upgrades
destroyed) or a ``negated_by`` on an answer — and the engine checks that the card named as the
source was played this turn or is in play. Upgrades' structured fields (atk, eva, def, hp and
the abilities) are applied.

The log format is documented in ``docs/playtest-logs.md``; the event kinds and their fields
are declared in :data:`Engine.EVENTS` (``docs/schemas/dino_battles.schema.json`` is generated
from them).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc, did_you_mean
from cardgen.games.dino_battles import decks
from cardgen.games.dino_battles.pieces import Combat, Dino, Side
from cardgen.games.dino_battles.rules_cards import CardRules
from cardgen.games.dino_battles.rules_combat import CombatRules
from cardgen.games.dino_battles.rules_ko import KnockOutRules
from cardgen.games.dino_battles.rules_main import MainRules
from cardgen.games.dino_battles.rules_turn import TurnRules
from cardgen.games.dino_battles.vocab import (
    ANSWERS,
    EVENTS,
    HEADER,
    KO_WINDOW,
    MAIN_PHASES,
    PHASES,
    REACTIONS,
)
from cardgen.play.lookup import Names, NotFound
from cardgen.play.params import ParamError
from cardgen.play.referee import BaseEngine


class NotInPlay(Exception):
    """An event names a Dinosaur that the replay has knocked out."""

    def __init__(self, message: str, loc: Loc | None):
        super().__init__(message)
        self.message, self.loc = message, loc


#: the rule an event breaks when it names a knocked-out Dinosaur
_GONE_RULE = {"retreat": "BDB-MAIN-1", "upgrade": "BDB-MAIN-2"}


class Engine(CardRules, TurnRules, MainRules, CombatRules, KnockOutRules, BaseEngine):
    """Replays a Biomechanic Dino Battles playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "BDB-END-2", "ended_by": "BDB-END-2", "kos": "BDB-KO-1", "players": "BDB-KO-1",
        "active": "BDB-KO-1", "bench": "BDB-MAIN-1", "hp": "BDB-CMB-3", "knocked_out": "BDB-KO-1",
        "hand": "BDB-END-1", "deck": "BDB-END-3", "comp_cards": "BDB-KO-1", "combat_deck": "BDB-CMB-2",
        "items": "BDB-MAIN-3", "initiative": "BDB-TURN-2", "turn": "BDB-TURN-1", "phase": "BDB-TURN-1",
    }

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "BDB-END-2"
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        try:
            self._read_rules()
        except ParamError as e:
            raise LogError("LOG-GAME", e.message, Loc(str(self.params_file), 1, 1),
                           "add it to the rules parameters") from None
        self.cards = game.cards_by_id
        self.card_names: Names[Card] = Names("card", ((c.id, c) for c in game.cards), lambda c: [c.name])
        self.specials: dict[str, tuple[Card, dict]] = {}
        for c in game.cards:
            for s in c.get("specials") or []:
                if isinstance(s, dict) and s.get("name"):
                    self.specials.setdefault(str(s["name"]).lower(), (c, s))
        #: decks handed over by name (a played state); otherwise read by the deck loader
        self.decks: dict[str, decks.Deck] = {}
        # state
        self.sides: list[Side] = []
        self.by_name: dict[str, Side] = {}
        self.player_names: Names[Side] = Names("player", ())
        self.broken = False
        self.initiative: int | None = None
        self.rolled = False
        self.turn = 0
        self.phase: str | None = None                    # None: setup
        self.cmb: Combat | None = None
        self.owed: dict[int, int] = {}                   # End phase: cards each player still draws
        self.acted: set[int] = set()                     # who made a phase play in this Main or End phase
        self.played: list[tuple[int, str]] = []          # (player, card id) Actions played / Items used this turn
        self.winner: str | None = None
        self.ended_by: str | None = None
        self.outs = 0
        self._src_type: str | None = None
        self._src_owner: int | None = None

    # -- reading the rules and the cards ---------------------------------------------------

    def _read_rules(self) -> None:
        """Every number and ruling of params.yaml the engine uses, typed (see cardgen.play.params)."""
        p = self.p
        self.n_players = (p.int("players.min"), p.int("players.max"))
        self.die_sides = p.int("die_sides")
        self.init_map = {str(k): str(v) for k, v in p.mapping("initiative").items()}
        self.hand_size = p.int("hand_size")
        self.free_new = p.int("new_hand.free_new_hands")
        self.penalty = p.int("new_hand.penalty_per_new_hand")
        self.min_hand = p.int("new_hand.min_hand_size")
        self.nodino_free = p.bool("new_hand.no_dinosaur_free")
        self.nodino_counts = p.bool("new_hand.no_dinosaur_counts")
        self.comp_n = p.int("comp_cards")
        self.bench_max = p.int("bench_max")
        phases = [str(x) for x in p.list("phases")]
        if sorted(phases) != sorted(PHASES) or phases[0] != "startup" or phases[-1] != "end":
            raise LogError("LOG-GAME", f"'phases' in {self.params_file.name} must order the phases "
                           f"{', '.join(PHASES)}, from startup to end", Loc(str(self.params_file), 1, 1))
        self.phases = phases
        self.pass_from = p.int("initiative_passes_from_turn")
        self.item_max = p.int("item_zone_max")
        self.upgrade_max = p.int("upgrade_same_name_max")
        self.draw_up = p.int("draw_up_to")
        self.moves = [str(m) for m in p.list("combat_moves")]
        for m in ("attack", "evade", "defend"):
            if m not in self.moves:
                raise LogError("LOG-GAME", f"'combat_moves' in {self.params_file.name} lacks '{m}'",
                               Loc(str(self.params_file), 1, 1))
        self.poison_hp = p.int("poison_hp")
        self.wound_hp = p.int("wound_hp_per_token")
        self.para_fail = p.choice("paralyze_fails_on", ("odd", "even"))
        self.comp_per_ko = p.int("comp_cards_per_ko")
        self.kos_to_win = p.int("kos_to_win")
        self.unanswered_hits = p.bool("unanswered_attack_hits")
        self.failed_spends = p.bool("failed_move_spends_cards")
        self.poison_stacks = p.bool("poison_stacks")
        self.spike_triggers = p.bool("spike_damage_triggers")
        self.camo_attacks = p.bool("camouflage_stops_attacks")
        self.heal_above = p.bool("heal_above_hp")
        self.simultaneous = p.choice("simultaneous_end", ("draw", "initiative"))
        self.deck_tie = p.choice("deck_out_tie", ("first_out_loses", "draw"))
        if self.n_players[1] != 2:
            raise ParamError("players.max", f"'players.max' in {self.params_file.name} is {self.n_players[1]}: the "
                             "Dino Battles engine plays the seed's duel (one active Dinosaur against the other)",
                             self.params_file)

    def _card(self, value: Any, ev: Event, fname: str, types: tuple[str, ...] | None = None,
              loc: Loc | None = None) -> Card:
        """A card by id or name (cardgen.play.lookup: exact id first, then any name, case-insensitive)."""
        s = str(value).strip()
        try:
            c: Card | None = self.card_names.find(s)
        except NotFound as e:
            if len(self.card_names.by_low.get(s.lower(), [])) > 1:
                raise LogError("LOG-FIELD", f"'{fname}' {e.message}", loc or ev.at(fname), e.hint) from None
            c = None
        if c is None or (types and c.type not in types):
            pool = [x.id for x in self.game.cards if not types or x.type in types]
            what = " or ".join(types) if types else "Dino Battles"
            raise LogError("LOG-FIELD", f"'{fname}' names no {what} card: {value!r}", loc or ev.at(fname),
                           did_you_mean(s, pool))
        return c

    def _side(self, value: Any, ev: Event | None, fname: str, loc: Loc | None = None) -> Side:
        s = str(value).strip()
        side = self.player_names.get(s)
        if side is None:
            raise LogError("LOG-FIELD", f"'{fname}' names no player: {value!r}", loc or (ev.at(fname) if ev else None),
                           did_you_mean(s, self.by_name) or f"players: {', '.join(self.by_name)}")
        return side

    def _other(self, s: Side) -> Side:
        return self.sides[self._next(s.index)]

    def _next(self, i: int) -> int:
        """The seat after ``i`` (the opponent, in a duel)."""
        return (i + 1) % len(self.sides)

    def _dino(self, side: Side, value: Any, ev: Event, fname: str, loc: Loc | None = None) -> Dino:
        """A Dinosaur of ``side`` in play, by label ('razorclaw#2'), card id or name."""
        s = str(value).strip().lower()
        pool = side.in_play
        hit = [d for d in pool if d.label.lower() == s or (s.endswith("#1") and d.label.lower() == s[:-2])]
        if not hit:
            hit = [d for d in pool if s in (d.card.id.lower(), d.card.name.lower())]
        if len(hit) == 1:
            return hit[0]
        where = loc or ev.at(fname)
        if len(hit) > 1:
            raise LogError("LOG-FIELD", f"'{fname}' {value!r} could be several of {side.name}'s Dinosaurs: say "
                           f"which ({', '.join(d.label for d in hit)})", where)
        labels = [d.label for d in pool]
        gone = [x for x in side.knocked_out if s in (x.lower(), x.split("#")[0].lower(),
                                                      self.cards[x.split("#")[0]].name.lower())]
        if gone:        # a Dinosaur the replay has knocked out: a rules slip, not an unreadable log
            raise NotInPlay(f"{side.name}'s {self.cards[gone[-1].split('#')[0]].name} ({gone[-1]}) was knocked "
                            f"out and junked: it is not in play" + (f" (in play: {', '.join(labels)})" if labels
                                                                    else ""), where)
        raise LogError("LOG-FIELD", f"'{fname}' names no Dinosaur of {side.name} in play: {value!r}", where,
                       did_you_mean(s, labels) or f"in play: {', '.join(labels) or 'none'}")

    def _special(self, d: Dino | None, value: Any, ev: Event, rule: str) -> dict | None:
        """A Special Attack of the active Dinosaur ``d`` by name (None if it has no such attack)."""
        s = str(value).strip().lower()
        if s not in self.specials:
            raise LogError("LOG-FIELD", f"'special' names no Special Attack: {value!r}", ev.at("special"),
                           did_you_mean(s, self.specials))
        for sp in (d.card.get("specials") or []) if d is not None else []:
            if isinstance(sp, dict) and str(sp.get("name", "")).lower() == s:
                return sp
        owner = self.specials[s][0].name
        self.ref.violation(rule, f"{self.specials[s][1]['name']} is a Special Attack of {owner}, not of "
                           f"{d.name if d else 'the active Dinosaur'}", ev.at("special"))
        return self.specials[s][1]

    # -- trace ----------------------------------------------------------------------------

    def _side_lines(self, s: Side) -> list[str]:
        act = s.active.brief() if s.active else "none"
        bench = ", ".join(d.brief() for d in s.bench) or "empty"
        cd = " ".join(f"{m} {s.combat_deck[m]}" for m in self.moves)
        width = max(len(x.name) for x in self.sides)
        return [f"{s.name:<{width}}  K.O.s {s.kos} · hand {s.hand} · deck {s.deck_left} · combat deck {cd} · "
                f"items {s.items} · comp {s.comp}",
                f"{'':<{width}}  active {act} · bench {bench}"]

    def _state(self, title: str) -> None:
        self.ref.trace(f"      {title}")
        for s in self.sides:
            for line in self._side_lines(s):
                self.ref.trace(f"        {line}")

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        raw = self.header.get("players") or []
        for i, entry in enumerate(raw):
            loc = self.header_locs.get(f"players[{i}]", self.head_loc)
            name = str(entry.get("name"))
            if name in self.by_name:
                raise LogError("LOG-FIELD", f"two players are called {name!r}", loc)
            side = Side(name, i, loc)
            self.sides.append(side)
            self.by_name[name] = side
            self.player_names.add(name, side)
        lo, hi = self.n_players
        if not lo <= len(self.sides) <= hi:
            want = f"exactly {lo}" if lo == hi else f"{lo}–{hi}"
            kept = self.sides[:hi]
            extra = f"; the checker replays {', '.join(s.name for s in kept)}" if len(self.sides) > hi else ""
            self.ref.violation("BDB-SETUP-1", f"{len(self.sides)} player(s); Biomechanic Dino Battles is for "
                               f"{want} players{extra}", self.head_loc)
            if len(self.sides) < lo:
                self.broken = True
                self.replayable = False
                return
            for side in self.sides[hi:]:
                del self.by_name[side.name]
                self.player_names.remove(side.name)
            self.sides = kept
        for side, entry in zip(self.sides, raw):
            self._take_deck(side, self.deck_for(str(entry.get("deck")), side.loc))
        self.ref.trace("      " + " against ".join(f"{s.name} (player {self._seat(s.index)}, {s.deck_name})"
                                                    for s in self.sides))

    def deck_for(self, value: str, loc: Loc) -> decks.Deck:
        """The deck a header entry names: handed over in ``self.decks`` (a played state), or read
        by the game's deck loader (a log being checked)."""
        if value in self.decks:
            return self.decks[value]
        return decks.read(self.game, value, loc)

    def _take_deck(self, side: Side, deck: decks.Deck) -> None:
        side.deck_name = deck.name
        for pr in deck.problems:
            where = f" ({pr.loc})" if pr.loc else ""
            self.ref.violation(pr.rule, f"{side.name}'s deck: {pr.message}{where}", side.loc, pr.hint)
        side.deck_cards = Counter(deck.cards)
        side.deck_left = sum(side.deck_cards.values())

    @staticmethod
    def _seat(i: int) -> str:
        return chr(ord("A") + i)

    def before(self, ev: Event) -> None:
        if self.over and ev.kind != "game_end":
            why = {"kos": f"{self.winner} has {self.kos_to_win} K.O.s", "deck_out": "a Main Deck ran out",
                   "no_dinosaurs": "a player has no Dinosaur left"}.get(self.ended_by or "", "")
            if self.winner == "draw":
                why = "a draw"
            self.ref.violation(self.end_rule, f"event '{ev.kind}' after the game has ended ({why})", ev.loc)

    def apply(self, ev: Event) -> None:
        if self.broken or not self.sides or (self.over and ev.kind != "game_end"):
            return
        if self.cmb is not None and self.cmb.attack is not None and ev.kind not in ANSWERS + REACTIONS + ("pass",):
            att = self.cmb.attack
            self.ref.violation("BDB-CMB-2", f"{att['side'].name}'s attack (line {att['ev'].loc.line}) is never "
                               "answered: record a counterattack, evade, defend or no_answer", ev.loc)
            self._resolve(None, "no_answer", None)
        if ev.kind not in KO_WINDOW:
            self._settle_kos(ev, recorded=False)
        if self.over and ev.kind != "game_end":
            return
        try:
            super().apply(ev)
        except NotInPlay as e:      # the event cannot be applied: reported, and the replay goes on
            self.ref.violation(_GONE_RULE.get(ev.kind, "BDB-KO-1"), e.message, e.loc)

    def finish(self) -> None:
        if self.broken or not self.sides:
            return
        pending = [d for s in self.sides for d in s.in_play if d.ko_at] if not self.over else []
        if pending:     # the log ends before the knock-outs are recorded: they are not applied
            self.ref.trace("      the log ends with " + ", ".join(f"{d.who} at {d.hp} HP" for d in pending)
                           + ": knocked out, not yet recorded")
        where = f"turn {self.turn}, {self.phase}" if self.turn else "setup"
        if not self.over:
            self._state(f"log ends in {where}")
        self.ref.trace(f"      final: winner {self.winner or 'none yet'}"
                       + (f" ({self._why()})" if self.over else "") + "; K.O.s "
                       + ", ".join(f"{s.name} {s.kos}" for s in self.sides))

    def _why(self) -> str:
        return {"kos": f"{self.kos_to_win} K.O.s", "no_dinosaurs": "no Dinosaur left",
                "deck_out": "a Main Deck ran out"}.get(self.ended_by or "", "")

    def final(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winner": self.winner,
            "ended_by": self.ended_by,
            "turn": self.turn,
            "phase": self.phase,
            "initiative": self.sides[self.initiative].name if self.initiative is not None and self.sides else None,
            "kos": {s.name: s.kos for s in self.sides},
            "players": {},
        }
        for s in self.sides:
            out["players"][s.name] = {
                "deck_name": s.deck_name,
                "kos": s.kos,
                "active": s.active.label if s.active else None,
                "bench": [d.label for d in s.bench],
                "hp": {d.label: d.hp for d in s.in_play},
                "knocked_out": list(s.knocked_out),
                "hand": s.hand,
                "deck": s.deck_left,
                "comp_cards": s.comp,
                "combat_deck": {m: s.combat_deck[m] for m in self.moves},
                "items": s.items,
            }
        return out

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts (for simulated playtests)."""
        if self.over or self.broken or not self.sides:
            return ["game_end"] if self.over else []
        pending = [d for s in self.sides for d in s.in_play if d.ko_at]
        if pending:
            return ["knock_out", "action", "use_item", "effect"]
        if self.phase is None:
            kinds = []
            if not self.rolled:
                kinds.append("initiative_roll")
            if any(not s.drew for s in self.sides):
                kinds.append("draw")
            if any(s.drew and not s.comp_done for s in self.sides):
                kinds += ["new_hand", "comp_cards"]
            if any(s.comp_done and not s.placed for s in self.sides):
                kinds.append("place")
            if self.rolled and all(s.placed for s in self.sides):
                kinds.append("phase")
            return kinds
        anytime = ["action", "use_item", "effect", "discard", "draw", "game_end"]
        if self.phase == "combat" and self.cmb is not None:
            c = self.cmb
            if c.attack is not None:
                return ["counterattack", "evade", "defend", "no_answer", "pass", "retreat", *anytime]
            if c.over:
                return ["phase", *anytime]
            return ["attack", "pass", "first_move", "phase", "retreat", *anytime]
        if self.phase in MAIN_PHASES:
            return ["bench", "upgrade", "item", "combat_to_deck", "retreat", "phase", *anytime]
        return ["phase", *anytime]

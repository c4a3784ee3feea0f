"""Biomechanic Dino Battles: what the table and its rule groups (:mod:`.rules_cards`,
:mod:`.rules_turn`, :mod:`.rules_main`, :mod:`.rules_combat`, :mod:`.rules_ko`) share: the rules
read from params.yaml, the table as replayed, the log's names read (cards, players, Dinosaurs)
and the state's trace. Each group calls the others' steps through the declarations here."""

from __future__ import annotations

from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc, did_you_mean
from cardgen.games.dino_battles import decks
from cardgen.games.dino_battles.pieces import Combat, Dino, Side
from cardgen.games.dino_battles.slips import Slips
from cardgen.games.dino_battles.vocab import (
    MAIN_PHASES,
    PHASES,
)
from cardgen.play.lookup import Names, NotFound
from cardgen.play.params import ParamError, Params, per_game
from cardgen.play.referee import Traces


class NotInPlay(Exception):
    """An event names a Dinosaur that the replay has knocked out."""

    def __init__(self, message: str, loc: Loc | None):
        super().__init__(message)
        self.message, self.loc = message, loc


class TableBase(Traces):
    """The table's fields, the rules read and the helpers every rule group takes (see
    :class:`.table.Table`). ``tracing`` is False under a played state: no trace line is written."""

    ref: Slips

    def __init__(self, game: Any, header: Any, header_locs: Any, ref: Slips) -> None:
        self.game, self.header, self.header_locs, self.ref = game, header, header_locs, ref
        self.over = False
        self.end_rule = "BDB-END-2"
        self.__dict__.update(_READ(game))
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        #: decks handed over by name (a played state); otherwise read by the deck loader
        self.deck_files: dict[str, decks.Deck] = {}
        # state
        self.sides: list[Side] = []
        self.by_name: dict[str, Side] = {}
        self.names: Names[Side] | None = None             # the players by name (made when first asked)
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

    def _read_game(self, game: Any) -> None:
        """What the table takes from the loaded game, read once per game (shared by its tables,
        never changed): params.yaml's numbers, the cards, their names and Special Attacks."""
        self.params_file = game.rules_dir / "params.yaml"
        self.p = Params.of(game)
        try:
            self._read_rules()
        except ParamError as e:
            raise LogError("LOG-GAME", e.message, Loc(str(self.params_file), 1, 1),
                           "add it to the rules parameters") from None
        self.cards = game.cards_by_id
        #: every card id in lower case, without spaces: a Dinosaur's label is its one spelling
        self.ids_lower = all(c.id == c.id.strip().lower() for c in game.cards)
        self.card_names: Names[Card] = Names("card", ((c.id, c) for c in game.cards), lambda c: [c.name])
        self.specials: dict[str, tuple[Card, dict]] = {}
        for c in game.cards:
            for s in c.get("specials") or []:
                if isinstance(s, dict) and s.get("name"):
                    self.specials.setdefault(str(s["name"]).lower(), (c, s))

    def _read_rules(self) -> None:
        """Every number and ruling of params.yaml the rules use, typed (see cardgen.play.params)."""
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
        c = self.card_names.by_key.get(value) if type(value) is str else None
        if c is not None and (not types or c.type in types):
            return c
        s = str(value).strip()
        try:
            c = self.card_names.find(s)
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
        side = self.by_name.get(s)
        if side is None:
            if self.names is None:
                self.names = Names("player", ((x.name, x) for x in self.sides))
            side = self.names.get(s)
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
        pool = side.in_play
        if self.ids_lower and not str(value).endswith("#1"):     # a label as written: found as such
            for d in pool:
                if d.label == value:
                    return d
        s = str(value).strip().lower()
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
        if not self.tracing:
            return
        self.ref.trace(f"      {title}")
        for s in self.sides:
            for line in self._side_lines(s):
                self.ref.trace(f"        {line}")

    # -- steps every rule group takes ---------------------------------------------------------

    @staticmethod
    def _pn(p: str) -> str:
        return {"startup": "Startup", "precombat_main": "Precombat Main", "combat": "Combat",
                "postcombat_main": "Postcombat Main", "end": "End"}.get(p, p)

    def _order(self) -> list[Side]:
        i = self.initiative or 0
        return self.sides[i:] + self.sides[:i]

    def _phase_order(self, s: Side, ev: Event, what: str) -> None:
        """TURN-1: within a Main or End phase, the Initiative holder acts first."""
        holder = self.initiative or 0
        if s.index == holder and self.acted - {holder}:
            other = ", ".join(self.sides[j].name for j in sorted(self.acted - {holder}))
            self.ref.violation("BDB-TURN-1", f"{s.name} holds the Initiative token and acts first in the "
                               f"{self._pn(str(self.phase))} phase; {other} has already begun, so {s.name} no longer "
                               f"{what}", ev.loc)
        self.acted.add(s.index)

    def _main(self, s: Side, ev: Event, what: str, rule: str = "BDB-MAIN-1") -> bool:
        if self.phase not in MAIN_PHASES:
            when = "during setup" if self.phase is None else f"in the {self._pn(self.phase)} phase"
            self.ref.violation(rule, f"{s.name} {what} {when}: that is done in a Main phase only", ev.loc)
            return False
        self._phase_order(s, ev, what)
        return True

    def _source(self, ev: Event, s: Side, rule: str | None) -> str:
        """The card named in 'source' must be in use: played or used this turn, or in play. Returns its name."""
        raw = ev["source"]
        low = str(raw).strip().lower()
        if low in self.specials and low not in {c.id for c in self.game.cards}:
            card, sp = self.specials[low]
            ok = any(d.card.id == card.id for x in self.sides for d in x.in_play)
            rule = rule or "BDB-CMB-2"
            if not ok:
                self.ref.violation(rule, f"'source' is {sp['name']}, but no {card.name} is in play", ev.at("source"))
            self._src_type = "special"
            self._src_owner = None
            return str(sp["name"])
        c = self._card(raw, ev, "source")
        self._src_type = c.type
        owners = [i for i, cid in self.played if cid == c.id]
        self._src_owner = owners[-1] if owners else None
        rule = rule or self._source_rule(c.type)
        if c.type in ("action", "item"):
            perm = c.type == "item" and c.get("permanent") and any(x.items_known[c.id] for x in self.sides)
            if perm:
                self._src_owner = next(x.index for x in self.sides if x.items_known[c.id])
            if not owners and not perm:
                self.ref.violation(rule, f"'source' is {c.name}, which nobody has "
                                   f"{'played' if c.type == 'action' else 'used'} this turn", ev.at("source"))
        elif c.type in ("dinosaur", "upgrade"):
            holders = [x.index for x in self.sides for d in x.in_play
                       if d.card.id == c.id or any(u.id == c.id for u in d.upgrades)]
            if not holders:
                self.ref.violation(rule, f"'source' is {c.name}, which is not in play", ev.at("source"))
            else:
                self._src_owner = holders[0] if s.index not in holders else s.index
        else:
            self.ref.violation(rule, f"'source' is {c.name}, a {c.type} card: its text has no effect to apply",
                               ev.at("source"))
        return c.name

    @staticmethod
    def _source_rule(kind: str | None) -> str:
        return {"action": "BDB-ACT-1", "item": "BDB-MAIN-3", "upgrade": "BDB-MAIN-2", "dinosaur": "BDB-CMB-2",
                "special": "BDB-CMB-2"}.get(kind or "", "BDB-ACT-1")

    def _why(self) -> str:
        return {"kos": f"{self.kos_to_win} K.O.s", "no_dinosaurs": "no Dinosaur left",
                "deck_out": "a Main Deck ran out"}.get(self.ended_by or "", "")


def _read(game: Any) -> dict[str, Any]:
    t = TableBase.__new__(TableBase)
    t._read_game(game)
    return t.__dict__


#: what a loaded game gives its tables (see :meth:`TableBase._read_game`), read once per game
_READ = per_game(_read)

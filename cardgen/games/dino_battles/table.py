"""Biomechanic Dino Battles — the table a game state holds, and its rules as the state's own methods:
each log event played as recorded by its ``play_<kind>`` method (the rules by topic, on
:mod:`.table_base`), each rule it breaks told to :class:`.slips.Slips`; every number from
params.yaml, every stat from the cards (``docs/engines-dino_battles.md``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Self

from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.games.dino_battles import decks
from cardgen.games.dino_battles.pieces import Dino, Side, shallow
from cardgen.games.dino_battles.rules_turn import TurnRules
from cardgen.games.dino_battles.table_base import NotInPlay
from cardgen.games.dino_battles.vocab import (
    ANSWERS,
    EVENTS,
    KO_WINDOW,
    REACTIONS,
)

#: what may follow an attack before its answer
_AWAIT_ANSWER = frozenset(ANSWERS + REACTIONS + ("pass",))
#: the rule an event breaks when it names a knocked-out Dinosaur
_GONE_RULE = {"retreat": "BDB-MAIN-1", "upgrade": "BDB-MAIN-2"}


class Table(TurnRules):
    """The table of a game in progress and its rules (see the module docstring)."""

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
            self.names = None
        lo, hi = self.n_players
        if not lo <= len(self.sides) <= hi:
            want = f"exactly {lo}" if lo == hi else f"{lo}–{hi}"
            kept = self.sides[:hi]
            extra = f"; the checker replays {', '.join(s.name for s in kept)}" if len(self.sides) > hi else ""
            self.ref.violation("BDB-SETUP-1", f"{len(self.sides)} player(s); Biomechanic Dino Battles is for "
                               f"{want} players{extra}", self.head_loc)
            if len(self.sides) < lo:
                self.broken = True
                return
            for side in self.sides[hi:]:
                del self.by_name[side.name]
                self.names = None
            self.sides = kept
        for side, entry in zip(self.sides, raw):
            self._take_deck(side, self.deck_for(str(entry.get("deck")), side.loc))
        self.ref.trace("      " + " against ".join(f"{s.name} (player {self._seat(s.index)}, {s.deck_name})"
                                                    for s in self.sides))

    def clone(self) -> Self:
        """An independent copy of the table (cards, rules and decks shared, never copied)."""
        e: Self = shallow(self)
        dinos: dict[int, Dino] = {}
        e.sides = [s.copy(dinos) for s in self.sides]
        e.by_name = {s.name: s for s in e.sides}
        e.names = None
        e.owed, e.acted, e.played = dict(self.owed), set(self.acted), list(self.played)
        if self.cmb is not None:
            e.cmb = shallow(self.cmb)
            att = self.cmb.attack
            if att is not None:
                e.cmb.attack = {**att, "side": e.sides[att["side"].index],
                                "dino": dinos.get(id(att["dino"]), att["dino"])}
        return e

    def deck_for(self, value: str, loc: Loc) -> decks.Deck:
        """The deck a header entry names: handed over in ``self.deck_files`` (a played state), or read
        by the game's deck loader (a log being checked)."""
        if value in self.deck_files:
            return self.deck_files[value]
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
        if self.cmb is not None and self.cmb.attack is not None and ev.kind not in _AWAIT_ANSWER:
            self._unanswered(ev)
        if ev.kind not in KO_WINDOW:
            self._settle_kos(ev, recorded=False)
        if self.over and ev.kind != "game_end":
            return
        try:
            PLAYS[ev.kind](self, ev)
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


#: each event kind's play on the table (every kind of the log's vocabulary has one)
PLAYS: dict[str, Callable[[Table, Event], None]] = {kind: getattr(Table, "play_" + kind) for kind in EVENTS}

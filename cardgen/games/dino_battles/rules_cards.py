"""Biomechanic Dino Battles: cards moving (hand, Main Deck, Junk, hidden cards), the deck
running out, and the setup events (BDB-SETUP-1…4).
"""

from __future__ import annotations

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.games.dino_battles.pieces import Dino, Side
from cardgen.games.dino_battles.table_base import TableBase
from cardgen.play.hidden import Hand, counts


class CardRules(TableBase):
    """A step of :class:`~.table.Table`'s rules, on :class:`TableBase`."""

    # -- moving cards -----------------------------------------------------------------------

    def _reveal(self, s: Side, c: Card, ev: Event, loc: Loc | None, rule: str) -> None:
        """A card of ``s`` whose name was hidden is revealed: the deck must hold one more copy."""
        have, seen = s.deck_cards.get(c.id, 0), s.seen.get(c.id, 0)
        if seen >= have:
            more = f"only {have}, and {seen} are already out" if have else "none"
            self.ref.violation(rule, f"{s.name}'s deck '{s.deck_name}' holds {more}: {s.name} cannot have "
                               f"another {c.name}", loc or ev.loc)
        s.seen[c.id] = seen + 1

    def _from_hand(self, s: Side, c: Card | None, ev: Event, loc: Loc | None, rule: str) -> None:
        """One card leaves ``s``'s hand (``c`` None: an unseen one)."""
        loc = loc or ev.loc
        if s.hand <= 0:
            self.ref.violation(rule, f"{s.name} has no card in hand" + (f" to play {c.name}" if c else ""), loc)
            return
        h = s.cards
        if c is None:
            if h.hidden <= 0:
                s.drop_known()
            else:
                h.hidden -= 1
            return
        if h.known[c.id] > 0:
            h.take(c.id)
        elif h.hidden > 0:
            self._reveal(s, c, ev, loc, rule)
            h.hidden -= 1
        else:
            held = ", ".join(self.cards[k].name for k in h.known.elements()) or "nothing"
            self.ref.violation(rule, f"{c.name} is not in {s.name}'s hand (it holds {held})", loc)
            s.drop_known()

    def _to_junk(self, s: Side, c: Card | None) -> None:
        if c is None:
            s.junk_unknown += 1
        else:
            s.junk[c.id] = s.junk.get(c.id, 0) + 1

    def _draw(self, s: Side, n: int, named: list[Card], ev: Event, rule: str) -> int:
        """``s`` draws ``n`` cards (``named`` among them); returns how many were drawn."""
        if n > s.deck_left:
            self.ref.violation(rule, f"{s.name} draws {n}, but the Main Deck holds {s.deck_left}", ev.loc)
            n = s.deck_left
        for c in named[:n]:
            self._reveal(s, c, ev, ev.at("cards"), rule)
            s.cards.add(c.id)
        s.deck_left -= n
        s.cards.hidden += n - len(named[:n])
        return n

    def _deck_back_in_step(self, s: Side, want: int) -> None:
        """A draw the Main Deck as the log stated it cannot cover, but the deck without that slip
        (reported there) can: the log plays on from the right count, and so does the replay."""
        what = f"{s.name}'s Main Deck"
        alt = self.ref.unslipped(what, s.deck_left)
        if alt is None or not s.deck_left < want <= alt:
            return
        self.ref.back_in_step(what)
        s.deck_left = alt
        if self.phase == "end" and self.owed.get(s.index):
            self.owed[s.index] = min(alt, max(0, self.draw_up - s.hand))

    def _named(self, ev: Event, fname: str = "cards") -> list[Card]:
        raw = ev.get(fname) or []
        return [self._card(x, ev, fname) for x in raw]

    def _deck_out(self, s: Side, ev: Event) -> None:
        if s.deck_left > 0 or self.over or s.out_at is not None:
            return
        self.outs += 1
        s.out_at = self.outs
        o = self._other(s)
        if s.kos != o.kos:
            win = s if s.kos > o.kos else o
            self._end(win.name, "deck_out", ev, f"{s.name}'s Main Deck runs out: {win.name} has more K.O.s "
                      f"({win.kos} to {self._other(win).kos})")
        elif self.deck_tie == "draw":
            self._end("draw", "deck_out", ev, f"{s.name}'s Main Deck runs out with K.O.s level: a draw")
        else:
            self._end(o.name, "deck_out", ev, f"{s.name}'s Main Deck runs out first with K.O.s level "
                      f"({s.kos} each): {s.name} loses")

    def _end(self, winner: str, how: str, ev: Event | None, text: str) -> None:
        self.over = True
        self.winner = winner
        self.ended_by = how
        self.end_rule = "BDB-END-3" if how == "deck_out" else "BDB-END-2"
        if self.tracing:
            self._t(ev, f"GAME OVER: {text}")
        if self.tracing:
            self._state("at the end")

    # -- setup --------------------------------------------------------------------------------

    def _setup_only(self, ev: Event, rule: str, what: str) -> bool:
        if self.phase is not None:
            self.ref.violation(rule, f"{what} belongs to the setup, before turn 1", ev.loc)
            return False
        return True

    def play_initiative_roll(self, ev: Event) -> None:
        if self.rolled or self.phase is not None:
            self.ref.violation("BDB-SETUP-1", "the Initiative is rolled once, before the game starts", ev.loc)
            if self.phase is not None:
                return
        self.rolled = True
        roll = ev["roll"]
        if not self.ref.die(roll, self.die_sides, "BDB-SETUP-1", ev.at("roll"), "the Initiative roll"):
            self.initiative = 0
            return
        parity = "even" if roll % 2 == 0 else "odd"
        who = self.init_map.get(parity, "A")
        seat = ord(who.strip().upper()[:1] or "A") - ord("A")
        self.initiative = seat if 0 <= seat < len(self.sides) else 0
        holder = self.sides[self.initiative]
        if ev["holder"] is not None:
            stated = self._side(ev["holder"], ev, "holder")
            if stated is not holder:
                self.ref.violation("BDB-SETUP-1", f"the Initiative roll is {roll} ({parity}): player {who}, "
                                   f"{holder.name}, takes the Initiative token, not {stated.name}", ev.at("holder"))
                self.initiative = stated.index
                holder = stated
        if self.tracing:
            self._t(ev, f"Initiative roll {roll} ({parity}): {holder.name} takes the Initiative token")

    def _claim_hand(self, s: Side, ev: Event, rule: str) -> None:
        """Stated hand and deck sizes are checked; the game goes on with them."""
        if ev["hand"] is None and ev["deck_left"] is None:
            return
        self.ref.claim(rule, f"{s.name}'s hand", ev["hand"], s.hand, ev.at("hand"))
        self.ref.claim(rule, f"{s.name}'s Main Deck", ev["deck_left"], s.deck_left, ev.at("deck_left"))
        if ev["hand"] is not None and ev["hand"] >= 0:
            while sum(s.cards.known.values()) > ev["hand"]:
                s.drop_known()
            s.cards.hidden = ev["hand"] - sum(s.cards.known.values())
        if ev["deck_left"] is not None and ev["deck_left"] >= 0:
            s.deck_left = ev["deck_left"]

    def play_draw(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        named = self._named(ev)
        count = ev["count"]
        if count is not None and count < len(named):
            raise LogError("LOG-FIELD", f"'count' is {count}, but 'cards' names {len(named)}", ev.at("count"))
        self._deck_back_in_step(s, count if count is not None else len(named))
        if self.phase is None:
            rule = "BDB-SETUP-2"
            if s.drew:
                self.ref.violation(rule, f"{s.name} already drew a hand: another one is a new_hand (which puts "
                                   "the old one back)", ev.loc)
            n = count if count is not None else len(named) if named else self.hand_size
            if n != self.hand_size:
                self.ref.violation(rule, f"each player draws {self.hand_size} to start; {s.name} draws {n}",
                                   ev.at("count"))
            s.drew = True
            s.hand_sizes = [*s.hand_sizes, n]      # shared by clones: never changed in place
        elif self.phase == "end" and ev["source"] is None:
            rule = "BDB-END-1"
            owed = self.owed.get(s.index, 0)
            n = count if count is not None else len(named) if named else owed
            if n != owed:
                why = (f"more than {self.draw_up} in hand: none" if s.hand > self.draw_up else
                       f"to fill the hand to {self.draw_up}" if owed == self.draw_up - s.hand else
                       "all the Main Deck holds")
                self.ref.violation(rule, f"{s.name} holds {s.hand} card(s) at the End phase and draws {owed} ({why}), "
                                   f"not {n}", ev.at("count") if count is not None else ev.at("cards"))
            self._phase_order(s, ev, "draws")
            self.owed[s.index] = 0
        else:
            rule = "BDB-END-1"
            if ev["source"] is None:
                self.ref.violation(rule, f"{s.name} draws in the {self._pn(self.phase)} phase: cards are "
                                   "drawn in the End phase, or by a card's effect (name it in 'source')", ev.loc)
            else:
                self._source(ev, s, None)      # a card never played breaks its type's rule
            if count is None and not named:
                raise LogError("LOG-FIELD", "a draw by a card's effect needs 'count' or 'cards'", ev.loc)
            n = len(named) if count is None else count
        got = self._draw(s, n, named, ev, rule)
        self._claim_hand(s, ev, rule)
        if self.tracing:
            shown = f": {', '.join(c.name for c in named)}" + (f" and {got - len(named)} unseen" if got > len(named)
                                                               else "") if named else ""
            self._t(ev, f"{s.name} draws {got}{shown}; hand {s.hand}, deck {s.deck_left}")
        self._deck_out(s, ev)

    def new_hand_size(self, s: Side, nodino: bool) -> tuple[int, int, bool]:
        """BDB-SETUP-2: the size of ``s``'s next new hand, the new hands counted with it, and
        whether it is free of the penalty (the old hand held no Dinosaur)."""
        free = nodino and self.nodino_free
        counted = s.new_hands + (0 if free and not self.nodino_counts else 1)
        if free:
            size = s.hand_sizes[-1] if s.hand_sizes else self.hand_size
        else:
            size = max(self.min_hand, self.hand_size - self.penalty * max(0, counted - self.free_new))
        return size, counted, free

    def play_new_hand(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-SETUP-2"
        if not self._setup_only(ev, rule, "a new hand"):
            return
        if not s.drew:
            self.ref.violation(rule, f"{s.name} takes a new hand before drawing one", ev.loc)
        if s.comp_done:
            self.ref.violation(rule, f"{s.name} takes a new hand after setting the Comp Cards aside", ev.loc)
        named = self._named(ev)
        nodino = bool(ev["no_dinosaur"])
        if nodino and s.hand_unknown == 0 and s.hand:
            dinos = [self.cards[k].name for k in s.hand_known.elements() if self.cards[k].type == "dinosaur"]
            if dinos:
                self.ref.violation(rule, f"{s.name}'s hand holds {', '.join(dinos)}: the new hand is not free of "
                                   "the penalty", ev.at("no_dinosaur"))
                nodino = False
        size, counted, free = self.new_hand_size(s, nodino)
        s.new_hands = counted
        n = size if ev["count"] is None else ev["count"]
        if n != size:
            why = "no Dinosaur: no penalty" if free else f"new hand number {counted}"
            self.ref.violation(rule, f"{s.name}'s new hand has {size} card(s) ({why}), not {n}", ev.at("count"))
        # the old hand goes back into the deck
        s.deck_left += s.hand
        s.seen -= s.hand_known
        s.cards = Hand()
        s.hand_sizes = [*s.hand_sizes, n]
        if len(named) > n:
            raise LogError("LOG-FIELD", f"'cards' names {len(named)}, more than the {n} of the new hand", ev.at("cards"))
        self._draw(s, n, named, ev, rule)
        self._claim_hand(s, ev, rule)
        if self.tracing:
            self._t(ev, f"{s.name} takes a new hand of {n}" + (" (no Dinosaur: no penalty)" if free else ""))
        self._deck_out(s, ev)

    def play_comp_cards(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-SETUP-3"
        if not self._setup_only(ev, rule, "setting Comp Cards aside"):
            return
        if s.comp_done:
            self.ref.violation(rule, f"{s.name} already set the Comp Cards aside", ev.loc)
            return
        if not s.drew:
            self.ref.violation(rule, f"{s.name} sets the Comp Cards aside before drawing a hand", ev.loc)
        n = self.comp_n if ev["count"] is None else ev["count"]
        if n != self.comp_n:
            self.ref.violation(rule, f"each player sets {self.comp_n} Comp Cards aside, not {n}", ev.at("count"))
        n = min(n, s.deck_left)
        s.deck_left -= n
        s.comp = n
        s.comp_done = True
        if self.tracing:
            self._t(ev, f"{s.name} sets {n} Comp Cards aside; deck {s.deck_left}")
        self._deck_out(s, ev)

    def _new_dino(self, s: Side, c: Card) -> Dino:
        k = s.made[c.id] + 1
        s.made = counts(s.made)                  # shared by clones: never changed in place
        s.made[c.id] = k
        return Dino(c, c.id if k == 1 else f"{c.id}#{k}", s.name, int(c.get("hp") or 0))

    def play_place(self, ev: Event) -> None:
        s = self._side(ev["player"], ev, "player")
        rule = "BDB-SETUP-4"
        if not self._setup_only(ev, rule, "placing Dinosaurs"):
            return
        if s.placed:
            self.ref.violation(rule, f"{s.name} already placed the Dinosaurs (add more with 'bench' in a Main "
                               "phase)", ev.loc)
            return
        if not s.comp_done:
            self.ref.violation("BDB-SETUP-3", f"{s.name} places Dinosaurs before setting the Comp Cards aside",
                               ev.loc)
        active = self._card(ev["active"], ev, "active", ("dinosaur",))
        bench_raw = ev["bench"] or []
        bench = [self._card(x, ev, "bench", ("dinosaur",)) for x in bench_raw]
        if len(bench) > self.bench_max:
            self.ref.violation(rule, f"{s.name} benches {len(bench)} Dinosaurs; the bench holds {self.bench_max}",
                               ev.at("bench"))
        for c, fname in [(active, "active")] + [(c, "bench") for c in bench]:
            self._from_hand(s, c, ev, ev.at(fname), rule)
        s.active = self._new_dino(s, active)
        s.bench = [self._new_dino(s, c) for c in bench]
        s.placed = True
        if self.tracing:
            self._t(ev, f"{s.name} places {s.active.name} (active)"
                    + (f" and benches {', '.join(d.name for d in s.bench)}" if s.bench else ""))
        if all(x.placed for x in self.sides):
            if self.tracing:
                self._t(None, "all Dinosaurs are revealed")

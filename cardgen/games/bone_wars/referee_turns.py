"""Bone Wars referee — turns, draws and the Creation Phase (BW-TURN-1, BW-SETUP-3 for the first
turn, BW-CREATE-1…6, BW-ATK-1): each event checked against the table, then applied to it as
recorded. A player's first event of a turn is the log's turn marker: the replay follows it."""

from __future__ import annotations

from cardgen.content.playlog import Event, LogError
from cardgen.core.options import Opt
from cardgen.core.problems import Loc
from cardgen.games.bone_wars.referee_base import RefereeBase
from cardgen.games.bone_wars.rules import Monster, Part
from cardgen.games.bone_wars.table import Outcome
from cardgen.games.bone_wars.vocab import HIDDEN, NO_BLOCK, TURN_KINDS
from cardgen.play.lookup import hint_for
from cardgen.play.referee import typed


class TurnReferee(RefereeBase):
    """The turn and Creation Phase handlers of :class:`.engine.Engine`."""

    def _from_hand(self, p: str, c: Part, rule: str, loc: Loc | None) -> None:
        have = ", ".join(self.parts_pool[i].name for i in self.s.hands[p].cards()) or "no cards"
        how = self.s.take(p, c.id)
        if how == "missing":
            self.ref.violation(rule, f"{p} has no {c.name} in hand (the hand holds {have})", loc)
        if how != "known":
            self._reveal(c, rule, loc, f"{p} plays")

    def _part_card(self, ev: Event, rule: str) -> Part | None:
        c = self._find_card(ev["card"], ev.at("card"), "card")
        if c.id not in self.parts_pool:
            self.ref.violation(rule, f"{c.name} is not a Part card: only Part cards build monsters", ev.at("card"))
            return None
        return c

    # -- turns ----------------------------------------------------------------------------

    def _end_turn(self, ev: Event, to: str | None = None) -> None:
        self._state_lines(f"after turn {self.s.turn} ({self.s.current})")
        self.s.end_turn(to)

    def _turn_actor(self, ev: Event, p: str) -> None:
        """The event's player acts in their own turn (BW-TURN-1); otherwise as recorded."""
        if self.s.out.get(p) is not None:
            self.ref.violation("BW-TURN-1", f"{p} is out of the game (line {self.s.out[p].line}); eliminated "
                               "players are skipped", ev.at("player"))
        if self.s.current is None:
            self.s.turn = max(self.s.turn, 1)
            self.s.begin_turn(p)
        elif p != self.s.current:
            nxt = self.s.next_player(self.s.current)
            order = ", ".join(self.s.players)
            if self.s.begun and p == nxt:
                self._end_turn(ev)                      # the next player's turn starts
            else:
                if self.s.out.get(p) is not None:
                    pass                                # reported above
                elif not self.s.begun and self.s.turn == 1 and self.s.rolled_first == self.s.current:
                    self.ref.violation("BW-SETUP-3", f"{self.s.current} rolled highest ({self.s.first_roll}) and takes "
                                       f"the first turn, not {p}", ev.at("player"))
                elif self.s.begun:
                    self.ref.violation("BW-TURN-1", f"{p} acts during {self.s.current}'s turn {self.s.turn}; turns go "
                                       f"clockwise ({order}): after {self.s.current} comes {nxt}", ev.at("player"))
                else:
                    after = f", and {self.s.current} follows {self.s.prev}" if self.s.prev else ""
                    self.ref.violation("BW-TURN-1", f"it is {self.s.current}'s turn, not {p}'s: turns go clockwise "
                                       f"({order}){after}", ev.at("player"))
                if self.s.begun:
                    self._end_turn(ev, to=p)
                else:
                    self.s.begin_turn(p)
        if not self.s.begun:
            self.ref.trace(f"      turn {self.s.turn} · {self.s.current}")
        self.s.begun = True

    def _creation(self, ev: Event) -> None:
        """Leave the draw step: a turn starts by drawing (BW-TURN-1)."""
        if self.s.phase == "draw":
            if self.s.drawn < self.s.need:
                n = "a card" if self.s.need == 1 else f"{self.s.need} cards"
                self.ref.violation("BW-TURN-1", f"{self.s.current}'s turn starts by drawing {n} from the center pile "
                                   f"({self.s.pile} left); no draw is recorded", ev.loc)
            self.s.phase = "create"

    def on_draw(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        c = self._find_card(ev["card"], ev.at("card"), "card") if ev["card"] not in (None, HIDDEN) else None
        self._turn_actor(ev, p)
        if self.s.pile <= 0:
            self.ref.violation("BW-TURN-1", "the center pile is empty: no card is drawn", ev.loc)
        elif self.s.phase != "draw":
            self.ref.violation("BW-TURN-1", f"a turn starts by drawing {self.rules.draw_per_turn} card; {p} draws after "
                               "the Creation Phase began", ev.loc)
        elif self.s.drawn >= self.s.need:
            self.ref.violation("BW-TURN-1", f"a turn starts by drawing exactly {self.rules.draw_per_turn} card; {p} "
                               "draws again", ev.loc)
        if c is not None:
            if c.id not in self.parts_pool:
                self.ref.violation("BW-TURN-1", f"{c.name} is not in the center pile (Part cards only)", ev.at("card"))
            else:
                self._reveal(c, "BW-TURN-1", ev.at("card"), f"{p} draws")
        self.s.draw(p, c.id if c is not None else None)
        self._t(ev, f"{p} draws {c.name if c else 'a card'} (hand {self.s.hands[p].size}, pile {self.s.pile})")

    def on_end_turn(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        self._turn_actor(ev, p)
        self._creation(ev)
        claims = ev["hp"]
        if claims:
            for key, v in claims.items():
                q = self._find_player(key, ev.at("hp"), "hp")
                v = typed(v, Opt("int"), ev.at("hp"), f"'hp' of {q}")
                if v is not None and v != self.s.hp[q]:
                    self.ref.claim(self.s.hp_rule[q], f"{q}'s HP", v, self.s.hp[q], ev.at("hp"))
                    self.s.hp[q] = v
                    self._settle_player(q, ev)
        self._t(ev, f"{p} ends the turn")
        self._end_turn(ev)

    # -- the Creation Phase ---------------------------------------------------------------

    def _out_of_turn(self, ev: Event, p: str) -> bool:
        """An edit or attack by a player whose turn the log has not started — a draw is due from
        them and the log goes on with the current player, or with that player's own draw later —
        is made outside their turn (BW-CREATE-1, BW-TURN-1); the turn stays the current player's.
        So is an edit by another player while an attack awaits its answer (a monster laid down to block).
        (With the pile empty no draw marks a turn: the event starts the next player's turn.)"""
        s = self.s
        if s.current is None or p == s.current or s.out.get(p) is not None:
            return False
        if s.combat is not None:                      # the defender builds mid-attack: still the attacker's turn
            return True
        if s.pile <= 0:
            return False
        nxt = next((e for e in self.ahead(ev) if e.kind in TURN_KINDS), None)
        if nxt is None:
            return False
        who = str(nxt.get("player") or "").strip()
        if who.lower() == s.current.lower():          # the current player goes on (a draw: a new turn)
            return nxt.kind != "draw" or not s.begun
        return nxt.kind == "draw" and who.lower() == p.lower()

    def _edit_allowed(self, ev: Event, p: str) -> bool:
        """Whether the edit is made in ``p``'s own turn (it is applied to ``p``'s table either way)."""
        if self._out_of_turn(ev, p):
            does = {"create": "creates a monster", "add_part": "adds a part", "replace_part": "replaces a part"}
            self.ref.violation("BW-CREATE-1", f"{p} {does[ev.kind]} during {self.s.current}'s turn {self.s.turn}: "
                               "a player creates or edits only in their own Creation Phase", ev.loc)
            return False
        self._turn_actor(ev, p)
        self._creation(ev)
        what = {"create": "create", "add_part": "add a part", "replace_part": "replace a part"}[ev.kind]
        if self.s.phase == "destroy":
            self.ref.violation("BW-ATK-1", f"{p} cannot {what} after the first attack of the turn: the Creation "
                               "Phase is over", ev.loc)
        elif self.s.edits >= self.rules.edits_per_turn:
            self.ref.violation("BW-CREATE-1", f"{self.rules.edits_per_turn} create-or-edit per turn; {p} already used "
                               "it this turn", ev.loc)
        self.s.edits += 1
        return True

    def _stat_claims(self, ev: Event, m: Monster) -> None:
        st = ev["stats"]
        if st:
            for k, v in st.items():
                if v is not None:
                    self.ref.claim("BW-CREATE-5", f"{m.name}'s {self.rules.stat_names.get(k, k)}", v, m.stat(k),
                                   ev.at("stats"))
        tr = ev["traits"]
        if tr is not None:
            stated = set()
            for t in tr:
                key = str(t).strip().lower()
                if key not in self.rules.trait_names:
                    raise LogError("LOG-FIELD", f"'traits' names no Trait: {t!r}", ev.at("traits"),
                                   hint_for(key, self.rules.trait_names))
                stated.add(key)
            if stated != m.traits:
                self.ref.violation("BW-CREATE-5", f"the log gives {m.name} the Traits "
                                   f"{self.rules.trait_list(stated) or 'none'}, but the union of its parts' is "
                                   f"{self.rules.trait_list(m.traits) or 'none'}", ev.at("traits"))

    def on_create(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        name = str(ev["monster"]).strip()
        if not name or name.lower() == NO_BLOCK:
            raise LogError("LOG-FIELD", f"monster name {name!r} is empty or reserved", ev.at("monster"))
        if name in self.s.monsters:
            raise LogError("LOG-FIELD", f"a monster named {name!r} ({self.s.monsters[name].owner}'s) is already on "
                           "the table: give each monster its own name", ev.at("monster"))
        self._edit_allowed(ev, p)
        c = self._part_card(ev, "BW-CREATE-2")
        if c is None:
            return
        self._from_hand(p, c, "BW-CREATE-2", ev.at("card"))
        m = self.s.create(p, c, name, ev.loc)
        self._stat_claims(ev, m)
        self._t(ev, f"{p} creates {self.brief(m)}")

    def _own_monster(self, ev: Event, p: str, rule: str) -> Monster:
        m = self._find_monster(ev["monster"], ev.at("monster"), "monster")
        if not self.s.alive(m) and not self._back_from_slip(m):
            self.ref.violation("BW-ATK-8", f"{m.name} was destroyed (line {m.gone.line if m.gone else '?'}) and "
                               "its parts discarded", ev.at("monster"))
            self.s.restore(m)
        if m.owner != p:
            self.ref.violation(rule, f"{m.name} is {m.owner}'s monster; {p} edits only monsters they control",
                               ev.at("monster"))
        return m

    def on_add_part(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        m = self._own_monster(ev, p, "BW-CREATE-3")
        self._edit_allowed(ev, p)
        c = self._part_card(ev, "BW-CREATE-3")
        if c is None:
            return
        if len(m.parts) >= self.rules.max_parts:
            self.ref.violation("BW-CREATE-3", f"a part is added only to a monster with fewer than "
                               f"{self.rules.max_parts} parts; {m.name} has {len(m.parts)}", ev.loc)
        kind = c.part
        if any(x.part == kind for x in m.parts):
            self.ref.violation("BW-CREATE-3", f"{m.name} already has a {self.rules.part_names.get(kind, kind)} "
                               "part; an added part is of a type the monster lacks", ev.at("card"))
        self._from_hand(p, c, "BW-CREATE-3", ev.at("card"))
        m.add(c)
        self._stat_claims(ev, m)
        self._t(ev, f"{p} adds {c.name}: {self.brief(m)}")

    def on_replace_part(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        m = self._own_monster(ev, p, "BW-CREATE-4")
        self._edit_allowed(ev, p)
        c = self._part_card(ev, "BW-CREATE-4")
        if c is None:
            return
        kind = c.part
        old = None
        if ev["replaces"] is not None:
            oc = self._find_card(ev["replaces"], ev.at("replaces"), "replaces")
            old = next((x for x in m.parts if x.id == oc.id), None)
            if old is None:
                self.ref.violation("BW-CREATE-4", f"{m.name} has no {oc.name} to replace", ev.at("replaces"))
            elif old.part != kind:
                self.ref.violation("BW-CREATE-4", f"a part is replaced by one of the same type: {old.name} is "
                                   f"{self.rules.part_names.get(old.part)}, "
                                   f"{c.name} is {self.rules.part_names.get(kind)}",
                                   ev.at("card"))
        if old is None:
            old = next((x for x in m.parts if x.part == kind), None)
            if old is None and ev["replaces"] is None:
                self.ref.violation("BW-CREATE-4", f"{m.name} has no {self.rules.part_names.get(kind, kind)} part for "
                                   f"{c.name} to replace", ev.at("card"))
        self._from_hand(p, c, "BW-CREATE-4", ev.at("card"))
        self.s.replace(p, m, old, c)
        self._stat_claims(ev, m)
        self._t(ev, f"{p} replaces {old.name if old else 'nothing'} with {c.name}: {self.brief(m)}")
        if m.damage >= m.hp:      # BW-ATK-8: its damage now reaches its HP
            self.s.last = Outcome(ev.loc, False, destroyed=[m.name])
            self.s.destroy(m, ev.loc)
            self._t(ev, f"{m.name} has {m.damage} damage and {m.hp} HP: destroyed")


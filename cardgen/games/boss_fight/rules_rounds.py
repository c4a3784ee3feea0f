"""Boss Fight rules engine: rounds, draws and turns (BF-INIT-1, BF-DRAW-1/2, BF-ACT-1, BF-STATUS-1/2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.games.boss_fight.state import Fighter, Pile
from cardgen.games.boss_fight.table_base import TableBase
from cardgen.games.boss_fight.vocab import HIDDEN


class RoundRules(TableBase):
    """Rounds, draws and turns of :class:`~.table.Table`."""

    # -- rounds (BF-INIT-1, BF-DRAW-1) ---------------------------------------------------------------

    def _living(self) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.alive]

    def _need_actions(self, f: Fighter) -> int:
        if not f.alive:
            return 0
        n = self.actions[f.side]
        for s in f.statuses:
            if s in self.action_status:
                n = min(n, self.action_status[s])
        return n

    def _due_draw(self, f: Fighter) -> int:
        if not f.alive:
            return 0
        n = self.first_draw if self.round == 1 else self.draws[f.side]
        for s in f.statuses:
            if s in self.draw_status:
                n = min(n, self.draw_status[s])
        return min(n, f.deck + f.discard.size + f.expended.size)

    def _round_complete(self) -> bool:
        """Every living character has had its turn (the one in progress counts)."""
        done = self.acted | ({self.current.key} if self.current is not None else set())
        return all(f.key in done or self._need_actions(f) == 0 for f in self._living())

    def _new_round(self, ev: Event, first: bool = False) -> None:
        if not first:
            self._close_round(ev)
        self.round += 1
        self.acted = set()
        self.drawn = Counter()
        self.draw_at = {}
        self.turns_begun = False
        self.current = None
        self.start_agility = {f.key: self.stat(f, "agility") for f in self._living()}
        self.order = sorted(self.start_agility, key=lambda k: -self.start_agility[k])
        self.due = {f.key: self._due_draw(f) for f in self.fighters.values()}
        if self.tracing:
            self.ref.trace(f"      round {self.round} — order by Agility: "
                           + " ".join(f"{k} {self.start_agility[k]}" for k in self.order))

    def _close_round(self, ev: Event) -> None:
        self._end_turn(ev)
        for f in self._living():
            if f.key in self.acted:
                continue
            if self._need_actions(f) == 0 or (f.hand.size == 0 and f.placed is not None):
                self._begin_turn(f, ev, quiet=True)     # a Stunned character's turn, left out of the log
                self._end_turn(ev, quiet=True)
            else:
                self.ref.violation("BF-ACT-1", f"{f.key} took no turn in round {self.round}: it must use "
                                   f"{self._need_actions(f)} action{'s' if self._need_actions(f) != 1 else ''}", ev.loc)
                self.acted.add(f.key)
        for f in self.fighters.values():
            f.mods = [m for m in f.mods if m[2] != "round"]

    def play_round(self, ev: Event) -> None:
        if self.turns_begun or self.current is not None or self.acted:
            self._new_round(ev)
        if ev["number"] is not None and ev["number"] != self.round:
            self.ref.violation("BF-INIT-1", f"the log says round {ev['number']}, but this is round {self.round}",
                               ev.at("number"))
        if ev["order"] is not None:
            stated = [self._fighter(x, ev.at("order"), "order").key for x in ev["order"]]
            living = set(self.start_agility)
            if set(stated) != living or len(stated) != len(living):
                self.ref.violation("BF-INIT-1", f"the order of round {self.round} lists every living character once: "
                                   f"{', '.join(self.order)}", ev.at("order"))
            else:
                ag = [self.start_agility[k] for k in stated]
                bad = next((i for i in range(1, len(ag)) if ag[i] > ag[i - 1]), None)
                if bad is not None:
                    a, b = stated[bad - 1], stated[bad]
                    self.ref.violation("BF-INIT-1", f"{b} (Agility {ag[bad]}) goes before {a} (Agility {ag[bad - 1]}): "
                                       "turn order is by current Agility, highest first", ev.at("order"))
                else:
                    self.order = stated

    # -- draws (BF-DRAW-1, BF-DRAW-2) ------------------------------------------------------------

    def _pool(self, f: Fighter, cid: str) -> int:
        """Copies of ``cid`` that may be in the deck or among the unnamed cards in hand."""
        return f.total[cid] - f.hand.known[cid] - f.discard.known[cid] - f.expended.known[cid] - f.used.known[cid]

    def _reshuffle(self, f: Fighter, ev: Event | None) -> None:
        n = f.discard.size + f.expended.size
        f.deck += n
        f.discard, f.expended = Pile(), Pile()
        self._t(ev, f"{f.key} shuffles its Discard and Expended piles into a new deck ({n} cards)")

    def play_reshuffle(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if f.deck > 0:
            self.ref.violation("BF-DRAW-2", f"{f.key}'s deck still holds {f.deck} card{'s' if f.deck != 1 else ''}: "
                               "the piles are shuffled into a new deck only when it must draw from an empty one",
                               ev.loc)
        self._reshuffle(f, ev)

    def play_draw(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        named: list[Card | None] = []
        for x in ev["cards"] or []:
            if str(x).strip() == HIDDEN:
                named.append(None)
                continue
            named.append(self._card(x, ev.at("cards"), "cards", ("action",)))
        source = ev["source"]
        if source is not None:
            source = self._card_or_text(source, ev.at("source"), "source")
        mid_turn = self.current is f and self.used_actions < self.need and f.hand.size > 0
        if source is None and self.turns_begun and self._round_complete() and not mid_turn:
            self._new_round(ev)         # the next round's draws (a draw in the middle of a turn is card text's)
        count = ev["count"]
        if count is None:
            if named:
                count = len(named)
            elif source is None:
                count = max(0, self.due.get(f.key, 0) - self.drawn[f.key])
            else:
                raise LogError("LOG-FIELD", "a draw by card text gives 'count' or names its 'cards'", ev.loc)
        if named and len(named) > count:
            raise LogError("LOG-FIELD", f"'cards' names {len(named)} cards but 'count' is {count}", ev.at("cards"))
        if source is None:
            if self.turns_begun:
                self.ref.violation("BF-DRAW-1", f"round draws come at the start of the round, before the first turn; "
                                   f"{f.key} draws {count} in round {self.round} after turns began", ev.loc,
                                   "a draw that card text makes names the card with 'source:'")
            elif not f.alive:
                assert f.dead is not None
                self.ref.violation("BF-DRAW-1", f"{f.key} is dead (line {f.dead.line}): dead characters draw nothing",
                                   ev.loc)
            else:
                due = self.due.get(f.key, 0)
                if self.drawn[f.key] + count > due:
                    self.ref.violation("BF-DRAW-1", f"{f.key} draws {self.drawn[f.key] + count} at the start of round "
                                       f"{self.round}; it draws {due} ({self._why_due(f)})", ev.loc)
            self.drawn[f.key] += count
            self.draw_at[f.key] = ev.loc
        elif not f.alive:
            assert f.dead is not None
            self.ref.violation("BF-CMB-3", f"{f.key} is dead (line {f.dead.line}): it draws nothing", ev.loc)
        got = 0
        while got < count and self._draw_one(f, named[got] if got < len(named) else None, ev):
            got += 1
        if self.tracing:
            what = ", ".join(c.name for c in named if c is not None)
            self._t(ev, f"{f.key} draws {got}{' (' + what + ')' if what else ''}"
                        f"{' by ' + str(source) if source else ''}: hand {f.hand.size}, deck {f.deck}")

    def _draw_one(self, f: Fighter, c: Card | None, ev: Event | None) -> bool:
        """``f`` draws ``c`` (None: unnamed), its deck reshuffled first when empty (BF-DRAW-2).

        False: none left to draw."""
        if f.deck == 0:
            if f.discard.size + f.expended.size == 0:
                self.ref.violation("BF-DRAW-2", f"{f.key} has no card left to draw: its deck, Discard and Expended "
                                   "piles are empty (the Used pile stays out)", ev.loc if ev else None)
                return False
            self._reshuffle(f, ev)
        if c is None:
            f.hand.unknown += 1
        else:
            if ev is not None and self.ref.replaying and self._pool(f, c.id) <= 0:
                piles = f.discard.known[c.id] + f.expended.known[c.id]
                if piles and f.deck > 0:
                    self.ref.violation("BF-DRAW-2", f"{f.key} draws {c.name}, but its copies are in its Discard or "
                                       "Expended pile, which is shuffled in only when the deck is empty",
                                       ev.at("cards"))
                else:
                    self.ref.violation("BF-DRAW-1", f"{f.key} draws {c.name}, but its deck holds no more: it has "
                                       f"{f.total[c.id]}", ev.at("cards"))
            f.hand.known[c.id] += 1
        f.deck -= 1
        return True

    def round_draw(self, f: Fighter, cid: str, loc: Loc) -> None:
        """A played state's round draw of one card.

        :meth:`play_draw`'s step, with no name to read and nothing to report."""
        self.died_here = []
        self.drawn[f.key] += 1
        self.draw_at[f.key] = loc
        self._draw_one(f, self.cards[cid], None)

    def _why_due(self, f: Fighter) -> str:
        held = [self.status_names[s] for s in f.statuses if s in self.draw_status]
        if held:
            return f"{' and '.join(held)}"
        base = self.first_draw if self.round == 1 else self.draws[f.side]
        if self.due.get(f.key, 0) < base:
            return "all its deck and piles hold"
        return "the first round" if self.round == 1 else f"a {'boss' if f.side == 'boss' else 'hero'}"

    def _check_draws(self, ev: Event) -> None:
        """At the round's first turn: every living character drew what the round gives; a short draw
        is reported at its own line (the last draw the character made), a missing one here."""
        for f in self._living():
            due = self.due.get(f.key, 0)
            if self.drawn[f.key] < due:
                self.ref.violation("BF-DRAW-1", f"{f.key} drew {self.drawn[f.key]} of its {due} cards at the start of "
                                   f"round {self.round} ({self._why_due(f)})", self.draw_at.get(f.key, ev.loc))

    # -- turns (BF-INIT-1, BF-ACT-1, BF-STATUS-1, 2) ---------------------------------------------------

    def _enter_turn(self, f: Fighter, ev: Event) -> None:
        """``f`` acts in its own turn: start it if it is not the one in progress."""
        if self.phase == "place":
            self._end_placement(ev)
        if self.current is f:
            return
        if self.current is not None:
            self._end_turn(ev)
        if f.key in self.acted and self._round_complete():
            self._new_round(ev)
        self._begin_turn(f, ev)

    def _begin_turn(self, f: Fighter, ev: Event, quiet: bool = False) -> None:
        if not quiet and self.ref.replaying:      # (what a played state does is legal: checked in a log)
            if not self.turns_begun:
                self._check_draws(ev)
            if not f.alive:
                assert f.dead is not None
                self.ref.violation("BF-CMB-3", f"{f.key} died at line {f.dead.line}: the dead have no turns", ev.loc)
            elif f.key in self.acted:
                self.ref.violation("BF-INIT-1", f"{f.key} already had its turn in round {self.round}", ev.loc)
            else:
                waiting = [k for k in self.order if k not in self.acted and k != f.key and self.fighters[k].alive
                           and self.start_agility.get(k, -1) > self.start_agility.get(f.key, -1)]
                if waiting:
                    w = waiting[0]
                    self.ref.violation("BF-INIT-1", f"{w} (Agility {self.start_agility[w]}) goes before {f.key} "
                                       f"(Agility {self.start_agility.get(f.key)}) in round {self.round}: turn order "
                                       "is by current Agility, highest first", ev.loc)
        self.turns_begun = True
        self.current = f
        f.cure_loc, f.after_cure = None, 0
        self.turn_loc = ev.loc
        f.turns += 1
        f.seen_now = set()
        self.looked = None                      # a new turn looks afresh
        self.used_actions = 0
        self.attacks = 0
        self.attack_limit = self.attack_cap
        self.need = self._need_actions(f)
        if not quiet and self.tracing:
            st = ", ".join(self.status_names[s] for s in f.statuses)
            self.ref.trace(f"      turn · {f.key} (round {self.round}; {self.need} action{'s' if self.need != 1 else ''}"
                           f"{'; ' + st if st else ''})")
        if self.poison in f.statuses and f.alive:
            roll = ev["poison_roll"] if ev.kind == "turn" else None
            if roll is None:
                if not quiet:
                    self.ref.violation("BF-STATUS-2", f"{f.key} is {self.status_names[self.poison]}: its turn starts "
                                       f"with a d{self.die} roll ({'–'.join(map(str, sorted(self.poison_cure)))} "
                                       "removes it); none is recorded", ev.loc)
            elif self.ref.die(roll, self.die, "BF-STATUS-2", ev.at("poison_roll"), f"{f.key}'s poison d{self.die}"):
                if roll in self.poison_cure:
                    del f.statuses[self.poison]
                    f.cure_loc, f.cure_roll = ev.loc, int(roll)
                    self._t(ev, f"{f.key} rolls {roll}: no longer {self.status_names[self.poison]}")
                else:
                    self._t(ev, f"{f.key} rolls {roll}: still {self.status_names[self.poison]}")
        elif ev.kind == "turn" and ev["poison_roll"] is not None and not quiet:
            self.ref.violation("BF-STATUS-2", f"{f.key} is not {self.status_names[self.poison]}: no poison roll",
                               ev.at("poison_roll"))
        self._look(f)

    def _end_turn(self, ev: Event, quiet: bool = False) -> None:
        f = self.current
        if f is None:
            return
        self.current = None
        if not quiet and not self.over and f.alive and self.used_actions < self.need and f.hand.size > 0:
            assert self.turn_loc is not None        # set with self.current by _begin_turn
            self.ref.violation("BF-ACT-1", f"{f.key} used {self.used_actions} of its {self.need} action"
                               f"{'s' if self.need != 1 else ''} in its turn (line {self.turn_loc.line}); "
                               f"{'a hero uses' if f.side == 'hero' else 'the boss uses'} exactly "
                               f"{self.need}", ev.loc)
        for s in [s for s, end in f.statuses.items() if s in self.short_statuses and end <= f.turns]:
            del f.statuses[s]
        f.mods = [m for m in f.mods if not (m[2] == "turn" and m[3] <= f.turns)]
        f.seen_last = set(f.seen_now)
        self.acted.add(f.key)
        if not quiet:
            self._state(f"after {f.key}'s turn (round {self.round})")

    def play_turn(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if self.current is f:
            self._end_turn(ev)
        self._enter_turn(f, ev)

    def play_end_turn(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        if self.over:
            pass
        elif self.current is not f:
            self._enter_turn(f, ev)              # a turn without actions (Stunned, or nothing in hand)
        if self.current is f:
            self._end_turn(ev)
        self._claim_state(ev)

    def _claim_state(self, ev: Event) -> None:
        for key, hp in (ev["hp"] or {}).items():
            g = self._fighter(key, ev.at("hp"), "hp")
            self._hp_claim(g, hp, ev.at("hp"))
            if hp != g.hp:
                g.hp = hp
                self._settle(g, ev)
        for key, sts in (ev["statuses"] or {}).items():
            g = self._fighter(key, ev.at("statuses"), "statuses")
            stated = {self._status(s, ev.at("statuses"), "statuses") for s in sts}
            if stated != set(g.statuses):
                def names(keys: Iterable[str]) -> str:
                    return " and ".join(self.status_names[s] for s in sorted(keys)) or "free of statuses"
                ends = " and ".join(self.status_names[s] for s in self.short_statuses)
                self.ref.violation("BF-STATUS-1", f"the log says {g.key} is {names(stated)}, but it is "
                                   f"{names(g.statuses)} ({ends} end at the end of the character's next turn)",
                                   ev.at("statuses"))

    def _hp_claim(self, g: Fighter, stated: Any, loc: Loc | None, rule: str | None = None) -> None:
        """A Health the log states must be the computed one. Lower by exactly the poison damage of
        the actions since a successful cure roll: BF-STATUS-2 (the poison was charged after it was
        rolled off), not the rule of the last change."""
        if stated is None or stated == g.hp:
            return
        if g.after_cure and g.cure_loc is not None and g.hp - stated == g.after_cure:
            name = self.status_names[self.poison]
            self.ref.violation("BF-STATUS-2", f"the log says {g.key}'s Health is {stated}, but it is {g.hp}: its "
                               f"roll of {g.cure_roll} at line {g.cure_loc.line} removed {name}, so its actions since "
                               f"cost no poison damage ({g.hp} − {g.after_cure} = {stated} charges it anyway)", loc)
            return
        self.ref.claim(rule or g.hp_rule, f"{g.key}'s Health", stated, g.hp, loc)

    def _action(self, ev: Event, f: Fighter, attack: bool = False) -> None:
        """One of ``f``'s actions (BF-ACT-1)."""
        self._enter_turn(f, ev)
        if not f.alive:
            return
        self.used_actions += 1
        if self.used_actions > self.need:
            why = [self.status_names[s] for s in f.statuses if s in self.action_status]
            self.ref.violation("BF-ACT-1", f"{f.key} uses action {self.used_actions}; "
                               + (f"{' and '.join(why)}, it has {self.need}" if why else
                                  f"{'a hero' if f.side == 'hero' else 'the boss'} uses exactly {self.need}")
                               + " per turn", ev.loc)
        if attack:
            self.attacks += 1
            if f.side == "boss" and self.attacks > self.attack_limit:
                self.ref.violation("BF-ACT-1", f"the boss's attack action {self.attacks}: at most {self.attack_limit} "
                                   "of its actions per turn are attacks", ev.loc)

    def _after_action(self, ev: Event, f: Fighter) -> None:
        """BF-STATUS-2: a poisoned character takes damage for the action it used."""
        if f.alive and self.poison not in f.statuses and f.cure_loc is not None:
            f.after_cure += self.poison_damage
        if f.alive and self.poison in f.statuses:
            f.hp -= self.poison_damage
            f.hp_rule = "BF-STATUS-2"
            if self.tracing:
                self._t(ev, f"{f.key} is {self.status_names[self.poison]}: {self.poison_damage} damage, {f.hp} HP")
            self._settle(f, ev)

"""Bone Wars referee — what the engine and its two handler mixins (:mod:`.referee_turns`,
:mod:`.referee_combat`) share: the table, the log's names read (cards, players, monsters), and the
trace of monsters and players. Each mixin calls the other's steps through the declarations here."""

from __future__ import annotations

from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.games.bone_wars.rules import Monster, Part, Rules
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.play.lookup import Names, NotFound
from cardgen.play.referee import BaseEngine
from cardgen.play.resync import unslipped


class RefereeBase(BaseEngine):
    """The engine's shared state and helpers (set up by :class:`.engine.Engine`)."""

    s: BoneWarsState
    rules: Rules
    parts_pool: dict[str, Part]
    cards: Names

    # -- steps of one mixin the other takes -----------------------------------------------

    def _turn_actor(self, ev: Event, p: str) -> None:
        raise NotImplementedError           # referee_turns

    def _creation(self, ev: Event) -> None:
        raise NotImplementedError           # referee_turns

    def _out_of_turn(self, ev: Event, p: str) -> bool:
        raise NotImplementedError           # referee_turns

    def _settle_player(self, p: str, ev: Event) -> None:
        raise NotImplementedError           # referee_combat

    # -- reading the log's names ------------------------------------------------------------

    def _find_card(self, value: Any, loc: Loc | None, fname: str) -> Part | Any:
        try:
            c = self.cards.find(value)
        except NotFound as e:
            raise LogError("LOG-FIELD", f"'{fname}' names no card: {value!r}" if "names no" in e.message
                           else f"'{fname}': {e.message}", loc, e.hint) from None
        return self.parts_pool.get(c.id, c)

    def _find_player(self, value: Any, loc: Loc | None, fname: str) -> str:
        names = Names("player", [(p, p) for p in self.s.players])
        try:
            return names.find(value)
        except NotFound as e:
            raise LogError("LOG-FIELD", f"'{fname}' names no player: {value!r}", loc,
                           e.hint if e.hint and "did you mean" in e.hint
                           else f"players: {', '.join(self.s.players)}") from None

    def _find_monster(self, value: Any, loc: Loc | None, fname: str) -> Monster:
        s = self.s
        names = Names("monster", [*s.graveyard.items(), *s.monsters.items()])
        try:
            return names.find(value)
        except NotFound as e:
            raise LogError("LOG-FIELD", f"'{fname}' names no monster: {value!r} (a monster is named by its "
                           "'create' event)", loc,
                           e.hint if e.hint and "did you mean" in e.hint else
                           (f"monsters: {', '.join(s.monsters)}" if s.monsters else "no monster yet")) from None

    # -- monsters and players, with their trace ---------------------------------------------

    def _back_from_slip(self, m: Monster) -> bool:
        """A destroyed monster that acts, destroyed only by an HP left the log stated wrong (reported
        there): it is back on the table, in step with the log, and no new problem."""
        alt = unslipped(self.ref, f"{m.name}'s HP left", m.hp_left)
        if self.s.alive(m) or alt is None or alt <= 0:
            return False
        self.s.restore(m)
        m.damage = m.hp - alt
        return True

    def brief(self, m: Monster) -> str:
        flags = []
        if m.tapped:
            flags.append("attacked" + (", can block" if m.has("vigilant") else ", cannot block"))
        tr = m.traits
        return (f"{m.name} [{' + '.join(c.name for c in m.parts)}] Str {m.str} Def {m.def_} Atk {m.atk} "
                f"HP {m.hp_left}/{m.hp}" + (f" · {self.rules.trait_list(tr)}" if tr else "")
                + (f" ({', '.join(flags)})" if flags else ""))

    def _trace_out(self, p: str, ev: Event) -> None:
        """The trace of a player put out (BW-END-1) and of the end it may bring (BW-END-2)."""
        mons = self.s.lost_with.get(p, [])
        self._t(ev, f"{p} is out of the game ({self.s.hp[p]} HP)"
                    + (f"; {', '.join(m.name for m in mons)} {'goes' if len(mons) == 1 else 'go'} to the discard pile"
                       if mons else ""))
        if self.s.over and self.s.end_where is ev.loc:
            self._t(ev, f"the game ends: {self.s.winner or 'nobody'} wins (BW-END-2)")

    def _eliminate(self, p: str, ev: Event) -> None:
        self.s.eliminate(p, ev.loc)
        self._trace_out(p, ev)

    def _reveal(self, c: Part, rule: str, loc: Loc | None, how: str) -> None:
        """A card becomes known: the center pile holds only ``copies`` of it."""
        if not self.s.reveal(c.id):
            self.ref.violation(rule, f"{how} {c.name}, but the center pile holds {c.copies} and "
                               f"{c.copies} {'is' if c.copies == 1 else 'are'} already out", loc)

    def _state_lines(self, title: str) -> None:
        s = self.s
        self.ref.trace(f"      {title} — center pile {s.pile}, discard {len(s.discard)}")
        for p in s.players:
            if s.out.get(p) is not None:
                self.ref.trace(f"        {p}: out of the game (line {s.out[p].line})")
                continue
            mons = s.owned(p)
            self.ref.trace(f"        {p}: {s.hp[p]} HP, hand {s.hands[p].size}" + ("" if mons else ", no monsters"))
            for m in mons:
                self.ref.trace(f"          {self.brief(m)}")

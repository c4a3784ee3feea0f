"""Loot & Battles on the shared referee: a slip read the way the rest of the log bears it out.

One wrong number can be read more than one way, and only the log's later events tell which: a
blow's stated Health, Armor or Dodge the table wrote wrong and then played on from the rules'
value, or played on from as written; a die whose blow the table played the other way (its stated
values are those of a miss where the die hits); an enemy the log plays in front of another
player than its placing die puts it. Where a blow's stated values or a placement's first round
disagree with the rules, the play core's look-ahead (:mod:`cardgen.play.lookahead`) replays each
reading on a copy over the log's next events (to the end of the Battle) and follows the one under
which they break the fewest rules — the reading as recorded on a tie. This module gives only the
readings (the contract's :class:`~cardgen.play.lookahead.ReadsAhead` hook). One slip, one problem.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, TypeAlias, cast

from cardgen.content.playlog import LogError
from cardgen.games.loot_battles.follow import Follow
from cardgen.games.loot_battles.names import LogNames
from cardgen.games.loot_battles.play import LootState
from cardgen.play.api import Action, GameState
from cardgen.play.dice import off_die
from cardgen.play.lookahead import LookAhead, Reading, played
from cardgen.play.replay import Finding, GameRules

#: a blow's stated values a reading may explain
VALUES = ("hp_left", "armor_left", "dodge_left")
#: the readings of a blow whose stated values the rules do not give: as recorded, the stated
#: values not believed (the rules' ones played on), the die read the other way
BLOW_READINGS: tuple[dict[str, Any], ...] = ({}, {"believe": False}, {"flip": True})


#: a snapshot before an event (False: none needed; True: taken when a slip shows)
Snap: TypeAlias = "tuple[LootState, Readings] | bool"


class Replay:
    """What one replay of a log has seen so far (:class:`.contract.LootRules` is made per log)."""

    def __init__(self) -> None:
        self.follow = Follow()  # the log's markers, and its slips followed
        self.names: LogNames | None = None  # the log's names, once its players are known
        self._looked = False  # the log read ahead for its round markers
        self.noted: list[Finding] = []  # what the event gets wrong that the state follows as recorded
        self.quiet = False  # the event was named and not played: no claims
        self.dealt: dict[str, list | None] | None = None  # the header's numbers, while an event's are used
        self.short = False  # the event rolls fewer dice than its weapons
        self.reopened = False  # the final Battle's loot shared after the end
        self.slips: list[Finding] | None = None  # an action's turns out of order (see :meth:`.Follow.resync`)
        self.unknown = 0  # Loot drawn unnamed, not yet equipped
        self.owed, self.owed_for = 0, ""  # Loot due the log never drew (named at the next Battle)
        #: the reading the event being replayed is followed under (see :data:`BLOW_READINGS`)
        self.reading: dict[str, Any] = {}
        self.next_reading: dict[str, Any] = {}  # a copy's reading of the first event it replays
        self.speculating = False  # a copy looking ahead: it reads every slip as recorded
        self.later = False  # the event's blow is believed or not once it is played
        self.look = LookAhead(lambda e: e.get("kind") == "battle_end")  # the look-ahead: to the Battle's end


class Readings(Replay):
    """The part of :class:`.contract.LootRules` that chooses how to read a slip by looking ahead."""

    def _snap(self, state: LootState, event: Mapping[str, Any]) -> Snap:
        """Before an event whose slip may be read more than one way: the state and the contract
        (True: a blow nothing changes before it is played — the snapshot waits for a slip)."""
        kind = event.get("kind")
        if self.speculating or (kind != "enemies_placed" and not (
                kind in ("attack", "enemy_attack") and any(isinstance(event.get(k), int) for k in VALUES))):
            return False
        if kind != "enemies_placed" and self.follow.pending is None and state.pending is None \
                and self.dealt is None:
            return True
        return state.clone(), self._copy({})

    def read_as(self, reading: Mapping[str, Any]) -> GameRules:
        """A copy of this contract that plays the next event under ``reading`` (see
        :class:`cardgen.play.lookahead.ReadsAhead`) and every later slip as recorded."""
        return cast("GameRules", self._copy(reading))       # (the contract, a Readings)

    def _copy(self, reading: Mapping[str, Any]) -> Readings:
        c = copy.copy(self)
        c.follow = self.follow.copy()
        c.noted, c.dealt, c.slips = list(self.noted), copy.deepcopy(self.dealt), None
        c.speculating, c.next_reading, c.look = True, dict(reading), LookAhead(self.look.stops)
        return c

    def _choose(self, snap: Snap, state: LootState, event: Mapping[str, Any],
                acts: list[Action]) -> dict[str, Any]:
        """The reading of ``event`` the log's next events bear out best (``{}``: as recorded)."""
        if snap is False:
            return {}
        if event["kind"] == "enemies_placed":
            moved = self._moved(state, acts)
            readings: tuple[dict[str, Any], ...] = ({}, {"fronts": moved}) if moved else ()
        elif not self._flippable(state, event, acts):
            self.later = True           # as recorded or not believed: decided once it is played
            return {}
        else:
            mine = blow_of(state, acts)
            off = mine is not None and any(isinstance(event.get(k), int) and k in mine and event[k] != mine[k]
                                           for k in VALUES)
            readings = BLOW_READINGS if off else ()
        if not readings:
            return {}
        if snap is True:
            snap = state.clone(), self._copy({})
        return dict(self.look.read(snap[1], snap[0], event, readings))

    def _flippable(self, state: LootState, event: Mapping[str, Any], acts: list[Action]) -> bool:
        """Whether a blow's stated values may be its die's other outcome's: a hit whose stated
        values are all a miss's, or a miss with a stated value a miss does not leave (else only
        believing them or not is a question, settled once the blow is played)."""
        dice, b = event.get("dice"), state.battle
        blow = next((a for a in acts if a.kind in ("attack", "enemy_turn")), None)
        if blow is None or b is None or not isinstance(dice, list) \
                or not all(isinstance(d, int) for d in dice):
            return False
        enc = b.queue[b.index]
        if blow.kind == "attack":
            name = blow.get("target")
        else:
            foe = enc.foe(blow.get("enemy"))
            name = blow.get("target") or (foe.front if foe is not None else None)
        t = state.fighter(name)
        if t is None:
            return True                 # (a target the replay names: the slow way)
        miss = {"hp_left": t.health, "armor_left": t.armor,
                "dodge_left": max(0, t.dodge - state.rules.dodge_loss)}
        same = all(event.get(k) in (None, v) for k, v in miss.items())
        return same if sum(dice) > t.dodge else not same

    def believed(self, state: LootState, event: Mapping[str, Any], mine: Mapping[str, Any]) -> bool:
        """After a blow is played: whether its stated values the rules do not give are followed as
        recorded (the log's next events bear that out no worse than the rules' values)."""
        if self.speculating or all(not isinstance(event.get(k), int) or k not in mine or event[k] == mine[k]
                                   for k in VALUES):
            return True

        def reading(believe: bool) -> Reading:
            def make() -> tuple[GameRules, GameState]:
                s, r = state.clone(), self._copy({})
                r.follow.believe = believe
                r.follow.blow(s, event, mine)
                return cast("GameRules", r), s      # (the contract, a Readings)
            return make
        return self.look.choose([reading(True), reading(False)]) == 0

    def _moved(self, state: LootState, acts: list[Action]) -> dict[str, str]:
        """The enemies the log's first round plays in front of another player than the placing
        dice ``acts`` put them: each attacks after that player's turn."""
        c = played(state, acts)
        b = c.battle if c is not None else None
        if c is None or c.phase != "fight" or b is None or self.names is None:
            return {}
        enc = b.queue[b.index]
        fronts = {e.name: e.front for e in enc.enemies}
        blocks: dict[str, str] = {}
        acted: set[str] = set()
        last: str | None = None
        for e in self.look.events():
            kind = e.get("kind")
            try:
                if kind in ("attack", "heal", "pass"):
                    last = self.names.player(e.get("player"), "player")
                    if last in acted:
                        break
                    acted.add(last)
                elif kind == "enemy_attack" and last is not None:
                    blocks.setdefault(self.names.enemy(e.get("enemy"), enc, "enemy"), last)
                elif kind != "enemy_attack":
                    break
            except LogError:
                break
        return {e: p for e, p in blocks.items() if fronts.get(e) not in (None, p)}

    def moved_as_recorded(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        """LB-TGT-1: the enemies the reading plays in front of another player than their dice."""
        moved, b = self.reading.get("fronts") or {}, state.battle
        if not moved or b is None or state.phase != "fight":
            return []
        out, rolls = [], list(event.get("rolls") or ())
        enc = b.queue[b.index]
        for i, e in enumerate(enc.enemies):
            if e.name in moved and not e.ko:
                die = f"its d{state.rules.target_die} shows {rolls[i]}, which " if i < len(rolls) else ""
                if i >= len(rolls) or not off_die(rolls[i], state.rules.target_die):   # (else named already)
                    p = moved[e.name]
                    out.append(Finding("LB-TGT-1", f"the log has {e.name} attack after {p}'s turn, as if it "
                                                   f"stood in front of {p}; {die}places it in front of "
                                                   f"{e.front}", "rolls"))
                e.front = moved[e.name]
        state._cp, state._nxt = None, False
        return out


def blow_of(state: LootState, acts: list[Action]) -> Mapping[str, Any] | None:
    """The blow ``acts`` make on a copy of ``state`` (its event), or None."""
    c = played(state, acts)
    return None if c is None else next(
        (e for e in c.events[len(state.events):] if e["kind"] in ("attack", "enemy_attack")), None)

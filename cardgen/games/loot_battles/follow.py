"""Loot & Battles on the shared referee: keeping the state in step with a log's own words.

The state writes its own markers (``round_end``, ``battle_end``, ``leader_passed``) as it plays;
a log writes them too. :class:`Follow` pairs each of the log's markers with the state's own one
and compares what the log states (a round's number, a Battle's result, the Battles won, the new
Leader) — then follows the log's numbering, so a number one slip shifted is reported once, not
at every later marker. A blow's stated Health, Armor and Dodge are followed the same way: one
wrong number is one problem, and the replay goes on from the table's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.games.loot_battles.play import LootState
from cardgen.games.loot_battles.state import Fighter
from cardgen.play.replay import Finding

#: a blow's stated values → the fighter's attribute they set
FOLLOWED = {"hp_left": "health", "armor_left": "armor", "dodge_left": "dodge"}


class Follow:
    """What one replay has seen of the state's markers, and the log's numbering shifts."""

    def __init__(self) -> None:
        self.seen = 0               # the state's events already paired with the log's
        self.round_shift = 0        # the log's round numbers minus the state's
        self.battles_shift = 0      # the log's Battles won minus the state's
        self.round_before = 0       # the round in progress before the event (an Encounter may end in it)

    def before(self, state: LootState) -> None:
        b = state.battle
        if b is not None and b.index < len(b.queue) and b.queue[b.index].placed:
            self.round_before = b.queue[b.index].round

    def _mine(self, state: LootState, kind: str) -> dict[str, Any] | None:
        """The state's next own event of ``kind`` the log has not yet matched (and those before it)."""
        for i in range(self.seen, len(state.events)):
            if state.events[i]["kind"] == kind:
                self.seen = i + 1
                return state.events[i]
        return None

    def marker(self, state: LootState, event: Mapping[str, Any]) -> list[Finding]:
        kind = event["kind"]
        if kind == "round_end":
            mine = self._mine(state, "round_end")
            computed = mine["round"] if mine is not None else self.round_before
            stated = event.get("round")
            if stated is None or stated in (computed, computed + self.round_shift):
                if stated is not None:
                    self.round_shift = stated - computed
                return []
            self.round_shift = stated - computed
            return [Finding("LB-RND-1", f"the log says the round number is {stated}, but the rules give {computed}",
                            "round")]
        if kind == "battle_end":
            mine = self._mine(state, "battle_end")
            if mine is None:
                return []
            out = []
            if event.get("result") not in (None, mine["result"]):
                rule = "LB-ENC-1" if mine["result"] == "won" else "LB-END-1"
                out.append(Finding(rule, f"the log says the result of the Battle is {event['result']!r}, but the "
                                         f"rules give {mine['result']!r}", "result"))
            stated, computed = event.get("battles_won"), mine["battles_won"]
            if stated is not None:
                if stated not in (computed, computed + self.battles_shift):
                    out.append(Finding("LB-END-1", f"the log says the number of Battles won is {stated}, but the "
                                                   f"rules give {computed}", "battles_won"))
                self.battles_shift = stated - computed
            return out
        if kind == "leader_passed":
            mine = self._mine(state, "leader_passed")
            to = event.get("to")
            if mine is not None and to != mine["to"] and to in state.players:
                state.leader = state.players.index(to)      # as recorded
                return [Finding("LB-LOOT-1", f"the Encounter Leader token passes left after each Encounter: "
                                             f"{mine['to']} leads now, not {to}", "to")]
        return []

    @staticmethod
    def blow(state: LootState, event: Mapping[str, Any], mine: Mapping[str, Any]) -> None:
        """After a blow's claims were compared: the target's values as the log states them."""
        name = mine.get("target")
        t: Fighter | None = None
        if event["kind"] == "enemy_attack" and name in state.seat_of:
            t = state.seats[state.seat_of[name]]
        elif event["kind"] == "attack" and name is not None and state.battle is not None:
            b = state.battle        # the Encounter fought, or the one the blow just ended
            for enc in b.queue[b.index:b.index + 1] + b.queue[max(0, b.index - 1):b.index]:
                t = t or next((e for e in enc.enemies if e.name == name), None)
        if t is None or state.events[-1] is not mine:     # the round ended since: its restoring stands
            return
        for key, attr in FOLLOWED.items():
            stated = event.get(key)
            if isinstance(stated, int) and not isinstance(stated, bool) and stated != mine.get(key):
                setattr(t, attr, stated)

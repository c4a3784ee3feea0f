"""Bones on Ice — a recorded game followed on the game state: each log event turned into the
decisions and chance outcomes that make it (:mod:`.translate`, the checker's own translation),
each checked to be among the state's legal actions (or chance outcomes) at its point. The proof
that the state allows every legal log (the completeness test), and a way to put a real game's
position into a state."""

from __future__ import annotations

from typing import Any

from cardgen.content.playlog import LogError
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.translate import Translator
from cardgen.games.bones_on_ice.words import Words
from cardgen.play.replay import allowed_at


class Unmatched(Exception):
    """A log event the state cannot make from its legal actions at that point."""

    def __init__(self, index: int, event: dict[str, Any], why: str):
        super().__init__(f"event {index} {event}: {why}")
        self.index, self.event, self.why = index, event, why


class Follower:
    """Drives a state along a log's events."""

    def __init__(self, state: BoiState):
        if not state.log:  # the log's events are compared with the ones the state writes
            assert not state.history, "a log is followed from the start of the game"
            state.log = True
        self.state = state
        self.tr = Translator(Words(state))

    def follow(self, events: list[dict[str, Any]]) -> int:
        """Apply ``events``; returns how many actions were applied. Raises :class:`Unmatched`."""
        st, steps = self.state, 0
        for i, ev in enumerate(events):
            if st.is_terminal():
                raise Unmatched(i, ev, "the game is over")
            then = next((e["kind"] for e in events[i + 1 :] if e["kind"] != "team_spirit"), None)
            try:
                actions = self.tr.actions(st, self.tr.read(dict(ev)), then)
            except LogError as e:
                raise Unmatched(i, ev, e.message) from None
            for a in actions:
                if not allowed_at(st, a):
                    raise Unmatched(i, ev, f"{a} is not among the legal actions here")
                st.apply_action(a)
                steps += 1
        if self.tr.waiting:
            raise Unmatched(len(events), {}, f"Team Spirit never used: {self.tr.waiting}")
        return steps

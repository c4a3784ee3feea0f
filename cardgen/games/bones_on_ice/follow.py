"""Bones on Ice — a recorded game followed on the game state: each log event turned into the
decisions and chance outcomes that make it, each checked to be among the state's legal actions
(or chance outcomes) at its point. The proof that the state allows every legal log (the
completeness test), and a way to put a real game's position into a state.

A ``team_spirit`` event that changes a roll is written before the roll's event but chosen at
the roll's Boost stage: it waits there until its roll comes.
"""

from __future__ import annotations

from typing import Any

from cardgen.games.bones_on_ice.state import BoiState
from cardgen.play.api import CHANCE, Action
from cardgen.play.lookup import Names, NotFound


class Unmatched(Exception):
    """A log event the state cannot make from its legal actions at that point."""

    def __init__(self, index: int, event: dict[str, Any], why: str):
        super().__init__(f"event {index} {event}: {why}")
        self.index, self.event, self.why = index, event, why


class Follower:
    """Drives a state along a log's events."""

    def __init__(self, state: BoiState):
        self.state = state
        if not state.log:               # the log's events are compared with the ones the state writes
            assert not state.history, "a log is followed from the start of the game"
            state.log = True
        P = state.s.pieces
        self.skaters = Names("skater", ((p.id, p.id) for p in P), lambda sid: next(
            p.aliases for p in P if p.id == sid))
        self.teams = Names("team", ((k, k) for k in state.players), lambda k: (state.s.names[state.players.index(k)],))
        for p in P:
            for n in (p.id, *p.aliases):
                if n.lower() not in self.teams.by_low:
                    self.teams.add(p.id, state.players[p.team], (n,))
        self.waiting: list[Action] = []     # Team Spirits waiting for their roll

    # -- names in the log -------------------------------------------------------------------
    def sk(self, name: Any) -> str:
        return self.skaters.find(name)

    def team(self, name: Any) -> str:
        return self.teams.find(name)

    def zone(self, name: Any) -> str:
        s = str(name).strip().lower().removesuffix(" zone")
        r = self.state.r
        return next((z for z in r.zones if s in (z, r.zone_names.get(z, z).lower().removesuffix(" zone"))), s)

    # -- following ----------------------------------------------------------------------------
    def follow(self, events: list[dict[str, Any]]) -> int:
        """Apply ``events``; returns how many actions were applied. Raises :class:`Unmatched`."""
        st, steps, i = self.state, 0, 0
        while i < len(events):
            ev = events[i]
            if st.is_terminal():
                raise Unmatched(i, ev, "the game is over")
            n = len(st.events)
            later = next((e for e in events[i + 1:] if e["kind"] != "team_spirit"), {"kind": None})
            try:
                action = self.choose(ev, later["kind"])
            except NotFound as e:
                raise Unmatched(i, ev, e.message) from None
            if action is None:             # a Team Spirit that waits for its roll
                i += 1
                continue
            legal = [a for a, _ in st.chance_outcomes()] if st.current_player() == CHANCE else st.legal_actions()
            if action not in legal:
                raise Unmatched(i, ev, f"{action} is not among the {len(legal)} legal actions "
                                       f"{[str(a) for a in legal[:8]]}")
            st.apply_action(action)
            steps += 1
            if len(st.events) > n and st.events[n]["kind"] == ev["kind"] and not (
                    ev["kind"] == "team_spirit" and action.kind != "team_spirit"):
                i += 1
        if self.waiting:
            raise Unmatched(len(events), {}, f"Team Spirit never used: {self.waiting}")
        return steps

    def choose(self, ev: dict[str, Any], then: str | None = None) -> Action | None:
        """The action that makes (part of) ``ev``; ``then`` is the kind of the next event that is
        not a Team Spirit (a Team Spirit before an Interception waits for its roll)."""
        st = self.state
        kind = ev["kind"]
        who = st.current_player()
        if who == CHANCE:
            return self.chance(ev)
        if st.roll is not None:
            if st.roll["stage"] == "defend":
                return Action.make("defend", skater=self.sk(ev.get("defender")))
            key = st.players[who]
            options = st.legal_actions()
            for a in self.waiting:
                if a in options:
                    self.waiting.remove(a)
                    return a
            if kind == "team_spirit":
                a = self.spirit(ev)
                if a in options:
                    return a
                self.waiting.append(a)
                return None
            boosted = any(self.team(b) == key for b in ev.get("boosts") or [])
            return Action.make("boost", team=key, boost=boosted)
        ph = st.phase
        if kind == "team_spirit":
            a = self.spirit(ev)
            if a in st.legal_actions():
                return a
            if ph == "pass" and then != "intercept":
                return Action.make("no_intercept")
            if ph == "window":
                return Action.make("no_spirit", team=st.players[who])
            self.waiting.append(a)
            return None
        if ph == "window":
            return Action.make("no_spirit", team=st.players[who])
        if ph == "pass":
            return Action.make("intercept", skater=self.sk(ev["skater"])) if kind == "intercept" else \
                Action.make("no_intercept")
        if ph == "faceoff":
            mine = [s for s in map(self.sk, ev.get("skaters") or []) if st.s.pieces[st.piece(s)].team == who]
            return Action.make("faceoff", skater=mine[0] if mine else None)
        if kind in ("move", "tactical_move"):
            return Action.make(kind, skater=self.sk(ev["skater"]), zone=self.zone(ev["zone"]))
        if kind == "pass":
            return Action.make("pass", skater=self.sk(ev["skater"]), to=self.sk(ev["to"]))
        if kind in ("shoot", "penalty_shot", "shootout"):
            return Action.make(kind, skater=self.sk(ev["skater"]))
        return Action.make(kind)

    def spirit(self, ev: dict[str, Any]) -> Action:
        return Action.make("team_spirit", team=self.team(ev["team"]),
                           skater=self.sk(ev["skater"]) if ev.get("skater") is not None else None)

    def chance(self, ev: dict[str, Any]) -> Action:
        st = self.state
        outs = [a for a, _ in st.chance_outcomes()]
        if len(outs) == 1:
            return outs[0]
        if st.phase == "chaos" and st.roll is None:
            return next((a for a in outs if a["die"] == ev.get("die")), Action.make("chaos", die=ev.get("die")))
        if st.scramble is not None:
            sid = st.s.pieces[st.scramble["left"][0]].id
            values = {self.sk(k): v for k, v in (ev.get("rolls") or {}).items()}
            return Action.make("scramble_roll", skater=sid, value=values.get(sid))
        roll = st.roll
        assert roll is not None
        rolls = ev.get("rolls")
        if rolls is None:                   # no dice written: any outcome that gives the stated result
            for a in outs:
                twin = st.clone()
                twin.apply_action(a)
                made = twin.events[len(st.events)] if len(twin.events) > len(st.events) else {}
                if all(made.get(k) == self._stated(ev, k) for k in ("winner", "goal") if k in ev):
                    return a
            return outs[0]
        dice = [tuple(v) if isinstance(v, list) else v for v in rolls]
        if ev["kind"] == "faceoff" and len(ev.get("skaters") or []) == 2:
            first = self.sk(ev["skaters"][0])
            if first != st.s.pieces[roll["a"]].id:
                dice.reverse()
        return Action("rolls", (("rolls", tuple(dice)),))

    def _stated(self, ev: dict[str, Any], key: str) -> Any:
        return self.team(ev[key]) if key == "winner" else ev[key]

"""Bones on Ice — a log event as the state's decisions and chance outcomes.

A decision is one player's choice and a log event is assembled from several (a Move: the
carrier's ``move``, the opponent's ``defend``, each team's ``boost``, the ``rolls``). The
actions of an event are found on a copy of the state, one at a time, until the copy has written
the event (the completeness test and the checker's replay both use this). A Team Spirit that
changes a roll (Cold Snap, Dead Eye) is written before the roll but chosen at the roll's Boost
stage: it waits for its roll. A roll whose stated winner differs from the dice's is played as
recorded (``rolls`` with ``won``: the checker names the rule the table missed).
"""

from __future__ import annotations

from typing import Any

from cardgen.content.playlog import LogError
from cardgen.games.bones_on_ice.diagnose import Side, sides_of
from cardgen.games.bones_on_ice.rules import RulesError
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.whynot import no_roll
from cardgen.games.bones_on_ice.words import Words, short
from cardgen.play.api import CHANCE, Action
from cardgen.play.replay import Finding

#: the most actions one event stands for (a Face-Off: picks, Boosts, Team Spirits, dice)
MAX_ACTIONS = 32
WAITS = ("opponent_die", "best_of")


class Translator:
    """One log's events as actions (the log's names read by :class:`.words.Words`)."""

    def __init__(self, words: Words):
        self.words = words
        self.event: dict[str, Any] = {}
        self.waiting: list[Action] = []  # Team Spirits waiting for their roll
        self.added: list[Action] = []  # Team Spirits the last event left waiting
        self.rolled: list[tuple[Side, Side, str | None]] = []  # the last event's rolls, for the trace
        self.notes: list[Finding] = []  # what an event gets wrong that is not an action

    def read(self, ev: dict[str, Any]) -> dict[str, Any]:
        """The event with the state's ids for the log's names."""
        w, P = self.words, self.words.state.s.pieces
        for f in ("skater", "to", "defender"):
            if ev.get(f) is not None:
                ev[f] = P[w.skater(ev[f], f)].id
        if ev.get("skaters") is not None:
            ev["skaters"] = [P[w.skater(s, "skaters")].id for s in ev["skaters"]]
        for f in ("team", "winner"):
            if ev.get(f) is not None:
                ev[f] = w.state.players[w.team(ev[f], f)]
        if ev.get("boosts") is not None:
            ev["boosts"] = [w.state.players[w.team(b, "boosts")] for b in ev["boosts"]]
        if ev.get("zone") is not None:
            ev["zone"] = w.zone(ev["zone"], "zone")
        if ev["kind"] == "chaos" and ev.get("entry") is not None:
            ev["entry"] = w.chaos(ev["entry"])
        if ev["kind"] == "scramble" and isinstance(ev.get("rolls"), dict):
            ev["rolls"] = {P[w.skater(k, "rolls")].id: v for k, v in ev["rolls"].items()}
        for f in ("stamina", "score"):
            if isinstance(ev.get(f), dict):
                ev[f] = {w.state.players[w.team(k, f)]: v for k, v in ev[f].items()}
        self.event = ev
        return ev

    def actions(self, state: BoiState, ev: dict[str, Any], then: str | None) -> list[Action]:
        """The actions that play ``ev`` from ``state`` (left as it was), in order."""
        st, out = state.clone(), []
        self.added, self.rolled = [], []
        kind = ev["kind"]
        for _ in range(MAX_ACTIONS):
            if st.is_terminal():
                break
            n = len(st.events)
            a = self.choose(st, ev, then)
            if a is None:
                break
            sides = None
            if a.kind == "rolls":
                a = self.as_recorded(st, ev, a)
                sides = sides_of(st, a)
            out.append(a)
            try:
                st.apply_action(a)
            except RulesError as e:  # what a Chaos entry or Team Spirit does is missing
                raise LogError("LOG-GAME", e.message, e.loc, "add it to the rules parameters") from None
            except (KeyError, ValueError, IndexError, TypeError, AssertionError):
                break
            if sides is not None and len(st.events) > n:
                self.rolled.append((*sides, _won(st, st.events[n], sides[0].team)))
            if (
                len(st.events) > n
                and st.events[n]["kind"] == kind
                and not (kind == "team_spirit" and a.kind != "team_spirit")
            ):
                break
        return out

    # -- one decision -------------------------------------------------------------------------
    def choose(self, st: BoiState, ev: dict[str, Any], then: str | None) -> Action | None:
        kind, who = ev["kind"], st.current_player()
        if kind == "team_spirit" and st.roll is None:
            return self.spirit_now(st, ev, then)
        if who == CHANCE:
            return self.chance(st, ev)
        if st.roll is not None:
            return self.stage(st, ev, who)
        ph = st.phase
        if ph == "window":
            return Action.make("no_spirit", team=st.players[who])
        if ph == "pass":
            return (
                Action.make("intercept", skater=ev.get("skater"))
                if kind == "intercept"
                else Action.make("no_intercept")
            )
        if ph == "faceoff" and kind == "faceoff":
            mine = [s for s in ev.get("skaters") or [] if st.s.pieces[st.piece(s)].team == who]
            return Action.make("faceoff", skater=mine[0] if mine else None)
        if kind in ("move", "tactical_move"):
            return Action.make(kind, skater=ev["skater"], zone=ev["zone"])
        if kind == "pass":
            return Action.make("pass", skater=ev["skater"], to=ev["to"])
        if kind in ("shoot", "penalty_shot", "shootout"):
            return Action.make(kind, skater=ev["skater"])
        if kind in ("recovery",):
            return Action.make(kind)
        return None

    def stage(self, st: BoiState, ev: dict[str, Any], who: int) -> Action | None:
        """A choice before the dice: the defender, a Team Spirit for this roll, a Boost."""
        roll = st.roll
        assert roll is not None
        if roll["stage"] == "defend":
            return Action.make("defend", skater=ev.get("defender"))
        key = st.players[who]
        options = st.legal_actions()
        for a in self.waiting:
            if a["team"] == key:
                self.waiting.remove(a)
                if a in options or st.piece(a["skater"]) in (roll["a"], roll["d"]):
                    return a
                self.notes.append(no_roll(st, a))  # named; its effect is not applied
        if ev["kind"] == "team_spirit":
            a = self.spirit(ev)
            if a in options or st.spirit_kind(st.players.index(a["team"])) not in WAITS:
                return a
            self.waiting.append(a)
            self.added.append(a)
            return None
        return Action.make("boost", team=key, boost=key in (ev.get("boosts") or []))

    def spirit_now(self, st: BoiState, ev: dict[str, Any], then: str | None) -> Action | None:
        """A Team Spirit outside a roll: played now, or waiting for the roll it changes."""
        a = self.spirit(ev)
        legal = st.legal_actions()
        if a in legal:
            return a
        if st.spirit_kind(st.players.index(a["team"])) in WAITS:
            self.waiting.append(a)
            self.added.append(a)
            return None
        if st.phase == "pass" and then != "intercept":
            return Action.make("no_intercept")
        if st.phase == "window" and st.players[st.current_player()] != a["team"]:
            return Action.make("no_spirit", team=st.players[st.current_player()])
        return a

    @staticmethod
    def spirit(ev: dict[str, Any]) -> Action:
        return Action.make("team_spirit", team=ev["team"], skater=ev.get("skater"))

    # -- chance -------------------------------------------------------------------------------
    def chance(self, st: BoiState, ev: dict[str, Any]) -> Action | None:
        if st.roll is not None:
            return self.dice(st, ev)
        if st.phase == "round":
            return st.m.rounds[min(st.round, len(st.m.rounds) - 1)][0]
        if st.phase == "chaos":
            die = ev.get("die")
            rolled = st.r.chaos_card(die) if isinstance(die, int) else None
            entry = ev.get("entry") or (rolled.id if rolled is not None else None)
            return Action.make("chaos", die=die, entry=entry)
        assert st.scramble is not None
        sid = st.s.pieces[st.scramble["left"][0]].id
        return Action.make("scramble_roll", skater=sid, value=(ev.get("rolls") or {}).get(sid))

    def dice(self, st: BoiState, ev: dict[str, Any]) -> Action:
        roll = st.roll
        assert roll is not None
        boosts = ev.get("boosts") or []
        for key in dict.fromkeys(boosts):   # a Boost the rules did not offer (or a second one): as recorded
            if roll["boosts"].count(st.players.index(key)) < boosts.count(key):
                return Action.make("boost", team=key, boost=True)
        rolls = ev.get("rolls")
        if rolls is None:
            return self.stated_outcome(st, ev)
        if not isinstance(rolls, list) or len(rolls) != 2:
            raise LogError("LOG-FIELD", f"'rolls' of a '{ev['kind']}' event holds two values: "
                           f"[{short(st, roll['a']).lower()}, {short(st, roll['d']).lower()}]", None)
        dice = [tuple(v) if isinstance(v, list) else v for v in rolls]
        if (
            ev["kind"] == "faceoff"
            and len(ev.get("skaters") or []) == 2
            and ev["skaters"][0] != st.s.pieces[roll["a"]].id
        ):
            dice.reverse()
        return Action("rolls", (("rolls", tuple(dice)),))

    @staticmethod
    def stated_outcome(st: BoiState, ev: dict[str, Any]) -> Action:
        """No dice written: an outcome that gives the stated result."""
        outs = [a for a, _ in st.chance_outcomes()]
        for a in outs:
            twin = st.clone()
            twin.apply_action(a)
            made = twin.events[len(st.events)] if len(twin.events) > len(st.events) else {}
            if all(made.get(k) == ev[k] for k in ("winner", "goal") if k in ev):
                return a
        return outs[0]

    @staticmethod
    def as_recorded(st: BoiState, ev: dict[str, Any], a: Action) -> Action:
        """The dice ``a``, with the log's stated winner where the rules give another."""
        stated = outcome(st, ev)
        if stated is None:
            return a
        twin = st.clone()
        twin.apply_action(a)
        made = twin.events[len(st.events)] if len(twin.events) > len(st.events) else {}
        if made.get("kind") != ev["kind"] or outcome(st, made) == stated:
            return a
        return Action(a.kind, (*a.items, ("won", stated)))


def _won(st: BoiState, made: dict[str, Any], team_a: int) -> str | None:
    """Who won a roll the state wrote: 'a', 'd', or None (a tie)."""
    if made.get("goal") is not None:
        return "a" if made["goal"] else "d"
    if made.get("winner") is None:
        return None
    return "a" if st.players.index(made["winner"]) == team_a else "d"


def outcome(st: BoiState, ev: dict[str, Any]) -> str | None:
    """The roll's outcome an event states: 'a' (the initiator wins), 'd', or None (not stated; in
    an event the state wrote: a tie)."""
    roll = st.roll
    assert roll is not None
    if ev.get("goal") is not None:
        return "a" if ev["goal"] else "d"
    if ev.get("winner") is None:
        return None
    return "a" if st.players.index(ev["winner"]) == st.s.pieces[roll["a"]].team else "d"

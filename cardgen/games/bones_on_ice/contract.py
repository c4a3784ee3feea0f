"""Bones on Ice on the shared referee (:mod:`cardgen.play.replay`): the game's contract — a log's events
as the state's actions (:mod:`.translate`), kept in step (:mod:`.instep`), the rule an action breaks
(:mod:`.whynot`), the stated consequences (:mod:`.claims`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.content.playlog import LogError
from cardgen.games.bones_on_ice import claims, instep, setup, trace, whynot
from cardgen.games.bones_on_ice.rules import Rules, RulesError
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.translate import Translator
from cardgen.games.bones_on_ice.words import Words
from cardgen.play.api import Action, GameState
from cardgen.play.replay import Finding, Findings, GameInfo


class BoiRules:
    """Bones on Ice as a :class:`cardgen.play.replay.GameRules` (one per replayed log)."""

    #: each distinct slip of one event is its own problem (a Move by the wrong skater, to a far zone)
    every_slip = True

    def __init__(self, game: Game):
        self.game = game
        try:
            self.r = Rules.read(game)
        except RulesError as e:
            raise LogError("LOG-GAME", e.message, e.loc, "add it to the rules parameters") from None
        self.info = GameInfo(name=game.slug, min_players=self.r.n_teams, max_players=self.r.n_teams,
                             chance_mode="explicit_stochastic", information="perfect", utility="zero_sum",
                             max_game_length=5_000)
        self.words: Words | None = None
        self.tr: Translator | None = None
        self.step = instep.Table()
        self.noted: list[Finding] = []  # what the event gets wrong that the contract names itself
        self.pre: Any = None  # the table before the event (for the trace)
        self.was = ""  # the state's phase before the event
        self.then: str | None = None  # the kind of the next event that is not a Team Spirit
        self.n0 = 0  # the state's events before this one
        self.prepaid: list[tuple[Action, int]] = []  # Team Spirits paid, waiting for their roll
        self.judged: list[Action] = []  # Team Spirits named when the log used them

    # -- the setup ----------------------------------------------------------------------------
    def new_state(self, header: Mapping[str, Any]) -> GameState:
        state = setup.new_state(self.game, header)
        for t, entry in enumerate(header.get("teams") or []):
            if isinstance(entry, Mapping) and isinstance(entry.get("stamina"), int):
                state.stamina[t] = entry["stamina"]  # as stated (checked in setup_problems)
        return state

    def setup_problems(self, game: Game, header: Mapping[str, Any]) -> list[tuple[str, str, str | None]]:
        return setup.problems(self.r, header)

    def playable(self, game: Game, header: Mapping[str, Any]) -> bool:
        return setup.playable(self.r, header)

    # -- the events ---------------------------------------------------------------------------
    def upcoming(self, events: Iterator[Mapping[str, Any]]) -> None:
        """The log's next event (a Recovery the round goes on after), the next that is not a Team
        Spirit (a Team Spirit before an Interception waits for its roll) and the next round marker's
        number (a misnumbered marker the next one corrects is a typo)."""
        step = self.step
        step.nxt = self.then = step.next_round = None
        for e in events:
            if step.nxt is None:
                step.nxt = dict(e)
            if self.then is None and e.get("kind") != "team_spirit":
                self.then = str(e.get("kind"))
            if e.get("kind") == "round_start":
                step.next_round = e.get("round")
                break

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        assert isinstance(state, BoiState)
        if self.words is None:
            self.words = Words(state)
            self.tr = Translator(self.words)
        assert self.tr is not None
        self.noted, self.n0 = [], len(state.events)
        self.tr.rolled = []
        self.pre = state
        ev = self.tr.read(dict(event))
        self.was = state.phase
        self.noted, play = self.step.before(state, ev, self.tr)
        if not play:
            return []
        self.pre = state.clone()
        held = (list(state.stamina), list(state.touched), list(state.spirit_uses))
        for a, cost in self.prepaid:    # used and paid already; its roll may come now (the copy sees it)
            team = state.players.index(a["team"])
            state.stamina[team] += cost
            state.spirit_uses[team] -= 1
        acts = self.tr.actions(state, ev, self.then)
        self._repay(state, acts, held)
        for a in self.tr.added:         # judged, used and paid where the log uses it, played at its roll
            team = state.players.index(a["team"])
            self.noted += whynot.team_spirit(state, a, ev)
            self.judged.append(a)
            card = state.s.spirits[team]
            cost = int(card.get("cost") or 0) if card is not None else 0
            state.spend(team, cost)
            state.spirit_uses[team] += 1
            self.prepaid.append((a, cost))
        self.noted += self.tr.notes
        self.tr.notes = []
        return acts

    def _repay(self, state: BoiState, acts: list[Action],
               held: tuple[list[int], list[bool], list[int]]) -> None:
        """A Team Spirit waiting for its roll is used and paid when the log uses it (its Stamina
        stated then), and not again when its roll comes: one not played by this event stays so."""
        played = [p for p in self.prepaid if p[0] in acts]
        if len(played) < len(self.prepaid):
            state.stamina, state.touched, state.spirit_uses = held
            for a, cost in played:
                state.stamina[state.players.index(a["team"])] += cost
                state.spirit_uses[state.players.index(a["team"])] -= 1
        self.prepaid = [p for p in self.prepaid if p not in played]
        if self.tr is not None and not self.tr.waiting:
            self.prepaid.clear()

    def accepts(self, state: GameState, action: Action) -> bool:
        assert isinstance(state, BoiState)
        if action in self.judged:
            self.judged.remove(action)
            return True
        return self.step.accepts(state, action)

    def why_not(self, state: GameState, action: Action) -> Findings:
        assert isinstance(state, BoiState) and self.tr is not None
        return whynot.why_not(state, action, self.tr.event, self.step)

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Findings | None:
        assert isinstance(state, BoiState) and self.tr is not None
        noted, self.noted = self.noted, []
        step = self.step
        if step.silent:
            return noted
        stated = claims.claims(state, self.tr.event, step.offsets)
        step.after(state, self.tr.event, self.was)
        return noted if step.mute else [*noted, *stated]

    def describe(self, state: GameState, event: Mapping[str, Any]) -> list[str]:
        assert isinstance(state, BoiState) and self.tr is not None
        if self.step.silent:
            return [str(event.get("kind"))]
        try:
            return trace.describe(state, self.tr.event, self.tr.rolled, self.pre)
        except (KeyError, ValueError, IndexError, TypeError):
            return [str(event.get("kind"))]  # an event played as recorded where nothing is left to say

    def expect_rules(self, state: GameState) -> dict[str, str]:
        """Tied after the last round with the shootout undecided, a claimed winner breaks the
        shootout's rule (BOI-END-2)."""
        assert isinstance(state, BoiState)
        return {"winner": "BOI-END-2"} if state.phase == "shootout" else {}

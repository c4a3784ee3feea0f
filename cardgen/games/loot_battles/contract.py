"""Loot & Battles on the shared referee (:mod:`cardgen.play.replay`): the game's contract — a log's
events as the state's actions, the rule one the state refuses breaks, the stated consequences and the
log's slips followed (``docs/engines-loot_battles.md``, "The checker")."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.content.playlog import LogError
from cardgen.games.loot_battles import header, trace
from cardgen.games.loot_battles.claims import claims, placed_as_stated
from cardgen.games.loot_battles.follow import mark_restored
from cardgen.games.loot_battles.header import readable
from cardgen.games.loot_battles.names import LogNames
from cardgen.games.loot_battles.placing import placement
from cardgen.games.loot_battles.play import LootState, shared_rules
from cardgen.games.loot_battles.play_log import MARKERS, actions_for
from cardgen.games.loot_battles.reading import Readings
from cardgen.games.loot_battles.slips import Slips
from cardgen.games.loot_battles.whynot import why_kit, why_not
from cardgen.play.api import Action, GameState
from cardgen.play.replay import Findings, GameInfo, allowed_at, findings


def _twice(s: LootState, a: Action) -> bool:
    """An attack with a card the player holds twice (an equip followed as recorded), named once."""
    with_ = a.get("with")
    if a.kind != "attack" or not with_ or s.phase != "fight" or a.get("player") not in s.seat_of:
        return False
    for g in s._unused(s._by(a["player"]), s._enc()).values():
        ids = tuple(c.id for c in g)
        if set(ids) == set(with_) and ids != tuple(with_):
            return allowed_at(s, Action.make("attack", **{**dict(a.items), "with": ids}))
    return False


def _plain(action: Action) -> Action:
    """An enemy's attack as the rules have it (on the player it stands in front of)."""
    if action.kind == "enemy_turn" and action.get("target") is not None:
        return Action.make("enemy_turn", enemy=action.get("enemy"))
    return action


class LootRules(Slips, Readings):
    """Loot & Battles as a :class:`cardgen.play.replay.GameRules`."""

    #: each distinct slip of one event is its own problem (a roll too many and its wrong Dodge)
    every_slip = True

    def __init__(self, game: Game):
        super().__init__()
        self.game, self.rules = game, shared_rules(game)
        self.info = GameInfo(name=game.slug, min_players=self.rules.n_min, max_players=self.rules.n_max,
                             chance_mode="explicit_stochastic", information="perfect", utility="identical",
                             max_game_length=20_000)

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        """The table the header sets up: as recorded where it slips (see :meth:`setup_problems`)."""
        readable(self.rules, setup)
        state = LootState(self.game, setup)
        held = {p.name: e.get("numbers") for p,
                e in zip(state.seats, setup.get("players") or [], strict=True)}
        if (
            any(v is not None for v in held.values())
            and header.numbers(state.rules, {k: list(v or []) for k, v in held.items()}, list(held)) is None
        ):
            for p in state.seats:  # the header's target numbers (a wrong deal: named, the default one played)
                p.numbers = held[p.name]
        if isinstance(setup.get("battles_to_win"), int):
            state.target = setup["battles_to_win"]
        lead = setup.get("leader")
        if lead is not None:
            if lead not in state.seat_of:
                raise LogError("LOG-FIELD", f"the leader {lead!r} is not one of the players", None)
            state.leader = state.seat_of[lead]
        return state

    def setup_problems(self, game: Game, setup: Mapping[str, Any]) -> list[header.Slip]:
        return header.slips(shared_rules(game), setup)

    def playable(self, game: Game, setup: Mapping[str, Any]) -> bool:
        """A table with no players has nothing to replay (LB-SETUP-1 says so)."""
        return bool(setup.get("players"))

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        assert isinstance(state, LootState)
        self.reading, self.next_reading, self.later = self.next_reading, {}, False
        snap = self._snap(state, event)
        self.follow.before(state, event)
        if self.names is None:
            self.names = LogNames(state.rules, state.players)
        if state.is_terminal() and event.get("kind") not in MARKERS and self.follow.ended:
            return []  # after the end: the first event was named, the rest follow from it
        kind, final = event.get("kind"), state.winner == "players" and state.rules.final_loot
        if (
            state.winner is not None
            and kind not in MARKERS
            and not (final and kind in ("equip", "unequip"))
            and not (final and kind == "loot_drawn" and not state.is_terminal())
        ):  # the final Battle's Loot drawn in full, a further draw is after the end
            late = self.follow.after_end(state, str(kind))
            self.noted, self.quiet = [late] if late is not None else [], True
            return []  # the game is decided: only its last markers (and its loot) may follow
        if final and state.phase == "over" and kind in ("equip", "unequip"):
            state.phase, state._cp = "equip", None  # the final Battle's loot shared (LB-LOOT-1 ruling)
            self.reopened = True
        event = self.names.event(state, dict(event))
        self.noted = placement(state, event)
        if self.noted and self.noted[-1].rule == "LB-SETUP-3":
            return []  # enemies placed twice: named, nothing to play
        if state.pending is not None:  # a blow an earlier event left unrolled: the log went on without it
            state.pending = None
            state._settle()
            state._cp, state._nxt = None, False
        self._numbers(state, event)
        loot = self._loot(state, event)
        if loot is not None:
            return loot
        gone = self.follow.gone(state, event)
        if gone:
            self.noted, self.quiet = [*self.noted, *gone], True
            return []  # a blow with nothing to play: named, no consequences to compare
        acts = self._dice(state, event, actions_for(state, event))
        self.reading = self._choose(snap, state, event, acts) if snap is not False else self.reading
        acts = self._outcome(state, event, acts)
        return acts

    def describe(self, state: GameState, event: Mapping[str, Any]) -> list[str]:
        assert isinstance(state, LootState)
        return trace.describe(state, event)

    def accepts(self, state: GameState, action: Action) -> bool:
        """A turn the log went past, taken late (named once already: see :meth:`.Follow.late`);
        an enemy's attack on the log's target (the target is a claim: see :func:`claims`)."""
        assert isinstance(state, LootState)
        plain = _plain(action)
        if (
            (plain is not action and allowed_at(state, plain))
            or _twice(state, action)
            or self.follow.late(state, plain)
        ):
            return True
        self.slips = self.follow.resync(state, plain)
        return self.slips == [] and allowed_at(state, plain)  # out of order, all of it named already

    def upcoming(self, events: Iterator[Mapping[str, Any]]) -> None:
        """The log's later events (see :mod:`.reading`); does the log mark the ends of rounds? (read once)"""
        if not self._looked:
            self._looked = True
            events = iter(seen := list(events))
            self.follow.marks_rounds |= any(e.get("kind") == "round_end" for e in seen)
        self.look.upcoming(events)

    def why_not(self, state: GameState, action: Action) -> Findings:
        """The rule ``action`` breaks; a turn out of order is followed (see :meth:`.Follow.resync`)."""
        assert isinstance(state, LootState)
        if state.is_terminal():
            self.follow.ended = True
        action = _plain(action)
        slips, self.slips = self.slips, None
        if not slips:
            return why_not(state, action)
        if allowed_at(state, action):
            return slips
        kit = why_kit(state, action, fallback=False) if action.kind in ("attack", "heal") else []
        more = [f for f in findings(kit or why_not(state, action)) if f.rule != "LB-RND-1"]
        return [*slips, *more]  # out of turn, and against another rule too (the order is named once)

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Findings | None:
        noted, self.noted = self.noted, []
        assert isinstance(state, LootState)
        if self.reopened:
            state.phase, self.reopened = "over", False
            state._cp = None
        if self.quiet:
            self.quiet = False
            return noted
        if event["kind"] == "enemies_placed" and state.phase == "fight" and state.battle is not None:
            mark_restored(state)
        if event["kind"] == "enemies_placed" and isinstance(event.get("placed"), Mapping):
            noted += placed_as_stated(state, event["placed"])
        if event["kind"] == "enemies_placed":
            noted += self.moved_as_recorded(state, event)
        if self.short and state.pending is not None and state.pending["dice"]:
            state.pending["n"] = len(state.pending["dice"])  # the blow as rolled
            state._resolve()
            state._settle()
            state._cp, state._nxt = None, False
        self.short = False
        self.follow.believe = None if self.later else self.reading.get("believe", True)
        found = findings(claims(state, event, self.follow))
        if self.follow.held is not None:    # the blow's stated values: followed as recorded, or not
            held, self.follow.held = self.follow.held, None
            self.follow.believe = self.believed(state, *held)
            self.follow.blow(state, *held)
        self.follow.believe, self.later = True, False
        return [*noted, *found]

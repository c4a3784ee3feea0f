"""The shared replay: a game's rules live in its state; the referee asks the state.

A game on the shared referee gives a :class:`GameRules` (its typed contract: OpenSpiel-like
metadata in :class:`GameInfo`, the initial state, and the hooks below). The
:class:`StateReferee` replays a playtest log over that state, event by event:

1. ``actions_of(state, event)`` — the actions (chance outcomes included) the event stands for;
   markers the state follows by itself stand for none;
2. each is accepted when it is among the state's legal actions or chance outcomes at its point;
   otherwise ``why_not(state, action)`` names the catalogue rule it breaks and says why;
3. the event is applied as recorded (a rejected action too, where the state can take it: one
   slip, one problem), and ``claims(state, event)`` compares what the log states with what the
   state produces.

A log often names less than a legal action does: a card drawn face down, a hand the table never
showed. A game whose state can stand for what the log leaves unknown (a hand of known cards
and a count of hidden ones, :class:`cardgen.play.hidden.Hand`) gives the optional hook
``accepts(state, action) -> bool`` — a predicate over the same rules its legal actions come
from — for an action that is legal though not listed. ``why_not`` and ``claims`` may name
several broken rules, each a :class:`Finding` with the event's field it is about and a hint (or
a tuple: (rule, message) or (rule, message, field)); ``why_not_all`` names every rule an action
breaks; ``every_slip = True`` makes each distinct slip of one event its own problem (every
action checked, and the stated consequences after a rejection too). A game whose state judges a
log's event while it plays it (its ``claims`` name what the event broke) says
``plays_as_recorded = True``: its events are played as recorded, never looked up among the legal
actions first.

:func:`replay_actions` is the cheap form a simulation uses: a game's own actions replayed on a
fresh state, each of which must be legal at its point (a game the rules do not accept is an
engine error, never a result).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

from cardgen.content.model import Game
from cardgen.core.record import record
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.params import Params

ChanceMode = Literal["deterministic", "explicit_stochastic", "sampled_stochastic"]
Information = Literal["perfect", "imperfect"]
Utility = Literal["zero_sum", "constant_sum", "general_sum", "identical"]


@record(frozen=True)
class GameInfo:
    """What a game is, in OpenSpiel's terms (``pyspiel.GameType`` / ``GameInfo``)."""

    name: str
    min_players: int
    max_players: int
    chance_mode: ChanceMode = "explicit_stochastic"
    information: Information = "imperfect"
    utility: Utility = "general_sum"
    #: a co-operative game (every player shares one result) has ``utility == "identical"``
    min_utility: float = 0.0
    max_utility: float = 1.0
    #: the longest game, in applied actions (a simulation's step cap never needs to be higher)
    max_game_length: int = 20_000

    @classmethod
    def of(cls, game: Game, **kind: Any) -> GameInfo:
        """The game's info with its player counts from ``params.yaml`` (``players.min``,
        ``players.max``); ``kind``: the other fields."""
        p = Params.of(game)
        return cls(name=game.slug, min_players=p.int("players.min"), max_players=p.int("players.max"), **kind)


class GameRules(Protocol):
    """The contract of a game on the shared referee. The state is the one model: every rule
    lives there; these hooks only translate the log and name broken rules."""

    info: GameInfo

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        """The game at its start for a setup (a log header)."""
        ...

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        """The actions that play ``event`` from ``state`` (implicit steps included), in order;
        ``state`` is left as it was."""
        ...

    def why_not(self, state: GameState, action: Action) -> Findings:
        """The rule ``action`` breaks at ``state`` (it is not legal there): (rule ID, message),
        or one or more :class:`Finding`."""
        ...

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Findings | None:
        """After ``event`` was played: the consequence it states that the state did not
        produce, as (rule ID, message) or :class:`Finding` (several: a list); None when they agree."""
        ...


@record(frozen=True)
class Finding:
    """A broken rule as the replay reports it."""

    rule: str
    message: str
    #: the event's field it is about (the problem's column), None for the event as a whole
    field: str | None = None
    hint: str | None = None
    severity: Literal["error", "warning", "note"] = "error"
    #: the problem's place when it is not the event's own (a claim checked at a later event)
    at: Any = None


#: what ``why_not``/``claims`` return: (rule, message[, field]), a finding, or several
Findings = tuple[str, str] | tuple[str, str, str] | Finding | Sequence[Finding | tuple[str, str] | tuple[str, str, str]]


def findings(found: Any) -> list[Finding]:
    """``why_not``'s or ``claims``' answer (see :data:`Findings`) as a list of findings."""
    if found is None:
        return []
    if isinstance(found, Finding):
        return [found]
    if isinstance(found, tuple) and 2 <= len(found) <= 3 and all(isinstance(x, str | None) for x in found):
        return [Finding(str(found[0]), str(found[1]), found[2] if len(found) == 3 else None)]
    return [g for f in found for g in findings(f)]


@record(frozen=True)
class Rejection:
    """One action the rules do not accept, where it stands in the replay."""

    step: int                  #: index of the action (or of the event, for a log)
    action: Action
    rule: str
    message: str
    field: str | None = None   #: the event's field it is about
    hint: str | None = None
    severity: str = "error"
    at: Any = None             #: the problem's place, when not the event's own

    @classmethod
    def of(cls, step: int, action: Action, f: Finding) -> Rejection:
        return cls(step, action, f.rule, f.message, f.field, f.hint, f.severity, f.at)

    def text(self) -> str:
        return f"step {self.step}: {self.action}: {self.rule}: {self.message}"


def allowed_at(state: GameState, action: Action) -> bool:
    """``action`` is among the legal actions of the player to act, or a chance outcome."""
    who = state.current_player()
    if who == TERMINAL:
        return False
    if who == CHANCE:
        return any(a == action and p > 0 for a, p in state.chance_outcomes())
    return action in state.legal_actions()


def _plain_why(state: GameState, action: Action) -> tuple[str, str]:
    who = state.current_player()
    if who == TERMINAL:
        return "END", f"{action} after the game has ended"
    if who == CHANCE:
        return "CHANCE", f"{action} is not an outcome of the chance node here"
    return "LEGAL", f"{action} is not among {state.players[who]}'s legal actions"


def replay_actions(state: GameState, actions: Iterable[Action],
                   why_not: Callable[[GameState, Action], Findings] | None = None) -> Rejection | None:
    """Replay ``actions`` on ``state`` (in place); the first one the rules do not accept, or
    None when every one was legal at its point."""
    why = why_not or _plain_why
    for i, a in enumerate(actions):
        if not allowed_at(state, a):
            first = (findings(why(state, a)) or [Finding(*_plain_why(state, a))])[0]
            return Rejection.of(i, a, first)
        state.apply_action(a)
    return None


class StateReferee:
    """Replays a log's events over a game's state (see the module docstring)."""

    def __init__(self, rules: GameRules, setup: Mapping[str, Any]):
        self.rules = rules
        self.state = rules.new_state(setup)
        self.rejections: list[Rejection] = []

    @classmethod
    def at(cls, rules: GameRules, state: GameState) -> StateReferee:
        """A referee that replays on from ``state`` (a copy a contract looks ahead on), not a new game."""
        ref = cls.__new__(cls)
        ref.rules, ref.state, ref.rejections = rules, state, []
        return ref

    def event(self, index: int, event: Mapping[str, Any]) -> list[Rejection]:
        """Replay one event; the rejections it caused (those of its first broken action, or of
        the consequences it states; with ``every_slip``, of every broken action and the
        consequences too)."""
        found: list[Rejection] = []
        rules = self.rules
        actions = rules.actions_of(self.state, event)
        accepts = getattr(rules, "accepts", None)
        every_slip = getattr(rules, "every_slip", False)
        why_all = getattr(rules, "why_not_all", None)
        as_recorded = getattr(rules, "plays_as_recorded", False)
        broke = False
        for a in actions:
            if (every_slip or not found) and not as_recorded and not allowed_at(self.state, a) \
                    and not (accepts is not None and accepts(self.state, a)):
                named = findings(why_all(self.state, a) if why_all is not None else None) \
                    or findings(rules.why_not(self.state, a)) or [Finding(*_plain_why(self.state, a))]
                found += [Rejection.of(index, a, f) for f in named]
            try:
                self.state.apply_action(a)      # as recorded: the state moves on with the log
            except Exception:  # noqa: BLE001 - an action the state cannot take at all: already named
                if not found:
                    raise
                broke = True
                break
        if not broke and (every_slip or not found):
            last = actions[-1] if actions else Action(str(event.get("kind", "")))
            found += [Rejection.of(index, last, f) for f in findings(rules.claims(self.state, event))]
        self.rejections += found
        return found

    def replay(self, events: Sequence[Mapping[str, Any]]) -> list[Rejection]:
        """Replay every event; every rejection, in order."""
        for i, ev in enumerate(events):
            self.event(i, ev)
        return self.rejections

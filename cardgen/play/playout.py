"""Seeded play of a game state to its end, and the played game written as a playtest log."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from cardgen.core.record import record
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.package import Player
from cardgen.play.search import Determinize, SearchAgent, View, own_stream


def random_agent(observation: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    return legal[rng.randrange(len(legal))]


class NoLegalAction(Exception):
    """A player is to act but the state lists no legal action (an engine bug)."""


def roll(state: GameState, rng: random.Random, steps: int | None = None) -> Action:
    """The outcome of the chance node ``state`` stands at, for ``rng``'s next draw (one
    ``rng.random()``: the same draw :func:`~.dice.pick` makes)."""
    outcome = state.sample_chance(rng.random())
    if outcome is None:
        after = "" if steps is None else f" after {steps} steps"
        raise NoLegalAction(f"a chance node with no outcomes{after}")
    return outcome


def play_at_random(state: GameState, rng: random.Random, max_steps: int,
                   stop: Callable[[GameState, int, list[Action]], bool] | None = None,
                   ) -> tuple[int, int | None]:
    """Play ``state`` on (in place) at random — chance by its odds, a uniform legal action at each
    decision — until it ends, ``max_steps`` actions were applied, or ``stop(state, player, legal)``
    holds at a decision with a choice. Returns (the decisions with a choice met, the player it
    stopped at or None)."""
    choices = 0
    for _ in range(max_steps):
        who = state.current_player()
        if who == TERMINAL:
            break
        if who == CHANCE:
            state.apply_action(roll(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            if stop is not None and stop(state, who, legal):
                return choices, who
            choices += 1
        state.apply_action(legal[rng.randrange(len(legal))])
    return choices, None


@record
class Played:
    state: GameState
    steps: int
    finished: bool          #: reached a terminal state within the cap


def decide(agent: Player, state: GameState, who: int, legal: list[Action], rng: random.Random,
           determinize: Determinize | None = None) -> Action:
    """``agent``'s choice for player ``who``: a plain agent sees the observation, a search agent
    a :class:`View` (sampled copies — determinizations when the game has the hook)."""
    if agent is random_agent:       # it reads no observation: none is built (the same draw from ``rng``)
        return legal[rng.randrange(len(legal))]
    if isinstance(agent, SearchAgent):
        return agent.choose(View(state, who, determinize), legal, rng)
    return agent(state.observation(who), legal, rng)


def play(state: GameState, agents: list[Player] | Player, rng: random.Random, max_steps: int = 20_000,
         determinize: Determinize | None = None, on_choice: Callable[[int], None] | None = None) -> Played:
    """Play ``state`` on (in place) until it ends or ``max_steps`` actions were applied.
    ``determinize`` is the game's hook (for search agents); ``on_choice(player)`` is called
    before each player's choice is applied. Chance and plain agents draw from ``rng``; a search
    agent from a generator of its own per seat (:func:`~.search.own_stream`), so its playouts
    leave the game's dice as they are."""
    steps = 0
    seated = agents if isinstance(agents, list) else [agents] * len(state.players)
    streams = [own_stream(rng, p) if isinstance(a, SearchAgent) else rng for p, a in enumerate(seated)]
    while steps < max_steps:
        who = state.current_player()
        if who == TERMINAL:
            return Played(state, steps, True)
        if who == CHANCE:
            state.apply_action(roll(state, rng, steps))
        else:
            legal = state.legal_actions()
            if not legal:
                raise NoLegalAction(f"{state.players[who]} has no legal action after {steps} steps")
            agent = seated[who]
            if agent is random_agent:       # (as :func:`decide` would, without the call)
                action = legal[rng.randrange(len(legal))]
            else:
                action = decide(agent, state, who, legal, streams[who], determinize)
            if on_choice is not None:
                on_choice(who)
            state.apply_action(action)
        steps += 1
    return Played(state, steps, state.is_terminal())


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [_jsonable(x) for x in v]
    return v


def as_jsonl(state: GameState, expect: bool = True) -> str:
    """The game so far as a JSON Lines playtest log: header, events, and (when ``expect``)
    the result the state computed, so replaying it also checks the final result."""
    lines = [json.dumps(_jsonable(state.log_header()), ensure_ascii=False)]
    lines += [json.dumps(_jsonable(e), ensure_ascii=False) for e in state.log_events()]
    if expect and state.is_terminal():
        lines.append(json.dumps({"expect": _jsonable(state.result())}, ensure_ascii=False))
    return "\n".join(lines) + "\n"

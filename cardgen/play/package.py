"""What a game package exposes: one explicit table, ``PACKAGE``, in ``cardgen.games.<slug>``.

The framework finds a game's code by its slug (``cardgen.gamehooks``) and reads this table;
nothing registers itself by being imported. Every entry is optional: a game may be YAML only,
or have printables and no engine yet.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from cardgen.core.record import record
from cardgen.play.api import GameState
from cardgen.play.search import Agent, Determinize, Evaluate, SearchAgent

#: what plays a seat: a plain agent, or a search agent (it decides on a view that samples copies)
Player = Agent | SearchAgent


@record(frozen=True)
class GamePackage:
    """A game's own code, as the framework sees it."""

    #: the playtest rules engine (a :class:`cardgen.play.referee.BaseEngine`): ``cardgen check``
    engine: type | None = None
    #: the game's contract on the shared referee (:class:`cardgen.play.replay.GameRules`), made
    #: from the loaded game; its checker is :func:`cardgen.play.stateengine.state_engine`
    rules: Callable[[Any], Any] | None = None
    #: a setup (a log header: players, classes/teams/decks/builds/map) → the initial state
    new_state: Callable[[Any, Mapping[str, Any]], GameState] | None = None
    #: the game's own setups (presets, decks, teams, classes), for simulated playtests;
    #: called with the loaded game and a seeded random generator
    setups: Callable[[Any, random.Random], list[dict[str, Any]]] | None = None
    #: setups from deck/party/build files a designer names (``cardgen simulate --setup FILE``):
    #: called with the loaded game, ``[(kind, document, path)]`` (validated) and a seeded random
    #: generator; without it, the game's own setups that name those files are used
    setups_from_files: Callable[[Any, list[tuple[str, Any, Any]], random.Random], list[dict[str, Any]]] | None = None
    #: agents beyond ``random`` (e.g. ``greedy``), by name; each gets the game and its weights
    agents: Mapping[str, Callable[[Any], Agent]] = field(default_factory=dict)
    #: a game with hidden cards: (state, player, rng) → a copy where every card ``player``
    #: cannot see is dealt again consistently with their observation (search agents decide on
    #: these, never on the true state)
    determinize: Determinize | None = None
    #: search's value of a game not yet over: called with the loaded game, gives (state) → each
    #: player's expected return in [0, 1]; a search agent's playouts then stop after a few dozen
    #: actions and score the position by it (``cardgen.play.mcts.CUTOFF``) instead of playing to
    #: the end
    evaluate: Callable[[Any], Evaluate] | None = None
    #: the agent a search leans on (progressive bias): the action it picks at a node is tried
    #: first and favoured until the playouts show a better one; called with the loaded game
    prior: Callable[[Any], Agent] | None = None
    #: True for a game that hides cards: search agents refuse it until it has ``determinize``
    hidden_information: bool = False
    #: the game's own measures of a finished game (for the simulation report)
    measures: Callable[[GameState], dict[str, Any]] | None = None
    #: extra checks and figures for a deck-like file: (game, kind, body, problems) → dict | None
    check_file: Callable[..., Any] | None = None
    #: extra content checks: (game, problems) → None
    check_game: Callable[..., Any] | None = None
    #: printables only this game has: () → {name: builder}
    printables: Callable[[], dict[str, Any]] | None = None
    #: named hooks that board files refer to (``hook: name`` in a map/board YAML)
    hooks: Mapping[str, Callable[..., Any]] = field(default_factory=dict)

"""The self-consistency proof every game's engine gives, for this repository's games: the
library a game's own tests import (:mod:`cardgen.testing`), run on this project.

``CARDGEN_PLAY_GAMES=N`` plays N games per property instead of the suite's few dozen.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace
from typing import Any

from cardgen import testing
from cardgen.builder.check import _check_shape
from cardgen.content.playlog import read
from cardgen.play.api import CHANCE, TERMINAL
from cardgen.play.dice import pick
from cardgen.play.playout import as_jsonl, play, random_agent
from cardgen.play.replay import GameRules, StateReferee
from cardgen.testing import (
    GAMES,
    MAX_STEPS,
    assert_api_sound,
    assert_mutation_caught,
    assert_random_games_replay,
    game,
    legal_action_keys,
    new_state,
    package,
    random_game,
    replay_text,
)
from tests.conftest import ROOT

testing.use(ROOT)

__all__ = ["testing", "GAMES", "as_jsonl", "play", "random_agent", "MAX_STEPS", "assert_api_sound",
           "assert_mutation_caught", "assert_random_games_replay", "assert_random_games_replay_clean", "game",
           "legal_action_keys", "log_referee", "events_of", "mutated_games", "new_state", "package",
           "random_game", "referee_before", "replay_text"]


Mutation = Callable[[list[dict], random.Random], "int | None"]


def mutated_games(slug: str, seeds: Iterable[int],
                  mutate: Mutation) -> Iterator[tuple[int, Any, list[dict], int]]:
    """Each seed's random game with one event mutated: (seed, the played state, the mutated
    events, the mutated event's index). A seed whose game offers the mutation nothing is skipped."""
    for seed in seeds:
        state = random_game(slug, seed)
        events = copy.deepcopy(state.log_events())
        i = mutate(events, random.Random(seed * 7919 + 1))
        if i is not None:
            yield seed, state, events, i


def log_referee(rules: GameRules, path: Any, engine: Any, slug: str) -> tuple[StateReferee, Any]:
    """A log file read, its shape checked as ``cardgen check`` does (``engine``: the game's), and
    the shared referee over ``rules`` bound to the log's places: (the referee, the log)."""
    log = read(path)
    _check_shape(engine, log, slug)
    bind = getattr(rules, "bind", None)
    if bind is not None:
        bind(SimpleNamespace(header_locs=log.header_locs, events=log.events))     # the log's places
    return StateReferee(rules, log.header), log


def referee_before(rules: GameRules, slug: str, seed: int, kind: str) -> tuple[StateReferee, list[dict], int]:
    """The shared referee over ``rules``, stood just before the first ``kind`` event of ``seed``'s
    random game: (the referee, the game's events, that event's index)."""
    state = random_game(slug, seed)
    events = state.log_events()
    at = next(i for i, e in enumerate(events) if e["kind"] == kind)
    ref = StateReferee(rules, state.log_header())
    ref.replay(events[:at])
    return ref, events, at


def events_of(log: Any) -> list[dict]:
    """A read log's events as the replay takes them."""
    return [{"kind": e.kind, **e.fields} for e in log.events]


def assert_random_games_replay_clean(slug: str, seeds: Iterable[int], rules: Callable[[], GameRules]) -> None:
    """Each seed's random game replays over the game's contract with no rejection, to its result."""
    for seed in seeds:
        state = random_game(slug, seed)
        ref = StateReferee(rules(), state.log_header())
        assert ref.replay(state.log_events()) == [], seed
        assert ref.state.result() == state.result()


def walk(state: Any, rng: random.Random, choose: Callable[[Any, int, int], Any], steps: int = 20_000,
         to_decision: bool = False) -> Any:
    """``state`` played on for up to ``steps`` moves (to its end at most): chance drawn from ``rng``,
    a player's move ``choose(state, who, k)`` (``k``: the move's index); with ``to_decision``, then on
    through chance to a player's turn. Returns ``state``."""
    for k in range(steps):
        who = state.current_player()
        if who == TERMINAL:
            break
        if who == CHANCE:
            state.apply_action(pick(state.chance_outcomes(), rng))
        else:
            state.apply_action(choose(state, who, k))
    while to_decision and state.current_player() == CHANCE:
        state.apply_action(pick(state.chance_outcomes(), rng))
    return state


def duel_score(state: Any, seats: list[Any], me: int, rng: random.Random) -> float:
    """Seat ``me``'s result of ``state`` played to its end by ``seats`` (agents), chance drawn from
    ``rng`` and each agent from its own generator drawn from it (``bench/duel.py``'s pairing); an
    unfinished game counts ½."""
    streams = [random.Random(rng.random()), random.Random(rng.random())]
    walk(state, rng, lambda s, who, _: seats[who](s.observation(who), s.legal_actions(), streams[who]))
    return float(state.returns()[me]) if state.is_terminal() else 0.5

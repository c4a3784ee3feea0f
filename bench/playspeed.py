"""make bench (part of bench/simulate.py): the engines' raw speed, against the play floor.

Per game with a game state: random playouts per second on one core through a bare ``play()``
loop (no simulation records, no referee replay), and clone + apply steps per second from a
mid-game state (what a search agent does thousands of times a move). For a game with a play
floor (``bench/play_floor/<slug>.py``: the same random game written the shortest plain-Python
way, no API), the floor's games/s and the engine's ratio to it (issue 29: within ×2), timed in
alternating rounds on the same seeds (``playout_speed``: the median ratio and its range). For a game
with a ``greedy`` agent, greedy's cost against random play's on the same seeded games, a game and a
step (issue 29: greedy no slower than 3× random, judged a step: bench/README.md says why).
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardgen.play.api import CHANCE, TERMINAL
from cardgen.play.playout import play, random_agent, roll


def _setups(game: Any, pkg: Any) -> list[dict[str, Any]]:
    return pkg.setups(game, random.Random(0)) if pkg.setups else [{}]


def _for(seconds: float, one) -> tuple[int, float]:
    """Run ``one(i)`` for about ``seconds``; (count, per second)."""
    n, started = 0, time.perf_counter()
    while True:
        one(n)
        n += 1
        took = time.perf_counter() - started
        if took >= seconds:
            return n, n / took


def _engine_game(game: Any, pkg: Any) -> Callable[[int], None]:
    setups = _setups(game, pkg)

    def one(i: int) -> None:
        play(pkg.new_state(game, setups[i % len(setups)]), random_agent, random.Random(i))
    return one


def _floor_game(slug: str, game: Any, pkg: Any) -> Callable[[int], None] | None:
    try:
        mod = importlib.import_module(f"play_floor.{slug}")
    except ModuleNotFoundError:
        return None
    setups, floor = _setups(game, pkg), mod.Floor(game)
    by_setup = getattr(mod, "play_setup", None)     # a floor may take the setup (a log header) whole

    def one(i: int) -> None:
        s = setups[i % len(setups)]
        if by_setup is not None:
            by_setup(floor, s, random.Random(i))
        else:
            mod.play(floor, [p["class"] for p in s["players"]], bool(s.get("starting_loot")), random.Random(i))
    return one


def _cpu(one: Callable[[int], None], first: int, n: int) -> float:
    """CPU seconds of this process to play seeds ``first`` .. ``first + n - 1``."""
    started = time.process_time()
    for i in range(first, first + n):
        one(i)
    return max(time.process_time() - started, 1e-9)


NAN = float("nan")


@dataclass(frozen=True)
class Speed:
    """Engine playouts/s and, for a game with a play floor (``floor``), the floor's and the
    engine ÷ floor ratio: the median of the rounds' ratios and their range (lowest, highest)."""
    engine_per_s: float
    floor: bool = False
    floor_per_s: float = NAN
    ratio: float = NAN
    low: float = NAN
    high: float = NAN


def playout_speed(slug: str, game: Any, pkg: Any, seconds: float, rounds: int = 8) -> Speed:
    """Random playouts/s of the engine and of its play floor on one core, measured in ``rounds``
    alternating chunks of about ``seconds / rounds`` of engine CPU time each: a warm-up chunk sets
    how many games a round plays, then each round plays the next seeds through the engine and the
    floor (the same seeds, the order swapped every round). A passing load or clock change hits one
    round's pair alike, so the ratio of the two times holds still where two long runs drift apart."""
    engine, floor = _engine_game(game, pkg), _floor_game(slug, game, pkg)
    chunk, n, started = seconds / rounds, 0, time.process_time()
    while time.process_time() - started < chunk:        # warm-up, and the games a round plays
        engine(n)
        n += 1
    if floor is not None:
        _cpu(floor, 0, n)
    engine_s, floor_s, ratios = 0.0, 0.0, []
    for r in range(rounds):
        first = (r + 1) * n
        if floor is None:
            engine_s += _cpu(engine, first, n)
            continue
        if r % 2:
            f = _cpu(floor, first, n)
            e = _cpu(engine, first, n)
        else:
            e = _cpu(engine, first, n)
            f = _cpu(floor, first, n)
        engine_s, floor_s = engine_s + e, floor_s + f
        ratios.append(e / f)
    games = rounds * n
    if floor is None:
        return Speed(games / engine_s)
    return Speed(games / engine_s, True, games / floor_s, statistics.median(ratios), min(ratios), max(ratios))


def clone_apply_rate(game: Any, pkg: Any, seconds: float) -> float:
    """Steps/s of ``clone()`` + one random action, from the middle of a seeded random game."""
    setups = _setups(game, pkg)
    whole = pkg.new_state(game, setups[0])
    play(whole, random_agent, random.Random(1))
    mid = pkg.new_state(game, setups[0])
    for a in whole.history[: len(whole.history) // 2]:
        mid.apply_action(a)
    rng = random.Random(2)

    def one(_: int) -> None:
        s = mid.clone()
        who = s.current_player()
        if who == CHANCE:
            s.apply_action(roll(s, rng))
        elif who != TERMINAL:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return _for(seconds, one)[1]


def greedy_ratio(game: Any, pkg: Any, seconds: float) -> tuple[float, float] | None:
    """(greedy's CPU time a game ÷ random's, the same a step) over the same seeded setups, a greedy
    and a random game in turn for about ``seconds`` after one warm-up round of the setups; None for
    a game without a greedy agent."""
    make = pkg.agents.get("greedy")
    if make is None:
        return None
    setups, agents = _setups(game, pkg), (random_agent, make(game))
    spent = [[0.0, 0], [0.0, 0]]        # per agent: CPU seconds, steps

    def one(i: int) -> None:
        for k, agent in enumerate(agents):
            started = time.process_time()
            played = play(pkg.new_state(game, setups[i % len(setups)]), agent, random.Random(i))
            if i >= len(setups):        # (the first round warms up)
                spent[k][0] += time.process_time() - started
                spent[k][1] += played.steps
    n, _ = _for(seconds, one)
    while n <= len(setups):
        one(n)
        n += 1
    (rt, rs), (gt, gs) = spent
    return gt / rt, (gt / max(gs, 1)) / (rt / max(rs, 1))

"""What a game's own tests import from cardgen: the self-consistency proof every game's engine
gives (see docs/engines.md) and the playtest checker's test helpers. Seeded random play over the
game-state API ends within a cap; the played game, written as a playtest log, replays through
the checker with no violation and the same result; one mutated event is reported at its line; a
log with a broken rule is reported with that rule at its line.

The project is the one :func:`use` names (a game's ``tests/conftest.py`` written by ``cardgen
new`` names its own folder), else the nearest project upwards from the
current folder. Plain asserts, no pytest needed to import it.

``CARDGEN_PLAY_GAMES=N`` plays N games per property instead of the few dozen by default.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardgen import gamehooks
from cardgen.builder import check as checker
from cardgen.content.loader import load_game
from cardgen.content.playlog import read
from cardgen.core import sources
from cardgen.core.problems import Problems
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState, walk
from cardgen.play.package import GamePackage
from cardgen.play.playout import as_jsonl, play, random_agent

GAMES = int(os.environ.get("CARDGEN_PLAY_GAMES", "30"))
MAX_STEPS = 50_000


_ROOT: list[Path] = []


def use(project: Path) -> None:
    """Run the tests on this project folder (and find its games' packages there)."""
    _ROOT[:] = [Path(project).resolve()]
    gamehooks.use_project(_ROOT[0])


def root() -> Path:
    """The project folder the tests run on: the one :func:`use` named, else the one in use."""
    found = _ROOT[0] if _ROOT else gamehooks.project_root()
    assert found is not None, "no cardgen project here: a project folder holds rules/ and cards/"
    return found


@functools.cache
def _game(where: Path, slug: str) -> Any:
    problems = Problems()
    g = load_game(where, slug, problems)
    assert g is not None and not problems.has_errors, [p.text() for p in problems.errors]
    return g


def game(slug: str) -> Any:
    """The game as loaded from the project (once per project and slug)."""
    return _game(root(), slug)


def package(slug: str) -> GamePackage:
    """The game's package, found from the project the tests run on."""
    with gamehooks.project(root()):
        pkg = gamehooks.package(slug)
    assert pkg is not None and pkg.new_state is not None and pkg.engine is not None
    return pkg


def new_state(slug: str, seed: int) -> GameState:
    """A fresh state on one of the game's own setups, chosen by ``seed``."""
    pkg = package(slug)
    rng = random.Random(seed)
    setups = pkg.setups(game(slug), rng) if pkg.setups else [{}]
    assert pkg.new_state is not None
    return pkg.new_state(game(slug), setups[seed % len(setups)])


_PLAYED: dict[tuple[Path, str, int], GameState] = {}


def random_game(slug: str, seed: int) -> GameState:
    """The game's seeded random game, played once per test process and shared by every test
    that asks for it (the same seed plays the same game): read it, never change it."""
    if (root(), slug, seed) not in _PLAYED:
        state = new_state(slug, seed)
        played = play(state, random_agent, random.Random(seed), MAX_STEPS)
        assert played.finished, f"{slug} seed {seed}: no end after {played.steps} actions"
        _PLAYED[root(), slug, seed] = played.state
    return _PLAYED[root(), slug, seed]


def replay_text(slug: str, text: str, tmp: Path, name: str = "game.jsonl") -> tuple[Problems, dict[str, Any]]:
    """Replay a JSON Lines log through the checker: (problems, final)."""
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    log = read(path)
    engine = package(slug).engine
    assert engine is not None
    checker._check_shape(engine, log, slug)
    problems, final, _ = checker.replay_log(game(slug), engine, log)
    return problems, final


def assert_random_games_replay(slug: str, tmp: Path, n: int = GAMES, seed0: int = 0) -> None:
    """n seeded random games end, and each replays with no violation and the same result."""
    for seed in range(seed0, seed0 + n):
        state = random_game(slug, seed)
        text = as_jsonl(state)
        problems, final = replay_text(slug, text, tmp)
        errs = [p.text() for p in problems.items if p.severity == "error"]
        assert not errs, f"{slug} seed {seed}: the random game does not replay:\n" + "\n".join(errs[:5])
        assert final == state.result() or all(final.get(k) == v for k, v in state.result().items()), \
            f"{slug} seed {seed}: replayed {final}, played {state.result()}"


def assert_api_sound(slug: str, n: int = GAMES) -> None:
    """Along random games: chance outcomes sum to 1, legal actions are distinct, clones are
    independent, observations hide nothing of another player's that the state keeps hidden."""
    for seed in range(n):
        state = new_state(slug, seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal() and steps < MAX_STEPS:
            who = state.current_player()
            if who == CHANCE:
                outs = state.chance_outcomes()
                assert outs and abs(sum(p for _, p in outs) - 1) < 1e-9, f"seed {seed} step {steps}: {outs}"
                assert state.legal_actions() == []
                r = rng.random()
                action = walk(outs, r)
                assert state.sample_chance(r) == action, \
                    f"seed {seed} step {steps}: sample_chance({r}) is not the walk's {action}"
            else:
                assert 0 <= who < len(state.players) and who != TERMINAL
                legal = state.legal_actions()
                assert legal, f"seed {seed} step {steps}: no legal action"
                assert len(set(legal)) == len(legal), f"seed {seed}: duplicate legal actions"
                action = legal[rng.randrange(len(legal))]
            if steps % 50 == 0:
                twin = state.clone()
                twin.apply_action(action)
                assert len(state.history) == len(twin.history) - 1, "a clone shares its history"
            state.apply_action(action)
            steps += 1
        assert state.is_terminal()
        assert len(state.returns()) == len(state.players)


def assert_mutation_caught(slug: str, tmp: Path, mutate: Callable[[list[dict[str, Any]], random.Random],
                                                                  int | None], n: int = GAMES) -> int:
    """For n random games: ``mutate(events, rng)`` changes one event in place (returning its
    index, or None when it finds nothing to change); the checker reports an error at that
    event's line. Returns how many games were mutated."""
    done = 0
    for seed in range(n):
        state = random_game(slug, seed)
        events = copy.deepcopy(state.log_events())          # the shared game stays as played
        rng = random.Random(seed * 7919 + 1)
        i = mutate(events, rng)
        if i is None:
            continue
        header = json.dumps(state.log_header(), ensure_ascii=False)
        text = header + "\n" + "\n".join(json.dumps(e, ensure_ascii=False) for e in events) + "\n"
        problems, _ = replay_text(slug, text, tmp, "mutated.jsonl")
        line = i + 2
        errs = [p for p in problems.items if p.severity == "error"]
        assert any(p.loc and p.loc.line == line for p in errs), \
            f"{slug} seed {seed}: mutated event {events[i]} at line {line} not reported; got " + \
            "; ".join(p.text() for p in errs[:4])
        done += 1
    return done


def legal_action_keys(state: GameState) -> set[Action]:
    if state.current_player() == CHANCE:
        return {a for a, _ in state.chance_outcomes()}
    return set(state.legal_actions())


# -- the playtest checker -------------------------------------------------------------------------

def check(slug: str, path: Path, strict: bool = False) -> tuple[int, list[dict[str, Any]], dict[str, Any] | None]:
    """``cardgen check SLUG PATH --format json`` in process: exit code, problems, final state."""
    with gamehooks.project(root()):
        done = checker.check_output(root(), slug, path, strict=strict, trace=False, fmt="json")
    doc = json.loads(done.stdout)
    return done.code, doc["problems"], doc["final"]


def write(tmp: Path, text: str, name: str = "log.yaml") -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def errors(problems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in problems if p["severity"] == "error"]


def assert_legal(code: int, problems: list[dict[str, Any]]) -> None:
    """Exit 0 with no problem at all."""
    assert (code, problems) == (0, []), problems


def assert_broken_at(slug: str, tmp: Path, base: str, rule: str, old: str, new: str, at: str | None = None) -> None:
    """``new`` in place of the first ``old`` of the log text ``base`` is reported as ``rule`` at
    the line of ``at`` (its first line found from the edit on; by default the edit's first line)."""
    assert old in base, f"{old!r} is not in the log"
    start = base.index(old)
    text = base.replace(old, new, 1)
    line = text.count("\n", 0, text.index(at, start) if at is not None else start) + 1
    code, probs, _ = check(slug, write(tmp, text))
    assert code == 1, probs
    assert any(p["rule"] == rule and p["line"] == line for p in errors(probs)), (rule, line, probs)


def assert_slips_are_marked(slug: str, path: Path, marker: str) -> list[dict[str, Any]]:
    """An example of table slips: exit 1; each problem's line names its rule in a comment, and the
    lines with a ``marker`` comment are the problems' lines. Returns the problems."""
    code, probs, _ = check(slug, path)
    assert code == 1, probs
    with sources.named(path):
        text = sources.read_bytes(path).decode("utf-8").splitlines()
    for p in probs:
        assert p["rule"] in text[p["line"] - 1], (p, text[p["line"] - 1])
    marked = [i + 1 for i, ln in enumerate(text) if marker in ln]
    assert sorted({p["line"] for p in probs}) == marked, (marked, probs)
    return probs

"""A simulated game is only a result if the rules accept it (issue 29).

Every game ``simulate`` plays is replayed before it counts: for a game whose log referee is
still an engine of its own (all five today), its playtest log through that engine, which must
find no violation (``--strict``: the first one) and the result the state computed; for a game
on the shared referee, its actions on a fresh state, each of which must be legal at its point
(:func:`cardgen.play.replay.replay_actions`). A game either replay rejects is an engine
error with its seed, never a statistic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardgen.builder import check as checker
from cardgen.content.model import Game
from cardgen.content.playlog import Event, LogError, PlayLog
from cardgen.core.problems import Loc
from cardgen.play.api import GameState
from cardgen.play.package import GamePackage
from cardgen.play.playout import as_jsonl
from cardgen.play.replay import replay_actions


class Rejected(Exception):
    """The rules do not accept a simulated game (an engine error: the models disagree)."""


def _as_log(text: str, name: str) -> PlayLog:
    """A JSON Lines log written by :func:`as_jsonl` read back (it is well-formed by construction)."""
    path = Path(name)
    lines = text.splitlines()
    header = json.loads(lines[0])
    events: list[Event] = []
    expect: dict[str, Any] | None = None
    expect_loc: Loc | None = None
    for n, line in enumerate(lines[1:], start=2):
        obj = json.loads(line)
        loc = Loc(name, n, 1)
        if "kind" not in obj and "expect" in obj:
            expect, expect_loc = obj["expect"], loc
            continue
        events.append(Event(len(events), str(obj.get("kind", "")), obj, loc, {}))
    hloc = Loc(name, 1, 1)
    return PlayLog(path, header, {k: hloc for k in header}, events, expect, expect_loc, [], [])


def verify(package: GamePackage, game: Game, setup: dict[str, Any], state: GameState, index: int) -> None:
    """Raise :class:`Rejected` when the rules do not accept the game ``state`` has played."""
    if package.engine is None:         # a game on the shared referee: its actions, replayed legal
        assert package.new_state is not None
        bad = replay_actions(package.new_state(game, setup), state.history)
        if bad is not None:
            raise Rejected(f"the game's own action {bad.step + 1} is not legal on replay: {bad.rule}: {bad.message}")
        return
    log = _as_log(as_jsonl(state, expect=state.is_terminal()), f"game-{index:06d}.jsonl")
    try:
        checker._check_shape(package.engine, log, game.slug)
        problems, _, _ = checker.replay_log(game, package.engine, log, strict=True)
    except LogError as e:
        raise Rejected(f"the referee cannot read its log: {e.rule}: {e.message}") from None
    errs = problems.errors
    if errs:
        p = errs[0]
        raise Rejected(f"the referee rejects it: line {p.loc.line if p.loc else 0}: {p.rule}: {p.message}")

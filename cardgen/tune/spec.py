"""The tunable numbers of a game: ``rules/<game>/tune.yaml``, checked before any game is played.

A file beside ``params.yaml`` (not a block inside it) so that the numbers the rules read stay
the only thing in ``params.yaml`` and ``--vary``/the rulebook never see the search ranges::

    numbers:                      # one knob per dotted param
      teams.hares.bonus: {min: -2, max: 3}          # step 1 for integers
      odds.crit: {min: 0.05, max: 0.3, step: 0.05}
    groups:                       # params that move together: one shift added to each
      speed: {params: [teams.a.speed, teams.b.speed], min: -1, max: 1}

Problems (exit 1, at the file's line): TUNE-SHAPE (not the shape above), TUNE-PARAM (no such
param, with "did you mean"), TUNE-RANGE (a range outside the param's type, empty, a step that
does not divide it), TUNE-BREAKS (the game's content checks fail at an end of the range).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardgen.builder import pipeline
from cardgen.content.model import Game
from cardgen.core.params import lookup
from cardgen.core.problems import Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, load_mapping, loc_of
from cardgen.play.lookup import hint_for
from cardgen.simulate.spec import leaf_paths, with_param

FILE = "tune.yaml"


@record
class Knob:
    """One searched number: a param's value, or a shift applied to a group of params."""

    name: str                     # the param's path, or the group's name
    params: tuple[str, ...]
    base: tuple[Any, ...]         # the params' values now
    low: float
    high: float
    step: float | None
    integer: bool
    shift: bool                   # a group: the value is added to each param's base

    def values(self, x: float) -> dict[str, Any]:
        """The params' values when the knob reads ``x``."""
        out: dict[str, Any] = {}
        for p, b in zip(self.params, self.base):
            v = b + x if self.shift else x
            out[p] = int(round(v)) if self.integer else round(float(v), 9)
        return out

    @property
    def current(self) -> float:
        return 0 if self.shift else self.base[0]


@record
class TuneSpec:
    path: Path
    knobs: list[Knob]


def _kind(v: Any) -> str | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    return None


def _range(body: Any, where: str, integer: bool, problems: Problems, loc: Any) -> tuple[float, float, float | None] | None:
    if not isinstance(body, Mapping) or not {"min", "max"} <= set(body) or set(body) - {"min", "max", "step", "params"}:
        problems.error("TUNE-SHAPE", f"{where}: expects {{min: …, max: …[, step: …]}}", loc)
        return None
    lo, hi, step = body["min"], body["max"], body.get("step", 1 if integer else None)
    for key, v in (("min", lo), ("max", hi), ("step", step)):
        if v is None:
            continue
        k = _kind(v)
        if k is None or (integer and k != "int"):
            problems.error("TUNE-RANGE", f"{where}: {key} {v!r} is not {'an integer' if integer else 'a number'} "
                           f"like the param", loc_of(body, key))
            return None
    if lo >= hi:
        problems.error("TUNE-RANGE", f"{where}: min {lo} is not below max {hi}", loc_of(body, "min"))
        return None
    if step is not None and (step <= 0 or abs((hi - lo) / step - round((hi - lo) / step)) > 1e-9):
        problems.error("TUNE-RANGE", f"{where}: step {step} does not divide {lo}..{hi}", loc_of(body, "step"))
        return None
    return float(lo) if not integer else lo, float(hi) if not integer else hi, step


def _param(game: Game, path: Any, problems: Problems, loc: Any) -> Any:
    try:
        v = lookup(game.params, str(path))
    except (KeyError, TypeError, IndexError):
        problems.error("TUNE-PARAM", f"no param '{path}' in {game.slug}'s params.yaml", loc,
                       hint=hint_for(str(path), leaf_paths(game.params)))
        return None
    if _kind(v) is None:
        problems.error("TUNE-PARAM", f"'{path}' is {v!r}, not a number tune can move", loc)
        return None
    return v


def _breaks(game: Game, knob: Knob, problems: Problems, loc: Any) -> None:
    """Run the game's content checks with each end of the range substituted."""
    for end in (knob.low, knob.high):
        g = game
        for p, v in knob.values(end).items():
            g = with_param(g, p, v)
        found = Problems()
        pipeline.check_game(g, found)
        if found.has_errors:
            first = found.errors[0]
            problems.error("TUNE-BREAKS", f"{knob.name} at {end:g} breaks a construction rule: "
                           f"{first.rule} {first.message}", loc)
            return


def load(game: Game, problems: Problems, path: Path | None = None) -> TuneSpec | None:
    """The game's tune file, checked; None (with problems) when it is missing or wrong."""
    path = path or game.rules_dir / FILE
    if not path.is_file():
        problems.error("TUNE-SHAPE", f"{game.slug} declares no tunable numbers (write {path})", None)
        return None
    data = load_mapping(path, problems, FILE)
    if problems.has_errors:
        return None
    before = len(problems.errors)
    for k in data:
        if k not in ("numbers", "groups"):
            problems.error("TUNE-SHAPE", f"unknown key '{k}' (tune.yaml holds 'numbers' and 'groups')",
                           data.key_at(k), hint=hint_for(str(k), ["numbers", "groups"]))
    knobs: list[Knob] = []
    numbers, groups = data.get("numbers") or YDict(), data.get("groups") or YDict()
    for section, what in ((numbers, "numbers"), (groups, "groups")):
        if not isinstance(section, Mapping):
            problems.error("TUNE-SHAPE", f"'{what}' is a mapping", data.at(what))
    if problems.has_errors:
        return None
    seen: dict[str, str] = {}
    for name, body in numbers.items():
        v = _param(game, name, problems, numbers.key_at(name))
        if v is None:
            continue
        knobs += _knob(game, str(name), (str(name),), (v,), body, False, problems, numbers.at(name), seen)
    for name, body in groups.items():
        members = body.get("params") if isinstance(body, Mapping) else None
        if not isinstance(members, Sequence) or isinstance(members, str) or len(members) < 2:
            problems.error("TUNE-SHAPE", f"group '{name}': expects params: [two or more dotted params]",
                           groups.at(name))
            continue
        vals = [_param(game, m, problems, loc_of(members, i)) for i, m in enumerate(members)]
        if any(v is None for v in vals):
            continue
        knobs += _knob(game, str(name), tuple(map(str, members)), tuple(vals), body, True, problems,
                       groups.at(name), seen)
    if len(problems.errors) > before:
        return None
    return TuneSpec(path, knobs)


def _knob(game: Game, name: str, params: tuple[str, ...], vals: tuple[Any, ...], body: Any, shift: bool,
          problems: Problems, loc: Any, seen: dict[str, str]) -> list[Knob]:
    for p in params:
        if p in seen:
            problems.error("TUNE-PARAM", f"'{p}' is tuned twice (also by {seen[p]})", loc)
            return []
        seen[p] = name
    integer = all(_kind(v) == "int" for v in vals)
    r = _range(body, name, integer, problems, loc)
    if r is None:
        return []
    knob = Knob(name, params, vals, r[0], r[1], r[2], integer, shift)
    if not shift and not knob.low <= vals[0] <= knob.high:
        problems.warning("TUNE-RANGE", f"{name}: today's value {vals[0]} lies outside {r[0]}..{r[1]}", loc)
    before = len(problems.errors)
    _breaks(game, knob, problems, loc)
    return [knob] if len(problems.errors) == before else []


def apply(game: Game, values: Mapping[str, Any]) -> Game:
    """A copy of ``game`` with the params' values (files untouched)."""
    for p, v in values.items():
        game = with_param(game, p, v)
    return game

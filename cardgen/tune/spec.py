"""The tunable numbers of a game: ``rules/<game>/tune.yaml``, checked before any game is played.

A file beside ``params.yaml`` (not a block inside it) so that the numbers the rules read stay
the only thing in ``params.yaml`` and ``--vary``/the rulebook never see the search ranges::

    numbers:                      # one knob per dotted param
      teams.hares.bonus: {min: -2, max: 3}          # step 1 for integers
      odds.crit: {min: 0.05, max: 0.3, step: 0.05}
    cards:                        # card fields, by card id: numbers, or along their declared values
      femurs_sully.marksmanship: {min: d8, max: d12}
    groups:                       # params (or card fields) that move together: one shift added to each
      speed: {params: [teams.a.speed, teams.b.speed], min: -1, max: 1}
      femur_dice: {cards: [femurs_sully.reflexes, femurs_frank.reflexes], min: -1, max: 1}

Problems (exit 1, at the file's line): TUNE-SHAPE (not the shape above), TUNE-PARAM (no such
param, with "did you mean"), TUNE-RANGE (a range outside the param's type, empty, a step that
does not divide it), TUNE-BREAKS (the game's content checks fail at an end of the range).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardgen.builder import pipeline
from cardgen.content.model import Game
from cardgen.core.params import lookup
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, load_mapping, loc_of
from cardgen.play.lookup import hint_for
from cardgen.simulate.spec import SimError, leaf_paths, with_param
from cardgen.tune import cardfields

FILE = "tune.yaml"
SECTIONS = ("numbers", "cards", "groups")


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
    #: a card field with declared values: the knob (and ``base``) counts steps along them
    ladder: tuple[Any, ...] = ()

    def values(self, x: float) -> dict[str, Any]:
        """The params' values when the knob reads ``x``."""
        out: dict[str, Any] = {}
        for p, b in zip(self.params, self.base):
            v = b + x if self.shift else x
            if self.ladder:
                out[p] = self.ladder[max(0, min(len(self.ladder) - 1, int(round(v))))]
            else:
                out[p] = int(round(v)) if self.integer else round(float(v), 9)
        return out

    def shown(self, x: float) -> Any:
        """What the knob reads, as a designer writes it (a die for a ladder's step)."""
        if self.ladder and not self.shift:
            return self.ladder[int(round(x))]
        return int(round(x)) if self.integer else x

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


def _range(body: Any, where: str, integer: bool, problems: Problems, loc: Any,
           ladder: tuple[Any, ...] = ()) -> tuple[float, float, float | None] | None:
    if not isinstance(body, Mapping) or not {"min", "max"} <= set(body) or set(body) - {"min", "max", "step", "params",
                                                                                         "cards"}:
        problems.error("TUNE-SHAPE", f"{where}: expects {{min: …, max: …[, step: …]}}", loc)
        return None
    if ladder:
        ends = []
        for key in ("min", "max"):
            if body[key] not in ladder:
                problems.error("TUNE-RANGE", f"{where}: {key} {body[key]!r} is not one of {', '.join(map(str, ladder))}",
                               loc_of(body, key))
                return None
            ends.append(ladder.index(body[key]))
        if ends[0] >= ends[1]:
            problems.error("TUNE-RANGE", f"{where}: min {body['min']} is not below max {body['max']}", loc_of(body, "min"))
            return None
        return ends[0], ends[1], 1
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


def _card(game: Game, path: Any, problems: Problems, loc: Any) -> tuple[Any, tuple[Any, ...]] | None:
    found = cardfields.field(game, str(path))
    if isinstance(found, str):
        problems.error("TUNE-PARAM", found, loc)
        return None
    return found


def _breaks(game: Game, knob: Knob, problems: Problems, loc: Any) -> None:
    """Run the game's content checks with each end of the range substituted."""
    for end in (knob.low, knob.high):
        g = game
        g = apply(g, knob.values(end))
        found = Problems()
        pipeline.check_game(g, found)
        if found.has_errors:
            first = found.errors[0]
            problems.error("TUNE-BREAKS", f"{knob.name} at {end:g} breaks a construction rule: "
                           f"{first.rule} {first.message}", loc)
            return


def only(spec: TuneSpec, patterns: Sequence[str]) -> TuneSpec:
    """The knobs whose names (as tune.yaml writes them) match one of ``patterns`` (shell-style,
    ``*_spirit.cost``); all of them without patterns. A pattern that matches none is a usage error."""
    if not patterns:
        return spec

    def name(k: Knob) -> str:
        return k.name.removeprefix(cardfields.PREFIX)
    for pat in patterns:
        if not any(fnmatch.fnmatchcase(name(k), pat) for k in spec.knobs):
            raise SimError(f"--only {pat}: no knob of {spec.path.name} matches it",
                           did_you_mean(pat, [name(k) for k in spec.knobs]) or
                           f"knobs: {', '.join(name(k) for k in spec.knobs)}")
    return TuneSpec(spec.path, [k for k in spec.knobs if any(fnmatch.fnmatchcase(name(k), p) for p in patterns)])


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
        if k not in SECTIONS:
            problems.error("TUNE-SHAPE", f"unknown key '{k}' (tune.yaml holds 'numbers', 'cards' and 'groups')",
                           data.key_at(k), hint=hint_for(str(k), SECTIONS))
    knobs: list[Knob] = []
    numbers, groups = data.get("numbers") or YDict(), data.get("groups") or YDict()
    cards = data.get("cards") or YDict()
    for section, what in ((numbers, "numbers"), (cards, "cards"), (groups, "groups")):
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
    for name, body in cards.items():
        found = _card(game, name, problems, cards.key_at(name))
        if found is None:
            continue
        v, ladder = found
        knobs += _knob(game, f"{cardfields.PREFIX}{name}", (f"{cardfields.PREFIX}{name}",),
                       (ladder.index(v) if ladder else v,), body, False, problems, cards.at(name), seen, ladder)
    for name, body in groups.items():
        knobs += _group(game, str(name), body, problems, groups.at(name), seen)
    if len(problems.errors) > before:
        return None
    return TuneSpec(path, knobs)


def _group(game: Game, name: str, body: Any, problems: Problems, loc: Any, seen: dict[str, str]) -> list[Knob]:
    """A group of params, or of card fields, moved by one shift."""
    on_cards = isinstance(body, Mapping) and "cards" in body
    members = body.get("cards" if on_cards else "params") if isinstance(body, Mapping) else None
    if (not isinstance(members, Sequence) or isinstance(members, str) or len(members) < 2
            or (isinstance(body, Mapping) and {"cards", "params"} <= set(body))):
        problems.error("TUNE-SHAPE", f"group '{name}': expects params: [two or more dotted params] or "
                       "cards: [two or more card fields]", loc)
        return []
    if not on_cards:
        vals = [_param(game, m, problems, loc_of(members, i)) for i, m in enumerate(members)]
        if any(v is None for v in vals):
            return []
        return _knob(game, name, tuple(map(str, members)), tuple(vals), body, True, problems, loc, seen)
    found = [_card(game, m, problems, loc_of(members, i)) for i, m in enumerate(members)]
    if any(f is None for f in found):
        return []
    ladders = {f[1] for f in found if f is not None}
    if len(ladders) > 1:
        problems.error("TUNE-SHAPE", f"group '{name}': its card fields move along different values", loc)
        return []
    ladder = ladders.pop()
    base = tuple(ladder.index(f[0]) if ladder else f[0] for f in found if f is not None)
    return _knob(game, name, tuple(f"{cardfields.PREFIX}{m}" for m in members), base, body, True, problems, loc,
                 seen, ladder)


def _knob(game: Game, name: str, params: tuple[str, ...], vals: tuple[Any, ...], body: Any, shift: bool,
          problems: Problems, loc: Any, seen: dict[str, str], ladder: tuple[Any, ...] = ()) -> list[Knob]:
    for p in params:
        if p in seen:
            problems.error("TUNE-PARAM", f"'{p}' is tuned twice (also by {seen[p]})", loc)
            return []
        seen[p] = name
    integer = bool(ladder) or all(_kind(v) == "int" for v in vals)
    r = _range(body, name, integer, problems, loc, () if shift else ladder)
    if r is None:
        return []
    knob = Knob(name, params, vals, r[0], r[1], r[2], integer, shift, ladder)
    if not shift and not knob.low <= vals[0] <= knob.high:
        problems.warning("TUNE-RANGE", f"{name}: today's value {knob.shown(vals[0])} lies outside "
                         f"{knob.shown(r[0])}..{knob.shown(r[1])}", loc)
    before = len(problems.errors)
    _breaks(game, knob, problems, loc)
    return [knob] if len(problems.errors) == before else []


def apply(game: Game, values: Mapping[str, Any]) -> Game:
    """A copy of ``game`` with the params' and card fields' values (files untouched)."""
    for p, v in values.items():
        if not cardfields.is_card(p):
            game = with_param(game, p, v)
    return cardfields.with_fields(game, {p: v for p, v in values.items() if cardfields.is_card(p)})

"""What a simulation runs: agents, setups, rules variants — checked before any game is played.

A :class:`Plan` is built from the command's arguments and the loaded game: every name is
resolved here (agents, setup files, the ``--vary`` parameter) so that a mistake is a usage
error (:class:`SimError`, exit 2, with "did you mean") before the first game, and a setup
file that breaks the construction rules is the validator's problems (exit 1).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from cardgen.builder import pipeline
from cardgen.content import collection_files as cols
from cardgen.content.catalogue import load_catalogue
from cardgen.content.model import Game
from cardgen.core.params import lookup
from cardgen.core.problems import Problems, display_path
from cardgen.core.record import record
from cardgen.core.yamllib import yaml
from cardgen.play import coverage
from cardgen.play.lookup import hint_for, nearest
from cardgen.play.mcts import SEARCH, BudgetError, parse_budget
from cardgen.play.package import GamePackage

RANDOM = "random"
#: header keys that describe a log, not a setup
NOT_SETUP = frozenset({"game", "rules_version", "title", "date", "notes"})


class SimError(Exception):
    """A usage error (exit 2) or a setup file with content problems (exit 1)."""

    def __init__(self, message: str, hint: str | None = None, code: int = 2,
                 problems: Problems | None = None):
        super().__init__(message)
        self.message, self.hint, self.code, self.problems = message, hint, code, problems

    def text(self) -> str:
        return self.message + (f" ({self.hint})" if self.hint else "")


@record
class Variant:
    """The game under one value of the swept parameter (or as it is, without ``--vary``)."""

    label: str                    # "" without --vary, else "PARAM=VALUE"
    value: Any
    game: Game


@record
class Plan:
    """Everything a run needs, resolved and checked."""

    slug: str
    title: str
    package: GamePackage
    variants: list[Variant]
    setups: list[dict[str, Any]]
    agents: list[str]
    rotations: int
    games: int = 1000
    seed: int = 0
    max_steps: int = 20_000
    log_every: int = 0            # 0: no logs; k: every k-th game (game index % k == 0)
    vary_param: str | None = None
    setup_files: list[str] = field(default_factory=list)
    #: the rule counters (params.yaml ``simulate.coverage``) and what the catalogue says of each
    #: rule they name: id → {title, rulings}
    triggers: list[coverage.Trigger] = field(default_factory=list)
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)


def agent_names(package: GamePackage) -> list[str]:
    return [RANDOM, *[n for n in package.agents if n != RANDOM]]


def check_agent(package: GamePackage, name: str) -> str:
    """``name`` if it names an agent (``random``, the game's own, ``mcts:BUDGET``), else a
    SimError (exit 2) with "did you mean"."""
    known = agent_names(package)
    if name in known:
        return name
    base, colon, budget = name.partition(":")
    if base in SEARCH:
        if package.hidden_information and package.determinize is None:
            raise SimError(f"agent '{name}': this game hides cards and has no determinize hook yet, so a "
                           "search agent could only peek", f"agents: {', '.join(known)}")
        if not colon:
            raise SimError(f"agent '{name}' needs a budget", f"write {base}:500 (playouts a move) or {base}:2s")
        try:
            parse_budget(budget)
        except BudgetError as e:
            raise SimError(f"agent '{name}': {e}", f"did you mean '{base}:500' or '{base}:2s'?") from None
        return name
    offered = known + [f"{s}:{budget if colon else 500}" for s in SEARCH]
    hint = hint_for(name, offered)
    raise SimError(f"unknown agent '{name}'", hint or f"agents: {', '.join(known + [s + ':BUDGET' for s in SEARCH])}")


def check_agents(package: GamePackage, names: Sequence[str]) -> list[str]:
    for n in names:
        check_agent(package, n)
    return list(names) or [RANDOM]


def rotations(agents: Sequence[str]) -> int:
    """How many seatings the agents take: one agent plays every seat; several take turns in
    every seat (each rotation of the list over the seats)."""
    return 1 if len(set(agents)) == 1 else len(agents)


def agent_at(agents: Sequence[str], rotation: int, seat: int) -> str:
    """The agent in ``seat`` under ``rotation``."""
    return agents[(seat + rotation) % len(agents)]


# --- setups ---------------------------------------------------------------------------
def _mentions(value: Any, names: set[str]) -> set[str]:
    if isinstance(value, str):
        return {value} & names
    if isinstance(value, Mapping):
        return set().union(*(_mentions(v, names) for v in value.values()), set())
    if isinstance(value, (list, tuple)):
        return set().union(*(_mentions(v, names) for v in value), set())
    return set()


def game_setups(game: Game, package: GamePackage, seed: int) -> list[dict[str, Any]]:
    if package.setups is None:
        raise SimError(f"{game.title} offers no setups to simulate (its package has no 'setups')")
    setups = package.setups(game, random.Random(seed))
    if not setups:
        raise SimError(f"{game.title} offers no setups to simulate")
    return setups


def file_setups(game: Game, package: GamePackage, files: Sequence[str], seed: int) -> list[dict[str, Any]]:
    """Setups from deck/party/build files: validated first (exit 1 with the validator's
    problems), then handed to the package's ``setups_from_files``, else the game's own setups
    that name every one of the files (by file name or ``name:``)."""
    known = cols.collection_files(game)
    paths = []
    for f in files:
        p = Path(f)
        if not p.is_file():
            by_stem = {k.stem: display_path(str(k)) for k in known}
            near = nearest(p.stem, by_stem)
            hint = ("did you mean " + " or ".join(f"'{by_stem[n]}'" for n in near) + "?") if near else \
                (f"{game.title} keeps: {', '.join(by_stem.values())}" if known else None)
            raise SimError(f"no such setup file: {f}", hint)
        paths.append(p)
    problems = Problems()
    for p in paths:
        pipeline.check_file(game, p, problems)
    if problems.has_errors:
        raise SimError(f"{len(problems.errors)} problem(s) in the setup file(s)", code=1, problems=problems)
    loaded = []
    for p in paths:
        kind, body, _ = cols.load_collection_file(p, game, Problems())
        loaded.append((kind, body, p))
    if package.setups_from_files is not None:
        setups = package.setups_from_files(game, loaded, random.Random(seed))
    else:
        names = [{p.stem, str(body.get("name") or p.stem)} for _k, body, p in loaded]
        every = game_setups(game, package, seed)
        setups = [s for s in every if all(_mentions(s, n) for n in names)]
        if not setups:
            offered = sorted(set().union(set(), *(_strings(s) for s in every)))
            raise SimError(f"none of {game.title}'s setups uses {', '.join(str(p) for p in paths)}",
                           hint_for(paths[0].stem, offered) or "name files the game keeps (see `cardgen validate`)")
    if not setups:
        raise SimError(f"the file(s) {', '.join(files)} make no setup to simulate")
    return setups


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        return set().union(set(), *(_strings(v) for v in value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(set(), *(_strings(v) for v in value))
    return set()


# --- --vary ---------------------------------------------------------------------------
def leaf_paths(data: Any, prefix: str = "") -> list[str]:
    out = []
    if isinstance(data, Mapping):
        for k, v in data.items():
            p = f"{prefix}{k}"
            out.append(p)
            out += leaf_paths(v, p + ".")
    return out


def _same_kind(old: Any, new: Any) -> bool:
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if isinstance(old, int):
        return isinstance(new, int)
    if isinstance(old, float):
        return isinstance(new, (int, float))
    if isinstance(old, str):
        return isinstance(new, str)
    if old is None:
        return True
    return type(old) is type(new)


def parse_vary(game: Game, text: str) -> tuple[str, list[Any]]:
    """``PARAM=V1,V2,…`` → (dotted path, values read as YAML scalars), checked against params.yaml."""
    if "=" not in text:
        raise SimError(f"--vary expects PARAM=V1,V2,… (got {text!r})")
    path, _, raw = text.partition("=")
    path = path.strip()
    try:
        old = lookup(game.params, path)
    except KeyError:
        raise SimError(f"unknown parameter '{path}' in {game.slug}'s params.yaml",
                       hint_for(path, leaf_paths(game.params)) or "see rules/<game>/params.yaml") from None
    if isinstance(old, (Mapping, list)):
        raise SimError(f"'{path}' is a {'mapping' if isinstance(old, Mapping) else 'list'}; --vary sweeps one value",
                       hint_for(path + ".", leaf_paths(old, path + ".")))
    values = []
    for item in raw.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            v = yaml.safe_load(item)
        except yaml.YAMLError:
            v = item
        if not _same_kind(old, v):
            raise SimError(f"--vary {path}: {item!r} is not of the parameter's kind ({type(old).__name__}, "
                           f"now {old!r})")
        values.append(v)
    if not values:
        raise SimError(f"--vary {path}: no values given")
    if len(set(map(repr, values))) != len(values):
        raise SimError(f"--vary {path}: a value is given twice")
    return path, values


def with_param(game: Game, path: str, value: Any) -> Game:
    """A copy of ``game`` whose params hold ``value`` at ``path`` (the files are not touched)."""
    g = copy.deepcopy(game)
    *parents, last = path.split(".")
    node = lookup(g.params, parents)
    node[last if last in node or not last.isdigit() else int(last)] = value
    return g


def variants(game: Game, vary: str | None) -> tuple[str | None, list[Variant]]:
    if not vary:
        return None, [Variant("", None, game)]
    path, values = parse_vary(game, vary)
    return path, [Variant(f"{path}={yaml.safe_dump(v, default_flow_style=True).strip().removesuffix('...').strip()}",
                          v, with_param(game, path, v)) for v in values]


def rule_counters(game: Game) -> tuple[list[coverage.Trigger], dict[str, dict[str, Any]]]:
    """The game's ``simulate.coverage`` triggers, checked against its catalogue (a mistake:
    SimError, exit 1, with its SIM-COVERAGE problems), and its rules' titles and rulings."""
    problems = Problems()
    cat = load_catalogue(game.root, game.slug, Problems())
    known = cat.rules if cat is not None else None
    triggers = coverage.read_triggers(game.params, game.rules_dir / "params.yaml", known, problems)
    if problems.has_errors:
        raise SimError(f"{len(problems.errors)} problem(s) in simulate.coverage", code=1, problems=problems)
    rules: dict[str, dict[str, Any]] = {}
    for t in triggers:
        r = known.get(t.rule) if known is not None else None
        info = rules.setdefault(t.rule, {"title": r.title if r else "",
                                         "rulings": [f"{t.rule}: {x}" for x in (r.rulings if r else ())]})
        linked = known.get(t.ruling) if known is not None and t.ruling else None
        if linked is not None:
            info["rulings"] += [f"{linked.id}: {x}" for x in linked.rulings if f"{linked.id}: {x}" not in info["rulings"]]
    return triggers, rules


def make_plan(game: Game, package: GamePackage, *, games: int = 1000, seed: int = 0,
              agents: Sequence[str] = (), setup_files: Sequence[str] = (), vary: str | None = None,
              max_steps: int = 20_000, log_every: int = 0) -> Plan:
    """Resolve every name of a run; raises :class:`SimError` on the first that does not resolve."""
    if package.new_state is None:
        raise SimError(f"cardgen simulate: not yet supported for {game.slug} (its package has no game state)")
    if games < 1:
        raise SimError("--games must be at least 1")
    if max_steps < 1:
        raise SimError("--max-steps must be at least 1")
    names = check_agents(package, agents)
    path, vs = variants(game, vary)
    setups = file_setups(game, package, setup_files, seed) if setup_files else game_setups(game, package, seed)
    triggers, rules = rule_counters(game)
    return Plan(game.slug, game.title, package, vs, setups, names, rotations(names), games, seed, max_steps, log_every,
                path, [str(f) for f in setup_files], triggers, rules)

"""The search: an Optuna study over a game's knobs, each trial a seeded simulate run.

Trials play on seed ``2×S`` (every trial the same games: common random numbers, so two trials
differ by their numbers, not their dice); the proposal and today's numbers are re-measured on
seed ``2×S+1``, games the search never saw. Before that, the best few trials race: each is
replayed on as many games as the re-measure, on the search's seed (its own games and more), and
the one that does best there is the proposal — a trial that led on a lucky few hundred games
falls back. The study lives in ``OUT/study.journal`` (Optuna's
JournalStorage on a file: resumable after Ctrl-C, no database needed). TPE (seeded) for one
objective, NSGA-II (seeded) for several (a Pareto front). Deterministic for a seed and worker
count when run in one go.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from cardgen.content.model import Game
from cardgen.core.lazymod import lazy
from cardgen.core.record import record
from cardgen.play.package import GamePackage
from cardgen.simulate import run
from cardgen.simulate.spec import SimError, make_plan
from cardgen.tune import objectives as objs
from cardgen.tune.spec import Knob, TuneSpec, apply

optuna = lazy("optuna")
UNIMPORTANT = 0.1                 # a knob below this share of the variance explained is unimportant
FINALISTS = 5                     # the best trials that race on more games for the proposal
TRIALS_PER_KNOB = 4               # importances are read (and idle knobs kept) from this many trials a knob


@record
class Settings:
    objectives: list[objs.Objective]
    agents: tuple[str, ...] = ()
    trials: int = 30
    games: int = 200              # per trial
    check_games: int = 0          # the re-measure (0: 4 × games)
    seed: int = 0
    workers: int | None = None
    cluster: str | None = None
    near: bool = False            # CMA-ES started at today's numbers (one objective) instead of TPE
    only: tuple[str, ...] = ()    # the knobs of tune.yaml this study moves (shell patterns); all without


@record
class Side:
    values: dict[str, Any]        # param → value
    measured: list[objs.Measured]


@record
class Result:
    knobs: list[Knob]
    settings: Settings
    history: list[tuple[int, dict[str, Any], list[float]]]     # trial number, knob values, objective values
    pareto: list[int]
    best: dict[str, Any]          # knob → value
    before: Side
    after: Side
    importances: list[dict[str, float]] = field(default_factory=list)   # per objective, knob → share
    #: the race: each finalist trial and its objectives on more games
    race: list[tuple[int, list[float]]] = field(default_factory=list)

    def significant(self, i: int) -> bool:
        """The proposal's interval of objective ``i`` lies wholly below today's."""
        return self.after.measured[i].high < self.before.measured[i].low


def params_of(knobs: Sequence[Knob], values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in knobs:
        out.update(k.values(values[k.name]))
    return out


def play(game: Game, package: GamePackage, s: Settings, params: dict[str, Any], seed: int,
         games: int) -> list[objs.Measured]:
    plan = make_plan(apply(game, params), package, games=games, seed=seed, agents=s.agents)
    outcome = run.simulate(plan, s.workers, s.cluster)
    block = outcome.report["results"][0]
    if block["errors"]["count"]:
        first = block["errors"]["games"][0]
        raise SimError(f"an engine error at {params} (seed {first['seed']}): {first['error']}", code=1)
    return [objs.measure(o, block, outcome.records[0]) for o in s.objectives]


def _suggest(trial: Any, k: Knob) -> float:
    if k.integer:
        return float(trial.suggest_int(k.name, int(k.low), int(k.high), step=int(k.step or 1)))
    return float(trial.suggest_float(k.name, k.low, k.high, step=k.step))


def sampler(s: Settings, knobs: Sequence[Knob]) -> Any:
    """NSGA-II for several objectives; one objective: TPE over the whole ranges, or — ``near`` —
    CMA-ES started at today's numbers (a search that stays near them: small edits to a design)."""
    if len(s.objectives) > 1:
        if s.near:
            raise SimError("--near searches for one objective (CMA-ES); several give a Pareto front "
                           "(NSGA-II)")
        return optuna.samplers.NSGAIISampler(seed=s.seed)
    if s.near:
        with warnings.catch_warnings():     # x0 is deprecated in Optuna 4.9 (its removal, 6.0, is pinned out)
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            warnings.simplefilter("ignore", FutureWarning)
            return optuna.samplers.CmaEsSampler(x0={k.name: k.current for k in knobs}, seed=s.seed,
                                                with_margin=True, n_startup_trials=0,
                                                warn_independent_sampling=False)
    return optuna.samplers.TPESampler(seed=s.seed)


def study(game: Game, s: Settings, out: Path, knobs: Sequence[Knob] = ()) -> Any:
    optuna.logging.set_verbosity(logging.WARNING)
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(out / "study.journal")))
    name = f"{game.slug}:" + ",".join(objs.label(o) for o in s.objectives)
    return optuna.create_study(study_name=name, storage=storage, sampler=sampler(s, knobs),
                               load_if_exists=True,
                               directions=["minimize"] * len(s.objectives))


def search(game: Game, package: GamePackage, spec: TuneSpec, s: Settings, out: Path,
           progress: Callable[[int, list[float]], None] | None = None) -> Result:
    out.mkdir(parents=True, exist_ok=True)
    knobs = spec.knobs
    st = study(game, s, out, knobs)
    done = [t for t in st.trials if t.state == optuna.trial.TrialState.COMPLETE]
    made = {"games": s.games, "seed": s.seed, "agents": list(s.agents), **({"near": True} if s.near else {}),
            "knobs": [[k.name, k.low, k.high, k.step] for k in knobs]}
    if not st.trials:
        st.set_user_attr("settings", made)
        st.enqueue_trial({k.name: k.current for k in knobs})      # today's numbers: trial 0
    elif st.user_attrs.get("settings") != made:
        raise SimError(f"{out} holds a study of other settings (games per trial, seed, agents or tune.yaml)",
                       "give another --out, or the same settings to resume it")

    def objective(trial: Any) -> list[float]:
        values = {k.name: _suggest(trial, k) for k in knobs}
        ms = play(game, package, s, params_of(knobs, values), 2 * s.seed, s.games)
        vals = [m.value for m in ms]
        if progress:
            progress(trial.number, vals)
        return vals

    left = s.trials - len(done)
    if left > 0:
        st.optimize(objective, n_trials=left, catch=())
    complete = [t for t in st.trials if t.state == optuna.trial.TrialState.COMPLETE]
    history = [(t.number, dict(t.params), list(t.values)) for t in complete]
    front = [t.number for t in st.best_trials]
    n = s.check_games or 4 * s.games
    best_t, race = finalist(game, package, s, knobs, st, complete, n)
    today = {k.name: k.current for k in knobs}
    imp = importances(st, knobs, len(s.objectives))
    # a knob unimportant to every objective keeps today's value — the proposal changes what matters —
    # once there are trials enough to tell (a few per knob), and only if the proposal so trimmed
    # does as well on fresh games: knobs may matter together though each alone looks idle
    enough = len(complete) >= TRIALS_PER_KNOB * len(knobs)
    idle = {k.name for k in knobs if enough and imp and all(shares[k.name] < UNIMPORTANT for shares in imp)}
    whole = {k.name: best_t.params[k.name] for k in knobs}
    fresh = 2 * s.seed + 1
    before = Side(params_of(knobs, today), play(game, package, s, params_of(knobs, today), fresh, n))
    best = whole
    after = Side(params_of(knobs, whole), play(game, package, s, params_of(knobs, whole), fresh, n))
    trimmed = {k: today[k] if k in idle else v for k, v in whole.items()}
    if trimmed != whole:
        cut = Side(params_of(knobs, trimmed), play(game, package, s, params_of(knobs, trimmed), fresh, n))
        if all(c.low <= a.high for c, a in zip(cut.measured, after.measured)):     # as good, within the noise
            best, after = trimmed, cut
    return Result(knobs, s, history, front, best, before, after, imp, race)


def finalist(game: Game, package: GamePackage, s: Settings, knobs: Sequence[Knob], st: Any,
             complete: Sequence[Any], n: int) -> tuple[Any, list[tuple[int, list[float]]]]:
    """The trial the proposal takes: the best few (by the sum of their objectives; several
    objectives: the Pareto front first) replayed on ``n`` games of the search's seed, the best
    there kept. One distinct candidate: no race."""
    front = {t.number for t in st.best_trials}
    ranked = sorted(complete, key=lambda t: (t.number not in front, sum(t.values), t.number))
    seen: list[dict[str, Any]] = []
    picks = []
    for t in ranked:
        if t.params not in seen:
            seen.append(t.params)
            picks.append(t)
        if len(picks) == FINALISTS:
            break
    if len(picks) < 2:
        return min(st.best_trials, key=lambda t: (sum(t.values), t.number)), []
    # on the trials' own number of games the race would replay the very games each trial played
    # (the same seed): their results are the trials' own
    race = [(t.number, list(t.values) if n == s.games else
             [m.value for m in play(game, package, s, params_of(knobs, t.params), 2 * s.seed, n)])
            for t in picks]
    won = min(race, key=lambda r: (sum(r[1]), r[0]))[0]
    return next(t for t in picks if t.number == won), race


def importances(st: Any, knobs: Sequence[Knob], n: int) -> list[dict[str, float]]:
    if len(knobs) < 2:
        return []
    out = []
    for i in range(n):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)      # "importances to achieve low values": yes
                imp = optuna.importance.get_param_importances(
                    st, target=lambda t, i=i: t.values[i],
                    evaluator=optuna.importance.PedAnovaImportanceEvaluator())
        except (RuntimeError, ValueError):
            return []
        out.append({k.name: float(imp.get(k.name, 0.0)) for k in knobs})
    return out

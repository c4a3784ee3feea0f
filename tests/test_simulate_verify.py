"""A simulated game is only a result if the rules accept it (issue 29): every game `simulate`
plays is replayed through the referee in the run, and one the referee rejects is an engine
error with its seed, never a statistic. Proved on Loot & Battles with a state whose log drifts
from its own play (as the Mirror Aegis bug did), and the legal twin."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest

from cardgen.core.options import MISSING, Opt
from cardgen.games.loot_battles.play import LootState
from cardgen.play.api import Action
from cardgen.play.playout import play, random_agent
from cardgen.play.replay import Rejection, replay_actions
from cardgen.simulate import run, spec, worker
from cardgen.simulate.verify import Rejected, verify
from tests import playkit

GAME = "loot_battles"


class Drifting(LootState):
    """Plays as Loot & Battles, but its log claims one point of damage too many on its first
    hit (two models disagreeing: the referee must notice)."""

    def log_events(self) -> list[dict[str, Any]]:
        out = [dict(e) for e in super().log_events()]
        hit = next((e for e in out if e.get("damage")), None)
        if hit is not None:
            hit["damage"] += 1
        return out


def _drifting(game, setup):
    return Drifting(game, setup)


def _played(seed: int, cls=LootState) -> tuple[dict[str, Any], LootState]:
    g = playkit.game(GAME)
    setups = playkit.package(GAME).setups(g, random.Random(seed))
    setup = setups[seed % len(setups)]
    state = cls(g, setup)
    play(state, random_agent, random.Random(seed))
    return setup, state


def test_a_legal_game_is_accepted():
    setup, state = _played(4)
    verify(playkit.package(GAME), playkit.game(GAME), setup, state, 4)


def test_a_game_whose_log_the_referee_rejects_is_refused_with_the_rule_and_line():
    setup, state = _played(4, Drifting)
    with pytest.raises(Rejected) as e:
        verify(playkit.package(GAME), playkit.game(GAME), setup, state, 4)
    assert "line 9: LB-ATK-4: the log says the damage is 3, but the rules give 2" in str(e.value)


def test_a_rejected_game_is_an_engine_error_with_its_seed_never_a_result():
    pkg = dataclasses.replace(playkit.package(GAME), new_state=_drifting)
    plan = spec.make_plan(playkit.game(GAME), pkg, games=6, seed=7)
    out = run.simulate(plan, workers=1)
    recs = out.records[0]
    assert all(r["status"] == "error" and "Rejected" in r["error"] for r in recs if r.get("steps", 0) > 50)
    errs = out.report["results"][0]["errors"]
    assert errs["count"] >= 1 and all(g["seed"] == worker.game_seed(7, g["index"]) for g in errs["games"])


def test_the_legal_twin_run_has_no_engine_error():
    plan = spec.make_plan(playkit.game(GAME), playkit.package(GAME), games=6, seed=7)
    assert run.simulate(plan, workers=1).report["results"][0]["errors"]["count"] == 0


def test_replay_actions_names_the_first_illegal_action():
    setup, state = _played(2)
    history = list(state.history)
    g = playkit.game(GAME)
    assert replay_actions(LootState(g, setup), history) is None
    k = next(i for i, a in enumerate(history) if a.kind == "attack")
    bad = [*history[:k], Action.make("pass", player="nobody"), *history[k + 1:]]
    rej = replay_actions(LootState(g, setup), bad)
    assert isinstance(rej, Rejection) and rej.step == k and rej.rule == "LEGAL"


def test_an_option_without_a_default_stays_missing_when_pickled():
    """A Dask worker receives the run's engine class by value, with its log vocabulary: an option
    without a default must still say so (legal twin: a default kept as it is)."""
    assert pickle.loads(pickle.dumps(Opt("int"))).default is MISSING
    assert pickle.loads(pickle.dumps(Opt("int", default=3))).default == 3


def test_games_played_from_the_context_a_dask_worker_receives_are_accepted():
    """Dask sends a worker the run's context through cloudpickle. With the options' "no default"
    copied, every field a log leaves out became a stray object the referee read as given: Bone
    Wars' blocked attacks were rejected on Dask only, as engine errors (caught by `make bench`'s
    tune study on a LocalCluster)."""
    cloudpickle = pytest.importorskip("cloudpickle")
    plan = spec.make_plan(playkit.game("bone_wars"), playkit.package("bone_wars"), games=12, seed=0)
    ctx = pickle.loads(cloudpickle.dumps(run.context(plan)))
    _, recs = worker.play_chunk(ctx, worker.Task(variant=0, start=0, stop=12))
    assert len(recs) == 12 and all(r["status"] != "error" for r in recs), [r.get("error") for r in recs]

"""A whole simulation: play a :class:`~.spec.Plan`'s games, gather the report, write the logs.

:func:`simulate` is the API the command line and the tests use: it takes a loaded game and its
package directly, so any game (a sixth one, or the tests' toy game) can be simulated.
The report is a JSON-ready mapping (schema ``cardgen/simulate/report.schema.json``); it holds
nothing that depends on timing, workers or backend, so equal runs give equal bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgen.core.atomic import write_bytes
from cardgen.core.record import record
from cardgen.simulate import backends, stats
from cardgen.simulate.spec import Plan
from cardgen.simulate.worker import Context

SCHEMA_ID = "cardgen-simulate/1"


@record
class Outcome:
    report: dict[str, Any]
    records: list[list[dict[str, Any]]]       # per variant, in game order

    @property
    def errors(self) -> int:
        return sum(b["errors"]["count"] for b in self.report["results"])


def context(plan: Plan) -> Context:
    return Context(plan.package, tuple(v.game for v in plan.variants), tuple(plan.setups), tuple(plan.agents),
                   plan.rotations, plan.seed, plan.max_steps, plan.log_every,
                   tuple(tuple(plan.triggers) for _ in plan.variants))


def setup_label(setup: dict[str, Any]) -> str:
    """A short label of a setup header: its setup keys, compactly."""
    parts = []
    for k, v in setup.items():
        if k in stats.NOT_SETUP:
            continue
        text = json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        parts.append(f"{k}={text if len(text) <= 80 else text[:77] + '…'}")
    return " ".join(parts)


def simulate(plan: Plan, workers: int | None = None, cluster: str | None = None,
             progress: backends.Progress | None = None) -> Outcome:
    """Play every game of the plan (locally on ``workers`` processes, or on the Dask cluster at
    ``cluster``) and compute the report."""
    return simulate_all([plan], workers, cluster, progress)[0]


def simulate_all(plans: Sequence[Plan], workers: int | None = None, cluster: str | None = None,
                 progress: backends.Progress | None = None) -> list[Outcome]:
    """Several plans' games on one set of workers (the ladder's line-ups: no worker waits for
    the end of one before the next begins); each plan's outcome is what :func:`simulate` gives it."""
    runs = [(context(p), len(p.variants), p.games) for p in plans]
    return [outcome(p, recs) for p, recs in zip(plans, backends.run_all(runs, workers, cluster, progress))]


def outcome(plan: Plan, records: list[list[dict[str, Any]]]) -> Outcome:
    """The plan's report from its records (per variant, in game order)."""
    blocks = [stats.block(recs, plan.setups, v.label, v.value, {c.id: c.type for c in v.game.cards}, plan.rules)
              for v, recs in zip(plan.variants, records)]
    report = {
        "schema": SCHEMA_ID,
        "game": plan.slug, "title": plan.title, "games": plan.games, "seed": plan.seed,
        "agents": list(plan.agents), "max_steps": plan.max_steps,
        "setups": [{"index": i, "label": setup_label(s)} for i, s in enumerate(plan.setups)],
        "setup_files": list(plan.setup_files),
        "vary": {"param": plan.vary_param, "values": [v.value for v in plan.variants]} if plan.vary_param else None,
        "thresholds": stats.THRESHOLDS,
        "results": blocks,
    }
    return Outcome(report, records)


def to_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def log_path(logs: Path, plan: Plan, variant: int, index: int) -> Path:
    sub = logs / plan.variants[variant].label.replace("/", "_") if plan.vary_param else logs
    return sub / f"game-{index:06d}.jsonl"


def write_logs(outcome: Outcome, plan: Plan, logs: Path) -> list[Path]:
    """Each recorded game's playtest log (JSON Lines) under ``logs``."""
    written = []
    for v, recs in enumerate(outcome.records):
        for r in recs:
            if "log" in r:
                p = log_path(logs, plan, v, r["index"])
                p.parent.mkdir(parents=True, exist_ok=True)
                write_bytes(p, r["log"].encode("utf-8"))
                written.append(p)
    return written

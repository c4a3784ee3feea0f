"""make bench (part 3): ``cardgen tune`` trials per minute on 2 cores — Bone Wars, random agents.

Runs a short study (``--trials`` trials of ``--games`` games, 2 workers) over
rules/bone_wars/tune.yaml into bench/work/tune/, then prints trials/minute and the proposal; then
the same study on a Dask LocalCluster, which must give the same trials and best.
Writes bench/work/tune.json.

    .venv/bin/python bench/tune.py [--trials 8] [--games 100] [--no-dask]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from cardgen import gamehooks  # noqa: E402
from cardgen.content.loader import load_game  # noqa: E402
from cardgen.core.lazymod import lazy  # noqa: E402
from cardgen.core.problems import Problems  # noqa: E402
from cardgen.tune import objectives, search, spec  # noqa: E402

distributed = lazy("distributed")         # cardgen[cluster]: only with --dask


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dask", action=argparse.BooleanOptionalAction, default=True,
                    help="also run the study on a Dask LocalCluster and compare (needs cardgen[cluster])")
    a = ap.parse_args()
    problems = Problems()
    game = load_game(ROOT, "bone_wars", problems)
    pkg = gamehooks.package("bone_wars")
    assert game is not None and pkg is not None and not problems.has_errors
    sp = spec.load(game, problems)
    assert sp is not None, [p.text() for p in problems.errors]
    out = HERE / "work" / "tune"
    shutil.rmtree(out, ignore_errors=True)
    s = search.Settings(objectives.parse(()), ("random",), a.trials, a.games, a.games, 0, a.workers, None)
    started = time.perf_counter()
    r = search.search(game, pkg, sp, s, out)
    took = time.perf_counter() - started
    per_min = a.trials / (took / 60)
    print(f"bone_wars tune: {a.trials} trials × {a.games} games on {a.workers} workers in {took:.1f} s "
          f"(with the re-measure): {per_min:.1f} trials/minute")
    print(f"  proposal {r.after.values}; balance {r.before.measured[0].value:.3f} → {r.after.measured[0].value:.3f}")
    same = None
    if a.dask:
        with distributed.LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster:
            c = search.Settings(s.objectives, s.agents, s.trials, s.games, s.check_games, s.seed, None,
                                cluster.scheduler_address)
            shutil.rmtree(out.with_name("tune-dask"), ignore_errors=True)
            d = search.search(game, pkg, sp, c, out.with_name("tune-dask"))
        same = d.history == r.history and d.after == r.after
        print(f"  the same study on a Dask LocalCluster: {'the same trials and best' if same else 'DIFFERENT'}")
    (HERE / "work").mkdir(exist_ok=True)
    (HERE / "work" / "tune.json").write_text(json.dumps({"trials": a.trials, "games": a.games, "workers": a.workers,
                                                         "seconds": round(took, 2), "trials_per_minute": round(per_min, 2),
                                                         "proposal": r.after.values, "dask_same": same}, indent=2) + "\n")


if __name__ == "__main__":
    main()

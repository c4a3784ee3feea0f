"""Where the games are played: this process, local worker processes, or a Dask cluster.

Every backend plays the same :class:`~.worker.Task` chunks with the same
:func:`~.worker.play_chunk` and returns the records in game order, so the results are the
same byte for byte whatever the backend or the number of workers. Chunks keep per-task
overhead small (a few hundred games each at most, a few chunks per worker); a run with a search
agent, whose games take seconds each, is cut finer so that no worker waits long for the other's
last chunk. :func:`run_all` plays several runs on one set of workers (the ladder's line-ups):
the heaviest runs' chunks first, the quick ones filling in at the end.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import re
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from types import ModuleType
from typing import Any

from cardgen.simulate.spec import SimError
from cardgen.simulate.worker import Context, Task, play_chunk, search_weight

Progress = Callable[[int], None]
Records = list[dict[str, Any]]
Job = tuple[int, Task]          #: a chunk of one of several runs (the run's index, the chunk)

CONNECT_TIMEOUT_S = 5
MAX_CHUNK = 250
CHUNKS = 4              #: chunks a worker, about (a run of quick games)
SEARCH_CHUNKS = 16      #: chunks a worker, about, when a search agent plays (games of seconds)


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def tasks(n_variants: int, games: int, workers: int, per_worker: int = CHUNKS) -> list[Task]:
    """Chunks of each variant's games: about ``per_worker`` per worker, at most MAX_CHUNK games."""
    size = max(1, min(MAX_CHUNK, math.ceil(games * n_variants / (max(1, workers) * per_worker))))
    return [Task(v, s, min(games, s + size)) for v in range(n_variants) for s in range(0, games, size)]


def chunks_of(ctx: Context, n_variants: int, games: int, workers: int) -> list[Task]:
    """:func:`tasks` for a run: finer (:data:`SEARCH_CHUNKS` a worker) when a search agent plays."""
    return tasks(n_variants, games, workers, SEARCH_CHUNKS if search_weight(ctx) else CHUNKS)


def _in_order(done: dict[Task, Records], order: list[Task], n_variants: int) -> list[Records]:
    out: list[Records] = [[] for _ in range(n_variants)]
    for t in order:
        out[t.variant] += done[t]
    return out


def run_here(ctxs: Sequence[Context], order: list[Job], progress: Progress) -> dict[Job, Records]:
    done = {}
    for k, t in order:
        _, recs = play_chunk(ctxs[k], t)
        done[k, t] = recs
        progress(len(recs))
    return done


_CTXS: tuple[Context, ...] = ()


def _init(ctxs: tuple[Context, ...]) -> None:
    global _CTXS
    _CTXS = ctxs


def _play(job: Job) -> tuple[Job, Records]:
    k, task = job
    return job, play_chunk(_CTXS[k], task)[1]


def run_local(ctxs: Sequence[Context], order: list[Job], workers: int,
              progress: Progress) -> dict[Job, Records]:
    """Worker processes on this machine (forked where the platform allows it), each given every
    run's context once."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    mp = multiprocessing.get_context(method)
    done = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp, initializer=_init,
                             initargs=(tuple(ctxs),)) as pool:
        pending = {pool.submit(_play, j) for j in order}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                j, recs = f.result()
                done[j] = recs
                progress(len(recs))
    return done


def dask() -> ModuleType:
    """``distributed``, the optional extra (``pip install 'cardgen[cluster]'``): imported only
    when a cluster is asked for, as it takes a second to import."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise SimError("--cluster needs Dask: pip install 'cardgen[cluster]'") from None


_ADDRESS = re.compile(r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[^\]]+\]|[^:/\[\]]+):(?P<port>\d+)/?")
_HINT = "start one with `dask scheduler`, or check the address (tcp://HOST:PORT)"


def reachable(address: str) -> None:
    """A TCP scheduler address that takes a connection within CONNECT_TIMEOUT_S, else a
    SimError naming it (before any Dask client exists, which would linger on closing)."""
    m = _ADDRESS.fullmatch(address.strip())
    if m is None:
        raise SimError(f"--cluster {address!r} is no scheduler address", "write it as tcp://HOST:PORT")
    if m["scheme"] not in (None, "tcp", "tls"):
        return                      # another transport: Dask itself connects (and times out)
    try:
        socket.create_connection((m["host"].strip("[]"), int(m["port"])), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as e:
        raise SimError(f"no Dask scheduler answers at {address} ({e.strerror or type(e).__name__})", _HINT) from None


def connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; exit 2 (SimError) within a few seconds
    when it does not answer."""
    distributed = dask()
    reachable(address)
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise SimError(f"no Dask scheduler answers at {address} ({type(e).__name__}: {e})", _HINT) from None


def run_cluster(ctx: Context, n_variants: int, games: int, address: str, progress: Progress) -> list[Records]:
    """The same chunks on a Dask distributed cluster: the context is scattered once to every
    worker, each chunk is one Dask task."""
    client = connect(address)
    try:
        order = tasks(n_variants, games, max(1, sum(client.nthreads().values())))
        shared = client.scatter(ctx, broadcast=True, hash=False)
        futures = client.map(play_chunk, [shared] * len(order), order, pure=False)
        done = {}
        for _fut, (t, recs) in dask().as_completed(futures, with_results=True, loop=client.loop):
            done[t] = recs
            progress(len(recs))
        return _in_order(done, order, n_variants)
    finally:
        client.close()


def run(ctx: Context, n_variants: int, games: int, workers: int | None = None, cluster: str | None = None,
        progress: Progress | None = None) -> list[Records]:
    """Play every game of every variant; the records of each variant in game order."""
    return run_all([(ctx, n_variants, games)], workers, cluster, progress)[0]


def run_all(runs: Sequence[tuple[Context, int, int]], workers: int | None = None, cluster: str | None = None,
            progress: Progress | None = None) -> list[list[Records]]:
    """Several runs (each a context, its number of variants and games a variant) on one set of
    workers; per run, the records of each variant in game order — what :func:`run` gives it
    alone. On a cluster the runs are played one after the other."""
    progress = progress or (lambda n: None)
    if cluster:
        return [run_cluster(ctx, nv, games, cluster, progress) for ctx, nv, games in runs]
    workers = workers or default_workers()
    if workers < 1:
        raise SimError("--workers must be at least 1")
    ctxs = [ctx for ctx, _, _ in runs]
    plans = [chunks_of(ctx, nv, games, workers) for ctx, nv, games in runs]
    # the heaviest search first (a stable sort: ties keep their order)
    heavy = sorted(range(len(runs)), key=lambda k: -search_weight(ctxs[k]))
    order = [(k, t) for k in heavy for t in plans[k]]
    if workers == 1 or len(order) == 1:
        done = run_here(ctxs, order, progress)
    else:
        done = run_local(ctxs, order, min(workers, len(order)), progress)
    return [_in_order({t: done[k, t] for t in plans[k]}, plans[k], nv) for k, (_, nv, _) in enumerate(runs)]

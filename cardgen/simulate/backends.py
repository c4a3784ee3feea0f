"""Where the games are played: this process, local worker processes, or a Dask cluster.

Every backend plays the same :class:`~.worker.Task` chunks with the same
:func:`~.worker.play_chunk` and returns the records in game order, so the results are the
same byte for byte whatever the backend or the number of workers. Chunks keep per-task
overhead small (a few hundred games each at most, a few chunks per worker).
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import re
import socket
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from types import ModuleType
from typing import Any

from cardgen.simulate.spec import SimError
from cardgen.simulate.worker import Context, Task, play_chunk

Progress = Callable[[int], None]
Records = list[dict[str, Any]]

CONNECT_TIMEOUT_S = 5
MAX_CHUNK = 250


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def tasks(n_variants: int, games: int, workers: int) -> list[Task]:
    """Chunks of each variant's games: about four per worker, at most MAX_CHUNK games."""
    size = max(1, min(MAX_CHUNK, math.ceil(games * n_variants / (max(1, workers) * 4))))
    return [Task(v, s, min(games, s + size)) for v in range(n_variants) for s in range(0, games, size)]


def _in_order(done: dict[Task, Records], order: list[Task], n_variants: int) -> list[Records]:
    out: list[Records] = [[] for _ in range(n_variants)]
    for t in order:
        out[t.variant] += done[t]
    return out


def run_here(ctx: Context, order: list[Task], progress: Progress) -> dict[Task, Records]:
    done = {}
    for t in order:
        _, recs = play_chunk(ctx, t)
        done[t] = recs
        progress(len(recs))
    return done


_CTX: Context | None = None


def _init(ctx: Context) -> None:
    global _CTX
    _CTX = ctx


def _play(task: Task) -> tuple[Task, Records]:
    assert _CTX is not None
    return play_chunk(_CTX, task)


def run_local(ctx: Context, order: list[Task], workers: int, progress: Progress) -> dict[Task, Records]:
    """Worker processes on this machine (forked where the platform allows it)."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    mp = multiprocessing.get_context(method)
    done = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp, initializer=_init, initargs=(ctx,)) as pool:
        pending = {pool.submit(_play, t) for t in order}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                t, recs = f.result()
                done[t] = recs
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
    progress = progress or (lambda n: None)
    if cluster:
        return run_cluster(ctx, n_variants, games, cluster, progress)
    workers = workers or default_workers()
    if workers < 1:
        raise SimError("--workers must be at least 1")
    order = tasks(n_variants, games, workers)
    if workers == 1 or len(order) == 1:
        done = run_here(ctx, order, progress)
    else:
        done = run_local(ctx, order, min(workers, len(order)), progress)
    return _in_order(done, order, n_variants)

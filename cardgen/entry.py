"""The ``cardgen`` console script: the command line, with Ctrl-C handled from the first moment.

Importing the command line pulls in the PDF and image libraries, which takes a while; a
Ctrl-C during that start-up, or anywhere later, ends with "interrupted" and exit 130,
never a traceback. Outputs are replaced as a set (:mod:`cardgen.core.atomic`), so an
interrupted build leaves the previous ones intact.

When the command is done, the process ends without the interpreter's teardown: the exit
handlers run and the standard streams are flushed, then it exits at once instead of freeing
every module and object one by one (about 20 ms of CPU, a sixth of a small build). Every
output is already written, closed and renamed into place by then. Under a profiler or a tracer
(cProfile, coverage), or with another thread still running (a worker pool's), it exits as
usual: the profiler writes its results, the threads are joined.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading


def run() -> None:
    # the command line and its command load without the collector: their objects (modules,
    # classes, functions) live until the process ends, and the passes over them while they load
    # found nothing to free (~50 passes, ~8 ms CPU). The command line turns it on, the loaded
    # objects frozen out of its passes, once the command is loaded (cardgen.cli.main).
    gc.disable()
    try:
        from cardgen.cli import main
        main()
    except KeyboardInterrupt:
        _leave(say=True)
    except SystemExit as e:
        if e.code == 130:           # the command said "interrupted" itself
            _leave(say=False)
        _finish(e.code)
    _finish(0)


def _finish(code: object) -> None:
    """Exit with ``code`` as ``sys.exit`` would (None is 0; a message is printed, exit 1), after
    the exit handlers and a flush of the standard streams, but without tearing the interpreter
    down (as usual under a profiler or a tracer, which write their results at exit, or while
    another thread runs, which the usual exit joins)."""
    if sys.getprofile() is not None or sys.gettrace() is not None or threading.active_count() > 1:
        raise SystemExit(code)
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - what could not be written is lost, as at a normal exit
        status = status or 120      # Python's own status when flushing at exit fails
    os._exit(status)


def _leave(say: bool) -> None:
    """Exit 130 at once: the outputs are already whole (staging is cleaned as the interrupt
    unwinds), and leaving without the interpreter's finalization means a late signal cannot
    turn the exit into a death by SIGINT."""
    try:
        if say:
            sys.stderr.write("interrupted\n")
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - nothing more to say
        pass
    os._exit(130)


if __name__ == "__main__":  # pragma: no cover
    run()

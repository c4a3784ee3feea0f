"""The ``cardgen`` console script: the command line, with Ctrl-C handled from the first moment.

Importing the command line pulls in the PDF and image libraries, which takes a while; a
Ctrl-C during that start-up, or anywhere later, ends with "interrupted" and exit 130,
never a traceback. Outputs are replaced as a set (:mod:`cardgen.core.atomic`), so an
interrupted build leaves the previous ones intact.
"""

from __future__ import annotations

import os
import sys


def run() -> None:
    try:
        from cardgen.cli import main
        main()
    except KeyboardInterrupt:
        _leave(say=True)
    except SystemExit as e:
        if e.code == 130:           # the command said "interrupted" itself
            _leave(say=False)
        raise


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

"""The ``cardgen`` console script: the command line, with Ctrl-C handled from the first moment.

Importing the command line pulls in the PDF and image libraries, which takes a while; a
Ctrl-C during that start-up, or anywhere later, ends with "interrupted" and exit 130,
never a traceback. Outputs are replaced as a set (:mod:`cardgen.atomic`), so an
interrupted build leaves the previous ones intact.
"""

from __future__ import annotations

import sys


def run() -> None:
    try:
        from .cli import main
        main()
    except KeyboardInterrupt:
        try:
            sys.stderr.write("interrupted\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - nothing more to say
            pass
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    run()

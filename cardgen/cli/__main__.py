"""``python -m cardgen.cli``."""

from . import main

main()

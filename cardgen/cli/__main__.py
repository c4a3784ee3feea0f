"""``python -m cardgen.cli``."""

from cardgen.cli import main

main()

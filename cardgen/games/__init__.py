"""One package per game: its rules engine (state, rules by topic, log vocabulary) and its own
printables. Each defines ``PACKAGE`` (see :mod:`cardgen.play.package`)."""

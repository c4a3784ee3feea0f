"""Simulated playtests and balance statistics (``cardgen simulate``; see docs/simulate.md).

- :mod:`.spec` — what a run plays: agents, setups, rules variants, checked first;
- :mod:`.worker` — playing seeded games into small records (wherever the work is done);
- :mod:`.backends` — this process, local worker processes, or a Dask cluster;
- :mod:`.stats` — win rates with Wilson intervals, lengths, cards, the game's own measures;
- :mod:`.run` — a whole run: the report and the playtest logs;
- :mod:`.text` and :mod:`.html` — the report on a terminal and as a page with plots.

Nothing here names a game: a game takes part through its package's ``new_state``,
``setups``, ``agents`` and ``measures``.
"""

"""The play core: what every game's rules engine shares.

- :mod:`.api` — the game-state API (who acts, legal actions, chance outcomes, apply, clone,
  terminal, result, observation), in the manner of OpenSpiel's Python games;
- :mod:`.referee` — replaying a playtest log over a game's engine: violations, claims, trace;
- :mod:`.params` — typed, dotted access to a game's ``params.yaml``;
- :mod:`.lookup` — names (cards, players, pieces) with "did you mean";
- :mod:`.dice` — dice and draws as chance outcomes;
- :mod:`.hidden` — hands whose cards may be hidden from the log;
- :mod:`.playout` — seeded play of a state to its end, and the played game as a playtest log;
- :mod:`.package` — what a game package (``cardgen.games.<slug>``) exposes.

Nothing here names a game. See ``docs/engines.md``.
"""

"""Biomechanic Dino Battles: the game's own code, found by the framework through ``PACKAGE``.

- :mod:`.vocab` — the playtest log's vocabulary (header keys, event kinds, typed fields);
- :mod:`.pieces` — Dinosaurs in play, a player's side of the table, the Combat exchange;
- :mod:`.engine` and its rules (:mod:`.rules_cards`, :mod:`.rules_turn`, :mod:`.rules_main`,
  :mod:`.rules_combat`, :mod:`.rules_ko`) — the referee that ``cardgen check`` replays a log with;
- :mod:`.decks` — the decks a log header names, read for the engine;
- :mod:`.state` and :mod:`.choices` — the game-state API (who acts, legal actions, chance);
- :mod:`.agents` — agents for simulated playtests, and the game's measures.

See ``docs/engines-dino_battles.md``.
"""

from __future__ import annotations

from ...play.package import GamePackage
from .engine import Engine

PACKAGE = GamePackage(engine=Engine)

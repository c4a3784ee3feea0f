"""Loot & Battles (``loot_battles``): the game's own code — the referee of playtest logs
(``engine.py``), the playable game state (``play.py``), its agents and measures.

Found by the framework through :data:`PACKAGE` (``cardgen.gamehooks``); nothing registers
itself on import.
"""

from __future__ import annotations

from ...play.package import GamePackage
from .engine import Engine

PACKAGE = GamePackage(engine=Engine)

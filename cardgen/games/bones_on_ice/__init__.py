"""Bones on Ice: the game's own code — its playtest rules engine (log vocabulary, referee by
topic) and its game state (see ``docs/engines-bones_on_ice.md``)."""

from __future__ import annotations

from ...play.package import GamePackage
from .engine import Engine

PACKAGE = GamePackage(engine=Engine)

__all__ = ["PACKAGE", "Engine"]

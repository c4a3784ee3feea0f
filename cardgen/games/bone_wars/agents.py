"""Bone Wars — agents for simulated playtests and the game's own measures."""

from __future__ import annotations

import random
from typing import Any

from ...model import Game
from ...play.api import Action
from ...play.package import Agent
from ...play.playout import random_agent
from .state import BoneWarsState


def greedy(game: Game) -> Agent:
    return random_agent


def measures(state: BoneWarsState) -> dict[str, Any]:
    """HP left at the end (the winner's), turns, monsters created and destroyed."""
    return {"winner_hp": state.hp.get(state.winner) if state.winner else None, "turns": state.turn,
            "monsters": state.created, "destroyed": len(state.graveyard)}


__all__ = ["greedy", "measures", "random", "Action"]

"""Loot & Battles on the game-state API: random games end, replay through the checker with
the same result, and one mutated event is reported at its line; every event of the legal
example logs is among the state's legal actions at its point."""

from __future__ import annotations

import random
from typing import Any

from tests import playkit

GAME = "loot_battles"


def test_api_sound():
    playkit.assert_api_sound(GAME)


def test_random_games_replay(tmp_path):
    playkit.assert_random_games_replay(GAME, tmp_path)

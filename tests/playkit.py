"""The self-consistency proof every game's engine gives, for this repository's games: the
library a game's own tests import (:mod:`cardgen.testing`), run on this project.

``CARDGEN_PLAY_GAMES=N`` plays N games per property instead of the suite's few dozen.
"""

from __future__ import annotations

from cardgen import testing
from cardgen.play.playout import as_jsonl, play, random_agent
from cardgen.testing import (
    GAMES,
    MAX_STEPS,
    assert_api_sound,
    assert_mutation_caught,
    assert_random_games_replay,
    game,
    legal_action_keys,
    new_state,
    package,
    random_game,
    replay_text,
)
from tests.conftest import ROOT

testing.use(ROOT)

__all__ = ["testing", "GAMES", "as_jsonl", "play", "random_agent", "MAX_STEPS", "assert_api_sound", "assert_mutation_caught", "assert_random_games_replay", "game",
           "legal_action_keys", "new_state", "package", "random_game", "replay_text"]

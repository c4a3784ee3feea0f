"""Boss Fight: build computations for boss and party files, content checks, printables and
the playtest rules engine, as the hooks of ``cardgen.gamehooks``.

- :mod:`.builds`: the model of a build; reading and checking boss, party and deck files
  (``boss_footprints``, the maps' hook);
- :mod:`.figures`: the figures computed for a build (``check_file``);
- :mod:`.content`: content checks of the cards (``check_game``);
- :mod:`.sheets`: the Card List and presets PDFs (``printables``);
- :mod:`.events`: the playtest log's header and event kinds;
- :mod:`.state`: piles and fighters as the game goes;
- :mod:`.engine`: the playtest rules engine (``Engine``).
"""

from __future__ import annotations

from .builds import analyse, boss_footprints, read_boss, read_deck, read_party
from .content import check_game
from .engine import Engine, damage_formula
from .events import BF_EVENTS, BF_HEADER
from .figures import boss_stats, check_file, summary
from .sheets import printables

__all__ = ["BF_EVENTS", "BF_HEADER", "Engine", "analyse", "boss_footprints", "boss_stats", "check_file",
           "check_game", "damage_formula", "printables", "read_boss", "read_deck", "read_party", "summary"]

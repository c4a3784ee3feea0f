"""The one place the framework meets a game's own code: ``cardgen.engines.<slug>``.

A game module may define any of:
- ``check_file(game, kind, body, problems) -> dict | None``: extra checks and computed
  figures (shown by ``cardgen validate GAME FILE``) for a deck-like file;
- ``check_game(game, problems)``: extra content checks;
- ``printables() -> dict[name, builder]``: printables only this game has;
- ``Engine``: the playtest rules engine (``cardgen check``).
No module is needed: a game may be YAML only.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def module(slug: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"cardgen.engines.{slug}")
    except ModuleNotFoundError as e:
        if e.name in (f"cardgen.engines.{slug}", "cardgen.engines"):
            return None
        raise


def hook(slug: str, name: str):
    m = module(slug)
    return getattr(m, name, None) if m else None

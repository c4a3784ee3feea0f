"""Where a project keeps its games and a game its cards: the slugs under ``rules/``, the card
files and the spreadsheets of cards in a game's card folder."""

from __future__ import annotations

from pathlib import Path

from cardgen.core import sources
from cardgen.core.problems import Loc, Problems

SHEET_KINDS = (".csv", ".xlsx")


def list_games(root: Path) -> list[str]:
    """Every game slug: a folder under rules/ holding a game.yaml."""
    rules = root / "rules"
    if not rules.is_dir():
        return []
    return sorted(p.parent.name for p in rules.glob("*/game.yaml"))


GAME_FOLDERS = ("rules", "cards", "templates", "maps", "art")     # each holds a folder per game


def game_folders(root: Path, slug: str) -> list[Path]:
    """The folders a game's files live in (those that exist or are links)."""
    return [root / top / slug for top in GAME_FOLDERS if (root / top / slug).is_dir() or (root / top / slug).is_symlink()]


def card_files(game_cards_dir: Path) -> list[Path]:
    """The card-pool files of a game (decks, presets and builds live in sub-folders)."""
    return sorted(game_cards_dir.glob("*.yaml"))


def sheet_files(folder: Path) -> list[Path]:
    """The spreadsheets of cards in a game's card folder (CSV or XLSX; no editor's lock files)."""
    return sorted(p for p in folder.glob("*") if p.suffix.lower() in SHEET_KINDS and not p.name.startswith(("~", ".")))


def escaping(root: Path, slug: str, problems: Problems) -> bool:
    """A folder of the game (``rules/<slug>``, ``cards/``, its decks, its rulebook…) that is a symlink
    out of the project: one PATH-ESCAPE each, and the game is not loaded (no file of it is listed)."""
    found = [(root / top, real) for top in GAME_FOLDERS if (real := sources.leaves(root / top, root)) is not None]
    for folder in game_folders(root, slug) if not found else ():
        found += sources.escapes(folder, root)
    for link, real in found:
        problems.error("PATH-ESCAPE", f"{link} is a link to a folder outside the project ({real}); "
                       "cardgen reads only files inside the project", Loc(str(link), 1, 1))
    return bool(found)

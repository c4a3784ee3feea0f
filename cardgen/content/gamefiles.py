"""Where a project keeps its games and a game its cards: the slugs under ``rules/``, the card
files and the spreadsheets of cards in a game's card folder."""

from __future__ import annotations

from pathlib import Path

SHEET_KINDS = (".csv", ".xlsx")


def list_games(root: Path) -> list[str]:
    """Every game slug: a folder under rules/ holding a game.yaml."""
    rules = root / "rules"
    if not rules.is_dir():
        return []
    return sorted(p.parent.name for p in rules.glob("*/game.yaml"))


def card_files(game_cards_dir: Path) -> list[Path]:
    """The card-pool files of a game (decks, presets and builds live in sub-folders)."""
    return sorted(game_cards_dir.glob("*.yaml"))


def sheet_files(folder: Path) -> list[Path]:
    """The spreadsheets of cards in a game's card folder (CSV or XLSX; no editor's lock files)."""
    return sorted(p for p in folder.glob("*") if p.suffix.lower() in SHEET_KINDS and not p.name.startswith(("~", ".")))

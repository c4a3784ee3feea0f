"""The rulebook's Icons glossary, made from the game's icon data (game.yaml ``icons:``): each
icon that has ``words`` — its pictogram, drawn as the cards draw it, and what it stands for —
in game.yaml's order, as a last chapter of every edition. Nothing in it is written twice: the
words are the icon's own, the picture its ``draw:``."""

from __future__ import annotations

from cardgen.content.model import Game, Icon
from cardgen.rulebook.jinja import Rendered

TITLE = "Icons"
INTRO = "Each symbol printed on the cards and other components, and what it stands for."


def glossary_icons(game: Game) -> list[Icon]:
    """The icons the glossary lists: every icon with words, in game.yaml's order."""
    return [ic for ic in game.icons.values() if ic.words]


def _cell(words: str) -> str:
    return words.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("{", "\\{")


def chapter(game: Game) -> Rendered | None:
    """The glossary as one Markdown chapter (None when no icon has words); its lines point at
    the ``icons:`` block of game.yaml."""
    icons = glossary_icons(game)
    if not icons:
        return None
    rows = [f"| {{{ic.key}}} | {_cell(ic.words or '')} |" for ic in icons]
    text = "\n".join([f"# {TITLE}", "", INTRO, "", "| Icon | Meaning |", "|:-:|---|", *rows, ""])
    path = game.rules_dir / "game.yaml"
    return Rendered(path, text, [1] * (text.count("\n") + 1), text)

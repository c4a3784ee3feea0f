"""The designer's notes: ``rules/<game>/notes/*.md``, quoted at the end of the designer's edition.

What the tools tell a designer — ``cardgen tune --apply``'s balance changes (``notes/tune.md``),
a strong-play run's summary — and the designer's own notes live there as plain Markdown, one
file a topic. The designer's edition of the current rulebook ends with them, under "Designer's
notes", one section a file in name order; the players' books never show them.
"""

from __future__ import annotations

from pathlib import Path

from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.core.problems import Loc, Problems
from cardgen.rulebook.jinja import Rendered

FOLDER = "notes"
TITLE = "Designer’s notes"


def files(game: Game) -> list[Path]:
    folder = game.rules_dir / FOLDER
    if not folder.is_dir() or sources.leaves(folder, game.root) is not None:
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == ".md" and sources.is_file(p))


def chapter(game: Game, problems: Problems) -> Rendered | None:
    """The notes as one chapter (None when there are none); a note that is not UTF-8 is a problem."""
    parts: list[str] = []
    first: Path | None = None
    for path in files(game):
        try:
            text = sources.read_bytes(path, game.root).decode("utf-8").lstrip("\ufeff")
        except UnicodeDecodeError:
            problems.error("RULEBOOK-META", "a designer's note is not UTF-8", Loc(str(path), 1, 1),
                           hint="save the file as UTF-8")
            continue
        except sources.SourceError as e:
            problems.error(e.rule, e.message, Loc(str(path), 1, 1))
            continue
        first = first or path
        parts.append(text.strip() + "\n")
    if first is None:
        return None
    text = f"# {TITLE}\n\n" + "\n".join(parts)
    return Rendered(first, text, [1] * (text.count("\n") + 1), text)

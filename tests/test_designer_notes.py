"""The designer's notes (rules/<game>/notes/*.md — tune's balance changes among them) end the
designer's edition of the current rulebook, never a player's book; a note that is not UTF-8 is a
problem at its file."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook.printable import Rulebook
from tests.conftest import GameCopy

GAME = "bones_on_ice"
NOTE = ("## Balance changes (cardgen tune)\n\n- `femurs_sully.marksmanship (card)`: d12 → d10\n"
        "- balance: 0.247 [0.228, 0.266] → 0.018 [0.004, 0.037] (improved beyond the noise)\n")


def _no_notes(copy: GameCopy) -> Path:
    """The copy's notes folder, without the notes the game ships (its strong-play note): each
    test sets its own."""
    folder = copy.path(f"rules/{GAME}/notes")
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def _titles(tmp_path, designer: bool, note: bytes | None) -> tuple[list[str], Problems]:
    copy = GameCopy(tmp_path, GAME)
    folder = _no_notes(copy)
    if note is not None:
        folder.mkdir()
        copy.path(f"rules/{GAME}/notes/tune.md").write_bytes(note)
    problems = Problems()
    game = load_game(copy.root, GAME, problems)
    assert game is not None
    book = Rulebook(game, problems, designer=designer)
    assert book.current is not None
    return [h.text for h in book.headings(book.current)], problems


def test_the_designers_edition_quotes_the_notes(tmp_path):
    titles, problems = _titles(tmp_path, True, NOTE.encode())
    assert not problems.has_errors, [p.text() for p in problems.items]
    assert titles[-2:] == ["Designer’s notes", "Balance changes (cardgen tune)"]


def test_a_players_book_and_a_game_without_notes_quote_none(tmp_path):
    players, _ = _titles(tmp_path / "a", False, NOTE.encode())
    plain, _ = _titles(tmp_path / "b", True, None)
    assert "Designer’s notes" not in players and "Designer’s notes" not in plain
    assert players == plain


def test_a_note_that_is_not_utf8_is_a_problem_at_its_file(tmp_path):
    _titles_, problems = _titles(tmp_path, True, b"## Notes\n\xff\n")
    assert [(p.rule, p.loc.file.endswith("notes/tune.md") if p.loc else False) for p in problems.errors] == \
        [("RULEBOOK-META", True)]


def _book(tmp_path) -> Rulebook:
    """The designer's edition of a copy of the game whose notes hold NOTE."""
    copy = GameCopy(tmp_path, GAME)
    _no_notes(copy).mkdir()
    copy.path(f"rules/{GAME}/notes/tune.md").write_text(NOTE, encoding="utf-8")
    problems = Problems()
    game = load_game(copy.root, GAME, problems)
    assert game is not None
    book = Rulebook(game, problems, designer=True)
    assert book.current is not None
    return book


def test_the_notes_text_reaches_the_typeset_sections(tmp_path):
    book = _book(tmp_path)
    assert book.current is not None
    found = [s for s in book.sections(book.current) or [] if s.path[-1] == "Balance changes (cardgen tune)"]
    assert found and "d12 → d10" in " ".join(p.text for p in found[0].passages)


def test_the_notes_are_no_change_of_the_rules(tmp_path):
    book = _book(tmp_path)
    assert book.current is not None
    old = book.previous(book.current)
    assert old is not None
    changes = book.changes(old, book.current) or []
    assert changes and not [c for c in changes if "Designer’s notes" in c.section.path]

"""Biomechanic Dino Battles: the decks a log header names, read for the table.

The engine does no I/O: the header's ``deck`` (a file beside the log or in the project, or a
deck's name in ``cards/dino_battles/decks/``) is resolved and read here, checked with the
deck rules (BDB-DECK-*), and handed over as a :class:`Deck`. A deck file that cannot be read
as a deck at all stops the check (exit 2, ``LOG-FIELD``): the game cannot be replayed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import field
from pathlib import Path

from cardgen.content import collection_files as cols
from cardgen.content import constraints
from cardgen.content.model import Game
from cardgen.content.playlog import LogError
from cardgen.core.problems import Loc, Problem, Problems
from cardgen.core.record import record
from cardgen.play.lookup import hint_for
from cardgen.play.params import per_game

#: problems of a deck file that leave cards unread (the replay would start from a wrong deck)
_LOSES_CARDS = ("CARD-UNKNOWN-ID", "YAML-TYPE", "YAML-SYNTAX")


@record
class Deck:
    """A Main Deck as the header names it: its name, its cards and its construction problems."""

    name: str
    cards: Counter = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)


def find(game: Game, value: str, loc: Loc | None) -> Path:
    """The deck file the header names (a path, a file name or a deck's name)."""
    v = value.strip()
    log_dir = Path(loc.file).parent if loc and loc.file else Path.cwd()
    if "/" in v or "\\" in v or v.endswith((".yaml", ".yml")):
        for base in (log_dir, game.root, Path.cwd()):
            cand = (base / v) if not Path(v).is_absolute() else Path(v)
            if cand.is_file():
                return cand
        raise LogError("LOG-FIELD", f"deck file {value!r} not found (looked beside the log and in the project)", loc,
                       _near_file(v, [log_dir, game.root, Path.cwd()]))
    files = cols.collection_files(game)
    low = v.lower().replace(" ", "_")
    for f in files:
        if f.stem.lower() == low:
            return f
    named: dict[str, Path] = {}
    for f in files:
        _kind, body, _ = cols.load_collection_file(f, game, Problems())
        if isinstance(body, dict) and body.get("name"):
            named[str(body["name"]).strip()] = f
    for name, f in named.items():
        if name.lower() == v.lower():
            return f
    raise LogError("LOG-FIELD", f"no deck called {value!r} in {game.cards_dir.name}/decks", loc,
                   hint_for(low, [f.stem for f in files]) or hint_for(v, named) or
                   f"decks: {', '.join(f.stem for f in files)}; or give a file path")


def _near_file(value: str, bases: list[Path]) -> str | None:
    """The nearest deck file to a misspelt path: same folder, nearest name."""
    rel = Path(value)
    for base in bases:
        folder = rel.parent if rel.is_absolute() else base / rel.parent
        if folder.is_dir():
            names = [f.name for f in sorted(folder.iterdir()) if f.suffix in (".yaml", ".yml")]
            hint = hint_for(rel.name, names)
            if hint:
                near = [n for n in names if f"'{n}'" in hint]
                return "did you mean " + " or ".join(f"'{(rel.parent / n).as_posix()}'" for n in near) + "?"
    return None


def read(game: Game, value: str, loc: Loc | None) -> Deck:
    """The deck the header names, with its construction problems (errors only).

    A file that cannot be read as a deck — bad YAML, not a ``deck:``, no cards, a card that
    does not exist (a misspelt id) — is a LOG-FIELD error at the header's line (exit 2), with
    the file's own first problem and its nearest match: nothing could be replayed with it.
    A readable deck that breaks a construction rule (BDB-DECK-*) is a violation (exit 1)."""
    path = find(game, value, loc)
    read_probs = Problems()
    kind, body, collections = cols.load_collection_file(path, game, read_probs)
    empty = not any(e.count for col in collections for e in col.entries)
    lost = [p for p in read_probs.errors if p.rule in _LOSES_CARDS]
    if not kind or not isinstance(body, dict) or lost or empty:
        first = lost[0] if lost else read_probs.errors[0] if read_probs.errors else None
        why = f"{first.message} ({first.loc})" if first is not None and first.loc else \
            first.message if first is not None else "it holds no cards"
        raise LogError("LOG-FIELD", f"the deck file {value!r} cannot be read as a deck: {why}", loc,
                       (first.hint if first is not None and first.hint else None)
                       or f"run `cardgen validate {game.slug} {path}`")
    probs = Problems()      # the deck rules (BDB-DECK-*) over the collections just read
    constraints.evaluate(game.constraints, {c.kind: c for c in collections}, game.params, probs)
    deck = Deck(str(body.get("name") or path.stem))
    for col in collections:
        for e in col.entries:
            deck.cards[e.id] += e.count
    deck.problems = [p for p in probs if p.severity == "error"]
    return deck


#: the decks read so far, by name, per loaded game
_DECKS: Callable[[Game], dict[str, Deck]] = per_game(lambda game: {})


def cached(game: Game, name: str) -> Deck:
    """A deck by name, read once per loaded game (the loader's data, not the table's I/O)."""
    held = _DECKS(game)
    if name not in held:
        held[name] = read(game, name, None)
    return held[name]

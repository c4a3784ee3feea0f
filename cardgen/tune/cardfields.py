"""Card fields ``cardgen tune`` may move: ``cards:`` in ``tune.yaml`` (a team's dice, a unit's cost).

A card field is named ``<card id>.<field>``; inside a knob it is ``card:<card id>.<field>`` so
it never meets a param's dotted path. A number field moves like a param; a field whose card
type declares its values (``enum``, e.g. ``reflexes: {enum: {param: stat_dice}}``) moves along
those values in their declared order — its ladder — one step at a time.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.play.lookup import hint_for

PREFIX = "card:"
_SCALAR = re.compile(r"""("[^"]*"|'[^']*'|[^,}\]\s#][^,}\]#]*?)(?=\s*(?:[,}\]#]|$))""")


def is_card(key: str) -> bool:
    return key.startswith(PREFIX)


def split(key: str) -> tuple[str, str]:
    """``card:<id>.<field>`` (or ``<id>.<field>``) → (id, field)."""
    ident, _, name = key.removeprefix(PREFIX).rpartition(".")
    return ident, name


def field(game: Game, path: str) -> tuple[Any, tuple[Any, ...]] | str:
    """A card field's value now and its ladder (empty for a number); a message when there is
    no such field or it is neither a number nor one of declared values."""
    ident, name = split(path)
    card = game.cards_by_id.get(ident)
    if card is None:
        hint = hint_for(ident, list(game.cards_by_id))
        return f"no card '{ident}' in {game.slug}" + (f" ({hint})" if hint else "")
    if name not in card.fields:
        return f"card '{ident}' has no field '{name}'"
    value = card.fields[name]
    spec = game.card_types[card.type].fields.get(name) if card.type in game.card_types else None
    choices = tuple(getattr(spec, "choices", None) or ())
    if choices and value in choices:
        return value, choices
    if isinstance(value, int) and not isinstance(value, bool):
        return value, ()
    return f"'{path}' is {value!r}: neither a number nor one of the values its card type declares"


def with_fields(game: Game, values: Mapping[str, Any]) -> Game:
    """A copy of ``game`` whose cards hold ``values`` (``card:<id>.<field>`` → value; files untouched)."""
    if not values:
        return game
    g = copy.deepcopy(game)
    by_id = g.cards_by_id
    for key, v in values.items():
        ident, name = split(key)
        by_id[ident].fields[name] = v
    return g


def edited(game: Game, values: Mapping[str, Any]) -> dict[Path, str]:
    """Each card file's text with the fields' values replaced in place (comments and layout kept);
    a field the card leaves out (its card type's default) is written on the card."""
    lines_of: dict[Path, list[str]] = {}
    for key, v in values.items():
        ident, name = split(key)
        card = game.cards_by_id[ident]
        loc = card.field_locs.get(name) if name in card.own else None
        where = loc if loc is not None and loc.line else card.loc
        if where is None or not where.line:
            raise ValueError(f"no position known for {ident}.{name}")
        path = Path(where.file)
        path = path if path.is_absolute() else game.root / path
        if path not in lines_of:
            lines_of[path] = sources.read_bytes(path, game.root).decode("utf-8").splitlines(keepends=True)
        lines = lines_of[path]
        if where is card.loc:
            _insert(lines, card, name, v, path)
            continue
        i, col = where.line - 1, where.col - 1
        m = _SCALAR.match(lines[i], col)
        if m is None:
            raise ValueError(f"{path}:{where.line}: no value where {ident}.{name} is")
        lines[i] = lines[i][:m.start()] + str(v) + lines[i][m.end():]
    return {p: "".join(lines) for p, lines in lines_of.items()}


def _insert(lines: list[str], card: Any, name: str, v: Any, path: Path) -> None:
    """Write ``name: v`` on ``card``: in a flow mapping (``- {id: …, cost: 3, …}``) after the last
    value on the card's first line; in a block mapping, a line of its own below the first."""
    i = card.loc.line - 1
    line = lines[i]
    if line[card.loc.col - 1:card.loc.col] == "{":
        on_line = [card.field_locs[f] for f in card.own if f in card.field_locs
                   and card.field_locs[f].file == card.loc.file and card.field_locs[f].line == card.loc.line]
        last = max(on_line, key=lambda loc: loc.col, default=None)
        m = _SCALAR.match(line, last.col - 1) if last is not None else None
        if m is None:
            raise ValueError(f"{path}:{card.loc.line}: cannot write {card.id}.{name} on the card")
        lines[i] = line[:m.end()] + f", {name}: {v}" + line[m.end():]
        return
    key = re.match(r"(\s*-\s+|\s*)\S", line)
    indent = len(key.group(1)) if key else card.loc.col - 1
    lines.insert(i + 1, " " * indent + f"{name}: {v}\n")

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
    """Each card file's text with the fields' values replaced in place (comments and layout kept)."""
    lines_of: dict[Path, list[str]] = {}
    for key, v in values.items():
        ident, name = split(key)
        card = game.cards_by_id[ident]
        loc = card.field_locs.get(name) if name in card.own else None
        if loc is None or not loc.line:
            raise ValueError(f"{ident}.{name} comes from its file's defaults: write it on the card to tune it")
        path = Path(loc.file)
        path = path if path.is_absolute() else game.root / path
        if path not in lines_of:
            lines_of[path] = sources.read_bytes(path, game.root).decode("utf-8").splitlines(keepends=True)
        lines = lines_of[path]
        i, col = loc.line - 1, loc.col - 1
        m = _SCALAR.match(lines[i], col)
        if m is None:
            raise ValueError(f"{path}:{loc.line}: no value where {ident}.{name} is")
        lines[i] = lines[i][:m.start()] + str(v) + lines[i][m.end():]
    return {p: "".join(lines) for p, lines in lines_of.items()}

"""Boss Fight: the ``check_game`` hook, content rules the field declarations of game.yaml cannot say."""

from __future__ import annotations

import re
from typing import Any

from cardgen.content.model import Game
from cardgen.core.hexgrid import Hex
from cardgen.core.problems import Problems
from cardgen.games.boss_fight.builds import _cells_text, need_phrases

_MOVE_TEXT = re.compile(r"\bmove (?:up to )?(\d+) tiles?\b", re.IGNORECASE)


def check_game(game: Game, problems: Problems) -> None:
    """Content rules the field declarations of game.yaml cannot say (BF-CARD-1, -3, -4)."""
    for c in game.cards:
        if c.type == "boss_piece":
            seen = [tuple(x) for x in c.get("footprint") or []]     # [q, r] pairs: game.yaml
            if len(set(seen)) != len(seen):
                problems.error("BF-CARD-1", f"'{c.id}' ({c.name}): its footprint lists a hex twice", c.at("footprint"))
            _attack_is_printed(game, c, problems)
            if seen and (0, 0) not in seen:
                problems.error("BF-CARD-1", f"'{c.id}' ({c.name}): a footprint holds its anchor [0, 0] (it has "
                               f"{_cells_text([Hex(*x) for x in seen])})", c.at("footprint"))
        elif c.type == "equipment":
            if not any(c.get(k) is not None for k in ("basic", "heavy", "special")) and not c.get("text"):
                problems.error("BF-CARD-3", f"'{c.id}' ({c.name}) has neither an attack nor an effect", c.loc)
        elif c.type == "ability" and c.get("needs"):
            _needs_are_printed(game, c, problems)
        elif c.type == "action":
            if c.get("kind") == "move":
                m = _MOVE_TEXT.search(c.get("text") or "")
                if m and c.get("move") is not None and int(m.group(1)) != c.get("move"):
                    problems.error("BF-CARD-4", f"'{c.id}' ({c.name}) says \"{m.group(0)}\" but its move is "
                                   f"{c.get('move')}", c.at("text"))
            elif c.get("move") is not None:
                problems.error("BF-CARD-4", f"'{c.id}' ({c.name}) is not a Move card but sets 'move'", c.at("move"))
            if c.get("attack") is not None and c.get("kind") != "attack":
                problems.error("BF-CARD-4", f"'{c.id}' ({c.name}) is not an Attack card but sets 'attack'",
                               c.at("attack"))


def _needs_are_printed(game: Game, c: Any, problems: Problems) -> None:
    """BF-CARD-4: every build requirement in ``needs`` is what the card's ``requires`` says."""
    printed = (c.get("requires") or "").lower()
    for key, phrase in need_phrases(game, c.get("needs")):
        if phrase.lower() not in printed:
            problems.error("BF-CARD-4", f"'{c.id}' ({c.name}) needs {key} but its requires does not say "
                           f"\"{phrase}\"", c.at("requires") if c.get("requires") else c.at("needs"))


def _attack_is_printed(game: Game, c: Any, problems: Problems) -> None:
    """BF-CARD-1: a Boss Piece's ``attack`` field (what the rules engine reads) is what its text prints."""
    line = c.get("attack")
    if not isinstance(line, dict):
        return
    names = game.params.get("attacks") or {}
    kind = str(names.get(line.get("kind"), line.get("kind")))
    printed = f"{kind} Attack: {line.get('damage')} damage"
    if printed.lower() not in str(c.get("text") or "").lower():
        problems.error("BF-CARD-1", f"'{c.id}' ({c.name}): its attack field is a {printed.lower()}, but its text does "
                       f"not print \"{printed}\"", c.at("attack"))

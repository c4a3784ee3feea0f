"""The build, top to bottom: load → validate → lay out → write.

Validation lays every card out too (text that does not fit is a content error), so a
``validate`` that passes means ``build`` will succeed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import collections as cols
from . import constraints, gamehooks
from .cardlayout import CardLayout
from .catalogue import load_catalogue
from .imposition import Placement
from .loader import load_game
from .model import Game
from .problems import Problems


@dataclass
class Laid:
    """A game validated and laid out: what the printables draw from."""

    game: Game
    layout: CardLayout
    groups: dict[str, list[Placement]] = field(default_factory=dict)   # card size → copies in order


def check_game(game: Game, problems: Problems, errors_before: int | None = None) -> None:
    """Every content rule of the game: constraints over pool, components and kept decks.

    ``errors_before``: how many errors ``problems`` held before this game was loaded (other
    games' errors); by default, before this call.
    """
    if errors_before is None:
        errors_before = len(problems.errors)
    collections = {"cards": cols.pool(game), "components": cols.components(game)}
    constraints.evaluate(game.constraints, collections, game.params, problems)
    for path in cols.collection_files(game):
        check_file(game, path, problems)
    extra = gamehooks.hook(game.slug, "check_game")
    if extra:
        extra(game, problems)
    if set(game.printables) & {"maps", "board", "mats", "tokens"}:
        from . import boards
        boards.check_game(game, problems)
    if "rulebook" in game.printables and len(problems.errors) == errors_before:
        # The rulebook prints the content: while the content has errors, checking it would only
        # repeat them (a card that failed to load is also an unknown card of the rulebook).
        from . import boards, rulebook  # noqa: F401 - boards registers the rulebook's board: images
        rulebook.check(game, problems)


def check_file(game: Game, path: Path, problems: Problems) -> dict[str, Any] | None:
    """A deck-like file against the game's construction rules; returns computed figures."""
    kind, body, collections = cols.load_collection_file(path, game, problems)
    if not kind or body is None:
        return None
    constraints.evaluate(game.constraints, {c.kind: c for c in collections}, game.params, problems)
    hook = gamehooks.hook(game.slug, "check_file")
    report = hook(game, kind, body, problems) if hook else None
    summary = {"file": str(path), "kind": kind, "cards": sum(e.count for c in collections for e in c.entries)}
    if report:
        summary.update(report)
    return summary


def lay_out(game: Game, problems: Problems) -> Laid:
    """Both sides of every copy of every card, grouped by card size."""
    layout = CardLayout(game, problems)
    laid = Laid(game, layout)
    order = list(game.card_types)
    cards = sorted(game.cards, key=lambda c: order.index(c.type))
    backs: dict[str, list] = {}
    for card in cards:
        if card.dangling:              # names a card that is not there: reported as CARD-REF
            continue
        front = layout.draw(card, "front")
        ct = game.card_types[card.type]
        tpl = layout.template_for(card, "back")
        if tpl is not None and tpl.static_prefix() == len(tpl.elements):
            back = backs.get(card.type)
            if back is None:
                back = backs[card.type] = layout.draw(card, "back")
        else:
            back = layout.draw(card, "back")
        for k in range(card.copies):
            laid.groups.setdefault(ct.size, []).append(
                Placement(card.id, card.name, k + 1, front, back, game.print.bleed))
    return laid


def validate(root: Path, slug: str, problems: Problems) -> Laid | None:
    before = len(problems.errors)
    game = load_game(root, slug, problems)
    load_catalogue(root, slug, problems)         # the game's rule catalogue, when it has one
    if game is None:
        return None
    check_game(game, problems, before)
    return lay_out(game, problems)

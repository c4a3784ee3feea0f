"""A template must fit every legal value of what it prints (issue 33): each game's cards laid out
with each field at each of its widest legal values — as the declaration in game.yaml bounds it
(every member of an enum, a number's declared bounds, both flags; ``Kind.widest``) — and no
TEXT-OVERFLOW. A Boss Fight Item declaring ``max_copies`` (any value up to the deck size) is the
case that broke the build."""

from __future__ import annotations

import pytest

from cardgen.content.gamespec import COMMON_FIELDS
from cardgen.content.loader import load_game
from cardgen.core.options import Opt
from cardgen.core.problems import Problems
from cardgen.layout.card import CardLayout
from tests.conftest import ROOT

GAMES = ["bone_wars", "bones_on_ice", "boss_fight", "dino_battles", "loot_battles"]


def overflows(root, slug: str) -> tuple[int, list[str]]:
    """(layouts made, each TEXT-OVERFLOW as 'card field=value: message')."""
    p = Problems()
    game = load_game(root, slug, p)
    assert game is not None and not p.has_errors, [x.text() for x in p]
    found, lay, n = [], CardLayout(game, Problems()), 0
    for card in game.cards:
        spec = {**COMMON_FIELDS, **game.card_types[card.type].fields}
        for key, opt in spec.items():
            for value in opt.kind.widest(opt):
                had, old = key in card.fields, card.fields.get(key)
                card.fields[key] = value
                lay.problems = Problems()       # each variant's own (the same problem is kept once)
                lay.draw(card, "front")
                lay.draw(card, "back")
                n += 1
                found += [f"{card.id} {key}={value!r}: {x.message}" for x in lay.problems
                          if x.rule == "TEXT-OVERFLOW"]
                if had:
                    card.fields[key] = old
                else:
                    del card.fields[key]
    return n, found


@pytest.mark.parametrize("slug", GAMES)
def test_every_template_fits_the_widest_legal_values(slug):
    n, found = overflows(ROOT, slug)
    assert n > 0 and not found, found


def test_a_note_too_small_for_a_legal_value_is_found(game_copy):
    """The breaking twin: the Action template's deck-limit note back in its one-line box."""
    g = game_copy("boss_fight")
    g.edit("templates/boss_fight/action.yaml", "    h: 6mm ", "    h: 4.5mm ")
    _, found = overflows(g.root, "boss_fight")
    assert found and all("element 'note'" in f for f in found), found
    assert {"max_copies=1", "max_copies=30"} <= {f.split(" ")[1].split(":")[0] for f in found}, found


@pytest.mark.parametrize("opt,want", [
    (Opt("int", min=1, max=30), [1, 30]), (Opt("int", min=0), [0]), (Opt("int"), []),
    (Opt("number", min=-1.5, max=2), [-1.5, 2]), (Opt("enum", choices=("a", "bbb")), ["a", "bbb"]),
    (Opt("bool"), [False, True]), (Opt("str"), []),
])
def test_widest_values_come_from_the_declaration(opt, want):
    assert opt.kind.widest(opt) == want

"""Older rulebooks picture their own cards (issue 32): an older version's card data
(``rules/<game>/versions/<v>/cards.yaml``, ``params.yaml``) is what its pictures show, read back
from the printed rulebook — never today's cards next to the old rules."""

from __future__ import annotations

import pytest

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook.printable import Rulebook
from cardgen.rulebook.versioned import own_data
from tests.conftest import ROOT


def _flat(s: str) -> str:
    return " ".join(s.split())


# (game, old version, card, words the old edition's card prints, words only today's card prints)
PICTURED = [
    ("dino_battles", "0.1", "defend", "DEF higher: you lose the difference in HP", "Equal: nothing"),
    ("bones_on_ice", "7.8", "action_shoot", "the shot gets past them", None),
]


@pytest.mark.parametrize("slug, version, card, old_words, new_words", PICTURED)
def test_the_card_an_old_edition_pictures_carries_that_editions_text(full_build, slug, version, card,
                                                                     old_words, new_words):
    out = full_build.game(slug)
    old = [_flat(t) for t in full_build.pages(out / f"rulebook-v{version}.pdf")]
    today = [_flat(t) for t in full_build.pages(out / "rulebook.pdf")]
    assert any(old_words in t for t in old), f"v{version} does not picture its own {card} card"
    assert not any(old_words in t for t in today), f"today's rulebook pictures v{version}'s {card} card"
    if new_words:
        assert not any(new_words in t for t in old), f"v{version} pictures today's {card} card ({new_words!r})"
        assert any(new_words in t for t in today)
    assert f"The cards pictured are those of version {version}." in old[0]


@pytest.mark.parametrize("slug, version, card, old_words, new_words", PICTURED)
def test_the_old_card_data_is_that_editions(slug, version, card, old_words, new_words):
    book = Rulebook(load_game(ROOT, slug, Problems()), Problems())
    v = next(v for v in book.versions if v.version == version)
    assert own_data(v)
    assert old_words in _flat(book.game_of(v).cards_by_id[card].get("text"))
    assert old_words not in _flat(book.game.cards_by_id[card].get("text"))

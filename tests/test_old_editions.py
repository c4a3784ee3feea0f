"""Older rulebooks picture their own cards (issue 32): an older version's card data
(``rules/<game>/versions/<v>/cards.yaml``, ``params.yaml``) is what its pictures show, read back
from the printed rulebook — never today's cards next to the old rules."""

from __future__ import annotations

import pytest

from cardgen.content.loader import load_game
from cardgen.content.model import Game
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
    ("boss_fight", "0.9", "death_token", "let the hero be resurrected by interacting with it",
     "It is not an obstacle."),
    ("loot_battles", "0.9", "sword_unique", "Double damage is counted before", "Doubling comes before"),
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


def _edition(slug: str, version: str) -> tuple[Game, Game]:
    """Today's game and the game as the old edition ``version`` pictures it."""
    book = Rulebook(load_game(ROOT, slug, Problems()), Problems())
    v = next(v for v in book.versions if v.version == version)
    assert own_data(v), f"{slug} v{version} keeps no card data of its own"
    return book.game, book.game_of(v)


def test_loot_battles_v09_loot_cards_name_no_hands(full_build):
    """The v0.9 draft ruled no hands (its Item Usability table was empty; LB-EQUIP-1 ruled them in
    1.0): its pictured Loot cards print no "One hand" line, today's do."""
    today, old = _edition("loot_battles", "0.9")
    assert "hands_used" in today.params and "hands_used" not in old.params
    out = full_build.game("loot_battles")
    words = ("One hand", "Two hands", "Worn, no hands")
    old_pages = full_build.pages(out / "rulebook-v0.9.pdf")
    assert not any(w in t for t in old_pages for w in words)
    assert any("One hand" in t for t in full_build.pages(out / "rulebook.pdf"))
    assert "The cards pictured are those of version 0.9." in _flat(old_pages[0])


# The Bone Wars design document (seeds/000) lists no Part cards: only the seven Traits they carry.
SEED_TRAITS = {"flying": "Can only be attacked or blocked by Flying or Reach monsters.",
               "marine": "Can only be attacked or blocked by Marine or Reach monsters."}


def test_bone_wars_v09_traits_are_the_design_documents(full_build):
    """v0.9's Flying and Marine restrict the monster attacked or blocked (the design document);
    blocking both ways is BW-ATK-4's ruling, printed only on today's cards. The other five Traits
    read the same in both editions, and the v0.9 book pictures only Part cards of those five: the
    pictures of v0.9 and today's show the same card texts, and the title page says whose they are."""
    today, old = _edition("bone_wars", "0.9")
    tt, ot = today.params["traits"], old.params["traits"]
    for k, text in SEED_TRAITS.items():
        assert ot[k]["text"] == text and tt[k]["text"] != text
    assert {k for k in tt if tt[k] != ot[k]} == set(SEED_TRAITS)
    out = full_build.game("bone_wars")
    old_pages = [_flat(t) for t in full_build.pages(out / "rulebook-v0.9.pdf")]
    pictured = [t for t in old_pages if "STR" in t and "HP" in t]     # pages with a Part card
    assert pictured
    for k in SEED_TRAITS:
        assert not any(tt[k]["name"] + ":" in t for t in pictured), f"v0.9 pictures a {k} part"
    assert "The cards pictured are those of version 0.9." in old_pages[0]

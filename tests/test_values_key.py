"""A card side's key takes the card's values by their digest (content.cardmemo.values_digest): a
card the memo kept brings it from its load and it is used only while the card's values are those
it was taken of; a card changed since (a field set, a value of another type, a name, copies, a
field added or taken away) has it computed again, as any other card: the key follows every value
the side is drawn from."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from PIL import Image as PILImage

from cardgen.content import cardmemo
from cardgen.content.cardmemo import KNOWN, CardMemo, values_digest, values_key
from cardgen.content.loader import load_game
from cardgen.content.model import Card
from cardgen.core.problems import Problems
from cardgen.layout.cache import Store

GAME = Path(__file__).resolve().parent.parent / "bench" / "game"


def cards_of(tmp_path: Path, rows: list[str], memo: CardMemo | None) -> list[Card]:
    root = tmp_path / "proj"
    if not root.exists():
        shutil.copytree(GAME, root)
        PILImage.new("RGB", (8, 8), "#336699").save(root / "templates" / "bench" / "icon.png")
        (root / "cards" / "bench").mkdir(parents=True)
    (root / "cards" / "bench" / "cards.yaml").write_text("defaults: {type: card}\ncards:\n" + "".join(rows))
    problems = Problems()
    game = load_game(root, "bench", problems, memo)
    assert game is not None and not problems.errors, problems.items
    return game.cards


ROWS = [f'  - {{id: "{k}", name: Card {k}, atk: {k}, def: 2, cost: 1, rules: Rule {k}., color: "#8b1e3f"}}\n'
        for k in range(1, 6)]


def computed(card: Card) -> str:
    """The digest made from the card's values now (as for a card no memo kept)."""
    fresh = dataclasses.replace(card)
    assert KNOWN not in fresh.__dict__
    return values_digest(fresh)


@pytest.fixture
def kept(tmp_path) -> list[Card]:
    memo = CardMemo(Store(tmp_path / "cache"), "ctx")
    parsed = cards_of(tmp_path, ROWS, memo)           # parsed, and kept
    again = cards_of(tmp_path, ROWS, memo)            # made again from the memo
    assert all(KNOWN in c.__dict__ for c in parsed + again)
    assert [values_digest(c) for c in again] == [values_digest(c) for c in parsed] == [computed(c) for c in parsed]
    return again


CHANGES = {
    "a field's text": lambda c: c.fields.__setitem__("rules", "Other rule."),
    "a number": lambda c: c.fields.__setitem__("atk", 9),
    "a number made a flag": lambda c: c.fields.__setitem__("atk", True),     # True == 1: equal, not the same
    "a field added": lambda c: c.fields.__setitem__("flavour", "new"),
    "a field taken away": lambda c: c.fields.pop("cost"),
    "the fields' order": lambda c: setattr(c, "fields", dict(reversed(list(c.fields.items())))),
    "the name": lambda c: setattr(c, "name", "Renamed"),
    "the id": lambda c: setattr(c, "id", "other"),
    "the type": lambda c: setattr(c, "type", "token"),
    "the copies": lambda c: setattr(c, "copies", 3),
    "the copies made a flag": lambda c: setattr(c, "copies", True),
    "the fields replaced": lambda c: setattr(c, "fields", {**c.fields, "cost": 7}),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_kept_card_changed_after_its_load_has_its_digest_made_again(kept, change):
    card = kept[0]      # card 1: atk 1
    before = values_digest(card)
    key = values_key("static\0front", card)
    CHANGES[change](card)
    assert values_digest(card) == computed(card)
    if change != "the fields' order":               # the same values: the same digest (sorted keys)
        assert values_digest(card) != before
        assert values_key("static\0front", card) != key
    else:
        assert values_digest(card) == before


def test_equal_fields_in_a_new_dict_keep_the_digest(kept):
    card = kept[1]
    before = values_digest(card)
    card.fields = dict(card.fields)
    assert values_digest(card) == before == computed(card)


def test_a_card_with_a_decimal_value_is_never_known(tmp_path):
    """0.0 == -0.0, written apart: a decimal value's card always has its digest computed."""
    card = Card("x", "X", "card", 1, {"id": "x", "name": "X", "w": 0.0}, None)     # type: ignore[arg-type]
    cardmemo._known(card, "0" * 64)
    assert KNOWN not in card.__dict__
    card.fields["w"] = -0.0
    assert values_digest(card) == computed(card) != values_digest(dataclasses.replace(card, fields={**card.fields, "w": 0.0}))

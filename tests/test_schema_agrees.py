"""`cardgen schema` and the validator agree (issue 33): the card schema's "required", types, enums
and bounds come from the declarations the validator checks with (COMMON_FIELDS, each card type's
fields, the game's ``required`` constraints), with a file's ``defaults:`` supplying keys as the
loader merges them. Random single mutations of every card file of every game — drop a key, change
a value's type, a number out of its bounds, a choice no enum has — are rejected by the schema
(jsonschema) iff the validator reports an error for the card.

The validator's verdict here is its per-card checks (the loader's and the ``required``
constraints'); the cross-card rules (counts, totals, a seed's tables) are beyond a file's shape.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from cardgen.content import constraints
from cardgen.content.cardfile import load_card_file
from cardgen.content.collection_files import pool
from cardgen.content.gamefiles import card_files, list_games
from cardgen.content.gamespec import COMMON_FIELDS
from cardgen.content.loader import load_game
from cardgen.core.options import Opt
from cardgen.core.problems import Problems
from cardgen.reference import editorschema
from tests.conftest import ROOT

GAMES = list_games(ROOT)
PER_FILE = 10           # mutations of each card file


def _game(slug):
    p = Problems()
    g = load_game(ROOT, slug, p)
    assert g is not None and not p.has_errors
    return g


def validator_errors(game, path: Path) -> list[str]:
    """The validator's per-card checks of one card file."""
    p = Problems()
    cards: list = []
    load_card_file(path, game.card_types, game.colors, cards, [], p)
    shaped = [c for c in game.constraints if isinstance(c, dict) and c.get("kind") == "required"]
    sub = copy.copy(game)
    sub.cards = cards
    constraints.evaluate(shaped, {"cards": pool(sub)}, game.params, p)
    return [x.text() for x in p if x.severity == "error"]


def _spec(game, doc: dict, card: dict) -> dict[str, Opt]:
    t = card.get("type", (doc.get("defaults") or {}).get("type"))
    ct = game.card_types.get(t)
    return {**COMMON_FIELDS, **(ct.fields if ct else {})}


def _wrong_type(value, opt: Opt):
    if opt.type in ("int", "number", "length"):
        return "many"
    if opt.type == "bool":
        return "maybe"
    if opt.type in ("list", "map"):
        return 7 if opt.type == "map" else {"x": 1}
    return ["not", "text"]


def mutate(rng: random.Random, game, doc: dict) -> tuple[str, dict] | None:
    """One random single mutation of one card of ``doc`` (a copy), described."""
    doc = copy.deepcopy(doc)
    cards = doc.get("cards") or []
    if not cards:
        return None
    i = rng.randrange(len(cards))
    card = cards[i]
    spec = _spec(game, doc, card)
    how = rng.choice(["drop", "type", "range", "enum"])
    keys = sorted(card)
    if how == "range":
        keys = [k for k in keys if k in spec and spec[k].type in ("int", "number")
                and (spec[k].min is not None or spec[k].max is not None)]
    if how == "enum":
        keys = [k for k in keys if k in spec and spec[k].type == "enum"]
    if how == "type":
        keys = [k for k in keys if k in spec]
    if not keys:
        how, keys = "drop", sorted(card)
    k = rng.choice(keys)
    o = spec.get(k)
    if how == "drop":
        del card[k]
    elif how == "type" and o is not None:
        card[k] = _wrong_type(card[k], o)
    elif how == "range" and o is not None:
        card[k] = (o.min - 1) if o.min is not None and (o.max is None or rng.random() < 0.5) else (o.max + 1)
        if o.type == "int":
            card[k] = int(card[k])
    elif o is not None:
        card[k] = "zz_no_such_choice"
    return f"card {i} ({card.get('id')}): {how} {k}", doc


def _files():
    for slug in GAMES:
        for f in card_files(ROOT / "cards" / slug):
            yield slug, f


@pytest.mark.parametrize("slug,path", list(_files()), ids=[f"{s}-{p.name}" for s, p in _files()])
def test_the_card_schema_rejects_iff_the_validator_does(tmp_path, slug, path):
    game = _game(slug)
    schema = Draft202012Validator(editorschema.schemas(game)["cards.schema.json"])
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert not list(schema.iter_errors(doc)) and not validator_errors(game, path)     # the legal twin
    rng = random.Random(f"{slug}/{path.name}")
    seen = 0
    for _ in range(PER_FILE):
        m = mutate(rng, game, doc)
        if m is None:
            continue
        what, bad = m
        out = tmp_path / path.name
        out.write_text(yaml.safe_dump(bad, allow_unicode=True, sort_keys=False), encoding="utf-8")
        by_schema = [e.message for e in schema.iter_errors(bad)]
        by_validator = validator_errors(game, out)
        assert bool(by_schema) == bool(by_validator), (what, by_schema[:2], by_validator[:2])
        seen += bool(by_validator)
    assert seen or not doc.get("cards")


@pytest.mark.parametrize("slug", GAMES)
def test_a_card_without_its_id_is_rejected_by_both(tmp_path, slug):
    """The issue's case: the schema accepted a card without ``id``, which the validator rejects."""
    game = _game(slug)
    schema = Draft202012Validator(editorschema.schemas(game)["cards.schema.json"])
    path = next(f for f in card_files(ROOT / "cards" / slug) if yaml.safe_load(f.read_text())["cards"])
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    del doc["cards"][0]["id"]
    out = tmp_path / path.name
    out.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert list(schema.iter_errors(doc)) and validator_errors(game, out)


def test_a_key_from_the_files_defaults_is_not_required_of_its_cards():
    game = _game("dino_battles")
    schema = Draft202012Validator(editorschema.schemas(game)["cards.schema.json"])
    card = {"id": "x", "name": "X", "subtype": "attack", "text": "t"}
    assert not list(schema.iter_errors({"defaults": {"type": "combat"}, "cards": [card]}))
    assert list(schema.iter_errors({"cards": [card]}))                          # no type at all
    assert list(schema.iter_errors({"defaults": {"type": "combat"}, "cards": [{**card, "subtype": "atack"}]}))
    no_text = {k: v for k, v in card.items() if k != "text"}
    assert list(schema.iter_errors({"defaults": {"type": "combat"}, "cards": [no_text]}))
    assert not list(schema.iter_errors({"defaults": {"type": "combat", "text": "t"}, "cards": [no_text]}))

"""`cardgen schema`: JSON Schemas generated from the validator's typed options. Every shipped YAML
file follows its schema (checked with the jsonschema library), and the schemas are strict enough
to catch what an editor should flag as you type."""

from __future__ import annotations

import json

import pytest
import yaml
from jsonschema import Draft202012Validator

from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.reference import editorschema
from tests.conftest import ROOT, run_cli

GAMES = list_games(ROOT)


def _game(slug):
    problems = Problems()
    g = load_game(ROOT, slug, problems)
    assert g is not None and not problems.has_errors
    return g


@pytest.mark.parametrize("slug", GAMES)
def test_every_shipped_yaml_file_follows_its_schema(slug):
    g = _game(slug)
    schemas = editorschema.schemas(g)
    n = 0
    for name, files in editorschema.targets(g):
        Draft202012Validator.check_schema(schemas[name])
        v = Draft202012Validator(schemas[name])
        for f in files:
            errors = [f"{list(e.absolute_path)}: {e.message}" for e in v.iter_errors(yaml.safe_load(f.read_text()))]
            assert not errors, (f, name, errors[:3])
            n += 1
    assert n >= 5
    logs = sorted((ROOT / "examples" / "logs" / slug).glob("*.yaml"))
    if "log.schema.json" in schemas:
        for f in logs:
            assert not list(Draft202012Validator(schemas["log.schema.json"]).iter_errors(yaml.safe_load(f.read_text())))


def _errors(schema, doc):
    return [e.message for e in Draft202012Validator(schema).iter_errors(doc)]


def test_the_schemas_catch_what_the_validator_would():
    g = _game("loot_battles")
    s = editorschema.schemas(g)
    card = {"id": "x", "name": "X", "type": "loot", "category": "sword", "rank": "low", "damage": 2,
            "damage_type": "melee", "attack": 1}
    assert not _errors(s["cards.schema.json"], {"cards": [card]})
    assert _errors(s["cards.schema.json"], {"cards": [{**card, "damage": "lots"}]})          # a type
    assert _errors(s["cards.schema.json"], {"cards": [{**card, "rank": "hihg"}]})            # an enum
    assert _errors(s["cards.schema.json"], {"cards": [{**card, "atack": 1}]})                # unknown field
    assert _errors(s["cards.schema.json"], {"cards": [{**card, "enemy": "rats"}]})           # another type's field
    assert _errors(s["cards.schema.json"], {"cards": [{**card, "type": "lewt"}]})
    tpl = {"extends": "base", "elements": {"pic": {"kind": "art", "src": "{{ card.art }}", "w": "10mm", "h": 5,
                                                     "fit": "cover"}}}
    assert not _errors(s["template.schema.json"], tpl)
    tpl["elements"]["pic"]["fit"] = "stretch"
    assert _errors(s["template.schema.json"], tpl)
    tpl["elements"]["pic"] = {"kind": "art", "size": 12}                                    # a text key on art
    assert _errors(s["template.schema.json"], tpl)
    bf = editorschema.schemas(_game("boss_fight"))["collection.schema.json"]
    assert _errors(bf, {"deck": {"name": "d", "cards": {"no_such_card": 2}}})


def test_the_command_writes_them_and_the_readme_says_how_to_use_them(tmp_path):
    code, out = run_cli("schema", "dino_battles", "--out", str(tmp_path), "--format", "json")
    assert code == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert {"cards.schema.json", "template.schema.json", "game.schema.json", "params.schema.json",
            "maps.schema.json", "collection.schema.json"} <= set(names)
    assert len(json.loads(out)["written"]) == len(names)
    assert "# yaml-language-server: $schema=" in (ROOT / "README.md").read_text(encoding="utf-8")

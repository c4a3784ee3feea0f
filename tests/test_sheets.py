"""Card collections in spreadsheets: CSV and XLSX beside the YAML, problems at the cell with the
YAML rule IDs, `cardgen cards --format csv`, and the round trip CSV → cards → CSV."""

from __future__ import annotations

import json

import pytest
import yaml
from openpyxl import Workbook

from cardgen.content.gamefiles import list_games
from tests.conftest import ROOT, run_cli


@pytest.mark.parametrize("slug", list_games(ROOT))
def test_csv_to_cards_to_csv_is_identical(game_copy, slug):
    """The whole pool as one CSV in place of the YAML files that held it: the game validates as
    before, and the pool writes out identically (lists as ';', empty ones as [], mappings as JSON)."""
    g = game_copy(slug)
    code, first = run_cli("cards", slug, "--format", "csv", root=g.root)
    assert code == 0 and first.count("\n") > 10
    for f in sorted((g.root / "cards" / slug).glob("*.yaml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8")) or {}
        if doc.get("cards"):
            assert not doc.get("components"), f       # (a file of both would keep its components)
            f.unlink()
    g.write(f"cards/{slug}/pool.csv", first)
    code, probs = g.validate()
    assert code == 0, probs
    code, again = run_cli("cards", slug, "--format", "csv", root=g.root)
    assert code == 0 and again == first


def _loot_csv(g, body: str):
    g.path("cards/loot_battles/loot.yaml").unlink()
    g.write("cards/loot_battles/loot.csv", body)


HEAD = "id,name,category,rank,copies,damage,damage_type,attack,type\n"


def test_a_csv_problem_is_reported_at_its_line_and_column(game_copy):
    g = game_copy("loot_battles")
    _loot_csv(g, HEAD + "sword_bronze,Bronze Sword,sword,low,4,2,melee,1,loot\n"
                        "sword_iron,Iron Sword,sword,middle,3,lots,melee,1,loot\n"
                        "sword_steel,Steel Sword,sword,hihg,2,6,melee,1,loot\n")
    code, out = run_cli("validate", "loot_battles", root=g.root)
    assert code == 1
    assert "cards/loot_battles/loot.csv:3:6: LB-CARD-4 error: 'damage' of card 'sword_iron'" in out
    assert "loot.csv:4:4: LB-CARD-4 error: 'rank' of card 'sword_steel'" in out and "did you mean 'high'?" in out


def test_an_unknown_column_is_reported_at_its_header_cell(game_copy):
    g = game_copy("loot_battles")
    _loot_csv(g, HEAD.replace("attack", "atack") + "sword_bronze,Bronze Sword,sword,low,4,2,melee,1,loot\n")
    code, out = run_cli("validate", "loot_battles", root=g.root)
    assert code == 1 and "loot.csv:1:8: YAML-UNKNOWN-KEY error: unknown key 'atack'" in out
    assert "did you mean 'attack'?" in out


def test_xlsx_a_sheet_per_type_or_a_type_column_and_problems_at_the_cell(game_copy):
    g = game_copy("loot_battles")
    g.path("cards/loot_battles/loot.yaml").unlink()
    wb = Workbook()
    swords = wb.active
    swords.title = "Swords"                 # no card type: the rows say theirs in a `type` column
    swords.append(["id", "name", "type", "category", "rank", "copies", "damage", "damage_type", "attack"])
    for i in range(2, 7):
        swords.append([f"sword_{i}", f"Sword {i}", "loot", "sword", "low", 1, i, "melee", 1])
    swords.append(["sword_bad", "Bad Sword", "loot", "sword", "low", "three", 2, "melee", 1])   # row 7
    loot = wb.create_sheet("Loot")          # a card type's name: its rows are of that type
    loot.append(["id", "name", "category", "rank", "armor", "copies"])
    loot.append(["shield_x", "Shield X", "shield", "low", 2, 1])
    wb.save(g.path("cards/loot_battles/loot.xlsx"))
    code, out = run_cli("validate", "loot_battles", root=g.root)
    assert code == 1
    assert "cards/loot_battles/loot.xlsx:Swords!F7: YAML-TYPE error: 'copies' of card 'sword_bad'" in out
    code, out = run_cli("cards", "loot_battles", "--format", "json", root=g.root)
    cards = {c["id"]: c for c in json.loads(out)["cards"]}
    assert cards["shield_x"]["type"] == "loot" and cards["shield_x"]["armor"] == 2
    assert cards["sword_6"]["damage"] == 6 and "sword_bad" not in cards


@pytest.mark.parametrize("name,data,rule", [
    ("loot.xlsx", b"PK\x03\x04 not really a workbook", "SHEET-SYNTAX"),
    ("loot.csv", "id,name\nsword,\xe9p\xe9e\n".encode("latin-1"), "YAML-ENCODING"),
    ("loot.csv", b"id,name,type\nx\x00y,X,loot\n", None),
])
def test_a_broken_spreadsheet_is_one_problem_never_a_crash(game_copy, name, data, rule):
    g = game_copy("loot_battles")
    g.path("cards/loot_battles/loot.yaml").unlink()
    g.path(f"cards/loot_battles/{name}").write_bytes(data)
    code, out = run_cli("validate", "loot_battles", root=g.root)
    assert code == 1 and "Traceback" not in out
    if rule:
        assert f"{name}:1:1: {rule} error" in out


def test_an_unknown_type_in_the_type_column_is_reported_at_its_cell(game_copy):
    g = game_copy("loot_battles")
    _loot_csv(g, HEAD + "sword_bronze,Bronze Sword,sword,low,4,2,melee,1,lewt\n")
    code, out = run_cli("validate", "loot_battles", root=g.root)
    assert code == 1 and "loot.csv:2:9: CARD-UNKNOWN-TYPE error: card 'sword_bronze' has unknown type 'lewt'" in out

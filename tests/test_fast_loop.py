"""The designer's fast loop: draft builds, printing a subset (--only, --cards), proofs."""

from __future__ import annotations

import json
from collections import Counter

import pdfplumber
from PIL import Image

from tests.conftest import ROOT, has_problem, pdf_pages, problems_json, qpdf_check, run_cli

EXTRA = ("  - {id: limbs_test, name: Test Legs, copies: 1, str: 2, def: 1, atk: 1, hp: 3, traits: [haste],\n"
         "     fossil: \"Testosaurus · Lab\"}\n")
BROKEN = "  - {id: limbs_broken, name: Broken Legs, copies: 2, str: many, def: 1, atk: 1, hp: 3}\n"


def _add(copy, text: str) -> int:
    p = copy.path("cards/bone_wars/limbs.yaml")
    before = p.read_text(encoding="utf-8")
    p.write_text(before + text, encoding="utf-8")
    return before.count("\n") + 1


def _fronts(manifest: dict) -> Counter:
    return Counter(c["id"] for p in manifest["pages"] if p["side"] == "front" for c in p["cards"])


def test_a_61st_card_builds_as_a_draft_with_a_warning_and_marked_sheets(game_copy):
    copy = game_copy("bone_wars")
    _add(copy, EXTRA)
    out = copy.root / "out"
    code, probs = problems_json("build", "bone_wars", "--draft", "--only", "cards", "--out", str(out), root=copy.root)
    assert code == 0, probs
    assert has_problem(probs, "BW-CARD-3") and all(p["severity"] == "warning" for p in probs)
    manifest = json.loads((out / "bone_wars" / "cards.json").read_text())
    assert manifest["draft"] is True and _fronts(manifest)["limbs_test"] == 1
    pdf = out / "bone_wars" / "cards.pdf"
    qpdf_check(pdf)
    pages = pdf_pages(pdf.read_bytes())
    assert all("DRAFT" in t for t in pages)
    # the mark lies outside every card's bleed box
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        words = [w for w in page.extract_words() if w["text"] == "DRAFT"]
        boxes = [c["bleed_box"] for c in manifest["pages"][0]["cards"]]
        mm = 25.4 / 72
        for w in words:
            x0, x1, top, bottom = w["x0"] * mm, w["x1"] * mm, w["top"] * mm, w["bottom"] * mm
            assert all(x1 <= b[0] or x0 >= b[0] + b[2] or bottom <= b[1] or top >= b[1] + b[3] for b in boxes)


def test_the_same_61st_card_stops_a_final_build(game_copy):
    copy = game_copy("bone_wars")
    _add(copy, EXTRA)
    code, probs = problems_json("build", "bone_wars", "--out", str(copy.root / "out"), root=copy.root)
    assert code == 1 and has_problem(probs, "BW-CARD-3") and not (copy.root / "out" / "bone_wars").exists()


def test_draft_is_a_game_default_and_final_overrides_it(game_copy):
    copy = game_copy("bone_wars")
    _add(copy, EXTRA)
    copy.edit("rules/bone_wars/game.yaml", "print:\n", "print:\n  draft: true\n")
    out = copy.root / "out"
    code, _ = problems_json("build", "bone_wars", "--only", "cards", "--out", str(out), root=copy.root)
    assert code == 0 and json.loads((out / "bone_wars" / "cards.json").read_text())["draft"] is True
    code, _ = problems_json("build", "bone_wars", "--final", "--out", str(copy.root / "o2"), root=copy.root)
    assert code == 1


def test_a_broken_card_prints_as_an_error_card_and_the_rest_prints(game_copy):
    copy = game_copy("bone_wars")
    line = _add(copy, BROKEN)
    out = copy.root / "out"
    code, probs = problems_json("build", "bone_wars", "--draft", "--only", "cards", "--out", str(out), root=copy.root)
    assert code == 1 and has_problem(probs, "BW-CARD-1", "limbs.yaml", line)
    manifest = json.loads((out / "bone_wars" / "cards.json").read_text())
    fronts = _fronts(manifest)
    errors = [k for k in fronts if k.startswith("error:")]
    assert len(errors) == 1 and fronts[errors[0]] == 2
    assert sum(n for k, n in fronts.items() if k != "reference") == 60 + 2     # 4 reference cards besides
    text = " ".join(pdf_pages((out / "bone_wars" / "cards.pdf").read_bytes()))
    assert "ERROR" in text and "BW-CARD-1" in text and f"limbs.yaml:{line}" in text


def test_only_builds_the_printables_asked_for(tmp_path):
    code, _ = run_cli("build", "loot_battles", "--only", "cards", "--out", str(tmp_path))
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "loot_battles").iterdir()) == \
        ["cards.json", "cards.pdf", "duplex-calibration.pdf"]


def test_only_naming_nothing_is_a_usage_error():
    code, out = run_cli("build", "loot_battles", "--only", "card")
    assert code == 2


def test_cards_prints_a_preset_at_its_counts_with_its_backs(tmp_path):
    deck = ROOT / "cards" / "boss_fight" / "presets" / "boss_ember_wyrm.yaml"
    code, _ = run_cli("build", "boss_fight", "--cards", str(deck), "--out", str(tmp_path))
    assert code == 0
    manifest = json.loads((tmp_path / "boss_fight" / "cards-boss_ember_wyrm.json").read_text())
    fronts = _fronts(manifest)
    assert fronts["walk"] == 4 and fronts["raptor_leg"] == 2 and fronts["bone_cleaver"] == 1
    backs = Counter(c["id"] for p in manifest["pages"] if p["side"] == "back" for c in p["cards"])
    assert backs == fronts
    qpdf_check(tmp_path / "boss_fight" / "cards-boss_ember_wyrm.pdf")


def test_cards_by_type_set_and_id(tmp_path):
    code, _ = run_cli("build", "loot_battles", "--cards", "type:class,enc_rats_4", "--out", str(tmp_path))
    assert code == 0
    files = list((tmp_path / "loot_battles").glob("cards-*.json"))
    fronts = _fronts(json.loads(files[0].read_text()))
    assert set(fronts) == {"class_melee", "class_ranged", "enc_rats_4"} and fronts["class_melee"] == 3


def test_cards_naming_nothing_is_a_usage_error():
    assert run_cli("build", "loot_battles", "--cards", "type:clas")[0] == 2
    assert run_cli("build", "loot_battles", "--cards", "nope_card")[0] == 2
    assert run_cli("build", "loot_battles", "bone_wars", "--cards", "type:class")[0] == 2


def test_a_proof_shows_front_and_back_at_true_size(tmp_path):
    code, _ = run_cli("proof", "loot_battles", "class_melee", "Rats ×4", "--out", str(tmp_path))
    assert code == 0
    pdf = tmp_path / "proof.pdf"
    qpdf_check(pdf)
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        mm = 25.4 / 72
        # the trim guides: a 63 mm line for each card's top edge, front and back
        tops = [ln for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 0.01 and abs(abs(ln["x1"] - ln["x0"]) * mm - 63) < 0.1]
        assert len(tops) >= 4
    img = Image.open(tmp_path / "proof.png")
    assert round(img.info["dpi"][0]) == 150


def test_a_proof_of_an_unknown_card_names_the_nearest():
    code, _ = run_cli("proof", "loot_battles", "clas_mele")
    assert code == 2

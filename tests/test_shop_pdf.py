"""What a print shop's preflight reads: TrimBox and BleedBox on card pages, crop marks clear of
every bleed when there is a gutter; and DECK-BACKS for a deck whose cards differ from behind."""

from __future__ import annotations

import json

import pdfplumber
import pytest
from pypdf import PdfReader

from tests.conftest import has_problem, problems_json, qpdf_check

MM = 72 / 25.4


def _union(boxes):
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    return [x0, y0, max(b[0] + b[2] for b in boxes) - x0, max(b[1] + b[3] for b in boxes) - y0]


def _build(copy, *extra):
    out = copy.root / "out"
    code, probs = problems_json("build", copy.slug, "--only", "cards", "--out", str(out), *extra, root=copy.root)
    assert code == 0, probs
    return out / copy.slug / "cards.pdf", json.loads((out / copy.slug / "cards.json").read_text())


def test_trim_and_bleed_boxes_match_the_manifest(game_copy):
    pdf, manifest = _build(game_copy("loot_battles"))
    qpdf_check(pdf)
    reader = PdfReader(pdf)
    H = manifest["page_size"][1]
    for entry in manifest["pages"]:
        page = reader.pages[entry["page"] - 1]
        for box, key in ((page.trimbox, "trim"), (page.bleedbox, "bleed_box")):
            x, y, w, h = _union([c[key] for c in entry["cards"]])
            got = [float(box.left) / MM, H - float(box.top) / MM, float(box.width) / MM, float(box.height) / MM]
            assert got == pytest.approx([x, y, w, h], abs=0.1), (entry["page"], key)


def test_with_a_gutter_no_crop_mark_enters_any_bleed(game_copy):
    copy = game_copy("loot_battles")
    copy.edit("rules/loot_battles/game.yaml", "print:\n", "print:\n  gutter: 4mm\n")
    pdf, manifest = _build(copy)
    with pdfplumber.open(pdf) as doc:
        for entry in manifest["pages"]:
            if entry["side"] != "front":
                continue
            page = doc.pages[entry["page"] - 1]
            marks = [(ln["x0"] / MM, ln["top"] / MM, ln["x1"] / MM, ln["bottom"] / MM) for ln in page.lines]
            assert marks
            boxes = [c["bleed_box"] for c in entry["cards"]]
            for x0, y0, x1, y1 in marks:
                for bx, by, bw, bh in boxes:
                    assert x1 <= bx + 1e-3 or x0 >= bx + bw - 1e-3 or y1 <= by + 1e-3 or y0 >= by + bh - 1e-3
            block = _union(boxes)
            inside = [m for m in marks if block[0] < m[0] < block[0] + block[2] and block[1] < m[1] < block[1] + block[3]]
            assert inside          # marks between the cards too, in the gutters


def test_a_deck_of_one_type_with_two_backs_is_a_warning(game_copy):
    copy = game_copy("boss_fight")
    tpl = "templates/boss_fight/back_poker.yaml"
    copy.edit(tpl, "fill: \"{{ 'ink' if type.key == 'action' else card.set }}\"", "fill: \"{{ card.set }}\"")
    deck = "cards/boss_fight/presets/deck_boss_starter.yaml"
    code, probs = copy.validate(deck)
    assert has_problem(probs, "DECK-BACKS", "deck_boss_starter.yaml")
    assert next(p for p in probs if p["rule"] == "DECK-BACKS")["severity"] == "warning"


def test_the_shipped_decks_show_one_back_per_card_type(game_copy):
    copy = game_copy("boss_fight")
    code, probs = copy.validate("cards/boss_fight/presets/deck_boss_starter.yaml",
                                "cards/boss_fight/presets/boss_ember_wyrm.yaml")
    assert code == 0 and not has_problem(probs, "DECK-BACKS")

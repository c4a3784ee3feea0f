"""Exports: a PNG per face at the target's exact pixels and DPI, drawn like the PDF; Tabletop
Simulator sheets and saved object; print-service presets and their size check."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageStat

from tests.conftest import ROOT, problems_json, run_cli


def test_tgc_poker_faces_are_825_by_1125_at_300_dpi(tmp_path):
    code, probs = problems_json("export", "loot_battles", "--to", "tgc_poker", "--cards", "type:class",
                                "--out", str(tmp_path))
    assert code == 0, probs
    manifest = json.loads((tmp_path / "export.json").read_text())
    assert {f["id"] for f in manifest["faces"]} == {"class_melee", "class_ranged"}
    for name in ("class_melee.png", "class_melee-back.png", "class_ranged.png"):
        im = Image.open(tmp_path / name)
        assert im.size == (825, 1125) and round(im.info["dpi"][0]) == 300


def test_png_with_bleed_and_trimmed(tmp_path):
    code, _ = run_cli("export", "loot_battles", "--to", "png", "--cards", "class_melee", "--out", str(tmp_path / "b"))
    assert code == 0
    assert Image.open(tmp_path / "b" / "class_melee.png").size == (round(69 / 25.4 * 300), round(94 / 25.4 * 300))
    code, _ = run_cli("export", "loot_battles", "--to", "png", "--cards", "class_melee", "--trim", "--dpi", "150",
                      "--out", str(tmp_path / "t"))
    assert code == 0
    im = Image.open(tmp_path / "t" / "class_melee.png")
    assert im.size == (round(63 / 25.4 * 150), round(88 / 25.4 * 150)) and round(im.info["dpi"][0]) == 150


def test_a_png_shows_what_the_pdf_prints(tmp_path):
    out = tmp_path / "build"
    assert run_cli("build", "loot_battles", "--cards", "class_melee", "--out", str(out))[0] == 0
    assert run_cli("export", "loot_battles", "--to", "png", "--cards", "class_melee", "--dpi", "150",
                   "--out", str(tmp_path / "png"))[0] == 0
    manifest = json.loads((out / "loot_battles" / "cards-class_melee.json").read_text())
    page = manifest["pages"][0]
    x, y, w, h = page["cards"][0]["bleed_box"]
    doc = pdfium.PdfDocument(str(out / "loot_battles" / "cards-class_melee.pdf"))
    sheet = doc[page["page"] - 1].render(scale=150 / 72).to_pil().convert("RGB")
    px = 150 / 25.4
    face = Image.open(tmp_path / "png" / "class_melee.png").convert("RGB")
    # the PNG keeps the card's full bleed; the sheet may narrow it to fit the printer's margin:
    # compare the sheet's bleed box with the same box of the PNG, both sampled to the sub-pixel
    cut = (manifest["bleed"] - page["grid"]["bleed"]) * face.size[0] / (w + 2 * (manifest["bleed"] - page["grid"]["bleed"]))
    size = (round(w * px), round(h * px))
    face = face.transform(size, Image.Transform.EXTENT, (cut, cut, face.size[0] - cut, face.size[1] - cut),
                          Image.Resampling.BILINEAR)
    cell = sheet.transform(size, Image.Transform.EXTENT, (x * px, y * px, (x + w) * px, (y + h) * px),
                           Image.Resampling.BILINEAR)
    diff = ImageStat.Stat(ImageChops.difference(cell, face)).mean
    assert max(diff) < 6, diff         # the same drawing (anti-aliasing differs at the edges only)


def test_tts_sheets_and_saved_object(tmp_path):
    code, _ = run_cli("export", "loot_battles", "--to", "tts", "--out", str(tmp_path), "--url", "https://x.test/")
    assert code == 0
    saved = json.loads((tmp_path / "loot_battles-poker.json").read_text())
    copies = {}
    for c in json.loads(run_cli("cards", "loot_battles", "--format", "json")[1])["cards"]:
        copies[c["type"]] = copies.get(c["type"], 0) + c["copies"]
    decks = {s["Nickname"]: s for s in saved["ObjectStates"]}
    assert all(s["Name"] == "DeckCustom" for s in decks.values())
    assert {k: len(d["ContainedObjects"]) for k, d in decks.items()} == \
        {"Class": copies["class"], "Encounter": copies["encounter"], "Enemy": copies["enemy"], "Loot": copies["loot"]}
    for d in decks.values():
        assert d["DeckIDs"] == [o["CardID"] for o in d["ContainedObjects"]]
        for num, sheet in d["CustomDeck"].items():
            assert sheet["FaceURL"].startswith("https://x.test/") and sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
            im = Image.open(tmp_path / sheet["FaceURL"].rsplit("/", 1)[1])
            assert max(im.size) <= 4096
            slots = {o["CardID"] - int(num) * 100 for o in d["ContainedObjects"] if o["CardID"] // 100 == int(num)}
            assert max(slots) < min(sheet["NumWidth"] * sheet["NumHeight"], 69)


def test_a_card_of_another_size_is_an_error_naming_both(tmp_path):
    code, probs = problems_json("export", "boss_fight", "--to", "tgc_poker", "--cards", "type:hero",
                                "--out", str(tmp_path))
    assert code == 1
    msg = next(p["message"] for p in probs if p["rule"] == "EXPORT-SIZE")
    assert "63.5 × 88.9" in msg and "mm" in msg


def test_unknown_target_and_selection_are_usage_errors(tmp_path):
    assert run_cli("export", "loot_battles", "--to", "tgc_pokr")[0] == 2
    assert run_cli("export", "loot_battles", "--to", "png", "--cards", "type:nope")[0] == 2


def test_presets_are_data():
    assert {p.stem for p in (ROOT / "services").glob("*.yaml")} >= {"tgc_poker", "tgc_tarot", "mpc_poker",
                                                                      "drivethrucards_poker"}

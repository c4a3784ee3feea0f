"""Card art: the ``art:`` field placed by the template's art element (cover or contain around a
focal point), PNG/JPEG/SVG under art/<game>/, a drawn placeholder and a warning for a missing
file, a warning naming the effective DPI of a low-resolution one, nothing read outside the art
folder, and each picture embedded once per PDF."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.layout.card import CardLayout
from cardgen.layout.elements.art import place
from cardgen.scene import Clip, Image, Polygon, Text
from tests.conftest import has_problem

ENEMIES = "cards/loot_battles/enemies.yaml"


def flat(items):
    for it in items:
        if isinstance(it, Clip):
            yield from flat(it.items)
        else:
            yield it


def test_cover_keeps_the_focal_point_and_contain_shows_everything():
    # a 2:1 picture in a square box: cover crops the sides, the focal point centred when it can be
    assert place(200, 100, 50, 50, "cover", 0.5, 0.5) == (-25.0, 0.0, 100.0, 50.0)
    assert place(200, 100, 50, 50, "cover", 0.0, 0.5) == (0.0, 0.0, 100.0, 50.0)      # clamped: no gap
    assert place(200, 100, 50, 50, "cover", 0.75, 0.5) == (-50.0, 0.0, 100.0, 50.0)
    # contain: the whole picture, the spare room placed by the focal point
    assert place(200, 100, 50, 50, "contain", 0.5, 0.5) == (0.0, 12.5, 50.0, 25.0)
    assert place(200, 100, 50, 50, "contain", 0.5, 1.0) == (0.0, 25.0, 50.0, 25.0)


def _art_game(game_copy, art: dict[str, str]):
    g = game_copy("loot_battles")
    g.edit(ENEMIES, ", art: rat.svg}", "}")      # the shipped picture
    for cid, src in art.items():
        g.edit(ENEMIES, f"- {{id: {cid}, name:", f"- {{id: {cid}, art: {src!r}, name:")
    (g.root / "art" / "loot_battles").mkdir(parents=True, exist_ok=True)
    return g


def _front(g, cid: str):
    problems = Problems()
    game = load_game(g.root, "loot_battles", problems)
    card = game.cards_by_id[cid]
    return CardLayout(game, problems).draw(card, "front"), problems


def test_a_picture_is_placed_and_a_soft_one_is_a_warning_naming_its_dpi(game_copy):
    g = _art_game(game_copy, {"lankies": "lanky.png", "rats": "rat.jpg"})
    PILImage.new("RGB", (1200, 600), "#556b2f").save(g.root / "art/loot_battles/lanky.png")
    PILImage.new("RGB", (120, 60), "#556b2f").save(g.root / "art/loot_battles/rat.jpg")
    items, problems = _front(g, "lankies")
    imgs = [it for it in flat(items) if isinstance(it, Image)]
    assert len(imgs) == 1 and imgs[0].path.endswith("lanky.png") and not problems.items
    assert not any(isinstance(it, Text) and it.text == "L" for it in flat(items))   # the letter emblem is gone
    items, problems = _front(g, "rats")
    (p,) = problems.items
    assert p.rule == "ART-DPI" and p.severity == "warning" and "65 DPI" in p.message
    code, probs = g.validate()
    assert code == 0 and has_problem(probs, "ART-DPI", "enemies.yaml", 4)


def test_a_missing_picture_is_a_warning_and_a_drawn_placeholder_never_a_letter(game_copy):
    g = _art_game(game_copy, {"rats": "nowhere.png"})
    g.edit("templates/loot_battles/enemy.yaml", ', icon: "{{ card.damage_type }}"', "")
    items, problems = _front(g, "rats")
    (p,) = problems.items
    assert p.rule == "ART-MISSING" and p.severity == "warning" and "nowhere.png" in p.message
    shown = list(flat(items))
    assert not any(isinstance(it, Image) for it in shown)
    assert sum(isinstance(it, Polygon) for it in shown) >= 2           # the drawn hills
    assert not any(isinstance(it, Text) and len(it.text) == 1 and it.text.isalpha() for it in shown)


@pytest.mark.parametrize("src,rule", [("../../rules/loot_battles/game.yaml", "PATH-ESCAPE"),
                                      ("/etc/passwd", "PATH-ESCAPE"), ("link.png", "PATH-ESCAPE"),
                                      ("folder.png", "FILE-KIND"), ("text.png", "IMAGE-READ"),
                                      ("broken.svg", "IMAGE-READ")])
def test_nothing_outside_the_art_folder_is_read_and_a_bad_file_is_its_rule(game_copy, src, rule):
    g = _art_game(game_copy, {"rats": src})
    art = g.root / "art/loot_battles"
    (art / "link.png").symlink_to(g.root / "rules/loot_battles/game.yaml")
    (art / "folder.png").mkdir()
    (art / "text.png").write_text("not a picture")
    (art / "broken.svg").write_text("<svg")
    items, problems = _front(g, "rats")
    assert [p.rule for p in problems.items] == [rule]
    assert not any(isinstance(it, Image) for it in flat(items))


def test_each_picture_is_embedded_once_per_pdf(game_copy):
    g = _art_game(game_copy, {"rats": "beast.png", "lankies": "beast.png", "brutes": "rat.svg"})
    PILImage.new("RGB", (1000, 500), "#8b4513").save(g.root / "art/loot_battles/beast.png")
    svg = Path(__file__).resolve().parent.parent / "art/loot_battles/rat.svg"
    (g.root / "art/loot_battles/rat.svg").write_bytes(svg.read_bytes())
    code, probs, out = g.only("cards").build()
    assert code == 0, probs
    pdf = (out / "cards.pdf").read_bytes()
    assert pdf.count(b"/Subtype /Image") == 1                   # 20 cards show it, one copy in the file
    svgs = {(name, xo.indirect_reference.idnum) for page in PdfReader(io.BytesIO(pdf)).pages
            for name, xo in _xobjects(page) if "SVG" in name}
    assert len(svgs) == 1 and len(svgs) < 10           # the SVG: one form object, placed on 10 cards


def _xobjects(page):
    res = page.get("/Resources") or {}
    for name, ref in (res.get("/XObject") or {}).items():
        yield str(name), ref.get_object() if hasattr(ref, "get_object") else ref


def test_cards_without_art_keep_their_emblem(game_copy):
    g = game_copy("loot_battles")
    assert (g.root / "art/loot_battles/rat.svg").is_file()        # the shipped Rat's picture comes along
    items, problems = _front(g, "lankies")
    assert any(isinstance(it, Text) and it.text == "L" for it in flat(items))
    assert not any(isinstance(it, Image) for it in flat(items)) and not problems.items


def test_a_replaced_picture_rebuilds_the_cards_through_the_cache(game_copy):
    g = _art_game(game_copy, {"rats": "beast.png"})
    PILImage.new("RGB", (1000, 500), "#8b4513").save(g.root / "art/loot_battles/beast.png")
    g.only("cards")
    code, _, out = g.build()
    first = (out / "cards.pdf").read_bytes()
    PILImage.new("RGB", (1000, 500), "#2f6b55").save(g.root / "art/loot_battles/beast.png")
    code, probs, out = g.build()
    assert code == 0 and (out / "cards.pdf").read_bytes() != first

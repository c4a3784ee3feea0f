"""One icon system per game (issue 32): a game declares its icons once (game.yaml ``icons:``, each
a drawn pictogram and the words it stands for); cards, tokens, mats, aids and the rulebook's
text draw the same pictogram, and each rulebook ends with an Icons glossary made from that data.

For every game: every icon a rulebook names is drawn on some printed component; every icon a
component draws is in the glossary; no font character that stood for an icon is left in the
text of any player PDF; the inline pictogram lands in the room its line keeps for it."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate

from cardgen.boards.inlineicons import IconCanvas, markup
from cardgen.content.loader import load_game
from cardgen.content.model import Icon
from cardgen.core.problems import Problems
from cardgen.layout.pictograms import DRAWINGS
from cardgen.render.platypusfonts import SANS, register_fonts
from cardgen.rulebook import glossary
from cardgen.rulebook.glossary import glossary_icons
from cardgen.rulebook.printable import Rulebook
from tests.conftest import ROOT, run_cli
from tests.player_text import games, player_pdfs

NAMED = re.compile(r"\{([a-z0-9_]+)\}")
# the font characters the games' icons used to be (issue 32), and every icon's own glyph
LISTED = set("▲■♠♥♦≈†♣☼▒∞◙◘►◄↔»∆↕▼○◊☻≡‡∫●□")
NOT_FOR_COMPONENTS = {"rulebook", "readme", "duplex-calibration"}


def icon_glyphs(slug: str) -> set[str]:
    game = load_game(ROOT, slug, Problems())
    own = {c for ic in game.icons.values() for c in ic.glyph if not c.isascii() and c != "•"}
    return LISTED | own


def named_by_rulebooks(slug: str) -> dict[str, set[str]]:
    """Icon → the rulebook versions whose text names it (``{icon}`` after Jinja)."""
    game = load_game(ROOT, slug, Problems())
    book = Rulebook(game, Problems())
    out: dict[str, set[str]] = {}
    for version in book.versions:
        for ch in book.chapters(version) or []:
            if ch.rendered.path.name == "game.yaml":     # the Icons glossary: every icon, by design
                continue
            for line in ch.rendered.out_lines():
                for m in NAMED.finditer(line):
                    if m.group(1) in game.icons:
                        out.setdefault(m.group(1), set()).add(version.version)
    return out


def drawn_on_components(slug: str, out: Path, monkeypatch) -> set[str]:
    """The pictograms drawn while every component of the game (all but its books) is built."""
    seen: set[str] = set()

    def recording(name, fn):
        def draw(pen):
            seen.add(name)
            fn(pen)
        return draw
    for name, fn in list(DRAWINGS.items()):
        monkeypatch.setitem(DRAWINGS, name, recording(name, fn))
    monkeypatch.setenv("CARDGEN_CACHE", "off")
    game = load_game(ROOT, slug, Problems())
    only = [p for p in game.printables if p not in NOT_FOR_COMPONENTS]
    code, text = run_cli("build", slug, "--out", str(out), "--only", ",".join(only))
    assert code == 0, text
    return seen


@pytest.mark.parametrize("slug", games(ROOT))
def test_every_icon_is_drawn_named_and_explained(slug, tmp_path, monkeypatch):
    game = load_game(ROOT, slug, Problems())
    undrawable = sorted(k for k, ic in game.icons.items() if ic.draw not in DRAWINGS)
    assert not undrawable, f"icons with no pictogram (a font glyph stands for them): {undrawable}"
    drawn = drawn_on_components(slug, tmp_path, monkeypatch)
    on_components = {k for k, ic in game.icons.items() if ic.draw in drawn}
    named = named_by_rulebooks(slug)
    not_drawn = {k: sorted(v) for k, v in named.items() if k not in on_components}
    assert not not_drawn, f"icons a rulebook names that no component draws: {not_drawn}"
    glossary = {ic.key for ic in glossary_icons(game)}
    missing = sorted(on_components - glossary)
    assert not missing, f"icons drawn on components but missing from the Icons glossary: {missing}"
    unseen = sorted(glossary - on_components)
    assert not unseen, f"the Icons glossary explains icons no component shows: {unseen}"


@pytest.mark.parametrize("slug", games(ROOT))
def test_no_font_glyph_stands_for_an_icon_in_player_text(full_build, slug):
    glyphs = icon_glyphs(slug)
    out = full_build.game(slug).parent
    found: list[str] = []
    for pdf in player_pdfs(out, slug):
        for n, text in enumerate(full_build.pages(pdf), 1):
            hits = sorted({c for c in text if c in glyphs})
            if hits:
                found.append(f"{pdf.name} p{n}: {''.join(hits)}")
    assert not found, found


def test_the_glossary_pictures_each_icon_with_its_words(full_build):
    slug = "bone_wars"
    game = load_game(ROOT, slug, Problems())
    pdf = full_build.game(slug) / "rulebook.pdf"
    pages = full_build.pages(pdf)
    page = next(i for i, t in enumerate(pages) if glossary.INTRO in t)
    with pdfplumber.open(pdf) as doc:
        p = doc.pages[page]
        words = p.extract_text() or ""
        for ic in glossary_icons(game):
            assert (ic.words or "").split(":")[0] in words, ic.key
        # each entry's pictogram: filled shapes in the icon's colour left of its words
        assert len(p.curves) + len(p.rects) >= len(glossary_icons(game))


def test_an_icon_in_rulebook_text_is_drawn_in_its_room(tmp_path):
    """The inline pictogram's shapes sit in the line, in the room the no-break spaces keep."""
    register_fonts()
    style = ParagraphStyle("t", fontName=SANS["normal"], fontSize=10, leading=12)
    pdf = tmp_path / "t.pdf"
    icon = Icon("hp", "♥", "#cc0000", "heart")
    SimpleDocTemplate(str(pdf)).build([Paragraph(f"Lose one {markup(icon)} Health now", style)],
                                      canvasmaker=IconCanvas)
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        text = page.extract_text()
        assert "♥" not in text and "Lose one" in text and "Health now" in text
        one = next(w for w in page.extract_words() if w["text"] == "one")
        health = next(w for w in page.extract_words() if w["text"] == "Health")
        shapes = [c for c in page.curves + page.rects if c["non_stroking_color"] not in (None, (1, 1, 1), [1, 1, 1])]
        assert shapes, "no pictogram drawn"
        x0, x1 = min(s["x0"] for s in shapes), max(s["x1"] for s in shapes)
        top, bottom = min(s["top"] for s in shapes), max(s["bottom"] for s in shapes)
        assert one["x1"] <= x0 + 0.5 and x1 <= health["x0"] + 0.5, (one, (x0, x1), health)
        assert one["top"] - 2 <= top and bottom <= one["bottom"] + 2


def test_a_token_face_draws_a_game_icon_and_an_unknown_one_is_reported_at_its_line(game_copy):
    g = game_copy("dino_battles")
    line = g.edit("maps/dino_battles/tokens.yaml", "icon: wound,", "icon: wounds,")
    code, probs = g.validate()
    assert code == 1
    hit = [p for p in probs if p["rule"] == "ICON-UNKNOWN"]
    assert len(hit) == 1 and hit[0]["file"].endswith("tokens.yaml") and hit[0]["line"] == line, probs
    assert "wound" in (hit[0].get("hint") or "")
    g.edit("maps/dino_battles/tokens.yaml", "icon: wounds,", "icon: wound,")         # the legal twin
    code, probs = g.validate()
    assert code == 0, probs

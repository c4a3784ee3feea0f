"""Cards pictured in the rulebooks are legible and speak to players: no text of a pictured card
(or board) prints under 6 pt in the book — a picture is enlarged until it does, or drawn as a
thumbnail whose small print is lines — and no caption or pictured card shows an internal id.

The printed size is measured in the typeset PDF (the characters' size after every scaling)."""

from __future__ import annotations

import io

import pdfplumber
import pytest

import cardgen.boards  # noqa: F401 - registers the board: images
from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.core.problems import Loc, Problems
from cardgen.layout.legibility import MIN_PT, texts
from cardgen.rulebook import Rulebook
from cardgen.rulebook.flowables import MM, CardPicture, CardRow, card_rows, greeked
from cardgen.rulebook.markdown import Converter
from cardgen.scene import Rect, Text
from tests.conftest import ROOT, has_problem
from tests.player_text import developer_text, patterns


def _small_chars(data: bytes) -> list[str]:
    out = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for n, page in enumerate(pdf.pages, 1):
            for ch in page.chars:
                if ch["text"].strip() and ch["size"] < MIN_PT - 0.05:
                    out.append(f"p.{n} {ch['text']!r} at {ch['size']:.1f} pt")
    return out


@pytest.mark.parametrize("slug, half", [("loot_battles", False), ("loot_battles", True), ("bone_wars", True),
                                        ("dino_battles", False), ("bones_on_ice", False)])
def test_no_text_in_a_rulebook_prints_under_6_pt(slug, half):
    """Every pictured card (and board) of the book, in full pages and in the booklet's half pages."""
    problems = Problems()
    book = Rulebook(load_game(ROOT, slug, problems), problems)
    data = book.pdf(book.current, half=half)
    assert data is not None, [p.text() for p in problems]
    small = _small_chars(data)
    assert not small, f"{len(small)} characters under {MIN_PT} pt: {small[:8]}"
    assert not [p for p in problems if p.rule == "TEXT-SMALL"]


def _card(min_text: float = 7.0, w: float = 63.0, thumbnail: bool = False) -> CardPicture:
    items = [Rect(0, 0, w, 88, fill="#ffffff"), Text(5, 80, "Attack roll 1d6", "LiberationSans-Regular", min_text),
             Text(31, 10, "Rat", "LiberationSans-Bold", 12, align="center")]
    return CardPicture(items, w, 88, 0.0, min_text=min_text, thumbnail=thumbnail)


class _Style:
    """A caption style stand-in: cards without captions never use it."""


def test_a_row_asked_small_is_enlarged_to_the_legible_scale_and_runs_on_in_lines():
    row = CardRow([_card(7.0) for _ in range(3)], _Style(), scale=0.45)
    row.wrap(120 * MM, 1e6)
    assert row.s == pytest.approx(MIN_PT / 7.0)                    # 0.86, not 0.45
    assert [len(line) for line in row.lines] == [2, 1]            # 2 × 54 mm + gap in 120 mm
    rows = card_rows([_card(7.0) for _ in range(3)], _Style(), 0.45, 120)
    assert len(rows) == 2                                         # one flowable per line: a box breaks between


def test_a_row_that_fits_legibly_keeps_its_scale():
    row = CardRow([_card(12.0), _card(12.0)], _Style(), scale=0.62)
    row.wrap(170 * MM, 1e6)
    assert row.s == pytest.approx(0.62) and row.lines == [[0, 1]]


def test_a_thumbnail_keeps_its_scale_and_draws_its_small_print_as_lines():
    card = _card(7.0, thumbnail=True)
    row = CardRow([card], _Style(), scale=0.45)
    row.wrap(170 * MM, 1e6)
    assert row.s == pytest.approx(0.45)
    shown = greeked(card.items, 0.45)
    assert [t.text for t in texts(shown)] == []                   # 7 and 12 pt × 0.45: both under 6 pt
    assert sum(isinstance(it, Rect) for it in shown) == 3
    assert [t.text for t in texts(greeked(card.items, 0.6))] == ["Rat"]     # 12 × 0.6 = 7.2 pt stays


def test_a_split_row_breaks_between_its_lines():
    row = CardRow([_card(6.0) for _ in range(4)], _Style(), scale=0.5)
    _, h = row.wrap(120 * MM, 1e6)
    parts = row.split(120 * MM, h * 0.6)
    assert len(parts) == 2 and [len(p.cards) for p in parts] == [2, 2]
    assert all(p.wrap(120 * MM, 1e6) and p.s == pytest.approx(1.0) for p in parts)
    assert row.split(120 * MM, 10) == []                           # not even one line fits: to the next page


def test_a_card_too_wide_for_the_column_to_be_legible_is_text_small():
    class Stub:
        text_width = 100 * MM
        problems = Problems()
    card = _card(3.0)                                              # needs twice its size: 126 mm
    Converter._check_legible(Stub, card, "Rat", Loc("rules/x/rulebook/01.md", 4, 1))
    assert has_problem([p.as_dict() for p in Stub.problems], "TEXT-SMALL", "01.md", 4)
    Stub.problems = Problems()
    Converter._check_legible(Stub, _card(3.0, thumbnail=True), "Rat", Loc("x.md", 4, 1))
    Converter._check_legible(Stub, _card(6.0), "Rat", Loc("x.md", 4, 1))
    assert not Stub.problems.items


class _Recording(Rulebook):
    """A rulebook remembering every card it pictures (captions are set after resolving)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.pictured: list[tuple[str, CardPicture]] = []

    def card_picture(self, card_id, side, loc, problems, version=None):
        pic = super().card_picture(card_id, side, loc, problems, version)
        if pic is not None:
            self.pictured.append((card_id, pic))
        return pic


@pytest.mark.parametrize("slug", list_games(ROOT))
def test_no_pictured_card_or_caption_shows_developer_text(slug):
    problems = Problems()
    book = _Recording(load_game(ROOT, slug, problems), problems)
    for v in book.versions:
        spec = book.page_spec(v)
        book.story(v, spec, book.styles(v, spec))
    assert book.pictured, slug
    pats = patterns(ROOT, slug)
    found = []
    for cid, pic in book.pictured:
        text = " ".join([pic.caption] + [t.text for t in texts(pic.items)])
        found += [f"{cid}: {hit}" for hit in developer_text(text, pats)]
    assert not found, found[:10]


def test_the_caption_scan_finds_an_internal_id(game_copy):
    g = game_copy("bones_on_ice")
    g.edit("rules/bones_on_ice/rulebook/01-welcome.md", "![Skater card](card:femurs_sully)",
           "![femurs_sully](card:femurs_sully)")
    problems = Problems()
    book = _Recording(load_game(g.root, "bones_on_ice", problems), problems)
    v = book.current
    book.story(v, book.page_spec(v), book.styles(v, book.page_spec(v)))
    pats = patterns(g.root, "bones_on_ice")
    hits = [h for cid, pic in book.pictured for h in developer_text(pic.caption, pats)]
    # pictured once per typesetting pass; the wider scan also names it as a YAML key's shape
    assert sorted(set(hits)) == ["YAML key: femurs_sully", "internal id: femurs_sully"], hits


def test_a_card_names_its_parts_from_its_template():
    from cardgen.layout.card import CardLayout
    game = load_game(ROOT, "loot_battles", Problems())
    layout = CardLayout(game, Problems())
    parts = dict(layout.callouts(game.cards_by_id["growlers"]))
    assert {"Name", "Health", "Armor", "Dodge", "Attack dice", "Enemy kind", "Special rules"} <= set(parts)
    for name, (x, y, w, h) in parts.items():
        assert 0 <= x and x + w <= 63 and 0 <= y and y + h <= 88, (name, x, y, w, h)
    assert parts["Health"][1] > parts["Name"][1]                      # down the card, as drawn
    untexted = next(c for c in game.cards if c.type == "loot" and not c.fields.get("text"))
    assert "Special rules" not in dict(layout.callouts(untexted))       # an expression may say nothing


def test_annotation_names_never_overlap_and_keep_the_parts_order():
    from cardgen.rulebook.annotate import LABEL_PT, sides
    card = _card(8.0)
    card.callouts = [("Health", (5, 45, 10, 10)), ("Armor", (18, 46, 10, 10)), ("Name", (13, 5, 37, 8)),
                     ("Damage", (47, 45, 10, 10))]
    got = sides(card, 1.0)
    assert [n for n, *_ in got["left"]] == ["Name", "Health", "Armor"] and [n for n, *_ in got["right"]] == ["Damage"]
    ys = [ly for _, ly, *_ in got["left"]]
    assert all(b - a >= LABEL_PT * 1.5 - 1e-6 for a, b in zip(ys, ys[1:]))


def test_the_annotated_enemy_card_is_named_part_by_part_in_the_book():
    problems = Problems()
    book = Rulebook(load_game(ROOT, "loot_battles", problems), problems)
    with pdfplumber.open(io.BytesIO(book.pdf(book.current, half=True))) as pdf:
        page = next(p for p in pdf.pages if "part by part" in (p.extract_text() or ""))
        words = {w["text"] for w in page.extract_words()}
        sizes = {round(ch["size"], 1) for ch in page.chars if ch["text"] in "Dodge"}
    assert {"Health", "Armor", "Dodge", "Name"} <= words, words
    assert min(sizes) >= MIN_PT
    assert not developer_text(" ".join(words), patterns(ROOT, "loot_battles"))

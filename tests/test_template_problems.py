"""A problem of a template's own text — a glyph the font lacks, an unknown icon, in an element
that reads no card field — is reported once, at the template's line, with the cards that use
the template counted; a problem of a card's field stays at the card's line."""

from __future__ import annotations


def test_a_missing_glyph_in_a_shared_back_is_one_problem_at_the_template(game_copy):
    g = game_copy("bone_wars")
    g.edit("rules/bone_wars/game.yaml", "    back: glossary", "    back: back")       # both card types share it
    line = g.edit("templates/bone_wars/back.yaml", 'text: "*{{ game.subtitle }}*"', 'text: "*{{ game.subtitle }} ☃*"')
    code, probs = g.validate()
    glyphs = [p for p in probs if p["rule"] == "TEXT-GLYPH"]
    assert code == 1 and len(glyphs) == 1, probs
    (p,) = glyphs
    assert p["file"].endswith("templates/bone_wars/back.yaml") and p["line"] == line - 6, p   # the element's line
    assert "template 'back'" in p["message"] and "on every card that uses it (32 designs, 64 cards)" in p["message"]


def test_a_glyph_in_a_card_field_stays_at_the_card(game_copy):
    g = game_copy("bone_wars")
    line = g.edit("cards/bone_wars/reference.yaml", "name: Turn Summary", "name: Turn Summary ☃")
    code, probs = g.validate()
    glyphs = [p for p in probs if p["rule"] == "TEXT-GLYPH" and "/templates/" in p["file"] + p["message"]]
    assert code == 1 and glyphs and all(p["file"].endswith("cards/bone_wars/reference.yaml") and p["line"] == line
                                        for p in glyphs), glyphs


def test_an_element_key_with_no_value_is_one_problem_at_its_line(game_copy):
    """``size:`` with nothing after it is neither a size nor, silently, the default: YAML-TYPE at
    the key's line (it once reached the text fitting as None and raised)."""
    g = game_copy("bone_wars")
    line = g.edit("templates/bone_wars/back.yaml", "    size: 18", "    size:")
    code, probs = g.validate()
    empty = [p for p in probs if p["rule"] == "YAML-TYPE"]
    assert code == 1 and len(empty) == 1, probs
    assert empty[0]["line"] == line and "'size' of element" in empty[0]["message"] and "is empty" in empty[0]["message"]


def test_its_legal_twin_leaves_the_key_out(game_copy):
    g = game_copy("bone_wars")
    g.edit("templates/bone_wars/back.yaml", "    size: 18\n", "")
    code, probs = g.validate()
    assert code == 0, probs

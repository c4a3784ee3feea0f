"""TEXT-SMALL: no text under 6 pt on a card, board, mat or token, no rules text under 7 pt.

Each breaking template has a legal twin one step over the floor, and the warning lands on
the line of the template key that sets the size."""

from __future__ import annotations

import pytest

from tests.conftest import problems_json

FOOTER = "templates/bone_wars/base.yaml"
PART = "templates/bone_wars/part.yaml"


def _small(probs: list[dict]) -> list[dict]:
    return [p for p in probs if p["rule"] == "TEXT-SMALL"]


@pytest.mark.parametrize("size, warned", [(5.5, True), (6, False)])
def test_a_min_size_under_6_pt_is_reported_at_its_line(game_copy, size, warned):
    g = game_copy("bone_wars")
    # the footer prints at 6 pt on every card today: the min_size alone is the mistake
    line = g.edit(FOOTER, "    size: 6\n    min_size: 6\n    color: sediment",
                  f"    size: 6\n    min_size: {size}\n    color: sediment") + 1
    code, probs = g.validate()
    small = _small(probs)
    assert code == 0, probs                     # a warning: the build still prints
    if not warned:
        assert not small, small
        return
    (p,) = small
    assert p["severity"] == "warning" and p["file"].endswith(FOOTER) and p["line"] == line, p
    assert "element 'footer'" in p["message"] and "5.5 pt" in p["message"] and "6 pt minimum" in p["message"], p


@pytest.mark.parametrize("size, warned", [(6.5, True), (7, False)])
def test_rules_text_has_a_7_pt_floor(game_copy, size, warned):
    g = game_copy("bone_wars")
    text = g.path(PART).read_text(encoding="utf-8")
    start = text.index("  traits_box:")
    old = text[start:].split("    min_size: 7\n", 1)[0] + "    min_size: 7\n"
    line = g.edit(PART, old, old.replace("    min_size: 7\n", f"    min_size: {size}\n"))
    line += old.count("\n") - 1
    code, probs = g.validate()
    small = _small(probs)
    if not warned:
        assert code == 0 and not small, small
        return
    (p,) = small
    assert p["file"].endswith(PART) and p["line"] == line and "rules text" in p["message"], p


def test_an_element_not_marked_as_rules_text_keeps_the_6_pt_floor(game_copy):
    g = game_copy("bone_wars")
    text = g.path(PART).read_text(encoding="utf-8")
    start = text.index("  traits_box:")
    block = text[start:].split("  no_traits:", 1)[0]
    g.edit(PART, block, block.replace("    min_size: 7\n", "    min_size: 6.5\n").replace("    rules: true\n", ""))
    _, probs = g.validate()
    assert not _small(probs), probs


@pytest.mark.parametrize("size, warned", [(5, True), (6, False)])
def test_a_badge_label_under_6_pt(game_copy, size, warned):
    g = game_copy("bone_wars")
    line = g.edit(PART, "label: \"{hp} {{ params.stats.hp.name | upper }}\",\n       label_size: 6,",
                  f"label: \"{{hp}} {{{{ params.stats.hp.name | upper }}}}\",\n       label_size: {size},") + 1
    _, probs = g.validate()
    small = _small(probs)
    assert bool(small) == warned, probs
    if warned:
        assert small[0]["file"].endswith(PART) and small[0]["line"] == line and "label" in small[0]["message"]


@pytest.mark.parametrize("size, warned", [("9mm", True), ("14mm", False)])
def test_a_token_label_too_small_to_read(game_copy, size, warned):
    g = game_copy("bones_on_ice")
    g.edit("maps/bones_on_ice/tokens.yaml", "  size: 14mm", f"  size: {size}")
    _, probs = g.validate()
    small = _small(probs)
    assert bool(small) == warned, probs
    if warned:
        (p,) = small
        assert p["file"].endswith("maps/bones_on_ice/tokens.yaml") and "'stamina'" in p["message"], p


def test_every_game_is_text_small_clean():
    code, probs = problems_json("validate")
    assert code == 0 and not _small(probs), _small(probs)

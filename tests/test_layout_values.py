"""An element whose values are card fields as they are (``{{ card.x }}``) draws the same for the
same values: cards laid out in one layout (which reuses what it drew for values met before) are
exactly the cards laid out each in a layout of its own, and a card's problems are its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from PIL import Image

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.layout.card import CardLayout
from tests.conftest import ROOT

LONG = "An extraordinarily long name that cannot fit the title box even at its smallest size at all"


def _game(tmp: Path, cards: list[dict]):
    shutil.copytree(ROOT / "bench" / "game", tmp, dirs_exist_ok=True)
    Image.new("RGB", (8, 8), "red").save(tmp / "templates" / "bench" / "icon.png")
    lines = ["defaults: {type: card}", "cards:"] + [f"  - {json.dumps(c)}" for c in cards]
    (tmp / "cards" / "bench").mkdir(parents=True)
    (tmp / "cards" / "bench" / "cards.yaml").write_text("\n".join(lines) + "\n")
    problems = Problems()
    game = load_game(tmp, "bench", problems)
    assert game is not None and not problems.errors, problems.items
    return game


def _card(i: int, **kw) -> dict:
    c = {"id": str(i), "name": f"Card {i % 3}", "atk": i % 2, "def": 1, "cost": 2, "rules": "Draw a card.",
         "color": ["#aa0000", "#00aa00"][i % 2]}
    return {**c, **kw}


def test_same_values_draw_the_same_and_problems_stay_per_card(tmp_path):
    cards = [_card(i) for i in range(12)] + [_card(20, name=LONG), _card(21, name=LONG), _card(22, name=LONG)]
    game = _game(tmp_path, cards)
    together = Problems()
    layout = CardLayout(game, together)
    drawn = [layout.draw(c, side) for c in game.cards for side in ("front", "back")]
    alone = []
    for c in game.cards:
        for side in ("front", "back"):
            alone.append(CardLayout(game, Problems()).draw(c, side))
    assert drawn == alone and layout._by_values      # drawn again from remembered values, the same
    overflow = [p for p in together.items if p.rule == "TEXT-OVERFLOW"]
    assert [p.message.split(":")[0] for p in overflow] == [f"card '{i}' ({LONG})" for i in (20, 21, 22)]
    assert len({p.loc for p in overflow}) == 3


def test_a_number_a_flag_and_a_text_are_different_values(tmp_path):
    game = _game(tmp_path, [_card(1)])
    layout = CardLayout(game, Problems())
    layout.draw(game.cards[0], "front")
    tpl = layout.template_for(game.cards[0], "front")
    el = next(e for e in tpl.elements if e.name == "atk_v")            # text: "{{ card.atk }}"
    keys = [layout._values_key(el, {"atk": v}, "card", 3.0) for v in (1, True, "1", 1.0, None)]
    assert len(set(keys[:3])) == 3 and keys[3:] == [None, None]     # a float or a missing value: no key
    static = next(e for e in tpl.elements if e.name == "panel")
    assert layout._values_key(static, {"atk": 1}, "card", 3.0) is None

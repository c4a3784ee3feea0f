"""Deck statistics in `cardgen cards` and `cardgen validate GAME FILE`: counts by type, set and
cost, each numeric field's min/median/max over the copies, points totals, the cost curve."""

from __future__ import annotations

import json

from cardgen.content import deckstats
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from tests.conftest import ROOT, run_cli


def test_summary_counts_copies_and_reads_costs_and_points():
    g = load_game(ROOT, "bones_on_ice", Problems())
    st = deckstats.summary(g, [({"type": "spirit", "set": "a", "cost": 2, "points": 5}, 3),
                               ({"type": "spirit", "set": "b", "cost": 4, "points": 1}, 1),
                               ({"type": "spirit", "set": "b", "cost": 2}, 2),
                               ({"type": "spirit", "cost": 9}, 0)])       # no copies: not in the deck
    assert st["cards"] == 6 and st["designs"] == 3
    assert st["by_set"] == {"a": 3, "b": 3}
    assert st["fields"]["cost"] == {"cards": 6, "min": 2, "median": 2.0, "max": 4}
    assert st["by_cost"] == {"cost": {"2": 5, "4": 1}}
    text = "\n".join(deckstats.text(st))
    assert "cost curve:" in text and "      2 " + "█" * 40 + " 5" in text


def test_cards_reports_statistics_as_text_and_json():
    code, out = run_cli("cards", "boss_fight", "--format", "json")
    doc = json.loads(out)
    st = doc["stats"]
    assert code == 0 and st["cards"] == sum(c["copies"] for c in doc["cards"]) == sum(st["by_type"].values())
    pts = sum(c["copies"] * c["points"] for c in doc["cards"] if isinstance(c.get("points"), int))
    assert st["points"] == {"points": pts}
    assert st["fields"]["points"]["min"] <= st["fields"]["points"]["median"] <= st["fields"]["points"]["max"]
    code, out = run_cli("cards", "boss_fight")
    assert "statistics: " in out and "points total: " + str(pts) in out and "feat_cost curve:" in out


def test_validate_file_reports_the_decks_statistics():
    deck = str(ROOT / "cards/dino_battles/decks/iron_herd.yaml")
    code, out = run_cli("validate", "dino_battles", deck, "--format", "json")
    f = json.loads(out)["files"][0]
    assert code == 0 and f["statistics"]["cards"] == f["cards"] == 60
    assert sum(f["statistics"]["by_type"].values()) == 60 and "retreat_cost" in f["statistics"]["by_cost"]
    code, out = run_cli("validate", "dino_battles", deck)
    assert "statistics: 60 cards" in out and "by type: " in out and "retreat_cost curve:" in out

"""Biomechanic Dino Battles content: the card pool (BDB-CARD-1, BDB-CARD-2), the starter decks
and any deck file (BDB-DECK-1 … 3), each rule broken at its file and line, with its legal twin."""

import json
import math
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, has_problem, problems_json, qpdf_check, run_cli

GAME = "dino_battles"
DINOS = "cards/dino_battles/dinosaurs.yaml"
COMBAT = "cards/dino_battles/combat.yaml"
CONSTRAINTS = "rules/dino_battles/constraints.yaml"
DECKS = ROOT / "cards" / GAME / "decks"
STARTERS = sorted(DECKS.glob("*.yaml"))
TYPES = {"dinosaur", "upgrade", "item", "action", "combat"}


def line_of(path: Path, text: str) -> int:
    """1-based line of the first occurrence of ``text`` in a file."""
    src = path.read_text(encoding="utf-8")
    assert text in src, f"{text!r} not in {path}"
    return src[: src.index(text)].count("\n") + 1


def pool() -> list[dict]:
    code, out = run_cli("cards", GAME, "--format", "json")
    assert code == 0, out
    return json.loads(out)["cards"]


def deck_counts(path: Path) -> dict[str, int]:
    return dict(yaml.safe_load(path.read_text(encoding="utf-8"))["deck"]["cards"])


# ── the published content ──────────────────────────────────────────────────────────────────

def test_published_content_is_clean():
    code, probs = problems_json("validate", GAME)
    assert code == 0, probs
    assert probs == []


def test_pool_has_every_type_and_enough_designs():
    cards = pool()
    assert len(cards) >= 40
    assert {c["type"] for c in cards} == TYPES
    assert {c["subtype"] for c in cards if c["type"] == "combat"} == {"attack", "evade", "defend"}
    assert any(c["type"] == "item" and c["permanent"] for c in cards)
    assert any(c["type"] == "item" and not c["permanent"] for c in cards)


def test_every_ability_and_special_attack_shape_is_used():
    dinos = [c for c in pool() if c["type"] == "dinosaur"]
    for ability in ("paralyze", "poisonous", "wound", "spiked", "camouflaged"):
        assert any(d.get(ability) for d in dinos), ability
    for d in dinos:
        for s in d["specials"] or []:
            assert set(s) == {"name", "cost", "effect"}, (d["id"], s)
            assert set(s["cost"]) <= {"attack", "evade", "defend"} and sum(s["cost"].values()) >= 1
        assert len(d["specials"] or []) <= 3
    assert max(len(d["specials"] or []) for d in dinos) == 3


@pytest.mark.parametrize("deck", STARTERS, ids=[p.stem for p in STARTERS])
def test_starter_deck_is_legal(deck):
    code, out = run_cli("validate", GAME, str(deck), "--format", "json")
    doc = json.loads(out)
    assert code == 0, doc["problems"]
    assert doc["files"][0]["cards"] == 60


def test_at_least_two_starter_decks_and_the_printed_pool_holds_them_all():
    assert len(STARTERS) >= 2
    need: dict[str, int] = {}
    for deck in STARTERS:
        for cid, n in deck_counts(deck).items():
            need[cid] = need.get(cid, 0) + n
    copies = {c["id"]: c["copies"] for c in pool()}
    short = {cid: (n, copies.get(cid)) for cid, n in need.items() if copies.get(cid, 0) < n}
    assert not short, f"printed copies below what both starter decks need: {short}"


# ── BDB-CARD-1 and BDB-CARD-2: break the pool at a line ──────────────────────────────────────

# (rule, file, old, new, file the problem is reported in, text on the reported line)
POOL_BREAKS = [
    # no Defend card left in the pool → reported at the subtype constraint
    ("BDB-CARD-1", COMBAT, "subtype: defend", "subtype: evade", CONSTRAINTS, "per: subtype"),
    # no Action left → reported at the per-type constraint
    ("BDB-CARD-1", "cards/dino_battles/actions.yaml", "defaults: {type: action,", "defaults: {type: item,",
     CONSTRAINTS, "per: type"),
    # a Dinosaur without HP → reported at the card's first line (not at the next key's)
    ("BDB-CARD-2", DINOS, "    hp: 90\n", "", DINOS, "  - id: chainsaw_rex\n"),
    ("BDB-CARD-2", DINOS, "    retreat_cost: 0\n    camouflaged: true\n", "    camouflaged: true\n", DINOS,
     "  - id: scrap_compy\n"),
]


@pytest.mark.parametrize("rule,rel,old,new,at_file,at_text", POOL_BREAKS,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(POOL_BREAKS)])
def test_pool_rule_broken_at_its_line(game_copy, rule, rel, old, new, at_file, at_text):
    g = game_copy(GAME)
    g.edit(rel, old, new)
    line = line_of(g.path(at_file), at_text)
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, rule, at_file.split("/")[-1], line), probs


@pytest.mark.parametrize("rule", ["BDB-CARD-1", "BDB-CARD-2"])
def test_pool_rule_legal_twin(game_copy, rule):
    code, probs = game_copy(GAME).validate()
    assert code == 0 and not [p for p in probs if p["rule"] == rule]


def test_pool_needs_its_published_number_of_designs(game_copy):
    g = game_copy(GAME)
    g.edit("rules/dino_battles/params.yaml", "min_unique: 40", "min_unique: 400")
    code, probs = g.validate()
    assert code == 1
    hits = [p for p in probs if p["rule"] == "BDB-CARD-1"]
    assert hits and "at least 400" in hits[0]["message"]


# Abilities and Special Attack shapes are closed by the card schema: what breaks them is named
# at its line, a bad value by the Dinosaur's catalogue rule (the card type's `rule:`), with a hint
# where one helps.
SHAPE_BREAKS = [
    ("YAML-UNKNOWN-KEY", "    wound: 2\n", "    wounds: 2\n", "did you mean 'wound'?"),
    ("BDB-CARD-2", "    poisonous: 2\n", "    poisonous: 0\n", None),
    ("BDB-CARD-2", "    paralyze: true\n    specials:\n      - {name: Tesla Sail",
     "    paralyze: 2\n    specials:\n      - {name: Tesla Sail", None),
]


@pytest.mark.parametrize("rule,old,new,hint", SHAPE_BREAKS, ids=[b[0] for b in SHAPE_BREAKS])
def test_ability_outside_the_set_is_reported(game_copy, rule, old, new, hint):
    g = game_copy(GAME)
    line = g.edit(DINOS, old, new)
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, rule, "dinosaurs.yaml", line), probs
    if hint:
        assert any(p.get("hint") == hint for p in probs if p["rule"] == rule)


def test_special_attack_cost_names_a_combat_card(game_copy):
    g = game_copy(GAME)
    g.edit(DINOS, "{name: Tesla Sail, cost: {attack: 1, defend: 1}", "{name: Tesla Sail, cost: {attack: 1, parry: 1}")
    code, probs = g.validate()
    assert code == 1
    assert any(p["rule"] == "YAML-UNKNOWN-KEY" and "parry" in p["message"] and p["file"].endswith("dinosaurs.yaml")
               for p in probs), probs


def test_special_attack_without_effect_is_reported(game_copy):
    g = game_copy(GAME)
    line = g.edit(DINOS, "{name: Scythe Claws, cost: {attack: 2}, effect:", "{name: Scythe Claws, cost: {attack: 2}, efect:")
    code, probs = g.validate()
    assert code == 1
    hits = [p for p in probs if p["rule"] == "YAML-UNKNOWN-KEY" and p.get("hint") == "did you mean 'effect'?"]
    assert hits and hits[0]["file"].endswith("dinosaurs.yaml") and hits[0]["line"] == line
    assert not [p for p in probs if p["rule"] == "YAML-MISSING-KEY"], probs    # the misspelt key is the missing one
    assert len(probs) == 1, probs


def test_unknown_combat_subtype_hint(game_copy):
    g = game_copy(GAME)
    line = g.edit(COMBAT, "subtype: evade", "subtype: evades")
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "BDB-CARD-1", "combat.yaml", line)   # the field's catalogue rule
    assert any(p.get("hint") == "did you mean 'evade'?" for p in probs)
    assert len(probs) == 1, probs       # not also a deck that "does not exist" it, nor a wrong count


def _add_fourth_special(g) -> int:
    return g.edit(DINOS, "      - {name: Overdrive Roar",
                  "      - {name: Tail Saw, cost: {attack: 1}, effect: \"+1 ATK.\"}\n      - {name: Overdrive Roar")


def test_fourth_special_attack_is_bdb_card_2(game_copy):
    g = game_copy(GAME)
    _add_fourth_special(g)
    specials_line = line_of(g.path(DINOS), "    specials:\n")
    code, probs = g.validate()
    assert code == 1
    assert any(p["rule"] == "BDB-CARD-2" and p["line"] in (specials_line, specials_line + 1) for p in probs), probs


# ── BDB-DECK-1 … 3: any deck file, `cardgen validate dino_battles FILE` ──────────────────────

STEEL = DECKS / "steel_jaws.yaml"


def deck_file(tmp_path: Path, old: str | None = None, new: str | None = None, name: str = "my-deck.yaml"):
    """A copy of the Steel Jaws starter with one edit; returns (path, line of the edit)."""
    text = STEEL.read_text(encoding="utf-8")
    line = 0
    if old is not None:
        assert old in text, old
        line = text[: text.index(old)].count("\n") + 1
        text = text.replace(old, new, 1)
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p, line


def validate_file(path: Path, root: Path = ROOT) -> tuple[int, list[dict]]:
    return problems_json("validate", GAME, str(path), root=root)


def test_deck_61_cards(tmp_path):
    p, _ = deck_file(tmp_path, "    attack: 15\n", "    attack: 16\n")
    code, probs = validate_file(p)
    assert code == 1
    line = line_of(p, "  cards:")                  # the deck's `cards:` key
    assert has_problem(probs, "BDB-DECK-1", "my-deck.yaml", line), probs
    assert any("61" in p["message"] and "60" in p["message"] for p in probs if p["rule"] == "BDB-DECK-1")


def test_deck_59_cards(tmp_path):
    p, _ = deck_file(tmp_path, "    defend: 8\n", "    defend: 7\n")
    code, probs = validate_file(p)
    assert code == 1 and [x["rule"] for x in probs] == ["BDB-DECK-1"]


def test_deck_fourth_copy_of_a_dinosaur(tmp_path):
    p, line = deck_file(tmp_path, "    razorclaw: 3\n    servo_allosaur: 2\n", "    razorclaw: 4\n    servo_allosaur: 1\n")
    code, probs = validate_file(p)
    assert code == 1
    assert has_problem(probs, "BDB-DECK-2", "my-deck.yaml", line), probs
    assert not [x for x in probs if x["rule"] == "BDB-DECK-1"]    # still 60 cards


def test_deck_fourth_copy_of_an_upgrade_listed_twice(tmp_path):
    """Copies add up over repeated lines (list form)."""
    p = tmp_path / "list-deck.yaml"
    p.write_text("deck:\n  name: Lists\n  cards:\n    - {id: razorclaw, count: 3}\n    - {id: med_gel, count: 2}\n"
                 "    - {id: med_gel, count: 2}\n    - {id: attack, count: 53}\n", encoding="utf-8")
    code, probs = validate_file(p)
    assert code == 1 and has_problem(probs, "BDB-DECK-2", "list-deck.yaml", 6), probs


def test_deck_combat_cards_are_unlimited(tmp_path):
    """The legal twin of BDB-DECK-2: 40 Attack cards are fine."""
    p = tmp_path / "aggro.yaml"
    p.write_text("deck:\n  name: All Out\n  cards:\n    razorclaw: 3\n    chainsaw_rex: 3\n    med_gel: 3\n"
                 "    overload: 3\n    attack: 40\n    evade: 8\n", encoding="utf-8")
    code, probs = validate_file(p)
    assert code == 0, probs


def test_deck_without_a_dinosaur(tmp_path):
    p = tmp_path / "no-dinos.yaml"
    p.write_text("deck:\n  name: No Dinos\n  cards:\n    med_gel: 3\n    attack: 57\n", encoding="utf-8")
    code, probs = validate_file(p)
    assert code == 1
    assert has_problem(probs, "BDB-DECK-3", "no-dinos.yaml", 3), probs     # the deck's `cards:`
    assert [x["rule"] for x in probs] == ["BDB-DECK-3"]


def test_deck_with_one_dinosaur_is_enough(tmp_path):
    p = tmp_path / "one-dino.yaml"
    p.write_text("deck:\n  name: Lonely\n  cards:\n    med_gel: 3\n    scrap_compy: 1\n    attack: 56\n", encoding="utf-8")
    code, probs = validate_file(p)
    assert code == 0, probs


def test_deck_unknown_card_id_with_hint(tmp_path):
    p, line = deck_file(tmp_path, "    med_gel: 2\n", "    med_gell: 2\n")
    code, probs = validate_file(p)
    assert code == 1
    assert has_problem(probs, "CARD-UNKNOWN-ID", "my-deck.yaml", line), probs
    hit = next(x for x in probs if x["rule"] == "CARD-UNKNOWN-ID")
    assert hit["hint"] == "did you mean 'med_gel'?"


def test_deck_problems_all_reported_in_text_form(tmp_path):
    p, _ = deck_file(tmp_path, "    razorclaw: 3\n", "    razorclaw: 4\n")
    text = p.read_text(encoding="utf-8").replace("    med_gel: 2\n", "    medgel: 2\n")
    p.write_text(text, encoding="utf-8")
    code, out = run_cli("validate", GAME, str(p))
    assert code == 1
    lines = [x for x in out.splitlines() if ": BDB-" in x or ": CARD-" in x]
    assert any(f"my-deck.yaml:{line_of(p, '    razorclaw: 4')}:" in x and ": BDB-DECK-2 error: " in x for x in lines)
    assert any(f"my-deck.yaml:{line_of(p, '    medgel: 2')}:" in x and ": CARD-UNKNOWN-ID error: " in x for x in lines)


def test_deck_file_of_the_wrong_kind(tmp_path):
    p = tmp_path / "party.yaml"
    p.write_text("party:\n  name: Nope\n  cards: {razorclaw: 1}\n", encoding="utf-8")
    code, probs = validate_file(p)
    assert code == 1 and has_problem(probs, "YAML-UNKNOWN-KEY", "party.yaml", 1)


@pytest.mark.parametrize("rule", ["BDB-DECK-1", "BDB-DECK-2", "BDB-DECK-3"])
def test_deck_rule_legal_twin(tmp_path, rule):
    p, _ = deck_file(tmp_path)
    code, probs = validate_file(p)
    assert code == 0 and not [x for x in probs if x["rule"] == rule]


def test_kept_starter_deck_is_checked_by_game_validation(game_copy):
    g = game_copy(GAME)
    line = g.edit("cards/dino_battles/decks/iron_herd.yaml", "    ankylo_tank: 2\n", "    ankylo_tank: 4\n")
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, "BDB-DECK-2", "iron_herd.yaml", line)
    assert has_problem(probs, "BDB-DECK-1", "iron_herd.yaml")


def test_deck_numbers_come_from_params(game_copy):
    """deck_size and copy_limit live once, in params.yaml."""
    g = game_copy(GAME)
    g.edit("rules/dino_battles/params.yaml", "deck_size: 60", "deck_size: 61")
    g.edit("rules/dino_battles/params.yaml", "copy_limit: 3", "copy_limit: 2")
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, "BDB-DECK-1", "steel_jaws.yaml") and has_problem(probs, "BDB-DECK-1", "iron_herd.yaml")
    assert has_problem(probs, "BDB-DECK-2", "steel_jaws.yaml", line_of(g.path("cards/dino_battles/decks/steel_jaws.yaml"),
                                                                      "    razorclaw: 3"))


# ── params and print ─────────────────────────────────────────────────────────────────────────

def test_params_name_every_rules_number():
    p = yaml.safe_load((ROOT / "rules" / GAME / "params.yaml").read_text(encoding="utf-8"))
    assert p["players"] == {"min": 2, "max": 2}
    assert (p["hand_size"], p["comp_cards"], p["bench_max"], p["item_zone_max"], p["kos_to_win"]) == (6, 4, 3, 5, 3)
    assert (p["poison_hp"], p["wound_hp_per_token"], p["deck_size"], p["copy_limit"]) == (10, 5, 60, 3)
    assert p["copy_limit_exempt"] == {"type": ["combat"]}
    assert p["new_hand"]["free_new_hands"] == 1 and p["new_hand"]["penalty_per_new_hand"] == 1
    assert p["new_hand"]["no_dinosaur_free"] is True
    ids = {r["id"] for r in p["rulings"]}
    assert {"BDB-CMB-5", "BDB-DECK-3", "BDB-END-2"} <= ids
    assert all(set(r) == {"id", "text"} for r in p["rulings"])


def test_build_prints_every_copy_with_backs(full_build):
    pdf = full_build.game(GAME) / "cards.pdf"
    assert pdf.exists() and (full_build.game(GAME) / "duplex-calibration.pdf").exists()
    total = sum(c["copies"] for c in pool())
    from pypdf import PdfReader
    assert len(PdfReader(str(pdf)).pages) == 2 * math.ceil(total / 9)
    qpdf_check(pdf)


# ── the documented format (docs/decks.md) ───────────────────────────────────────────────────

def _doc_blocks() -> list[tuple[str, str]]:
    """(language, text) of every fenced block of docs/decks.md."""
    blocks, current, lang = [], None, ""
    for line in (ROOT / "docs" / "decks.md").read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current, lang = [], line[3:].strip()
            else:
                blocks.append((lang, "".join(current)))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_docs_complete_example_is_the_starter_deck():
    yaml_blocks = [text for lang, text in _doc_blocks() if lang == "yaml"]
    assert STEEL.read_text(encoding="utf-8") in yaml_blocks


def test_docs_bad_deck_output_is_real(tmp_path):
    """The documented run (a fourth Razorclaw, a misspelt Med-Gel) prints exactly those problems."""
    shown = next(text for lang, text in _doc_blocks() if text.startswith("$ cardgen validate dino_battles my-deck"))
    p, _ = deck_file(tmp_path, "    razorclaw: 3\n", "    razorclaw: 4\n")
    p.write_text(p.read_text(encoding="utf-8").replace("    med_gel: 2\n", "    med_gell: 2\n"), encoding="utf-8")
    code, out = run_cli("validate", GAME, str(p))
    assert code == 1
    want = [x for x in shown.splitlines()[1:] if ": BDB-" in x or ": CARD-" in x]
    got = [x.replace(str(p), "my-deck.yaml") for x in out.splitlines() if ": BDB-" in x or ": CARD-" in x]
    assert want and got == want

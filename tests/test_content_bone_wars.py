"""Bone Wars content rules (BW-CARD-1 … 3, the reference cards) by rule ID and line,
the params that the checker and rulebook read, and the printed cards."""

import json

import pytest
import yaml

from tests.conftest import ROOT, has_problem, problems_json, qpdf_check, run_cli

GAME = "bone_wars"
SKULLS = "cards/bone_wars/skulls.yaml"
TAILS = "cards/bone_wars/tails.yaml"
LIMBS = "cards/bone_wars/limbs.yaml"
REFERENCE = "cards/bone_wars/reference.yaml"
PARAMS = "rules/bone_wars/params.yaml"
CONSTRAINTS = "rules/bone_wars/constraints.yaml"


def _yaml(rel):
    return yaml.safe_load((ROOT / rel).read_text(encoding="utf-8"))


def _line_of(g, rel, text):
    src = g.path(rel).read_text(encoding="utf-8")
    return src[: src.index(text)].count("\n") + 1


@pytest.fixture(scope="module")
def cards():
    code, out = run_cli("cards", GAME, "--format", "json")
    assert code == 0
    return json.loads(out)["cards"]


def test_published_content_is_clean():
    code, probs = problems_json("validate", GAME)
    assert code == 0, probs
    assert probs == []


# --- the deck as published -------------------------------------------------------------

def test_deck_size_and_part_type_spread(cards):
    params = _yaml(PARAMS)
    parts = [c for c in cards if c["type"] == "part"]
    assert sum(c["copies"] for c in parts) == params["deck_size"] == 60
    per_type = {}
    for c in parts:
        per_type[c["part"]] = per_type.get(c["part"], 0) + c["copies"]
    assert per_type == {"skull": 15, "torso": 15, "limbs": 15, "tail": 15}
    assert sum(c["copies"] for c in cards if c["type"] == "reference") == params["players"]["max"]


def test_every_trait_is_on_several_cards(cards):
    params = _yaml(PARAMS)
    on = {t: 0 for t in params["traits"]}
    for c in cards:
        for t in c.get("traits") or []:
            on[t] += c["copies"]
    assert all(n >= 5 for n in on.values()), on


def test_stats_are_plausible(cards):
    for c in cards:
        if c["type"] != "part":
            continue
        assert all(0 <= c[s] <= 7 for s in ("str", "def", "atk", "hp")), c
        assert c["hp"] >= 1, c                        # a part that adds nothing to survival is pointless
        assert 6 <= c["str"] + c["def"] + c["atk"] + c["hp"] / 2 + 1.5 * len(c["traits"]) <= 12, c


# --- one source for every rules number ------------------------------------------------

def test_params_hold_every_rules_number():
    p = _yaml(PARAMS)
    assert p["players"] == {"min": 2, "max": 4}
    assert (p["hand_size"], p["starting_hp"], p["die"], p["draw_per_turn"]) == (7, 20, 20, 1)
    assert p["tie_damage"] == {"divisor": 2, "rounding": "down"}
    assert p["intimidating_str_penalty"] == 2
    assert {r["id"] for r in p["rulings"]} >= {"BW-CARD-2", "BW-CARD-3", "BW-SETUP-3", "BW-CREATE-4", "BW-ATK-7"}
    assert all(set(r) == {"id", "text"} for r in p["rulings"])


def test_deck_min_is_the_catalogue_formula():
    p = _yaml(PARAMS)
    assert p["deck_min"] == p["players"]["max"] * p["hand_size"] + p["deck_extra"] == 48


def test_game_yaml_enums_follow_params():
    """Field enums read params.yaml: the lists are written once."""
    p, g = _yaml(PARAMS), _yaml("rules/bone_wars/game.yaml")
    fields = g["card_types"]["part"]["fields"]
    assert fields["part"]["enum"] == {"param": "part_types"}
    assert fields["traits"]["item"]["enum"] == {"param": "traits"}
    assert "players" not in g and p["players"] == {"min": 2, "max": 4}      # the count lives once, in params
    assert set(p["traits"]) <= set(g["icons"]) and set(p["part_types"]) <= set(g["icons"])
    assert [t["name"] for t in p["traits"].values()] == ["Haste", "Flying", "Marine", "Reach", "Trample",
                                                         "Intimidating", "Vigilant"]
    assert [t["name"] for t in p["part_types"].values()] == ["Skull", "Torso", "Limbs", "Tail"]


# --- each rule broken at its line, and its legal twin -----------------------------------

# (rule, file, old, new): each edit breaks the rule at the edited line.
BREAKS = [
    # BW-CARD-1: Traits only from the seven; stats whole numbers >= 0
    ("BW-CARD-1", SKULLS, "atk: 3, hp: 2, traits: [haste],", "atk: 3, hp: 2, traits: [haste, venomous],"),
    ("BW-CARD-1", SKULLS, "traits: [haste],", "traits: haste,"),
    ("BW-CARD-1", SKULLS, "name: Raptor Skull, copies: 3, str: 2,", "name: Raptor Skull, copies: 3, str: -1,"),
    ("BW-CARD-1", SKULLS, "name: Raptor Skull, copies: 3, str: 2,", "name: Raptor Skull, copies: 3, str: 2.5,"),
    ("BW-CARD-1", SKULLS, "def: 1, atk: 3, hp: 2, traits: [haste]", "def: 1, atk: three, hp: 2, traits: [haste]"),
    ("BW-CARD-2", SKULLS, "{id: skull_raptor,", "{id: skull_raptor, part: wing,"),
    # BW-CARD-3: the published center pile is exactly deck_size
    ("BW-CARD-3", SKULLS, "name: Tyrant King Skull, copies: 1,", "name: Tyrant King Skull, copies: 5,"),
    # one reference card per seat
    ("BW-SETUP-1", REFERENCE, "copies: 4}", "copies: 3}"),
]


@pytest.mark.parametrize("rule,rel,old,new", BREAKS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKS)])
def test_rule_broken_at_its_line(game_copy, rule, rel, old, new):
    g = game_copy(GAME)
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, rule, rel.split("/")[-1], line), probs


def test_unknown_trait_names_the_choices(game_copy):
    g = game_copy(GAME)
    line = g.edit(SKULLS, "traits: [haste],", "traits: [hast],")
    code, probs = g.validate()
    assert code == 1
    hit = [p for p in probs if p["rule"] == "BW-CARD-1" and p["line"] == line]
    assert hit and "hast" in hit[0]["message"] and "'haste'" in hit[0]["message"], probs


def test_missing_stat_is_reported_at_the_card(game_copy):
    g = game_copy(GAME)
    line = g.edit(SKULLS, "name: Raptor Skull, copies: 3, str: 2, def: 1,", "name: Raptor Skull, copies: 3, str: 2,")
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, "BW-CARD-1", "skulls.yaml", line), probs
    assert any("'def'" in p["message"] for p in probs if p["rule"] == "BW-CARD-1")


def test_card_1_legal_twin_every_trait_and_zero_stats(game_copy):
    """Zero stats, no Traits and three Traits on one part are all legal, and still print."""
    g = game_copy(GAME)
    g.edit(SKULLS, "str: 2, def: 1, atk: 3, hp: 2, traits: [haste],",
           "str: 0, def: 0, atk: 0, hp: 0, traits: [],")
    g.edit(SKULLS, "traits: [marine],", "traits: [marine, reach, intimidating],")
    code, probs = g.validate()
    assert code == 0, probs
    assert probs == []


def test_card_2_a_ruled_part_type_missing(game_copy):
    g = game_copy(GAME)
    g.edit(TAILS, "defaults: {type: part, part: tail,", "defaults: {type: part, part: torso,")
    code, probs = g.validate()
    assert code == 1
    line = _line_of(g, CONSTRAINTS, "rule: BW-CARD-2")
    assert has_problem(probs, "BW-CARD-2", "constraints.yaml", line), probs
    assert any("tail" in p["message"] for p in probs if p["rule"] == "BW-CARD-2")
    assert {p["rule"] for p in probs} == {"BW-CARD-2"}        # 60 cards still: only the type rule


def test_card_2_a_new_part_type_needs_cards(game_copy):
    g = game_copy(GAME)
    g.edit(PARAMS, "  tail: {name: Tail, icon: tail}\n", "  tail: {name: Tail, icon: tail}\n  neck: {name: Neck}\n")
    code, probs = g.validate()
    assert code == 1
    line = _line_of(g, CONSTRAINTS, "rule: BW-CARD-2")
    assert has_problem(probs, "BW-CARD-2", "constraints.yaml", line), probs


def test_card_3_below_the_formula_minimum(game_copy):
    g = game_copy(GAME)
    g.write(SKULLS, "defaults: {type: part, part: skull, set: core}\ncards:\n"
            "  - {id: skull_only, name: Lone Skull, copies: 4, str: 2, def: 1, atk: 3, hp: 2}\n")
    g.write(TAILS, "defaults: {type: part, part: tail, set: core}\ncards:\n"
            "  - {id: tail_only, name: Lone Tail, copies: 1, str: 2, def: 1, atk: 3, hp: 2}\n")
    code, probs = g.validate()        # 15 + 15 + 4 + 1 = 35 < 4 × 7 + 20
    assert code == 1
    line = _line_of(g, CONSTRAINTS, "min: {param: deck_min}")          # too few: the rule asking for more
    assert has_problem(probs, "BW-CARD-3", "constraints.yaml", line), probs
    msgs = [p["message"] for p in probs if p["rule"] == "BW-CARD-3"]
    assert any("35" in m and "at least 48" in m for m in msgs), msgs
    assert any("exactly 60" in m for m in msgs), msgs


def test_card_3_minimum_reads_params(game_copy):
    g = game_copy(GAME)
    g.edit(PARAMS, "deck_min: 48 ", "deck_min: 61 ")
    code, probs = g.validate()
    assert code == 1
    assert any(p["rule"] == "BW-CARD-3" and "at least 61" in p["message"] for p in probs), probs


@pytest.mark.parametrize("rule", ["BW-CARD-2", "BW-CARD-3", "BW-SETUP-1", "YAML-TYPE", "YAML-RANGE"])
def test_rule_legal_twin(game_copy, rule):
    code, probs = game_copy(GAME).validate()
    assert code == 0 and not [p for p in probs if p["rule"] == rule]


def test_undefined_param_in_a_constraint(game_copy):
    g = game_copy(GAME)
    line = g.edit(CONSTRAINTS, "min: {param: deck_min}", "min: {param: deck_minimum}")
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, "RULES-PARAM", "constraints.yaml", line), probs


def test_bad_placeholder_in_trait_text_is_a_problem_not_a_crash(game_copy):
    g = game_copy(GAME)
    g.edit(PARAMS, "%(intimidating_str_penalty)s", "%(intimidation_penalty)s")
    code, probs = g.validate()
    assert code == 1
    assert any(p["rule"] == "TEMPLATE-EXPR" for p in probs), probs


def test_overlong_trait_text_overflows_visibly(game_copy):
    g = game_copy(GAME)
    g.edit(PARAMS, 'text: "Can block even after it attacked."',
           'text: "' + "Can block even after it attacked, and then some more. " * 8 + '"')
    code, probs = g.validate()
    assert code == 1
    assert any(p["rule"] == "TEXT-OVERFLOW" for p in probs), probs


# --- the printed cards --------------------------------------------------------------------

def test_build_prints_every_card_with_its_back(full_build):
    out = full_build.game(GAME)
    assert (out / "cards.pdf").is_file() and (out / "duplex-calibration.pdf").is_file()
    qpdf_check(out / "cards.pdf")
    manifest = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    fronts = [c for p in manifest["pages"] if p["side"] == "front" for c in p["cards"]]
    backs = [c for p in manifest["pages"] if p["side"] == "back" for c in p["cards"]]
    assert len(fronts) == len(backs) == 64                   # 60 parts + 4 reference cards
    assert sum(1 for c in fronts if c["id"] == "reference") == 4

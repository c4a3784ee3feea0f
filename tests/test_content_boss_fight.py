"""Boss Fight content and construction rules (BF-SET, BF-CARD, BF-BUILD, BF-DECK, BF-PLAYERS):
each rule broken at its file and line (exit 1) and its legal twin (exit 0); presets; printables."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber
import pytest

from cardgen.layout.elements.footprint import diagram, parse_cells
from cardgen.scene import Polygon
from tests.conftest import ROOT, has_problem, pdf_pages, problems_json, qpdf_check, run_cli

GAME = "boss_fight"
PRESETS = "cards/boss_fight/presets"
WYRM = f"{PRESETS}/boss_ember_wyrm.yaml"
COLOSSUS = f"{PRESETS}/boss_bone_colossus.yaml"
LANTERN = f"{PRESETS}/party_lantern_company.yaml"
VAEL = f"{PRESETS}/party_shadows_of_vael.yaml"
BOSS_DECK = f"{PRESETS}/deck_boss_starter.yaml"
PIECES = "cards/boss_fight/boss_pieces.yaml"
MM = 72 / 25.4


def rules_of(probs):
    return {p["rule"] for p in probs}


# --------------------------------------------------------------------------- published content


def test_published_content_is_clean():
    code, probs = problems_json("validate", GAME)
    assert code == 0 and probs == [], probs


def test_set_counts_match_the_seed():
    code, out = run_cli("cards", GAME, "--format", "json")
    assert code == 0
    unique: dict[tuple[str, str], int] = {}
    for c in json.loads(out)["cards"]:
        unique[(c["set"], c["type"])] = unique.get((c["set"], c["type"]), 0) + 1
    assert unique == {("boss", "boss_piece"): 51, ("boss", "equipment"): 8, ("boss", "ability"): 8,
                      ("boss", "action"): 9, ("hero", "hero"): 12, ("hero", "equipment"): 15,
                      ("hero", "ability"): 14, ("hero", "action"): 19, ("neutral", "token"): 2,
                      ("neutral", "action"): 3}


def test_seed_examples_are_cards():
    _, out = run_cli("cards", GAME, "--format", "json")
    cards = {c["id"]: c for c in json.loads(out)["cards"]}
    walk = cards["walk"]
    assert walk["name"] == "Walk Movement" and walk["kind"] == "move" and walk["move"] == 2
    assert "Move 2 tiles in any direction" in walk["text"]
    assert {cards[a]["attack"] for a in ("basic_attack", "heavy_attack", "special_attack")} == \
        {"basic", "heavy", "special"}
    assert any(c.get("kind") == "item" for c in cards.values())
    assert {c["piece_type"] for c in cards.values() if c["type"] == "boss_piece"} == \
        {"head", "body", "leg", "arm", "special"}
    assert any(c.get("footprint") == [] for c in cards.values() if c["type"] == "boss_piece")


def test_piece_types_lean_the_way_the_seed_says():
    """Heads add Intelligence (almost always), Bodies bulk Health, Legs raise Agility, Arms bring
    Strength and the Equipment Slots: each type leads the pool in its statistic."""
    _, out = run_cli("cards", GAME, "--format", "json")
    pieces = [c for c in json.loads(out)["cards"] if c["type"] == "boss_piece"]
    heads = [c for c in pieces if c["piece_type"] == "head"]
    assert sum(c["intelligence"] > 0 for c in heads) >= 0.8 * len(heads)

    def mean(kind, stat):
        of = [c[stat] for c in pieces if c["piece_type"] == kind]
        return sum(of) / len(of)

    kinds = ("head", "body", "leg", "arm", "special")
    for kind, stat in (("head", "intelligence"), ("body", "health"), ("leg", "agility"), ("arm", "strength"),
                       ("arm", "slots")):
        assert mean(kind, stat) == max(mean(k, stat) for k in kinds), (kind, stat)
    assert all(c["footprint"] for c in pieces if c["piece_type"] == "body")     # bodies give the boss its size


PRESET_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / PRESETS).glob("*.yaml"))


def test_at_least_three_bosses_and_three_parties():
    kinds = [Path(p).name.split("_")[0] for p in PRESET_FILES]
    assert kinds.count("boss") >= 3 and kinds.count("party") >= 3


@pytest.mark.parametrize("rel", PRESET_FILES, ids=[Path(p).stem for p in PRESET_FILES])
def test_every_preset_is_legal(rel):
    code, out = run_cli("validate", GAME, str(ROOT / rel), "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["problems"] == [], doc["problems"]
    f = doc["files"][0]
    if f["kind"] in ("boss", "party"):
        assert f["points"]["limit"] == 100 and f["points"]["total"] <= 100


def test_boss_figures_are_computed():
    code, out = run_cli("validate", GAME, str(ROOT / WYRM), "--format", "json")
    f = json.loads(out)["files"][0]
    assert code == 0
    # serpent coils + dragon skull + spiked tail + 2 raptor legs + mantis scythe + crab claw
    assert f["stats"] == {"Health": 20 + 3 + 3 + 2 + 2 + 1 + 2, "Intelligence": 3, "Strength": 2 + 1 + 2 + 1 + 1 + 2 + 3,
                          "Agility": 2 + 2 + 2 + 2, "Equipment Slots": 2}
    assert f["size"] == 7 and f["footprint"].startswith("[-1, 0], [0, 0]")
    assert f["points"] == {"total": 94, "limit": 100, "pieces": 59, "equipment": 17, "abilities": 18}
    assert f["movement"].startswith("full")
    assert "scythe (Mantis Scythe): 1 of 1 used — Bone Cleaver" in f["slots"]
    assert f["deck"] == 30 and f["cards"] == 7 + 2 + 2 + 30


def test_text_summary_names_stats_and_slots():
    code, out = run_cli("validate", GAME, str(ROOT / COLOSSUS))
    assert code == 0
    assert "stats: Health" in out and "Equipment Slots 6" in out
    assert "left_arm (Skeletal Arm): 2 of 2 used — Bone Cleaver, Spiked Plating" in out
    assert "points: total 97, limit 100" in out


def test_party_figures():
    code, out = run_cli("validate", GAME, str(ROOT / VAEL), "--format", "json")
    f = json.loads(out)["files"][0]
    assert code == 0 and len(f["heroes"]) == 4 and f["points"]["total"] == 100
    assert f["players"].startswith("4 heroes: 2–5 players")


# --------------------------------------------------------------------------- pool rules (BF-SET, BF-CARD)

EXTRA_PIECE = ("  - {id: spare_horn, name: Spare Horn, piece_type: special, points: 3, health: 1, intelligence: 0,\n"
               "     strength: 0, agility: 0, slots: 0, footprint: [], text: \"A spare.\"}\n")


def test_bf_set_1_a_52nd_boss_piece(game_copy):
    g = game_copy(GAME)
    p = g.path(PIECES)
    text = p.read_text(encoding="utf-8")
    p.write_text(text + EXTRA_PIECE, encoding="utf-8")
    added = text.count("\n") + 1
    code, probs = g.validate()
    # too many designs: reported at the one added last
    assert code == 1 and has_problem(probs, "BF-SET-1", "boss_pieces.yaml", added), probs
    assert any("52 Boss Pieces" in x["message"] and "exactly 51" in x["message"] for x in probs)


def test_bf_set_1_a_missing_hero_action(game_copy):
    """Too few designs: reported at the constraint that asks for more (its set count in params)."""
    g = game_copy(GAME)
    g.edit("cards/boss_fight/actions.yaml", "id: regroup, name: Regroup, set: hero,",
           "id: regroup, name: Regroup, set: boss,")
    code, probs = g.validate()
    src = g.path("rules/boss_fight/constraints.yaml").read_text(encoding="utf-8")
    line = src[: src.index("set_counts.hero.action")].count("\n") + 1
    assert code == 1 and has_problem(probs, "BF-SET-1", "constraints.yaml", line), probs
    assert any("18 Hero Actions" in x["message"] and "exactly 19" in x["message"] for x in probs)
    assert any("10 Boss Actions" in x["message"] and "exactly 9" in x["message"] for x in probs)


POOL_BREAKS = [
    # (rule, file, old, new, the line offset of the problem from the edited line)
    ("BF-CARD-1", PIECES, "footprint: [[0, 0], [1, -1]],\n     text: \"**Many Mouths**",
     "footprint: [[1, 0], [1, -1]],\n     text: \"**Many Mouths**", 0),
    ("BF-CARD-1", PIECES, "id: hydra_heads, name: Hydra Heads, piece_type: head, points: 14,",
     "id: hydra_heads, name: Hydra Heads, piece_type: head, points: 14, set: hero,", 0),
    ("BF-CARD-2", "cards/boss_fight/heroes.yaml", "title: Knight, constitution: stalwart,",
     "title: Knight, constitution: sturdy,", 0),
    ("BF-CARD-2", "cards/boss_fight/heroes.yaml", "health: 12, intelligence: 2, strength: 4, agility: 2, feat_cost: 4,",
     "health: 12, intelligence: 2, strength: 4, agility: 2, feat_cost: 0,", 0),
    ("BF-CARD-3", "cards/boss_fight/equipment.yaml", "basic: {damage: 3, range: 1, sight: false},",
     "basic: {damage: 3, range: 1},", 0),
    ("BF-CARD-3", "cards/boss_fight/equipment.yaml", "id: chain_flail, name: Chain Flail, set: boss,",
     "id: chain_flail, name: Chain Flail, set: neutral,", 0),
    ("BF-CARD-4", "cards/boss_fight/actions.yaml", "kind: move, move: 2, copies: 12, max_copies: 6,",
     "kind: move, move: 3, copies: 12, max_copies: 6,", 1),
]


@pytest.mark.parametrize("rule,rel,old,new,off", POOL_BREAKS, ids=[f"{b[0]}-{i}" for i, b in enumerate(POOL_BREAKS)])
def test_pool_rule_broken_at_its_line(game_copy, rule, rel, old, new, off):
    g = game_copy(GAME)
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, rule, rel.split("/")[-1], line + off), probs


@pytest.fixture(scope="module")
def clean_run():
    return problems_json("validate", GAME)


@pytest.mark.parametrize("rule", ["BF-SET-1", "BF-CARD-1", "BF-CARD-2", "BF-CARD-3", "BF-CARD-4"])
def test_pool_rule_legal_twin(clean_run, rule):
    code, probs = clean_run
    assert code == 0 and rule not in rules_of(probs)


# --------------------------------------------------------------------------- construction rules

# (rule, file, old, new, file-end, line offset from the edited line, words the message must hold)
BUILD_BREAKS = [
    ("BF-DECK-1", BOSS_DECK, "lumber: 2,", "lumber: 1,", 0, ["29 action cards", "exactly 30"]),
    ("BF-DECK-1", BOSS_DECK, "lumber: 2,", "lumber: 3,", 0, ["31 action cards", "exactly 30"]),
    ("BF-DECK-1", BOSS_DECK, "lumber: 2,", "lumber: 1, rubble: 1,", 0, ["not Action cards"]),
    ("BF-DECK-2", LANTERN, "run: 2, charge: 3,", "run: 1, charge: 4,", 0, ["4 copies of 'charge'", "at most 3"]),
    ("BF-DECK-2", BOSS_DECK, "walk: 6,", "walk: 7, ", 0, ["7 copies of 'walk'", "at most 6"]),
    ("BF-BUILD-1", WYRM, "points_limit: 100", "points_limit: 90", 0, ["totals 94 points", "4 over the limit of 90"]),
    ("BF-BUILD-2", WYRM, "- {id: spiked_tail, at: [3, 1]}", "- {id: spiked_tail, at: [5, 1]}", 0,
     ["not one connected shape", "spiked_tail"]),
    ("BF-BUILD-2", WYRM, "- {id: spiked_tail, at: [3, 1]}", "- {id: spiked_tail, at: [2, 1]}", 0,
     ["both cover [2, 1]"]),
    ("BF-BUILD-2", WYRM, "- {id: spiked_tail, at: [3, 1]}", "- {id: spiked_tail, at: [3, 1]}\n    - {id: thick_hide}",
     1, ["an Ability card, not a Boss Piece"]),
    ("BF-BUILD-3", COLOSSUS, "- {id: eldritch_focus, piece: right_arm}", "- {id: eldritch_focus, piece: left_arm}", 0,
     ["piece 'left_arm' (Skeletal Arm) has 0 free of 2"]),
    ("BF-BUILD-3", LANTERN, "equipment: [longbow]", "equipment: [longbow, sling]", 0, ["Wren has 0 free of 2"]),
    ("BF-BUILD-3", COLOSSUS, "- {id: eldritch_focus, piece: right_arm}", "- {id: eldritch_focus, piece: rigth_arm}", 0,
     ["does not have"]),
    ("BF-BUILD-4", WYRM, "abilities: [thick_hide, regeneration]", "abilities: [thick_hide, spiked_plating]", 0,
     ["an Equipment card, not an Ability"]),
    ("BF-BUILD-5", WYRM, "- {id: crab_claw, as: claw}", "- {id: crab_claw, as: claw}\n    - {id: aldric}", 1,
     ["'aldric' (Sir Aldric) is a Hero Set card", "takes only Boss Set and Neutral Set cards"]),
    ("BF-BUILD-5", WYRM, "    roar: 1\n", "    roar: 1\n    run: 1\n", 1, ["'run' (Run) is a Hero Set card"]),
    ("BF-BUILD-5", LANTERN, "equipment: [holy_symbol]", "equipment: [holy_symbol, bone_cleaver]", 0,
     ["is a Boss Set card", "takes only Hero Set and Neutral Set cards"]),
    ("BF-BUILD-5", BOSS_DECK, "lumber: 2,", "lumber: 1, run: 1,", 0, ["is a Hero Set card"]),
    ("BF-BUILD-6", LANTERN, "- id: wren", "- id: aldric", 0, ["2 copies of 'aldric'", "at most 1"]),
    ("CARD-UNKNOWN-ID", WYRM, "- {id: dragon_skull, at: [-1, 0]}", "- {id: dragon_skul, at: [-1, 0]}", 0,
     ["dragon_skul"]),
    ("CARD-UNKNOWN-ID", LANTERN, "basic_attack: 5,", "basic_atack: 5,", 0, ["basic_atack"]),
]


@pytest.mark.parametrize("rule,rel,old,new,off,words", BUILD_BREAKS,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(BUILD_BREAKS)])
def test_build_rule_broken_at_its_line(game_copy, rule, rel, old, new, off, words):
    g = game_copy(GAME)
    line = g.edit(rel, old, new) + off
    code, probs = g.validate(rel)
    assert code == 1, probs
    hits = [p for p in probs if p["rule"] == rule and p["file"].endswith(Path(rel).name) and p["line"] == line]
    assert hits, (line, probs)
    assert any(all(w in p["message"] for w in words) for p in hits), hits


@pytest.fixture(scope="module")
def presets_run():
    return problems_json("validate", GAME, *[str(ROOT / p) for p in PRESET_FILES])


@pytest.mark.parametrize("rule", sorted({b[0] for b in BUILD_BREAKS}))
def test_build_rule_legal_twin(presets_run, rule):
    code, probs = presets_run
    assert code == 0 and rule not in rules_of(probs), probs


# Issue 3's bad inputs, as a designer sees them in the terminal: FILE:LINE:COL: RULE error: …
# (case: index into BUILD_BREAKS, the rule it must be)
ISSUE_BAD_INPUTS = {
    "deck-29": (0, "BF-DECK-1"), "deck-31": (1, "BF-DECK-1"), "fourth-copy": (3, "BF-DECK-2"),
    "hero-card-in-boss": (13, "BF-BUILD-5"), "equipment-beyond-slots": (9, "BF-BUILD-3"),
    "disconnected": (6, "BF-BUILD-2"), "points-over": (5, "BF-BUILD-1"), "unknown-id": (18, "CARD-UNKNOWN-ID"),
}


@pytest.mark.parametrize("case", list(ISSUE_BAD_INPUTS), ids=list(ISSUE_BAD_INPUTS))
def test_issue_bad_input_in_text_form(game_copy, case):
    index, want = ISSUE_BAD_INPUTS[case]
    rule, rel, old, new, off, words = BUILD_BREAKS[index]
    assert rule == want
    g = game_copy(GAME)
    line = g.edit(rel, old, new) + off
    code, out = run_cli("validate", GAME, str(g.path(rel)), root=g.root)
    assert code == 1
    pat = re.compile(rf"^\S*{re.escape(Path(rel).name)}:{line}:(\d+): {re.escape(rule)} error: (.*)$")
    hits = [m for m in map(pat.match, out.splitlines()) if m]
    assert hits, out
    assert all(int(m.group(1)) >= 1 for m in hits)
    assert any(all(w in m.group(2) for w in words) for m in hits), out
    if rule == "CARD-UNKNOWN-ID":
        assert any("did you mean 'dragon_skull'?" in m.group(2) for m in hits), out


def test_unknown_id_suggests_the_nearest(game_copy):
    g = game_copy(GAME)
    g.edit(WYRM, "- {id: dragon_skull, at: [-1, 0]}", "- {id: dragon_skul, at: [-1, 0]}")
    g.edit(LANTERN, "basic_attack: 5,", "basic_atack: 5,")
    _, probs = g.validate(WYRM, LANTERN)
    hints = [p.get("hint") for p in probs if p["rule"] == "CARD-UNKNOWN-ID"]
    assert sorted(hints) == ["did you mean 'basic_attack'?", "did you mean 'dragon_skull'?"], probs   # each once


def test_unknown_id_in_a_boss_deck_is_reported_once(game_copy):
    g = game_copy(GAME)
    line = g.edit(WYRM, "    lumber: 2\n", "    lumbr: 2\n")
    g.edit(BOSS_DECK, "lumber: 2,", "lumbr: 2,")
    code, probs = g.validate(WYRM, BOSS_DECK)
    hits = [p for p in probs if p["rule"] == "CARD-UNKNOWN-ID"]
    assert code == 1 and len(hits) == 2 and {p["file"].split("/")[-1] for p in hits} == \
        {"boss_ember_wyrm.yaml", "deck_boss_starter.yaml"}, probs
    assert has_problem(hits, "CARD-UNKNOWN-ID", "boss_ember_wyrm.yaml", line)


def test_no_limit_build_may_exceed_the_beginner_limit(game_copy):
    g = game_copy(GAME)
    g.edit(WYRM, "points_limit: 100", "points_limit: none")
    g.edit(WYRM, "abilities: [thick_hide, regeneration]", "abilities: [thick_hide, regeneration, enrage, burrow]")
    code, out = run_cli("validate", GAME, str(g.path(WYRM)), "--format", "json", root=g.root)
    f = json.loads(out)["files"][0]
    assert code == 0 and f["points"]["total"] == 94 + 8 + 9 and f["points"]["limit"] == "none"


def test_abilities_cost_points(game_copy):
    """BF-BUILD-4: abilities are unlimited in number but each counts toward the limit."""
    g = game_copy(GAME)
    g.edit(WYRM, "abilities: [thick_hide, regeneration]", "abilities: [thick_hide, regeneration, devour]")
    code, probs = g.validate(WYRM)
    assert code == 0            # 94 + 6 = 100: at the limit
    line = g.edit(WYRM, "abilities: [thick_hide, regeneration, devour]",
                  "abilities: [thick_hide, regeneration, devour, brood_wall]")
    code, probs = g.validate(WYRM)
    assert code == 1 and any(p["rule"] == "BF-BUILD-1" and "105 points, 5 over" in p["message"] for p in probs)
    assert line


HIVE = f"{PRESETS}/boss_hive_queen.yaml"
# (file, old, new, line offset, words): an ability whose requirements the build does not meet
NEEDS_UNMET = [
    (HIVE, "    - {id: spider_leg, as: leg_1}\n    - {id: spider_leg, as: leg_2}\n    - {id: spider_leg, as: leg_3}\n"
     "    - {id: spider_leg, as: leg_4}\n", "", -4, ["'burrow' (Burrow) requires a Leg piece (it has none)",
                                                 "The Hive Queen", "cannot use it"]),
    (WYRM, "abilities: [thick_hide, regeneration]", "abilities: [thick_hide, ancient_cunning]", 0,
     ["requires Intelligence 6 or more (it has 3)"]),
    (LANTERN, "equipment: [longbow]\n", "equipment: [longbow]\n      abilities: [arcane_surge, taunt]\n", 1,
     ["'arcane_surge' (Arcane Surge) requires Intelligence 4 or more (it has 3)", "Wren cannot use it"]),
    (LANTERN, "equipment: [longbow]\n", "equipment: [longbow]\n      abilities: [arcane_surge, taunt]\n", 1,
     ["'taunt' (Taunt) requires a Stalwart hero (it is wild)"]),
]


@pytest.mark.parametrize("rel,old,new,off,words", NEEDS_UNMET, ids=["no-leg", "boss-int", "hero-int", "constitution"])
def test_ability_requirements_unmet_as_built_warn(game_copy, rel, old, new, off, words):
    """An ability the build cannot use (requirements in its `needs`) is a BF-BUILD-4 warning at the ability's
    line: legal to take (exit 0), but the designer hears of it."""
    g = game_copy(GAME)
    line = g.edit(rel, old, new) + off
    if rel == HIVE:
        src = g.path(rel).read_text(encoding="utf-8")
        line = src[: src.index("abilities: [burrow")].count("\n") + 1
    g.edit(rel, "points_limit: 100", "points_limit: none")       # same line count: only the requirement is at stake
    code, probs = g.validate(rel)
    hits = [p for p in probs if p["rule"] == "BF-BUILD-4" and p["severity"] == "warning" and p["line"] == line]
    assert hits and any(all(w in p["message"] for w in words) for p in hits), (line, probs)
    assert code == 0 and not [p for p in probs if p["severity"] == "error"], probs


def test_ability_requirements_met_are_silent(presets_run):
    """The legal twin: every preset meets the requirements of its abilities (Hive Queen's Burrow: four legs)."""
    code, probs = presets_run
    assert code == 0 and probs == []


def test_ability_requires_text_states_its_needs(game_copy):
    """BF-CARD-4: `needs` and the printed `requires` say the same (the number lives in both; they must agree)."""
    g = game_copy(GAME)
    line = g.edit("cards/boss_fight/abilities.yaml", 'needs: {intelligence: 6}, requires: "Intelligence 6 or more"',
                  'needs: {intelligence: 5}, requires: "Intelligence 6 or more"')
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "BF-CARD-4", "abilities.yaml", line), probs
    assert any("Intelligence 5 or more" in p["message"] for p in probs if p["rule"] == "BF-CARD-4")
    g.edit("cards/boss_fight/abilities.yaml", "needs: {intelligence: 5}", "needs: {intelligence: 6, piece: tail}")
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "BF-CARD-4", "abilities.yaml", line), probs     # no such piece type


def test_party_without_heroes(game_copy):
    g = game_copy(GAME)
    rel = f"{PRESETS}/party_empty.yaml"
    g.write(rel, "party:\n  name: Nobody\n  heroes: []\n")
    code, probs = g.validate(rel)
    assert code == 1 and has_problem(probs, "BF-PLAYERS-1", "party_empty.yaml", 3)
    assert any("0 heroes" in p["message"] and "at least 1" in p["message"] for p in probs)


def test_size_zero_boss_is_one_hex(game_copy, tmp_path):
    g = game_copy(GAME)
    f = tmp_path / "tiny.yaml"
    deck = "{walk: 6, basic_attack: 6, heavy_attack: 3, stomp: 3, lumber: 3, unleash: 3, grab: 3, sweep: 3}"
    f.write_text(f"boss:\n  name: Floating Eye\n  pieces: [orb_of_eyes, floating_eyeball]\n  cards: {deck}\n")
    code, out = run_cli("validate", GAME, str(f), "--format", "json", root=g.root)
    doc = json.loads(out)
    assert code == 0, doc
    assert doc["files"][0]["size"] == 1 and doc["files"][0]["movement"].startswith("none")


def test_rotation_turns_a_footprint(game_copy, tmp_path):
    g = game_copy(GAME)
    f = tmp_path / "turned.yaml"
    deck = "{walk: 6, basic_attack: 6, heavy_attack: 3, stomp: 3, lumber: 3, unleash: 3, grab: 3, sweep: 3}"
    f.write_text("boss:\n  name: Turned\n  pieces:\n    - {id: centipede_segments, at: [0, 0], rotate: 1}\n"
                 f"  cards: {deck}\n")
    _, out = run_cli("validate", GAME, str(f), "--format", "json", root=g.root)
    fp = json.loads(out)["files"][0]["footprint"]
    assert fp == "[0, 0], [1, -1], [2, -2], [3, -3], [4, -4]"    # east turned 60°: north-east


def test_text_output_is_file_line_col_rule(game_copy):
    g = game_copy(GAME)
    line = g.edit(BOSS_DECK, "lumber: 2,", "lumber: 1,")
    code, out = run_cli("validate", GAME, str(g.path(BOSS_DECK)), root=g.root)
    assert code == 1
    first = out.splitlines()[0]
    assert f"deck_boss_starter.yaml:{line}:" in first and ": BF-DECK-1 error: " in first


def test_bad_yaml_in_a_build_is_reported_not_raised(game_copy):
    g = game_copy(GAME)
    g.edit(WYRM, "- {id: serpent_coils, at: [0, 0]}", "- {id: serpent_coils, at: [0, zero], rotate: half}")
    code, probs = g.validate(WYRM)
    assert code == 1 and {"YAML-TYPE"} <= rules_of(probs)
    g.edit(WYRM, "- {id: bone_cleaver, piece: scythe}", "- {id: bone_cleaver, on: scythe}")
    code, probs = g.validate(WYRM)
    assert any(p["rule"] == "YAML-UNKNOWN-KEY" and "on/off" in (p.get("hint") or "") for p in probs)


# --------------------------------------------------------------------------- the footprint element


def test_parse_cells():
    assert parse_cells("[[0, 0], [1, -1]]") == [(0, 0), (1, -1)]
    assert parse_cells([]) == [] and parse_cells("[]") == []
    assert parse_cells("[[0, 0, 1]]") is None and parse_cells("nonsense") is None


def test_diagram_fits_its_box():
    items = diagram([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], 10, 20, 30, 12, max_hex=9, anchor="#ff0000")
    polys = [i for i in items if isinstance(i, Polygon)]
    assert len(polys) == 5
    xs = [x for p in polys for x, _ in p.points]
    ys = [y for p in polys for _, y in p.points]
    assert min(xs) >= 10 - 1e-6 and max(xs) <= 40 + 1e-6 and min(ys) >= 20 - 1e-6 and max(ys) <= 32 + 1e-6
    assert len(diagram([], 0, 0, 10, 10, empty="none")) == 2       # a ghost hex and its caption


# --------------------------------------------------------------------------- printables


@pytest.fixture
def built(full_build):
    return full_build.game(GAME)


def test_build_writes_the_printables(built):
    for name in ("cards.pdf", "cards.json", "card-list.pdf", "presets.pdf", "duplex-calibration.pdf"):
        assert (built / name).is_file(), name
    for name in ("cards.pdf", "card-list.pdf", "presets.pdf"):
        qpdf_check(built / name)


def test_two_card_sizes_read_back_from_the_pdf(built):
    manifest = json.loads((built / "cards.json").read_text())
    want = {"tarot": (70.0, 120.0), "poker": (63.0, 88.0)}
    seen = set()
    by_type = {}
    _, out = run_cli("cards", GAME, "--format", "json")
    for c in json.loads(out)["cards"]:
        by_type[c["id"]] = c["type"]
    first = {}                      # the first front page of each size: read back from the PDF
    for entry in manifest["pages"]:
        size = entry["card_size"]
        seen.add(size)
        if entry["side"] == "front":
            first.setdefault(size, entry)
        for card in entry["cards"]:
            assert tuple(card["trim"][2:]) == want[size]
            assert (by_type[card["id"]] in ("boss_piece", "hero")) == (size == "tarot")
    assert seen == {"tarot", "poker"}
    with pdfplumber.open(built / "cards.pdf") as doc:
        assert len(doc.pages) == len(manifest["pages"])
        for size, entry in first.items():
            page = doc.pages[entry["page"] - 1]
            assert page.width / MM == pytest.approx(210, abs=0.1) and page.height / MM == pytest.approx(297, abs=0.1)
            rects = [(r["x0"] / MM, r["top"] / MM, r["width"] / MM, r["height"] / MM) for r in page.rects]
            w, h = want[size]
            b = entry["grid"]["bleed"]          # 3 mm, or narrower where the printer's margin needs it
            assert b == (3.0 if size == "tarot" else 1.1)
            for card in entry["cards"]:
                bx, by, bw, bh = card["bleed_box"]
                assert (bw, bh) == pytest.approx((w + 2 * b, h + 2 * b), abs=1e-6)
                x, y = card["trim"][:2]                # the background is laid out with 3 mm (clipped to b)
                assert any(abs(r[0] - x + 3) < 0.1 and abs(r[1] - y + 3) < 0.1 and abs(r[2] - w - 6) < 0.1
                           and abs(r[3] - h - 6) < 0.1 for r in rects), (size, card["id"])
    fronts = [p for p in manifest["pages"] if p["side"] == "front"]
    _, out = run_cli("cards", GAME, "--format", "json")
    assert sum(len(p["cards"]) for p in fronts) == sum(c["copies"] for c in json.loads(out)["cards"])


def test_card_list_lists_every_card(built):
    text = "\n".join(pdf_pages((built / "card-list.pdf").read_bytes()))
    _, out = run_cli("cards", GAME, "--format", "json")
    for c in json.loads(out)["cards"]:
        assert c["name"] in text, c["name"]
    for heading in ("Boss Pieces (51)", "Heroes (12)", "Tokens (2)", "Actions (19)"):
        assert heading in text


def test_presets_sheet_per_preset(built):
    pages = pdf_pages((built / "presets.pdf").read_bytes())
    for name in ("The Ember Wyrm", "The Bone Colossus", "The Hive Queen", "The Lantern Company",
                 "The Shadows of Vael", "The Ironhold Vanguard"):
        assert any(pg.startswith(name) for pg in pages), name
    names = ("The Ember Wyrm", "The Bone Colossus", "The Hive Queen", "The Lantern Company", "The Shadows of Vael",
             "The Ironhold Vanguard", "Boss Starter Deck", "Hero Starter Deck")
    for pg in pages:            # a sheet running over a page says whose it is at the top of the next
        first = pg.splitlines()[0]
        assert first in names or first.removesuffix(" (continued)") in names, first
    wyrm = next(pg for pg in pages if pg.startswith("The Ember Wyrm"))
    assert "94 points of 100" in wyrm and "Action deck (30 cards)" in wyrm
    assert not any("breaks" in pg for pg in pages)


# --------------------------------------------------------------------------- the documented format


def _doc_blocks(lang: str) -> list[str]:
    """The fenced blocks of docs/boss-builds.md written as ```LANG (LANG "" for plain ones)."""
    blocks, current, fence_lang = [], None, ""
    for line in (ROOT / "docs" / "boss-builds.md").read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current, fence_lang = [], line[3:].strip()
            else:
                if fence_lang == lang:
                    blocks.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_docs_hold_complete_examples_that_validate(tmp_path):
    """docs/boss-builds.md shows a complete boss, party and deck file: each is a preset, verbatim,
    and validates clean."""
    presets = {p.read_text(encoding="utf-8"): p.name for p in (ROOT / PRESETS).glob("*.yaml")}
    kinds = set()
    for block in _doc_blocks("yaml"):
        lines = [x for x in block.splitlines() if x and not x.startswith("#")]
        if not lines or lines[0].rstrip(":") not in ("boss", "party", "deck"):
            continue
        assert block in presets, f"a documented example is not a preset file verbatim:\n{block}"
        f = tmp_path / presets[block]
        f.write_text(block, encoding="utf-8")
        code, probs = problems_json("validate", GAME, str(f))
        assert code == 0 and probs == [], probs
        kinds.add(lines[0].rstrip(":"))
    assert kinds == {"boss", "party", "deck"}


def test_docs_show_the_real_figures():
    block = next(b for b in _doc_blocks("") if b.startswith("$ cardgen validate boss_fight"))
    command, *shown = block.rstrip("\n").splitlines()
    code, out = run_cli(*command.split()[2:])
    assert code == 0 and out.rstrip("\n").splitlines() == shown


def test_piece_without_footprint_shows_its_type_not_an_empty_box():
    """A piece that adds no hexes prints its type large in the size panel; one with hexes, its diagram."""
    from cardgen.builder.pipeline import validate as lay_out_game
    from cardgen.core.problems import Problems
    from cardgen.scene import Text

    probs = Problems()
    laid = lay_out_game(ROOT, GAME, probs)
    assert laid is not None and not probs.errors
    fronts = {pl.card_id: pl.front for group in laid.groups.values() for pl in group}
    leg, skull = fronts["raptor_leg"], fronts["dragon_skull"]

    def hexes_in_panel(items):          # the size panel: 20.5 … 55.5 mm from the top (templates/boss_fight/piece.yaml)
        return [p for p in items if isinstance(p, Polygon) and all(20.5 <= y <= 55.5 for _, y in p.points)]

    assert "LEG" in [t.text for t in leg if isinstance(t, Text)]
    assert not hexes_in_panel(leg)                                        # no ghost hex
    assert "HEAD" not in [t.text for t in skull if isinstance(t, Text)]
    assert len(hexes_in_panel(skull)) == 1                                # its one-hex diagram

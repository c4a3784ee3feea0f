"""The validator in the corners (issue 20, items 7–9): each slip breaks one rule, reported once, under
the rule that was broken, at the slip's own line — each with its legal twin.

7. Loot & Battles cards against the seed's tables (the generic ``table`` constraint kind).
8. One mistake, one problem: a broken card is known but invalid (references resolve, counts wait).
9. Rule IDs and lines: a card field's failure under its catalogue rule, at its line.
"""

from __future__ import annotations

import pytest

from cardgen.content.constraints import Collection, Entry, evaluate
from cardgen.core.problems import Loc, Problems
from cardgen.core.yamlsrc import parse_yaml
from tests.conftest import ROOT

LB = "loot_battles"
ENEMIES = "cards/loot_battles/enemies.yaml"
ENCOUNTERS = "cards/loot_battles/encounters.yaml"
LOOT = "cards/loot_battles/loot.yaml"
CLASSES = "cards/loot_battles/classes.yaml"
COMPONENTS = "cards/loot_battles/components.yaml"
DINOS = "cards/dino_battles/dinosaurs.yaml"
COMBAT = "cards/dino_battles/combat.yaml"


def errors(probs: list[dict]) -> list[tuple[str, str, int]]:
    return [(p["rule"], p["file"].rsplit("/", 1)[-1], p["line"]) for p in probs if p["severity"] == "error"]


def line_of(g, rel: str, text: str) -> int:
    body = g.path(rel).read_text(encoding="utf-8")
    assert text in body, text
    return body[: body.index(text)].count("\n") + 1


# --- 7. the seed's tables ---------------------------------------------------------------------

# (rule, file, old, new, the field whose line is reported, expected, found)
SEED_BREAKS = [
    ("LB-CARD-1", CLASSES, "    dodge: 5\n", "    dodge: 6\n", "dodge", "5", "6"),
    ("LB-CARD-2", ENEMIES, "enemy: shankers, health: 3, armor: 1, dodge: 7, damage: 6, attack: 3",
     "enemy: shankers, health: 3, armor: 1, dodge: 7, damage: 6, attack: 2", "attack", "3", "2"),
    ("LB-CARD-3", ENCOUNTERS, "count: 9, reinforcement: 0, loot: 5", "count: 9, reinforcement: 0, loot: 4",
     "loot", "5", "4"),
    ("LB-CARD-4", LOOT, "rank: high, copies: 2, damage: 6", "rank: high, copies: 2, damage: 7", "damage", "6", "7"),
    ("LB-CARD-4", LOOT, "rank: low, copies: 4, damage: 2", "rank: low, copies: 3, damage: 2", "copies", "4", "3"),
    ("LB-CARD-5", LOOT, "rank: middle, copies: 2, damage: 5, damage_type: ranged, dodge: -1",
     "rank: middle, copies: 2, damage: 5, damage_type: ranged, dodge: 1", "dodge", "-1", "1"),
    ("LB-CARD-5", LOOT, "school: healing, rank: high, health: 6", "school: healing, rank: high, health: 5",
     "health", "6", "5"),
    ("LB-CARD-7", LOOT, "rank: low, copies: 3, armor: 1, ruling", "rank: low, copies: 3, armor: 1, dodge: -1, ruling",
     "dodge", "none", "-1"),
    ("LB-CARD-6", COMPONENTS, "{id: d6, name: six-sided die, kind: die, count: 3}",
     "{id: d6, name: six-sided die, kind: die, count: 2}", "count", "3", "2"),
]


@pytest.mark.parametrize("rule,rel,old,new,field,want,have", SEED_BREAKS,
                         ids=[f"{b[0]}-{b[4]}" for b in SEED_BREAKS])
def test_a_card_value_off_the_seed_breaks_its_rule_at_its_line(game_copy, rule, rel, old, new, field, want, have):
    g = game_copy(LB)
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1
    assert errors(probs) == [(rule, rel.rsplit("/", 1)[-1], line)], probs
    assert f" {have}" in probs[0]["message"] and f"has {want}" in probs[0]["message"], probs[0]["message"]


def test_the_seed_tables_legal_twin(game_copy):
    """The project's own cards are the seed's: no LB-CARD problem at all."""
    code, probs = game_copy(LB).validate()
    assert code == 0 and not probs, probs


def test_a_missing_encounter_is_its_row_once(game_copy):
    g = game_copy(LB)
    g.edit(ENCOUNTERS, '  - {id: enc_rats_6, name: "Rats ×6", enemy: rats, count: 6, reinforcement: 0, loot: 2}\n', "")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("LB-CARD-3", "constraints.yaml", errors(probs)[0][2])], probs
    assert "rats/6/0" in probs[0]["message"]


def test_an_encounter_off_the_table_is_named_with_the_nearest_row(game_copy):
    g = game_copy(LB)
    line = g.edit(ENCOUNTERS, "enemy: rats, count: 6, reinforcement: 0", "enemy: rats, count: 7, reinforcement: 0")
    code, probs = g.validate()
    # the card has no row, and the row it was meant for has no card: one slip, reported at the card
    assert code == 1 and errors(probs) == [("LB-CARD-3", "encounters.yaml", line)], probs
    assert probs[0]["hint"] == "did you mean 'rats/6/0'?"


def test_table_kind_is_generic():
    """The kind reads any table: a mapping keyed by one field, or a list of rows keyed by several."""
    entries = [Entry("a", "A", {"type": "t", "k": "x", "v": 1, "copies": 2}, 2, Loc("p.yaml", 3, 1),
                     {"v": Loc("p.yaml", 3, 9)}),
               Entry("b", "B", {"type": "t", "k": "y", "v": 5, "copies": 1}, 1, Loc("p.yaml", 4, 1),
                     {"v": Loc("p.yaml", 4, 9)})]
    cols = {"cards": Collection("cards", entries, Loc("p.yaml", 1, 1), "the pool")}
    for table in ("{x: {v: 1, copies: 2}, y: {v: 5, copies: 1}}",
                  "[{k: x, v: 1, copies: 2}, {k: y, v: 5, copies: 1}]"):
        p = Problems()
        doc = parse_yaml(f"- {{rule: T-1, kind: table, key: k, table: {table}, complete: true}}\n", "c.yaml", p)
        evaluate(doc, cols, {}, p)
        assert not p.items, [x.text() for x in p]
        bad = parse_yaml(f"- {{rule: T-1, kind: table, key: k, table: {table.replace('5', '6')}}}\n", "c.yaml", p)
        evaluate(bad, cols, {}, p)
        assert [(x.rule, x.loc.line, x.loc.col) for x in p] == [("T-1", 4, 9)]


# --- 8. one mistake, one problem --------------------------------------------------------------

def test_a_broken_dinosaur_named_by_decks_is_one_problem(game_copy):
    g = game_copy("dino_battles")
    line = g.edit(DINOS, "    atk: 6\n    eva: 2\n    def: 7\n    hp: 85", "    atk: six\n    eva: 2\n    def: 7\n    hp: 85")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("BDB-CARD-2", "dinosaurs.yaml", line)], probs


def test_a_deck_naming_no_card_still_says_so(game_copy):
    """The legal twin's other side: a name that is no card at all is still CARD-UNKNOWN-ID."""
    g = game_copy("dino_battles")
    line = g.edit("cards/dino_battles/decks/iron_herd.yaml", "bastion_trike: 2", "bastion_trik: 2")
    code, probs = g.validate()
    assert ("CARD-UNKNOWN-ID", "iron_herd.yaml", line) in errors(probs)


@pytest.mark.parametrize("rel,old,new,rule", [
    ("cards/boss_fight/boss_pieces.yaml", "     health: 20, intelligence: 0, strength: 2, agility: 2, slots: 0",
     "     health: lots, intelligence: 0, strength: 2, agility: 2, slots: 0", "BF-CARD-1"),     # a boss preset's piece
    ("cards/boss_fight/heroes.yaml", "title: Knight, constitution: stalwart, points: 24,",
     "title: Knight, constitution: stalwart, points: many,", "BF-CARD-2"),                    # a party preset's hero
    ("cards/boss_fight/actions.yaml", "kind: move, move: 2, copies: 12,", "kind: move, move: two, copies: 12,",
     "BF-CARD-4"),                                                                           # every deck's Walk
])
def test_a_broken_card_named_by_presets_is_one_problem(game_copy, rel, old, new, rule):
    g = game_copy("boss_fight")
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [(rule, rel.rsplit("/", 1)[-1], line)], probs


def test_one_bad_byte_in_enemies_is_one_problem(game_copy):
    g = game_copy(LB)
    p = g.path(ENEMIES)
    p.write_bytes(p.read_bytes() + b"# \xff\n")
    code, probs = g.validate()
    assert code == 1 and [e[0] for e in errors(probs)] == ["YAML-ENCODING"], probs


def test_a_misspelt_enemy_type_is_not_counted(game_copy):
    g = game_copy(LB)
    line = g.edit(ENCOUNTERS, "enemy: lankies, count: 5,", "enemy: lankeis, count: 5,")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("CARD-REF", "encounters.yaml", line)], probs
    assert probs[0].get("hint") == "did you mean 'lankies'?"
    g.edit(ENCOUNTERS, "enemy: lankeis, count: 5,", "enemy: lankies, count: 5,")
    line = g.edit(ENEMIES, "enemy: lankies, health: 4", "enemy: lankeis, health: 4")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("LB-CARD-2", "enemies.yaml", line)], probs


def test_a_broken_component_is_not_also_missing(game_copy):
    g = game_copy(LB)
    line = g.edit(COMPONENTS, "kind: die, count: 3}", "kind: die, count: three}")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("YAML-TYPE", "components.yaml", line)], probs


def test_an_id_used_twice_is_one_problem(game_copy):
    """The card whose id is a slip may be the one the others name: they wait, not CARD-REF each."""
    g = game_copy(LB)
    line = g.edit(ENEMIES, "- {id: lankies,", "- {id: rats,")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("CARD-DUPLICATE-ID", "enemies.yaml", line)], probs


def test_a_slip_in_a_files_defaults_is_one_problem(game_copy):
    g = game_copy("dino_battles")
    line = g.edit(COMBAT, "defaults: {type: combat,", "defaults: {type: combatt,")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("CARD-UNKNOWN-TYPE", "combat.yaml", line)], probs
    assert "2 more cards" in probs[0]["message"] and probs[0]["hint"] == "did you mean 'combat'?"


@pytest.mark.parametrize("old,new", [("face: 5, event: hazard", "face: 7, event: hazard"),
                                     ("face: 5, event: hazard", "face: 4, event: hazard"),
                                     ("face: 5, event: hazard", "face: 5, event: hazzard")])
def test_a_chaos_table_slip_is_not_also_board_table(game_copy, old, new):
    g = game_copy("bones_on_ice")
    line = g.edit("cards/bones_on_ice/chaos.yaml", old, new)
    code, probs = g.validate()
    assert code == 1 and [(r, f) for r, f, _ in errors(probs)] == [("BOI-CARD-3", "chaos.yaml")], probs
    assert errors(probs)[0][2] == line


def test_a_board_table_from_params_still_checks_its_faces(root):
    """The legal twin's other side: a die table no card rule checks is still BOARD-TABLE."""
    from cardgen.boards.dietable import load_table
    from cardgen.content.loader import load_game
    p = Problems()
    game = load_game(root, "bones_on_ice", p)
    td = parse_yaml("title: T\ndie: 6\nfallback: [{face: 1, text: a}, {face: 2, text: b}]\n", "t.yaml", p)
    assert load_table(td, game, p) is None and [x.rule for x in p] == ["BOARD-TABLE"]


@pytest.mark.parametrize("rel,old,new", [
    (CLASSES, "    health: 10\n    armor: 2", "    helth: 10\n    armor: 2"),            # required by its type
    (DINOS, "    hp: 85\n    retreat_cost: 3", "    hpp: 85\n    retreat_cost: 3"),    # required by a constraint
])
def test_a_misspelt_required_field_is_not_also_missing(game_copy, rel, old, new):
    g = game_copy(rel.split("/")[1])
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("YAML-UNKNOWN-KEY", rel.rsplit("/", 1)[-1], line)], probs
    assert probs[0]["hint"] == f"did you mean '{old.split(':')[0].strip()}'?"


def test_a_bad_at_is_not_also_an_overlap(game_copy):
    g = game_copy("boss_fight")
    rel = "cards/boss_fight/presets/boss_ember_wyrm.yaml"
    line = g.edit(rel, "{id: spiked_tail, at: [3, 1]}", "{id: spiked_tail, at: [3, x]}")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("YAML-TYPE", "boss_ember_wyrm.yaml", line)], probs
    g.edit(rel, "{id: spiked_tail, at: [3, x]}", "{id: spiked_tail, at: [3, 1], rotate: left}")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("YAML-TYPE", "boss_ember_wyrm.yaml", line)], probs


def test_an_overlap_is_still_an_overlap(game_copy):
    """The legal twin's other side: a good `at:` that overlaps is BF-BUILD-2."""
    g = game_copy("boss_fight")
    line = g.edit("cards/boss_fight/presets/boss_ember_wyrm.yaml", "{id: spiked_tail, at: [3, 1]}",
                  "{id: spiked_tail, at: [0, 0]}")
    code, probs = g.validate()
    assert ("BF-BUILD-2", "boss_ember_wyrm.yaml", line) in errors(probs)


# --- 9. rule IDs and lines --------------------------------------------------------------------

def test_an_unknown_combat_subtype_is_bdb_card_1(game_copy):
    g = game_copy("dino_battles")
    line = g.edit(COMBAT, "subtype: attack", "subtype: atack")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("BDB-CARD-1", "combat.yaml", line)], probs


def test_a_reinforcement_of_3_is_lb_card_3(game_copy):
    g = game_copy(LB)
    line = g.edit(ENCOUNTERS, "count: 3, reinforcement: 2, loot: 5}", "count: 3, reinforcement: 3, loot: 5}")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("LB-CARD-3", "encounters.yaml", line)], probs
    assert "above its maximum 2" in probs[0]["message"]


@pytest.mark.parametrize("slug,rel,old,card_line,rule", [
    ("dino_battles", DINOS, "    hp: 90\n", "  - id: chainsaw_rex\n", "BDB-CARD-2"),     # a required-by-constraint field
    (LB, CLASSES, "    armor: 2\n", "  - id: class_melee\n", "LB-CARD-1"),                # a required field
])
def test_a_missing_field_is_reported_at_its_cards_first_line(game_copy, slug, rel, old, card_line, rule):
    g = game_copy(slug)
    g.edit(rel, old, "")
    line = line_of(g, rel, card_line)
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [(rule, rel.rsplit("/", 1)[-1], line)], probs


@pytest.mark.parametrize("old,new", [("    dodge: 5\n", "\tdodge: 5\n"), ("    damage: 2\n", "\tdamage: 2\n")])
def test_a_tab_indented_line_is_reported_at_its_own_line(game_copy, old, new):
    g = game_copy(LB)
    line = g.edit(CLASSES, old, new)
    code, probs = g.validate()
    syntax = [p for p in probs if p["rule"] == "YAML-SYNTAX"]
    assert code == 1 and len(syntax) == 1 and syntax[0]["line"] == line, probs
    assert "tab" in syntax[0].get("hint", "")
    assert len(errors(probs)) == 1, probs       # the file's cards are unknown: counts wait


def test_rules_named_here_exist():
    from cardgen.content.catalogue import all_rules
    known = all_rules(ROOT)
    for rid in ("LB-CARD-1", "LB-CARD-2", "LB-CARD-3", "LB-CARD-4", "LB-CARD-5", "LB-CARD-6", "LB-CARD-7",
                "BDB-CARD-1", "BDB-CARD-2", "BOI-CARD-3", "BF-CARD-1"):
        assert rid in known

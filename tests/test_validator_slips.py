"""The validator's last corners (issue 33): one mistake, one problem, at its own line — each
breaking case with its legal twin.

- a misspelt key of a deck-like file: the did-you-mean, not also the counts of what it held;
- a card type that fails its checks in game.yaml: reported there, its cards not also of an
  unknown type (nor the boards and builds that read them);
"""

from __future__ import annotations

import pytest

from tests.test_validator_corners import errors, line_of

IRON_HERD = "cards/dino_battles/decks/iron_herd.yaml"
LANTERN = "cards/boss_fight/presets/party_lantern_company.yaml"


# --- a misspelt key of a deck-like file ---------------------------------------------------------

@pytest.mark.parametrize("slug,rel,old,new", [
    ("dino_battles", IRON_HERD, "  cards:", "  crads:"),
    ("boss_fight", "cards/boss_fight/presets/deck_boss_starter.yaml", "  cards:", "  card:"),
    ("boss_fight", LANTERN, "  heroes:", "  heros:"),
    ("boss_fight", "cards/boss_fight/presets/boss_ember_wyrm.yaml", "  pieces:", "  peices:"),
    ("boss_fight", LANTERN, "      cards: {walk", "      crads: {walk"),      # a key of an entry
])
def test_a_misspelt_key_of_a_deck_is_one_problem(game_copy, slug, rel, old, new):
    g = game_copy(slug)
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("YAML-UNKNOWN-KEY", rel.rsplit("/", 1)[-1], line)], probs
    assert probs[0]["hint"] == f"did you mean '{old.split(':')[0].strip()}'?"


def test_a_deck_without_its_misspelt_key_still_counts(game_copy):
    """The legal twin's other side: a slip in a key nothing counts (notes) leaves the counts on."""
    g = game_copy("dino_battles")
    line = g.edit(IRON_HERD, "  notes:", "  nots:")
    g.edit(IRON_HERD, "    bastion_trike: 2\n", "    bastion_trike: 1\n")
    code, probs = g.validate()
    rules = sorted(errors(probs))
    assert ("YAML-UNKNOWN-KEY", "iron_herd.yaml", line) in rules and "BDB-DECK-1" in {r for r, _, _ in rules}, probs


def test_the_decks_legal_twin(game_copy):
    code, probs = game_copy("dino_battles").validate()
    assert code == 0 and not errors(probs), probs


# --- a card type that fails its checks ----------------------------------------------------------

@pytest.mark.parametrize("slug,old,new,rule,at_type", [
    ("dino_battles", "    template: dinosaur\n", "    tempalte: dinosaur\n", "YAML-UNKNOWN-KEY", False),
    ("dino_battles", "    template: dinosaur\n", "", "YAML-MISSING-KEY", True),
    ("boss_fight", "    template: piece\n", "    templates: piece\n", "YAML-UNKNOWN-KEY", False),
    ("boss_fight", "    template: piece\n", "    template: piecez\n", "TEMPLATE-MISSING", False),
])
def test_a_broken_card_type_is_one_problem_at_its_line(game_copy, slug, old, new, rule, at_type):
    g = game_copy(slug)
    rel = f"rules/{slug}/game.yaml"
    line = g.edit(rel, old, new) - (1 if at_type else 0)      # a missing key: the type's own line
    code, probs = (g.only("cards").build()[:2] if rule == "TEMPLATE-MISSING" else g.validate())
    assert code == 1 and errors(probs) == [(rule, "game.yaml", line)], probs


def test_a_card_types_legal_twin_lays_its_cards_out(game_copy):
    g = game_copy("boss_fight")
    assert line_of(g, "rules/boss_fight/game.yaml", "    template: piece\n") > 0
    code, probs, _ = g.only("cards").build()
    assert code == 0 and not errors(probs), probs


def test_a_missing_base_template_is_one_problem_at_the_extends_line(game_copy):
    """A template extending one that is missing: its elements are not also checked against nothing."""
    g = game_copy("dino_battles")
    g.path("templates/dino_battles/plain.yaml").unlink()
    code, probs = g.validate()
    assert code == 1 and [e[0] for e in errors(probs)] == ["TEMPLATE-MISSING"], probs
    p = probs[0]
    assert g.path(p["file"]).read_text(encoding="utf-8").splitlines()[p["line"] - 1].strip() == "extends: plain"


# --- a template fits every legal value (tests/test_template_fit.py lays every game out) --------

@pytest.mark.parametrize("value,rule", [(30, None), (31, "BF-CARD-4")])
def test_an_items_deck_limit_up_to_the_deck_size_fits(game_copy, value, rule):
    g = game_copy("boss_fight")
    line = g.edit("cards/boss_fight/actions.yaml", "kind: item, copies: 4,", f"kind: item, copies: 4, max_copies: {value},")
    code, probs = g.validate()
    assert errors(probs) == ([(rule, "actions.yaml", line)] if rule else []), probs
    assert code == (1 if rule else 0)


# --- an icon the game does not have --------------------------------------------------------------

COMBAT = "cards/dino_battles/combat.yaml"


@pytest.mark.parametrize("slug,rel,old,new,near", [
    ("dino_battles", COMBAT, "Attack the opposing", "Attack {shield} the opposing", "spiked"),
    ("boss_fight", "cards/boss_fight/actions.yaml", '"Move 2 tiles', '"Move 2 {shield} tiles', "wild"),
    ("loot_battles", "cards/loot_battles/loot.yaml", "ruling: LB-CARD-5}", 'ruling: "LB-CARD-5 {sheild}"}', "shield"),
    ("bone_wars", "cards/bone_wars/skulls.yaml", "name: Raptor Skull,", 'name: "Raptor {skul} Skull",', "skull"),
])
def test_an_unknown_icon_in_card_text_is_one_problem_at_its_column(game_copy, slug, rel, old, new, near):
    """Printed or not (a loot card's ruling is not), at the icon's own line and column."""
    g = game_copy(slug)
    line = g.edit(rel, old, new)
    col = g.path(rel).read_text(encoding="utf-8").splitlines()[line - 1].index("{" + new.split("{")[1].split("}")[0]) + 1
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("ICON-UNKNOWN", rel.rsplit("/", 1)[-1], line)], probs
    assert probs[0]["column"] == col and probs[0]["hint"] == f"did you mean '{near}'?", probs[0]
    if slug == "dino_battles":          # the build reports it once too: the layout does not repeat it
        code, probs, _ = g.only("cards").build()
        assert code == 1 and [e[0] for e in errors(probs)] == ["ICON-UNKNOWN"], probs


def test_known_icons_and_expressions_in_card_text_are_no_problem(game_copy):
    """The legal twin: an icon the game has, and a Jinja expression's braces, are not unknown icons."""
    g = game_copy("dino_battles")
    g.edit(COMBAT, "Attack the opposing", "Attack {atk} the {{ 'opposing' }}")
    code, probs = g.validate()
    assert code == 0 and not errors(probs), probs


def test_an_unknown_icon_in_a_templates_own_text_is_at_its_column(game_copy):
    g = game_copy("bone_wars")
    rel = "templates/bone_wars/reference.yaml"
    line = g.edit(rel, "takes {atk} Atk", "takes {shield} Atk")
    col = g.path(rel).read_text(encoding="utf-8").splitlines()[line - 1].index("{shield}") + 1
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("ICON-UNKNOWN", "reference.yaml", line)], probs
    assert probs[0]["column"] == col


# --- a broken token file: the mats that name its tokens wait ---------------------------------------

@pytest.mark.parametrize("old,new", [("       symbol: chain,", "       symbol: chian,"),
                                     ("  shape: round\n  size: 20mm", "  shape: rond\n  size: 20mm")])
def test_a_slip_in_the_token_file_is_not_also_unknown_tokens_on_the_mats(game_copy, old, new):
    g = game_copy("boss_fight")
    line = g.edit("maps/boss_fight/tokens.yaml", old, new)
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("YAML-TYPE", "tokens.yaml", line)], probs


def test_a_mat_naming_no_token_still_says_so(game_copy):
    """The legal twin's other side: with the token file sound, an unknown token is TOKEN-UNKNOWN."""
    g = game_copy("boss_fight")
    text = g.path("maps/boss_fight/mat.yaml").read_text(encoding="utf-8")
    assert "immobilised" in text
    line = g.edit("maps/boss_fight/mat.yaml", "immobilised", "immobilized")
    code, probs = g.validate()
    assert code == 1 and ("TOKEN-UNKNOWN", "mat.yaml", line) in errors(probs), probs


# --- maps: a terrain at its tile, once ----------------------------------------------------------------

PILLARS = "maps/boss_fight/pillars.yaml"


@pytest.mark.parametrize("old,new", [("  - {at: [6, 1], terrain: obstacle}", "  - {at: [6, 1], terrain: obstacel}"),
                                     ("  - {at: [6, 1], terrain: obstacle}", "  - at: [6, 1]\n    terrain: obstacel")])
def test_an_unknown_terrain_is_at_its_tile(game_copy, old, new):
    g = game_copy("boss_fight")
    line = g.edit(PILLARS, old, new) + new.count("\n")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("MAP-TERRAIN", "pillars.yaml", line)], probs
    assert probs[0]["hint"] == "did you mean 'obstacle'?"


def test_a_renamed_terrain_is_one_problem_at_its_first_tile(game_copy):
    g = game_copy("boss_fight")
    g.edit("maps/boss_fight/terrain.yaml", "  obstacle:\n    name: Obstacle", "  obstacel:\n    name: Obstacle")
    code, probs = g.validate()
    first = line_of(g, PILLARS, "  - {at: [3, 1], terrain: obstacle}")
    assert code == 1 and errors(probs) == [("MAP-TERRAIN", "pillars.yaml", first)], probs
    assert "and 9 more" in probs[0]["message"]


def test_a_broken_terrain_definition_is_not_also_every_maps_symbol(game_copy):
    g = game_copy("boss_fight")
    line = g.edit("maps/boss_fight/terrain.yaml", '    symbol: "#"', '    symbol: "##"')
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("YAML-TYPE", "terrain.yaml", line)], probs


# --- a key every card of a file lacks: its defaults lost it ------------------------------------------

def test_a_key_no_card_of_the_file_holds_is_one_problem(game_copy):
    g = game_copy("bone_wars")
    rel = "cards/bone_wars/skulls.yaml"
    g.edit(rel, "defaults: {type: part, part: skull, set: core}", "defaults: {type: part, set: core}")
    code, probs = g.validate()
    first = line_of(g, rel, "  - {id: skull_tyrant,")
    assert code == 1 and errors(probs) == [("BW-CARD-2", "skulls.yaml", first)], probs
    assert "lacks required key 'part'" in probs[0]["message"] and "7 more cards" in probs[0]["message"]


def test_a_key_one_card_lacks_is_still_its_own_problem(game_copy):
    """The legal twin's other side: two cards of a file each missing a key are two problems."""
    g = game_copy("bone_wars")
    rel = "cards/bone_wars/skulls.yaml"
    g.edit(rel, "atk: 5, hp: 3, traits: [intimidating]", "atk: 5, traits: [intimidating]")
    g.edit(rel, "atk: 3, hp: 2, traits: [haste]", "atk: 3, traits: [haste]")
    code, probs = g.validate()
    assert code == 1 and [e[2] for e in errors(probs)] == [line_of(g, rel, "  - {id: skull_tyrant,"),
                                                           line_of(g, rel, "  - {id: skull_raptor,")], probs


# --- a value outside a closed set (a `max: 0` count with `except:`) is that value's problem --------

ACTIONS = "cards/boss_fight/actions.yaml"


def test_a_set_no_action_may_have_is_one_problem_at_the_value(game_copy):
    g = game_copy("boss_fight")
    line = g.edit(ACTIONS, "- {id: walk, name: Walk Movement, set: neutral,", "- {id: walk, name: Walk Movement, set: nuetral,")
    col = g.path(ACTIONS).read_text(encoding="utf-8").splitlines()[line - 1].index("nuetral") + 1
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("BF-CARD-4", "actions.yaml", line)], probs
    assert probs[0]["column"] == col and probs[0]["hint"] == "did you mean 'neutral'?"


def test_a_closed_set_slip_in_a_files_defaults_is_one_problem(game_copy):
    g = game_copy("boss_fight")
    rel = "cards/boss_fight/boss_pieces.yaml"
    line = g.edit(rel, "defaults: {type: boss_piece, set: boss}", "defaults: {type: boss_piece, set: bos}")
    code, probs = g.validate()
    assert code == 1 and errors(probs) == [("BF-CARD-1", "boss_pieces.yaml", line)], probs
    assert "50 more cards" in probs[0]["message"]


def test_the_sets_legal_twin(game_copy):
    code, probs = game_copy("boss_fight").validate()
    assert code == 0 and not errors(probs), probs

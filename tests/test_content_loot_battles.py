"""Loot & Battles content rules (LB-CARD-1 … 6) and every kind of bad input, by rule ID and line."""

import re

import pytest

from tests.conftest import has_problem, problems_json

GAME = "loot_battles"
ENEMIES = "cards/loot_battles/enemies.yaml"
LOOT = "cards/loot_battles/loot.yaml"


def test_published_content_is_clean():
    code, probs = problems_json("validate", GAME)
    assert code == 0, probs
    assert probs == []


def test_card_counts_match_the_seed():
    import json

    from tests.conftest import run_cli
    code, out = run_cli("cards", GAME, "--format", "json")
    cards = json.loads(out)["cards"]
    by_type = {}
    for c in cards:
        by_type[c["type"]] = by_type.get(c["type"], 0) + c["copies"]
    assert by_type == {"class": 6, "enemy": 60, "encounter": 30, "loot": 60}


# (rule, file, old, new): each edit breaks exactly that rule at the edited line.
BREAKS = [
    ("LB-CARD-1", "cards/loot_battles/classes.yaml", "copies: 3\n    class: melee", "copies: 4\n    class: melee"),
    ("LB-CARD-2", ENEMIES, "- {id: rats, name: Rat,", "- {id: rats, name: Rat, copies: 11,"),
    ("LB-CARD-3", "cards/loot_battles/encounters.yaml", "enemy: lankies, count: 4, reinforcement: 1", "enemy: rats, count: 4, reinforcement: 1"),
    ("LB-CARD-4", "rules/loot_battles/params.yaml", "  dagger: 9", "  dagger: 8"),
    ("LB-CARD-5", LOOT, "school: ice, rank: low", "school: fire, rank: low"),
    ("LB-CARD-6", "cards/loot_battles/components.yaml", "kind: token, count: 10", "kind: token, count: 9"),
]


@pytest.mark.parametrize("rule,rel,old,new", BREAKS, ids=[b[0] for b in BREAKS])
def test_rule_broken_at_its_line(game_copy, rule, rel, old, new):
    g = game_copy(GAME)
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, rule, rel.split("/")[-1], line), probs


@pytest.mark.parametrize("rule", sorted({b[0] for b in BREAKS}))
def test_rule_legal_twin(game_copy, rule):
    code, probs = game_copy(GAME).validate()
    assert code == 0 and not [p for p in probs if p["rule"] == rule]


def test_second_unique_sword(game_copy):
    g = game_copy(GAME)
    line = g.edit(LOOT, "    name: Twinfang Blade\n", "    name: Twinfang Blade\n    copies: 2\n") + 1
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "LB-CARD-4", "loot.yaml", line)
    assert any("2 copies" in p["message"] and "has 1 (row sword/unique)" in p["message"] for p in probs)
    assert len(probs) == 1, probs       # one slip, one problem (not also the category's total)


def test_declared_total_names_the_published_number(game_copy):
    g = game_copy(GAME)
    line = g.edit("rules/loot_battles/params.yaml", "  sword: 9", "  sword: 10")
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "LB-CARD-4", "params.yaml", line)
    assert any("10" in p["message"] and "9" in p["message"] for p in probs)


BAD_INPUT = [
    # (rule, file, old, new, severity)
    ("YAML-SYNTAX", ENEMIES, "- {id: rats, name: Rat,", "- {id: rats, name: [Rat,", "error"),
    ("YAML-DUPLICATE-KEY", ENEMIES, "- {id: rats, name: Rat,", "- {id: rats, name: Rat, id: rat2,", "error"),
    ("YAML-UNKNOWN-KEY", ENEMIES, "- {id: rats, name: Rat, enemy: rats, health: 1,",
     "- {id: rats, name: Rat, enemy: rats, helth: 1,", "error"),
    ("LB-CARD-2", ENEMIES, "enemy: rats, health: 1,", "enemy: rats, health: one,", "error"),   # the type's rule
    ("YAML-TYPE", "cards/loot_battles/components.yaml", "kind: die, count: 3}", "kind: die, count: three}", "error"),
    ("YAML-MOJIBAKE", ENEMIES, "Hard to hit, easy to kill.", "Hard to hit â‰¥ easy to kill.", "warning"),
    ("CARD-UNKNOWN-TYPE", ENEMIES, "defaults: {type: enemy,", "defaults: {type: enemmy,", "error"),
    ("TEMPLATE-MISSING", "rules/loot_battles/game.yaml", "template: enemy", "template: enemyy", "error"),
    ("TEMPLATE-EXPR", "templates/loot_battles/enemy.yaml", 'value: "{{ \'{\' ~ card.enemy ~ \'}\' }}"',
     'value: "{{ \'{\' ~ card.enmey ~ \'}\' }}"', "error"),
    ("TEXT-OVERFLOW", ENEMIES, 'text: "Quick and many. Hard to hit, easy to kill."',
     'text: "' + "Quick and many, hard to hit, easy to kill. " * 12 + '"', "error"),
    ("TEXT-GLYPH", ENEMIES, "Quick and many.", "Quick and many ☃.", "error"),
    ("ICON-UNKNOWN", ENEMIES, "Quick and many.", "Quick and {meele} many.", "error"),
    ("CARD-DUPLICATE-ID", ENEMIES, "- {id: lankies,", "- {id: rats,", "error"),
    ("CARD-REF", "cards/loot_battles/encounters.yaml", "enemy: rats, count: 4,", "enemy: ratz, count: 4,", "error"),
]


def test_a_broken_card_is_reported_once_not_by_every_card_naming_it(game_copy):
    g = game_copy(GAME)
    line = g.edit(ENEMIES, "enemy: lankies, health: 4,", "enemy: lankies, helth: 4,")
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "YAML-UNKNOWN-KEY", "enemies.yaml", line)
    assert not [p for p in probs if p["file"].endswith("encounters.yaml")], probs   # the 5 Lankies encounters
    line = g.edit("cards/loot_battles/encounters.yaml", "enemy: rats, count: 4,", "enemy: ratz, count: 4,")
    _, probs = g.validate()
    (ref,) = [p for p in probs if p["rule"] == "CARD-REF"]
    assert ref["line"] == line and ref.get("hint") == "did you mean 'rats'?"
    assert not [p for p in probs if p["rule"] == "TEMPLATE-EXPR"]


@pytest.mark.parametrize("rule,rel,old,new,severity", BAD_INPUT, ids=[b[0] for b in BAD_INPUT])
def test_bad_input_reported_with_rule_and_line(game_copy, rule, rel, old, new, severity):
    g = game_copy(GAME)
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    hits = [p for p in probs if p["rule"] == rule]
    assert hits, probs
    assert hits[0]["severity"] == severity
    assert code == (1 if severity == "error" else 0)
    if rule not in ("TEMPLATE-EXPR",):
        assert any(p["line"] == line for p in hits), (line, hits)


def test_unknown_key_hint(game_copy):
    g = game_copy(GAME)
    g.edit(ENEMIES, "enemy: rats, health: 1,", "enemy: rats, helth: 1,")
    _, probs = g.validate()
    assert any(p.get("hint") == "did you mean 'health'?" for p in probs)


def test_template_typo_names_card_and_template(game_copy):
    g = game_copy(GAME)
    g.edit("templates/loot_battles/enemy.yaml", 'value: "{{ \'{\' ~ card.enemy ~ \'}\' }}"', 'value: "{{ \'{\' ~ card.enmey ~ \'}\' }}"')
    _, probs = g.validate()
    msgs = [p["message"] for p in probs if p["rule"] == "TEMPLATE-EXPR"]
    assert msgs and "enmey" in msgs[0] and "enemy.yaml" in msgs[0]


def test_missing_image_and_path_escape(game_copy):
    g = game_copy(GAME)
    g.edit("templates/loot_battles/enemy.yaml", "  type_line:", "  art: {kind: image, x: 5mm, y: 20mm, w: 10mm, "
           "h: 10mm, src: \"{{ card.image }}\"}\n  type_line:")
    g.edit("rules/loot_battles/game.yaml", "      enemy: {enum:", "      image: str\n      enemy: {enum:")
    line_missing = g.edit(ENEMIES, "- {id: rats, name: Rat,", "- {id: rats, name: Rat, image: art/rat.png,")
    line_escape = g.edit(ENEMIES, "- {id: lankies, name: Lanky,",
                         "- {id: lankies, name: Lanky, image: ../../../../etc/passwd,")
    g.edit(ENEMIES, "  - {id: steppons,", "  - {id: steppons, image: art/x.png,")
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, "FILE-MISSING", "enemies.yaml", line_missing)
    assert has_problem(probs, "PATH-ESCAPE", "enemies.yaml", line_escape)


def test_all_problems_of_a_run_are_reported(game_copy):
    g = game_copy(GAME)
    g.edit(ENEMIES, "- {id: rats, name: Rat,", "- {id: rats, name: Rat, copies: 11,")
    g.edit(LOOT, "school: ice, rank: low", "school: fire, rank: low")
    g.edit("cards/loot_battles/components.yaml", "kind: token, count: 10", "kind: token, count: 9")
    code, probs = g.validate()
    assert {"LB-CARD-2", "LB-CARD-5", "LB-CARD-6"} <= {p["rule"] for p in probs}


def test_text_output_format(game_copy):
    from tests.conftest import run_cli
    g = game_copy(GAME)
    line = g.edit(ENEMIES, "- {id: rats, name: Rat,", "- {id: rats, name: Rat, copies: 11,")
    code, out = run_cli("validate", GAME, root=g.root)
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"cards/loot_battles/enemies.yaml:{line}:") or f"enemies.yaml:{line}:" in first
    assert ": LB-CARD-2 error: " in first


def test_text_overflow_names_card_field_and_template_line(game_copy):
    g = game_copy(GAME)
    line = g.edit(ENEMIES, 'text: "Quick and many. Hard to hit, easy to kill."',
                  'text: "' + "Quick and many, hard to hit, easy to kill. " * 12 + '"')
    code, probs = g.validate()
    (p,) = [p for p in probs if p["rule"] == "TEXT-OVERFLOW"]
    assert code == 1 and p["file"].endswith("enemies.yaml") and p["line"] == line
    assert "card 'rats' (Rat)" in p["message"] and "field 'text'" in p["message"]
    assert re.search(r"element 'rules' at \S*templates/loot_battles/stats\.yaml:\d+:\d+\)", p["message"])
    code, probs, out = g.only("cards").build()              # and build refuses rather than clip it
    assert code == 1 and not out.exists()


def test_template_path_escape_and_sandbox(game_copy):
    g = game_copy(GAME)
    line = g.edit("rules/loot_battles/game.yaml", "template: class", "template: ../../../../etc/passwd")
    g.edit("templates/loot_battles/enemy.yaml", 'value: "{{ \'{\' ~ card.enemy ~ \'}\' }}"',
           'value: "{{ card.__class__.__mro__[1].__subclasses__() }}"')
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "PATH-ESCAPE", "game.yaml", line)
    unsafe = [p for p in probs if p["rule"] == "TEMPLATE-EXPR"]
    assert unsafe and all("unsafe" in p["message"] for p in unsafe)


def test_problems_of_every_kind_in_one_run(game_copy):
    """Syntax aside (a file that does not parse hides its own content), one run reports them all."""
    g = game_copy(GAME)
    g.edit(ENEMIES, "Hard to hit, easy to kill.", "Hard to hit â‰¥ easy to kill.")
    g.edit(ENEMIES, "enemy: growlers, health: 6,", "enemy: growlers, health: six,")
    g.edit(LOOT, "category: sword, rank: low, copies: 4,", "category: sword, rank: low, copies: 4, copies: 5,")
    g.edit(LOOT, "    name: Twinfang Blade\n", "    name: Twinfang Blade\n    copies: 2\n")
    g.edit("cards/loot_battles/classes.yaml", "    attack: 1\n    text: \"Your class damage is added to **{melee}",
           "    atack: 1\n    text: \"Your class damage is added to **{melee}")
    g.edit(LOOT, 'text: "Deals **{ranged} Ranged** damage', 'text: "Deals **{rangd} Ranged** damage')
    g.edit("cards/loot_battles/components.yaml", "kind: token, count: 10", "kind: token, count: 9")
    g.edit("cards/loot_battles/components.yaml", "kind: die, count: 3}", "kind: die, count: three}")
    g.write("cards/loot_battles/broken.yaml", "cards:\n  - {id: x, name: [X\n")
    code, probs = g.validate()
    assert code == 1
    # (the copies of the second Unique Sword are LB-CARD-4 once broken.yaml reads: what it holds may count)
    assert {"YAML-MOJIBAKE", "YAML-TYPE", "LB-CARD-2", "YAML-DUPLICATE-KEY", "YAML-UNKNOWN-KEY", "ICON-UNKNOWN",
            "LB-CARD-6", "YAML-SYNTAX"} <= {p["rule"] for p in probs}, sorted({p["rule"] for p in probs})


def test_a_broken_run_prints_no_traceback(game_copy):
    """The real command, in its own process: problems on stdout, a count on stderr, exit 1."""
    import subprocess
    import sys
    g = game_copy(GAME)
    g.edit(ENEMIES, "- {id: rats, name: Rat,", "- {id: rats, name: [Rat,")
    g.edit(LOOT, "school: ice, rank: low", "school: fire, rank: low")
    g.write("templates/loot_battles/enemy.yaml", "extends: enemy\n")
    for cmd in (["validate", GAME], ["build", GAME, "--out", str(g.root / "out")], ["cards", GAME]):
        r = subprocess.run([sys.executable, "-c", "from cardgen.cli import main; main()", "--root", str(g.root), *cmd],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 1, (cmd, r.stdout, r.stderr)
        assert "Traceback" not in r.stdout + r.stderr, r.stderr
        assert ": YAML-SYNTAX error: " in r.stdout or cmd[0] == "cards"
    out = g.root / "out"           # nothing written but the build cache (out/.cache), which only saves time
    assert not [p for p in out.rglob("*") if p.is_file() and ".cache" not in p.relative_to(out).parts]


# The seed's tables (the Loot & Battles design document), as a witness independent of the card files.
SEED_CLASSES = {"class_melee": (10, 2, 5, 2, "melee", 1), "class_ranged": (10, 1, 7, 1, "ranged", 1)}
SEED_ENEMIES = {"rats": (1, 0, 4, 1, 1), "lankies": (4, 1, 6, 2, 1), "steppons": (6, 2, 4, 5, 2),
                "growlers": (6, 4, 3, 4, 2), "brutes": (10, 7, 2, 3, 2), "shankers": (3, 1, 7, 6, 3)}
SEED_ENCOUNTERS = {   # enemy: [(count, reinforcement, loot)]
    "rats": [(4, 0, 2), (6, 0, 2), (9, 0, 3), (3, 1, 3), (5, 1, 4)],
    "lankies": [(3, 0, 2), (5, 0, 3), (7, 0, 3), (2, 1, 4), (4, 1, 5)],
    "steppons": [(3, 0, 3), (5, 0, 3), (7, 0, 4), (2, 1, 4), (3, 2, 5)],
    "growlers": [(4, 0, 3), (6, 0, 4), (8, 0, 5), (2, 2, 5), (5, 1, 6)],
    "brutes": [(3, 0, 4), (6, 0, 4), (9, 0, 5), (3, 1, 5), (6, 2, 7)],
    "shankers": [(4, 0, 3), (6, 0, 4), (8, 0, 5), (3, 2, 5), (5, 1, 6)],
}
SEED_LOOT_TIERS = {   # category: copies of low, middle, high, unique (spells: one per school per tier)
    "sword": (4, 3, 2, 1), "dagger": (4, 3, 2, 1), "shield": (3, 2, 2, 1), "armor": (5, 5, 3, 1),
    "spell": (3, 3, 3, 1), "bow": (3, 2, 2, 1),
}


def test_cards_carry_the_seeds_numbers():
    import json

    from tests.conftest import run_cli
    cards = json.loads(run_cli("cards", GAME, "--format", "json")[1])["cards"]
    by_id = {c["id"]: c for c in cards}
    for cid, (hp, ar, dg, dmg, kind, atk) in SEED_CLASSES.items():
        c = by_id[cid]
        assert (c["health"], c["armor"], c["dodge"], c["damage"], c["damage_type"], c["attack"], c["copies"]) == \
            (hp, ar, dg, dmg, kind, atk, 3)
    for eid, (hp, ar, dg, dmg, atk) in SEED_ENEMIES.items():
        c = by_id[eid]
        assert (c["health"], c["armor"], c["dodge"], c["damage"], c["attack"], c["copies"]) == (hp, ar, dg, dmg, atk, 10)
    for enemy, rows in SEED_ENCOUNTERS.items():
        got = sorted((c["count"], c["reinforcement"], c["loot"]) for c in cards
                     if c["type"] == "encounter" and c["enemy"] == enemy)
        assert got == sorted(rows), enemy
    ranks = ("low", "middle", "high", "unique")
    for cat, tiers in SEED_LOOT_TIERS.items():
        got = [sum(c["copies"] for c in cards if c["type"] == "loot" and c["category"] == cat and c["rank"] == r)
               for r in ranks]
        assert got == list(tiers), cat
    longbow = by_id["bow_long"]                              # LB-CARD-5 ruling
    assert (longbow["damage"], longbow["damage_type"], longbow["dodge"], longbow["attack"]) == (5, "ranged", -1, 2)

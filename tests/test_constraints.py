"""Constraint kinds as generic data: each kind breaks on a small pool (reported with its rule ID
at the right line) and passes on its legal twin; malformed constraints are content errors."""

from __future__ import annotations

import pytest

from cardgen.content.constraints import Collection, Entry, evaluate
from cardgen.core.problems import Loc, Problems
from cardgen.core.yamlsrc import parse_yaml

PARAMS = {"limits": {"copies": 2, "points": 10}, "totals": {"sword": 3, "bow": 2}, "main": "sword"}


def pool(*rows: tuple[str, int, dict]) -> dict[str, Collection]:
    """Entries (id, count, fields), the n-th written at line 10 + n of pool.yaml."""
    entries = [Entry(cid, cid.title(), {"id": cid, **f}, n, Loc("pool.yaml", 10 + i, 1))
               for i, (cid, n, f) in enumerate(rows)]
    return {"cards": Collection("cards", entries, Loc("pool.yaml", 1, 1), "the pool"),
            "deck": Collection("deck", entries, Loc("deck.yaml", 1, 1), "the deck")}


def run(yaml_text: str, cols: dict[str, Collection]) -> list:
    p = Problems()
    doc = parse_yaml("constraints:\n" + yaml_text, "constraints.yaml", p)
    evaluate(doc["constraints"], cols, PARAMS, p)
    return [(x.rule, x.loc.file, x.loc.line) for x in p.sorted()]


SWORDS = [("bronze", 2, {"type": "loot", "cat": "sword", "rank": "low"}),
          ("steel", 1, {"type": "loot", "cat": "sword", "rank": "high"}),
          ("unique", 1, {"type": "loot", "cat": "sword", "rank": "unique"}),
          ("short", 2, {"type": "loot", "cat": "bow", "rank": "low"})]

CASES = [
    # (constraint, legal pool, broken pool, expected problem)
    ("  - {rule: T-1, kind: count, where: {cat: sword}, exactly: 4}",
     SWORDS, [SWORDS[0], SWORDS[1]], ("T-1", "constraints.yaml", 2)),          # too few: the rule's line
    ("  - {rule: T-2, kind: count, where: {type: loot}, per: cat, max: 4, groups: 2}",
     SWORDS, SWORDS + [("long", 3, {"type": "loot", "cat": "bow"})], ("T-2", "pool.yaml", 14)),
    ("  - {rule: T-3, kind: count, where: {rank: unique}, per: cat, exactly: 1, count: unique}",
     SWORDS, SWORDS + [("unique2", 1, {"type": "loot", "cat": "sword", "rank": "unique"})], ("T-3", "pool.yaml", 14)),
    ("  - {rule: T-4, kind: copies, of: deck, max: {param: limits.copies}, except: {rank: unique}}",
     SWORDS, [("bronze", 3, SWORDS[0][2])] + SWORDS[1:], ("T-4", "pool.yaml", 10)),
    ("  - {rule: T-5, kind: sum, of: deck, field: pts, max: {param: limits.points}}",
     [("a", 2, {"pts": 5})], [("a", 3, {"pts": 4})], ("T-5", "deck.yaml", 1)),
    ("  - {rule: T-6, kind: declared_total, where: {type: loot}, group_by: cat, exclude: {rank: unique},\n"
     "     totals: {param: totals}}",
     SWORDS, SWORDS[1:], ("T-6", "constraints.yaml", None)),
    ("  - {rule: T-8, kind: copies, where: {type: loot}, exactly: 2, except: {rank: [high, unique]}}",
     SWORDS, [("bronze", 1, SWORDS[0][2])] + SWORDS[1:], ("T-8", "pool.yaml", 10)),
    ("  - {rule: T-8, kind: copies, min: 2, where: {rank: low}}",
     SWORDS, SWORDS[:3] + [("short", 1, SWORDS[3][2])], ("T-8", "pool.yaml", 13)),
    ("  - {rule: T-10, kind: count, where: {cat: {param: main}}, exactly: 4}",         # {param} in where
     SWORDS, SWORDS[1:], ("T-10", "constraints.yaml", 2)),
    ("  - {rule: T-7, kind: required, where: {cat: bow}, fields: [rank]}",
     SWORDS, SWORDS[:3] + [("long", 1, {"type": "loot", "cat": "bow"})], ("T-7", "pool.yaml", 13)),
]


@pytest.mark.parametrize("text,legal,broken,expected", CASES, ids=[c[3][0] for c in CASES])
def test_kind_breaks_at_its_line_and_its_twin_passes(text, legal, broken, expected):
    assert run(text, pool(*legal)) == []
    got = run(text, pool(*broken))
    rule, file, line = expected
    assert any(g[0] == rule and g[1] == file and (line is None or g[2] == line) for g in got), got


def test_declared_total_counts_without_the_excluded_tier():
    p = Problems()
    doc = parse_yaml("constraints:\n  - {rule: T-6, kind: declared_total, where: {type: loot}, group_by: cat,\n"
                     "     exclude: {rank: unique}, totals: {sword: 4, bow: 2}}\n", "c.yaml", p)
    evaluate(doc["constraints"], pool(*SWORDS), PARAMS, p)
    (prob,) = p.items            # 4 declared, 3 without the Unique
    assert prob.rule == "T-6" and "is 4 but the cards hold 3" in prob.message and "rank=unique" in prob.message
    assert "published total for cat 'sword'" in prob.message          # the group it failed for


def test_copies_says_which_bound_and_a_where_param_must_exist():
    p = Problems()
    doc = parse_yaml("constraints:\n  - {rule: T-8, kind: copies, exactly: 2, where: {cat: sword}}\n"
                     "  - {rule: T-9, kind: count, where: {cat: {param: nope}}, max: 1}\n", "c.yaml", p)
    evaluate(doc["constraints"], pool(*SWORDS), PARAMS, p)
    msgs = sorted((x.rule, x.loc.line, x.message) for x in p.items)
    assert [(r, ln) for r, ln, _ in msgs] == [("RULES-PARAM", 3), ("T-8", 11), ("T-8", 12)], msgs
    assert "holds 1 copies of 'steel' (Steel); exactly 2 required" in msgs[1][2]


@pytest.mark.parametrize("text,rule", [
    ("  - {rule: T-9, kind: cuont, where: {cat: sword}, exactly: 1}", "RULES-CONSTRAINT"),
    ("  - {kind: count, exactly: 1}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: count, exacly: 1}", "YAML-UNKNOWN-KEY"),
    ("  - {rule: T-9, kind: copies, max: {param: limits.copys}}", "RULES-PARAM"),
    ("  - {rule: T-9, kind: declared_total, group_by: cat, totals: 9}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: count, where: {cat: sword}, exactly: three}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: count, where: [sword], exactly: 1}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: count, per: {cat: 1}, max: 1}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: count, count: designs, max: 1}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: [count], max: 1}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: count, of: [deck], max: 1}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: sum, max: 1}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: required, fields: cost}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: table, key: cat}", "RULES-CONSTRAINT"),                    # no table
    ("  - {rule: T-9, kind: table, key: cat, table: [1, 2]}", "RULES-CONSTRAINT"),     # rows not mappings
    ("  - {rule: T-9, kind: table, key: cat, table: {sword: 3}}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: table, key: [cat, rank], table: {sword: {}}}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: table, key: cat, table: {param: totals}}", "RULES-CONSTRAINT"),
    ("  - {rule: T-9, kind: table, key: cat, table: {}, complete: yes please}", "RULES-CONSTRAINT"),
])
def test_malformed_constraints_are_reported_not_raised(text, rule):
    got = run(text, pool(*SWORDS))
    assert got and got[0][0] == rule and got[0][1] == "constraints.yaml" and got[0][2] == 2, got

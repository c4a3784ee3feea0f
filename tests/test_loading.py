"""Loading YAML with positions, units, schemas and hints."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgen.core.options import Opt, check_mapping
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.units import UnitError, length_mm
from cardgen.core.yamlsrc import inside, parse_yaml, unmojibake


def test_positions_of_keys_and_items():
    p = Problems()
    d = parse_yaml("a: 1\nb:\n  - x\n  - {c: 2}\n", "f.yaml", p)
    assert not p.items
    assert (d.key_at("b").line, d.at("a").col) == (2, 4)
    assert d["b"].at(1).line == 4
    assert d["b"][1].at("c").line == 4


def test_duplicate_keys_are_errors():
    p = Problems()
    parse_yaml("a: 1\nb: 2\na: 3\n", "f.yaml", p)
    (prob,) = p.items
    assert prob.rule == "YAML-DUPLICATE-KEY" and prob.loc.line == 3 and "line 1" in prob.message


def test_syntax_error_has_position():
    p = Problems()
    assert parse_yaml("a: [1, 2\nb: 3\n", "f.yaml", p) is None
    (prob,) = p.items
    assert prob.rule == "YAML-SYNTAX" and prob.loc.line == 1 and "detected at line 2" in prob.message


def test_mojibake_warns_with_repair():
    p = Problems()
    parse_yaml("text: 'Stamina â‰¥ 3'\nok: 'café ≥ 3 → ■'\n", "f.yaml", p)
    (prob,) = p.items
    assert prob.rule == "YAML-MOJIBAKE" and prob.severity == "warning" and prob.loc.line == 1
    assert "≥" in prob.hint
    assert unmojibake("â‰¥") == "≥" and unmojibake("é") is None


@pytest.mark.parametrize("text,mm", [("63mm", 63), ("2.5in", 63.5), ("72pt", 25.4), ("1.5cm", 15), (7, 7),
                                     ("0.5 mm", 0.5), ("-1mm", -1)])
def test_lengths(text, mm):
    assert length_mm(text) == pytest.approx(mm)


@pytest.mark.parametrize("bad", ["63", "mm", "63 px", True, None, [1]])
def test_bad_lengths(bad):
    if bad == "63":
        assert length_mm(bad) == 63
        return
    with pytest.raises(UnitError):
        length_mm(bad)


def test_unknown_key_suggests_nearest():
    p = Problems()
    d = parse_yaml("helth: 3\n", "f.yaml", p)
    check_mapping(d, {"health": Opt("int", required=True)}, p, "card")
    rules = {x.rule: x for x in p.items}
    assert rules["YAML-UNKNOWN-KEY"].hint == "did you mean 'health'?"
    assert "YAML-MISSING-KEY" not in rules      # one slip, one problem: the misspelt key is the missing one
    p = Problems()
    check_mapping(parse_yaml("colour: red\n", "f.yaml", p), {"health": Opt("int", required=True)}, p, "card")
    assert sorted(x.rule for x in p.items) == ["YAML-MISSING-KEY", "YAML-UNKNOWN-KEY"]   # two slips


def test_path_escape():
    assert inside("/tmp", "../../etc/passwd") is None
    assert inside("/tmp", "a/b.png") is not None


def test_did_you_mean():
    assert did_you_mean("rat", ["rats", "brutes"]) == "did you mean 'rats'?"
    assert did_you_mean("zzz", ["rats"]) is None


@given(st.text(max_size=200))
def test_parser_never_raises(text):
    p = Problems()
    parse_yaml(text, "f.yaml", p)


@given(st.one_of(st.text(max_size=12), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none()))
def test_length_parser_only_raises_unit_error(v):
    try:
        length_mm(v)
    except UnitError:
        pass


def test_a_key_written_with_no_value_is_neither_none_nor_silently_its_default():
    p = Problems()
    doc = parse_yaml("gap:\nlabel:\n", "mat.yaml", p)
    r = check_mapping(doc, {"gap": Opt("length", default=5.0), "label": Opt("str", default=None)}, p, "mat 1")
    assert not r.ok
    (prob,) = p.items                       # the optional key without a default may stay empty
    assert (prob.rule, prob.loc.line) == ("YAML-TYPE", 1) and "'gap' of mat 1 is empty" in prob.message
    p2 = Problems()
    r2 = check_mapping(parse_yaml("label: x\n", "mat.yaml", p2), {"gap": Opt("length", default=5.0),
                                                                  "label": Opt("str", default=None)}, p2, "mat 1")
    assert r2.ok and r2.values["gap"] == 5.0 and not p2.items

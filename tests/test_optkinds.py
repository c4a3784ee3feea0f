"""The option kinds (cardgen.core.optkinds): for each type a value that breaks it, with the exact
problem (rule, message, hint), and its legal twin; and what each kind says of itself — its
description, JSON Schema, spreadsheet-cell reading, template reading and docs text."""

import copy
import math

import pytest

from cardgen.core import optkinds
from cardgen.core.options import KINDS, TYPES, Opt, check_mapping, check_value, from_cell, json_schema
from cardgen.core.problems import Loc, Problems
from cardgen.core.yamlsrc import YList, parse_yaml

LOC = Loc("f.yaml", 3, 5)
PALETTE = {"red": "#ff0000", "sea": "#0055aa"}


def check(value, opt):
    p = Problems()
    ok, v = check_value(value, opt, LOC, p, "'x' of card", PALETTE)
    return ok, v, [(q.rule, q.message, q.hint) for q in p.items]


# (option, breaking value, its one problem (rule, message, hint), legal twin, the twin normalised)
CASES = [
    (Opt("int"), "3", ("YAML-TYPE", "'x' of card must be a whole number, not '3'", None), 3, 3),
    (Opt("int"), True, ("YAML-TYPE", "'x' of card must be a whole number, not True", None), 1, 1),
    (Opt("int", rule="G-7"), 2.5, ("G-7", "'x' of card must be a whole number, not 2.5", None), 2, 2),
    (Opt("int", min=1, max=6), 0, ("YAML-RANGE", "'x' of card is 0, below its minimum 1", None), 1, 1),
    (Opt("int", min=1, max=6, rule="G-2"), 7, ("G-2", "'x' of card is 7, above its maximum 6", None), 6, 6),
    (Opt("number"), "2.5", ("YAML-TYPE", "'x' of card must be a number, not '2.5'", None), 2.5, 2.5),
    (Opt("number"), math.inf, ("YAML-TYPE", "'x' of card must be a finite number, not inf", None), 1e300, 1e300),
    (Opt("number", min=0.5), 0.25, ("YAML-RANGE", "'x' of card is 0.25, below its minimum 0.5", None), 0.5, 0.5),
    (Opt("str"), ["a"], ("YAML-TYPE", "'x' of card must be text, not ['a']", None), 12, "12"),
    (Opt("str", required=True), None, ("YAML-TYPE", "'x' of card must be text, not None", None), "", ""),
    (Opt("bool"), "yes", ("YAML-TYPE", "'x' of card must be true or false, not 'yes'", None), False, False),
    (Opt("length"), "3 furlongs", ("YAML-TYPE", None, None), "0.5in", 12.7),
    (Opt("length", min=1), "0.5mm", ("YAML-RANGE", "'x' of card is 0.5, below its minimum 1", None), "1mm", 1.0),
    (Opt("color"), "rde", ("YAML-TYPE", "'x' of card must be a colour ('#rrggbb' or a palette name), not 'rde'",
                           "did you mean 'red'?"), "red", "#ff0000"),
    (Opt("color", rule="G-3"), 7, ("YAML-TYPE", "'x' of card must be a colour ('#rrggbb' or a palette name), not 7",
                                   None), "#a30", "#a30"),
    (Opt("enum", choices=("fire", "ice")), "fier", ("YAML-TYPE", "'x' of card must be one of 'fire', 'ice', not 'fier'",
                                                    "did you mean 'fire'?"), "ice", "ice"),
    (Opt("enum", choices=(1, 2), rule="G-4"), 3, ("G-4", "'x' of card must be one of 1, 2, not 3", None), 2, 2),
    (Opt("list", item=Opt("int")), "1,2", ("YAML-TYPE", "'x' of card must be a list of a whole number, not '1,2'",
                                           None), [1, 2], [1, 2]),
    (Opt("list", item=Opt("int"), rule="G-5"), [1, "b"], ("G-5", "'x' of card[2] must be a whole number, not 'b'",
                                                          None), [1, 2], [1, 2]),
    (Opt("list", item=Opt("str")), ["a", None], ("YAML-TYPE", "'x' of card[2] is empty", None), ["a"], ["a"]),
    (Opt("list", min=2), [1], ("YAML-RANGE", "'x' of card has 1 item(s), fewer than its minimum 2", None),
     [1, "z"], [1, "z"]),
    (Opt("list", max=1, rule="G-6"), [1, 2], ("G-6", "'x' of card has 2 item(s), more than its maximum 1", None),
     [], []),
    (Opt("map"), [1], ("YAML-TYPE", "'x' of card must be a mapping, not [1]", None), {"a": 1}, {"a": 1}),
    (Opt("map", fields={"hp": Opt("int")}), {"hp": None},
     ("YAML-TYPE", "'hp' of 'x' of card is empty: give a whole number", None), {"hp": 4}, {"hp": 4}),
    (Opt("map", fields={"hp": Opt("int")}), {"hpp": 1},
     ("YAML-UNKNOWN-KEY", "unknown key 'hpp' in 'x' of card", "did you mean 'hp'?"), {}, {}),
    (Opt("map", item=Opt("int")), {"ana": "x"}, ("YAML-TYPE", "'x' of card[ana] must be a whole number, not 'x'",
                                                 None), {"ana": 20}, {"ana": 20}),
    (Opt("map", item=Opt("int")), {"ana": None}, ("YAML-TYPE", "'x' of card[ana] is empty: give a whole number",
                                                  None), {"ana": 0}, {"ana": 0}),
]


@pytest.mark.parametrize("opt,bad,problem,good,normal", CASES, ids=[f"{c[0].type}-{i}" for i, c in enumerate(CASES)])
def test_each_kind_breaks_with_its_problem_and_takes_its_legal_twin(opt, bad, problem, good, normal):
    ok, _, probs = check(bad, opt)
    assert not ok and len(probs) == 1, probs
    rule, message, hint = probs[0]
    assert (rule, hint) == problem[::2]
    assert message == problem[1] or (problem[1] is None and message.startswith("'x' of card: ")), message
    ok, v, probs = check(good, opt)
    assert ok and not probs and v == normal and type(v) is type(normal), (v, probs)


@pytest.mark.parametrize("name", [t for t in TYPES if t != "any"])
def test_an_absent_optional_value_is_fine_and_any_takes_everything(name):
    opt = Opt(name, choices=("a",))
    assert check(None, opt) == (True, None, [])
    for v in (None, "x", [1], {"a": None}, math.nan):
        ok, got, probs = check(v, Opt("any", required=True))
        assert ok and not probs and got is v


def test_the_table_names_every_kind_once_and_a_typo_in_a_spec_fails_at_once():
    assert list(TYPES) == ["int", "number", "str", "bool", "length", "color", "list", "map", "any", "enum"]
    assert all(kind.name == name and isinstance(kind, optkinds.Kind) for name, kind in KINDS.items())
    assert Opt("length").kind is KINDS["length"] and copy.deepcopy(Opt("int", item=Opt("str"))).kind is KINDS["int"]
    with pytest.raises(ValueError, match="unknown option type 'lenght'"):
        Opt("lenght")


def test_descriptions():
    assert [Opt(t).describe() for t in ("int", "number", "str", "bool", "length", "color", "map", "any")] == [
        "a whole number", "a number", "text", "true or false", "a length such as '63mm'",
        "a colour such as '#aa3300'", "a mapping", "a value"]
    assert Opt("enum", choices=("a", 2)).describe() == "one of 'a', 2"
    assert Opt("list", item=Opt("list", item=Opt("bool"))).describe() == "a list of a list of true or false"
    assert Opt("list").describe() == "a list"


def test_json_schemas():
    assert json_schema(Opt("int", min=0, max=9, doc="hp", default=3)) == {
        "description": "hp", "type": "integer", "minimum": 0, "maximum": 9, "default": 3}
    assert json_schema(Opt("number", min=1)) == {"type": "number", "minimum": 1}
    assert json_schema(Opt("length", min=1)) == {"type": ["string", "number"]}       # bounds of a length: not in JSON
    assert [json_schema(Opt(t)) for t in ("str", "bool", "color", "any")] == [
        {"type": ["string", "number"]}, {"type": "boolean"}, {"type": "string"}, {}]
    assert json_schema(Opt("enum", choices=("a", "b"))) == {"enum": ["a", "b"]}
    assert json_schema(Opt("list", item=Opt("bool"))) == {"type": "array", "items": {"type": "boolean"}}
    assert json_schema(Opt("map", item=Opt("int"))) == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert json_schema(Opt("map", fields={"a": Opt("int", required=True), "b": Opt("str")})) == {
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": ["string", "number"]}},
        "required": ["a"], "additionalProperties": False}


def cell(value, opt):
    return from_cell(value, opt, LOC)


def test_spreadsheet_cells():
    assert cell(" 12 ", Opt("int")) == 12 and cell("1.5", Opt("int")) == "1.5" and cell(3.0, Opt("int")) == 3
    assert cell("1.5", Opt("number")) == 1.5 and cell("2", Opt("number")) == 2 and cell(3.0, Opt("number")) == 3.0
    assert type(cell(3.0, Opt("number"))) is float
    assert cell(" Fire ", Opt("str")) == " Fire " and cell(3.0, Opt("str")) == "3" and cell(2.5, Opt("str")) == "2.5"
    assert cell("Yes", Opt("bool")) is True and cell("no", Opt("bool")) is False and cell("maybe", Opt("bool")) == "maybe"
    assert cell(" 3mm", Opt("length")) == " 3mm" and cell(" red", Opt("color")) == " red"
    assert cell(" 2 ", Opt("enum", choices=(1, 2))) == 2 and cell("x ", Opt("enum", choices=("a",))) == "x"
    assert cell(" 7", Opt("any")) == 7 and cell("7.5", Opt("any")) == 7.5 and cell("TRUE", Opt("any")) is True
    got = cell("1; 2;;x", Opt("list", item=Opt("int")))
    assert isinstance(got, YList) and got == [1, 2, "x"] and got.at(2) == LOC
    assert cell("[]", Opt("list")) == [] and cell("a;3", Opt("list")) == ["a", 3]     # items with no type: any
    assert cell('{"a": 1}', Opt("map")) == {"a": 1} and cell("{oops", Opt("map")) == "{oops"
    assert cell('[{"a": 1}]', Opt("list", item=Opt("map"))) == [{"a": 1}]
    assert cell('[1]', Opt("list", item=Opt("int"))) == ["[1]"]         # a list of numbers is never JSON


def test_rendered_template_text():
    assert KINDS["int"].rendered("3") == 3 and KINDS["int"].rendered("3.5") == "3.5"
    assert KINDS["number"].rendered("3.5") == 3.5 and KINDS["number"].rendered("x") == "x"
    assert KINDS["bool"].rendered(" true") is True and KINDS["bool"].rendered("False") is False
    assert KINDS["length"].rendered("3mm") == "3mm" and KINDS["str"].rendered(" a ") == " a "


def test_docs_text():
    assert KINDS["int"].type_text(Opt("int", min=1, max=6)) == "whole number 1–6"
    assert KINDS["number"].type_text(Opt("number", min=0)) == "number ≥ 0"
    assert KINDS["length"].type_text(Opt("length", max=5)) == "length ≤ 5"
    assert Opt("list", item=Opt("enum", choices=("a", "b"))).kind.type_text(
        Opt("list", item=Opt("enum", choices=("a", "b")))) == "list of `a` / `b`"
    assert KINDS["map"].type_text(Opt("map", item=Opt("bool"))) == "mapping of true / false"
    assert KINDS["length"].doc_default(2) == "`2mm`" and KINDS["str"].doc_default("") == "`''`"
    assert KINDS["bool"].doc_default(True) == "`true`" and KINDS["color"].doc_default("#fff") == "`#fff`"
    assert KINDS["length"].doc_note() and not KINDS["int"].doc_note()
    assert [t for t, k in KINDS.items() if not k.by_name] == ["enum"]


def test_a_mapping_with_positions_reports_each_problem_at_its_line():
    p = Problems()
    d = parse_yaml("hp: x\nsize: 3parsecs\nkind: fier\n", "c.yaml", p)
    spec = {"hp": Opt("int"), "size": Opt("length"), "kind": Opt("enum", choices=("fire", "ice"))}
    res = check_mapping(d, spec, p, "card")
    assert not res.ok and [(q.rule, q.loc.line) for q in p.items] == [("YAML-TYPE", 1), ("YAML-TYPE", 2),
                                                                      ("YAML-TYPE", 3)]


@pytest.mark.parametrize("text", ["#aa3300", "#AbC", "#000", "#ffffff", "#12345", "#abcd", "aa3300",
                                  "#aa3300 ", "red", "#gg0000", "", "#aa3300\n"])
def test_plain_text_is_the_kinds_own_verdict(text):
    """A text a kind passes by its ``plain_text`` pattern (without its check) is one its check passes
    unchanged; any other gets the check's verdict and problems, directly and in a mapping."""
    for kind in KINDS.values():
        if kind.plain_text is None or not kind.plain_text.match(text):
            continue
        p = Problems()
        assert kind.validate(text, Opt(kind.name), LOC, p, "'x' of card", PALETTE) == (True, text)
        assert not p.items
    opt = Opt("color")
    p = Problems()
    direct = optkinds.Color().validate(text, opt, LOC, p, "'x' of card", PALETTE)
    assert check(text, opt) == (*direct, [(q.rule, q.message, q.hint) for q in p.items])
    p2 = Problems()
    got = check_mapping({"x": text}, {"x": opt}, p2, "card", PALETTE)
    assert (got.ok, got.values["x"] if got.ok else None) == (direct[0], direct[1] if direct[0] else None)
    assert [q.message for q in p2.items] == [q.message for q in p.items]
    assert any(k.plain_text is not None for k in KINDS.values())

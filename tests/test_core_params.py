"""The one dotted-parameter lookup (cardgen.core.params) and every reader that goes through it:
constraints, card field declarations, board files, the engines' Params and the simulator's --vary."""

from pathlib import Path
from types import SimpleNamespace

import pytest

from cardgen.boards.common import param
from cardgen.content.constraints import resolve_param
from cardgen.core.options import opt_from_yaml
from cardgen.core.params import ParamMissing, find, is_ref, lookup, missing, resolve
from cardgen.core.problems import Loc, Problems
from cardgen.play import params as play_params
from cardgen.play.params import ParamError, Params
from cardgen.simulate.spec import with_param

PARAMS = {"deck": {"size": 30, "copies": {"max": 3}}, "levels": {2: "two"}, "traits": ["swift", {"id": "sly"}],
          "none": None}
LOC = Loc("constraints.yaml", 4, 7)


def test_lookup_walks_mappings_by_dotted_path_or_keys():
    assert lookup(PARAMS, "deck.copies.max") == 3 and lookup(PARAMS, ["deck", "size"]) == 30
    assert lookup(PARAMS, "levels.2") == "two" and lookup(PARAMS, "none") is None
    assert lookup(PARAMS, "deck.colour", default=7) == 7
    assert play_params.lookup is lookup             # the engines' name for it is the same function


@pytest.mark.parametrize("path,prefix,hint", [
    ("deck.copy.max", "deck.copy", "did you mean 'copies'?"),
    ("dek", "dek", "did you mean 'deck'?"),
    ("deck.size.max", "deck.size.max", None),           # a number has no keys
    ("traits.0", "traits.0", None),                     # lists are not walked
])
def test_a_missing_path_names_its_missing_prefix_and_the_nearest_key(path, prefix, hint):
    with pytest.raises(ParamMissing) as e:
        lookup(PARAMS, path)
    assert isinstance(e.value, KeyError) and e.value.args[0] == prefix and e.value.hint() == hint


def test_resolve_reads_a_param_reference_and_reports_a_missing_one_one_way():
    p = Problems()
    assert resolve({"param": "deck.size"}, PARAMS, p, LOC) == 30 and resolve(5, PARAMS, p, LOC) == 5
    assert resolve({"param": "deck.size", "x": 1}, PARAMS, p, LOC) == {"param": "deck.size", "x": 1}
    assert not p.items and is_ref({"param": "a"}) and not is_ref({"param": "a", "b": 1})
    assert resolve({"param": "deck.sise"}, PARAMS, p, LOC, "field 'hp' of card") is None
    (q,) = p.items
    assert (q.rule, q.message, q.hint, q.loc) == (
        "RULES-PARAM", "field 'hp' of card: parameter 'deck.sise' is not defined in params.yaml",
        "did you mean 'size'?", LOC)
    assert missing("a.b") == "parameter 'a.b' is not defined in params.yaml"
    assert find("deck.size", PARAMS, p, LOC) == (True, 30)


def test_constraints_and_board_files_report_the_same_problem():
    for read in (lambda v, p: resolve_param(v, PARAMS, p, LOC),
                 lambda v, p: param(v, SimpleNamespace(params=PARAMS), p, LOC)):
        p = Problems()
        assert read({"param": "deck.size"}, p) == 30 and not p.items
        assert read({"param": "deck.copies.mx"}, p) is None
        assert [(q.rule, q.message, q.hint) for q in p.items] == [
            ("RULES-PARAM", "parameter 'deck.copies.mx' is not defined in params.yaml", "did you mean 'max'?")]


def test_field_declarations_read_bounds_and_choices_from_params():
    p = Problems()
    opt = opt_from_yaml({"type": "int", "max": {"param": "deck.copies.max"}}, LOC, p, "field 'n'", PARAMS)
    assert opt is not None and opt.max == 3
    opt = opt_from_yaml({"enum": {"param": "traits"}}, LOC, p, "field 't'", PARAMS)
    assert opt is not None and opt.choices == ("swift", "sly") and not p.items
    opt = opt_from_yaml({"type": "int", "min": {"param": "deck.mn"}}, LOC, p, "field 'n'", PARAMS)
    assert opt is not None and opt.min is None          # reported; the field itself still declared
    assert opt_from_yaml({"enum": {"param": "trait"}}, LOC, p, "field 't'", PARAMS) is None
    assert opt_from_yaml({"enum": {"param": "deck.size"}}, LOC, p, "field 'u'", PARAMS) is None
    assert [(q.rule, q.message, q.hint) for q in p.items] == [
        ("RULES-PARAM", "field 'n': parameter 'deck.mn' is not defined in params.yaml", None),
        ("RULES-PARAM", "field 't': parameter 'trait' is not defined in params.yaml", "did you mean 'traits'?"),
        ("RULES-PARAM", "field 'u': parameter 'deck.size' is not a list or mapping", None)]


def test_a_field_default_may_be_a_param():
    """``default: {param: …}`` is the parameter's value (a team's own number defaulting to the
    shared one); a literal default stays as written; a missing parameter is one problem."""
    p = Problems()
    opt = opt_from_yaml({"type": "int", "default": {"param": "deck.size"}}, LOC, p, "field 'n'", PARAMS)
    assert opt is not None and opt.default == 30 and not opt.required and not p.items
    opt = opt_from_yaml({"type": "int", "default": 4}, LOC, p, "field 'n'", PARAMS)
    assert opt is not None and opt.default == 4
    opt_from_yaml({"type": "int", "default": {"param": "deck.sise"}}, LOC, p, "field 'n'", PARAMS)
    assert [(q.rule, q.message) for q in p.items] == [
        ("RULES-PARAM", "field 'n': parameter 'deck.sise' is not defined in params.yaml")]


def test_the_engines_params_say_which_key_is_missing():
    params = Params(PARAMS, Path("rules/x/params.yaml"))
    assert params.int("deck.copies.max") == 3 and params.has("levels.2") and not params.has("deck.colour")
    with pytest.raises(ParamError, match=r"^params.yaml lacks 'deck.colour', which the rules engine needs$"):
        params.int("deck.colour.dark")
    assert params.int("deck.colour", default=0) == 0


def test_vary_writes_where_the_lookup_reads():
    game = SimpleNamespace(params={"deck": {"size": 30}, "levels": {2: "two"}})
    g = with_param(game, "deck.size", 40)
    g2 = with_param(game, "levels.2", "deux")
    assert g.params["deck"]["size"] == 40 and g2.params["levels"] == {2: "deux"} and game.params["deck"]["size"] == 30

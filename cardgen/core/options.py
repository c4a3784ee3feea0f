"""Typed option schemas: every key a file may hold, its type, limits and documentation.

Used for the framework's own files (game.yaml, templates, decks) and, built from YAML,
for each game's card fields. Unknown keys get a "did you mean …?"; no key is filled in
silently — a default exists only where the schema documents it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.units import UnitError, length_mm
from cardgen.core.yamlsrc import YDict, YList

TYPES = ("int", "number", "str", "bool", "length", "color", "list", "map", "any", "enum")
_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$")
MISSING = object()


@dataclass
class Opt:
    """One option: its type, whether it is required, its documented default and limits."""

    type: str = "any"
    required: bool = False
    default: Any = MISSING
    doc: str = ""
    choices: tuple = ()
    min: float | None = None
    max: float | None = None
    item: Opt | None = None
    fields: dict[str, Opt] | None = None
    rule: str | None = None        # catalogue rule reported for a bad value (else YAML-TYPE/RANGE)
    ref: str | None = None         # the value is the id of a card of this card type (CARD-REF)

    def describe(self) -> str:
        if self.type == "enum":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.type == "list" and self.item:
            return f"a list of {self.item.describe()}"
        return {"int": "a whole number", "number": "a number", "str": "text", "bool": "true or false",
                "length": "a length such as '63mm'", "color": "a colour such as '#aa3300'",
                "map": "a mapping", "list": "a list", "any": "a value"}.get(self.type, self.type)


@dataclass
class Checked:
    """The result of checking a mapping: normalised values and whether all went well."""

    values: dict = field(default_factory=dict)
    ok: bool = True


class _Bad:
    """The "must be …" message, composed only when a value is wrong."""

    def __init__(self, what: str, opt: Opt, value: Any):
        self.what, self.opt, self.value = what, opt, value

    def __str__(self) -> str:
        return f"{self.what} must be {self.opt.describe()}, not {self.value!r}"


def check_value(value: Any, opt: Opt, loc: Loc, problems: Problems, what: str,
                colors: dict | None = None) -> tuple[bool, Any]:
    """Check one value against ``opt``; returns (ok, normalised value)."""
    if opt.type in ("int", "number") and type(value) in (int, float) and opt.min is None and opt.max is None:
        if type(value) is int or (opt.type == "number" and math.isfinite(value)):
            return True, value
    bad = _Bad(what, opt, value)
    t = opt.type
    if t == "any":
        return True, value
    if value is None and not opt.required:
        return True, None
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            problems.error(opt.rule or "YAML-TYPE", str(bad), loc)
            return False, None
    elif t == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.error(opt.rule or "YAML-TYPE", str(bad), loc)
            return False, None
        if not math.isfinite(value):        # NaN compares false with every bound; infinity fits none
            problems.error(opt.rule or "YAML-TYPE", f"{what} must be a finite number, not {value!r}", loc)
            return False, None
    elif t == "str":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            problems.error(opt.rule or "YAML-TYPE", str(bad), loc)
            return False, None
    elif t == "bool":
        if not isinstance(value, bool):
            problems.error(opt.rule or "YAML-TYPE", str(bad), loc)
            return False, None
    elif t == "length":
        try:
            value = length_mm(value)
        except UnitError as e:
            problems.error("YAML-TYPE", f"{what}: {e}", loc)
            return False, None
    elif t == "color":
        if isinstance(value, str) and _COLOR.match(value):
            pass
        elif isinstance(value, str) and colors is not None and value in colors:
            value = colors[value]
        else:
            problems.error("YAML-TYPE", f"{what} must be a colour ('#rrggbb' or a palette name), not {value!r}",
                           loc, hint=did_you_mean(value, colors or {}) if isinstance(value, str) else None)
            return False, None
    elif t == "enum":
        if value not in opt.choices:
            problems.error(opt.rule or "YAML-TYPE", str(bad), loc, hint=did_you_mean(str(value), [str(c) for c in opt.choices]))
            return False, None
    elif t == "list":
        if not isinstance(value, list):
            problems.error(opt.rule or "YAML-TYPE", str(bad), loc)
            return False, None
        if opt.item is not None:
            if opt.rule and opt.item.rule is None:
                opt.item.rule = opt.rule
        n = len(value)
        if opt.min is not None and n < opt.min:
            problems.error(opt.rule or "YAML-RANGE", f"{what} has {n} item(s), fewer than its minimum {opt.min:g}", loc)
            return False, value
        if opt.max is not None and n > opt.max:
            problems.error(opt.rule or "YAML-RANGE", f"{what} has {n} item(s), more than its maximum {opt.max:g}", loc)
            return False, value
        if opt.item is not None:
            out, ok = [], True
            for i, v in enumerate(value):
                iloc = value.at(i) if isinstance(value, YList) else loc
                if v is None:       # an empty item ("- ") is never a value
                    problems.error(opt.rule or "YAML-TYPE", f"{what}[{i + 1}] is empty", iloc)
                    ok = False
                    out.append(None)
                    continue
                good, nv = check_value(v, opt.item, iloc, problems, f"{what}[{i + 1}]", colors)
                ok = ok and good
                out.append(nv)
            return ok, out
        return True, value
    elif t == "map":
        if not isinstance(value, dict):
            problems.error(opt.rule or "YAML-TYPE", str(bad), loc)
            return False, None
        if opt.fields is not None:
            empty = [k for k, o in opt.fields.items() if k in value and value[k] is None and o.type != "any"]
            for k in empty:         # ``{agility: null}``: a typed value left out is no value
                problems.error(opt.rule or "YAML-TYPE", f"'{k}' of {what} is empty: give {opt.fields[k].describe()}",
                               value.at(k) if isinstance(value, YDict) else loc)
            res = check_mapping(value, opt.fields, problems, what, colors, fill_absent=False)
            return res.ok and not empty, res.values
        if opt.item is not None:            # ``{ana: 20, ben: 14}``: every value of the item type
            out_map, ok = {}, True
            for k, v in value.items():
                kloc = value.at(k) if isinstance(value, YDict) else loc
                if v is None and opt.item.type != "any":
                    problems.error(opt.rule or "YAML-TYPE", f"{what}[{k}] is empty: give {opt.item.describe()}",
                                   kloc)
                    ok = False
                    continue
                good, nv = check_value(v, opt.item, kloc, problems, f"{what}[{k}]", colors)
                ok = ok and good
                out_map[k] = nv
            if isinstance(value, YDict):
                typed = YDict(out_map)
                typed.loc, typed.key_locs, typed.val_locs = value.loc, value.key_locs, value.val_locs
                return ok, typed
            return ok, out_map
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if opt.min is not None and value < opt.min:
            problems.error(opt.rule or "YAML-RANGE", f"{what} is {value}, below its minimum {opt.min:g}", loc)
            return False, value
        if opt.max is not None and value > opt.max:
            problems.error(opt.rule or "YAML-RANGE", f"{what} is {value}, above its maximum {opt.max:g}", loc)
            return False, value
    return True, value


def check_mapping(d: Any, spec: dict[str, Opt], problems: Problems, what: str,
                  colors: dict | None = None, extra_ok: bool = False, fill_absent: bool = True) -> Checked:
    """Check a mapping against ``spec``: unknown keys, missing keys, types; normalise values.

    Absent optional keys get their documented default, or None when ``fill_absent``
    (top-level records, so templates can test ``x is none``); nested maps keep them absent.
    """
    res = Checked()
    loc = getattr(d, "loc", None)
    if not isinstance(d, dict):
        problems.error("YAML-TYPE", f"{what} must be a mapping, not {d!r}", loc)
        res.ok = False
        return res
    meant: set[str] = set()         # keys a misspelt key stands for: not also "missing" (one slip, one problem)
    for key in d:
        if key not in spec and not extra_ok:
            hint = did_you_mean(key, spec)
            problems.error("YAML-UNKNOWN-KEY", f"unknown key '{key}' in {what}",
                           d.key_at(key) if isinstance(d, YDict) else loc, hint=hint)
            meant |= {k for k in spec if k not in d and hint == f"did you mean '{k}'?"}
            res.ok = False
    for key, opt in spec.items():
        if key in d and d[key] is None and opt.default is not MISSING and opt.default is not None:
            # ``gap:`` with no value: neither the value nor, silently, the default
            problems.error("YAML-TYPE", f"'{key}' of {what} is empty: give {opt.describe()}, or leave the key "
                           f"out for its default {opt.default!r}", d.at(key) if isinstance(d, YDict) else loc)
            res.ok = False
        elif key in d:
            vloc = d.at(key) if isinstance(d, YDict) else loc
            ok, v = check_value(d[key], opt, vloc, problems, f"'{key}' of {what}", colors)
            res.ok = res.ok and ok
            res.values[key] = v
        elif opt.required and key in meant:
            res.ok = False
        elif opt.required:
            problems.error(opt.rule or "YAML-MISSING-KEY",
                           f"{what} lacks required key '{key}' ({opt.doc or opt.describe()})", loc)
            res.ok = False
        elif opt.default is not MISSING:
            res.values[key] = opt.default
        elif fill_absent:
            res.values[key] = None
    if extra_ok:
        for key in d:
            if key not in spec:
                res.values[key] = d[key]
    return res


def _param(ref: Any, params: Any, problems: Problems, loc: Loc | None, what: str) -> Any:
    """A number given as ``{param: a.b}`` → its value in params.yaml (plain values pass through)."""
    if isinstance(ref, dict) and set(ref) == {"param"}:
        node = params
        for part in str(ref["param"]).split("."):
            if not (isinstance(node, dict) and part in node):
                problems.error("RULES-PARAM", f"{what}: parameter '{ref['param']}' is not defined in params.yaml",
                               loc)
                return None
            node = node[part]
        return node
    return ref


def _choices_from_params(ref: Any, params: Any, problems: Problems, loc: Loc | None, what: str) -> list | None:
    """``{param: traits}`` → the parameter's keys (a mapping), or its items (a list; of ``id``s for mappings)."""
    node = params
    for part in str(ref).split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            problems.error("RULES-PARAM", f"{what}: parameter '{ref}' is not defined in params.yaml", loc,
                           hint=did_you_mean(part, node.keys() if isinstance(node, dict) else []))
            return None
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return [x.get("id", x.get("name")) if isinstance(x, dict) else x for x in node]
    problems.error("RULES-PARAM", f"{what}: parameter '{ref}' is not a list or mapping", loc)
    return None


def opt_from_yaml(spec: Any, loc: Loc | None, problems: Problems, what: str, params: Any = None) -> Opt | None:
    """Build an :class:`Opt` from a game's YAML field declaration.

    ``int`` | ``str`` | ``{type: int, min: 0, optional: true}`` | ``{enum: [a, b]}`` |
    ``{enum: {param: traits}}`` (choices from params.yaml) | ``{type: list, item: str}``;
    ``rule: BW-CARD-1`` reports a bad value under that catalogue rule; ``ref: enemy``: the value
    (or each item of a list) is the id of a card of that card type.
    """
    if isinstance(spec, str):
        if spec not in TYPES or spec == "enum":
            problems.error("YAML-TYPE", f"unknown field type '{spec}' for {what}", loc,
                           hint=did_you_mean(spec, TYPES))
            return None
        return Opt(type=spec, required=True)
    if isinstance(spec, dict):
        allowed = {"type", "optional", "enum", "min", "max", "item", "doc", "default", "rule", "fields", "ref"}
        for k in spec:
            if k not in allowed:
                problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' in field declaration of {what}",
                               spec.key_at(k) if isinstance(spec, YDict) else loc, hint=did_you_mean(k, allowed))
                return None
        if "enum" in spec:
            choices = spec["enum"]
            if isinstance(choices, dict) and set(choices) == {"param"}:
                choices = _choices_from_params(choices["param"], params, problems, loc, what)
                if choices is None:
                    return None
            if not isinstance(choices, list) or not choices:
                problems.error("YAML-TYPE", f"'enum' of {what} must be a non-empty list", loc)
                return None
            opt = Opt(type="enum", choices=tuple(choices))
        else:
            base = opt_from_yaml(spec.get("type", "any"), loc, problems, what, params)
            if base is None:
                return None
            opt = base
            if "item" in spec:
                opt.item = opt_from_yaml(spec["item"], loc, problems, f"items of {what}", params)
            if "fields" in spec:
                fdefs = spec["fields"]
                if not isinstance(fdefs, dict):
                    problems.error("YAML-TYPE", f"'fields' of {what} must be a mapping", loc)
                    return None
                opt.fields = {}
                for k, fs in fdefs.items():
                    sub = opt_from_yaml(fs, fdefs.at(k) if isinstance(fdefs, YDict) else loc, problems,
                                        f"field '{k}' of {what}", params)
                    if sub is None:
                        return None
                    opt.fields[str(k)] = sub
        opt.required = not spec.get("optional", False) and "default" not in spec
        for bound in ("min", "max"):
            bloc = spec.at(bound) if isinstance(spec, YDict) and bound in spec else loc
            value = _param(spec.get(bound), params, problems, bloc, what)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or value != value):       # NaN: every comparison with it is false
                problems.error("YAML-TYPE", f"'{bound}' of {what} must be a number or {{param: name}} of one, "
                               f"not {value!r}", bloc)
                return None
            setattr(opt, bound, value)
        opt.doc = str(spec.get("doc", ""))
        opt.rule = str(spec["rule"]) if spec.get("rule") else None
        opt.ref = str(spec["ref"]) if spec.get("ref") else None
        if opt.item is not None and opt.rule and opt.item.rule is None:
            opt.item.rule = opt.rule
        if "default" in spec:
            opt.default = spec["default"]
        return opt
    problems.error("YAML-TYPE", f"field declaration of {what} must be a type name or a mapping", loc)
    return None


__all__ = ["Opt", "Checked", "check_mapping", "check_value", "opt_from_yaml", "YDict", "MISSING"]

"""Typed option schemas: every key a file may hold, its type, limits and documentation.

Used for the framework's own files (game.yaml, templates, decks) and, built from YAML,
for each game's card fields. Unknown keys get a "did you mean …?"; no key is filled in
silently — a default exists only where the schema documents it.

An :class:`Opt` names its type; :data:`KINDS` is the table from type name to the kind class
(:mod:`cardgen.core.optkinds`) that owns what the type means: check, description, JSON Schema,
spreadsheet cells, docs.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from cardgen.core import optkinds
from cardgen.core.optbase import MISSING, Checked, Kind, check_mapping, check_value, from_cell, json_schema
from cardgen.core.params import find, resolve
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict

#: type name → its kind: the one table of option types
KINDS: dict[str, Kind] = {k.name: k for k in (
    optkinds.Int(), optkinds.Number(), optkinds.Str(), optkinds.Bool(), optkinds.Length(), optkinds.Color(),
    optkinds.List(), optkinds.Map(), optkinds.Any(), optkinds.Enum())}
TYPES = tuple(KINDS)


@record
class Opt:
    """One option: its type, whether it is required, its documented default and limits.

    ``kind`` is the type's class from :data:`KINDS`, fixed when the option is made.
    """

    type: str = "any"
    required: bool = False
    default: Any = MISSING
    doc: str = ""
    choices: tuple[Any, ...] = ()
    min: float | None = None
    max: float | None = None
    item: Opt | None = None
    fields: dict[str, Opt] | None = None
    rule: str | None = None        # catalogue rule reported for a bad value (else YAML-TYPE/RANGE)
    ref: str | None = None         # the value is the id of a card of this card type (CARD-REF)
    kind: Kind = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            self.kind = KINDS[self.type]
        except KeyError:
            raise ValueError(f"unknown option type {self.type!r} (known: {', '.join(TYPES)})") from None

    def describe(self) -> str:
        return self.kind.describe(self)


def _choices_from_params(ref: Any, params: Any, problems: Problems, loc: Loc | None,
                         what: str) -> list[Any] | None:
    """``{param: traits}`` → the parameter's keys (a mapping), or its items (a list; of ``id``s for mappings)."""
    found, node = find(ref, params, problems, loc, what)
    if not found:
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
    ``{enum: {param: traits}}`` (choices from params.yaml) | ``{type: list, item: str}``; ``min``,
    ``max`` and ``default`` may be ``{param: name}`` (the parameter's value);
    ``rule: BW-CARD-1`` reports a bad value under that catalogue rule; ``ref: enemy``: the value
    (or each item of a list) is the id of a card of that card type.
    """
    if isinstance(spec, str):
        if spec not in KINDS or not KINDS[spec].by_name:
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
            value = resolve(spec.get(bound), params, problems, bloc, what)
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
        # a number, text…, or {param: name}: the parameter's value, like min and max
        if "default" in spec:
            dloc = spec.at("default") if isinstance(spec, YDict) else loc
            opt.default = resolve(spec["default"], params, problems, dloc, what)
        return opt
    problems.error("YAML-TYPE", f"field declaration of {what} must be a type name or a mapping", loc)
    return None


__all__ = ["KINDS", "MISSING", "TYPES", "Checked", "Kind", "Opt", "YDict", "check_mapping", "check_value",
           "from_cell", "json_schema", "opt_from_yaml"]

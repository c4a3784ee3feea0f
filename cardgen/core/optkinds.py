"""The option kinds: one class per type an option may have, each with its own check, description,
JSON Schema, spreadsheet-cell reading and docs text (see :mod:`cardgen.core.optbase`).

``Int`` ``Number`` ``Str`` ``Bool`` ``Length`` ``Color`` ``Enum`` ``List`` ``Map`` ``Any``; the
table from the type names of game.yaml and the framework's specs to these is
:data:`cardgen.core.options.KINDS`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any as AnyValue

from cardgen.core.optbase import (
    Colors,
    Kind,
    Spec,
    check_mapping,
    check_value,
    from_cell,
    json_schema,
    object_schema,
)
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.units import UnitError, length_mm
from cardgen.core.yamlsrc import YDict, YList

_INT = re.compile(r"^[+-]?\d{1,1000}$")     # longer: text (Python refuses > 4,300 digits)
_NUM = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$")
#: between the items of a list written in one spreadsheet cell
CELL_SEP = ";"
Result = tuple[bool, AnyValue]


def _bounds(opt: Spec) -> dict[str, AnyValue]:
    return {**({"minimum": opt.min} if opt.min is not None else {}),
            **({"maximum": opt.max} if opt.max is not None else {})}


class Int(Kind):
    """A whole number (``true`` is not one)."""

    name, text, word, plain, numeric, whole_cells = "int", "a whole number", "whole number", (int,), True, True

    def check(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> Result:
        if isinstance(value, bool) or not isinstance(value, int):
            return self.wrong(value, opt, loc, problems, what)
        return True, value

    def rendered(self, text: str) -> AnyValue:
        try:
            return int(text)
        except ValueError:
            return text

    def cell_text(self, raw: str, text: str, opt: Spec) -> AnyValue:
        return int(text) if _INT.match(text) else text

    def widest(self, opt: Spec) -> list[AnyValue]:
        low = [math.ceil(opt.min)] if opt.min is not None else []
        return low + ([math.floor(opt.max)] if opt.max is not None else [])

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"type": "integer", **_bounds(opt)}


class Number(Kind):
    """A finite number, whole or not."""

    name, text, word, plain, numeric = "number", "a number", "number", (int, float), True

    def check(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> Result:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return self.wrong(value, opt, loc, problems, what)
        if not math.isfinite(value):        # NaN compares false with every bound; infinity fits none
            problems.error(opt.rule or "YAML-TYPE", f"{what} must be a finite number, not {value!r}", loc)
            return False, None
        return True, value

    def rendered(self, text: str) -> AnyValue:
        try:
            return float(text)
        except ValueError:
            return text

    def cell_text(self, raw: str, text: str, opt: Spec) -> AnyValue:
        if _INT.match(text):
            return int(text)
        return float(text) if _NUM.match(text) else text

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"type": "number", **_bounds(opt)}


class Str(Kind):
    """Text; a number written where text is wanted reads as its text."""

    name, text, word, plain, whole_cells = "str", "text", "text", (str,), True

    def check(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> Result:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            return self.wrong(value, opt, loc, problems, what)
        return True, value

    def cell(self, value: AnyValue, opt: Spec, loc: Loc) -> AnyValue:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return value if isinstance(value, str) else str(value)

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"type": ["string", "number"]}          # the checker reads a number as text


class Bool(Kind):
    """``true`` or ``false``."""

    name, text, word, plain = "bool", "true or false", "true / false", (bool,)

    def check(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> Result:
        if not isinstance(value, bool):
            return self.wrong(value, opt, loc, problems, what)
        return True, value

    def rendered(self, text: str) -> AnyValue:
        return text.strip() in ("True", "true", "1")

    def cell_text(self, raw: str, text: str, opt: Spec) -> AnyValue:
        return text.lower() in ("true", "yes") if text.lower() in ("true", "false", "yes", "no") else text

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"type": "boolean"}

    def widest(self, opt: Spec) -> list[AnyValue]:
        return [False, True]


class Length(Kind):
    """A length, normalised to millimetres: a number (mm) or text with a unit ('63mm', '0.2in')."""

    name, text, word = "length", "a length such as '63mm'", "length"

    def check(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> Result:
        try:
            return True, length_mm(value)
        except UnitError as e:
            problems.error("YAML-TYPE", f"{what}: {e}", loc)
            return False, None

    def cell_text(self, raw: str, text: str, opt: Spec) -> AnyValue:
        return raw

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"type": ["string", "number"]}

    def doc_note(self) -> str:
        return " (mm, or 3mm, 0.2in, 6pt)"

    def doc_default(self, value: AnyValue) -> str:
        if isinstance(value, (int, float)):
            return f"`{value:g}mm`"
        return super().doc_default(value)


class Color(Kind):
    """A colour: '#rrggbb', '#rgb' or a name from the game's palette (read as its '#rrggbb')."""

    name, text, word = "color", "a colour such as '#aa3300'", "colour"
    plain_text = _COLOR

    def check(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> Result:
        if isinstance(value, str) and _COLOR.match(value):
            return True, value
        if isinstance(value, str) and colors is not None and value in colors:
            return True, colors[value]
        problems.error("YAML-TYPE", f"{what} must be a colour ('#rrggbb' or a palette name), not {value!r}",
                       loc, hint=did_you_mean(value, colors or {}) if isinstance(value, str) else None)
        return False, None

    def cell_text(self, raw: str, text: str, opt: Spec) -> AnyValue:
        return raw

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"type": "string"}


class Enum(Kind):
    """One of the option's ``choices``."""

    name, word, by_name, whole_cells = "enum", "enum", False, True

    def describe(self, opt: Spec) -> str:
        return "one of " + ", ".join(repr(c) for c in opt.choices)

    def check(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> Result:
        if value not in opt.choices:
            problems.error(opt.rule or "YAML-TYPE", f"{what} must be {opt.describe()}, not {value!r}", loc,
                           hint=did_you_mean(str(value), [str(c) for c in opt.choices]))
            return False, None
        return True, value

    def cell_text(self, raw: str, text: str, opt: Spec) -> AnyValue:
        return next((c for c in opt.choices if str(c) == text), text)

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"enum": list(opt.choices)}

    def type_text(self, opt: Spec) -> str:
        return " / ".join(f"`{c}`" for c in opt.choices)


class List(Kind):
    """A list; with ``item``, each item of that option; ``min``/``max`` bound how many items."""

    name, text, word, container, row_suffix = "list", "a list", "list", True, "[]"

    def describe(self, opt: Spec) -> str:
        return f"a list of {opt.item.describe()}" if opt.item else self.text

    def validate(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
                 colors: Colors | None) -> Result:
        if value is None and not opt.required:
            return True, None
        if not isinstance(value, list):
            return self.wrong(value, opt, loc, problems, what)
        item = opt.item
        if item is not None and opt.rule and item.rule is None:
            item.rule = opt.rule            # a field's rule is also its items' rule
        n = len(value)
        if opt.min is not None and n < opt.min:
            problems.error(opt.rule or "YAML-RANGE", f"{what} has {n} item(s), fewer than its minimum {opt.min:g}", loc)
            return False, value
        if opt.max is not None and n > opt.max:
            problems.error(opt.rule or "YAML-RANGE", f"{what} has {n} item(s), more than its maximum {opt.max:g}", loc)
            return False, value
        if item is None:
            return True, value
        out: list[AnyValue] = []
        ok = True
        for i, v in enumerate(value):
            iloc = value.at(i) if isinstance(value, YList) else loc
            if v is None:       # an empty item ("- ") is never a value
                problems.error(opt.rule or "YAML-TYPE", f"{what}[{i + 1}] is empty", iloc)
                ok = False
                out.append(None)
                continue
            good, nv = check_value(v, item, iloc, problems, f"{what}[{i + 1}]", colors)
            ok = ok and good
            out.append(nv)
        return ok, out

    def cell(self, value: AnyValue, opt: Spec, loc: Loc) -> AnyValue:
        """``a;b;c`` (``[]``: an empty list; an empty cell is an absent key)."""
        if str(value).strip() == "[]":
            value = ""
        items = [x.strip() for x in str(value).split(CELL_SEP)]
        out = YList(from_cell(x, opt.item, loc) if opt.item is not None else _ANY.cell(x, opt, loc)
                    for x in items if x != "")
        out.loc = loc
        out.item_locs = [loc] * len(out)
        return out

    def structured(self, opt: Spec) -> bool:
        return opt.item is not None and opt.item.kind.container

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        return {"type": "array", **({"items": json_schema(opt.item)} if opt.item is not None else {})}

    def type_text(self, opt: Spec) -> str:
        return f"list of {opt.item.kind.type_text(opt.item)}" if opt.item is not None else "list"

    def nested(self, opt: Spec) -> Mapping[str, Spec] | None:
        return opt.item.fields if opt.item is not None and opt.item.fields else None


class Map(Kind):
    """A mapping; with ``fields``, those keys (each its own option); with ``item``, any keys whose
    values are all of that option."""

    name, text, word, container = "map", "a mapping", "mapping", True

    def validate(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
                 colors: Colors | None) -> Result:
        if value is None and not opt.required:
            return True, None
        if not isinstance(value, dict):
            return self.wrong(value, opt, loc, problems, what)
        if opt.fields is not None:
            empty = [k for k, o in opt.fields.items() if k in value and value[k] is None and o.kind.typed]
            for k in empty:         # ``{agility: null}``: a typed value left out is no value
                problems.error(opt.rule or "YAML-TYPE", f"'{k}' of {what} is empty: give {opt.fields[k].describe()}",
                               value.at(k) if isinstance(value, YDict) else loc)
            res = check_mapping(value, opt.fields, problems, what, colors, fill_absent=False)
            return res.ok and not empty, res.values
        item = opt.item
        if item is None:
            return True, value
        out: dict[AnyValue, AnyValue] = {}  # ``{ana: 20, ben: 14}``: every value of the item type
        ok = True
        for k, v in value.items():
            kloc = value.at(k) if isinstance(value, YDict) else loc
            if v is None and item.kind.typed:
                problems.error(opt.rule or "YAML-TYPE", f"{what}[{k}] is empty: give {item.describe()}", kloc)
                ok = False
                continue
            good, nv = check_value(v, item, kloc, problems, f"{what}[{k}]", colors)
            ok = ok and good
            out[k] = nv
        if isinstance(value, YDict):
            typed = YDict(out)
            typed.loc, typed.key_locs, typed.val_locs = value.loc, value.key_locs, value.val_locs
            return ok, typed
        return ok, out

    def structured(self, opt: Spec) -> bool:
        return True

    def schema(self, opt: Spec) -> dict[str, AnyValue]:
        if opt.fields is not None:
            return {"type": "object", **object_schema(opt.fields)}
        if opt.item is not None:
            return {"type": "object", "additionalProperties": json_schema(opt.item)}
        return {"type": "object"}

    def type_text(self, opt: Spec) -> str:
        if opt.item is not None and opt.fields is None:
            return f"mapping of {opt.item.kind.type_text(opt.item)}"
        return "mapping"

    def nested(self, opt: Spec) -> Mapping[str, Spec] | None:
        return opt.fields or None


class Any(Kind):
    """Any value at all, unchecked (``None`` included); a cell reads as a number, a flag or text."""

    name, text, word, typed, whole_cells = "any", "a value", "any", False, True

    def validate(self, value: AnyValue, opt: Spec, loc: Loc | None, problems: Problems, what: str,
                 colors: Colors | None) -> Result:
        return True, value

    def cell_text(self, raw: str, text: str, opt: Spec) -> AnyValue:
        if _INT.match(text):
            return int(text)
        if _NUM.match(text):
            return float(text)
        if text.lower() in ("true", "false", "yes", "no"):
            return text.lower() in ("true", "yes")
        return text



_ANY = Any()


__all__ = ["CELL_SEP", "Any", "Bool", "Color", "Enum", "Int", "Length", "List", "Map", "Number", "Str"]

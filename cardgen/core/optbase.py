"""The machinery of typed options: what every option kind shares, and the checks that walk values.

An option (:class:`cardgen.core.options.Opt`) names its *kind* — one class per type, in the manner
of MkDocs' ``config_options`` — and each kind owns what that type means everywhere: its check and
normalisation, its description in messages ("a whole number"), its JSON Schema, how a spreadsheet
cell reads as it, how a rendered template expression reads as it, and its text in the generated
docs. The kinds are in :mod:`cardgen.core.optkinds`, the table from type name to kind in
:mod:`cardgen.core.options`. This module depends on no option class: it sees an option through
:class:`Spec`, the attributes it reads.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import field
from typing import Any, ClassVar, Protocol

from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import maker, record
from cardgen.core.yamlsrc import YDict


class _Missing:
    """No default: one object, also after pickling — a pickled option (an engine class a Dask
    worker receives by value carries its log vocabulary) keeps ``default is MISSING``."""

    __slots__ = ()

    def __reduce__(self) -> str:
        return "MISSING"

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
Colors = Mapping[str, str]


class Spec(Protocol):
    """What the kinds read of an option (:class:`cardgen.core.options.Opt` has it all)."""

    required: bool
    default: Any
    doc: str
    choices: tuple[Any, ...]
    min: float | None
    max: float | None
    rule: str | None

    @property
    def item(self) -> Spec | None: ...

    @property
    def fields(self) -> Mapping[str, Spec] | None: ...

    @property
    def kind(self) -> Kind: ...

    def describe(self) -> str: ...


@record
class Checked:
    """The result of checking a mapping: normalised values and whether all went well."""

    values: dict[str, Any] = field(default_factory=dict)
    ok: bool = True


#: ``Checked()`` made without the class's call (:func:`cardgen.core.record.maker`): a card's check
_make_checked = maker(Checked)


class Kind:
    """One type of option. Subclasses set the class attributes and override what differs."""

    name: ClassVar[str] = "any"
    text: ClassVar[str] = "a value"         # in "… must be <text>, not …"
    word: ClassVar[str] = "any"             # in the docs' type column
    plain: ClassVar[tuple[type, ...]] = ()  # value types that pass unchecked when the option has no bounds
    # text it matches passes unchanged (what its check says of such text)
    plain_text: ClassVar[re.Pattern[str] | None] = None
    typed: ClassVar[bool] = True            # False: any value at all (``None`` included) is fine
    numeric: ClassVar[bool] = False         # holds a number (deck statistics sum it)
    container: ClassVar[bool] = False       # holds other values (a list or mapping)
    by_name: ClassVar[bool] = True          # a card field may be declared by the bare type name
    whole_cells: ClassVar[bool] = False     # a spreadsheet's 3.0 reads as 3
    row_suffix: ClassVar[str] = ""          # after a field's name, before its nested fields' names

    def __deepcopy__(self, memo: dict[int, Any]) -> Kind:
        return self                         # kinds are stateless: a copied option keeps its kind

    def describe(self, opt: Spec) -> str:
        """What a value must be, for messages: "a whole number"."""
        return self.text

    # -- checking -------------------------------------------------------------------------
    def validate(self, value: Any, opt: Spec, loc: Loc | None, problems: Problems, what: str,
                 colors: Colors | None) -> tuple[bool, Any]:
        """(ok, normalised value): the kind's check, then the option's numeric bounds."""
        if value is None and not opt.required:
            return True, None
        ok, value = self.check(value, opt, loc, problems, what, colors)
        if not ok:
            return False, value
        return in_bounds(value, opt, loc, problems, what)

    def check(self, value: Any, opt: Spec, loc: Loc | None, problems: Problems, what: str,
              colors: Colors | None) -> tuple[bool, Any]:
        """(ok, normalised value) for a value that is not None-and-optional; reports what is wrong."""
        return True, value

    def wrong(self, value: Any, opt: Spec, loc: Loc | None, problems: Problems, what: str) -> tuple[bool, Any]:
        """Report "<what> must be <description>, not <value>" under the option's rule (else YAML-TYPE)."""
        problems.error(opt.rule or "YAML-TYPE", f"{what} must be {opt.describe()}, not {value!r}", loc)
        return False, None

    # -- reading text ---------------------------------------------------------------------
    def rendered(self, text: str) -> Any:
        """A rendered template expression (always text) as this kind reads it before the check."""
        return text

    def cell(self, value: Any, opt: Spec, loc: Loc) -> Any:
        """A spreadsheet cell as this kind reads it (a wrong one stays as it is: the check says so)."""
        if isinstance(value, float) and value.is_integer() and self.whole_cells:
            value = int(value)
        if not isinstance(value, str):
            return value
        return self.cell_text(value, value.strip(), opt)

    def cell_text(self, raw: str, text: str, opt: Spec) -> Any:
        """A text cell (``text`` is ``raw`` stripped)."""
        return text

    def structured(self, opt: Spec) -> bool:
        """Whether a cell holds this option as JSON (mappings, or a list of them)."""
        return False

    # -- describing -----------------------------------------------------------------------
    def schema(self, opt: Spec) -> dict[str, Any]:
        """The JSON Schema keywords of the type (description and default are added around them)."""
        return {}

    def widest(self, opt: Spec) -> list[Any]:
        """The legal values that may print widest (a template must fit each): every choice, a
        number's declared bounds; [] when the declaration bounds nothing (free text, lists)."""
        if opt.choices:
            return list(opt.choices)
        if self.numeric:
            return [b for b in (opt.min, opt.max) if b is not None]
        return []

    def type_text(self, opt: Spec) -> str:
        """The docs' type column: "whole number 1–6"."""
        base = self.word
        if opt.min is not None and opt.max is not None:
            return f"{base} {opt.min:g}–{opt.max:g}"
        if opt.min is not None:
            return f"{base} ≥ {opt.min:g}"
        if opt.max is not None:
            return f"{base} ≤ {opt.max:g}"
        return base

    def doc_note(self) -> str:
        """Said after the type in the template element tables."""
        return ""

    def doc_default(self, value: Any) -> str:
        """A documented default as the docs show it."""
        if isinstance(value, bool):
            return f"`{str(value).lower()}`"
        return f"`{value!r}`" if not isinstance(value, str) or not value else f"`{value}`"

    def nested(self, opt: Spec) -> Mapping[str, Spec] | None:
        """The fields the docs list under this option (a map's, or each item's of a list)."""
        return None


def in_bounds(value: Any, opt: Spec, loc: Loc | None, problems: Problems, what: str) -> tuple[bool, Any]:
    """A number against the option's ``min`` and ``max`` (YAML-RANGE unless the option names a rule)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if opt.min is not None and value < opt.min:
            problems.error(opt.rule or "YAML-RANGE", f"{what} is {value}, below its minimum {opt.min:g}", loc)
            return False, value
        if opt.max is not None and value > opt.max:
            problems.error(opt.rule or "YAML-RANGE", f"{what} is {value}, above its maximum {opt.max:g}", loc)
            return False, value
    return True, value


def check_value(value: Any, opt: Spec, loc: Loc | None, problems: Problems, what: str,
                colors: Colors | None = None) -> tuple[bool, Any]:
    """Check one value against ``opt``; returns (ok, normalised value)."""
    kind = opt.kind
    t = type(value)
    if t in kind.plain and opt.min is None and opt.max is None and (t is not float or math.isfinite(value)):
        return True, value                  # the hot path: a plain number, text or flag
    if t is str and kind.plain_text is not None and kind.plain_text.match(value):
        return True, value                  # text the kind passes as it is (a '#rrggbb' colour)
    return kind.validate(value, opt, loc, problems, what, colors)


def empty(v: Any, opt: Spec, what: str, loc: Loc | None, problems: Problems) -> bool:
    """``gap:`` with no value, for an option with a default: neither the value nor, silently, the
    default — a YAML-TYPE problem (True)."""
    if v is None and opt.default is not MISSING and opt.default is not None:
        problems.error("YAML-TYPE", f"{what} is empty: give {opt.describe()}, or leave the key out for its "
                       f"default {opt.default!r}", loc)
        return True
    return False


def check_mapping(d: Any, spec: Mapping[str, Spec], problems: Problems, what: str,
                  colors: Colors | None = None, extra_ok: bool = False, fill_absent: bool = True,
                  at: Loc | None = None) -> Checked:
    """Check a mapping against ``spec``: unknown keys, missing keys, types; normalise values.

    Absent optional keys get their documented default, or None when ``fill_absent``
    (top-level records, so templates can test ``x is none``); nested maps keep them absent.
    ``at``: where ``d`` stands when it is no mapping (a number has no position of its own; its
    parent's ``.at(key)`` has).
    """
    res = _make_checked()
    loc = getattr(d, "loc", None) or at
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
    values = res.values
    for key, opt in spec.items():
        if key in d:
            v = d[key]
            if v is None and empty(v, opt, f"'{key}' of {what}", d.at(key) if isinstance(d, YDict) else loc,
                                   problems):       # (its message and position made only for an empty value)
                res.ok = False
                continue
            t = type(v)
            if t in opt.kind.plain and opt.min is None and opt.max is None and (t is not float or math.isfinite(v)):
                values[key] = v             # check_value's hot path (a plain number, text or flag), inline
                continue
            if t is str and (text_ok := opt.kind.plain_text) is not None and text_ok.match(v):
                values[key] = v             # … and its text passed as it is (a '#rrggbb' colour)
                continue
            vloc = d.at(key) if isinstance(d, YDict) else loc
            ok, v = check_value(v, opt, vloc, problems, f"'{key}' of {what}", colors)
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


def json_schema(opt: Spec) -> dict[str, Any]:
    """The JSON Schema of one typed option: its description, its kind's keywords, its default."""
    s: dict[str, Any] = {}
    if opt.doc:
        s["description"] = opt.doc
    s.update(opt.kind.schema(opt))
    if opt.default is not MISSING and opt.default is not None:
        s["default"] = opt.default
    return s


def object_schema(fields: Mapping[str, Spec]) -> dict[str, Any]:
    """The JSON Schema keywords of a closed mapping of typed fields."""
    out: dict[str, Any] = {"properties": {k: json_schema(o) for k, o in fields.items()}}
    req = [k for k, o in fields.items() if o.required]
    if req:
        out["required"] = req
    out["additionalProperties"] = False
    return out


def from_cell(value: Any, opt: Spec, loc: Loc) -> Any:
    """A spreadsheet cell as the field's type reads it (a wrong one stays as it is: the validator
    says so). Mappings have no cell form: cardgen writes them, and reads them back, as JSON."""
    if opt.kind.structured(opt) and isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return opt.kind.cell(value, opt, loc)

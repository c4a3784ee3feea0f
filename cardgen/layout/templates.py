"""Card templates: YAML files in ``templates/<game>/`` made of named elements.

A template may ``extends`` another of the same folder: the parent's elements come first,
an element of the same name is merged key by key (``remove: true`` drops it), new
elements are appended. Values may be Jinja2 expressions (``"{{ card.health }}"``),
evaluated per card in a sandbox with StrictUndefined, so a typo is an error.
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.core import sources
from cardgen.core.lazymod import lazy
from cardgen.core.optbase import empty
from cardgen.core.options import MISSING, Opt, check_value
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, inside, load_yaml
from cardgen.layout.elements import KINDS

if TYPE_CHECKING:
    from jinja2 import Template as JinjaTemplate

    from cardgen.core.sandbox import BoundedSandbox

jinja2 = lazy("jinja2")              # a template of plain {{ card.x }} fields never needs Jinja:
sandbox = lazy("cardgen.core.sandbox")   # both are imported when an expression first needs them

COMMON_KEYS = {"kind", "when", "remove", "x", "y", "callout"}
_CARD_REF = re.compile(r"\bcards?\b")


def is_expr(v: Any) -> bool:
    return isinstance(v, str) and ("{{" in v or "{%" in v)


@record
class Element:
    """One element of a template: its kind, its raw keys and their positions."""

    name: str
    kind: str
    raw: dict[str, Any]
    locs: dict[str, Loc]
    loc: Loc

    @property
    def static(self) -> bool:
        """True when the element looks the same on every card of a type (it never reads ``card``)."""
        vals = [v for k, v in self.raw.items() if is_expr(v) or k == "when"]
        return not any(_CARD_REF.search(str(v)) for v in vals)


@record
class Template:
    """A card template: its elements in drawing order."""

    name: str
    file: Path
    elements: list[Element] = field(default_factory=list)

    def static_prefix(self) -> int:
        """How many leading elements never change from card to card (counted once: a template
        is not changed after it is built)."""
        n = self.__dict__.get("_static_prefix")
        if n is not None:
            return n
        n = 0
        for el in self.elements:
            if not el.static:
                break
            n += 1
        self.__dict__["_static_prefix"] = n
        return n


def make_env() -> BoundedSandbox:
    env = sandbox.BoundedSandbox(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
    env.filters["signed"] = lambda v: f"{v:+d}".replace("-", "\u2212") if isinstance(v, int) else str(v)
    env.filters["title"] = lambda v: str(v).replace("_", " ").title()

    @jinja2.pass_context
    def expand(ctx, text: Any, **extra: Any) -> str:
        """Render card text that itself holds expressions (``{{ effect.heal_per_round }}``), so
        numbers in rules text are read from their one source."""
        if text is None:
            return ""
        text = str(text)
        if not is_expr(text):
            return text
        return env.from_string(text).render({**ctx.get_all(), **extra})

    env.filters["expand"] = expand
    return env


class TemplateSet:
    """Loads and caches the templates of one game; compiles each expression once."""

    def __init__(self, folder: Path, problems: Problems):
        self.folder = folder
        self.problems = problems
        self._env: BoundedSandbox | None = None
        self._cache: dict[str, Template | None] = {}
        self._compiled: dict[str, Any] = {}

    @property
    def env(self) -> BoundedSandbox:
        """The Jinja environment, made when an expression first needs it."""
        if self._env is None:
            self._env = make_env()
        return self._env

    def get(self, name: str, ref: Loc | None = None, _chain: tuple[str, ...] = ()) -> Template | None:
        if name in self._cache:
            return self._cache[name]
        if name in _chain:
            self.problems.error("TEMPLATE-CYCLE", f"template '{name}' extends itself through "
                                f"{' → '.join(_chain + (name,))}", ref)
            return None
        path = inside(self.folder, f"{name}.yaml")
        if path is None:
            self.problems.error("PATH-ESCAPE", f"template '{name}' lies outside {self.folder}", ref)
            self._cache[name] = None
            return None
        if not sources.is_file(path):       # (a name too long for the file system: not found)
            known = [p.stem for p in self.folder.glob("*.yaml")]
            self.problems.error("TEMPLATE-MISSING", f"template '{name}' not found in {self.folder}", ref,
                                hint=did_you_mean(name, known))
            self._cache[name] = None
            return None
        doc = load_yaml(path, self.problems)
        tpl = self._build(name, path, doc, _chain + (name,))
        self._cache[name] = tpl
        return tpl

    def _build(self, name: str, path: Path, doc: Any, chain: tuple[str, ...]) -> Template | None:
        if not isinstance(doc, YDict):
            if doc is not None:
                self.problems.error("YAML-TYPE", f"template '{name}' must be a mapping", getattr(doc, "loc", None))
            return None
        for k in doc:
            if k not in ("extends", "elements", "doc"):
                self.problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' in template '{name}'", doc.key_at(k),
                                    hint=did_you_mean(k, ("extends", "elements", "doc")))
        tpl = Template(name, path)
        if "extends" in doc:
            parent = self.get(str(doc["extends"]), doc.at("extends"), chain)
            if parent is None:
                return None     # its parent is missing or broken (reported): its elements would only repeat it
            tpl.elements = [Element(e.name, e.kind, dict(e.raw), dict(e.locs), e.loc) for e in parent.elements]
        els = doc.get("elements") or YDict()
        if not isinstance(els, YDict):
            self.problems.error("YAML-TYPE", "'elements' must be a mapping of named elements", doc.at("elements"))
            return tpl
        for ename, edef in els.items():
            if not isinstance(edef, dict):
                self.problems.error("YAML-TYPE", f"element '{ename}' must be a mapping", els.at(ename))
                continue
            existing = next((e for e in tpl.elements if e.name == ename), None)
            if edef.get("remove") is True:
                if existing:
                    tpl.elements.remove(existing)
                continue
            locs = {k: edef.at(k) for k in edef} if isinstance(edef, YDict) else {}
            if existing:
                existing.raw.update(edef)
                existing.locs.update(locs)
                if "kind" in edef:
                    existing.kind = str(edef["kind"])
                self._check(existing, edef)
            else:
                if "kind" not in edef:
                    self.problems.error("YAML-MISSING-KEY", f"element '{ename}' lacks 'kind' (one of "
                                        f"{', '.join(KINDS)})", els.at(ename))
                    continue
                el = Element(str(ename), str(edef["kind"]), dict(edef), locs, els.key_at(ename))
                if self._check(el, edef):
                    tpl.elements.append(el)
        return tpl

    def _check(self, el: Element, edef: dict) -> bool:
        kind = KINDS.get(el.kind)
        if kind is None:
            self.problems.error("TEMPLATE-KIND", f"element '{el.name}' has unknown kind '{el.kind}'",
                                el.locs.get("kind", el.loc), hint=did_you_mean(el.kind, KINDS))
            return False
        ok = True
        for k, v in edef.items():
            if k not in kind.SPEC and k not in COMMON_KEYS:
                self.problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' for a {el.kind} element ('{el.name}')",
                                    edef.key_at(k) if isinstance(edef, YDict) else el.loc,
                                    hint=did_you_mean(k, list(kind.SPEC) + list(COMMON_KEYS)))
                ok = False
            elif is_expr(v) or k == "when":
                src = v if k != "when" else "{{ " + str(v) + " }}"
                if self.compile(src, el.locs.get(k, el.loc)) is None:
                    ok = False
        return ok

    def compile(self, src: str, loc: Loc | None):
        c = self._compiled.get(src)
        if c is None:
            m = _CARD_FIELD.match(src)
            if m and not hasattr(dict, m.group(2)):
                c = self._compiled[src] = CardField(m.group(1), m.group(2), m.group(3), self, src)
                return c
            try:
                c = self._compiled[src] = self.env.from_string(src)
            except jinja2.TemplateError as e:
                self.problems.error("TEMPLATE-EXPR", f"invalid expression {src!r}: {e}", loc)
                return None
        return c


_CARD_FIELD = re.compile(r"([^{}\n]*)\{\{\s*card\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}([^{}\n]*)\Z")


class CardField:
    """``{{ card.x }}`` between plain text, the commonest expression, compiled to a lookup: the same
    string Jinja writes (``str`` of the value), without a Jinja context per card. Anything else
    (no such field, a card that is not a plain dict) is rendered by the Jinja template itself."""

    __slots__ = ("pre", "name", "post", "owner", "src", "template")

    def __init__(self, pre: str, name: str, post: str, owner: TemplateSet, src: str):
        self.pre, self.name, self.post, self.owner, self.src = pre, name, post, owner, src
        self.template: JinjaTemplate | None = None        # the Jinja template, compiled when first needed

    def render(self, context: dict) -> str:
        card = context.get("card")
        if type(card) is dict and self.name in card:
            v = card[self.name]
            if type(v) is str and not self.pre and not self.post:
                return v                # the card's own string, not a copy of it per card
            return f"{self.pre}{v!s}{self.post}"
        if self.template is None:
            self.template = self.owner.env.from_string(self.src)
        return self.template.render(context)


def spec_for(el: Element) -> dict[str, Opt]:
    spec = dict(KINDS[el.kind].SPEC)
    spec.setdefault("x", Opt("length", default=0.0))
    spec.setdefault("y", Opt("length", default=0.0))
    spec.setdefault("callout", Opt("str", default=None))
    return spec


@record
class _Plan:
    """An element prepared once: constant values checked and converted, expressions compiled."""

    consts: dict[str, Any]
    exprs: list[tuple[str, Any, Opt, Loc]]
    when: Any
    ok: bool
    fields: tuple[str, ...] | None = None    # every value a plain ``{{ card.x }}``: the fields read, in order


def fields_read(el: Element) -> tuple[str, ...] | None:
    """The card fields an element's values read, when each of its expressions is a plain
    :class:`CardField` lookup and it has no ``when`` (its values are then those fields' values
    and its constants, nothing else); None otherwise, or before it was first evaluated."""
    plan = el.__dict__.get("_plan")
    return plan.fields if plan is not None and plan.ok else None


def _plan(el: Element, ts: TemplateSet, colors: dict, problems: Problems) -> _Plan:
    plan = el.__dict__.get("_plan")
    if plan is not None:
        return plan
    ok = True
    consts: dict[str, Any] = {}
    exprs: list[tuple[str, Any, Opt, Loc]] = []
    for key, opt in spec_for(el).items():
        vloc = el.locs.get(key, el.loc)
        if key not in el.raw:
            if opt.required:
                problems.error("YAML-MISSING-KEY", f"element '{el.name}' lacks '{key}' ({opt.doc or opt.describe()})",
                               el.loc)
                ok = False
            else:
                consts[key] = None if opt.default is MISSING else opt.default
            continue
        v = el.raw[key]
        if empty(v, opt, f"'{key}' of element '{el.name}'", vloc, problems):
            ok = False
            continue
        if is_expr(v):
            tpl = ts.compile(v, vloc)
            if tpl is None:
                ok = False
            else:
                exprs.append((key, tpl, opt, vloc))
            continue
        good, nv = check_value(v, opt, vloc, problems, f"'{key}' of element '{el.name}'", colors)
        ok = ok and good
        consts[key] = nv
    when = None
    if "when" in el.raw:
        when = ts.compile("{{ " + str(el.raw["when"]) + " }}", el.locs.get("when"))
        ok = ok and when is not None
    plan = _Plan(consts, exprs, when, ok)
    if when is None and exprs and all(type(t) is CardField for _, t, _, _ in exprs):
        plan.fields = tuple(dict.fromkeys(t.name for _, t, _, _ in exprs))
    el.__dict__["_plan"] = plan
    return plan


def evaluate(el: Element, ts: TemplateSet, context: dict, colors: dict, problems: Problems,
             where: Loc, what: str) -> dict[str, Any] | None:
    """The element's values for one card: expressions rendered, types checked, units converted.

    Returns None when the element is switched off by ``when`` or a value is bad.
    """
    plan = _plan(el, ts, colors, problems)
    if not plan.ok:
        return None
    if plan.when is not None:
        try:
            flag = plan.when.render(context).strip()
        except Exception as e:  # noqa: BLE001 - Jinja raises many kinds; all are content errors
            problems.error("TEMPLATE-EXPR", f"{what}: element '{el.name}' ({el.locs.get('when', el.loc)}): "
                           f"'when' failed: {e}", where)
            return None
        if flag in ("False", "", "None", "none", "0", "false", "[]", "{}", "()"):
            return None
    out = dict(plan.consts)
    ok = True
    for key, tpl, opt, vloc in plan.exprs:
        try:
            v = tpl.render(context)
        except Exception as e:  # noqa: BLE001
            problems.error("TEMPLATE-EXPR", f"{what}: element '{el.name}' at {vloc}: {e}", where)
            ok = False
            continue
        v = opt.kind.rendered(v)                    # "3" → 3 for a whole number, "true" → True for a flag…
        good, nv = check_value(v, opt, vloc, problems, f"'{key}' of element '{el.name}'", colors)
        ok = ok and good
        out[key] = nv
    return out if ok else None

"""Constraint kinds: generic checks over a collection of cards, interpreted from YAML.

A game's ``rules/<game>/constraints.yaml`` lists constraints; each names its catalogue
rule ID, a ``kind`` below and its arguments. Numbers may be written as
``{param: dotted.path}`` to read them from the game's ``params.yaml`` (one source).

Kinds: ``count`` (how many cards match, overall or per group), ``copies`` (copies of each
card: ``exactly``/``min``/``max``, with exceptions and a per-card override of ``max``), ``sum`` (a field's total,
e.g. points), ``declared_total`` (published totals per group against the cards),
``required`` (every matching card has a field set), ``table`` (each matching card's fields equal
its row of a reference table: :mod:`.constraint_table`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgen.content.constraint_table import TABLE_ARGS, k_table
from cardgen.content.entries import Collection, Entry, matches, selects, uncertain
from cardgen.core.params import resolve
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, loc_of

__all__ = ["Collection", "Entry", "evaluate", "matches", "selects", "resolve_args", "resolve_param", "KINDS"]


def resolve_args(key: str, value: Any, params: Any, problems: Problems, loc: Loc) -> Any:
    """A constraint argument with its ``{param: a.b}`` read — also each value of a ``where``,
    ``except`` or ``exclude`` mapping (``where: {era: {param: first_era}}``)."""
    if key in ("where", "except", "exclude") and isinstance(value, dict) and set(value) != {"param"}:
        at = value.at if isinstance(value, YDict) else (lambda k: loc)
        return {k: resolve_param(v, params, problems, at(k)) for k, v in value.items()}
    return resolve_param(value, params, problems, loc)


def resolve_param(value: Any, params: Any, problems: Problems, loc: Loc) -> Any:
    """``{param: a.b}`` → params['a']['b']; any other value unchanged (:func:`cardgen.core.params.resolve`)."""
    return resolve(value, params, problems, loc)


def _group_key(fields: dict[str, Any], per: Any) -> Any:
    if isinstance(per, list):
        return tuple(fields.get(p) for p in per)
    return fields.get(per)


def _fmt_group(key: Any) -> str:
    if isinstance(key, tuple):
        return "/".join(str(k) for k in key)
    return str(key)


def _bounds_msg(n: int, c: dict) -> str | None:
    """A phrase for a count outside its bounds, or None when within."""
    if c.get("exactly") is not None and n != c["exactly"]:
        return f"exactly {c['exactly']} required"
    if c.get("min") is not None and n < c["min"]:
        return f"at least {c['min']} required"
    if c.get("max") is not None and n > c["max"]:
        return f"at most {c['max']} allowed"
    return None


def k_count(col: Collection, c: dict, rule: str, problems: Problems, cloc: Loc) -> None:
    """How many cards match (copies, or designs with `count: unique`), overall or `per` group:
    `exactly`/`min`/`max`; `groups`/`groups_min`/`groups_max` bound the number of groups,
    `groups_of` names groups that must exist."""
    sel = [e for e in col.entries if selects(e.fields, c)]
    unique = c.get("count", "copies") == "unique"
    label = c.get("label") or "cards"
    per = c.get("per")
    if per is None:
        n = len(sel) if unique else sum(e.count for e in sel)
        why = _bounds_msg(n, c)
        if why:
            if col.kind not in ("cards", "components"):
                loc = col.loc          # a deck, party or build as a whole: where its cards are listed
            elif sel and unique and (len(sel) == 1 or n > (c["max"] if c.get("max") is not None
                                                           else c.get("exactly", n))):
                loc = sel[-1].loc      # too many designs: the last one added
            elif len(sel) == 1 or sel and (c.get("max") is not None and n > c["max"] or
                                           c.get("exactly") is not None and n > c["exactly"]):
                loc = max(reversed(sel), key=lambda e: e.count).loc   # the one entry, or the largest
            else:
                loc = cloc             # too few: the rule that asks for more
            problems.error(rule, f"{col.label} has {n} {label}; {why}", loc)
        return
    groups: dict[Any, list[Entry]] = {}
    for e in sel:
        groups.setdefault(_group_key(e.fields, per), []).append(e)
    for key in c.get("groups_of") or []:
        groups.setdefault(tuple(key) if isinstance(key, list) else key, [])
    wrong = 0
    for key, es in groups.items():
        n = len(es) if unique else sum(e.count for e in es)
        why = _bounds_msg(n, c)
        if why:
            loc = max(reversed(es), key=lambda e: e.count).loc if es else cloc
            problems.error(rule, f"{col.label} has {n} {label} of {_fmt_group(key)}; {why}", loc)
            wrong += 1
    if wrong:
        return      # a card in the wrong group also changes how many groups there are: one slip, one problem
    ng = len(groups)
    names = ", ".join(_fmt_group(k) for k in groups)
    for arg, bad, phrase in (("groups", lambda g, v: g != v, "exactly"), ("groups_min", lambda g, v: g < v, "at least"),
                             ("groups_max", lambda g, v: g > v, "at most")):
        if c.get(arg) is not None and bad(ng, c[arg]):
            problems.error(rule, f"{col.label} has {ng} groups of {label} ({names}); {phrase} {c[arg]} required", cloc)


def k_copies(col: Collection, c: dict, rule: str, problems: Problems, cloc: Loc) -> None:
    """Copies of each matching card: `exactly`/`min`/`max` (`max_from`: a card field that
    overrides `max` for that card)."""
    override = c.get("max_from")
    per: dict[str, list[Entry]] = {}
    for e in col.entries:
        per.setdefault(e.id, []).append(e)
    for cid, es in per.items():
        e0 = es[0]
        if not selects(e0.fields, c):
            continue
        lim = e0.fields.get(override) if override and e0.fields.get(override) is not None else c.get("max")
        n = sum(e.count for e in es)
        why = _bounds_msg(n, {"exactly": c.get("exactly"), "min": c.get("min"), "max": lim})
        if why:
            what = f" ({c['label']})" if c.get("label") else ""
            problems.error(rule, f"{col.label} holds {n} copies of '{cid}' ({e0.name}){what}; {why}", es[-1].loc)


def k_sum(col: Collection, c: dict, rule: str, problems: Problems, cloc: Loc) -> None:
    """The total of a card `field` over the matching cards (times their copies): `min`/`max`."""
    fname = c["field"]
    sel = [e for e in col.entries if selects(e.fields, c)]
    total = sum((e.fields.get(fname) or 0) * e.count for e in sel)
    label = c.get("label") or fname
    if c.get("max") is not None and total > c["max"]:
        problems.error(rule, f"{col.label} totals {total} {label}, {total - c['max']} over the limit of "
                       f"{c['max']}", col.loc)
    if c.get("min") is not None and total < c["min"]:
        problems.error(rule, f"{col.label} totals {total} {label}, {c['min'] - total} under the minimum of "
                       f"{c['min']}", col.loc)


def k_declared_total(col: Collection, c: dict, rule: str, problems: Problems, cloc: Loc) -> None:
    """Published `totals` per `group_by` value against the cards (less `exclude`)."""
    totals = c.get("totals")
    if not isinstance(totals, dict):
        problems.error("RULES-CONSTRAINT", "declared_total needs 'totals': a mapping group → total", cloc)
        return
    groups: dict[Any, int] = {}
    for e in col.entries:
        if matches(e.fields, c.get("where")) and not (c.get("exclude") and matches(e.fields, c["exclude"])):
            key = e.fields.get(c["group_by"])
            groups[key] = groups.get(key, 0) + e.count
    tloc = totals.at if isinstance(totals, YDict) else (lambda k: cloc)
    for key, declared in totals.items():
        have = groups.get(key, 0)
        if have != declared:
            excl = f" (not counting {', '.join(f'{k}={v}' for k, v in c['exclude'].items())})" \
                if c.get("exclude") else ""
            problems.error(rule, f"published total for {c['group_by']} '{key}' is {declared} but the cards "
                           f"hold {have}{excl}", tloc(key))
    for key in groups:
        if key not in totals:
            problems.error(rule, f"cards of {c['group_by']} '{key}' have no published total", cloc,
                           hint=did_you_mean(str(key), [str(k) for k in totals]))


def k_required(col: Collection, c: dict, rule: str, problems: Problems, cloc: Loc) -> None:
    """Every matching card sets each of `fields`."""
    for e in col.entries:
        if selects(e.fields, c):
            for f in c.get("fields") or []:
                if e.fields.get(f) is None:
                    problems.error(rule, f"{e.id} ({e.name}) lacks '{f}'", e.card_loc or e.loc)


KINDS: dict[str, Callable[..., None]] = {
    "count": k_count,
    "copies": k_copies,
    "sum": k_sum,
    "declared_total": k_declared_total,
    "required": k_required,
    "table": k_table,
}
PER_CARD = {"copies", "required", "table"}      # check each card on its own: a card that failed to load waits alone

def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_names(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_groups(v: Any) -> bool:
    """A list of groups (a value, or a list of values for a ``per`` list), or a mapping keyed by them."""
    scalar = (str, int, float, bool)
    return isinstance(v, dict) or isinstance(v, list) and all(isinstance(x, scalar) or isinstance(x, list) and
                                       all(isinstance(y, scalar) for y in x) for x in v)


# every argument a constraint may take: (test of its value once params are read, what it must be)
ARG_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{k: (lambda v: isinstance(v, str), "a name") for k in ("rule", "kind", "of", "label", "doc", "field",
                                                             "group_by", "max_from")},
    **{k: (lambda v: isinstance(v, dict), "a mapping of field: value") for k in ("where", "except", "exclude")},
    **{k: (_is_int, "a whole number") for k in ("exactly", "min", "max", "groups", "groups_min", "groups_max")},
    "per": (lambda v: isinstance(v, str) or _is_names(v) and bool(v), "a field name or a list of them"),
    "count": (lambda v: v in ("copies", "unique"), "'copies' or 'unique'"),
    "groups_of": (_is_groups, "a list of groups or a mapping keyed by them"),
    "totals": (lambda v: isinstance(v, dict) and all(_is_int(x) for x in v.values()),
               "a mapping group: whole number"),
    "fields": (_is_names, "a list of field names"),
    **TABLE_ARGS,
}
ARGS = set(ARG_TYPES)
NEEDS = {"sum": ("field",), "declared_total": ("group_by", "totals"), "table": ("key", "table")}


def _args_ok(raw: YDict, c: dict, problems: Problems) -> bool:
    """Each argument of the right type and each the kind needs present (RULES-CONSTRAINT)."""
    ok = True
    for k, v in c.items():
        test, what = ARG_TYPES[k]
        if v is not None and not test(v):
            problems.error("RULES-CONSTRAINT", f"'{k}' of constraint {raw['rule']} must be {what}, not {v!r}",
                           raw.at(k))
            ok = False
    for k in NEEDS.get(c["kind"], ()) if ok else ():
        if c.get(k) is None:
            problems.error("RULES-CONSTRAINT", f"constraint {raw['rule']} of kind '{c['kind']}' needs '{k}'",
                           raw.loc)
            ok = False
    return ok


def _already(col: Collection, c: dict, locs: set[Loc]) -> bool:
    """A card the constraint counts has a problem of the same rule at one of its lines."""
    if not locs:
        return False
    return any(selects(e.fields, c) and not (c.get("exclude") and matches(e.fields, c["exclude"])) and
               ({e.loc, e.card_loc, *e.field_locs.values()} & locs) for e in col.entries)


def _prepared(constraints: list[Any], collections: dict[str, Collection], params: Any,
              problems: Problems) -> list[tuple[dict, Collection, str, Loc]]:
    """Each well-formed constraint whose ``of`` names one of ``collections``: (its arguments, its
    collection, its rule, where it is written); malformed ones are reported."""
    out = []
    for i, raw in enumerate(constraints):
        loc = getattr(raw, "loc", None) or loc_of(constraints, i) or Loc("")
        if not isinstance(raw, YDict) or "rule" not in raw or "kind" not in raw:
            problems.error("RULES-CONSTRAINT", f"constraint {i + 1} needs 'rule' and 'kind'", loc)
            continue
        bad = [k for k in raw if k not in ARGS]
        for k in bad:
            problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' in constraint {raw['rule']}", raw.key_at(k),
                           hint=did_you_mean(k, ARGS))
        if bad:
            continue
        c = {k: resolve_args(k, v, params, problems, raw.at(k)) for k, v in raw.items()}
        if not _args_ok(raw, c, problems):
            continue
        if c["kind"] not in KINDS:
            problems.error("RULES-CONSTRAINT", f"unknown constraint kind '{c['kind']}'", raw.at("kind"),
                           hint=did_you_mean(c["kind"], KINDS))
            continue
        col = collections.get(c.get("of") or "cards")
        if col is not None:
            out.append((c, col, str(raw["rule"]), loc))
    return out


def _closed(c: dict, col: Collection) -> bool:
    """A pool constraint "no card of `where` outside `except`" (``max: 0``): a closed set of values."""
    return c["kind"] == "count" and c.get("max") == 0 and isinstance(c.get("except"), dict) and not c.get("per") \
        and col.kind in ("cards", "components")


def _outside(col: Collection, c: dict, rule: str, problems: Problems) -> None:
    """Each card outside a closed set is a bad value of its own: reported at that value, and the card
    is known but invalid (the counts that read the value wait), as a card failing its field check is."""
    keys = [str(k) for k in c["except"]]
    out = [e for e in col.entries if selects(e.fields, c)]
    by_loc: dict[Loc, list[tuple[Entry, str]]] = {}     # one value a file's defaults give many cards: once
    for e in out:
        k = next((k for k in keys if k in e.field_locs), keys[0])
        by_loc.setdefault(e.at(k), []).append((e, k))
    for at, es in by_loc.items():
        e, k = es[0]
        allowed = c["except"][k] if isinstance(c["except"][k], list) else [c["except"][k]]
        more = f" (and {len(es) - 1} more card{'s' if len(es) > 2 else ''} of the file from its defaults)" \
            if len(es) > 1 else ""
        problems.error(rule, f"{e.id} ({e.name}): {k} {e.fields.get(k)!r} puts it among the {c.get('label') or 'cards'}"
                       f"; it must be one of {', '.join(map(repr, allowed))}{more}", at,
                       hint=did_you_mean(str(e.fields.get(k)), [str(a) for a in allowed]))
    for e in out:
        raw = YDict(e.fields)
        raw.bad = frozenset(keys)       # type: ignore[attr-defined]
        col.unread.append(raw)
    if out:
        col.entries[:] = [e for e in col.entries if all(e is not o for o in out)]


def evaluate(constraints: list[Any], collections: dict[str, Collection], params: Any,
             problems: Problems) -> None:
    """Run every constraint whose ``of`` names one of ``collections``: first the closed sets of
    the pool (a card outside one is a bad value, not also a wrong count elsewhere), then the rest."""
    reported: dict[str, set[Loc]] = {}      # rule → where its problems so far stand
    prepared = _prepared(constraints, collections, params, problems)
    for c, col, rule, _loc in prepared:
        if _closed(c, col):
            _outside(col, c, rule, problems)
    for c, col, rule, loc in prepared:
        if _closed(c, col):
            continue
        if c["kind"] not in PER_CARD and any(uncertain(u, c) for u in col.unread):
            continue        # a card it counts failed to load (reported at its line): its total is unknown
        if c["kind"] not in PER_CARD and _already(col, c, reported.get(rule, set())):
            continue        # a card it counts already breaks this rule (reported at its line): one slip, one problem
        before = len(problems.items)
        KINDS[c["kind"]](col, c, rule, problems, loc)
        reported.setdefault(rule, set()).update(p.loc for p in problems.items[before:] if p.loc is not None)

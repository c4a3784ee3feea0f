"""The ``table`` constraint kind: cards checked against a reference table (a seed's stats).

    - rule: LB-CARD-2
      kind: table
      where: {type: enemy}
      key: enemy                       # the card field (or list of fields) naming its row
      table: {param: seed.enemies}     # {key: {column: value}} or a list of rows holding the key fields
      columns: [health, armor]         # optional: the columns compared (default: every column of the table)
      complete: true                   # optional: every row has a card
      label: the seed's enemy table

Every card the ``where`` selects must have a row, and each compared field must equal the row's
value (a column the row leaves out must be absent from the card); the column ``copies`` counts the
copies of all the row's cards together (a component's ``count``), so a row printed twice is found. A wrong value is reported
under the constraint's rule at the card's field line, with the expected and the found value.
"""

from __future__ import annotations

from typing import Any

from cardgen.content.entries import ANY_KEY, Collection, Entry, bad_keys, selects, uncertain
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, YList


def _key_fields(c: dict) -> list[str]:
    key = c["key"]
    return [key] if isinstance(key, str) else [str(k) for k in key]


def _fmt(v: Any) -> str:
    return "none" if v is None else repr(v) if isinstance(v, str) else str(v)


def _fmt_key(key: tuple) -> str:
    return "/".join(str(k) for k in key if k is not None) or "-"


COPIES = "copies"       # the column of a row's count: the copies of all its cards together


def rows_of(c: dict) -> list[tuple[tuple, dict, Loc | None]]:
    """The table as (key, row, where the row is written)."""
    fields, table = _key_fields(c), c["table"]
    out: list[tuple[tuple, dict, Loc | None]] = []
    if isinstance(table, dict):
        for k, row in table.items():
            loc = table.at(k) if isinstance(table, YDict) else None
            out.append(((_h(k),), dict(row or {}), loc))
    else:
        for i, row in enumerate(table):
            loc = table.at(i) if isinstance(table, YList) else None
            out.append((tuple(_h(row.get(f)) for f in fields), {k: v for k, v in row.items() if k not in fields},
                        loc))
    return out


def _h(v: Any) -> Any:
    """A key part that can be looked up (a list, as cards may hold, becomes a tuple)."""
    if isinstance(v, list):
        return tuple(_h(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((str(k), _h(x)) for k, x in v.items()))
    return v


def table_ok(v: Any) -> bool:
    """A mapping key → row (a mapping or empty), or a list of rows (mappings)."""
    if isinstance(v, dict):
        return all(r is None or isinstance(r, dict) for r in v.values())
    return isinstance(v, list) and all(isinstance(r, dict) for r in v)


def k_table(col: Collection, c: dict, rule: str, problems: Problems, cloc: Loc) -> None:
    """Each selected card's fields equal its row of `table` (keyed by `key`; `columns`: the fields
    compared, `copies` all the row's cards together); `complete`: every row has a card."""
    kf = _key_fields(c)
    if isinstance(c["table"], dict) and len(kf) != 1:
        problems.error("RULES-CONSTRAINT", "a table keyed by several fields must be a list of rows", cloc)
        return
    rows = rows_of(c)
    table = {k: row for k, row, _ in rows}
    columns = c.get("columns") or sorted({col_ for _, row, _ in rows for col_ in row})
    label = c.get("label") or "the reference table"
    seen: dict[tuple, list[Entry]] = {}
    orphans: list[tuple[Entry, tuple]] = []         # cards with no row
    for e in col.entries:
        if not selects(e.fields, c):
            continue
        key = tuple(_h(e.fields.get(f)) for f in kf)
        seen.setdefault(key, []).append(e)
        row = table.get(key)
        if row is None:
            orphans.append((e, key))
            continue
        for name in columns:
            if name == COPIES:
                continue        # a row's copies count every card of the row (below)
            want, have = row.get(name), e.fields.get(name)
            if want != have:
                problems.error(rule, f"{_what(col, e)}: {name} is {_fmt(have)}, {label} has {_fmt(want)} "
                               f"(row {_fmt_key(key)})", e.at(name))
    maybe = [u for u in col.unread if uncertain(u, c)]     # cards that failed to load and may be of the table

    def waits(key: tuple) -> bool:
        """A card that failed to load may be of this row: its count is not known."""
        return any(ANY_KEY in bad_keys(u) or bad_keys(u) & set(kf) or tuple(_h(u.get(f)) for f in kf) == key
                   for u in maybe)

    if COPIES in columns:
        for key, es in seen.items():
            if waits(key):
                continue
            want, have = (table.get(key) or {}).get(COPIES), sum(e.count for e in es)
            if key in table and want != have:
                where = max(reversed(es), key=lambda e: e.count)
                what = _what(col, es[0]) if len(es) == 1 else f"{len(es)} cards of row {_fmt_key(key)}"
                problems.error(rule, f"{col.label} holds {have} copies of {what}, {label} has {_fmt(want)} "
                               f"(row {_fmt_key(key)})", where.loc)
    missing = [key for key, _row, _loc in rows if key not in seen and not waits(key)] if c.get("complete") else []
    for e, key in orphans:
        # a card off the table is likely meant for a row that has no card: one slip, one problem
        near = did_you_mean(_fmt_key(key), [_fmt_key(k) for k in missing]) or \
            did_you_mean(_fmt_key(key), [_fmt_key(k) for k in table])
        if missing and not near:
            near = f"rows with no card: {', '.join(_fmt_key(k) for k in missing)}"
        problems.error(rule, f"{_what(col, e)}: {label} has no row {_fmt_key(key)} ({'/'.join(kf)})",
                       e.at(kf[-1] if len(kf) == 1 else kf[0]), hint=near)
    for key in missing if not orphans else []:
        problems.error(rule, f"{col.label} has no card for row {_fmt_key(key)} of {label}", cloc)


def _what(col: Collection, e: Entry) -> str:
    return f"{'component' if col.kind == 'components' else 'card'} '{e.id}' ({e.name})"


#: the arguments the kind adds: (test of the value, what it must be)
TABLE_ARGS = {
    "key": (lambda v: isinstance(v, str) or isinstance(v, list) and bool(v) and all(isinstance(x, str) for x in v),
            "a field name or a list of them"),
    "table": (table_ok, "a mapping key → row or a list of rows"),
    "columns": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of field names"),
    "complete": (lambda v: isinstance(v, bool), "true or false"),
}

"""Card collections kept in spreadsheets: ``cards/<game>/*.csv`` and ``*.xlsx`` beside the YAML.

The first row names the columns (card fields); each further row is a card. The card type is
a ``type`` column, or else the sheet's name (an XLSX sheet per card type: its key or its
name). A cell holding a list separates its items with ``;`` (``[]``: an empty list). An empty cell is an
absent key.
Cells are read as the card type declares the field (``007`` stays text in a text field, ``3``
is a number in a number field), so the validator sees what YAML would have given it, and
every problem names its cell: ``loot.csv:12:3`` (line and column) or ``loot.xlsx:Swords!C7``.
A field holding mappings (a map, a list of maps) has no plain cell form: its cell holds JSON.

:func:`write_csv` writes a pool back in the one column order :func:`columns` gives, so a CSV
written by cardgen reads back into the same cards and writes out identically.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from cardgen.content.model import Card, CardType
from cardgen.core import sources
from cardgen.core.lazymod import lazy
from cardgen.core.options import Opt, from_cell
from cardgen.core.optkinds import CELL_SEP
from cardgen.core.problems import Loc, Problems, display_path
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict

csv = lazy("csv")      # only when a card file is a spreadsheet (~0.5 ms of every build's start-up)

SEP = CELL_SEP
_UNDECLARED = Opt("any")


@record(frozen=True, order=True)
class CellLoc(Loc):
    """A spreadsheet cell: shown as ``FILE:SHEET!A1``; ``line`` is the row, ``col`` the column."""

    sheet: str = ""

    def __str__(self) -> str:
        return f"{display_path(self.file)}:{self.sheet}!{col_name(self.col)}{self.line}"


def col_name(n: int) -> str:
    """1 → A, 27 → AA."""
    s = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s or "A"


def read(path: Path, card_types: dict[str, CardType], common: dict[str, Opt], problems: Problems) -> list[YDict]:
    """The file's rows as cards' raw keys (with each cell's position); [] when unreadable (reported)."""
    tables = _csv(path, problems) if path.suffix.lower() == ".csv" else _xlsx(path, problems)
    out: list[YDict] = []
    for sheet, rows, loc in tables:
        if not rows:
            continue
        header = [str(h).strip() if h is not None else "" for h in rows[0]]
        for r, row in enumerate(rows[1:], start=2):
            if all(c is None or str(c).strip() == "" for c in row):
                continue
            d = YDict()
            d.loc = loc(r, 1)
            for c, key in enumerate(header, start=1):
                value = row[c - 1] if c - 1 < len(row) else None
                if not key or value is None or (isinstance(value, str) and value.strip() == ""):
                    continue
                if key in d:
                    problems.error("YAML-DUPLICATE-KEY", f"column '{key}' appears twice in {path.name}", loc(1, c))
                    continue
                d[key] = value
                d.key_locs[key] = loc(1, c)
                d.val_locs[key] = loc(r, c)
            if "type" not in d and sheet is not None:
                t = _type_of_sheet(sheet, card_types)
                if t is not None:
                    d["type"] = t
                    d.key_locs["type"] = d.val_locs["type"] = loc(1, 1)
            type_key = d.get("type")
            ct = card_types.get(type_key) if isinstance(type_key, str) else None
            spec = {**common, **(ct.fields if ct else {})}
            for key in list(d):
                d[key] = _typed(d[key], spec.get(key), d.val_locs[key])
            out.append(d)
    return out


def _type_of_sheet(sheet: str, card_types: dict[str, CardType]) -> str | None:
    s = sheet.strip().lower()
    for key, ct in card_types.items():
        if s in (key.lower(), ct.name.lower(), key.lower() + "s", ct.name.lower() + "s"):
            return key
    return None


def _typed(value: Any, opt: Opt | None, loc: Loc) -> Any:
    """A cell as the field's type reads it (a wrong one stays as it is: the validator says so);
    a column no field declares reads as ``any``."""
    return from_cell(value, opt or _UNDECLARED, loc)


def _csv(path: Path, problems: Problems) -> list[tuple[str | None, list[list[Any]], Any]]:
    try:
        text = sources.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as e:
        problems.error("YAML-ENCODING", f"{path.name} is not UTF-8 text ({e.reason} at byte {e.start}); save it "
                       "as CSV UTF-8", Loc(str(path), 1, 1))
        return []
    except OSError as e:
        problems.error("FILE-MISSING", f"{path.name} cannot be read: {e.strerror}", Loc(str(path), 1, 1))
        return []
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as e:
        problems.error("SHEET-SYNTAX", f"{path.name} is not valid CSV: {e}", Loc(str(path), 1, 1))
        return []
    return [(None, rows, lambda r, c: Loc(str(path), r, c))]


def _xlsx(path: Path, problems: Problems) -> list[tuple[str | None, list[list[Any]], Any]]:
    import openpyxl  # heavy (0.2 s): only for a game that keeps cards in a workbook
    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as e:  # noqa: BLE001 - zip, XML and openpyxl's own errors: all an unreadable file
        problems.error("SHEET-SYNTAX", f"{path.name} cannot be read as an Excel workbook: {e}", Loc(str(path), 1, 1))
        return []
    out = []
    try:
        for ws in wb.worksheets:
            rows = [list(r) for r in ws.iter_rows(values_only=True)]
            out.append((ws.title, rows, lambda r, c, s=ws.title: CellLoc(str(path), r, c, s)))
    finally:
        wb.close()
    return out


# -- writing -------------------------------------------------------------------------------

FIRST = ("id", "name", "type", "set", "copies")


def columns(cards: list[Card], card_types: dict[str, CardType], common: dict[str, Opt]) -> list[str]:
    """id, name, type, set, copies, then the other common fields, then every card type's
    fields in game.yaml order — those some card of the pool gives."""
    order = list(FIRST) + [k for k in common if k not in FIRST]
    for ct in card_types.values():
        order += [k for k in ct.fields if k not in order]
    used = {k for c in cards for k, v in c.fields.items() if v is not None}
    return [k for k in order if k in FIRST or k in used]


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if isinstance(value, list):
        return SEP.join(cell(v) for v in value) if value else "[]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def write_csv(cards: list[Card], card_types: dict[str, CardType], common: dict[str, Opt]) -> str:
    cols = columns(cards, card_types, common)
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for c in cards:
        w.writerow([cell(c.id if k == "id" else c.name if k == "name" else c.type if k == "type"
                         else c.copies if k == "copies" else c.fields.get(k)) for k in cols])
    return buf.getvalue()

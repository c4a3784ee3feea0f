"""Printer profiles: a printer's settings belong to the printer, not to each game.

The user's own file — ``$CARDGEN_PRINTERS``, else ``$XDG_CONFIG_HOME/cardgen/printers.yaml``,
else ``~/.config/cardgen/printers.yaml`` — names printers::

    default: office            # used when no --printer is given (optional)
    printers:
      office: {duplex: long, offset: [0.5mm, -1mm], margin: 4.2mm}
      library: {paper: Letter, duplex: short}

It is the one file cardgen reads outside a project. A printing command's value of each setting
comes from, first to last: its command-line flag, the ``--printer`` profile, the file's default
printer, the game's ``print:`` (rules/<game>/game.yaml), the built-in default; ``cards.json``
records which (``print_sources``). ``cardgen calibrate`` records a reading into a profile,
keeping the file's comments and its other printers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cardgen.content.model import PrintSettings
from cardgen.core import sources
from cardgen.core.atomic import write_text
from cardgen.core.optbase import check_mapping
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.units import PAPER_MM
from cardgen.core.yamlsrc import YDict, load_yaml, parse_yaml

MAX_OFFSET_MM = 50.0       # a printer's duplex drift is a few millimetres; more is a typo
MAX_MARGIN_MM = 30.0       # the widest unprintable margin taken (game.yaml's print: margin has the same)

PRINTER_SPEC: dict[str, Opt] = {
    "paper": Opt("enum", choices=tuple(PAPER_MM), doc="the paper the printer is loaded with"),
    "duplex": Opt("enum", choices=("long", "short"), doc="which edge the printer flips the sheet on"),
    "offset": Opt("list", item=Opt("length", min=-MAX_OFFSET_MM, max=MAX_OFFSET_MM),
                  doc="x, y shift of back pages (read off duplex-calibration.pdf)"),
    "margin": Opt("length", min=0, max=MAX_MARGIN_MM, doc="the printer's unprintable margin"),
}
PRINTER_KEYS = tuple(PRINTER_SPEC)
FILE_SPEC: dict[str, Opt] = {
    "default": Opt("str", default=None, doc="the printer used when no --printer is given"),
    "printers": Opt("map", default={}, doc="named printers: {name: {paper, duplex, offset, margin}}"),
}
SOURCES = ("flag", "printer", "default printer", "game", "built-in")


class PrinterError(Exception):
    """A printer name the file does not hold (a usage error)."""


@record
class Profiles:
    """The user's printers file as read: its path, default printer and printers (checked values)."""

    file: Path
    default: str | None
    printers: dict[str, dict[str, Any]]


def user_file(env: dict[str, str] | None = None) -> Path:
    """Where the user's printers file lives (it need not exist)."""
    env = dict(os.environ) if env is None else env
    if env.get("CARDGEN_PRINTERS"):
        return Path(env["CARDGEN_PRINTERS"]).expanduser()
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else Path("~").expanduser() / ".config"
    return base / "cardgen" / "printers.yaml"


def load(problems: Problems, path: Path | None = None) -> Profiles:
    """The printers file (none: no printers). Its problems go to ``problems`` at file:line:col."""
    path = path or user_file()
    empty = Profiles(path, None, {})
    if not path.exists():
        return empty
    with sources.named(path):           # the one file read outside the project
        raw = load_yaml(path, problems)
    if raw is None:
        return empty
    return _checked(raw, path, problems)


def _checked(raw: Any, path: Path, problems: Problems) -> Profiles:
    r = check_mapping(raw, FILE_SPEC, problems, f"the printers file {path}")
    if not r.ok:
        return Profiles(path, None, {})
    printers: dict[str, dict[str, Any]] = {}
    for name, body in (r.values.get("printers") or {}).items():
        if body is None:
            body = YDict()
        c = check_mapping(body, PRINTER_SPEC, problems, f"printer '{name}'", fill_absent=False)
        values = {k: v for k, v in c.values.items() if k in body}
        off = values.get("offset")
        if off is not None and len(off) != 2:
            problems.error("YAML-TYPE", f"printer '{name}': offset must be two lengths [x, y]",
                           body.at("offset") if isinstance(body, YDict) else None)
            c.ok = False
        if c.ok:
            printers[str(name)] = values
    default = r.values.get("default")
    if default is not None and default not in printers and not problems.has_errors:
        problems.error("YAML-RANGE", f"default printer '{default}' is not among the printers "
                       f"({', '.join(printers) or 'none'})", raw.at("default") if isinstance(raw, YDict) else None,
                       hint=did_you_mean(str(default), printers))
    return Profiles(path, default if default in printers else None, printers)


def choose(profiles: Profiles, name: str | None) -> tuple[str | None, str, dict[str, Any]]:
    """(printer name, its source — "printer" or "default printer", its settings) for ``--printer
    NAME`` (None: the file's default printer, if any). An unknown name is a PrinterError."""
    if name is None:
        if profiles.default is None:
            return None, "printer", {}
        return profiles.default, "default printer", profiles.printers[profiles.default]
    if name not in profiles.printers:
        hint = did_you_mean(name, profiles.printers)
        known = ", ".join(profiles.printers) or f"none: {profiles.file} holds no printers"
        raise PrinterError(f"unknown printer '{name}'" + (f"; {hint}" if hint else "") + f" (printers: {known}; "
                           f"record one with cardgen calibrate {name} --offset X,Y)")
    return name, "printer", profiles.printers[name]


def apply(ps: PrintSettings, layers: list[tuple[str, dict[str, Any]]]) -> PrintSettings:
    """``ps`` (the game's, its ``origin`` filled by the loader) with each layer's settings over it,
    lowest first: [("default printer", {...}), ("flag", {...})]. ``origin`` records the winner."""
    for source, values in layers:
        for key, v in values.items():
            if v is None:
                continue
            if key == "paper":
                ps.paper, (ps.page_w, ps.page_h) = v, PAPER_MM[v]
            elif key == "offset":
                ps.offset = (float(v[0]), float(v[1]))
            elif key == "margin":
                ps.margin = float(v)
            elif key == "duplex":
                ps.duplex = v
            ps.origin[key] = source
    return ps


# --- cardgen calibrate: a reading recorded, the file's comments and other printers kept ---------

def shown(key: str, v: Any) -> str:
    """A setting as the printers file writes it: [0.5mm, -1mm], 3mm, long."""
    return _flow(key, v)


def _flow(key: str, v: Any) -> str:
    if key == "offset":
        return f"[{v[0]:g}mm, {v[1]:g}mm]"
    if key == "margin":
        return f"{v:g}mm"
    return str(v)


def record_reading(path: Path, name: str, values: dict[str, Any], problems: Problems) -> str | None:
    """Write ``values`` into printer ``name`` of the file at ``path`` (made when absent), atomically.
    The file's other lines stay as they are. The new text (None: the file has problems, reported)."""
    text = ""
    if path.exists():
        with sources.named(path):
            raw = load_yaml(path, problems)
        if problems.has_errors:
            return None
        if raw is not None:
            _checked(raw, path, problems)
            if problems.has_errors:
                return None
        text = sources.read_bytes(path, cap=sources.MAX_TEXT_BYTES, root=path.parent).decode("utf-8")
        if text.startswith("\ufeff"):
            text = text[1:]
    else:
        raw = None
    before = _checked(raw, path, Problems()).printers if raw is not None else {}
    want = {**before, name: {**before.get(name, {}), **{k: _norm(k, v) for k, v in values.items()}}}
    new = _edited(text, raw if isinstance(raw, YDict) else None, name, values)
    check = Problems()
    back = _checked(parse_yaml(new, str(path), check), path, check)
    if check.has_errors or back.printers != want:
        problems.error("YAML-SYNTAX", "the printers file is laid out in a way cardgen cannot edit in place "
                       "(flow style?); edit it by hand", Loc(str(path), 1, 1))
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, new)
    return new


def _text(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    return str(v)


def _norm(key: str, v: Any) -> Any:
    return [float(v[0]), float(v[1])] if key == "offset" else float(v) if key == "margin" else v


def _edited(text: str, raw: YDict | None, name: str, values: dict[str, Any]) -> str:
    lines = text.splitlines()
    body = raw.get("printers") if raw is not None else None
    if raw is None or not text.strip():
        return (text.rstrip("\n") + "\n" if text.strip() else "# cardgen printer profiles (cardgen calibrate "
                "writes here)\n") + f"printers:\n  {name}:\n" + "".join(
                    f"    {k}: {_flow(k, v)}\n" for k, v in values.items())
    if not isinstance(body, YDict) or not body:
        lines = [ln for ln in lines if not ln.startswith("printers:")]
        lines += ["printers:", f"  {name}:", *(f"    {k}: {_flow(k, v)}" for k, v in values.items())]
        return "\n".join(lines) + "\n"
    first = next(iter(body))
    indent = body.key_at(first).col - 1
    printer = body.get(name)
    if not isinstance(printer, YDict) or not printer:
        at = body.key_at(first).line - 1          # the new printer goes first
        lines[at:at] = [" " * indent + f"{name}:", *(" " * (indent + 2) + f"{k}: {_flow(k, v)}"
                                                      for k, v in values.items())]
        if name in body:                           # "name:" with nothing under it: replaced
            old = body.key_at(name).line - 1 + 1 + len(values)
            del lines[old]
        return "\n".join(lines) + "\n"
    if printer.key_at(next(iter(printer))).line == body.key_at(name).line:     # name: {flow: style}
        at = body.key_at(name).line - 1
        merged = {**{k: printer[k] for k in printer}, **values}
        row = lines[at]
        comment = row.rfind(" #")
        tail = row[comment:] if comment > row.rfind("}") else ""
        lines[at] = " " * indent + f"{name}: {{" + ", ".join(f"{k}: {_flow(k, _norm(k, v)) if k in values else _text(v)}"
                                                          for k, v in merged.items()) + "}" + tail
        return "\n".join(lines) + "\n"
    inner = printer.key_at(next(iter(printer))).col - 1
    inserts = []
    for k, v in values.items():
        if k in printer:
            kl = printer.key_at(k)
            row = lines[kl.line - 1]
            comment = row.find(" #", kl.col)
            tail = row[comment:] if comment >= 0 else ""
            lines[kl.line - 1] = row[: kl.col - 1] + f"{k}: {_flow(k, v)}" + (" " + tail.lstrip() if tail else "")
        else:
            inserts.append(" " * inner + f"{k}: {_flow(k, v)}")
    at = printer.key_at(next(iter(printer))).line - 1
    lines[at:at] = inserts
    return "\n".join(lines) + "\n"

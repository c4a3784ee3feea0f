"""What the board printables share: reading ``maps/<game>/*.yaml``, parameters, colours, sizes.

A file in ``maps/<game>/`` says what it is by its top-level key:

``map``      a hex map (``maps.py``)            ``terrain``  hex terrain legend and placement checks
``board``    a board of zones and tracks (``zoneboard.py``)
``mats``     play mats (``mats.py``)             ``tokens``   a token sheet (``tokens.py``)
``reference`` a quick-reference sheet (``reference.py``)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.core.fonts import METRICS, font
from cardgen.core.options import Checked, Opt, check_mapping, check_value
from cardgen.core.params import resolve
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.units import UnitError, length_mm
from cardgen.core.yamlsrc import YDict, load_yaml

KINDS = ("map", "terrain", "board", "mats", "tokens", "reference")


def board_files(maps_dir: Path, problems: Problems) -> dict[str, list[tuple[Path, YDict]]]:
    """Every YAML file of the folder, parsed, grouped by kind (its top-level key)."""
    out: dict[str, list[tuple[Path, YDict]]] = {k: [] for k in KINDS}
    if not maps_dir.is_dir():
        return out
    for path in sorted(maps_dir.glob("*.yaml")):
        doc = load_yaml(path, problems)
        if doc is None:
            continue
        if not isinstance(doc, YDict):
            problems.error("YAML-TYPE", f"{path.name} must be a mapping with one of the keys {', '.join(KINDS)}",
                           getattr(doc, "loc", Loc(str(path), 1, 1)))
            continue
        kinds = [k for k in KINDS if k in doc]
        if not kinds:
            key = next(iter(doc), "")
            problems.error("BOARD-KIND", f"{path.name} is not a board file: it needs one of the top-level keys "
                           f"{', '.join(KINDS)}", doc.key_at(key) if key else doc.loc,
                           hint=did_you_mean(str(key), KINDS))
            continue
        out[kinds[0]].append((path, doc))
    return out


def mapping(d: Any, loc: Loc | None, spec: dict, problems: Problems, what: str, colors: dict | None = None) -> Checked:
    """:func:`check_mapping`, reporting a value that is not a mapping at ``loc`` (its place in its container)."""
    if not isinstance(d, dict):
        problems.error("YAML-TYPE", f"{what} must be a mapping, not {d!r}", getattr(d, "loc", None) or loc)
        return Checked(ok=False)
    return check(d, spec, problems, what, colors)


def check(d: Any, spec: dict, problems: Problems, what: str, colors: dict | None = None) -> Checked:
    """:func:`check_mapping` for board files (a key written with no value is reported there)."""
    return check_mapping(d, spec, problems, what, colors)


def section(doc: YDict, key: str, spec: dict, problems: Problems, what: str,
            colors: dict | None = None) -> tuple[dict, YDict] | None:
    """A board file's one top-level mapping ``key`` checked against ``spec``: (its checked values,
    the mapping as written, for positions), or None when it is missing or wrong (reported)."""
    r = check(doc, {key: Opt("map", required=True, fields=spec)}, problems, what, colors)
    raw = doc.get(key)
    if not r.ok or not isinstance(raw, YDict):
        return None
    return r.values[key], raw


def param(value: Any, game, problems: Problems, loc: Loc | None) -> Any:
    """A value or ``{param: dotted.path}`` read from the game's params.yaml (RULES-PARAM when missing)."""
    return resolve(value, game.params if game is not None else {}, problems, loc or Loc(""))


def color(value: Any, game, problems: Problems, loc: Loc | None, what: str) -> str | None:
    """A colour '#rrggbb' or a name from the game's palette."""
    ok, v = check_value(value, Opt("color", required=True), loc or Loc(""), problems, what,
                        game.colors if game is not None else {})
    return v if ok else None


def length(value: Any, problems: Problems, loc: Loc | None, what: str) -> float | None:
    ok, v = check_value(value, Opt("length", required=True), loc or Loc(""), problems, what)
    return v if ok else None


def card_size(name: Any, game, problems: Problems, loc: Loc | None) -> tuple[float, float] | None:
    """(width, height) of a card size named in the game's ``card_sizes``, or given as ``{width, height}``."""
    if not isinstance(name, str):
        try:
            if not isinstance(name, dict) or set(name) != {"width", "height"}:
                raise UnitError(f"not {name!r}")
            w, h = length_mm(name["width"]), length_mm(name["height"])
            if w <= 0 or h <= 0:
                raise UnitError(f"{w:g} × {h:g} mm is no size")
            return w, h
        except UnitError as e:
            problems.error("YAML-TYPE", "a slot size is a card size's name or {width, height}, two "
                           f"lengths such as 40mm: {e}", loc)
            return None
    sizes = {}
    for ct in game.card_types.values():
        sizes[ct.size] = (ct.width, ct.height)
    raw = (game.meta.get("card_sizes") or {}) if game is not None else {}
    for k, v in raw.items():
        if k not in sizes and isinstance(v, dict):
            try:
                sizes[k] = (length_mm(v.get("width")), length_mm(v.get("height")))
            except Exception:  # noqa: BLE001 - reported by the loader already
                continue
    if name in sizes:
        return sizes[name]
    problems.error("BOARD-CARD-SIZE", f"unknown card size '{name}' (the game's card_sizes: "
                   f"{', '.join(sizes) or 'none'})", loc, hint=did_you_mean(str(name), sizes))
    return None


def fonts_of(game) -> dict[str, str]:
    fonts = dict(game.fonts)
    for role in ("regular", "bold", "italic"):
        fonts.setdefault(role, {"regular": "LiberationSans-Regular", "bold": "LiberationSans-Bold",
                                "italic": "LiberationSans-Italic"}[role])
        font(fonts[role])
    return fonts


def at(d: Any, key: Any) -> Loc | None:
    """Position of ``d[key]`` (or of ``d``)."""
    if isinstance(d, YDict):
        return d.at(key)
    return getattr(d, "loc", None)


def pick(colors: dict, *names: str, default: str = "#000000") -> str:
    """The first palette colour the game defines among ``names``."""
    for n in names:
        if n in colors:
            return colors[n]
    return default


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` mm (a single word longer stays whole)."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        cand = f"{cur} {word}".strip()
        if METRICS.width_mm(cand, font, size) <= width or not cur:
            cur = cand
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    return lines

"""YAML with positions.

Mappings load as :class:`YDict` and sequences as :class:`YList`; both remember where
they and each of their entries stand in the file, so every later check can name a
FILE:LINE:COL. Duplicate keys (which PyYAML accepts silently) are reported, and so is
mis-decoded text (mojibake such as ``â‰¥`` for ``≥``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .problems import Loc, Problems


class YDict(dict):
    """A mapping that knows its own position and those of its keys and values."""

    loc: Loc
    key_locs: dict
    val_locs: dict

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.loc = Loc("")
        self.key_locs = {}
        self.val_locs = {}

    def at(self, key: Any) -> Loc:
        """Position of the value under ``key`` (of the mapping when the key is absent)."""
        return self.val_locs.get(key) or self.key_locs.get(key) or self.loc

    def key_at(self, key: Any) -> Loc:
        return self.key_locs.get(key) or self.loc


class YList(list):
    """A sequence that knows its own position and those of its items."""

    loc: Loc
    item_locs: list

    def __init__(self, *a):
        super().__init__(*a)
        self.loc = Loc("")
        self.item_locs = []

    def at(self, i: int) -> Loc:
        return self.item_locs[i] if 0 <= i < len(self.item_locs) else self.loc


def loc_of(obj: Any, key: Any = None) -> Loc | None:
    """Best known position of ``obj[key]`` (or of ``obj``)."""
    if key is not None and isinstance(obj, (YDict, YList)):
        return obj.at(key)
    return getattr(obj, "loc", None)


def _loc(path: str, mark) -> Loc:
    return Loc(path, mark.line + 1, mark.column + 1)


_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when present: same marks, faster


def _make_loader(path: str, problems: Problems):
    class Loader(_BASE_LOADER):  # type: ignore[valid-type,misc]
        pass

    def construct_mapping(loader, node, deep=False):
        loader.flatten_mapping(node)
        d = YDict()
        d.loc = _loc(path, node.start_mark)
        for knode, vnode in node.value:
            key = loader.construct_object(knode, deep=True)
            try:
                hash(key)
            except TypeError:
                problems.error("YAML-TYPE", "a mapping key must be a plain value", _loc(path, knode.start_mark))
                continue
            if key in d:
                first = d.key_locs[key]
                problems.error("YAML-DUPLICATE-KEY",
                               f"duplicate key '{key}' (first defined at line {first.line}); "
                               "YAML keeps only one, so the other would be lost",
                               _loc(path, knode.start_mark))
                continue
            d[key] = loader.construct_object(vnode, deep=True)
            d.key_locs[key] = _loc(path, knode.start_mark)
            d.val_locs[key] = _loc(path, vnode.start_mark)
        return d

    def construct_sequence(loader, node, deep=False):
        lst = YList()
        lst.loc = _loc(path, node.start_mark)
        for child in node.value:
            lst.append(loader.construct_object(child, deep=True))
            lst.item_locs.append(_loc(path, child.start_mark))
        return lst

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, construct_sequence)
    return Loader


def parse_yaml(text: str, path: str, problems: Problems) -> Any:
    """Parse YAML text; syntax errors and duplicate keys go to ``problems``; None on failure."""
    loader_cls = _make_loader(path, problems)
    try:
        loader = loader_cls(text)
        try:
            data = loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.context_mark or e.problem_mark
        if e.problem_mark and _tab_indented(text, e.problem_mark.line):
            mark = e.problem_mark       # a tab in the indentation: the slip is on the tab's own line
        loc = _loc(path, mark) if mark else Loc(path, 1, 1)
        msg = " ".join(x for x in (e.context, e.problem) if x) or "invalid YAML"
        if mark is e.context_mark and e.problem_mark and e.problem_mark.line != e.context_mark.line:
            msg += f" (detected at line {e.problem_mark.line + 1})"
        tab = mark is not None and mark is e.problem_mark and _tab_indented(text, mark.line)
        problems.error("YAML-SYNTAX", f"YAML syntax error: {msg}", loc,
                       hint="this line is indented with a tab; YAML indents with spaces" if tab else None)
        return None
    except yaml.YAMLError as e:
        problems.error("YAML-SYNTAX", f"YAML syntax error: {e}", Loc(path, 1, 1))
        return None
    check_mojibake(data, problems)
    return data


def _tab_indented(text: str, line: int) -> bool:
    """Line ``line`` (0-based) is indented with a tab, which YAML forbids."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return False
    row = lines[line]
    return "\t" in row[: len(row) - len(row.lstrip())]


def load_yaml(path: str | os.PathLike, problems: Problems) -> Any:
    """Read and parse a YAML file (UTF-8); unreadable files are problems, never exceptions."""
    p = str(path)
    try:
        raw = Path(p).read_bytes()
    except OSError as e:
        problems.error("FILE-MISSING", f"cannot read {p}: {e.strerror or e}", Loc(p, 1, 1))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        problems.error("YAML-ENCODING", f"file is not UTF-8 (byte 0x{raw[e.start]:02x})", Loc(p, line, 1),
                       hint="save the file as UTF-8")
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return parse_yaml(text, p, problems)


def unmojibake(s: str) -> str | None:
    """The intended text when ``s`` reads as UTF-8 decoded as cp1252/latin-1, else None."""
    if s.isascii():
        return None
    for enc in ("cp1252", "latin-1"):
        try:
            fixed = s.encode(enc).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        if fixed != s:
            return fixed
    return None


def _mojibake_words(s: str) -> tuple[str, str] | None:
    """Find the smallest garbled run in ``s`` and its repair (text may mix good and bad)."""
    whole = unmojibake(s)
    if whole is not None:
        return s, whole
    for word in s.split():
        fixed = unmojibake(word)
        if fixed is not None:
            return word, fixed
    return None


def check_mojibake(data: Any, problems: Problems, loc: Loc | None = None) -> None:
    """Warn about every string that looks like mis-decoded UTF-8."""
    if isinstance(data, YDict):
        for k, v in data.items():
            check_mojibake(v, problems, data.at(k))
    elif isinstance(data, YList):
        for i, v in enumerate(data):
            check_mojibake(v, problems, data.at(i))
    elif isinstance(data, str) and loc is not None:
        hit = _mojibake_words(data)
        if hit:
            bad, good = hit
            problems.warning("YAML-MOJIBAKE", f"text '{bad}' looks mis-decoded (mojibake)", loc,
                             hint=f"did you mean '{good}'?")


def inside(root: str | os.PathLike, rel: str) -> Path | None:
    """``root/rel`` resolved, or None when it leaves ``root`` (``../../etc/passwd``)."""
    if "\0" in str(rel):          # no file system holds such a name
        return None
    base = Path(root).resolve()
    target = (base / rel).resolve()
    try:
        target.relative_to(base)
    except ValueError:
        return None
    return target


def plain(data: Any) -> Any:
    """Deep copy into plain dicts and lists (for JSON output and Jinja contexts)."""
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data

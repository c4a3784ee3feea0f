"""YAML with positions.

Mappings load as :class:`YDict` and sequences as :class:`YList`; both remember where
they and each of their entries stand in the file, so every later check can name a
FILE:LINE:COL. Duplicate keys (which PyYAML accepts silently) are reported, and so is
mis-decoded text (mojibake such as ``â‰¥`` for ``≥``).

Hostile files end in one problem at their position, never a hang, a crash or a traceback:
nesting deeper than :data:`MAX_DEPTH`, aliases that expand to more than
:data:`MAX_ALIAS_NODES` values ("billion laughs") or into themselves, integers too long
to convert, impossible dates, NUL and other control characters. Files are read through
:mod:`cardgen.core.sources` (inside the project, regular files, a size cap).

A plain file (no anchors, aliases, tags or repeated keys: most card files) is built straight
from the parser's events by :mod:`cardgen.core.yamlplain`, without the node graph; any other
file is read by the full loader below, which reports every problem.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.core import sources
from cardgen.core.problems import Loc, Problems
from cardgen.core.yamlflow import pre_read
from cardgen.core.yamllib import yaml
from cardgen.core.yamlplain import UNUSUAL, read_plain

if TYPE_CHECKING:               # libyaml's marks (its events carry them): same fields as PyYAML's
    from yaml._yaml import Mark as CMark

MAX_DEPTH = 100                 # nested mappings and lists in one file
MAX_ALIAS_NODES = 100_000       # values added by expanding aliases, over the whole file
MAX_INT_DIGITS = 1000           # an integer written in any base (decimal, hex, octal, binary, 1:2:3)
_INT_LIMIT = 10 ** MAX_INT_DIGITS


class _Refused(yaml.MarkedYAMLError):
    """A construct the loader refuses: reported under ``rule`` at its mark."""

    def __init__(self, rule: str, message: str, mark: yaml.Mark | CMark | None):
        # the stub knows PyYAML's own marks only; the error reads line and column of either kind
        super().__init__(problem=message, problem_mark=mark)  # type: ignore[arg-type]
        self.rule = rule


_NOWHERE = Loc("")              # a collection's position until it is given one (frozen: one for all)


class YDict(dict[Any, Any]):
    """A mapping that knows its own position and those of its keys and values."""

    loc: Loc
    key_locs: dict[Any, Loc]
    val_locs: dict[Any, Loc]

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.loc = _NOWHERE
        self.key_locs = {}
        self.val_locs = {}

    def at(self, key: Any) -> Loc:
        """Position of the value under ``key`` (of the mapping when the key is absent)."""
        return self.val_locs.get(key) or self.key_locs.get(key) or self.loc

    def key_at(self, key: Any) -> Loc:
        return self.key_locs.get(key) or self.loc


_DICT_NEW = dict.__new__


def new_ydict() -> YDict:
    """``YDict()`` without the class's call (its ``__init__``, ``dict.__init__``): an empty mapping
    with no position yet (two a card: the deck's mapping and the card's merged one)."""
    d: YDict = _DICT_NEW(YDict)
    d.loc = _NOWHERE
    d.key_locs = {}
    d.val_locs = {}
    return d


class YList(list[Any]):
    """A sequence that knows its own position and those of its items."""

    loc: Loc
    item_locs: list[Loc]

    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.loc = _NOWHERE
        self.item_locs = []

    def at(self, i: int) -> Loc:
        return self.item_locs[i] if 0 <= i < len(self.item_locs) else self.loc


def loc_of(obj: Any, key: Any = None) -> Loc | None:
    """Best known position of ``obj[key]`` (or of ``obj``)."""
    if key is not None and isinstance(obj, (YDict, YList)):
        return obj.at(key)
    return getattr(obj, "loc", None)


def _loc(path: str, mark: yaml.Mark) -> Loc:
    return Loc(path, mark.line + 1, mark.column + 1)


_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when present: same marks, faster
_STR = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG       # tag:yaml.org,2002:str


def _make_loader(path: str, problems: Problems) -> type[Any]:
    class Loader(_BASE_LOADER):  # type: ignore[valid-type,misc]
        pass

    def value(loader: Any, node: Any) -> Any:
        """``loader.construct_object(node, deep=True)``; a plain string scalar (most keys and
        values) is its text, as the string constructor would return it, without the detour."""
        if type(node) is yaml.ScalarNode and node.tag == _STR:
            return node.value
        return loader.construct_object(node, deep=True)

    def construct_mapping(loader: Any, node: yaml.MappingNode, deep: bool = False) -> YDict:
        loader.flatten_mapping(node)
        d = YDict()
        d.loc = _loc(path, node.start_mark)
        for knode, vnode in node.value:
            key = value(loader, knode)
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
            d[key] = value(loader, vnode)
            d.key_locs[key] = _loc(path, knode.start_mark)
            d.val_locs[key] = _loc(path, vnode.start_mark)
        return d

    def construct_sequence(loader: Any, node: yaml.SequenceNode, deep: bool = False) -> YList:
        lst = YList()
        lst.loc = _loc(path, node.start_mark)
        for child in node.value:
            lst.append(value(loader, child))
            lst.item_locs.append(_loc(path, child.start_mark))
        return lst

    def construct_object(loader: Any, node: yaml.Node, deep: bool = False) -> Any:
        try:
            got = _BASE_LOADER.construct_object(loader, node, deep)
        except yaml.MarkedYAMLError:
            raise
        except (ValueError, TypeError, AttributeError, OverflowError, IndexError) as e:
            tag = node.tag.rsplit(":", 1)[-1]
            what = {"int": "integer", "timestamp": "date", "float": "number"}.get(tag, f"!!{tag} value")
            value = node.value if isinstance(node.value, str) else ""
            shown = value if len(value) <= 40 else f"{value[:20]}… ({len(value)} characters)"
            why = f" ({e})" if isinstance(e, ValueError) and not isinstance(e, UnicodeError) else ""
            raise _Refused("YAML-TYPE", f"not a valid {what}: {shown!r}{why}", node.start_mark) from e
        if type(got) is int and not -_INT_LIMIT < got < _INT_LIMIT:
            # hex, octal, binary and base-60 integers are built without Python's 4,300-digit cap
            # on decimal text, and could then never be printed: refused here, whatever the base
            raw = node.value if isinstance(node.value, str) else ""
            raise _Refused("YAML-TYPE", f"not a valid integer: {raw[:20]!r}… ({len(raw)} characters): "
                           f"cardgen reads integers of at most {MAX_INT_DIGITS:,} digits", node.start_mark)
        return got

    Loader.construct_object = construct_object
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, construct_sequence)
    return Loader


_EventParser: Callable[[str], Any]      # text → a parser of its events (``get_event()``)
try:
    from yaml._yaml import CParser
    _EventParser = CParser
except ImportError:             # pragma: no cover - PyYAML without libyaml: a pure-Python loader parses
    _EventParser = yaml.SafeLoader


def check_shape(text: str) -> None:
    """Refuse, before anything is built, nesting deeper than MAX_DEPTH and aliases that expand
    too far or into their own anchor. Raises :class:`_Refused` at the offending position."""
    parser = _EventParser(text)
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    sizes: dict[str | None, int] = {}           # anchor → values it stands for, aliases expanded
    stack: list[list[Any]] = []                 # open collections: [anchor, values so far]
    expanded = 0
    while True:
        ev = parser.get_event()
        if ev is None or isinstance(ev, yaml.StreamEndEvent):
            return
        if isinstance(ev, starts):
            if len(stack) >= MAX_DEPTH:
                raise _Refused("YAML-DEPTH", f"mappings and lists nested more than {MAX_DEPTH} deep",
                               ev.start_mark)
            stack.append([ev.anchor, 1])
        elif isinstance(ev, ends):
            anchor, n = stack.pop()
            if anchor is not None:
                sizes[anchor] = n
            if stack:
                stack[-1][1] += n
        elif isinstance(ev, yaml.ScalarEvent):
            if ev.anchor is not None:
                sizes[ev.anchor] = 1
            if stack:
                stack[-1][1] += 1
        elif isinstance(ev, yaml.AliasEvent):
            if any(a == ev.anchor for a, _ in stack):
                raise _Refused("YAML-ALIAS", f"alias *{ev.anchor} lies inside its own anchor: "
                               "the value would contain itself", ev.start_mark)
            n = sizes.get(ev.anchor, 1)
            expanded += n
            if expanded > MAX_ALIAS_NODES:
                raise _Refused("YAML-ALIAS", f"aliases expand to more than {MAX_ALIAS_NODES:,} values "
                               "(an alias bomb?)", ev.start_mark)
            if stack:
                stack[-1][1] += n


def parse_yaml(text: str, path: str, problems: Problems) -> Any:
    """Parse YAML text; syntax errors and duplicate keys go to ``problems``; None on failure."""
    loader_cls = _make_loader(path, problems)
    pre = pre_read(text)        # a deck's one-line JSON-style mappings, read without libyaml's events
    fast = loader_cls(text if pre is None else pre[0])
    try:
        data = read_plain(fast, fast, path, new_ydict, YList, MAX_DEPTH, pre and pre[1])
    finally:
        fast.dispose()
    if data is not UNUSUAL:
        if not text.isascii() or "\\" in text:
            check_mojibake(data, problems)
        return _collection(data, text, path, problems)
    try:
        check_shape(text)
        loader = loader_cls(text)
        try:
            data = loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.context_mark or e.problem_mark
        if e.problem_mark and _tab_indented(text, e.problem_mark.line):
            mark = e.problem_mark       # a tab in the indentation: the slip is on the tab's own line
        misindent = _misindented(e)
        if misindent:                   # a block's line indented wrong: the slip is on that line
            mark = e.problem_mark
        loc = _loc(path, mark) if mark else Loc(path, 1, 1)
        msg = " ".join(x for x in (e.context, e.problem) if x) or "invalid YAML"
        if mark is e.context_mark and mark is not None and e.problem_mark and e.problem_mark.line != mark.line:
            msg += f" (detected at line {e.problem_mark.line + 1})"
        if misindent and e.context_mark is not None:
            msg = f"this line is indented wrong for the block that starts at line {e.context_mark.line + 1} ({e.problem})"
        tab = mark is not None and mark is e.problem_mark and _tab_indented(text, mark.line)
        if isinstance(e, _Refused):
            problems.error(e.rule, str(e.problem), loc)
        else:
            problems.error("YAML-SYNTAX", f"YAML syntax error: {msg}", loc,
                           hint="this line is indented with a tab; YAML indents with spaces" if tab else None)
        return None
    except yaml.reader.ReaderError as e:        # a NUL or other control character: at its position
        before = text[: e.position]
        line = before.count("\n") + 1
        col = e.position - (before.rfind("\n") + 1) + 1
        ch = e.character if isinstance(e.character, str) else chr(e.character)
        problems.error("YAML-SYNTAX", f"YAML syntax error: control character U+{ord(ch):04X} is not allowed in YAML",
                       Loc(path, line, col))
        return None
    except RecursionError:
        problems.error("YAML-DEPTH", "the file nests too deeply to read", Loc(path, 1, 1))
        return None
    except yaml.YAMLError as e:
        problems.error("YAML-SYNTAX", f"YAML syntax error: {e}", Loc(path, 1, 1))
        return None
    if not text.isascii() or "\\" in text:      # else no string of it can hold a non-ASCII character
        check_mojibake(data, problems)
    return _collection(data, text, path, problems)


def _collection(data: Any, text: str, path: str, problems: Problems) -> Any:
    """The file's value when it is a mapping, a list or empty. Every file cardgen reads holds a
    mapping (or a list): a file of one number, text, date, ``!!set`` or ``!!omap`` is one problem
    at the value's own line (a scalar has no position of its own to report later), and None."""
    if data is None or isinstance(data, (YDict, YList)):
        return data
    kind = {int: "a number", float: "a number", bool: "a true/false value", str: "text", bytes: "binary data",
            set: "a !!set", tuple: "a !!pairs list"}.get(type(data), "a date" if hasattr(data, "year") else
                                                          f"a {type(data).__name__}")
    if isinstance(data, list):
        kind = "an !!omap or !!pairs list"
    shown = repr(data)
    shown = shown if len(shown) <= 40 else ""
    problems.error("YAML-TYPE", f"the file must hold a mapping of keys (or a list), not {kind}"
                   + (f" ({shown})" if shown else ""), _root_loc(text, path))
    return None


def _root_loc(text: str, path: str) -> Loc:
    """Where the document's value starts (after comments, directives and ``---``)."""
    parser = _EventParser(text)
    try:
        while True:
            ev = parser.get_event()
            if ev is None or isinstance(ev, yaml.StreamEndEvent):
                break
            if isinstance(ev, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                m = ev.start_mark
                return Loc(path, m.line + 1, m.column + 1) if m is not None else Loc(path, 1, 1)
    except yaml.YAMLError:
        pass
    return Loc(path, 1, 1)


def _misindented(e: yaml.MarkedYAMLError) -> bool:
    """A block mapping or list broken by a later line indented wrong: PyYAML marks the block's
    start as the context and the wrong line as the problem."""
    return bool(e.context and e.context.startswith("while parsing a block") and e.problem_mark is not None
                and e.context_mark is not None and e.problem_mark.line != e.context_mark.line)


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
        raw = sources.read_bytes(p)
    except sources.SourceError as e:
        problems.error(e.rule, e.message, Loc(p, 1, 1))
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


def load_mapping(path: str | os.PathLike, problems: Problems, what: str) -> YDict:
    """A YAML file that holds a mapping (``what`` names the file when it holds something else);
    an empty or unreadable file (its problem reported) is an empty mapping."""
    data = load_yaml(path, problems)
    if data is not None and not isinstance(data, YDict):
        problems.error("YAML-TYPE", f"{what} must be a mapping", getattr(data, "loc", None) or Loc(str(path), 1, 1))
    return data if isinstance(data, YDict) else YDict()


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
    if s.isascii():                 # so is every word of it: nothing to repair
        return None
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

"""Plain YAML read straight from the parser's events: the fast path of :mod:`cardgen.core.yamlsrc`.

Most card files are one document of mappings, lists and untagged scalars, with no anchors,
aliases, merge keys or duplicate keys. Such a file is built here from libyaml's event stream
in one pass — the same :class:`YDict` / :class:`YList` values with the same positions the
node-graph loader gives, without building the node graph first (nor a second pass for the
depth and alias limits). Anything else — an anchor, an alias, a tag, a key that is not a
string, a repeated key, nesting past the limit, a syntax error, a scalar its constructor
refuses — gives up with :data:`UNUSUAL`, and the caller reads the file with the full loader,
which reports every problem as before (this path reports none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgen.core.problems import make_loc
from cardgen.core.yamlflow import Entries
from cardgen.core.yamllib import yaml

DocumentEndEvent, DocumentStartEvent = yaml.DocumentEndEvent, yaml.DocumentStartEvent
MappingEndEvent, MappingStartEvent = yaml.MappingEndEvent, yaml.MappingStartEvent
SequenceEndEvent, SequenceStartEvent = yaml.SequenceEndEvent, yaml.SequenceStartEvent
ScalarEvent, ScalarNode = yaml.ScalarEvent, yaml.ScalarNode
StreamEndEvent, StreamStartEvent = yaml.StreamEndEvent, yaml.StreamStartEvent

UNUSUAL = object()              # the file needs the full loader
_UNSEEN = object()
_SHARED = (int, float, bool, type(None))     # immutable: one value can stand for every scalar of its text
_STR = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG


def read_plain(parser: Any, loader: Any, path: str, ydict: Callable[[], Any], ylist: Callable[[], Any],
               max_depth: int, emptied: dict[tuple[int, int], Entries] | None = None) -> Any:
    """The file's one document from ``parser`` (events), or :data:`UNUSUAL`. ``loader`` resolves
    plain scalars and constructs those that are not strings (numbers, booleans, dates, null).
    ``emptied``: the mappings :func:`cardgen.core.yamlflow.pre_read` emptied in the text the
    parser reads, by the (line, column) of their ``{``: each filled with its entries where it
    opens (:data:`UNUSUAL` unless every one is met there)."""
    try:
        return _read(parser, loader, path, ydict, ylist, max_depth, emptied or {})
    except Exception:           # noqa: BLE001 - whatever it is, the full loader reports it at its place
        return UNUSUAL


def _read(parser: Any, loader: Any, path: str, ydict: Callable[[], Any], ylist: Callable[[], Any],
          max_depth: int, emptied: dict[tuple[int, int], Entries]) -> Any:
    get = parser.get_event
    filled = 0                  # emptied mappings met (and filled) so far
    if type(get()) is not StreamStartEvent or type(get()) is not DocumentStartEvent:
        return UNUSUAL
    resolve = loader.resolve
    construct = loader.construct_object
    firsts = loader.yaml_implicit_resolvers     # first character → the implicit tags text starting with it may have
    anywhere = None in firsts                   # resolvers for any first character: every plain scalar is resolved
    known: dict[str, Any] = {}                  # a plain scalar's text → its number, flag or null, as constructed
    root: Any = UNUSUAL
    parent: Any = None          # the innermost open collection (None: none open yet)
    in_list = False             # whether it is a list
    key: Any = None             # in a mapping: the key read, waiting for its value (None: none)
    key_mark: Any = None
    outer: list[tuple[Any, bool, Any, Any]] = []    # per open collection, the four above as they were
    #                                                 when it opened (its length: the nesting depth)
    while True:
        ev = get()
        t = type(ev)
        if t is ScalarEvent:
            if ev.anchor is not None or ev.tag is not None:
                return UNUSUAL
            val = ev.value
            if ev.implicit[0] and (anywhere or not val or val[0] in firsts):
                got = known.get(val, _UNSEEN)
                if got is not _UNSEEN:
                    val = got
                else:
                    text = val
                    tag = resolve(ScalarNode, val, ev.implicit)
                    if tag != _STR:
                        val = construct(ScalarNode(tag, val, ev.start_mark, ev.end_mark, ev.style), deep=True)
                        if type(val) in _SHARED and len(known) < 10_000:
                            known[text] = val
            opened = None
        elif t is MappingStartEvent or t is SequenceStartEvent:
            if ev.anchor is not None or ev.tag is not None or len(outer) >= max_depth:
                return UNUSUAL
            val = ydict() if t is MappingStartEvent else ylist()
            m = ev.start_mark
            line = m.line + 1
            val.loc = make_loc(path, line, m.column + 1)
            opened = val
            entries = emptied.get((m.line, m.column)) if emptied and t is MappingStartEvent else None
            if entries is not None:
                kl, vl = val.key_locs, val.val_locs
                for k, kc, v, vc in entries:
                    val[k] = v
                    kl[k] = make_loc(path, line, kc + 1)
                    vl[k] = make_loc(path, line, vc + 1)
                filled += 1
        elif t is MappingEndEvent or t is SequenceEndEvent:
            parent, in_list, key, key_mark = outer.pop()
            continue
        elif t is DocumentEndEvent:
            break
        else:                   # an alias, another document
            return UNUSUAL
        if parent is None:
            root = val
        elif in_list:
            parent.append(val)
            if opened is not None:              # a collection: its own position, the same object
                parent.item_locs.append(opened.loc)
            else:
                m = ev.start_mark
                parent.item_locs.append(make_loc(path, m.line + 1, m.column + 1))
        elif key is None:                       # a key
            if type(val) is not str or val in parent:
                return UNUSUAL
            key = val
            key_mark = ev.start_mark
        else:
            parent[key] = val
            parent.key_locs[key] = make_loc(path, key_mark.line + 1, key_mark.column + 1)
            if opened is not None:
                parent.val_locs[key] = opened.loc
            else:
                m = ev.start_mark
                parent.val_locs[key] = make_loc(path, m.line + 1, m.column + 1)
            key = None
        if opened is not None:
            outer.append((parent, in_list, key, key_mark))
            parent, in_list, key, key_mark = opened, t is SequenceStartEvent, None, None
    if type(get()) is not StreamEndEvent or filled != len(emptied):
        return UNUSUAL
    return root

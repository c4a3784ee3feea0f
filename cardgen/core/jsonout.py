"""Indented JSON, fast: the text of ``json.dumps(obj, indent=n, ensure_ascii=False)``, character
for character, for the manifests of large decks (the standard library encodes indented JSON in
pure Python, one generator per nesting level; this writes into one list). With ``inline=d``,
every list or mapping nested ``d`` deep is written on one line as ``json.dumps(o,
ensure_ascii=False)`` writes it (the standard library's C encoder): a card's record in
cards.json is one line."""

from __future__ import annotations

from json.encoder import JSONEncoder, encode_basestring
from typing import Any

_INF = float("inf")


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == _INF:
        return "Infinity"
    if o == -_INF:
        return "-Infinity"
    return float.__repr__(o)


def _key(k: Any) -> str:
    if isinstance(k, str):
        return encode_basestring(k)
    if isinstance(k, float):
        return encode_basestring(_float(k))
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, int):
        return encode_basestring(int.__repr__(k))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


_ONE_LINE = JSONEncoder(ensure_ascii=False).encode


def _one_line(o: dict, keys: dict[Any, str], lists: dict[int, str]) -> str:
    """``_ONE_LINE(o)`` for a mapping: its string keys, and values that are strings, whole
    numbers or lists of numbers (a card's record in cards.json: its boxes, shared by every card in
    the same place, written once), as the encoder writes them; any other mapping by the encoder."""
    parts = []
    for k, v in o.items():
        if type(k) is not str:
            return _ONE_LINE(o)
        kt = keys.get(k)
        if kt is None:
            kt = keys[k] = encode_basestring(k) + ": "
        t = type(v)
        if t is str:
            parts.append(kt + encode_basestring(v))
        elif t is int:
            parts.append(kt + int.__repr__(v))
        elif t is list:
            text = lists.get(id(v))     # (every object in ``o`` lives through the call: ids are not reused)
            if text is None:
                if not all(type(x) is float or type(x) is int for x in v):
                    return _ONE_LINE(o)
                text = lists[id(v)] = "[" + ", ".join([_float(x) if type(x) is float else int.__repr__(x)
                                                       for x in v]) + "]"
            parts.append(kt + text)
        else:
            return _ONE_LINE(o)
    return "{" + ", ".join(parts) + "}"


def dumps(obj: Any, indent: int = 1, inline: int | None = None) -> str:
    """``json.dumps(obj, indent=indent, ensure_ascii=False)``; with ``inline``, the lists and
    mappings nested that deep (the top is 0) each on one line."""
    out: list[str] = []
    done: list[str] = []
    pad = " " * indent
    breaks: list[str] = ["\n"]

    def nl(level: int) -> str:
        while len(breaks) <= level:
            breaks.append("\n" + pad * len(breaks))
        return breaks[level]

    keys: dict[Any, str] = {}           # key → its text and ": " (keys repeat in every entry)
    shared: dict[tuple[int, int], str] = {}  # (id, level) → text of a list met before (shared boxes)
    lists: dict[int, str] = {}          # id → one-line text of a list of numbers met before

    def enc(o: Any, level: int) -> None:
        if isinstance(o, str):
            out.append(encode_basestring(o))
        elif o is None:
            out.append("null")
        elif o is True:
            out.append("true")
        elif o is False:
            out.append("false")
        elif isinstance(o, int):
            out.append(int.__repr__(o))
        elif isinstance(o, float):
            out.append(_float(o))
        elif level == inline and isinstance(o, (list, tuple, dict)):
            out.append(_one_line(o, keys, lists) if type(o) is dict else _ONE_LINE(o))
        elif isinstance(o, (list, tuple)):
            if not o:
                out.append("[]")
                return
            done_as = shared.get((id(o), level))
            if done_as is not None:             # the same list again (every object in ``obj``
                out.append(done_as)             # lives through the call: ids are not reused)
                return
            if len(o) <= 8 and all(type(v) is float or type(v) is int for v in o):
                inner = nl(level + 1)
                text = shared[(id(o), level)] = "[" + inner + ("," + inner).join(
                    [_float(v) if type(v) is float else int.__repr__(v) for v in o]) + nl(level) + "]"
                out.append(text)
                return
            inner = nl(level + 1)
            sep = "," + inner
            out.append("[" + inner)
            first = True
            for v in o:
                if not first:
                    out.append(sep)
                first = False
                enc(v, level + 1)
                if len(out) > 8192:         # joined as it goes: a few long strings, not 100,000s of short ones
                    done.append("".join(out))
                    out.clear()
            out.append(nl(level) + "]")
        elif isinstance(o, dict):
            if not o:
                out.append("{}")
                return
            inner = nl(level + 1)
            sep = "," + inner
            out.append("{" + inner)
            first = True
            for k, v in o.items():
                if not first:
                    out.append(sep)
                first = False
                kt = keys.get(k) if type(k) is str else None
                if kt is None:
                    kt = _key(k) + ": "
                    if type(k) is str:
                        keys[k] = kt
                out.append(kt)
                enc(v, level + 1)
            out.append(nl(level) + "}")
        else:
            raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    enc(obj, 0)
    done.append("".join(out))
    return "".join(done)

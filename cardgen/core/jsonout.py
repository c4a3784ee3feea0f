"""Indented JSON, fast: the text of ``json.dumps(obj, indent=n, ensure_ascii=False)``, character
for character, for the manifests of large decks (the standard library encodes indented JSON in
pure Python, one generator per nesting level; this writes into one list)."""

from __future__ import annotations

from json.encoder import encode_basestring
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


def dumps(obj: Any, indent: int = 1) -> str:
    """``json.dumps(obj, indent=indent, ensure_ascii=False)``."""
    out: list[str] = []
    pad = " " * indent
    breaks: list[str] = ["\n"]

    def nl(level: int) -> str:
        while len(breaks) <= level:
            breaks.append("\n" + pad * len(breaks))
        return breaks[level]

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
        elif isinstance(o, (list, tuple)):
            if not o:
                out.append("[]")
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
                out.append(_key(k) + ": ")
                enc(v, level + 1)
            out.append(nl(level) + "}")
        else:
            raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    enc(obj, 0)
    return "".join(out)

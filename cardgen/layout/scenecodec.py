"""Scene primitives to and from JSON-ready lists, for the build cache.

``[kind, field, …]`` per primitive, fields in declaration order; tuples come back as tuples,
so a decoded scene equals the encoded one and renders to the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any

from cardgen.scene import Circle, Clip, Image, Line, Link, Polygon, Rect, Text, Use

KINDS: dict[str, type] = {t.__name__: t for t in (Rect, Line, Circle, Polygon, Text, Image, Use, Link, Clip)}
# a primitive's fields in declaration order (what ``dataclasses.astuple`` gives for these flat
# records, without its deep copies)
_VALUES: dict[type, Any] = {t: attrgetter(*(f.name for f in fields(t))) for t in KINDS.values()}
_COUNT: dict[str, int] = {name: len(fields(t)) for name, t in KINDS.items()}     # fields per kind
# the kinds whose fields are stored as they are (no tuples inside): the class and its field count
_PLAIN: dict[str, tuple[type, int]] = {t.__name__: (t, _COUNT[t.__name__])
                                       for t in (Rect, Text, Image, Use, Link, Circle)}


def encode(items: Sequence[Any]) -> list:
    out = []
    for it in items:
        if isinstance(it, Clip):
            out.append(["Clip", it.x, it.y, it.w, it.h, encode(list(it.items))])
        elif isinstance(it, Polygon):
            out.append(["Polygon", [list(p) for p in it.points], it.fill, it.stroke, it.width])
        else:
            out.append([type(it).__name__, *_VALUES[type(it)](it)])
    return out


def decode(data: list) -> list:
    """The primitives of :func:`encode`'s output; ValueError for anything else."""
    out: list[Any] = []
    for row in data:
        if not isinstance(row, list) or not row or row[0] not in KINDS:
            raise ValueError(f"not a scene primitive: {row!r:.60}")
        kind, vals = row[0], row[1:]
        plain = _PLAIN.get(kind)
        if plain is not None:           # the commonest: its fields as they are
            if len(vals) != plain[1]:
                raise ValueError(f"{kind} with {len(vals)} fields")
            out.append(plain[0](*vals))
        elif kind == "Clip":
            x, y, w, h = vals[:4]
            out.append(Clip(x, y, w, h, tuple(decode(vals[4]))))
        elif kind == "Polygon":
            out.append(Polygon(tuple(tuple(p) for p in vals[0]), *vals[1:]))
        elif kind == "Line":
            x1, y1, x2, y2, stroke, width, dash = vals
            out.append(Line(x1, y1, x2, y2, stroke, width, tuple(dash)))
        else:
            if len(vals) != _COUNT[kind]:
                raise ValueError(f"{kind} with {len(vals)} fields")
            out.append(KINDS[kind](*vals))
    return out

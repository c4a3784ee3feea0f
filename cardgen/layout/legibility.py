"""Legibility floors: the smallest type a player can read at arm's length (``TEXT-SMALL``).

Any text on a card, board, mat or token is at least :data:`MIN_PT`; rules text (what a
player reads to play: an ability, an effect, a board's instructions) at least
:data:`MIN_RULES_PT`. A template marks rules text with ``rules: true`` on its ``text``
element. A template's ``min_size`` counts: text that fits today at 8 pt but may shrink to
5 pt for a longer card is reported, so the floor cannot come back with the next card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from cardgen.scene import Clip, Text

MIN_PT = 6.0          # any text a player reads
MIN_RULES_PT = 7.0    # rules / body text
_EPS = 1e-6


def floor_of(kind: str, values: dict[str, Any]) -> float:
    """The floor of an element's text: :data:`MIN_RULES_PT` for rules text, else :data:`MIN_PT`."""
    return MIN_RULES_PT if kind == "text" and values.get("rules") else MIN_PT


def element_sizes(kind: str, values: dict[str, Any]) -> Iterator[tuple[str, float, str]]:
    """The sizes (pt) an element may print its text at, as (template key, size, what)."""
    if kind == "text":
        size, low = float(values["size"]), float(values["min_size"])
        if low < size:
            yield "min_size", low, "text may shrink to"
        else:
            yield "size", size, "text is set at"
    elif kind == "badge":
        if str(values.get("value") or "").strip():
            yield "size", float(values["size"]), "the value is set at"
        if str(values.get("label") or "").strip():
            yield "label_size", float(values["label_size"]), "the label is set at"
    elif kind == "icon":
        yield "size", float(values["size"]), "the icon is set at"


def too_small(kind: str, values: dict[str, Any]) -> list[tuple[str, float, str, float]]:
    """The element's sizes under its floor: (key, size, what, floor)."""
    floor = floor_of(kind, values)
    return [(key, size, what, floor) for key, size, what in element_sizes(kind, values) if size < floor - _EPS]


def texts(items: Iterable) -> Iterator[Text]:
    """Every text primitive of a scene, inside clips too."""
    for it in items:
        if isinstance(it, Text):
            yield it
        elif isinstance(it, Clip):
            yield from texts(it.items)


def small_texts(items: Iterable, floor: float = MIN_PT) -> list[Text]:
    """The text primitives of a scene set under ``floor`` pt."""
    return [it for it in texts(items) if it.size < floor - _EPS and it.text.strip()]


def describe(texts: list[Text], limit: int = 4) -> str:
    """'"RETREAT" at 5 pt, …' for a message."""
    seen: dict[tuple[str, float], None] = {}
    for t in texts:
        seen.setdefault((t.text.strip(), round(t.size, 1)), None)
    shown = [f"'{s}' at {pt:g} pt" for s, pt in list(seen)[:limit]]
    more = len(seen) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")

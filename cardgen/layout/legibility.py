"""Legibility floors: the smallest type a player can read at arm's length (``TEXT-SMALL``).

Any text on a card, board, mat or token is at least :data:`MIN_PT`; rules text (what a
player reads to play: an ability, an effect, a board's instructions) at least
:data:`MIN_RULES_PT`. A template marks rules text with ``rules: true`` on its ``text``
element. A template's ``min_size`` counts: text that fits today at 8 pt but may shrink to
5 pt for a longer card is reported, so the floor cannot come back with the next card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from cardgen.scene import Text, children

MIN_PT = 6.0          # any text a player reads
MIN_RULES_PT = 7.0    # rules / body text
_EPS = 1e-6


def floor_of(values: Mapping[str, Any]) -> float:
    """The floor of an element's text: :data:`MIN_RULES_PT` for rules text (``rules: true``),
    else :data:`MIN_PT`."""
    return MIN_RULES_PT if values.get("rules") else MIN_PT


def too_small(sizes: Iterable[tuple[str, float, str]], floor: float) -> list[tuple[str, float, str, float]]:
    """Of the sizes an element may print its text at (its kind's ``text_sizes``), those under
    ``floor``: (key, size, what, floor)."""
    return [(key, size, what, floor) for key, size, what in sizes if size < floor - _EPS]


def texts(items: Iterable) -> Iterator[Text]:
    """Every text primitive of a scene, inside clips and rotations too."""
    for it in items:
        if isinstance(it, Text):
            yield it
        else:
            yield from texts(children(it))


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

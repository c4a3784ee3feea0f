"""ICON-UNKNOWN in card text: every ``{name}`` a card's text field writes names one of the game's
icons (game.yaml ``icons``), checked with the content — whether or not a template prints the
field — at the name's own line and column, with the nearest icon as a hint. The layout does not
report those again (:attr:`Game.icon_slips`)."""

from __future__ import annotations

import re

from cardgen.content.model import Card, Icon
from cardgen.core import sources
from cardgen.core.problems import Loc, Problems, did_you_mean

ICON = re.compile(r"\{([a-z0-9_]+)\}")            # as card text marks an icon (layout.textfit)
_EXPR = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)   # Jinja in card text (the `expand` filter): not icons


def names(text: str) -> list[str]:
    """The icon names ``text`` writes, in order, Jinja expressions left out."""
    return [m.group(1) for m in ICON.finditer(_EXPR.sub(lambda m: " " * len(m.group(0)), text))]


def check_icons(cards: list[Card], text_fields: dict[str, set[str]], icons: dict[str, Icon],
                problems: Problems) -> dict[str, frozenset[str]]:
    """Report each unknown icon of the cards' text fields (``text_fields``: card type → its free
    text fields); returns card id → the unknown names reported."""
    out: dict[str, frozenset[str]] = {}
    for card in cards:
        if not card.may_hold_brace():       # (a kept card's values not decoded to see none)
            continue
        bad: set[str] = set()
        for key in text_fields.get(card.type, ()):
            value = card.fields.get(key)
            if not isinstance(value, str) or "{" not in value:
                continue
            found = [n for n in names(value) if n not in icons]
            if not found:
                continue
            loc = card.field_locs.get(key) or card.loc
            for name, at in zip(found, positions(loc, found)):
                problems.error("ICON-UNKNOWN", f"card '{card.id}' ({card.name}): unknown icon '{{{name}}}' in "
                               f"field '{key}'", at, hint=did_you_mean(name, icons) or
                               f"the game's icons: {', '.join(sorted(icons)) or 'none'} (game.yaml icons)")
                bad.add(name)
        if bad:
            out[card.id] = frozenset(bad)
    return out


def positions(loc: Loc, found: list[str]) -> list[Loc]:
    """Where each ``{name}`` stands in the file, searched from the value's start (the value's own
    position where the source cannot be read or the text is escaped past recognition)."""
    try:
        text = sources.read_bytes(loc.file).decode("utf-8")
    except (sources.SourceError, UnicodeDecodeError, OSError):
        return [loc] * len(found)
    lines = text.split("\n")
    if not 0 < loc.line <= len(lines):
        return [loc] * len(found)
    start = sum(len(ln) + 1 for ln in lines[: loc.line - 1]) + max(loc.col - 1, 0)
    out = []
    for name in found:
        i = text.find("{" + name + "}", start)
        if i < 0:
            out.append(loc)
            continue
        line = text.count("\n", 0, i) + 1
        out.append(Loc(loc.file, line, i - (text.rfind("\n", 0, i) + 1) + 1))
        start = i + len(name) + 2
    return out

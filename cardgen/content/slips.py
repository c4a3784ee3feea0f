"""One slip, one problem, while loading cards: helpers that keep a single mistake from being
reported many times (a file's defaults, an unreadable file's cards, a card type's rule, a reference
to a card that did not load)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from cardgen.content.model import Card, CardType
from cardgen.core import sources
from cardgen.core.options import Opt
from cardgen.core.problems import Problem, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict


def with_rule(opt: Opt, rule: str | None) -> Opt:
    """The card type's catalogue rule for a field (and its items and sub-fields) that names none."""
    if rule is None:
        return opt
    if opt.rule is None:
        opt.rule = rule
    if opt.item is not None:
        with_rule(opt.item, opt.rule)
    for sub in (opt.fields or {}).values():
        with_rule(sub, opt.rule)
    return opt


_ID_LINE = re.compile(r"""(?:^|[\s{,-])id:\s*["']?([A-Za-z0-9_.\-]+)""", re.M)


def ids_in(path: Path) -> set[str]:
    """The card ids a file that cannot be read seems to hold (``id: x`` as written), so that
    decks and cards naming them wait for the file instead of reporting unknown cards."""
    try:
        text = sources.read_bytes(path).decode("utf-8", errors="replace")
    except (OSError, sources.SourceError):
        return set()
    return set(_ID_LINE.findall(text))


_LACKS = re.compile(r"^card '.*' lacks required key '([^']+)'")


def once_for_defaults(problems: Problems, mark: int, defaults: Any, n_cards: int = 0) -> None:
    """A bad value in a file's ``defaults`` is one slip: reported once (for the first card it reaches,
    with how many more), not once per card of the file. So is a required key that none of the file's
    ``n_cards`` cards holds, nor its defaults: a key the defaults lack."""
    if not isinstance(defaults, dict):
        return
    at = set(defaults.val_locs.values()) | set(defaults.key_locs.values()) if isinstance(defaults, YDict) else set()
    lacking: dict[tuple, int] = {}
    for p in problems.items[mark:]:
        if (m := _LACKS.match(p.message)) is not None:
            lacking[(p.rule, m.group(1))] = lacking.get((p.rule, m.group(1)), 0) + 1
    everyone = {k for k, n in lacking.items() if n == n_cards > 1}
    first: dict[tuple, int] = {}
    more: dict[tuple, int] = {}
    keep: list[Problem] = []
    for p in problems.items[mark:]:
        m = _LACKS.match(p.message)
        key = (p.rule, m.group(1)) if m is not None and (p.rule, m.group(1)) in everyone else (p.rule, p.loc)
        if (p.loc in at or key[1] != p.loc) and key in first:
            more[key] = more.get(key, 0) + 1
            continue
        first.setdefault(key, len(keep))
        keep.append(p)
    for key, n in more.items():
        p = keep[first[key]]
        tail = ": none holds it, nor the file's defaults" if key in everyone else " from its defaults"
        keep[first[key]] = replace(p, message=f"{p.message} (and {n} more card{'s' if n > 1 else ''} of the "
                                               f"file{tail})")
    problems.items[mark:] = keep


def check_refs(cards: list[Card], card_types: dict[str, CardType], failed: set[str], problems: Problems,
               retyped: frozenset[str] | set[str] = frozenset()) -> None:
    """Fields declared ``ref: <card type>`` must name a card of that type.

    A card naming one that failed to load (already reported) is only kept from layout,
    so one broken card does not echo through every card that names it; so is a card naming an
    unknown card of a type one of whose cards has a repeated id (CARD-DUPLICATE-ID: it may be that one).
    """
    ids: dict[str, list[str]] = {}
    for c in cards:
        ids.setdefault(c.type, []).append(c.id)
    refs = {k: [(fname, ref) for fname, opt in t.fields.items()
                if (ref := opt.ref or (opt.item.ref if opt.item else None)) is not None]
            for k, t in card_types.items()}         # each card type's ref fields: most have none
    for c in cards:
        for fname, ref in refs[c.type]:
            value = c.fields.get(fname)
            if value is None:
                continue
            for v in value if isinstance(value, list) else [value]:
                if v in ids.get(ref, ()):
                    continue
                c.dangling = True
                if v not in failed and ref not in retyped:
                    kind = card_types[ref].name if ref in card_types else ref
                    problems.error("CARD-REF", f"card '{c.id}': {fname} '{v}' names no {kind} card",
                                   c.at(fname), hint=did_you_mean(str(v), ids.get(ref, ())))

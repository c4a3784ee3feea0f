"""One slip, one problem, while loading cards: helpers that keep a single mistake from being
reported many times (a file's defaults, an unreadable file's cards, a card type's rule)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from cardgen.core import sources
from cardgen.core.options import Opt
from cardgen.core.problems import Problems
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


def once_for_defaults(problems: Problems, mark: int, defaults: Any) -> None:
    """A bad value in a file's ``defaults`` is one slip: reported once (for the first card it reaches,
    with how many more), not once per card of the file."""
    if not isinstance(defaults, YDict):
        return
    at = set(defaults.val_locs.values()) | set(defaults.key_locs.values())
    first: dict[tuple, int] = {}
    more: dict[tuple, int] = {}
    keep = []
    for p in problems.items[mark:]:
        key = (p.rule, p.loc)
        if p.loc in at and key in first:
            more[key] = more.get(key, 0) + 1
            continue
        first.setdefault(key, len(keep))
        keep.append(p)
    for key, n in more.items():
        p = keep[first[key]]
        keep[first[key]] = replace(p, message=f"{p.message} (and {n} more card{'s' if n > 1 else ''} of the file "
                                               f"from its defaults)")
    problems.items[mark:] = keep

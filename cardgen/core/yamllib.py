"""PyYAML, imported without compiling its reader's pattern of printable characters.

``yaml.reader`` compiles, when it is imported, one regular expression: the characters YAML does
not allow, a class of wide Unicode ranges (``\\xA0-\\uD7FF``, ``\\U00010000-\\U0010FFFF``, …) that
the ``re`` compiler turns into a table over every code point — about 6 ms, some 2 % of a
540-card build's CPU, whatever loader is used. Only PyYAML's own Python reader ever runs it
(``Reader.check_printable``); libyaml's reader, which cardgen loads through when it is present,
checks the characters itself. Here the pattern is compiled when it is first used: ``re.compile``
answers from its cache while ``yaml`` loads, where :class:`_OnFirstUse` stands for the pattern,
and the stand-in leaves the cache once ``yaml`` is loaded (a later ``re.compile`` of that text
compiles it as usual). The stand-in does what the compiled pattern does (``search``, ``match``,
…): it compiles the pattern on its first use and hands that pattern's method on.

Import ``yaml`` from here (``from cardgen.core.yamllib import yaml``) in a module that may be the
first to load it; if anything loaded ``yaml`` before, nothing changes (the pattern is already
compiled); if ``re`` keeps no such cache (another Python), ``yaml`` loads as usual.
"""

from __future__ import annotations

import re
import sys
from typing import Any

#: ``yaml.reader.Reader.NON_PRINTABLE``'s text, as PyYAML 5 and 6 write it
NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"


class _OnFirstUse:
    """A regular expression compiled when one of its methods is first asked for."""

    def __init__(self, pattern: str) -> None:
        self._pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern)
        return getattr(self._compiled, name)


# ``re.compile`` answers from its cache (``re._cache``, keyed by the pattern's type, text and flags)
_CACHE = getattr(re, "_cache", None)
_KEY = (str, NON_PRINTABLE, 0)
_STAND_IN = _OnFirstUse(NON_PRINTABLE)
_SEEDED = "yaml" not in sys.modules and isinstance(_CACHE, dict) and _KEY not in _CACHE
if _SEEDED:
    _CACHE[_KEY] = _STAND_IN    # type: ignore[index]

import yaml  # noqa: E402 - loaded with the stand-in in re's cache

if _SEEDED and _CACHE.get(_KEY) is _STAND_IN:     # type: ignore[union-attr]
    del _CACHE[_KEY]            # type: ignore[union-attr]

__all__ = ["NON_PRINTABLE", "yaml"]

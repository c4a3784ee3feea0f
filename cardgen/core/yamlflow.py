"""A list of one-line JSON-style mappings read without libyaml's events: a deck's fast path.

A generated deck often writes each card as one flow mapping on its own line, in JSON's own
style (``  - {"id": "1", "name": "Drake", "atk": 7}``). libyaml turns such a line into some
fifteen events, each a Python object with two marks; here a regular expression reads the whole
line instead. :func:`pre_read` finds the lines whose mapping is plainly such text — quoted keys,
each once, and values that are quoted strings without escapes, whole numbers, ``true``,
``false`` or ``null``, all of printable characters on that one line — and returns the file with
each of those mappings emptied (``{}`` in place of ``{…}``), the lines and the place of every
other character unchanged, plus each mapping's entries with their columns.
:func:`cardgen.core.yamlplain.read_plain` reads the emptied file and fills each emptied
mapping as it meets it; when it does not meet every one at its place (the line lies inside a
block of text, say), the file is read as written. Anything else — an escape, a tab, a number
with a fraction, a key written twice, a comment after the mapping, a line break other than
``\\n`` anywhere in the file — leaves the line (or the file) to libyaml, as before.

The values are those the YAML loader gives: the text of a double-quoted scalar without escapes
is its characters, and a plain ``-?(0|[1-9][0-9]*)``, ``true``, ``false`` and ``null`` resolve
to the integer, the flag and None (``tests/test_yamlflow.py`` compares both readings, positions
included).
"""

from __future__ import annotations

import re
from typing import Any

# a character of a quoted string here: printable as libyaml reads it, and not the quote, the
# backslash, the byte-order mark nor a line break (YAML's NEL, LS and PS besides \n); written as
# the characters it is not (a class of the wide ranges it is costs ~30 ms to compile)
_CH = "[^\"\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
# the same class for a text of ASCII characters only: four ranges where the wide class above has
# ten, walked for every character of a deck's lines (~5 % fewer instructions matching them)
_CH_ASCII = "[^\"\\\\\x00-\x1f\x7f]"


def _line(ch: str) -> re.Pattern[str]:
    """The pattern of a mapping's line whose quoted strings are of the characters ``ch``: each
    entry followed by a comma and the next entry's quote, or by the closing brace (the entry
    pattern written once: it compiles in half the time)."""
    value = f'"{ch}*"|-?(?:0|[1-9][0-9]{{0,17}})|true|false|null'
    pair = f'"{ch}{{0,200}}": +(?:{value})'
    return re.compile(f'^ *- +(\\{{ *(?:{pair} *(?:, *(?=")|(?=\\}})))* *\\}}) *$', re.MULTILINE)


# for an ASCII text without a backslash, DEL or a control other than the line break (each looked
# for by `in`, as `memchr` looks): a string's class is the quote alone, which `re` walks in a
# tight loop where a class of several is tested character by character (~2 % of a 5,400-card
# build); a string running on past its line's end is caught after the match and left to libyaml
_CH_PLAIN = '[^"]'
_NOT_PLAIN = ("\\", "\x7f", *(chr(c) for c in range(0x20) if c != 0x0A))

_LINE_PLAIN = _line(_CH_PLAIN)
_LINE_ASCII: re.Pattern[str] | None = None  # for an ASCII text with one of those: compiled when first needed
_LINE: re.Pattern[str] | None = None    # for any other text: likewise
_ENTRY = re.compile('"([^"]*)": +("([^"]*)"|(-?[0-9]+)|(true|false|null))')     # in a line _LINE read
_WORDS = {"true": True, "false": False, "null": None}
_OTHER_BREAKS = ("\r", "\x85", "\u2028", "\u2029")

Entries = list[tuple[str, int, Any, int]]      # (key, its column, value, its column), 0-based


def pre_read(text: str) -> tuple[str, dict[tuple[int, int], Entries]] | None:
    """The text with every plainly JSON-style one-line mapping of a list emptied, and by the
    (line, column) of each one's ``{`` (0-based, as libyaml's marks count) its entries; None
    when no line is such a mapping."""
    if "- {" not in text or any(b in text for b in _OTHER_BREAKS):
        return None
    global _LINE, _LINE_ASCII
    if not text.isascii():
        pattern = _LINE = _LINE or _line(_CH)
    elif any(c in text for c in _NOT_PLAIN):
        pattern = _LINE_ASCII = _LINE_ASCII or _line(_CH_ASCII)
    else:
        pattern = _LINE_PLAIN
    found: dict[tuple[int, int], Entries] = {}
    parts: list[str] = []
    done = 0                    # the text up to here is in parts
    line = 0
    counted = 0                 # line is the number of \n before this offset
    words = _WORDS
    for m in pattern.finditer(text):
        start, end = m.span(1)
        mapping = m.group(1)
        if pattern is _LINE_PLAIN and "\n" in mapping:    # a string past its line's end: libyaml's
            continue
        line += text.count("\n", counted, start)
        counted = start
        col = start - (text.rfind("\n", 0, start) + 1)
        entries: Entries = []
        keys = set()
        for e in _ENTRY.finditer(mapping):      # the line is checked: its entries, one by one
            key, _, s, n, w = e.groups()
            value = s if s is not None else int(n) if n is not None else words[w]
            entries.append((key, col + e.start(), value, col + e.start(2)))
            keys.add(key)
        if len(keys) < len(entries):            # a key written twice: libyaml's loader reports it
            continue
        found[(line, col)] = entries
        parts.append(text[done:start])
        parts.append("{}")
        done = end
    if not found:
        return None
    parts.append(text[done:])
    return "".join(parts), found

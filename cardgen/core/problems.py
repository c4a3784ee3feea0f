"""Problem records: every content or usage problem a run finds, reported all at once.

Text form (gcc/ruff style): ``FILE:LINE:COL: RULE-ID severity: message``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from typing import Any

from cardgen.core.lazymod import lazy
from cardgen.core.record import maker, record

difflib = lazy("difflib")      # "did you mean": only when a name is not found

SEVERITIES = ("error", "warning", "note")
# C0 and C1 controls, DEL and the Unicode line/paragraph separators: what could end a
# problem line early, forge another one or drive a terminal (ESC sequences). The controls as one
# class, the separators looked for as text: a class that holds both compiles in twenty times the
# time (~0.4 ms of every command's start-up: ``re`` builds a table of the wide range between them).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029"}     # each as unicode_escape writes it


def safe(text: str) -> str:
    """``text`` with every control character escaped (``\\x1b``, ``\\n``, ``\\x00``).

    Problem lines are built from keys, values and file names a hostile file chooses; once
    escaped, no input can start a new line of the report or send the terminal a sequence.
    """
    if not _CONTROL.search(text) and "\u2028" not in text and "\u2029" not in text:
        return text
    text = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    for sep, escaped in _SEPARATORS.items():
        text = text.replace(sep, escaped)
    return text


@record(frozen=True, order=True, slots=True)
class Loc:
    """A position in a source file; line and column are 1-based."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        return f"{safe(display_path(self.file))}:{self.line}:{self.col}"


#: ``Loc(...)`` made without the class's call, the same instance (:func:`cardgen.core.record.maker`):
#: the positions of a file's keys and values
make_loc = maker(Loc)


def display_path(path: str) -> str:
    """A path relative to the working directory when it lies below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


@record(frozen=True)
class Problem:
    """One problem: a rule ID, a severity, a message, where it is and how to fix it."""

    rule: str
    severity: str
    message: str
    loc: Loc | None = None
    hint: str | None = None

    def text(self) -> str:
        where = str(self.loc) if self.loc else "-:0:0"
        msg = self.message
        if self.hint:
            msg = f"{msg} ({self.hint})"
        return f"{where}: {safe(self.rule)} {self.severity}: {safe(msg)}"

    def as_dict(self, titles: Mapping[str, str] | None = None) -> dict:
        """The JSON form; ``titles`` (rule ID → title, from the catalogues) adds the rule's title."""
        d = {
            "rule": self.rule,
            "severity": self.severity,
            "file": display_path(self.loc.file) if self.loc else None,
            "line": self.loc.line if self.loc else 0,
            "column": self.loc.col if self.loc else 0,
            "message": self.message,
        }
        if self.hint:
            d["hint"] = self.hint
        if titles and self.rule in titles:
            d["title"] = titles[self.rule]
        return d


@record
class Problems:
    """A collector: code reports into it and goes on; the caller decides when to abort.

    The same problem reported twice is kept once; the check is a set look-up, so a log with a
    million violations is collected in linear time. Code that rewrites ``items`` in place calls
    :meth:`resync` afterwards.
    """

    items: list[Problem] = field(default_factory=list)
    _seen: set = field(default_factory=set, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.resync()

    def resync(self) -> None:
        """Rebuild the duplicate index after ``items`` was edited directly."""
        self._seen = set(self.items)

    def _keep(self, p: Problem) -> None:
        if p not in self._seen:
            self._seen.add(p)
            self.items.append(p)

    def add(self, rule: str, severity: str, message: str, loc: Loc | None = None,
            hint: str | None = None) -> None:
        assert severity in SEVERITIES, severity
        self._keep(Problem(rule, severity, message, loc, hint))

    def error(self, rule: str, message: str, loc: Loc | None = None, hint: str | None = None) -> None:
        self.add(rule, "error", message, loc, hint)

    def warning(self, rule: str, message: str, loc: Loc | None = None, hint: str | None = None) -> None:
        self.add(rule, "warning", message, loc, hint)

    def note(self, rule: str, message: str, loc: Loc | None = None, hint: str | None = None) -> None:
        self.add(rule, "note", message, loc, hint)

    def extend(self, other: Iterable[Problem]) -> None:
        for p in other:
            self._keep(p)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def has_errors(self) -> bool:
        return any(p.severity == "error" for p in self.items)

    def sorted(self) -> list[Problem]:
        def key(p: Problem) -> tuple[str, int, int, str, str]:
            loc = p.loc or Loc("")
            return (display_path(loc.file), loc.line, loc.col, p.rule, p.message)
        return sorted(self.items, key=key)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.items)


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A "did you mean …?" hint naming the nearest known choice, or None."""
    choices = [str(c) for c in choices]
    near = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    if not near:
        low = {c.lower(): c for c in choices}
        near = [low[str(word).lower()]] if str(word).lower() in low else []
    return f"did you mean '{near[0]}'?" if near else None


def nearest(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The known names nearest to ``word``, each once, best first (a log's names, a build's
    selection: :mod:`cardgen.play.lookup` hands it on)."""
    uniq = list(dict.fromkeys(str(c) for c in choices))
    near = difflib.get_close_matches(str(word), uniq, n=n, cutoff=0.6)
    if not near:
        low = str(word).lower()
        near = [c for c in uniq if c.lower() == low or (len(low) >= 3 and low in c.lower())][:n]
    return near


def hint_for(word: str, choices: Iterable[str]) -> str | None:
    """A "did you mean …?" hint naming the known names nearest to ``word`` (up to three), or None."""
    near = nearest(word, choices)
    if not near:
        return None
    return "did you mean " + " or ".join(f"'{c}'" for c in near) + "?"


def to_json(problems: Problems, titles: Mapping[str, str] | None = None, **extra: Any) -> str:
    doc: dict[str, Any] = {"problems": [p.as_dict(titles) for p in problems.sorted()]}
    doc.update(extra)
    return json.dumps(doc, indent=2, ensure_ascii=False)

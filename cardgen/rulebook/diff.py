"""What changed between two versions of a rulebook, word by word, section by section.

Both versions are compared as typeset (:mod:`cardgen.rulebook.plaintext`): what a player reads,
every game number filled in. Sections are matched by their heading path ("Playing a round ›
Recovery"); a section whose heading changed is matched by a similar title or mostly the same
passages under the same parent (reported as renamed), else it shows as removed and added. Within a section the passages are
aligned, each changed one compared word by word, and classified:

``rule``      its numbers changed (``8`` → ``6``): a rule change, whatever the wording did
``added``     a passage the old version did not have
``removed``   a passage the new version dropped
``reworded``  the same numbers in other words
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import field

from cardgen.core.record import record
from cardgen.rulebook.plaintext import Section

KINDS = ("rule", "added", "removed", "reworded")     # the order a section lists its edits in
PAIR_RATIO = 0.45            # passages at least this similar are one passage reworded
_WORD = re.compile(r"[\w′’'-]+|[^\w\s]")
#: a number as a rule states it: 8, 2.5, 50 %, a d6 die, the 3rd round — not a name such as "1v1".
#: Spelled-out numbers are words here: "the same two skaters" is not a count a rule sets.
_NUMBER = re.compile(r"^(?:\d+(?:[.,]\d+)?%?|d\d+|\d+(?:st|nd|rd|th))$")


@record
class Edit:
    """One changed passage of a section."""

    kind: str                                   # rule | added | removed | reworded
    old: str | None
    new: str | None
    words: list[tuple[str, str]] = field(default_factory=list)      # (op, text): "=", "-", "+"
    numbers: list[tuple[str, str]] = field(default_factory=list)    # (old, new) numbers that changed

    def as_dict(self) -> dict:
        return {"kind": self.kind, "old": self.old, "new": self.new,
                "words": [list(w) for w in self.words], "numbers": [list(n) for n in self.numbers]}


@record
class Change:
    """A section added, removed or changed."""

    kind: str                                   # added | removed | changed
    section: Section                            # the new version's section (the old one's when removed)
    edits: list[Edit] = field(default_factory=list)
    renamed_from: str | None = None             # the old title of a section whose heading changed

    @property
    def rule_change(self) -> bool:
        return any(e.kind == "rule" for e in self.edits)

    @property
    def detail(self) -> list[str]:
        """The changed passages as ``-old`` / ``+new`` lines."""
        out: list[str] = []
        for e in self.edits:
            if e.old is not None:
                out.append("-" + e.old)
            if e.new is not None:
                out.append("+" + e.new)
        return out

    def as_dict(self) -> dict:
        s = self.section
        return {"kind": self.kind, "section": s.title, "level": s.level,
                "anchor": s.anchor if self.kind != "removed" else None, "file": s.file, "line": s.line,
                "renamed_from": self.renamed_from, "rule_change": self.rule_change,
                "edits": [e.as_dict() for e in self.edits]}


def tokens(text: str) -> list[str]:
    """Words and punctuation, each with the space after it (joined, they give the text back)."""
    out: list[str] = []
    for m in re.finditer(r"(\S+)(\s*)", text):
        parts = _WORD.findall(m.group(1)) or [m.group(1)]
        out += parts[:-1] + [parts[-1] + m.group(2)]
    return out


def _numbers(toks: list[str]) -> list[str]:
    return [t.strip() for t in toks if _NUMBER.match(t.strip())]


def word_diff(old: str, new: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(words, numbers): the word-level diff as (op, text) runs, and the numbers that changed."""
    a, b = tokens(old), tokens(new)
    sm = difflib.SequenceMatcher(None, [t.strip() for t in a], [t.strip() for t in b], autojunk=False)
    words: list[tuple[str, str]] = []
    numbers: list[tuple[str, str]] = []

    def put(op: str, text: str) -> None:
        if not text:
            return
        if words and words[-1][0] == op:
            words[-1] = (op, words[-1][1] + text)
        else:
            words.append((op, text))

    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            put("=", "".join(b[j1:j2]))
            continue
        put("-", "".join(a[i1:i2]))
        put("+", "".join(b[j1:j2]))
        na, nb = _numbers(a[i1:i2]), _numbers(b[j1:j2])
        if na != nb:
            numbers.append((" ".join(na), " ".join(nb)))
    return words, numbers


def _same_numbers(old: str, new: str) -> bool:
    return Counter(_numbers(tokens(old))) == Counter(_numbers(tokens(new)))


def edit(old: str, new: str) -> Edit:
    """One passage reworded: a rule change when its numbers changed."""
    words, numbers = word_diff(old, new)
    if _same_numbers(old, new):
        numbers = []
    elif not numbers:            # the numbers moved and changed count at once: name them whole
        numbers = [(" ".join(_numbers(tokens(old))), " ".join(_numbers(tokens(new))))]
    return Edit("rule" if numbers else "reworded", old, new, words, numbers)


def _ratio(a: str, b: str) -> float:
    """How alike two passages are: the usual ratio, or how much of the shorter one the longer
    keeps (a rule that grew a sentence is still that rule)."""
    wa, wb = a.split(), b.split()
    sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    kept = sum(m.size for m in sm.get_matching_blocks())
    short = min(len(wa), len(wb))
    return max(sm.ratio(), kept / short - 0.15 if short >= 6 else 0.0)


def _pair(olds: list[str], news: list[str]) -> list[Edit]:
    """A block of passages replaced by another: similar ones paired in order, the rest added or removed."""
    out: list[Edit] = []
    j = 0
    for o in olds:
        best, at = 0.0, -1
        for k in range(j, len(news)):
            r = _ratio(o, news[k])
            if r > best:
                best, at = r, k
        if best >= PAIR_RATIO:
            out += [Edit("added", None, n, [("+", n)], []) for n in news[j:at]]
            out.append(edit(o, news[at]))
            j = at + 1
        else:
            out.append(Edit("removed", o, None, [("-", o)], []))
    out += [Edit("added", None, n, [("+", n)], []) for n in news[j:]]
    return out


def section_edits(old: Section, new: Section) -> list[Edit]:
    """The changed passages from one version of a section to the next, in reading order.

    A block of passages whose numbers, all together, are the same before and after holds no rule
    change: a passage split in two, or a number moved to the next sentence, is rewording."""
    a, b = old.lines, new.lines
    out: list[Edit] = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        block = _pair(a[i1:i2], b[j1:j2])
        if _same_numbers(" ".join(a[i1:i2]), " ".join(b[j1:j2])):
            for e in block:
                if e.kind == "rule":
                    e.kind, e.numbers = "reworded", []
        out += block
    return out


def _renamed(old: list[Section], new: list[Section]) -> dict[tuple[str, ...], Section]:
    """New section path → the old section it renames: same level and parent, a similar title
    or mostly the same passages."""
    out: dict[tuple[str, ...], Section] = {}
    taken: set[tuple[str, ...]] = set()
    for n in new:
        best, match = 0.0, None
        for o in old:
            if o.path in taken or o.level != n.level or o.path[:-1] != n.path[:-1]:
                continue
            title = difflib.SequenceMatcher(None, o.path[-1].lower(), n.path[-1].lower()).ratio()
            body = difflib.SequenceMatcher(None, o.lines, n.lines, autojunk=False).ratio() if o.lines else 0.0
            score = max(title, body)
            if score > best:
                best, match = score, o
        if match is not None and best >= 0.6:
            out[n.path] = match
            taken.add(match.path)
    return out


def diff(old: list[Section], new: list[Section]) -> list[Change]:
    """Sections added, removed and changed from ``old`` to ``new``, in the new reading order."""
    old_by = {s.path: s for s in old}
    new_by = {s.path: s for s in new}
    renamed = _renamed([s for s in old if s.path not in new_by], [s for s in new if s.path not in old_by])
    gone = {o.path for o in renamed.values()}
    out: list[Change] = []
    for s in new:
        o = old_by.get(s.path) or renamed.get(s.path)
        if o is None:
            out.append(Change("added", s, [Edit("added", None, t, [("+", t)]) for t in s.lines]))
        elif o.path != s.path:
            out.append(Change("changed", s, section_edits(o, s), renamed_from=o.title))
        elif o.lines != s.lines:
            out.append(Change("changed", s, section_edits(o, s)))
    for s in old:
        if s.path not in new_by and s.path not in gone:
            out.append(Change("removed", s, [Edit("removed", t, None, [("-", t)]) for t in s.lines]))
    return out


def counts(changes: list[Change]) -> dict[str, int]:
    """Sections added, changed and removed; passages by kind of edit."""
    out = {k: sum(1 for c in changes if c.kind == k) for k in ("added", "changed", "removed")}
    for k in KINDS:
        out[f"passages_{k}"] = sum(1 for c in changes if c.kind == "changed" for e in c.edits if e.kind == k)
    return out

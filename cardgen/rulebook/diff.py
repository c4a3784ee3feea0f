"""What changed between two versions of a rulebook, section by section.

A section is a heading (levels 1–3) and the text up to the next heading; it is known by its
path of heading titles ("Playing a Battle › Attacking"). Versions are compared after Jinja2,
so the comparison is of what a player reads. A renamed section shows as removed and added.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from cardgen.rulebook.markdown import Chapter, HeadingInfo

SEP = " › "


@dataclass
class Section:
    path: tuple[str, ...]
    level: int
    anchor: str
    lines: list[str] = field(default_factory=list)
    file: str = ""
    line: int = 0            # 1-based source line of the heading

    @property
    def title(self) -> str:
        return SEP.join(self.path)


@dataclass
class Change:
    kind: str                # added | removed | changed
    section: Section         # the new version's section (the old one's when removed)
    detail: list[str] = field(default_factory=list)     # unified diff lines (changed only)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "section": self.section.title, "level": self.section.level,
                "anchor": self.section.anchor if self.kind != "removed" else None,
                "file": self.section.file, "line": self.section.line, "detail": self.detail}


def _norm(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


def sections(chapters: list[Chapter], heads: list[HeadingInfo]) -> list[Section]:
    """Every section of a version, in reading order."""
    by_pos = {(h.chapter, h.line): h for h in heads if h.level <= 3}
    out: list[Section] = []
    stack: list[tuple[int, str]] = []
    seen: dict[tuple[str, ...], int] = {}
    for ch in chapters:
        lines = ch.rendered.out_lines()
        front_end = 0
        for node in ch.tree.children:
            if node.type == "front_matter" and node.map:
                front_end = node.map[1]
        cur: Section | None = None
        for i, text in enumerate(lines):
            if i < front_end:
                continue
            h = by_pos.get((ch.index, i))
            if h is not None:
                while stack and stack[-1][0] >= h.level:
                    stack.pop()
                stack.append((h.level, h.text))
                path = tuple(t for _, t in stack)
                n = seen.get(path, 0) + 1
                seen[path] = n
                if n > 1:
                    path = (*path[:-1], f"{path[-1]} ({n})")
                cur = Section(path, h.level, h.anchor, [], str(ch.path), ch.rendered.loc(i).line)
                out.append(cur)
                # a setext heading or attrs line is not content
                continue
            if cur is None:
                cur = Section((ch.path.name,), 1, "", [], str(ch.path), 1)
                out.append(cur)
            cur.lines.append(text)
    for sec in out:
        sec.lines = _units(sec.lines)
    return out


_BLOCK_START = re.compile(r"^\s*(\||[-*+]\s|\d+[.)]\s|:\s|>|:::|#)")


def _units(lines: list[str]) -> list[str]:
    """Lines → comparable units: a paragraph (however it is wrapped), a table row, a list item."""
    units: list[str] = []
    cur: list[str] = []
    for raw in lines:
        t = _norm(raw)
        if not t or re.fullmatch(r"\{[^}]*\}", t):          # blank line or an attribute line
            if cur:
                units.append(" ".join(cur))
                cur = []
            continue
        if _BLOCK_START.match(raw) or (cur and cur[0].startswith("|")):
            if cur:
                units.append(" ".join(cur))
            cur = [t]
        else:
            cur.append(t)
    if cur:
        units.append(" ".join(cur))
    return units


def diff(old: list[Section], new: list[Section]) -> list[Change]:
    """Sections added, removed and changed from ``old`` to ``new``, in reading order."""
    old_by = {s.path: s for s in old}
    new_by = {s.path: s for s in new}
    out: list[Change] = []
    for s in new:
        o = old_by.get(s.path)
        if o is None:
            out.append(Change("added", s))
        elif o.lines != s.lines:
            detail = list(difflib.unified_diff(o.lines, s.lines, lineterm="", n=0))[2:]
            detail = [d for d in detail if not d.startswith("@@")]
            out.append(Change("changed", s, detail))
    for s in old:
        if s.path not in new_by:
            out.append(Change("removed", s))
    return out


def format_text(changes: list[Change], a: str, b: str, detail: bool = False) -> str:
    """``cardgen rules diff`` text: one line per section, + added, - removed, ~ changed."""
    if not changes:
        return f"no changes from {a} to {b}\n"
    mark = {"added": "+", "removed": "-", "changed": "~"}
    lines = [f"changes from {a} to {b}:"]
    for c in changes:
        lines.append(f"{mark[c.kind]} {c.kind:<8} {c.section.title}")
        if detail and c.detail:
            lines += ["      " + d for d in c.detail]
    counts = {k: sum(1 for c in changes if c.kind == k) for k in ("added", "changed", "removed")}
    lines.append(f"{counts['added']} added, {counts['changed']} changed, {counts['removed']} removed")
    return "\n".join(lines) + "\n"


def changes_markdown(changes: list[Change], prev: str, this: str, summary: str | None) -> str:
    """The "Changes since v…" chapter, as Markdown for the same typesetting path."""
    out = [f"# Changes since {prev}", ""]
    out.append(f"What differs in {this} from {prev}, section by section. "
               "Sections are compared as a player reads them, with every game number filled in.")
    out.append("")
    if summary:
        out += [summary, ""]
    if not changes:
        out += ["Nothing changed in the text.", ""]
        return "\n".join(out)
    titles = {"added": "New sections", "changed": "Changed sections", "removed": "Removed sections"}
    for kind in ("added", "changed", "removed"):
        group = [c for c in changes if c.kind == kind]
        if not group:
            continue
        out += [f"## {titles[kind]}", ""]
        for c in group:
            title = _md_escape(c.section.title)
            if kind == "removed" or not c.section.anchor:
                out.append(f"- {title}")
            else:
                extra = ""
                if kind == "changed":
                    plus = sum(1 for d in c.detail if d.startswith("+"))
                    minus = sum(1 for d in c.detail if d.startswith("-"))
                    parts = [f"{plus} passage{'s' if plus != 1 else ''} new or reworded"] if plus else []
                    parts += [f"{minus} passage{'s' if minus != 1 else ''} removed"] if minus and not plus else []
                    extra = f" ({', '.join(parts)})" if parts else ""
                out.append(f"- [{title}](#{c.section.anchor}){extra}")
        out.append("")
    return "\n".join(out)


def _md_escape(s: str) -> str:
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", s)

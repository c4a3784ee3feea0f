"""Changes between rulebook versions as Markdown: the book's own "Changes since v…" page, and the
changelog draft ``cardgen rules diff --changelog FILE`` writes for the designer to edit.

The draft lists rule changes first (passages whose numbers changed, the old and new numbers
named), then new and removed sections and passages, then rewording — each under the section it
belongs to, as the player reads it.
"""

from __future__ import annotations

import re

from cardgen.rulebook.diff import Change, Edit, counts

GROUPS = (("rule", "Rule changes", "Passages whose numbers changed: a rule plays differently."),
          ("new", "New and removed", "Sections and passages added or dropped: check which are new rules."),
          ("reworded", "Rewording", "The same numbers in other words: usually clarifications."))


def md_escape(s: str) -> str:
    """Text safe in Markdown."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", s)


def _marked(e: Edit) -> str:
    """The passage as it now reads, removed words ~~struck~~ and added ones **bold** (punctuation
    stays outside the marks, where Markdown reads them: an added comma is shown, a removed one is not)."""
    out: list[str] = []
    for op, text in e.words:
        body, space = text.rstrip(), text[len(text.rstrip()):]
        if op == "=" or not body:
            out.append(md_escape(text))
            continue
        found = re.match(r"^[^\w(]*", body)
        lead = found.group(0) if found else ""
        body = body[len(lead):]
        if op == "+":
            out.append(md_escape(lead))
        if not body:
            out.append(space if op == "+" else "")
            continue
        if out and out[-1][-1:].isalnum():
            out.append(" ")
        out.append(f"~~{md_escape(body)}~~{space}" if op == "-" else f"**{md_escape(body)}**{space}")
    return re.sub(r"(~~|\*\*)(\S)", r"\1\2", re.sub(r" {2,}", " ", "".join(out))).strip()


def _group(e: Edit) -> str:
    return "rule" if e.kind == "rule" else "reworded" if e.kind == "reworded" else "new"


def draft(changes: list[Change], title: str, a: str, b: str, summary: str | None = None,
          command: str = "") -> str:
    """The changelog draft from version ``a`` to ``b``."""
    out = [f"# {md_escape(title)}: changes from {a} to {b}", ""]
    out += [f"<!-- A draft written by `{command or 'cardgen rules diff'}` from the typeset text of both "
            "versions. Edit it: merge, reword, drop what players need not know. -->", ""]
    if summary:
        out += [" ".join(summary.split()), ""]
    if not changes:
        return "\n".join(out + ["Nothing changed in the text.", ""])
    n = counts(changes)
    out += [f"{n['changed']} sections changed, {n['added']} added, {n['removed']} removed: "
            f"{n['passages_rule']} passages with changed numbers, {n['passages_added']} new, "
            f"{n['passages_removed']} removed, {n['passages_reworded']} reworded.", ""]
    for key, heading, note in GROUPS:
        block: list[str] = []
        if key == "new":
            for kind, word in (("added", "New section"), ("removed", "Removed section")):
                for c in changes:
                    if c.kind == kind:
                        block.append(f"- **{word}: {md_escape(c.section.title)}**"
                                     + (f" ({len(c.edits)} passages)" if c.edits else ""))
            for c in changes:
                if c.renamed_from:
                    block.append(f"- **Renamed section: {md_escape(c.renamed_from)} → {md_escape(c.section.title)}**")
            if block:
                block.append("")
        for c in changes:
            if c.kind != "changed":
                continue
            edits = [e for e in c.edits if _group(e) == key]
            if not edits:
                continue
            was = f" (was: {md_escape(c.renamed_from)})" if c.renamed_from else ""
            block += [f"### {md_escape(c.section.title)}{was}", ""]
            for e in edits:
                block += _item(e)
            block.append("")
        if block:
            out += [f"## {heading}", "", f"*{note}*", "", *block]
    return "\n".join(out).rstrip() + "\n"


def _item(e: Edit) -> list[str]:
    if e.kind == "added":
        return [f"- New: {md_escape(e.new or '')}"]
    if e.kind == "removed":
        return [f"- Removed: {md_escape(e.old or '')}"]
    lead = ""
    if e.numbers:
        lead = "**" + ", ".join(f"{a or '—'} → {b or '—'}" for a, b in e.numbers) + "**: "
    return [f"- {lead}{_marked(e)}"]


def changes_markdown(changes: list[Change], prev: str, this: str, summary: str | None) -> str:
    """The "Changes since v…" chapter, as Markdown for the book's own typesetting path."""
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
            title = md_escape(c.section.title)
            if kind == "removed" or not c.section.anchor:
                out.append(f"- {title}")
                continue
            extra = ""
            if kind == "changed":
                parts = []
                rules = sum(1 for e in c.edits if e.kind == "rule")
                other = len(c.edits) - rules
                if rules:
                    parts.append(f"{rules} passage{'s' if rules != 1 else ''} with new numbers")
                if other:
                    parts.append(f"{other} passage{'s' if other != 1 else ''} new, reworded or removed")
                extra = f" ({', '.join(parts)})" if parts else ""
            if c.renamed_from:
                extra += f" (was {md_escape(c.renamed_from.split(' › ')[-1])})"
            out.append(f"- [{title}](#{c.section.anchor}){extra}")
        out.append("")
    return "\n".join(out)

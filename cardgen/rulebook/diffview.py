"""``cardgen rules diff`` in a terminal: sections, then each changed passage word by word.

In colour (a terminal): removed words red and struck through, added words green, rule changes
marked ``RULE`` in bold. Plain (a pipe or a file): ``[-removed-]`` and ``{+added+}``, as
``git diff --word-diff=plain`` writes them. Long unchanged stretches of a passage are cut to a
few words either side of a change.
"""

from __future__ import annotations

from cardgen.rulebook.diff import KINDS, Change, Edit, counts
from cardgen.rulebook.plaintext import SEP

MARK = {"added": "+", "removed": "-", "changed": "~"}
LABEL = {"rule": "RULE", "added": "new", "removed": "gone", "reworded": "reword"}
CONTEXT = 8                  # words kept either side of a change in a long unchanged stretch

RED, GREEN, BOLD, STRIKE, RESET = "\x1b[31m", "\x1b[32m", "\x1b[1m", "\x1b[9m", "\x1b[0m"


def _trim(text: str, before: bool, after: bool) -> str:
    """An unchanged stretch cut to CONTEXT words next to the change(s) before and/or after it."""
    words = text.split(" ")
    if len(words) <= 2 * CONTEXT + 1:
        return text
    if before and after:
        return " ".join(words[:CONTEXT]) + " … " + " ".join(words[-CONTEXT:])
    if after:                       # the passage's opening: keep its end (and a picture's [caption])
        lead = text[:text.index("]") + 1] + " " if text.startswith("[") and "]" in text[:80] else ""
        return lead + "… " + " ".join(words[-CONTEXT:])
    return " ".join(words[:CONTEXT]) + " …"


def words(e: Edit, color: bool) -> str:
    """A changed passage, its removed and added words marked."""
    out: list[str] = []
    runs = e.words
    for i, (op, text) in enumerate(runs):
        if op == "=":
            if len(runs) > 1:
                text = _trim(text, before=i > 0, after=i < len(runs) - 1)
            out.append(text)
        elif e.kind in ("added", "removed"):
            out.append(text)
        else:
            body, space = text.rstrip(), text[len(text.rstrip()):]
            if out and out[-1][-1:].isalnum() and body[:1].isalnum():
                out.append(" ")         # a word removed or added after a word that kept no space
            if op == "-":
                out.append(f"{RED}{STRIKE}{body}{RESET}{space}" if color else f"[-{body}-]{space}")
            else:
                out.append(f"{GREEN}{body}{RESET}{space}" if color else f"{{+{body}+}}{space}")
    return "".join(out).strip()


def _edit_line(e: Edit, color: bool) -> str:
    label = f"{LABEL[e.kind]:<6}"
    if color:
        label = {"rule": f"{BOLD}{RED}{label}{RESET}", "added": f"{GREEN}{label}{RESET}",
                 "removed": f"{RED}{label}{RESET}"}.get(e.kind, label)
    line = f"    {label} {words(e, color)}"
    if e.numbers:
        nums = ", ".join(f"{a or '—'} → {b or '—'}" for a, b in e.numbers)
        line += f"   {BOLD}({nums}){RESET}" if color else f"   ({nums})"
    return line


def format_text(changes: list[Change], a: str, b: str, detail: bool = True, color: bool = False) -> str:
    """The report: one line per section (``+`` added, ``-`` removed, ``~`` changed, ``!`` when a
    number changed), then — with ``detail`` — its changed passages, rule changes first."""
    if not changes:
        return f"no changes from {a} to {b}\n"
    lines = [f"changes from {a} to {b}:"]
    for c in changes:
        mark = MARK[c.kind]
        head = f"{mark} {c.kind:<8} {c.section.title}"
        if c.renamed_from:
            head += f"   (renamed from “{c.renamed_from.split(SEP)[-1]}”)"
        if c.rule_change:
            head += "   ! numbers changed"
        if color:
            tint = {"added": GREEN, "removed": RED}.get(c.kind, "")
            head = f"{BOLD}{tint}{head}{RESET}"
        lines.append(head)
        if detail and c.kind == "changed":
            for kind in KINDS:
                lines += [_edit_line(e, color) for e in c.edits if e.kind == kind]
        elif detail and c.edits:
            n = len(c.edits)
            lines.append(f"    {n} passage{'s' if n != 1 else ''}")
    tally = counts(changes)
    lines.append(f"{tally['added']} added, {tally['changed']} changed, {tally['removed']} removed; "
                 f"passages: {tally['passages_rule']} with changed numbers, {tally['passages_added']} new, "
                 f"{tally['passages_removed']} gone, {tally['passages_reworded']} reworded")
    return "\n".join(lines) + "\n"

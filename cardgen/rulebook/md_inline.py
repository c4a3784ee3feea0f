"""Inline Markdown in a rulebook: text runs, icons, links and the checks on text (a mixin of
:class:`cardgen.rulebook.markdown.Converter`)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from markdown_it.tree import SyntaxTreeNode

from cardgen.boards.inlineicons import by_glyph, drawable, markup
from cardgen.content.model import Icon
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import unmojibake
from cardgen.rulebook.typeset import Styles

if TYPE_CHECKING:       # the Converter's own chapter type: markdown.py builds on this mixin
    from cardgen.rulebook.markdown import Chapter

_ICON = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")


def plain_text(node: SyntaxTreeNode) -> str:
    """The text of an inline node (or of a block's inline children), without markup."""
    if node.type in ("text", "code_inline"):
        return node.content
    if node.type in ("softbreak", "hardbreak"):
        return " "
    return "".join(plain_text(c) for c in node.children)


def _ancestors(node: SyntaxTreeNode) -> Iterator[SyntaxTreeNode]:
    p = node.parent
    while p is not None and not p.is_root:
        yield p
        p = p.parent


class InlineMixin:
    """Inline text: a Converter's methods."""

    # set by the Converter
    st: Styles
    problems: Problems
    icons: dict[str, Icon]
    anchors: set[str]
    body_chars: frozenset[int]
    ch: Chapter

    def inline(self, node: SyntaxTreeNode) -> str:
        return self.inline_nodes(node.children, node)

    def inline_nodes(self, nodes: Sequence[SyntaxTreeNode], where: SyntaxTreeNode) -> str:
        out: list[str] = []
        accent = self.st.accent
        for ch in nodes:
            t = ch.type
            if t == "text":
                out.append(self.text(ch.content, where))
            elif t == "softbreak":
                out.append(" ")
            elif t == "hardbreak":
                out.append("<br/>")
            elif t == "strong":
                out.append("<b>" + self.inline_nodes(ch.children, where) + "</b>")
            elif t == "em":
                out.append("<i>" + self.inline_nodes(ch.children, where) + "</i>")
            elif t == "s":
                out.append("<strike>" + self.inline_nodes(ch.children, where) + "</strike>")
            elif t == "code_inline":
                out.append(f'<font name="{self.st.sans}">{self.text(ch.content, where, icons=False)}</font>')
            elif t == "link":
                href = str(ch.attrs.get("href", ""))
                inner = self.inline_nodes(ch.children, where)
                if href.startswith("#"):
                    name = href[1:]
                    if name not in self.anchors:
                        self.problems.error("RULEBOOK-LINK", f"link to '#{name}': no heading has that anchor",
                                            self._loc_of_text(where, href) or self.ch.loc(where),
                                            hint=did_you_mean(name, self.anchors))
                        out.append(inner)
                    else:
                        out.append(f'<a href="#{escape(name)}" color="{accent}">{inner}</a>')
                else:
                    out.append(f'<a href="{escape(href)}" color="{accent}"><u>{inner}</u></a>')
            elif t == "footnote_ref":
                n = int(ch.meta.get("id", 0)) + 1
                out.append(f'<super><a href="#fn-{self.ch.index}-{n}" color="{accent}">{n}</a></super>')
            elif t == "image":
                out.append(self.text(plain_text(ch), where))
            else:
                out.append(self.text(plain_text(ch), where))
        return "".join(out)

    def text(self, s: str, where: SyntaxTreeNode, icons: bool = True) -> str:
        """Plain text → Paragraph markup: escaped, {icon}s drawn, glyphs and mojibake checked."""
        self._check_text(s, where)
        esc = escape(s)
        if icons and not esc.isascii():       # an icon's glyph that reached the text (a diff's words): drawn
            glyphs = by_glyph(self.icons)
            if any(c in glyphs for c in esc):
                esc = "".join(markup(glyphs[c]) if c in glyphs else c for c in esc)
        if not icons or "{" not in esc:
            return esc

        def icon(m: re.Match[str]) -> str:
            ic = self.icons.get(m.group(1))
            if ic is None:
                return m.group(0)
            if drawable(ic):
                return markup(ic)
            color = f' color="{ic.color}"' if ic.color else ""
            return f'<font name="{self.st.sans}"{color}>{escape(ic.glyph)}</font>'

        return _ICON.sub(icon, esc)

    def _check_text(self, s: str, where: SyntaxTreeNode) -> None:
        for tag in ("{{", "{%"):
            if tag in s:        # a card's or a ruling's own template text, printed without `| expand`
                self.problems.error("RULEBOOK-JINJA", f"unexpanded Jinja2 in the text: "
                                    f"'{s[s.index(tag):][:40]}'",
                                    self._loc_of_text(where, tag) or self.ch.loc(where),
                                    hint="pass card and ruling texts through the expand filter: "
                                         "{{ c.text | expand }}")
                break
        if s.isascii():
            return
        missing = "".join(sorted({c for c in s if ord(c) not in self.body_chars and c not in "\n\t"}))
        if missing:
            self.problems.error("TEXT-GLYPH", f"the rulebook font cannot draw {missing!r}",
                                self._loc_of_text(where, s) or self.ch.loc(where))
        for word in s.split():
            fixed = unmojibake(word)
            if fixed is not None:
                self.problems.error("RULEBOOK-TEXT", f"text '{word}' looks mis-decoded (mojibake)",
                                    self._loc_of_text(where, word) or self.ch.loc(where),
                                    hint=f"did you mean '{fixed}'?")
                break

    def _loc_of_text(self, node: SyntaxTreeNode, needle: str) -> Loc | None:
        """The line of ``needle`` inside the block that holds ``node``."""
        block: SyntaxTreeNode | None = node
        while block is not None and not block.is_root and not block.map:
            block = block.parent
        if block is None or block.is_root or not block.map:
            return None
        lines = self.ch.rendered.out_lines()
        probe = needle.strip().split("\n")[0][:40]
        for i in range(block.map[0], min(block.map[1], len(lines))):
            col = lines[i].find(probe)
            if probe and col >= 0:
                return self.ch.loc(i, col + 1)
        return None

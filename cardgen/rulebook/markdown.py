"""Markdown → platypus flowables, through markdown-it-py's syntax tree (never regular expressions
over the whole text).

Supported: headings (``{id=… rule="LB-ATK-3"}`` on the line before a heading sets its anchor and
catalogue rule IDs), paragraphs, emphasis, links (``#anchor`` links are internal), bullet and
numbered lists, tables (GFM), footnotes, definition lists (a glossary), block quotes,
callout boxes (``::: example Title`` … ``:::``; also ``note``, ``tip``, ``variant``,
``designer``), images — a file next to the chapter, or ``card:<id>`` for a real card drawn by
the card pipeline (images alone in a paragraph stand side by side) — rules (``---``), code, and
YAML front matter (chapter options). ``{icon}`` draws one of the game's icons, as on cards.

Every problem carries the chapter's source FILE:LINE (through the Jinja2 line map).
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from mdit_py_plugins.attrs import attrs_block_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    HRFlowable,
    Indenter,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    Preformatted,
    Spacer,
)

from cardgen.core.fonts import charset
from cardgen.core.options import Opt, check_mapping
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import parse_yaml
from cardgen.rulebook.annotate import AnnotatedCard
from cardgen.rulebook.flowables import MM, CardPicture, Heading, callout, card_rows
from cardgen.rulebook.jinja import Rendered
from cardgen.rulebook.md_images import ImageResolver
from cardgen.rulebook.md_inline import InlineMixin, _ancestors, plain_text
from cardgen.rulebook.md_tables import TablesMixin

CALLOUTS = {"example": "Example", "note": "Note", "tip": "Tip", "variant": "Variant",
            "designer": "Designer's note"}
FRONT_SPEC = {
    "new_page": Opt("bool", default=True, doc="start the chapter on a new page"),
    "toc": Opt("bool", default=True, doc="list the chapter's headings in the table of contents"),
}


def make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(front_matter_plugin).use(footnote_plugin).use(deflist_plugin).use(attrs_block_plugin)
    for name in CALLOUTS:
        md.use(container_plugin, name)
    return md


_PARSER = make_parser()


@record
class Chapter:
    """One chapter: rendered text, syntax tree, and chapter options from its front matter."""

    rendered: Rendered
    tree: SyntaxTreeNode
    options: dict[str, Any] = field(default_factory=dict)
    index: int = 0

    @property
    def path(self) -> Path:
        return self.rendered.path

    def loc(self, node_or_line: Any, col: int = 1) -> Loc:
        line = node_or_line if isinstance(node_or_line, int) else _first_line(node_or_line)
        return self.rendered.loc(line, col)


def _first_line(node: SyntaxTreeNode | None) -> int:
    while node is not None:
        if not node.is_root and node.map:
            return node.map[0]
        node = node.parent
    return 0


def parse(rendered: Rendered, problems: Problems, index: int = 0) -> Chapter:
    tree = SyntaxTreeNode(_PARSER.parse(rendered.text))
    ch = Chapter(rendered, tree, index=index)
    opts = {k: o.default for k, o in FRONT_SPEC.items()}
    for node in tree.children:
        if node.type == "front_matter":
            # the YAML starts on the line after the opening '---'
            offset = ch.loc(node).line
            local = Problems()
            data = parse_yaml(node.content, str(rendered.path), local)
            for p in local:
                loc = Loc(p.loc.file, p.loc.line + offset, p.loc.col) if p.loc else ch.loc(node)
                problems.add(p.rule, p.severity, p.message, loc, p.hint)
            if isinstance(data, dict):
                fm = Problems()
                res = check_mapping(data, FRONT_SPEC, fm, "chapter front matter")
                for p in fm:
                    loc = Loc(p.loc.file, p.loc.line + offset, p.loc.col) if p.loc and p.loc.line else ch.loc(node)
                    problems.add(p.rule, p.severity, p.message, loc, p.hint)
                opts.update({k: v for k, v in res.values.items() if v is not None})
            elif data is not None:
                problems.error("RULEBOOK-META", "front matter must be a mapping of chapter options", ch.loc(node))
    ch.options = opts
    return ch




def slugify(text: str) -> str:
    s = re.sub(r"[^\w\s-]", "", text.lower(), flags=re.UNICODE)
    s = re.sub(r"[\s_-]+", "-", s).strip("-")
    return s or "section"


@record
class HeadingInfo:
    chapter: int
    line: int          # 0-based output line
    level: int
    text: str
    anchor: str
    rules: list[str]
    node: SyntaxTreeNode


def headings(chapters: list[Chapter]) -> list[HeadingInfo]:
    """Every heading of a version in order, each with a unique anchor."""
    out: list[HeadingInfo] = []
    used: set[str] = set()
    for ch in chapters:
        for node in ch.tree.walk():
            if node.type != "heading" or _inside_box(node):
                continue
            text = plain_text(node).strip()
            explicit = node.attrs.get("id")
            base = str(explicit) if explicit else slugify(text)
            anchor, n = base, 2
            while anchor in used:
                anchor, n = f"{base}-{n}", n + 1
            used.add(anchor)
            rules = str(node.attrs.get("rule", "")).split()
            out.append(HeadingInfo(ch.index, node.map[0] if node.map else 0, int(node.tag[1]), text, anchor,
                                   rules, node))
    return out


def _inside_box(node: SyntaxTreeNode) -> bool:
    p = node.parent
    while p is not None and not p.is_root:
        if p.type.startswith("container_") or p.type in ("blockquote", "list_item", "dd", "table"):
            return True
        p = p.parent
    return False


#: an image's title: ``scale=0.5``, ``thumbnail`` or both (``"scale=0.45 thumbnail"``); ``annotated``
_PICTURE_OPTIONS = re.compile(r"^\s*(?:scale\s*=\s*([0-9.]+))?\s*(thumbnail|annotated)?\s*$")


class Converter(TablesMixin, InlineMixin):
    """Syntax trees of one version's chapters → flowables. ``show_rules``: headings print their
    catalogue rule IDs (the designer's edition); players' books keep them only as link targets."""

    show_rules = True

    def __init__(self, styles, problems: Problems, icons: dict, images: ImageResolver,
                 heads: list[HeadingInfo], text_width: float):
        self.st = styles
        self.problems = problems
        self.icons = icons
        self.images = images
        self.text_width = text_width
        self.heads = {(h.chapter, h.line): h for h in heads}
        self.anchors = {h.anchor for h in heads} | {r for h in heads for r in h.rules}
        self.body_chars = charset(styles.serif)

    # --- blocks -------------------------------------------------------------------------------
    def chapter(self, ch: Chapter) -> list[Flowable]:
        self.ch = ch
        out: list[Flowable] = []
        notes: list[Flowable] = []
        first = True
        for node in ch.tree.children:
            if node.type == "front_matter":
                continue
            if node.type == "footnote_block":
                notes = self.footnotes(node)
                continue
            if node.type == "heading" and node.tag == "h1" and not first:
                out.append(PageBreak())
            out += self.block(node, box=False, tight=False)
            first = False
        if notes:
            out += [Spacer(1, 8), HRFlowable(width="30%", thickness=0.5, color=HexColor("#9a948a"),
                                             hAlign="LEFT", spaceAfter=4)] + notes
        return out

    def blocks(self, nodes, box: bool, tight: bool = False) -> list[Flowable]:
        out: list[Flowable] = []
        for n in nodes:
            out += self.block(n, box, tight)
        return out

    def block(self, node: SyntaxTreeNode, box: bool, tight: bool) -> list[Flowable]:
        t = node.type
        st = self.st
        if t == "heading":
            return self.heading(node, box)
        if t == "paragraph":
            return self.paragraph(node, st.tight if tight else st.body)
        if t in ("bullet_list", "ordered_list"):
            return [self.list_block(node, box)]
        if t == "table":
            return self.table(node)
        if t == "dl":
            return self.deflist(node, box)
        if t == "blockquote":
            rows = [[f] for f in self.blocks(node.children, True)]
            return [callout(rows, st.rule_color, st.quote_fill), Spacer(1, 6)]
        if t.startswith("container_"):
            return self.box(node)
        if t == "hr":
            return [HRFlowable(width="100%", thickness=0.6, color=HexColor(st.rule_color), spaceBefore=4,
                               spaceAfter=8)]
        if t in ("fence", "code_block"):
            return [callout([[Preformatted(node.content.rstrip("\n"), st.code)]], st.rule_color, st.note_fill),
                    Spacer(1, 6)]
        if t == "html_block":
            return [Paragraph(escape(node.content), st.body)]
        if t == "footnote_block":
            return self.footnotes(node)
        self.problems.warning("RULEBOOK-MARKDOWN", f"'{t}' blocks are not typeset", self.ch.loc(node))
        return []

    def heading(self, node: SyntaxTreeNode, box: bool) -> list[Flowable]:
        level = int(node.tag[1])
        markup = self.inline(node.children[0]) if node.children else ""
        if box or _inside_box(node):
            return [Paragraph(markup, self.st.box_heading)]
        info = self.heads.get((self.ch.index, node.map[0] if node.map else 0))
        style = self.st.heading[min(level, len(self.st.heading)) - 1]
        tag = ""
        if info and info.rules and self.show_rules:
            tag = f' <font name="{self.st.sans}" size="{max(6, style.fontSize * 0.42):.1f}" color="#8a857c">' \
                  f'{escape(" · ".join(info.rules))}</font>'
        anchor = info.anchor if info else slugify(plain_text(node))
        h = Heading(markup + tag, style, level - 1, anchor, info.text if info else plain_text(node),
                    toc=level <= 2 and self.ch.options.get("toc", True), outline=level <= 3,
                    chapter=level == 1, aliases=list(info.rules) if info else [])
        out: list[Flowable] = []
        if level == 2:
            out.append(CondPageBreak(self.st.keep_h2))
        out.append(h)
        return out

    def paragraph(self, node: SyntaxTreeNode, style: ParagraphStyle) -> list[Flowable]:
        inline = node.children[0] if node.children else None
        if inline is None:
            return []
        if self._looks_like_table(node):
            return [Paragraph(self.inline(inline), style)]
        images = [c for c in inline.children if c.type == "image"]
        rest = [c for c in inline.children if c.type != "image"]
        out: list[Flowable] = []
        if any(plain_text(c).strip() for c in rest) or any(c.type == "footnote_ref" for c in rest):
            if "".join(plain_text(c) for c in rest).rstrip().endswith(":") and not images:
                # a lead-in ("…, for a few attacks:") stays on the page of what it introduces
                style = ParagraphStyle(f"{style.name}-lead", parent=style, keepWithNext=1)
            out.append(Paragraph(self.inline_nodes(rest, node), style))
        if images:
            out += self.pictures(images, node)
        return out

    def pictures(self, images: list[SyntaxTreeNode], node: SyntaxTreeNode) -> list[Flowable]:
        loc = self.ch.loc(node)
        out: list[Flowable] = []
        cards: list[CardPicture] = []
        scale = None
        for img in images:
            src = str(img.attrs.get("src", ""))
            alt = plain_text(img).strip()
            title = str(img.attrs.get("title") or "")
            m = _PICTURE_OPTIONS.match(title)
            if m:
                scale = float(m.group(1)) if m.group(1) else scale
            elif title:
                alt = alt or title
            line_loc = self._loc_of_text(node, src) or loc
            got = self.images.resolve(src, alt, self.ch.path.parent, line_loc, self.problems, self.text_width)
            if isinstance(got, CardPicture) and m and m.group(2) == "annotated":
                got.caption = self.text(alt, node) if alt else ""
                if cards:
                    out += self._card_rows(cards, scale)
                    cards = []
                out.append(AnnotatedCard(got, self.st.caption, self.st.sans_bold))
            elif isinstance(got, CardPicture):
                got.caption = self.text(alt, node) if alt else ""
                got.thumbnail = got.thumbnail or (m is not None and m.group(2) == "thumbnail")
                self._check_legible(got, alt or src, line_loc)
                cards.append(got)
            elif got is not None:
                if cards:
                    out += self._card_rows(cards, scale)
                    cards = []
                out.append(got)
                if alt:
                    out.append(Paragraph(self.text(alt, node), self.st.caption))
        if cards:
            out += self._card_rows(cards, scale)
        if out:
            out.append(Spacer(1, 6))
        return out

    def _card_rows(self, cards: list[CardPicture], scale: float | None) -> list[Flowable]:
        # the lines are found in a column a box's padding narrower, so that they fit in a box too
        return list(card_rows(cards, self.st.caption, scale or self.st.card_scale,
                              self.text_width / MM - 7))

    def _check_legible(self, card: CardPicture, what: str, loc: Loc) -> None:
        """TEXT-SMALL when the column is too narrow to show the card with its text at the floor."""
        need = card.legible_scale()
        column = self.text_width / MM           # mm (text_width is in points)
        if need and card.w * need > column + 1e-6:
            self.problems.warning(
                "TEXT-SMALL", f"the card pictured as '{what}' cannot be shown legibly: its {card.min_text:g} pt text "
                f"needs it {card.w * need:.0f} mm wide, the column is {column:.0f} mm; it prints at "
                f"{(card.min_text or 0.0) * column / card.w:.1f} pt", loc,
                hint="picture it as a thumbnail (title \"thumbnail\": its small print drawn as lines)")

    def list_block(self, node: SyntaxTreeNode, box: bool) -> Flowable:
        st = self.st
        ordered = node.type == "ordered_list"
        tight = all(getattr(p, "hidden", False) for li in node.children for p in li.children
                    if p.type == "paragraph")
        depth = sum(1 for p in _ancestors(node) if p.type in ("bullet_list", "ordered_list"))
        items = []
        for li in node.children:
            flows = self.blocks(li.children, box, tight=tight)
            items.append(ListItem(flows or [Paragraph("", st.body)]))
        kw: dict[str, Any] = dict(leftIndent=st.list_indent, bulletFontName=st.sans if not ordered else st.sans_bold,
                                  bulletFontSize=st.body.fontSize * (0.85 if not ordered else 0.95),
                                  bulletColor=HexColor(st.accent),
                                  spaceAfter=0 if box or depth else st.body.spaceAfter,
                                  bulletDedent="auto")
        if ordered:
            start = node.attrs.get("start", 1)
            return ListFlowable(items, bulletType="1", start=str(start), bulletFormat="%s.", **kw)
        return ListFlowable(items, bulletType="bullet", start="•" if depth == 0 else "–", **kw)

    def deflist(self, node: SyntaxTreeNode, box: bool) -> list[Flowable]:
        out: list[Flowable] = []
        for child in node.children:
            if child.type == "dt":
                p = Paragraph(self.inline(child.children[0]) if child.children else "", self.st.term)
                out.append(p)
            elif child.type == "dd":
                # the term stays with its definition's first block (keepWithNext would only
                # keep it with the zero-height Indenter)
                blocks = self.blocks(child.children, box, tight=True)
                if box:         # inside a callout's table cell: no page breaks to steer
                    out += [Indenter(left=self.st.list_indent), *blocks]
                else:
                    term = [out.pop()] if out and isinstance(out[-1], Paragraph) else []
                    out.append(KeepTogether([*term, Indenter(left=self.st.list_indent), *blocks[:1]]))
                    out += blocks[1:]
                out += [Indenter(left=-self.st.list_indent), Spacer(1, 3)]
        return out

    def box(self, node: SyntaxTreeNode) -> list[Flowable]:
        kind = node.type[len("container_"):]
        info = (node.info or "").strip()
        title = info[len(kind):].strip() if info.startswith(kind) else ""
        label = CALLOUTS.get(kind, kind.title())
        head = f'<font name="{self.st.sans_bold}" color="{self.st.accent}">{escape(label.upper())}</font>'
        if title:
            head += f'<font name="{self.st.sans_bold}">  {self.text(title, node)}</font>'
        rows: list[list] = [[Paragraph(head, self.st.box_title)]]
        rows += [[f] for f in self.blocks(node.children, True)]
        fill = self.st.example_fill if kind == "example" else self.st.note_fill
        return [Spacer(1, 2), callout(rows, self.st.accent, fill), Spacer(1, 8)]

    def footnotes(self, node: SyntaxTreeNode) -> list[Flowable]:
        out: list[Flowable] = []
        for fn in node.children:
            n = int(fn.meta.get("id", 0)) + 1
            key = f"fn-{self.ch.index}-{n}"
            paras = [c for c in fn.children if c.type == "paragraph"]
            text = " ".join(self.inline(p.children[0]) for p in paras if p.children)
            out.append(Paragraph(f'<a name="{key}"/><super>{n}</super> {text}', self.st.footnote))
        return out

    # --- tables -------------------------------------------------------------------------------

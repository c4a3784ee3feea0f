"""Markdown tables in a rulebook: recognising them, column widths, and the table flowable
(a mixin of :class:`cardgen.rulebook.markdown.Converter`)."""

from __future__ import annotations

import re

from markdown_it.tree import SyntaxTreeNode
from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Spacer,
    Table,
)

from cardgen.boards.inlineicons import drawable
from cardgen.boards.inlineicons import markup as icon_markup
from cardgen.rulebook.flowables import FullWidth, GroupedTable
from cardgen.rulebook.md_inline import InlineMixin, plain_text
from cardgen.rulebook.typeset import Styles

_LONE_ICON = re.compile(r"^\s*\{([a-z0-9_]+)\}\s*$")
LONE_SCALE = 1.9          # a table cell holding one icon alone draws it this many times the text's size


class TablesMixin(InlineMixin):
    """Tables: a Converter's methods (their cells are inline text)."""

    def _looks_like_table(self, node: SyntaxTreeNode) -> bool:
        """A paragraph made of '|' lines: a table the parser could not read. Reported."""
        if not node.map:
            return False
        lines = self.ch.rendered.out_lines()[node.map[0]:node.map[1]]
        if len(lines) < 2 or not all(ln.strip().startswith("|") for ln in lines):
            return False
        head, delim = split_row(lines[0]), split_row(lines[1])
        is_delim = all(re.fullmatch(r"\s*:?-+:?\s*", c) for c in delim) and delim
        if not is_delim:
            why = "its second line must be the delimiter row, e.g. | --- | --- |"
            loc = self.ch.loc(node.map[0] + 1)
        else:
            why = (f"the header row has {len(head)} cell(s) but the delimiter row has {len(delim)}; "
                   "they must match")
            loc = self.ch.loc(node.map[0] + 1)
        self.problems.error("RULEBOOK-TABLE", f"broken table: {why}", loc)
        return True

    def _check_rows(self, body_rows: list[SyntaxTreeNode], ncols: int) -> None:
        """RULEBOOK-TABLE: a body row with more or fewer cells than the header."""
        out_lines = self.ch.rendered.out_lines()
        for tr in body_rows:
            if not tr.map:
                continue
            n = len(split_row(out_lines[tr.map[0]]))
            if n != ncols:
                what = "the extra cells would be lost" if n > ncols else "the missing cells would be blank"
                self.problems.error("RULEBOOK-TABLE", f"broken table: this row has {n} cell(s), the header "
                                    f"has {ncols}; {what}", self.ch.loc(tr.map[0]))

    def _cell(self, cell: SyntaxTreeNode, markup: str, style: ParagraphStyle, base: ParagraphStyle,
              body: bool) -> Paragraph:
        """A cell's paragraph; a body cell that is one icon (a glossary's) is drawn large."""
        lone = _LONE_ICON.match(plain_text(cell))
        ic = self.icons.get(lone.group(1)) if lone and body else None
        if ic is not None and drawable(ic):
            markup = icon_markup(ic)
            style = ParagraphStyle(f"{style.name}-icon", parent=style, fontSize=base.fontSize * LONE_SCALE,
                                   leading=base.fontSize * LONE_SCALE * 1.1)
        return Paragraph(markup, style)

    def table(self, node: SyntaxTreeNode) -> list[Flowable]:
        st = self.st
        thead = next((c for c in node.children if c.type == "thead"), None)
        tbody = next((c for c in node.children if c.type == "tbody"), None)
        head_rows = thead.children if thead else []
        body_rows = tbody.children if tbody else []
        ncols = len(head_rows[0].children) if head_rows else 0
        self._check_rows(body_rows, ncols)
        aligns = []
        for th in head_rows[0].children if head_rows else []:
            style = str(th.attrs.get("style", ""))
            aligns.append(TA_RIGHT if "right" in style else TA_CENTER if "center" in style else TA_LEFT)
        data: list[list] = []
        plain: list[list[str]] = []
        for r, tr in enumerate(list(head_rows) + list(body_rows)):
            row, prow = [], []
            for c, cell in enumerate(tr.children[:ncols]):
                base = st.th if r < len(head_rows) else st.td
                al = aligns[c] if c < len(aligns) else TA_LEFT
                style = ParagraphStyle(f"{base.name}-{al}", parent=base, alignment=al)
                markup = self.inline(cell.children[0]) if cell.children else ""
                row.append(self._cell(cell, markup, style, base, body=r >= len(head_rows)))
                prow.append(plain_text(cell))
            while len(row) < ncols:
                row.append(Paragraph("", st.td))
                prow.append("")
            data.append(row)
            plain.append(prow)
        nhead = len(head_rows)

        def make(width: float) -> Table:
            widths = column_widths(plain, nhead, width, st)
            grouped = any(not plain[r][0].strip() for r in range(nhead, len(plain))) and bool(plain[nhead:])
            t = (GroupedTable if grouped else Table)(data, colWidths=widths, repeatRows=nhead, hAlign="LEFT")
            cmds = [("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), st.cell_pad), ("RIGHTPADDING", (0, 0), (-1, -1), st.cell_pad),
                    ("TOPPADDING", (0, 0), (-1, -1), 2.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.25, HexColor("#cfc8bb"))]
            if nhead:
                cmds += [("BACKGROUND", (0, 0), (-1, nhead - 1), HexColor(st.head_fill)),
                         ("LINEBELOW", (0, nhead - 1), (-1, nhead - 1), 0.9, HexColor(st.accent))]
            for r in range(nhead, len(data)):
                if (r - nhead) % 2 == 1:
                    cmds.append(("BACKGROUND", (0, r), (-1, r), HexColor(st.zebra_fill)))
            t.setStyle(cmds)
            return t

        return [FullWidth(make), Spacer(1, st.body.spaceAfter + 2)]

    # --- inline -------------------------------------------------------------------------------


def split_row(line: str) -> list[str]:
    """The cells of one Markdown table line (escaped pipes stay inside a cell)."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, cur, i = [], [], 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            cur.append(s[i:i + 2])
            i += 2
            continue
        if ch == "|":
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur))
    return cells


def column_widths(plain: list[list[str]], nhead: int, width: float, st: Styles) -> list[float]:
    """Natural widths when they fit; otherwise shrink the wide columns, never below their longest word."""
    if not plain:
        return []
    ncols = len(plain[0])
    pad = 2 * st.cell_pad + 2
    nat = [0.0] * ncols
    low = [0.0] * ncols
    for r, row in enumerate(plain):
        font = st.th.fontName if r < nhead else st.td.fontName
        size = st.th.fontSize if r < nhead else st.td.fontSize
        for c, text in enumerate(row):
            nat[c] = max(nat[c], stringWidth(text, font, size) + pad)
            words = text.split() or [""]
            low[c] = max(low[c], max(stringWidth(w, font, size) for w in words) + pad)
    if sum(nat) <= width:
        if sum(nat) > 0.72 * width:
            extra = width - sum(nat)
            return [w + extra * w / sum(nat) for w in nat]
        return nat
    spare = width - sum(low)
    if spare <= 0:
        return [w * width / sum(low) for w in low]
    flex = [n - lo for n, lo in zip(nat, low)]
    total = sum(flex) or 1.0
    return [lo + spare * f / total for lo, f in zip(low, flex)]

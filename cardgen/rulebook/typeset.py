"""The rulebook as a reportlab platypus document: title page, contents with page numbers,
PDF outline and internal links, running header and footer, headings, lists, tables,
callouts and real cards.

Table-of-contents and outline entries are registered in ``afterFlowable`` — once a heading
has been placed on its page — and the document is built with ``multiBuild`` until the
contents stop moving, so every page number printed is the page the heading stands on.
"""

from __future__ import annotations

import io
from dataclasses import field
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
)
from reportlab.platypus.tableofcontents import TableOfContents

from cardgen.boards.inlineicons import IconCanvas
from cardgen.core.record import record
from cardgen.render.platypusfonts import SANS, SERIF, register_fonts
from cardgen.rulebook.flowables import CardPicture, CardRow, Heading

MM = 72.0 / 25.4
PAGE_MM = {"A4": (210.0, 297.0), "A5": (148.0, 210.0), "Letter": (215.9, 279.4), "half-letter": (139.7, 215.9)}
HALF = {"A4": "A5", "Letter": "half-letter"}

def mix(color: str, other: str, t: float) -> str:
    """``color`` moved a fraction ``t`` towards ``other`` (both '#rrggbb')."""
    a, b = HexColor(color), HexColor(other)
    r, g, bl = (a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t, a.blue + (b.blue - a.blue) * t)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(bl * 255):02x}"


@record
class PageSpec:
    name: str
    w: float            # mm
    h: float
    margin_x: float
    margin_top: float
    margin_bottom: float

    @classmethod
    def of(cls, name: str) -> PageSpec:
        w, h = PAGE_MM[name]
        small = w < 180
        return cls(name, w, h, 14.0 if small else 22.0, 17.0 if small else 22.0, 15.0 if small else 20.0)

    @property
    def frame_w(self) -> float:
        return (self.w - 2 * self.margin_x) * MM


@record
class Styles:
    """Every paragraph style of the rulebook, sized for one page size."""

    accent: str
    f: float = 1.0
    serif: str = SERIF["normal"]
    sans: str = SANS["normal"]
    sans_bold: str = SANS["bold"]
    ink: str = "#1d1a16"
    card_scale: float = 0.62
    heading: list[ParagraphStyle] = field(default_factory=list)

    def __post_init__(self) -> None:
        register_fonts()
        f = self.f
        acc = self.accent
        self.rule_color = mix(acc, "#ffffff", 0.35)
        self.example_fill = mix(acc, "#ffffff", 0.93)
        self.note_fill = "#f4f2ee"
        self.quote_fill = "#f6f4f0"
        self.head_fill = mix(acc, "#ffffff", 0.84)
        self.zebra_fill = "#f7f5f1"
        self.list_indent = 15 * f
        self.cell_pad = 4.5 * f
        self.keep_h2 = 34 * MM * f
        ink = HexColor(self.ink)
        self.body = ParagraphStyle("body", fontName=SERIF["normal"], fontSize=10.5 * f, leading=14.2 * f,
                                   spaceAfter=5.5 * f, textColor=ink, allowWidows=0)
        self.tight = ParagraphStyle("tight", parent=self.body, spaceAfter=1.8 * f)
        self.heading = [
            ParagraphStyle("h1", fontName=SANS["bold"], fontSize=22 * f, leading=26 * f, spaceAfter=10 * f,
                           textColor=HexColor(acc), keepWithNext=1),
            ParagraphStyle("h2", fontName=SANS["bold"], fontSize=14.5 * f, leading=18 * f, spaceBefore=11 * f,
                           spaceAfter=4.5 * f, textColor=HexColor(acc), keepWithNext=1),
            ParagraphStyle("h3", fontName=SANS["bold"], fontSize=11.5 * f, leading=14.5 * f, spaceBefore=8 * f,
                           spaceAfter=2.5 * f, textColor=ink, keepWithNext=1),
            ParagraphStyle("h4", fontName=SANS["boldItalic"], fontSize=10.5 * f, leading=13.5 * f,
                           spaceBefore=6 * f, spaceAfter=2 * f, textColor=ink, keepWithNext=1),
        ]
        self.box_heading = ParagraphStyle("boxh", fontName=SANS["bold"], fontSize=10 * f, leading=13 * f,
                                          spaceBefore=3 * f, spaceAfter=2 * f, textColor=ink)
        self.box_title = ParagraphStyle("boxt", fontName=SANS["normal"], fontSize=8.8 * f, leading=11.5 * f,
                                        spaceAfter=2 * f, textColor=ink)
        self.term = ParagraphStyle("term", fontName=SERIF["bold"], fontSize=10.5 * f, leading=13.5 * f,
                                   spaceBefore=2 * f, spaceAfter=0.5 * f, keepWithNext=1, textColor=ink)
        self.caption = ParagraphStyle("caption", fontName=SANS["italic"], fontSize=7.5 * f, leading=9 * f,
                                      alignment=TA_CENTER, textColor=HexColor("#5c574f"))
        self.footnote = ParagraphStyle("footnote", fontName=SERIF["normal"], fontSize=8.5 * f, leading=10.5 * f,
                                       spaceAfter=2 * f, textColor=ink)
        self.code = ParagraphStyle("code", fontName=SANS["normal"], fontSize=8.5 * f, leading=11 * f,
                                   textColor=ink)
        self.th = ParagraphStyle("th", fontName=SANS["bold"], fontSize=8.8 * f, leading=10.8 * f, textColor=ink)
        self.td = ParagraphStyle("td", fontName=SANS["normal"], fontSize=8.8 * f, leading=10.8 * f, textColor=ink)
        self.toc = [
            ParagraphStyle("toc0", fontName=SANS["bold"], fontSize=11 * f, leading=14 * f, spaceBefore=6 * f,
                           textColor=ink, rightIndent=28),
            ParagraphStyle("toc1", fontName=SERIF["normal"], fontSize=10 * f, leading=12.5 * f, leftIndent=14 * f,
                           textColor=ink, rightIndent=28),
        ]
        self.title = ParagraphStyle("title", fontName=SANS["bold"], fontSize=36 * f, leading=42 * f,
                                    alignment=TA_CENTER, textColor=HexColor(acc), spaceAfter=6 * f)
        self.subtitle = ParagraphStyle("subtitle", fontName=SERIF["italic"], fontSize=14 * f, leading=18 * f,
                                       alignment=TA_CENTER, textColor=ink, spaceAfter=14 * f)
        self.kicker = ParagraphStyle("kicker", fontName=SANS["bold"], fontSize=11 * f, leading=15 * f,
                                     alignment=TA_CENTER, textColor=ink, spaceAfter=3 * f)
        self.small_center = ParagraphStyle("smallc", fontName=SANS["normal"], fontSize=9 * f, leading=12 * f,
                                           alignment=TA_CENTER, textColor=HexColor("#5c574f"), spaceAfter=2 * f)
        self.fine = ParagraphStyle("fine", fontName=SANS["italic"], fontSize=7 * f, leading=9 * f,
                                   alignment=TA_LEFT, textColor=HexColor("#7a746a"))


class RulebookDoc(BaseDocTemplate):
    """Title page, then body pages with a running header (game, chapter) and footer (version, page)."""

    def __init__(self, buf, spec: PageSpec, st: Styles, header: str, footer: str, meta: dict):
        self.spec = spec
        self.st = st
        self.header = header
        self.footer = footer
        W, H = spec.w * MM, spec.h * MM
        super().__init__(buf, pagesize=(W, H), leftMargin=spec.margin_x * MM, rightMargin=spec.margin_x * MM,
                         topMargin=spec.margin_top * MM, bottomMargin=spec.margin_bottom * MM,
                         title=meta.get("title", ""), author=meta.get("author", ""),
                         subject=meta.get("subject", ""), creator="cardgen", producer="cardgen (reportlab)",
                         invariant=1, pageCompression=1)
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        tframe = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="title",
                       leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate("title", [tframe], onPage=self._title_page),
                               PageTemplate("body", [frame], onPageEnd=self._decorate)])
        self._chapter = ""
        self._last_level = -1
        self.placed: list[tuple[int, int, str, str]] = []    # (page, level, text, key) of each heading

    def beforeDocument(self):
        self._chapter = ""
        self._last_level = -1
        self.placed = []

    def _title_page(self, canv, doc):
        canv.showOutline()

    def afterFlowable(self, flowable):
        if not isinstance(flowable, Heading):
            return
        page = self.page
        if flowable.chapter:
            self._chapter = flowable.plain
        self.placed.append((page, flowable.level, flowable.plain, flowable.key))
        if flowable.toc:
            self.notify("TOCEntry", (flowable.level, escape(flowable.plain), page, flowable.key))
        if flowable.outline:
            level = min(flowable.level, self._last_level + 1)
            self.canv.addOutlineEntry(flowable.plain, flowable.key, level=level, closed=level >= 1)
            self._last_level = level

    def _decorate(self, canv, doc):
        st, spec = self.st, self.spec
        W, H = spec.w * MM, spec.h * MM
        x0, x1 = spec.margin_x * MM, W - spec.margin_x * MM
        f = st.f
        canv.saveState()
        y = H - (spec.margin_top - 7 * f) * MM
        canv.setFont(SANS["bold"], 7.5 * f)
        canv.setFillColor(HexColor(st.accent))
        canv.drawString(x0, y, self.header)
        canv.setFont(SANS["normal"], 7.5 * f)
        canv.setFillColor(HexColor("#5c574f"))
        if self._chapter:
            canv.drawRightString(x1, y, self._chapter)
        canv.setStrokeColor(HexColor(st.rule_color))
        canv.setLineWidth(0.5)
        canv.line(x0, y - 2.2 * MM, x1, y - 2.2 * MM)
        yb = (spec.margin_bottom - 9 * f) * MM
        canv.setFont(SANS["normal"], 7 * f)
        canv.drawString(x0, yb, self.footer)
        canv.setFont(SANS["bold"], 8.5 * f)
        canv.setFillColor(HexColor(st.ink))
        canv.drawRightString(x1, yb, str(canv.getPageNumber()))
        canv.restoreState()


def title_page(st: Styles, spec: PageSpec, meta: dict, cover: list[CardPicture]) -> list[Flowable]:
    """The title page's flowables (the page template draws nothing on it)."""
    H = spec.h * MM
    out: list[Flowable] = [Spacer(1, H * (0.1 if cover else 0.22))]
    out.append(Paragraph(escape(meta["title"]), st.title))
    if meta.get("subtitle"):
        out.append(Paragraph(escape(meta["subtitle"]), st.subtitle))
    out.append(Paragraph("RULEBOOK", st.kicker))
    line = f"Version {escape(meta['version'])} · {escape(meta['edition'])} · {escape(str(meta['date']))}"
    out.append(Paragraph(line, st.small_center))
    out.append(Spacer(1, 10 * MM * st.f))
    if cover:
        out.append(CardRow(cover, st.caption, scale=0.7))
        out.append(Spacer(1, 10 * MM * st.f))
    for extra in meta.get("lines", []):
        out.append(Paragraph(escape(extra), st.small_center))
    out.append(Spacer(1, 8 * MM * st.f))
    out.append(Paragraph(escape(meta.get("colophon", "")), ParagraphStyle("colo", parent=st.fine,
                                                                        alignment=TA_CENTER)))
    return out


def contents(st: Styles) -> list[Flowable]:
    toc = TableOfContents(dotsMinLevel=0)
    toc.levelStyles = st.toc
    head = Heading("Contents", st.heading[0], 0, "contents", "Contents", toc=False, outline=True, chapter=True)
    return [head, toc]


def typeset(story_body: list[Flowable], spec: PageSpec, st: Styles, meta: dict,
            cover: list[CardPicture]) -> tuple[bytes, list[tuple[int, int, str, str]]]:
    """Build the PDF; returns its bytes and the placed headings (page, level, text, anchor)."""
    register_fonts()
    buf = io.BytesIO()
    doc = RulebookDoc(buf, spec, st, meta["header"], meta["footer"],
                      {"title": f"{meta['title']} — Rulebook v{meta['version']}", "author": meta.get("author", ""),
                       "subject": f"{meta['edition']}, {meta['date']}"})
    story: list[Flowable] = title_page(st, spec, meta, cover)
    story += [NextPageTemplate("body"), PageBreak()]
    story += contents(st)
    story += story_body
    doc.multiBuild(story, maxPasses=12, canvasmaker=IconCanvas)
    return buf.getvalue(), list(doc.placed)


def back_cover(spec: PageSpec, st: Styles, meta: dict, inset: float = 0.0) -> bytes:
    """A booklet's back cover, one page: the title, the version and who the game is for, on a band
    of the accent colour — so the last page of a folded booklet is a cover, never a page of text.
    ``inset`` (mm): the printer's unprintable margin, which the band stays inside of."""
    register_fonts()
    buf = io.BytesIO()
    W, H = spec.w * MM, spec.h * MM
    doc = BaseDocTemplate(buf, pagesize=(W, H), leftMargin=spec.margin_x * MM, rightMargin=spec.margin_x * MM,
                          topMargin=spec.margin_top * MM, bottomMargin=spec.margin_bottom * MM,
                          title=f"{meta['title']} — back cover", creator="cardgen", invariant=1)

    def band(canv, _doc):
        canv.saveState()
        canv.setFillColor(HexColor(st.accent))
        canv.rect(inset * MM, inset * MM, W - 2 * inset * MM, 14 * MM * st.f, stroke=0, fill=1)
        canv.restoreState()

    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, leftPadding=0, rightPadding=0,
                  topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate("back", [frame], onPage=band)])
    small = ParagraphStyle("backsmall", parent=st.small_center)
    story: list[Flowable] = [Spacer(1, H * 0.42), Paragraph(escape(meta["title"]), st.subtitle)]
    story.append(Paragraph(f"Rulebook · Version {escape(meta['version'])} · {escape(meta['edition'])}", small))
    story.append(Paragraph(escape(str(meta["date"])), small))
    for extra in meta.get("lines", [])[:1]:
        story.append(Paragraph(escape(extra), small))
    doc.build(story)
    return buf.getvalue()

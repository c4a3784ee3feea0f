"""Quick-reference sheets (``reference:`` files): a player aid on the game's paper size.

A sheet is a title and sections of rules text (``**bold**``, ``*italic*``, ``{icon}``,
newlines), laid in columns and flowing on to a second page when they need one. Every text
is a Jinja2 template over ``params`` (the game's params.yaml) and ``game``, so the key
numbers on the sheet are the rules' own::

    reference:
      name: Quick reference
      sections:
        - title: Your turn
          text: "Draw {{ params.hand_size }} cards …"
"""

from __future__ import annotations

from pathlib import Path

from cardgen.boards import common
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, plain
from cardgen.layout.elements.base import DrawContext
from cardgen.layout.elements.text import layout_text
from cardgen.layout.legibility import MIN_RULES_PT
from cardgen.layout.templates import make_env
from cardgen.layout.textfit import fit
from cardgen.scene import Line, Page, Rect, Text

SECTION_SPEC = {"title": Opt("str", required=True), "text": Opt("str", required=True)}
SHEET_SPEC = {
    "name": Opt("str", required=True, doc="printed title"),
    "columns": Opt("int", default=2, min=1, max=3),
    "size": Opt("number", default=9.5, min=MIN_RULES_PT, doc="text size, pt (rules text: 7 pt at least)"),
    "color": Opt("color", default="#222222", doc="titles and rules"),
    "sections": Opt("list", required=True, doc="[{title, text}] in reading order"),
}
MARGIN = 12.0
GUTTER = 7.0


@record
class Sheet:
    path: Path
    loc: Loc
    name: str
    columns: int
    size: float
    color: str
    sections: list[tuple[str, str, Loc]]     # title, rendered text, where the text is written


def load(path: Path, doc: YDict, game, problems: Problems) -> Sheet | None:
    found = common.section(doc, "reference", SHEET_SPEC, problems, path.name, game.colors)
    if found is None:
        return None
    v, rd = found
    env = make_env()
    ctx = {"params": plain(game.params), "game": {"title": game.title, "slug": game.slug}}
    sections = []
    ok = True
    for i, sd in enumerate(rd["sections"]):
        rr = common.mapping(sd, rd["sections"].at(i), SECTION_SPEC, problems, f"section {i + 1}")
        if not rr.ok:
            ok = False
            continue
        loc = sd.at("text")
        try:
            text = env.from_string(rr.values["text"]).render(ctx).strip()
        except Exception as e:  # noqa: BLE001 - Jinja raises many kinds; all are content errors
            problems.error("TEMPLATE-EXPR", f"section '{rr.values['title']}': {e}", loc)
            ok = False
            continue
        sections.append((rr.values["title"], text, loc))
    if not ok:
        return None
    return Sheet(path, rd.loc, v["name"], v["columns"], v["size"], v["color"], sections)


def pages(sheet: Sheet, game, fonts: dict[str, str], problems: Problems) -> list[Page]:
    """The sheet laid out on the game's paper: sections down the columns, on as many pages as needed."""
    pw, ph = game.print.page_w, game.print.page_h
    col_w = (pw - 2 * MARGIN - (sheet.columns - 1) * GUTTER) / sheet.columns
    top = MARGIN + 14
    out: list[Page] = []
    page = _new_page(sheet, game, fonts, pw, ph, 1)
    col, y = 0, top
    needs = [7.0 + fit(text, col_w, 10_000, fonts, game.icons, sheet.size, sheet.size).height + 5.0
             for _, text, _ in sheet.sections]
    share = sum(needs) / sheet.columns          # columns of about equal length when one page holds them
    for (title, text, loc), need in zip(sheet.sections, needs):
        ctx = DrawContext(pw, ph, 0.0, fonts, game.icons, problems, f"quick reference '{sheet.name}'", loc, {},
                          title, loc, game.templates_dir)
        balance = col < sheet.columns - 1 and y - top + need / 2 > share
        if (y + need > ph - MARGIN or balance) and y > top:
            col += 1
            y = top
            if col >= sheet.columns:
                out.append(page)
                page = _new_page(sheet, game, fonts, pw, ph, len(out) + 1)
                col = 0
        x = MARGIN + col * (col_w + GUTTER)
        page.items.append(Text(x, y + 4.5, title, fonts["bold"], sheet.size + 2.5, sheet.color))
        page.items.append(Line(x, y + 6.0, x + col_w, y + 6.0, sheet.color, 0.3))
        v = {"text": text, "font": "regular", "size": sheet.size, "min_size": sheet.size, "color": "#000000",
             "align": "left", "valign": "top", "leading": 1.2}
        page.items += layout_text(v, ctx, x, y + 7.5, col_w, ph)
        y += need
    out.append(page)
    return out


def _new_page(sheet: Sheet, game, fonts, pw: float, ph: float, n: int) -> Page:
    title = f"{game.title} — {sheet.name}" + (f" ({n})" if n > 1 else "")
    return Page(pw, ph, [Rect(MARGIN - 4, MARGIN - 4, pw - 2 * MARGIN + 8, ph - 2 * MARGIN + 8, None, sheet.color,
                              0.6, 3.0),
                         Text(MARGIN, MARGIN + 6, title, fonts["bold"], 16, sheet.color)])

"""Presets in rulebooks: ``![caption](preset:<file stem>)``.

``<file stem>`` names one of the game's deck-like files (``collections`` in game.yaml: decks, boss
builds, hero parties). The picture is a reference sheet: the file's name and points, the summary the
game's engine computes for it (``summary(game, build)`` of the game's package, when the
engine has one), footprints drawn as hex diagrams, and the cards it lists, in columns.

Option: ``hide=<key>[,<key>…]`` leaves those rows out (e.g. ``preset:boss_x?hide=shape,deck``).

Problems (at the image's line): RULEBOOK-PRESET — an unknown file (did you mean …?), a file that
does not load (run ``cardgen validate``), an unknown option.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from cardgen import gamehooks
from cardgen.content import collection_files as cols
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.layout.elements.footprint import diagram
from cardgen.render.pdf import MM, draw_items
from cardgen.rulebook.flowables import FullWidth

PRESET = "preset"


class Sketch(Flowable):
    """Scene primitives in a fixed ``w`` × ``h`` mm box (a footprint diagram in a table cell)."""

    def __init__(self, items: list, w: float, h: float):
        super().__init__()
        self.items, self.w, self.h = items, w, h

    def wrap(self, availWidth, availHeight):
        return self.w * MM, self.h * MM

    def draw(self):
        draw_items(self.canv, self.items, self.h)


class Seq(Flowable):
    """Flowables one under the other, drawn together when they fit; otherwise split into them,
    so the page may break between them."""

    def __init__(self, parts: list):
        super().__init__()
        self.parts = parts
        self._sizes: list[tuple[float, float]] = []

    def _gap(self, i: int) -> float:
        return 0.0 if i == 0 else max(self.parts[i - 1].getSpaceAfter(), self.parts[i].getSpaceBefore())

    def wrap(self, availWidth, availHeight):
        self._sizes = [p.wrapOn(self.canv, availWidth, availHeight) for p in self.parts]
        self.width = availWidth
        self.height = sum(h for _, h in self._sizes) + sum(self._gap(i) for i in range(len(self.parts)))
        return self.width, self.height

    def split(self, availWidth, availHeight):
        if not self.parts:
            return []
        first, rest = self.parts[0], list(self.parts[1:])
        _, h = first.wrapOn(self.canv, availWidth, availHeight)
        if h <= availHeight:
            return [first, *rest]
        head = first.splitOn(self.canv, availWidth, availHeight)
        return [*head, *rest] if head else []

    def getSpaceBefore(self):
        return self.parts[0].getSpaceBefore() if self.parts else 0

    def getSpaceAfter(self):
        return self.parts[-1].getSpaceAfter() if self.parts else 0

    def draw(self):
        y = self.height
        for i, (p, (_, h)) in enumerate(zip(self.parts, self._sizes)):
            y -= self._gap(i) + h
            p.drawOn(self.canv, 0, y)


_CELL = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_CELLS = re.compile(r"\s*\[\s*-?\d+\s*,\s*-?\d+\s*\](\s*,\s*\[\s*-?\d+\s*,\s*-?\d+\s*\])*\s*")
PRESET_OPTIONS = ("hide",)
SKIP_BODY = ("name", "points_limit", "notes")


def _is_block(it) -> bool:
    """An entry with lists of cards or a deck of its own (a hero of a party) gets a block of its own."""
    return isinstance(it, dict) and any(isinstance(v, dict) or (isinstance(v, list) and any(
        isinstance(x, (str, dict)) for x in v)) for v in it.values())


def _esc(text) -> str:
    return escape(str(text))


_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_NAMED = re.compile(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*) \(([A-Z][^)]*)\)")
_ID = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


def for_players(text: str) -> str:
    """A figure as a player reads it: ``left_arm (Skeletal Arm)`` → ``Left Arm (Skeletal Arm)``, an id
    that only repeats the name it is followed by dropped, no ``snake_case`` left."""
    def named(m: re.Match) -> str:
        words = m.group(1).replace("_", " ")
        if words.lower() == m.group(2).lower() or set(words.lower().split()) <= set(m.group(2).lower().split()):
            return m.group(2)       # ``scythe (Mantis Scythe)``: the label only repeats part of the name
        return f"{words.title()} ({m.group(2)})"
    text = _NAMED.sub(named, text)
    return _SNAKE.sub(lambda m: m.group(0).replace("_", " ").title(), text)


class _Presets:
    """The game's deck-like files (``collections`` in game.yaml) by file stem."""

    def __init__(self, rulebook):
        self.rulebook = rulebook
        self.game = rulebook.game
        self.files = {p.stem: p for p in cols.collection_files(self.game)}
        self._st = None

    @property
    def st(self):
        if self._st is None:
            cur = self.rulebook.current or self.rulebook.versions[-1]
            self._st = self.rulebook.styles(cur, self.rulebook.page_spec(cur))
        return self._st

    def styles(self):
        st = self.st
        title = ParagraphStyle("preset-title", parent=st.heading[2], fontSize=st.heading[1].fontSize * 0.9,
                               leading=st.heading[1].leading * 0.9, textColor=HexColor(st.accent),
                               spaceBefore=4, spaceAfter=1)
        sub = ParagraphStyle("preset-sub", parent=st.td, textColor=HexColor("#5c574f"), spaceAfter=4)
        head = ParagraphStyle("preset-head", parent=st.heading[3], spaceBefore=6, spaceAfter=2)
        return title, sub, head

    def name_of(self, cid) -> str:
        c = self.game.cards_by_id.get(cid) if isinstance(cid, str) else None
        return c.name if c is not None else str(cid)

    def sheet(self, stem: str, opts: dict, loc: Loc, problems: Problems):

        game, path = self.game, self.files[stem]
        scratch = Problems()
        kind, body, _ = cols.load_collection_file(path, game, scratch)
        if not kind or body is None:
            problems.error("RULEBOOK-PRESET", f"{path.name} does not load; `cardgen validate {game.slug} "
                           f"{path.name}` lists its problems", loc)
            return None
        pkg = gamehooks.package(game.slug)
        hook = pkg.check_file if pkg is not None else None
        figures = dict(hook(game, kind, body, scratch) or {}) if hook else {}
        if scratch.has_errors:
            first = scratch.errors[0]
            problems.error("RULEBOOK-PRESET", f"{path.name} breaks the rules ({first.rule}: {first.message}); "
                           f"a rulebook shows only legal presets", loc)
            return None
        hide = set(opts.get("hide", ()))
        title_st, sub_st, head_st = self.styles()
        name = body.get("name") or stem
        points = figures.pop("points", None)
        figures.pop("name", None)
        figures.pop("cards", None)
        sub = [str(kind).title()]
        if isinstance(points, dict) and "total" in points:
            rest = ", ".join(f"{k} {v}" for k, v in points.items() if k not in ("total", "limit"))
            lim = points.get("limit")
            sub.append(f"<b>{points['total']} points</b>" + (f" of {lim}" if lim not in (None, "none") else
                                                              " (no limit)") + (f": {rest}" if rest else ""))
        out: list = [Paragraph(_esc(name), title_st), Paragraph(" · ".join(sub), sub_st)]
        rows: dict = {k: self.value(v) for k, v in figures.items() if k not in hide}
        blocks = []
        for key, val in body.items():
            if key in SKIP_BODY or key in hide or key == "cards":
                continue
            if isinstance(val, list) and any(_is_block(it) for it in val):
                for it in val:
                    blocks.append(self.block(it, hide, head_st))
            elif isinstance(val, list):          # the file's own list replaces a figure of that name
                rows[key] = ", ".join(self.item(it) for it in val) or "—"
            elif not isinstance(val, dict):
                rows[key] = _esc(val)
        if rows:
            out.append(self.table([(self.label(k), v) for k, v in rows.items()]))
        if "cards" in body and "cards" not in hide:
            out += self.deck(body.get("cards"), head_st)
        return Seq([KeepTogether(out), *blocks, Spacer(1, 6)])

    def block(self, it, hide: set, head_st):
        if not isinstance(it, dict):
            return Paragraph(_esc(self.item(it)), head_st)
        parts: list = [Paragraph(_esc(self.name_of(it.get("id"))), head_st)]
        rows = []
        for key, val in it.items():
            if key in ("id", "cards") or key in hide:
                continue
            if isinstance(val, list):
                rows.append((self.label(key), ", ".join(self.item(x) for x in val) or "—"))
            elif not isinstance(val, dict):
                rows.append((self.label(key), _esc(val)))
        if rows:
            parts.append(self.table(rows))
        if "cards" in it and "cards" not in hide:
            parts += self.deck(it.get("cards"), None)
        return KeepTogether(parts)

    def item(self, it) -> str:
        if isinstance(it, dict):
            extra = ", ".join(f"{k} {self.words(v)}" for k, v in it.items() if k not in ("id", "at"))
            return _esc(self.name_of(it.get("id"))) + (f" <font color='#5c574f'>({_esc(extra)})</font>"
                                                       if extra else "")
        return _esc(self.name_of(it))

    def words(self, v) -> str:
        """A value as a player reads it: a label that is an id (``scythe``) title-cased (``Scythe``)."""
        text = for_players(self.plain(v))
        return text.title() if _ID.fullmatch(text) else text

    @staticmethod
    def plain(v) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(str(x) for x in v) + "]"
        return str(v)

    @staticmethod
    def label(key) -> str:
        return _esc(str(key).replace("_", " ").capitalize())

    def value(self, v):
        st = self.st
        if isinstance(v, dict):
            return " · ".join(f"{_esc(k)} <b>{_esc(x)}</b>" for k, x in v.items())
        if isinstance(v, list):
            if v and all(isinstance(x, str) and set(x) <= set(" o@") for x in v):
                mono = ParagraphStyle("preset-mono", parent=st.td, fontName="Courier", leading=st.td.fontSize)
                return Paragraph("<br/>".join(_esc(x).replace(" ", "&nbsp;") for x in v), mono)
            return "<br/>".join(_esc(for_players(str(x))) for x in v)
        if isinstance(v, str) and _CELLS.fullmatch(v):
            cells = [(int(a), int(b)) for a, b in _CELL.findall(v)]
            ink = self.game.colors.get("ink", "#000000")
            items = diagram(cells, 0, 0, 70, 26, max_hex=9, fill="#d9c7a3", stroke=ink, width=0.3,
                            anchor=ink, font="LiberationSans-Italic")
            return [Sketch(items, 70, 26)]
        return _esc(v)

    def table(self, rows: list[tuple]):

        st = self.st
        data = [[Paragraph(k, st.th), v if isinstance(v, list) or not isinstance(v, str) else Paragraph(v, st.td)]
                for k, v in rows]

        def make(width: float):
            t = Table(data, colWidths=[width * 0.2, width * 0.8], hAlign="LEFT")
            t.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                        ("LEFTPADDING", (0, 0), (-1, -1), st.cell_pad),
                        ("RIGHTPADDING", (0, 0), (-1, -1), st.cell_pad),
                        ("TOPPADDING", (0, 0), (-1, -1), 2.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                        ("LINEBELOW", (0, 0), (-1, -1), 0.25, HexColor("#cfc8bb")),
                        ("BACKGROUND", (0, 0), (0, -1), HexColor(st.head_fill))])
            return t

        return FullWidth(make)

    def deck(self, raw, head_st) -> list:

        st = self.st
        entries = cols.entries_from(raw, self.game, Problems(), "deck")
        merged: dict[str, int] = {}
        for e in entries:
            merged[e.id] = merged.get(e.id, 0) + e.count
        types = {self.game.cards_by_id[c].type for c in merged if c in self.game.cards_by_id}
        what = (self.game.card_types[types.pop()].name + " cards") if len(types) == 1 else "Cards"
        total = sum(merged.values())
        cells = [Paragraph(f"<b>{n}×</b> {_esc(self.name_of(cid))}", st.td) for cid, n in merged.items()]
        ncol = 3
        nrow = -(-len(cells) // ncol)
        data = [[cells[c * nrow + r] if c * nrow + r < len(cells) else "" for c in range(ncol)]
                for r in range(nrow)]
        head = Paragraph(f"{what} ({total})", st.th)

        def make(width: float):
            t = Table([[head, "", ""]] + data, colWidths=[width / ncol] * ncol, hAlign="LEFT")
            t.setStyle([("SPAN", (0, 0), (-1, 0)), ("BACKGROUND", (0, 0), (-1, 0), HexColor(st.head_fill)),
                        ("LEFTPADDING", (0, 0), (-1, -1), st.cell_pad), ("TOPPADDING", (0, 0), (-1, -1), 1.2),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
                        ("LINEBELOW", (0, -1), (-1, -1), 0.25, HexColor("#cfc8bb"))])
            return t

        return [FullWidth(make)]


def preset_factory(rulebook):
    """The ``preset:`` resolver for one rulebook."""
    presets = _Presets(rulebook)

    def resolve(target: str, alt: str, loc: Loc, problems: Problems):
        stem, _, query = target.strip().partition("?")
        stem = stem.strip()
        if stem not in presets.files:
            problems.error("RULEBOOK-PRESET", f"no preset file '{stem}' in the {rulebook.game.slug} collections",
                           loc, hint=did_you_mean(stem, presets.files) or
                           f"presets: {', '.join(sorted(presets.files)) or 'none'}")
            return None
        opts: dict = {}
        for part in filter(None, query.split("&")):
            key, _, value = part.partition("=")
            if key.strip() not in PRESET_OPTIONS:
                problems.error("RULEBOOK-PRESET", f"unknown preset picture option '{key.strip()}'", loc,
                               hint=f"options: {', '.join(PRESET_OPTIONS)}")
                return None
            opts["hide"] = [x.strip() for x in value.split(",") if x.strip()]
        return presets.sheet(stem, opts, loc, problems)

    return resolve


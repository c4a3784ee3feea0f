"""The ``rulebook`` printable: every version of a game's rulebook, typeset.

``rulebook.pdf`` is the current version, ``rulebook-v<version>.pdf`` each older one, and
``rulebook-booklet.pdf`` the current one on half-size pages imposed for saddle-stitch when its
metadata says ``booklet: true``. Each version after the first ends with a "Changes since v…"
chapter generated from the section differences with the version before it.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.platypus import Flowable, PageBreak

from cardgen.content.model import Game
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.layout.card import CardLayout
from cardgen.layout.legibility import texts
from cardgen.rulebook import booklet as _booklet
from cardgen.rulebook import glossary, notes
from cardgen.rulebook.changelog import changes_markdown
from cardgen.rulebook.diff import Change, diff
from cardgen.rulebook.flowables import CardPicture, expand
from cardgen.rulebook.images import IMAGE_SCHEMES
from cardgen.rulebook.jinja import ChapterRenderer, Rendered
from cardgen.rulebook.markdown import Chapter, Converter, HeadingInfo, headings, parse
from cardgen.rulebook.md_images import ImageResolver
from cardgen.rulebook.plaintext import Section
from cardgen.rulebook.plaintext import sections as text_sections
from cardgen.rulebook.source import Version, has_rulebook, load_versions
from cardgen.rulebook.typeset import HALF, PAGE_MM, PageSpec, Styles, back_cover, typeset
from cardgen.rulebook.versioned import own_data, versioned_game

ImageScheme = Callable[[str, str, Loc, Problems], "CardPicture | Flowable | None"]

DESIGNER_PDF = "rulebook-designer.pdf"    # the current version with rule IDs, for designers and playtesters


class Rulebook:
    """All versions of one game's rulebook: rendering, checking, diffing and typesetting."""

    def __init__(self, game: Game, problems: Problems, layout=None, designer: bool = False):
        self.game = game
        self.problems = problems
        self._layout = layout
        self.designer = designer        # the designer's edition: rule IDs on headings, Clarifications by rule ID
        self.versions: list[Version] = load_versions(game, problems)
        self._chapters: dict[str, list[Chapter] | None] = {}
        self._heads: dict[str, list[HeadingInfo]] = {}
        self._stories: dict[tuple[str, str], list[Flowable] | None] = {}
        self._text: dict[str, list[Section] | None] = {}
        self._games: dict[str, Game] = {}
        self._layouts: dict[str, object] = {}

    # --- sources ----------------------------------------------------------------------------
    @property
    def current(self) -> Version | None:
        return self.versions[-1] if self.versions and self.versions[-1].current else None

    def previous(self, version: Version) -> Version | None:
        i = self.versions.index(version)
        return self.versions[i - 1] if i > 0 else None

    def chapters(self, version: Version) -> list[Chapter] | None:
        """The version's chapters after Jinja2 and Markdown parsing; None when one failed."""
        if version.version not in self._chapters:
            r = ChapterRenderer(self.game_of(version), version, self.versions, self.problems, self.designer)
            out: list[Chapter] | None = []
            for i, path in enumerate(version.chapters):
                rendered = r.render(path)
                if rendered is None:
                    out = None
                    continue
                if out is not None:
                    out.append(parse(rendered, self.problems, i))
            icons = glossary.chapter(self.game_of(version))
            if out is not None and icons is not None:
                out.append(parse(icons, self.problems, len(out)))
            quoted = notes.chapter(self.game, self.problems) if self.designer and version.current else None
            if out is not None and quoted is not None:
                out.append(parse(quoted, self.problems, len(out)))
            self._chapters[version.version] = out
            if out is not None:
                self._heads[version.version] = headings(out)
        return self._chapters[version.version]

    def headings(self, version: Version) -> list[HeadingInfo]:
        self.chapters(version)
        return self._heads.get(version.version, [])

    def sections(self, version: Version) -> list[Section] | None:
        return self.text_sections(version)

    def changes(self, old: Version, new: Version) -> list[Change] | None:
        """What changed from ``old`` to ``new`` in the typeset text, section by section."""
        a, b = self.text_sections(old), self.text_sections(new)
        if a is None or b is None:
            return None
        rules = [[s for s in v if s.path[:1] != (notes.TITLE,)] for v in (a, b)]     # notes are no rules
        return diff(rules[0], rules[1])

    # --- cards --------------------------------------------------------------------------------
    @property
    def layout(self):
        if self._layout is None:
            self._layout = self._new_layout(self.game)
        return self._layout

    @staticmethod
    def _new_layout(game: Game):
        return CardLayout(game, Problems())    # its problems are validate's to report

    def game_of(self, version: Version | None) -> Game:
        """The game as ``version`` pictures it: with the card data the version keeps, if any
        (:mod:`cardgen.rulebook.versioned`)."""
        if version is None:
            return self.game
        if version.version not in self._games:
            self._games[version.version] = versioned_game(self.game, version, self.problems)
        return self._games[version.version]

    def layout_of(self, version: Version | None):
        game = self.game_of(version)
        if game is self.game:
            return self.layout
        assert version is not None
        if version.version not in self._layouts:
            self._layouts[version.version] = self._new_layout(game)
        return self._layouts[version.version]

    def card_picture(self, card_id: str, side: str, loc: Loc, problems: Problems,
                     version: Version | None = None) -> CardPicture | None:
        game = self.game_of(version)
        card = game.cards_by_id.get(card_id)
        if card is None:
            problems.error("RULEBOOK-CARD", f"unknown card id '{card_id}'", loc,
                           hint=did_you_mean(card_id, game.cards_by_id))
            return None
        ct = game.card_types[card.type]
        layout = self.layout_of(version)
        items = expand(layout.draw(card, side), layout.symbols)
        sizes = [t.size for t in texts(items) if t.text.strip()]
        return CardPicture(items, ct.width, ct.height, game.print.bleed, min_text=min(sizes, default=None),
                           callouts=layout.callouts(card, side))

    def pictured(self, version: Version) -> str:
        """Which cards ``version`` pictures, as its title page says it."""
        cur = self.current
        if version.current or cur is None:
            return ""
        if own_data(version):
            return f"The cards pictured are those of version {version.version}."
        return f"The cards pictured are today's (version {cur.version})."

    def resolver(self, version: Version | None = None) -> ImageResolver:
        schemes = {"card": lambda t, alt, loc, pr: self.card_picture(t.strip(), "front", loc, pr, version),
                   "card-back": lambda t, alt, loc, pr: self.card_picture(t.strip(), "back", loc, pr, version)}
        for name, factory in IMAGE_SCHEMES.items():
            schemes[name] = factory(self)
        return ImageResolver(self.game.root, schemes)

    # --- typesetting ----------------------------------------------------------------------------
    def page_spec(self, version: Version, half: bool = False) -> PageSpec:
        paper = self.game.print.paper if self.game.print.paper in PAGE_MM else "A4"
        if half:
            return PageSpec.of(HALF.get(paper, "A5"))
        return PageSpec.of(version.meta.get("page") or paper)

    def _changes_chapter(self, version: Version, index: int) -> Chapter | None:
        prev = self.previous(version)
        if prev is None:
            return None
        ch = self.changes(prev, version)
        if ch is None:
            return None
        md = changes_markdown(ch, prev.label, version.label, version.meta.get("summary"))
        rendered = Rendered(version.meta_file, md, [version.loc.line] * (md.count("\n") + 1), md)
        return parse(rendered, self.problems, index)

    def styles(self, version: Version, spec: PageSpec) -> Styles:
        return Styles(version.meta.get("accent") or "#2f3e4e", f=0.9 if spec.w < 180 else 1.0)

    def story(self, version: Version, spec: PageSpec, st: Styles) -> list[Flowable] | None:
        """The version's chapters as flowables (cached per version and page size)."""
        key = (version.version, spec.name)
        if key not in self._stories:
            self._stories[key] = self._story(version, spec, st)
        return self._stories[key]

    def _story(self, version: Version, spec: PageSpec, st: Styles) -> list[Flowable] | None:
        return self._flows(version, spec, st, changes=True)

    def _flows(self, version: Version, spec: PageSpec, st: Styles, changes: bool) -> list[Flowable] | None:
        chs = self.chapters(version)
        if chs is None:
            return None
        chs = list(chs)
        extra = self._changes_chapter(version, len(chs)) if changes else None
        if extra is not None:
            chs.append(extra)
        heads = headings(chs)
        conv = Converter(st, self.problems, self.game.icons, self.resolver(version), heads, spec.frame_w)
        conv.show_rules = self.designer
        out: list[Flowable] = []
        for ch in chs:
            if ch.options.get("new_page", True) or not out:
                out.append(PageBreak())
            out += conv.chapter(ch)
        return out

    def text_sections(self, version: Version) -> list[Section] | None:
        """What a player reads in ``version``, section by section: the typeset text read back
        from the same flowables the PDF is made of (for diffs and the Changes page)."""
        if version.version not in self._text:
            spec = self.page_spec(version)
            flows = self._flows(version, spec, self.styles(version, spec), changes=False)
            if flows is None:
                self._text[version.version] = None
            else:
                chs = self.chapters(version) or []
                where = {h.anchor: (str(chs[h.chapter].path), chs[h.chapter].rendered.loc(h.line).line)
                         for h in self.headings(version)}
                self._text[version.version] = text_sections(flows, where)
        return self._text[version.version]

    def meta(self, version: Version) -> dict:
        """What the title page, the running header and footer and the back cover print."""
        g = self.game
        players = (g.params or {}).get("players") or {}     # the rules' count (params.yaml), not typed twice
        lines = []
        if players.get("min") and players.get("max"):
            lo, hi = players["min"], players["max"]
            lines.append(f"For {lo} players" if lo == hi else f"For {lo}–{hi} players")
        if (g.meta or {}).get("designer"):
            lines.append(f"Game design: {g.meta['designer']}")
        if version.meta.get("authors"):
            lines.append("Rules text: " + ", ".join(version.meta["authors"]))
        if self.pictured(version):
            lines.append(self.pictured(version))
        rel = version.folder.relative_to(g.root) if version.folder.is_relative_to(g.root) else version.folder
        meta = {"title": version.title, "subtitle": version.meta.get("subtitle") or (g.meta or {}).get("subtitle"),
                "version": version.version, "edition": version.edition, "date": version.date,
                "author": (g.meta or {}).get("designer") or "",
                "header": f"{version.title} — Rulebook" + (" · designer's edition" if self.designer else ""),
                "footer": f"Version {version.version} · {version.edition} · {version.date}",
                "lines": lines,
                "colophon": (f"Typeset by cardgen from {rel.as_posix()}/. Every number in this book is read from "
                             "the game's rules and card files, the same ones the validator checks.") if self.designer
                else "Every number in this book is read from the same data the cards are printed from."}
        return meta

    def pdf(self, version: Version, half: bool = False) -> bytes | None:
        spec = self.page_spec(version, half)
        st = self.styles(version, spec)
        body = self.story(version, spec, st)
        if body is None or self.problems.has_errors:
            return None
        cover = []
        for i, cid in enumerate(version.meta.get("cover") or []):
            pic = self.card_picture(cid, "front", version.at("cover", i), self.problems, version)
            if pic is not None:
                pic.thumbnail = True        # the cover shows the cards' look; its small print as lines
                cover.append(pic)
        if self.problems.has_errors:
            return None
        meta = self.meta(version)
        data, _placed = typeset(body, spec, st, meta, cover)
        self._stories.pop((version.version, spec.name), None)   # flowables are spent once laid out
        return data

    def check(self) -> None:
        """Everything short of typesetting: metadata, Jinja2, Markdown, links, tables, card ids."""
        for v in self.versions:
            spec = self.page_spec(v)
            self.story(v, spec, self.styles(v, spec))
            for i, cid in enumerate(v.meta.get("cover") or []):
                if cid not in self.game_of(v).cards_by_id:
                    self.problems.error("RULEBOOK-CARD", f"unknown card id '{cid}'", v.at("cover", i),
                                        hint=did_you_mean(cid, self.game_of(v).cards_by_id))

    def files(self) -> dict[str, bytes]:
        """Every output file; empty when any problem is an error."""
        out: dict[str, bytes] = {}
        if not self.versions or self.current is None:
            return out
        self.check()                  # every version's problems before any typesetting
        if self.problems.has_errors:
            return out
        for v in self.versions:
            data = self.pdf(v)
            if data is not None:
                out[v.pdf_name] = data
        cur = self.current
        if not self.designer:
            edition = Rulebook(self.game, self.problems, self._layout, designer=True)
            edition._games, edition._layouts = self._games, self._layouts     # each version's data read once
            designer = edition.pdf(cur)
            if designer is not None:
                out[DESIGNER_PDF] = designer
        if cur.meta.get("booklet") and not self.problems.has_errors:
            half = self.pdf(cur, half=True)
            if half is not None:
                ps = self.game.print
                spec = self.page_spec(cur, half=True)
                # the band stays inside the printer's margin, however the half page is scaled onto the sheet
                scale = min(ps.page_h / 2 / spec.w, ps.page_w / spec.h)      # on the landscape sheet
                back = back_cover(spec, self.styles(cur, spec), self.meta(cur), inset=ps.margin / scale)
                out["rulebook-booklet.pdf"] = _booklet.impose(half, ps.page_w, ps.page_h, back=back)
        return {} if self.problems.has_errors else out


def build(laid, problems: Problems | None = None, **_opts) -> dict[str, bytes]:
    """The printable: ``cardgen build`` calls it with the laid-out game."""
    problems = problems if problems is not None else Problems()
    book = Rulebook(laid.game, problems, layout=getattr(laid, "layout", None))
    return book.files()


def check(game: Game, problems: Problems) -> None:
    """Rulebook problems without typesetting (for ``cardgen validate``); silent without sources."""
    if has_rulebook(game) or "rulebook" in game.printables:
        Rulebook(game, problems).check()


__all__ = ["Rulebook", "build", "check"]

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
from cardgen.rulebook import booklet as _booklet
from cardgen.rulebook.diff import Change, Section, changes_markdown, diff, sections
from cardgen.rulebook.flowables import CardPicture, expand
from cardgen.rulebook.jinja import ChapterRenderer, Rendered
from cardgen.rulebook.markdown import Chapter, Converter, HeadingInfo, ImageResolver, headings, parse
from cardgen.rulebook.source import Version, has_rulebook, load_versions
from cardgen.rulebook.typeset import HALF, PAGE_MM, PageSpec, Styles, typeset

ImageScheme = Callable[[str, str, Loc, Problems], "CardPicture | Flowable | None"]
#: Image kinds other pipelines add: ``{"map": fn(target, alt, loc, problems) -> CardPicture | Flowable}``.
IMAGE_SCHEMES: dict[str, Callable[[Rulebook], ImageScheme]] = {}


def register_image_scheme(name: str, factory: Callable[[Rulebook], ImageScheme]) -> None:
    """Let Markdown write ``![alt](name:target)``; ``factory(rulebook)`` returns the resolver."""
    IMAGE_SCHEMES[name] = factory


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
            r = ChapterRenderer(self.game, version, self.versions, self.problems, self.designer)
            out: list[Chapter] | None = []
            for i, path in enumerate(version.chapters):
                rendered = r.render(path)
                if rendered is None:
                    out = None
                    continue
                if out is not None:
                    out.append(parse(rendered, self.problems, i))
            self._chapters[version.version] = out
            if out is not None:
                self._heads[version.version] = headings(out)
        return self._chapters[version.version]

    def headings(self, version: Version) -> list[HeadingInfo]:
        self.chapters(version)
        return self._heads.get(version.version, [])

    def sections(self, version: Version) -> list[Section] | None:
        chs = self.chapters(version)
        return None if chs is None else sections(chs, self.headings(version))

    def changes(self, old: Version, new: Version) -> list[Change] | None:
        a, b = self.sections(old), self.sections(new)
        return None if a is None or b is None else diff(a, b)

    # --- cards --------------------------------------------------------------------------------
    @property
    def layout(self):
        if self._layout is None:
            from cardgen.layout.card import CardLayout
            self._layout = CardLayout(self.game, Problems())    # its problems are validate's to report
        return self._layout

    def card_picture(self, card_id: str, side: str, loc: Loc, problems: Problems) -> CardPicture | None:
        card = self.game.cards_by_id.get(card_id)
        if card is None:
            problems.error("RULEBOOK-CARD", f"unknown card id '{card_id}'", loc,
                           hint=did_you_mean(card_id, self.game.cards_by_id))
            return None
        ct = self.game.card_types[card.type]
        items = expand(self.layout.draw(card, side), self.layout.symbols)
        return CardPicture(items, ct.width, ct.height, self.game.print.bleed)

    def resolver(self) -> ImageResolver:
        schemes = {"card": lambda t, alt, loc, pr: self.card_picture(t.strip(), "front", loc, pr),
                   "card-back": lambda t, alt, loc, pr: self.card_picture(t.strip(), "back", loc, pr)}
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
        chs = self.chapters(version)
        if chs is None:
            return None
        chs = list(chs)
        extra = self._changes_chapter(version, len(chs))
        if extra is not None:
            chs.append(extra)
        heads = headings(chs)
        conv = Converter(st, self.problems, self.game.icons, self.resolver(), heads, spec.frame_w)
        conv.show_rules = self.designer
        out: list[Flowable] = []
        for ch in chs:
            if ch.options.get("new_page", True) or not out:
                out.append(PageBreak())
            out += conv.chapter(ch)
        return out

    def pdf(self, version: Version, half: bool = False) -> bytes | None:
        spec = self.page_spec(version, half)
        st = self.styles(version, spec)
        body = self.story(version, spec, st)
        if body is None or self.problems.has_errors:
            return None
        cover = []
        for i, cid in enumerate(version.meta.get("cover") or []):
            pic = self.card_picture(cid, "front", version.at("cover", i), self.problems)
            if pic is not None:
                cover.append(pic)
        if self.problems.has_errors:
            return None
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
        data, _placed = typeset(body, spec, st, meta, cover)
        self._stories.pop((version.version, spec.name), None)   # flowables are spent once laid out
        return data

    def check(self) -> None:
        """Everything short of typesetting: metadata, Jinja2, Markdown, links, tables, card ids."""
        for v in self.versions:
            spec = self.page_spec(v)
            self.story(v, spec, self.styles(v, spec))
            for i, cid in enumerate(v.meta.get("cover") or []):
                if cid not in self.game.cards_by_id:
                    self.problems.error("RULEBOOK-CARD", f"unknown card id '{cid}'", v.at("cover", i),
                                        hint=did_you_mean(cid, self.game.cards_by_id))

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
            designer = Rulebook(self.game, self.problems, self._layout, designer=True).pdf(cur)
            if designer is not None:
                out[DESIGNER_PDF] = designer
        if cur.meta.get("booklet") and not self.problems.has_errors:
            half = self.pdf(cur, half=True)
            if half is not None:
                ps = self.game.print
                out["rulebook-booklet.pdf"] = _booklet.impose(half, ps.page_w, ps.page_h)
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


__all__ = ["Rulebook", "build", "check", "register_image_scheme", "IMAGE_SCHEMES"]

"""cards.pdf and cards.json: every card at its quantity, imposed, with the manifest; with
``print: registration: silhouette``, a cut file per front sheet (cards-cut-<page>.svg).

What fitting the cards inside the printer's margin gave up is in cards.json's ``fit``, and cards
a sheet given up is a PRINT-FIT warning."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from cardgen.content.sheetfit import Fit, fit
from cardgen.core import sources
from cardgen.core.jsonout import dumps
from cardgen.core.problems import Loc, Problems
from cardgen.layout.cutfile import cut_page, registration_record
from cardgen.layout.errorcard import draft_mark
from cardgen.layout.foldsheet import fold_fit, fold_sheets
from cardgen.layout.imposition import Imposer, sheet_scenes, sheets
from cardgen.layout.streamed import Streamed
from cardgen.printables.cardmarks import ink_saver_back, number_tab, numbering
from cardgen.render.pdf import render_pages, used_symbols
from cardgen.render.pdfreuse import PageReuse
from cardgen.render.svg import render_page
from cardgen.scene import Document, Page, Rotate


def _head(laid) -> dict:
    """cards.json without its pages (their place kept, empty)."""
    game = laid.game
    ps = game.print
    manifest = {"game": game.slug, "units": "mm", "origin": "top-left, y down",
                "paper": ps.paper, "page_size": [ps.page_w, ps.page_h], "duplex": ps.duplex,
                "offset": list(ps.offset), "bleed": ps.bleed, "margin": ps.margin,
                "print_sources": dict(ps.origin), "fit": {}, "pages": []}
    if ps.registration != "none":
        manifest["registration"] = registration_record(ps.page_w, ps.page_h)
    return manifest


def _fitted(laid, sizes: list, problems: Problems | None) -> dict:
    """cards.json without its pages, with each size's fit (PRINT-FIT reported to ``problems``)."""
    manifest = _head(laid)
    for size, _, _, fitted in sizes:
        manifest["fit"][size] = fitted.record()
    if laid.draft:
        manifest["draft"] = True
    if problems is not None:
        report_fit(laid.game, manifest, problems)
    return manifest


def _sizes(laid, groups: dict) -> list[tuple[str, list, Any, Fit]]:
    """(card size, its placements, its first card type, its sheet fit) for each size printed."""
    game = laid.game
    out = []
    for size, placements in groups.items():
        ct = next(t for t in game.card_types.values() if t.size == size)
        fitted = (fold_fit if game.print.layout == "fold" else fit)(game.print, ct.width, ct.height, size)
        out.append((size, placements, ct, fitted))
    return out


def _pages(laid, sizes: list, release: bool = False,
           reuse: PageReuse | None = None) -> Iterator[tuple[Page, dict] | tuple[_Sheet, None]]:
    """Every sheet's front and back page with its manifest entry, imposed as they are asked
    for (``release``: each sheet's placements dropped once imposed); with ``reuse``, where a
    sheet's pages depend only on its cards, a :class:`_Sheet` (imposed only when drawn)."""
    ps = laid.game.print
    first = 1
    numbers = numbering(laid.game) if ps.card_numbers else {}
    for size, placements, ct, fitted in sizes:
        if ps.layout == "fold":         # one side: each card's front and back side by side, a fold line between
            for page, e in fold_sheets(placements, ct.width, ct.height, ps, fitted, first):
                page.items.extend(it for c in e["cards"] if c["id"] in numbers
                                  for it in number_tab(numbers[c["id"]], c["trim"], ps.safe))
                e["card_size"] = size
                first += 1
                yield page, e
            continue
        if reuse is not None and isinstance(placements, list) and ps.registration == "none" \
                and not ps.ink_saver:
            yield from _sheets(laid, (size, placements, ct, fitted), first, numbers, release, reuse)
            first += 2 * -(-len(placements) // fitted.grid.per_page)
            continue
        for front, back, fm, bm in sheets(placements, ct.width, ct.height, ps, first, fitted, release):
            for page, e in _finish(laid, size, numbers, fitted.grid.bleed, front, back, fm, bm):
                first += 1
                yield page, e


def _finish(laid, size: str, numbers: dict, bleed: float, front: Page, back: Page, fm: dict,
            bm: dict) -> list[tuple[Page, dict]]:
    """An imposed sheet's pages with their manifest entries, finished: the cards' numbers, the
    ink saver's backs, a draft's mark."""
    ps = laid.game.print
    for c in fm["cards"]:       # "23/60 · v1.0" on each front
        label = numbers.get(c["id"])
        if label:
            front.items.extend(number_tab(label, c["trim"], ps.safe))
    if ps.ink_saver:            # backs as a light tint with an outline, not full-bleed colour
        back.items = [it for c in bm["cards"] for it in _ink_saver(laid.game, c, bleed)]
    for page, e in ((front, fm), (back, bm)):
        e["card_size"] = size
        if laid.draft:
            mark = draft_mark(ps.page_h, [c["bleed_box"] for c in e["cards"]])
            if mark is not None:
                page.items.append(mark)
    return [(front, fm), (back, bm)]


class _Sheet:
    """A sheet of cards (:class:`cardgen.render.pdfreuse.Sheet`): imposed only when its pages are
    asked for; ``text``: its pages' records in cards.json, made with them or kept from the last
    build."""

    def __init__(self, laid, imposer: Imposer, chunk: list, page_no: int, size: str, numbers: dict,
                 sig: str) -> None:      # (no ink saver: its backs are not the placements')
        self.w, self.h = laid.game.print.page_w, laid.game.print.page_h
        self.sig = sig
        self.text: bytes | memoryview = b""
        self._make = (laid, imposer, chunk, page_no, size, numbers)

    def pages(self) -> list[Page]:
        laid, imposer, chunk, page_no, size, numbers = self._make
        done = _finish(laid, size, numbers, imposer.grid.bleed, *imposer.sheet(chunk, page_no))
        self.text = _records([e for _, e in done])
        return [page for page, _ in done]

    def records(self) -> bytes | memoryview:
        return self.text

    def reused(self, records: bytes | memoryview) -> None:
        self.text = records         # (a view of the last build's pack: not copied before the join)


def _sheets(laid, group: tuple, first: int, numbers: dict, release: bool,
            reuse: PageReuse) -> Iterator[tuple[_Sheet, None]]:
    """The sheets of one card size as :class:`_Sheet` s, each known by what its pages are made
    from: the size and its fit, the page number, and each card's id, name, copy, bleed, number
    and sides (by their digests)."""
    size, placements, ct, fitted = group
    imposer = Imposer(ct.width, ct.height, laid.game.print, fitted)
    per = imposer.per_page
    head = repr((size, ct.width, ct.height, fitted.grid, laid.draft))
    lines = reuse.card_lines(placements)
    for start in range(0, len(placements), per):
        chunk = placements[start:start + per]
        page_no = first + 2 * (start // per)
        sig = "\n".join([f"{head} {page_no}", *lines[start:start + per]])
        if numbers:             # (a card's line holds no line break: this one is the numbers')
            sig += "\n" + repr([numbers.get(pl.card_id) for pl in chunk])
        yield _Sheet(laid, imposer, chunk, page_no, size, numbers, sig), None
        if release:
            placements[start:start + len(chunk)] = [None] * len(chunk)


def _ink_saver(game, c: dict, bleed: float) -> list:
    card = game.cards_by_id.get(c["id"])
    ct = game.card_types.get(card.type) if card is not None else None
    kind = ct.name if ct is not None else c["name"]
    items = ink_saver_back(game.title, kind, c["trim"], bleed, game.colors.get("ink", "#1d1a16"))
    if game.print.duplex == "short":       # upside down, as every short-edge back (imposition.sheets)
        x, y, w, h = c["trim"]
        return [Rotate(x + w / 2, y + h / 2, 180.0, tuple(items))]
    return items


def _scenes(placements, per_page: int) -> Iterator[Sequence[Any]]:
    """The scenes the sheets place, in order, or (placements laid out as the sheets take them)
    the forms they place, for the forms' order."""
    if isinstance(placements, Streamed):
        return placements.symbol_scenes(per_page)
    return sheet_scenes(placements, per_page)


def build(laid, groups: dict | None = None, stem: str = "cards", problems: Problems | None = None,
          release: bool = False, reuse: PageReuse | None = None, **_opts) -> dict[str, bytes]:
    """cards.pdf, cards.json (and cut files), sheet by sheet: each sheet is imposed, drawn and
    written into the manifest before the next is made. ``release``: this is the last use of
    ``laid.groups`` (a command-line build) — the placements are handed over and each sheet's
    laid-out scenes are freed once the sheet is drawn (peak memory), ``laid.groups`` left empty.
    ``reuse``: the last build's pages (``layout.pagecache``), written again where unchanged."""
    if release and groups is None:
        groups, laid.groups = laid.groups, {}
    sizes = _sizes(laid, laid.groups if groups is None else groups)
    groups = None
    game = laid.game
    manifest = _fitted(laid, sizes, problems)
    doc = Document(f"{game.title} — cards", subject="card sheets")
    doc.symbols.update(laid.layout.symbols)
    used = used_symbols(doc.symbols, (scene for _, placements, _, fitted in sizes
                                      for scene in _scenes(placements, fitted.grid.per_page)))
    # cards.json's page records, as text, a batch at a time, or a sheet's (its text once written:
    # the sheets of a run are asked for before the first is written)
    entries: list[bytes | memoryview | _Sheet] = []
    batch: list[dict] = []
    cuts: dict[str, bytes] = {}

    def pages() -> Iterator[Page | _Sheet]:
        for page, entry in _pages(laid, sizes, release, reuse):
            if entry is None:           # a sheet: its records made with its pages, or kept with them
                if batch:
                    entries.append(_records(batch))
                entries.append(page)        # type: ignore[arg-type]
                yield page
                continue
            if game.print.registration != "none" and entry["side"] == "front":
                entry["cut_file"] = name = f"{stem}-cut-{entry['page']}.svg"
                cuts[name] = render_page(*cut_page(game.print.page_w, game.print.page_h,
                                                   [c["trim"] for c in entry["cards"]],
                                                   f"{game.title} — cut lines of {stem}.pdf page {entry['page']}"))
            batch.append(entry)
            if len(batch) >= BATCH:
                entries.append(_records(batch))
            yield page
        if batch:
            entries.append(_records(batch))
        if reuse is None:       # joined before the PDF file is formatted (with sheets: after, as
            joined.append(_manifest(manifest, entries))     # the last run's are not written yet)
            entries.clear()
    joined: list[bytes] = []
    pdf = render_pages(doc, pages(), used, release=True, reuse=reuse)
    if not joined:
        joined.append(_manifest(manifest, entries))
    return {f"{stem}.pdf": pdf, f"{stem}.json": joined[0], **cuts}


BATCH = 200         # page records written to text together (dumps' memos of shared boxes per call)
ONE_LINE = 4        # cards.json's depth written one per line: the top, "pages", a page, its "cards", a card


def _records(batch: list[dict]) -> bytes:
    """The text of page records as they stand in cards.json's ``pages`` (one level deeper than
    in a list of their own: a space more after each line break); ``batch`` emptied."""
    text = dumps(batch, indent=1, inline=ONE_LINE - 1)     # "[\n {…},\n {…}\n]"
    batch.clear()
    return text[1:-2].replace("\n", "\n ").encode("utf-8")


def _manifest(manifest: dict, records: list[bytes | memoryview | _Sheet]) -> bytes:
    """cards.json: ``manifest`` (its pages left empty) with the pages' ``records`` (batches of
    :func:`_records`, or the sheets whose records they are) in place: the text ``dumps`` writes
    for the whole."""
    text = dumps(manifest, indent=1, inline=ONE_LINE) + "\n"
    if not records:
        return text.encode("utf-8")
    at = text.index(_PAGES) + len(_PAGES) - 1
    pages = b",".join([r.text if isinstance(r, _Sheet) else r for r in records])
    return b"".join([text[:at].encode("utf-8"), pages, f"\n ]{text[at + 1:]}".encode()])


_PAGES = '\n "pages": []'   # where the pages' records go (a top-level key: no string holds a newline)


def report_fit(game, manifest: dict, problems: Problems) -> None:
    """PRINT-FIT warning at game.yaml's print settings for cards a sheet given up to the margins.
    A bleed narrowed (never under the 1 mm floor) is only recorded in cards.json's ``fit``: the
    cards keep their full bleed in exports and proofs, and every A4 poker sheet narrows it, so
    saying so on each build would be noise."""
    loc = print_loc(game.game_file)
    hint = None if game.print.registration != "none" else \
        f"if your printer prints closer to the edge than {game.print.margin:g} mm, set print.margin to its margin"
    for record in manifest["fit"].values():
        for given in record["given_up"]:
            if given["what"] == "cards":
                problems.warning("PRINT-FIT", given["message"], loc, hint=hint)


def print_loc(game_file: Path) -> Loc:
    """Where game.yaml's ``print:`` settings start (line 1 if it cannot tell)."""
    try:
        lines = sources.read_bytes(game_file).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    line = next((i for i, text in enumerate(lines, 1) if text.startswith("print:")), 1)
    return Loc(str(game_file), line, 1)

"""cards.pdf and cards.json: every card at its quantity, imposed, with the manifest; with
``print: registration: silhouette``, a cut file per front sheet (cards-cut-<page>.svg).

What fitting the cards inside the printer's margin gave up is in cards.json's ``fit``, and cards
a sheet given up is a PRINT-FIT warning."""

from __future__ import annotations

from pathlib import Path

from cardgen.content.sheetfit import fit
from cardgen.core import sources
from cardgen.core.jsonout import dumps
from cardgen.core.problems import Loc, Problems
from cardgen.layout.cutfile import cut_page, registration_record
from cardgen.layout.errorcard import draft_mark
from cardgen.layout.imposition import impose
from cardgen.render.pdf import render
from cardgen.render.svg import render_page
from cardgen.scene import Document


def document(laid, groups: dict | None = None) -> tuple[Document, dict]:
    """The imposed sheets of ``groups`` (default: every card of the game) and the manifest.
    A draft build marks every sheet DRAFT outside the cards."""
    game = laid.game
    ps = game.print
    doc = Document(f"{game.title} — cards", subject="card sheets")
    manifest = {"game": game.slug, "units": "mm", "origin": "top-left, y down",
                "paper": ps.paper, "page_size": [ps.page_w, ps.page_h], "duplex": ps.duplex,
                "offset": list(ps.offset), "bleed": ps.bleed, "margin": ps.margin, "fit": {}, "pages": []}
    if ps.registration != "none":
        manifest["registration"] = registration_record(ps.page_w, ps.page_h)
    for size, placements in (laid.groups if groups is None else groups).items():
        ct = next(t for t in game.card_types.values() if t.size == size)
        fitted = fit(ps, ct.width, ct.height, size)
        manifest["fit"][size] = fitted.record()
        pages, entries = impose(placements, ct.width, ct.height, ps, first_page=len(doc.pages) + 1, fitted=fitted)
        for e in entries:
            e["card_size"] = size
        if laid.draft:
            for page, e in zip(pages, entries):
                mark = draft_mark(ps.page_h, [c["bleed_box"] for c in e["cards"]])
                if mark is not None:
                    page.items.append(mark)
        doc.pages += pages
        manifest["pages"] += entries
    doc.symbols.update(laid.layout.symbols)
    return doc, manifest


def build(laid, groups: dict | None = None, stem: str = "cards", problems: Problems | None = None,
          release: bool = False, **_opts) -> dict[str, bytes]:
    """cards.pdf, cards.json (and cut files). ``release``: this is the last use of
    ``laid.groups`` (a command-line build) — the placements are handed over and each sheet's
    laid-out scenes are freed once the sheet is drawn (peak memory), ``laid.groups`` left empty."""
    if release and groups is None:
        groups, laid.groups = laid.groups, {}
    doc, manifest = document(laid, groups)
    groups = None
    if laid.draft:
        manifest["draft"] = True
    if problems is not None:
        report_fit(laid.game, manifest, problems)
    files = {}
    ps = laid.game.print
    if ps.registration != "none":
        for entry in manifest["pages"]:
            if entry["side"] == "front":
                entry["cut_file"] = name = f"{stem}-cut-{entry['page']}.svg"
                files[name] = render_page(*cut_page(ps.page_w, ps.page_h, [c["trim"] for c in entry["cards"]],
                                      f"{laid.game.title} — cut lines of {stem}.pdf page {entry['page']}"))
    text = dumps(manifest, indent=1)
    text += "\n"
    data = text.encode("utf-8")     # the manifest as bytes before drawing: its records are freed
    del text, manifest              # first, and their memory is what the drawing reuses
    return {f"{stem}.pdf": render(doc, release=release), f"{stem}.json": data, **files}


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

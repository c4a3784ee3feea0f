"""cards.pdf and cards.json: every card at its quantity, imposed, with the manifest."""

from __future__ import annotations

from ..errorcard import draft_mark
from ..imposition import impose
from ..jsonout import dumps
from ..render_pdf import render
from ..scene import Document


def document(laid, groups: dict | None = None) -> tuple[Document, dict]:
    """The imposed sheets of ``groups`` (default: every card of the game) and the manifest.
    A draft build marks every sheet DRAFT outside the cards."""
    game = laid.game
    ps = game.print
    doc = Document(f"{game.title} — cards", subject="card sheets")
    manifest = {"game": game.slug, "units": "mm", "origin": "top-left, y down",
                "paper": ps.paper, "page_size": [ps.page_w, ps.page_h], "duplex": ps.duplex,
                "offset": list(ps.offset), "bleed": ps.bleed, "pages": []}
    for size, placements in (laid.groups if groups is None else groups).items():
        ct = next(t for t in game.card_types.values() if t.size == size)
        pages, entries = impose(placements, ct.width, ct.height, ps, first_page=len(doc.pages) + 1)
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


def build(laid, groups: dict | None = None, stem: str = "cards", **_opts) -> dict[str, bytes]:
    doc, manifest = document(laid, groups)
    if laid.draft:
        manifest["draft"] = True
    return {f"{stem}.pdf": render(doc),
            f"{stem}.json": (dumps(manifest, indent=1) + "\n").encode("utf-8")}

"""cards.pdf and cards.json: every card at its quantity, imposed, with the manifest."""

from __future__ import annotations

import json

from ..imposition import impose
from ..render_pdf import render
from ..scene import Document


def document(laid) -> tuple[Document, dict]:
    game = laid.game
    ps = game.print
    doc = Document(f"{game.title} — cards", subject="card sheets")
    manifest = {"game": game.slug, "units": "mm", "origin": "top-left, y down",
                "paper": ps.paper, "page_size": [ps.page_w, ps.page_h], "duplex": ps.duplex,
                "offset": list(ps.offset), "bleed": ps.bleed, "pages": []}
    for size, placements in laid.groups.items():
        ct = next(t for t in game.card_types.values() if t.size == size)
        pages, entries = impose(placements, ct.width, ct.height, ps, first_page=len(doc.pages) + 1)
        for e in entries:
            e["card_size"] = size
        doc.pages += pages
        manifest["pages"] += entries
    doc.symbols.update(laid.layout.symbols)
    return doc, manifest


def build(laid, **_opts) -> dict[str, bytes]:
    doc, manifest = document(laid)
    return {"cards.pdf": render(doc),
            "cards.json": (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode("utf-8")}

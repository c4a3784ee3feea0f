"""The card sheets' pages reused from the last build (layout.pagecache, render.pdfreuse): an
edit re-draws the pages it touches, and the file is byte for byte a clean build's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image as PILImage

from cardgen.builder.pipeline import lay_out
from cardgen.cli import main
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.layout.cachestore import Store
from cardgen.layout.scenecodec import encode
from cardgen.render.pdf import render_pages, used_symbols
from cardgen.scene import Deferred, Document, Image, Link, Page, Rect, Symbol, Text, Use, uses_of

SLUG = "bone_wars"
FILE = "cards/bone_wars/limbs.yaml"


def build(root: Path, out: Path, cache: str = "debug") -> tuple[int, str]:
    res = CliRunner().invoke(main, ["--root", str(root), "build", SLUG, "--out", str(out)],
                             env={"CARDGEN_CACHE": cache})
    return res.exit_code, res.stderr


def pages_line(log: str) -> tuple[int, int]:
    """(pages reused, pages looked for) as CARDGEN_CACHE=debug tells them."""
    line = next(ln for ln in log.splitlines() if ln.startswith("cache ") and ln.endswith(" pages"))
    words = line.split()
    return int(words[2]), int(words[4])


@pytest.fixture
def project(game_copy):
    return game_copy(SLUG).only("cards")


@pytest.mark.parametrize(("new", "some"), [("Sickle Claws II", True), ("Ωmega Sickle Claws", False)],
                         ids=["codes unchanged", "a character new to the document"])
def test_an_edit_reuses_unchanged_pages_and_equals_a_clean_build(project, tmp_path, new, some):
    """A new character takes a code, which every later page's state differs by: none reused."""
    out = tmp_path / "out"
    code, log = build(project.root, out)
    assert code == 0
    before = (out / SLUG / "cards.pdf").read_bytes()
    project.edit(FILE, "Sickle Claws", new)
    code, log = build(project.root, out)
    assert code == 0
    reused, pages = pages_line(log)
    assert (0 < reused < pages) if some else reused == 0, log     # the pages showing the card: drawn
    clean = tmp_path / "clean"
    assert build(project.root, clean, cache="off")[0] == 0
    for name in ("cards.pdf", "cards.json"):
        assert (out / SLUG / name).read_bytes() == (clean / SLUG / name).read_bytes(), name
    assert (out / SLUG / "cards.pdf").read_bytes() != before
    project.edit(FILE, new, "Sickle Claws")          # and back: the first build's bytes again
    assert build(project.root, out)[0] == 0
    assert (out / SLUG / "cards.pdf").read_bytes() == before


class Pages:
    """A PageReuse over a dictionary (the render side alone)."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple] = {}
        self.now: dict[str, tuple] = {}
        self.hits = 0

    def key(self, page: Page, state: str) -> str | None:
        return repr((page.w, page.h, page.items, state))

    def get(self, key: str):
        hit = self.kept.get(key)
        self.hits += hit is not None
        return hit

    def put(self, key: str, stream: bytes, forms: list[str], codes: list[list[str]]) -> None:
        self.now[key] = (stream, forms, codes)

    def next(self) -> Pages:
        p = Pages()
        p.kept = self.now
        return p


def document(texts: list[str], icon: str) -> tuple[Document, list[Page]]:
    doc = Document("t")
    doc.symbols["frame"] = Symbol("frame", 20, 20, [Rect(1, 1, 18, 18, fill="#335577")])
    pages = []
    for i, t in enumerate(texts):
        items = [Use("frame", 5, 5), Text(10, 40, t, "LiberationSans-Regular", 9, "#000000")]
        if i % 3 == 1:
            items.append(Image(icon, 30, 30, 10, 10))
        if i == 4:
            items.append(Link(f"p{i}", 0, 0))
        pages.append(Page(100, 100, items))
    return doc, pages


def render(texts: list[str], icon: str, reuse: Pages | None) -> bytes:
    doc, pages = document(texts, icon)
    return render_pages(doc, pages, used_symbols(doc.symbols, [p.items for p in pages]), reuse=reuse)


def test_pages_written_again_are_the_pages_drawn(tmp_path):
    """Pages placing a picture, a link, characters met first or again: rendered with the last
    render's pages equals rendered from nothing, edit by edit; a page that changed the document
    beyond its codes (the picture's first page, the link's) is drawn every time."""
    pics = [tmp_path / "icon.png"]
    PILImage.new("RGB", (8, 8), (200, 40, 40)).save(pics[0])
    texts = ["Alpha", "Beta", "Gämma", "Delta", "Epsilon", "Zeta", "Eta", "Theta"]
    pages = Pages()
    first = render(texts, str(pics[0]), pages)
    pages = pages.next()
    assert render(texts, str(pics[0]), pages) == first
    assert pages.hits == len(texts) - 3          # the first page (fonts), the picture's first, the link's
    edits = {0: "Ålpha", 6: "Etaö", 3: "Deltaß", 7: "Thetä"}    # codes given before them replayed
    now = list(texts)
    for at, text in [*edits.items(), (0, "Alpha")]:
        now[at] = text
        pages = pages.next()
        assert render(now, str(pics[0]), pages) == render(now, str(pics[0]), None), now
        assert pages.hits or at == 0      # (a new character on the first page: every state after differs)


def test_the_card_sides_of_the_last_lay_out_are_read_from_one_file(game_copy, tmp_path):
    """layout.cachepack: a lay-out reads the sides of the last one from its pack (their own files
    gone: all hits); a pack that fails its check is as no pack (the sides drawn anew, the same)."""
    project = game_copy(SLUG)
    folder = tmp_path / "cache"

    def sides() -> tuple[Store, list]:
        store = Store(folder)
        laid = lay_out(load_game(project.root, SLUG, Problems()), Problems(), store=store)
        return store, [encode(p.front) + encode(p.back) for ps in laid.groups.values() for p in ps]

    first_store, first = sides()
    assert first_store.misses and not first_store.hits
    packs = list((folder / "layout").rglob("*.bin"))
    assert len(packs) == 1
    for p in (folder / "layout").rglob("*.json"):
        p.unlink()
    store, again = sides()
    assert again == first and store.hits and not store.misses
    data = packs[0].read_bytes()
    packs[0].write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    store, anew = sides()
    assert anew == first and store.misses and not store.hits


def test_card_sides_from_the_cache_are_decoded_when_read(game_copy, tmp_path):
    """scene.Deferred: a lay-out's card sides from the cache are decoded when first read, to what
    drawing them gives; the forms they place are known without decoding them (render.pdf's
    used_symbols gives the same order); no list, so JSON of one fails instead of being empty."""
    project = game_copy(SLUG)
    store = Store(tmp_path / "cache")
    game = load_game(project.root, SLUG, Problems())
    drawn = lay_out(game, Problems(), store=store)
    laid = lay_out(load_game(project.root, SLUG, Problems()), Problems(), store=Store(tmp_path / "cache"))
    sides = [s for ps in laid.groups.values() for p in ps for s in (p.front, p.back)]
    deferred = [s for s in sides if isinstance(s, Deferred)]
    assert deferred and all(s._items is None for s in deferred)
    order = used_symbols(laid.layout.symbols, sides)
    assert all(s._items is None for s in deferred)          # the forms' order read no side
    assert order == used_symbols(drawn.layout.symbols, [s for ps in drawn.groups.values() for p in ps
                                                        for s in (p.front, p.back)])
    assert [encode(s) for s in sides] == [encode(s) for ps in drawn.groups.values() for p in ps
                                          for s in (p.front, p.back)]
    assert all(len(s) == len(s.decoded()) and s.uses == uses_of(s.decoded()) for s in deferred)
    with pytest.raises(TypeError):
        json.dumps(deferred[0])

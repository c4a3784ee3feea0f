"""Every kind of edit, built with the cache after a cached build, writes what a clean build of the
edited sources writes, byte for byte: a card's text, its deck entry (its copies), its template, the
art it shows, a param it prints, the game's fonts, and the code (the per-card key and the pages'
keys follow each; a key that ignored one would keep the old look, and these builds would differ)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image as PILImage

from cardgen.cli import main
from cardgen.layout import cache as cachemod
from cardgen.layout.cachestore import Store

GAME = Path(__file__).resolve().parent.parent / "bench" / "game"
CARDS = "cards/bench/cards.yaml"
FRONT = "templates/bench/front.yaml"
COLORS = ["#8b1e3f", "#1e5a8b", "#2e7d32"]


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(GAME, root)
    PILImage.new("RGB", (8, 8), "#336699").save(root / "templates" / "bench" / "icon.png")
    (root / "rules" / "bench" / "params.yaml").write_text("bonus: 3\n", encoding="utf-8")
    game = root / "rules" / "bench" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "fonts: {regular: LiberationSans-Regular, "
                    "bold: LiberationSans-Bold}\n", encoding="utf-8")
    front = root / FRONT
    bonus = ('  bonus: {kind: text, x: 6mm, y: 74mm, w: 20mm, h: 4mm, text: "+{{ params.bonus }}", '
             'size: 6, min_size: 6}\n')
    front.write_text(front.read_text(encoding="utf-8") + bonus, encoding="utf-8")
    rows = ["defaults: {type: card}", "cards:"]
    for i in range(1, 31):          # 30 cards: four sheets
        rows.append(f'  - {{id: "{i}", name: "Card {i}", atk: {i % 9}, def: {i % 7}, cost: {i % 5}, '
                    f'rules: "Rules of card {i}: draw a card.", color: "{COLORS[i % 3]}"}}')
    (root / "cards" / "bench").mkdir(parents=True)
    (root / CARDS).write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def build(root: Path, out: Path, cache: str = "on") -> None:
    res = CliRunner().invoke(main, ["--root", str(root), "build", "bench", "--out", str(out)],
                             env={"CARDGEN_CACHE": cache})
    assert res.exit_code == 0, res.output


def outputs(out: Path) -> dict[str, bytes]:
    return {n: (out / "bench" / n).read_bytes() for n in ("cards.pdf", "cards.json")}


def edit(root: Path, rel: str, old: str, new: str) -> None:
    p = root / rel
    text = p.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


def art(root: Path) -> None:
    PILImage.new("RGB", (8, 8), "#993366").save(root / "templates" / "bench" / "icon.png")


EDITS = {
    "a card's text": lambda r: edit(r, CARDS, "Rules of card 14:", "Rules of card fourteen:"),
    "a card's name": lambda r: edit(r, CARDS, 'name: "Card 22"', 'name: "Card Twenty-two"'),
    "its deck entry": lambda r: edit(r, CARDS, 'id: "5",', 'id: "5", copies: 2,'),
    "its template": lambda r: edit(r, FRONT, 'fill: "#edede6"', 'fill: "#e6edee"'),
    "the art it shows": art,
    "a param it prints": lambda r: edit(r, "rules/bench/params.yaml", "bonus: 3", "bonus: 4"),
    "the game's fonts": lambda r: edit(r, "rules/bench/game.yaml", "regular: LiberationSans-Regular",
                                       "regular: LiberationSerif-Regular"),
}


@pytest.mark.parametrize("kind", list(EDITS))
def test_an_edit_built_with_the_cache_is_a_clean_build_of_it(tmp_path, kind):
    root = project(tmp_path)
    out, clean = tmp_path / "out", tmp_path / "clean"
    build(root, out)
    before = outputs(out)
    EDITS[kind](root)
    build(root, out)
    build(root, clean, cache="off")
    after = outputs(out)
    assert after == outputs(clean)
    assert after["cards.pdf"] != before["cards.pdf"]          # the edit shows


def test_new_code_lays_every_card_out_again(tmp_path, monkeypatch):
    """The code is in every card's key: a cache made by other code is not used for the cards (the
    build misses what a first build misses)."""
    root = project(tmp_path)
    out = tmp_path / "out"
    seen: list[tuple[int, int]] = []
    real = Store.note

    def note(self: Store, kind: str, hit: bool, what: str = "") -> None:
        seen.append((self.hits, self.misses))
        real(self, kind, hit, what)
    monkeypatch.setattr(Store, "note", note)
    build(root, out)
    first = seen[-1]
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")
    build(root, out)
    assert seen[-1][0] > 0                  # the same code: the unchanged cards come from the cache
    edit(root, CARDS, "Rules of card fourteen:", "Rules of card 14:")
    real_print = cachemod.code_fingerprint
    monkeypatch.setattr(cachemod, "code_fingerprint", lambda *a: "other code " + real_print(*a))
    build(root, out)
    assert seen[-1] == first and first[0] == 0 and first[1] >= 30, (first, seen[-1])


def test_edit_after_edit_is_a_clean_build_of_each(tmp_path):
    """The cards an edit's build kept (as their memo's text, never decoded) are kept again by the
    next edit's: each build, edit after edit, is a clean build's bytes."""
    root = project(tmp_path)
    out = tmp_path / "out"
    build(root, out)
    for k, kind in enumerate(["a card's text", "a card's name", "its deck entry", "a param it prints"]):
        EDITS[kind](root)
        build(root, out)
        build(root, tmp_path / f"clean{k}", cache="off")
        assert outputs(out) == outputs(tmp_path / f"clean{k}"), kind

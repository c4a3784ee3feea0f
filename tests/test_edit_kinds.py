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
from cardgen.layout import siderun
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


# -- the kept cards' sides restored by runs (layout.siderun): the deck's order, a card added before
# every run or removed, a damaged cache — each a clean build's bytes; the runs an edit did not touch
# taken whole (a run keyed by less than its cards' values in order would give the old sides)

@pytest.fixture
def taken(monkeypatch) -> list[int]:
    """Runs of 4 cards (the 30 cards: eight runs); each lay-out's sides taken from runs."""
    monkeypatch.setattr(siderun, "RUN", 4)
    seen: list[int] = []
    real = siderun.Runs.keep

    def keep(self: siderun.Runs) -> None:
        seen.append(self.hits)
        real(self)
    monkeypatch.setattr(siderun.Runs, "keep", keep)
    return seen


def line(i: int) -> str:
    return f'  - {{id: "{i}", name: "Card {i}",'


def move(root: Path, i: int, after: int) -> None:
    """Card ``i``'s line moved after card ``after``'s (its lines unchanged: the card memo keeps it)."""
    p = root / CARDS
    rows = p.read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(r for r in rows if r.startswith(line(i)))
    rows.remove(row)
    at = next(k for k, r in enumerate(rows) if r.startswith(line(after)))
    rows.insert(at + 1, row)
    p.write_text("".join(rows), encoding="utf-8")


def check(root: Path, out: Path, clean: Path) -> None:
    build(root, out)
    build(root, clean, cache="off")
    assert outputs(out) == outputs(clean)


def test_runs_untouched_by_an_edit_are_taken_whole(tmp_path, taken):
    root = project(tmp_path)
    out = tmp_path / "out"
    build(root, out)                # (every card parsed: the runs kept from their values)
    assert taken == [0]
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")
    check(root, out, tmp_path / "clean1")
    assert taken[-1] == 26          # all but card 14's run (13–16)
    edit(root, CARDS, 'name: "Card 2"', 'name: "Card Two"')
    check(root, out, tmp_path / "clean2")
    # card 2's run laid out card by card; card 14's taken, but card 14's side from its own file (the
    # pack holds the sides of the build before the last, with a few since beside it)
    assert taken[-1] == 26 - 1


def change_deck(root: Path, change: str) -> None:
    """The deck changed: a card ``"added first"``, card 6 ``"removed"``, or card 9's ``"copies"``."""
    if change == "added first":
        edit(root, CARDS, "cards:\n", 'cards:\n  - {id: "0", name: "Card 0", atk: 1, def: 2, cost: 3, '
                                      'rules: "New.", color: "#8b1e3f"}\n')
    elif change == "removed":
        p = root / CARDS
        p.write_text("".join(r for r in p.read_text(encoding="utf-8").splitlines(keepends=True)
                             if not r.startswith(line(6))), encoding="utf-8")
    else:
        assert change == "copies", change
        edit(root, CARDS, 'id: "9",', 'id: "9", copies: 3,')


@pytest.mark.parametrize("change", ["order", "added first", "removed", "copies"])
def test_the_deck_changed_is_a_clean_build(tmp_path, taken, change):
    """The cards moved (kept by the card memo, their values unchanged): runs keyed by their cards
    in order miss where the order changed and are laid out card by card."""
    root = project(tmp_path)
    out = tmp_path / "out"
    build(root, out)
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")      # (the runs kept as text)
    build(root, out)
    if change == "order":
        move(root, 3, 10)
        move(root, 21, 22)
    else:
        change_deck(root, change)
    check(root, out, tmp_path / "clean")
    if change in ("order", "copies"):       # (the runs before the change, or beside it, taken)
        assert taken[-1] > 0
    elif change == "added first":
        assert taken[-1] == 0
    edit(root, CARDS, "Rules of card 27:", "Rules of card twenty-seven:")      # and the next edit
    check(root, out, tmp_path / "clean2")


def damaged(tmp_path: Path, cache: str) -> tuple[Path, Path]:
    """A project built, edited and built again, then one byte flipped in every file of its
    ``cache`` (each entry, pack and run), and a card edited: its root and output folder."""
    root = project(tmp_path)
    out = tmp_path / "out"
    build(root, out)
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")
    build(root, out)
    for f in (out / ".cache" / cache).rglob("*"):
        if f.is_file():
            data = bytearray(f.read_bytes())
            data[len(data) // 2] ^= 0x5A
            f.write_bytes(bytes(data))
    edit(root, CARDS, "Rules of card 27:", "Rules of card twenty-seven:")
    return root, out


def test_a_damaged_lay_out_cache_is_a_miss(tmp_path, taken):
    root, out = damaged(tmp_path, "layout")
    check(root, out, tmp_path / "clean")
    assert taken[-1] == 0


def test_a_run_entry_not_as_written_is_not_taken(tmp_path, taken, monkeypatch):
    """A run's entry with its sides' keys cut short (a hash-consistent entry of another shape) is a
    miss: its cards are laid out one by one."""
    root = project(tmp_path)
    out = tmp_path / "out"
    real = siderun.Pack.put

    def put(self, key, head, parts):
        if key.startswith(siderun.PREFIX):
            head = {**head, "keys": head["keys"][:-1]}
        real(self, key, head, parts)
    monkeypatch.setattr(siderun.Pack, "put", put)
    build(root, out)
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")
    build(root, out)
    edit(root, CARDS, "Rules of card 27:", "Rules of card twenty-seven:")
    check(root, out, tmp_path / "clean")
    assert taken[-1] == 0

"""Runs of card sheets written again whole (render.pdfreuse ``sheets``, layout.pagecache's runs):
the sheets an edit did not touch are placed a run at a time under one key — the state where the
run starts and its sheets' signatures in order — and the file is byte for byte a clean build's
after every kind of change (a card's text, a card added before every run or removed, which moves
every later card's sheet, copies changed, the cards' order, a damaged or hand-made cache)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.layout.pagecache import PageCache
from cardgen.render import pdfreuse
from tests.test_edit_kinds import CARDS, EDITS, build, change_deck, damaged, edit, move, outputs, project


@pytest.fixture
def alone(monkeypatch) -> list[int]:
    """Runs of 2 sheets (the 30 cards' four sheets: two runs); how many sheets each build wrote
    one by one (not as part of a run placed whole)."""
    monkeypatch.setattr(pdfreuse, "RUN", 2)
    seen = [0]
    real = pdfreuse.sheet

    def sheet(*args, **kw):
        seen[-1] += 1
        return real(*args, **kw)
    monkeypatch.setattr(pdfreuse, "sheet", sheet)
    return seen


def built(root: Path, out: Path, alone: list[int]) -> int:
    """``root`` built with the cache into ``out``: the sheets it wrote one by one."""
    alone.append(0)
    build(root, out)
    return alone[-1]


def clean(root: Path, out: Path, tmp_path: Path, name: str) -> None:
    build(root, tmp_path / name, cache="off")
    assert outputs(out) == outputs(tmp_path / name), name


def test_runs_an_edit_did_not_touch_are_placed_whole(tmp_path, alone):
    root = project(tmp_path)
    out = tmp_path / "out"
    # the runs: sheet 1 alone (its first page names the fonts: never kept whole), 2–3, 4
    assert built(root, out, alone) == 4             # the first build: every sheet drawn
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")       # sheet 2
    assert built(root, out, alone) == 1 + 2         # sheet 4's run placed whole
    clean(root, out, tmp_path, "clean1")
    edit(root, CARDS, "Rules of card 29:", "Rules of card twenty-nine:")    # sheet 4
    assert built(root, out, alone) == 1 + 1         # 2–3 placed whole: it was kept sheet by sheet
    clean(root, out, tmp_path, "clean2")
    edit(root, CARDS, "Rules of card twenty-nine:", "Rules of card 29:")    # undone: edit 1's files
    assert built(root, out, alone) == 0
    clean(root, out, tmp_path, "clean3")
    build(root, out)                                # up to date
    assert outputs(out) == outputs(tmp_path / "clean3")


@pytest.mark.parametrize("change", ["order", "added first", "removed", "copies", "a new character", *EDITS])
def test_every_change_is_a_clean_build(tmp_path, alone, change):
    root = project(tmp_path)
    out = tmp_path / "out"
    build(root, out)
    edit(root, CARDS, "Rules of card 29:", "Rules of card vingt-neuf, épée:")     # (its own codes)
    build(root, out)
    if change == "order":
        move(root, 3, 10)
    elif change in ("added first", "removed", "copies"):   # (added first: every card's sheet moves)
        change_deck(root, change)
    elif change == "a new character":   # its code moves every later character's: no later run kept
        edit(root, CARDS, "Rules of card 14:", "Rules of card größte 14:")
    else:
        EDITS[change](root)
    n = built(root, out, alone)
    clean(root, out, tmp_path, "clean")
    if change in ("added first", "removed", "copies", "its deck entry", "a new character"):
        assert n == 4
    elif change in ("order", "a card's name", "a card's text"):
        assert n < 4, change                        # sheet 4 (or 2–3) placed whole
    edit(root, CARDS, "Rules of card 27:", "Rules of card twenty-seven:")      # and the next edit
    built(root, out, alone)
    clean(root, out, tmp_path, "clean2")


def test_a_damaged_pages_cache_is_a_miss(tmp_path, alone):
    root, out = damaged(tmp_path, "pages")
    assert built(root, out, alone) == 4
    clean(root, out, tmp_path, "clean")


@pytest.mark.parametrize("shape", ["a sheet missing", "a sheet short", "not a list"])
def test_a_run_entry_not_as_written_is_not_placed(tmp_path, alone, monkeypatch, shape):
    """A run naming a sheet the pack lacks, fewer sheets than it has, or of another shape (hash-
    consistent entries): its sheets are looked up one by one, as without runs."""
    root = project(tmp_path)
    out = tmp_path / "out"
    real = PageCache.put_run

    def put_run(self, key, sheets):
        bad = {"a sheet missing": [*sheets[:-1], "s" + "0" * 64], "a sheet short": sheets[:-1],
               "not a list": "s" + "0" * 64}[shape]
        real(self, key, bad)
    monkeypatch.setattr(PageCache, "put_run", put_run)
    build(root, out)
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")
    assert built(root, out, alone) == 4
    clean(root, out, tmp_path, "clean")


def test_a_card_added_last_renumbers_every_sheet(tmp_path, alone):
    """With the cards numbered ("23/60"), a card added at the end changes every front's number:
    no sheet is the last build's (a sheet known without its cards' numbers would keep the old)."""
    root = project(tmp_path)
    edit(root, "rules/bench/game.yaml", "card_numbers: false", "card_numbers: true")
    out = tmp_path / "out"
    build(root, out)
    edit(root, CARDS, "Rules of card 14:", "Rules of card fourteen:")
    build(root, out)
    p = root / CARDS
    p.write_text(p.read_text(encoding="utf-8") + '  - {id: "31", name: "Card 31", atk: 1, def: 2, cost: 3, '
                 'rules: "New.", color: "#8b1e3f"}\n', encoding="utf-8")
    assert built(root, out, alone) == 4
    clean(root, out, tmp_path, "clean")

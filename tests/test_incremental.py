"""The build cache: a rebuild redoes only what changed, and its outputs are byte-identical to a
clean build's; a deleted or corrupt cache only costs time."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.layout.cachestore import Store

SLUG = "bone_wars"


def build(root: Path, out: Path, *args: str, cache: str = "debug") -> tuple[int, str]:
    env = {"CARDGEN_CACHE": cache}
    res = CliRunner().invoke(main, ["--root", str(root), "build", SLUG, "--out", str(out), *args], env=env)
    return res.exit_code, res.stderr


def outputs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / SLUG).rglob("*")) if p.is_file()}


@pytest.fixture
def project(game_copy):
    return game_copy(SLUG)


def hits(log: str) -> set[str]:
    return {ln.split()[-1] for ln in log.splitlines() if ln.startswith("cache hit")}


def misses(log: str) -> set[str]:
    return {ln.split()[-1] for ln in log.splitlines() if ln.startswith("cache miss")}


def test_a_one_card_edit_rebuilds_its_sheets_only_and_equals_a_clean_build(project, tmp_path):
    """(Also the cache-off build: it writes no cache folder.)"""
    out = tmp_path / "out"
    assert build(project.root, out)[0] == 0

    # a field the rulebook never prints: the fossil line of a card it does not picture
    text = project.path("cards/bone_wars/tails.yaml").read_text(encoding="utf-8")
    fossil = text.split('fossil: "', 2)[2].split('"', 1)[0]
    project.edit("cards/bone_wars/tails.yaml", fossil, fossil + " (cast)")
    code, log = build(project.root, out)
    assert code == 0
    assert "cards" in misses(log) and {"rulebook", "tokens", "rulebook-check"} <= hits(log), log
    clean = tmp_path / "clean"
    assert build(project.root, clean, cache="off")[0] == 0
    assert outputs(out) == outputs(clean)
    assert not (clean / ".cache").exists()                  # cache off: no cache folder
    assert os.environ.get("CARDGEN_CACHE") in (None, "on", "off", "debug")


def test_nothing_changed_is_up_to_date_and_a_missing_output_is_made_again(project, tmp_path):
    project.only("cards", "tokens")          # the rulebook's part is the first test's
    out = tmp_path / "out"
    assert build(project.root, out)[0] == 0
    first = outputs(out)
    code, log = build(project.root, out)
    assert code == 0 and "up to date" in log and outputs(out) == first
    (out / SLUG / "cards.pdf").unlink()
    code, log = build(project.root, out)
    assert code == 0 and "up to date" not in log and outputs(out) == first


def test_a_corrupt_or_deleted_cache_changes_nothing_but_time(project, tmp_path):
    out = tmp_path / "out"
    assert build(project.root, out)[0] == 0
    first = outputs(out)
    cache = out / ".cache"
    entries = [p for p in cache.rglob("*") if p.is_file()]
    for i, p in enumerate(entries):      # every kind of damage: junk, truncation, a changed body
        data = p.read_bytes()
        p.write_bytes([b"junk", data[: len(data) // 2], data.replace(b"1", b"2")][i % 3])
    (out / SLUG / "rulebook.pdf").unlink()
    assert build(project.root, out)[0] == 0
    assert outputs(out) == first

    shutil.rmtree(cache)
    (out / SLUG / "cards.pdf").unlink()
    assert build(project.root, out)[0] == 0 and outputs(out) == first


def test_problems_of_cached_work_are_reported_again(project, tmp_path):
    project.only("cards")
    project.edit("cards/bone_wars/limbs.yaml", "cards:\n", "cards:\n  - {id: limbs_test, name: Test Legs, "
                 "copies: 1, str: 2, def: 1, atk: 1, hp: 3, traits: [haste], fossil: \"Lab\"}\n")
    out = tmp_path / "out"
    res1 = CliRunner().invoke(main, ["--root", str(project.root), "build", SLUG, "--draft", "--out", str(out)])
    res2 = CliRunner().invoke(main, ["--root", str(project.root), "build", SLUG, "--draft", "--out", str(out)])
    assert res1.exit_code == res2.exit_code == 0
    assert "BW-CARD-3 warning" in res1.stdout and "BW-CARD-3 warning" in res2.stdout and "up to date" in res2.stderr



def test_a_cache_entry_is_read_only_as_a_regular_file_inside_the_cache_folder(tmp_path):
    """The store reads an entry with one open, without resolving its path: an entry that is a
    link, or an entries' folder that leads out of the cache folder, is a miss (never read), as
    through ``sources.read_bytes``; the entry as written is read back."""
    store = Store(tmp_path / "cache")
    store.put("layout", "ab" + "0" * 62, {"x": 1})
    assert store.get("layout", "ab" + "0" * 62) == {"x": 1}          # the legal twin
    assert store.get("layout", "ab" + "1" * 62) is None              # absent: a miss
    entry = tmp_path / "cache" / "layout" / "ab" / ("ab" + "0" * 62 + ".json")
    outside = tmp_path / "outside.json"
    shutil.copy(entry, outside)
    entry.unlink()
    entry.symlink_to(outside)
    assert Store(tmp_path / "cache").get("layout", "ab" + "0" * 62) is None     # a link: not followed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(outside, elsewhere / ("cd" + "0" * 62 + ".json"))
    (tmp_path / "cache" / "layout" / "cd").symlink_to(elsewhere)
    assert Store(tmp_path / "cache").get("layout", "cd" + "0" * 62) is None     # its folder leads out

"""The build cache's bound (layout.cachebound): its blobs are removed least recently used first once
they pass ``blobs_max_mib`` of cardgen/cache.yaml, never those the running build used; a blob
removed is made again when a build needs it, and the outputs stay a clean build's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.core.problems import Problems
from cardgen.layout import cachebound

SLUG = "bone_wars"
TORSOS = "cards/bone_wars/torsos.yaml"


def blob(folder: Path, name: str, size: int, used_ns: int) -> Path:
    p = folder / name[:2] / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(b"x" * size)
    os.utime(p, ns=(used_ns, used_ns))
    return p


def test_the_shipped_bound_is_read():
    problems = Problems()
    limit = cachebound.blob_limit(problems)
    assert not problems.items
    assert limit is not None and limit >= cachebound.MIB


@pytest.mark.parametrize("text, rule", [("blobs_max_mib: 0\n", "YAML"), ("blobs_max_mib: lots\n", "YAML"),
                                        ("{}\n", "YAML"), ("blobs: [\n", "YAML-SYNTAX")])
def test_a_broken_bound_is_a_problem_at_its_line(tmp_path, text, rule):
    path = tmp_path / "cache.yaml"
    path.write_text(text)
    problems = Problems()
    assert cachebound.blob_limit(problems, path) is None
    assert problems.errors and all(p.loc is not None and p.loc.file == str(path) and p.loc.line >= 1
                                   for p in problems.errors)
    assert any(p.rule.startswith(rule) for p in problems.errors)


def test_collect_removes_the_least_recently_used_first_and_keeps_the_used(tmp_path):
    names = [f"{k:02x}" + "0" * 62 for k in range(6)]
    for k, name in enumerate(names):              # used in this order: names[0] longest ago
        blob(tmp_path, name, 100, 10**18 + k * 10**9)
    removed = cachebound.collect(tmp_path, 250, used={names[1]})
    assert removed == [names[0], names[2], names[3], names[4]]     # names[1]: used by the build
    left = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert left == sorted([names[1], names[5]])
    assert cachebound.collect(tmp_path, 10**6, used=set()) == []   # under the bound: nothing


def test_collect_on_no_folder_removes_nothing(tmp_path):
    assert cachebound.collect(tmp_path / "absent", 0, used=set()) == []


def build(root: Path, out: Path, cache: str = "on") -> int:
    return CliRunner().invoke(main, ["--root", str(root), "build", SLUG, "--out", str(out)],
                              env={"CARDGEN_CACHE": cache}).exit_code


def blobs(out: Path) -> set[str]:
    return {p.name for p in (out / ".cache" / "blobs").rglob("*") if p.is_file()}


def test_a_build_keeps_the_cache_under_its_bound_and_a_clean_builds_bytes(game_copy, tmp_path, monkeypatch):
    project = game_copy(SLUG).only("cards")
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert build(project.root, out) == 0
    first = blobs(out)
    assert first                                    # cards.pdf and cards.json kept by their content
    project.edit(TORSOS, "Sail Spine", "Sail Spin")
    assert build(project.root, out) == 0
    second = blobs(out) - first
    assert second and blobs(out) == first | second  # no bound reached: the first build's stay
    settings = tmp_path / "cache.yaml"
    settings.write_text("blobs_max_mib: 1\n")
    monkeypatch.setattr(cachebound, "SETTINGS", settings)
    monkeypatch.setattr(cachebound, "MIB", 1)      # a bound of one byte: only the running build's stay
    project.edit(TORSOS, "Sail Spin", "Sail Spines")
    assert build(project.root, out) == 0
    third = blobs(out)
    assert third and not third & (first | second)
    project.edit(TORSOS, "Sail Spines", "Sail Spine")   # the first build's sources: its blobs are gone
    assert build(project.root, out) == 0
    assert blobs(out) & first == first             # made again (by their content: the same names)
    assert build(project.root, clean, cache="off") == 0
    for name in ("cards.pdf", "cards.json"):
        assert (out / SLUG / name).read_bytes() == (clean / SLUG / name).read_bytes()


def test_a_blob_read_again_is_recently_used(game_copy, tmp_path):
    project = game_copy(SLUG).only("cards")
    out = tmp_path / "out"
    assert build(project.root, out) == 0
    paths = [p for p in (out / ".cache" / "blobs").rglob("*") if p.is_file()]
    for p in paths:
        os.utime(p, ns=(10**9, 10**9))
    (out / SLUG / "cards.pdf").unlink()             # not up to date: the cards' entry is read back
    assert build(project.root, out) == 0
    assert all(p.stat().st_mtime_ns > 10**9 for p in paths)


def test_an_outputs_blob_is_the_output_file_and_a_change_in_place_is_a_miss(game_copy, tmp_path):
    """The blobs of a build's outputs are second names of the files it wrote (not written twice);
    an output changed in place afterwards changes its blob too, which is then a miss (a blob is
    checked by its SHA-256), never a wrong output."""
    project = game_copy(SLUG).only("cards")
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert build(project.root, out) == 0
    pdf = out / SLUG / "cards.pdf"
    kept = [p for p in (out / ".cache" / "blobs").rglob("*") if p.is_file()]
    assert {n for n in ("cards.pdf", "cards.json") if any(p.samefile(out / SLUG / n) for p in kept)} \
        == {"cards.pdf", "cards.json"}
    data = pdf.read_bytes()
    at = len(data) // 2
    with open(pdf, "r+b") as f:                     # changed in place (its blob with it)
        f.seek(at)
        f.write(bytes([data[at] ^ 1]))
    assert build(project.root, out) == 0            # not up to date; the cards' entry names that blob
    assert build(project.root, clean, cache="off") == 0
    assert pdf.read_bytes() == (clean / SLUG / "cards.pdf").read_bytes() == data

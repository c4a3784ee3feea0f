"""The code's fingerprint (layout.codeprint): with the build cache, a code file's digest is taken
from the memo only when its ``stat`` (size, modification and change times, inode) is unchanged —
any edit, even one that puts the size and modification time back, gives a new fingerprint, the
one reading every file gives."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from cardgen.core import sources
from cardgen.layout import codeprint
from cardgen.layout.cachestore import Store
from cardgen.layout.codeprint import fingerprint


def code(tmp_path: Path) -> Path:
    top = tmp_path / "pkg"
    (top / "sub").mkdir(parents=True)
    (top / "__pycache__").mkdir()
    (top / "a.py").write_text("A = 1\n")
    (top / "sub" / "b.yaml").write_text("b: 2\n")
    (top / "sub" / "c.json").write_text("{}\n")
    (top / "font.ttf").write_bytes(b"\0" * 40)
    (top / "notes.txt").write_text("not code\n")
    (top / "__pycache__" / "a.py").write_text("ignored\n")
    return top


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The code files read (the others' digests came from the memo); no racy window."""
    monkeypatch.setattr(codeprint, "RACY_NS", 0)
    seen: list[Path] = []
    real = sources.read_bytes

    def counting(path, root=None, cap=sources.MAX_TEXT_BYTES):
        seen.append(Path(path))
        return real(path, root, cap)
    monkeypatch.setattr(sources, "read_bytes", counting)
    return seen


def settle() -> None:
    time.sleep(0.05)        # past the file system's clock tick: a write now has a new change time


def test_the_memo_skips_unchanged_files_and_gives_the_same_fingerprint(tmp_path, reads):
    top, store = code(tmp_path), Store(tmp_path / "cache")
    plain = fingerprint(None, top)
    assert len(reads) == 3                           # .py, .yaml, .json (a font counts by its size)
    assert fingerprint(store, top) == plain
    reads.clear()
    assert fingerprint(store, top) == plain
    assert reads == []


@pytest.mark.parametrize("edit", ["same size, new mtime", "same size, mtime put back", "longer", "new file",
                                  "file removed", "font resized"])
def test_any_edit_gives_the_fingerprint_of_a_full_read(tmp_path, reads, edit):
    top, store = code(tmp_path), Store(tmp_path / "cache")
    before = fingerprint(store, top)
    settle()
    a = top / "a.py"
    st = a.stat()
    if edit.startswith("same size"):
        a.write_text("A = 2\n")
        if edit.endswith("put back"):
            os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns))
            assert a.stat().st_mtime_ns == st.st_mtime_ns and a.stat().st_size == st.st_size
    elif edit == "longer":
        a.write_text("A = 22\n")
    elif edit == "new file":
        (top / "sub" / "d.py").write_text("D = 4\n")
    elif edit == "file removed":
        (top / "sub" / "b.yaml").unlink()
    else:
        (top / "font.ttf").write_bytes(b"\0" * 41)
    after = fingerprint(store, top)
    assert after != before
    assert after == fingerprint(None, top)
    reads.clear()
    assert fingerprint(store, top) == after and reads == []      # the memo follows the edit


def test_a_file_changed_within_the_racy_window_is_read_every_time(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(codeprint, "RACY_NS", 3600 * 10**9)
    top, store = code(tmp_path), Store(tmp_path / "cache")
    fingerprint(store, top)
    reads.clear()
    fingerprint(store, top)
    assert len(reads) == 3


@pytest.mark.parametrize("damage", ["corrupt", "another folder", "bad row"])
def test_a_memo_in_doubt_is_not_used(tmp_path, reads, damage):
    top, store = code(tmp_path), Store(tmp_path / "cache")
    plain = fingerprint(store, top)
    key = codeprint._memo_key(top)
    entry = store.get(codeprint.KIND, key)
    if damage == "corrupt":
        path = store._entry_path(codeprint.KIND, key)
        path.write_bytes(path.read_bytes()[:-5])
    elif damage == "another folder":
        store.put(codeprint.KIND, key, {**entry, "dir": str(tmp_path / "other")})
    else:
        entry["files"]["a.py"] = entry["files"]["a.py"][:5] + [None]
        store.put(codeprint.KIND, key, entry)
    settle()
    (top / "a.py").write_text("A = 3\n")
    reads.clear()
    after = fingerprint(store, top)
    assert after != plain and after == fingerprint(None, top)
    assert top / "a.py" in reads


def test_the_package_fingerprint_is_computed_once_per_process():
    assert codeprint.code_fingerprint() == codeprint.code_fingerprint(None)
    assert codeprint.code_fingerprint() == fingerprint(None)


def test_the_code_files_are_those_a_walk_finds(tmp_path):
    """The code files: every ``.py``, ``.ttf``, ``.yaml`` and ``.json`` under the folder, nested
    too, by their relative paths, sorted — not in ``__pycache__``, not other files, and not in a
    folder linked in (never entered, as ``os.walk`` does not); a link to a file counts."""
    top = code(tmp_path)
    (top / "sub" / "deep").mkdir()
    (top / "sub" / "deep" / "d.py").write_text("D = 4\n")
    (top / ".py").write_text("a name, no suffix\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "e.py").write_text("E = 5\n")
    (top / "linked").symlink_to(elsewhere, target_is_directory=True)
    (top / "f.py").symlink_to(elsewhere / "e.py")
    found = codeprint.code_files(top)
    assert [rel for rel, _ in found] == ["a.py", "f.py", "font.ttf", "sub/b.yaml", "sub/c.json",
                                         "sub/deep/d.py"]
    assert all(p == top / rel for rel, p in found)

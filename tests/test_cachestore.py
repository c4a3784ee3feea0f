"""The build cache's store (layout.cachestore): a view of a pack is the file mapped, checked by its
SHA-256 like every entry; anything but a whole, regular file of the cache is a miss."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardgen.layout.cachestore import Store

KEY = "ab" + "0" * 62


def stored(tmp_path: Path, body: bytes) -> tuple[Store, Path]:
    store = Store(tmp_path / "cache")
    store.put_bytes("pages", KEY, [body[:3], body[3:]])
    return store, tmp_path / "cache" / "pages" / "ab" / f"{KEY}.bin"


def test_a_view_is_the_bytes_put_and_outlives_the_file_replaced(tmp_path):
    store, path = stored(tmp_path, b"the pack's bytes\nline two")
    view = store.get_view("pages", KEY)
    assert view is not None and bytes(view) == b"the pack's bytes\nline two"
    store.put_bytes("pages", KEY, [b"another pack, longer than the first one"])    # renamed over it
    assert bytes(view) == b"the pack's bytes\nline two"          # the view read holds the old file
    again = store.get_view("pages", KEY)
    assert again is not None and bytes(again) == b"another pack, longer than the first one"


def test_damage_is_a_miss(tmp_path):
    store, path = stored(tmp_path, b"0123456789" * 100)
    data = path.read_bytes()
    for bad in (data[:-1], data[:-1] + bytes([data[-1] ^ 1]), b"", b"no line break at all" * 10):
        path.write_bytes(bad)
        assert Store(tmp_path / "cache").get_view("pages", KEY) is None


def test_only_a_regular_file_of_the_cache_is_read(tmp_path):
    store, path = stored(tmp_path, b"kept")
    outside = tmp_path / "outside.bin"
    outside.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(outside)                    # a link: as if absent (never followed)
    assert Store(tmp_path / "cache").get_view("pages", KEY) is None
    path.unlink()
    path.mkdir()                                # a folder
    assert Store(tmp_path / "cache").get_view("pages", KEY) is None
    path.rmdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(path)                         # a FIFO: not opened for reading and waited on
        assert Store(tmp_path / "cache").get_view("pages", KEY) is None
        path.unlink()
    assert Store(tmp_path / "cache").get_view("pages", KEY) is None     # absent


@pytest.mark.parametrize("kind", ["pages", "layout"])
def test_a_pack_folder_leading_out_of_the_cache_is_not_read(tmp_path, kind):
    store, path = stored(tmp_path, b"kept")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "ab").mkdir(parents=True)
    (elsewhere / "ab" / path.name).write_bytes(path.read_bytes())
    folder = tmp_path / "cache" / kind
    if folder.exists():
        for p in sorted(folder.rglob("*"), reverse=True):
            p.unlink() if not p.is_dir() or p.is_symlink() else p.rmdir()
        folder.rmdir()
    folder.symlink_to(elsewhere)
    assert Store(tmp_path / "cache").get_view(kind, KEY) is None


def test_a_pack_changed_anywhere_is_a_miss(tmp_path):
    """A pack is checked by its length and CRC-32 (not a SHA-256): each bit flipped, each run of 16
    bytes zeroed or swapped with the next, a byte cut or added anywhere, the check line itself
    altered: every one a miss, and the pack as put is read back."""
    body = bytes(range(256)) * 2 + b"\n".join(b"line %d" % k for k in range(40))
    store, path = stored(tmp_path, body)
    data = path.read_bytes()
    head = data.index(b"\n") + 1
    assert data[:head].startswith(b"crc32 ") and data[head:] == body
    damaged = [data[:i] + bytes([data[i] ^ (1 << b)]) + data[i + 1:]
               for i in range(head, len(data)) for b in range(8)]
    damaged += [data[:i] + bytes(16) + data[i + 16:]
                for i in range(head, len(data) - 16, 5) if any(data[i:i + 16])]
    damaged += [data[:i] + data[i + 16:i + 32] + data[i:i + 16] + data[i + 32:]
                for i in range(head, len(data) - 32, 7) if data[i:i + 16] != data[i + 16:i + 32]]
    damaged += [data[:i] + data[i + 1:] for i in range(head, len(data), 3)]
    damaged += [data[:i] + b"x" + data[i:] for i in range(head, len(data) + 1, 3)]
    damaged += [data[:i] + bytes([data[i] ^ 1]) + data[i + 1:] for i in range(head - 1)]
    for bad in damaged:
        path.write_bytes(bad)
        assert Store(tmp_path / "cache").get_view("pages", KEY) is None
    path.write_bytes(data)
    assert bytes(Store(tmp_path / "cache").get_view("pages", KEY) or b"") == body

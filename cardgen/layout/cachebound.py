"""The build cache's bound: its blobs (each printable's output files, kept by their content) are
removed least recently used first when together they pass ``blobs_max_mib`` of ``cardgen/cache.yaml``.

A blob's modification time is its last use: :class:`~cardgen.layout.cachestore.Store` sets it when a
build reads the blob or writes it again. :func:`collect` walks the blobs' folder only after a build
wrote a new blob (the only way they grow), and never removes one the running build used. Two
builds sharing a cache at once lose nothing but time: a blob removed under the other is a miss
there (read back, it is checked by its SHA-256), made again.
"""

from __future__ import annotations

import os
from pathlib import Path

from cardgen.core import sources
from cardgen.core.options import Opt, check_mapping
from cardgen.core.problems import Loc, Problems
from cardgen.core.yamlsrc import parse_yaml

SETTINGS = Path(__file__).resolve().parent.parent / "cache.yaml"
MIB = 1024 * 1024
SPEC = {"blobs_max_mib": Opt("int", required=True, min=1,
                             doc="the most the build cache's blobs may hold, in MiB "
                                 "(least recently used go first)")}


def blob_limit(problems: Problems, path: Path | None = None) -> int | None:
    """The blobs' bound in bytes, from ``path`` (``cardgen/cache.yaml``); None (its problems
    reported) when it cannot be read."""
    path = path or SETTINGS
    mark = len(problems.items)
    try:        # package data, not a project source: read as shipped (the project's path checks do not apply)
        doc = parse_yaml(sources.read_bytes(path, path.parent).decode("utf-8"), str(path), problems)
    except (sources.SourceError, UnicodeDecodeError) as e:
        problems.error(getattr(e, "rule", "YAML-ENCODING"), f"cannot read {path}: {e}", Loc(str(path), 1, 1))
        return None
    if len(problems.items) > mark:
        return None
    res = check_mapping(doc, SPEC, problems, path.name, at=Loc(str(path), 1, 1))
    if not res.ok or len(problems.items) > mark:
        return None
    return int(res.values["blobs_max_mib"]) * MIB


def touch(path: Path) -> bool:
    """A blob's last use set to now (False: no such regular file)."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        os.utime(path)
    except OSError:
        return False
    return True


def collect(blobs: Path, limit: int, used: set[str]) -> list[str]:
    """Remove the least recently used blobs under ``blobs`` (``blobs/xx/<sha>``) until the rest
    hold at most ``limit`` bytes, keeping those named in ``used``; the names removed."""
    found: list[tuple[int, str, int, str]] = []      # (last use, name, size, path)
    total = 0
    try:
        subs = [e.path for e in os.scandir(blobs) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    for sub in subs:
        try:
            entries = list(os.scandir(sub))
        except OSError:
            continue
        for e in entries:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            total += st.st_size
            if e.name not in used and e.is_file(follow_symlinks=False) and not e.name.startswith("."):
                found.append((st.st_mtime_ns, e.name, st.st_size, e.path))
    removed = []
    for _, name, size, path in sorted(found):
        if total <= limit:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        removed.append(name)
    return removed

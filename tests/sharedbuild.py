"""Work the suite does once per session, whichever test asks first: the build of every game from
the project's own sources, and the text of its PDFs' pages.

With pytest-xdist each worker is a session of its own; the result is made once under a file
lock in the folder the workers' temporary folders share (``basetemp``'s parent under xdist, the
session's ``basetemp`` without it) and read back by every worker. The outputs are read-only for
the tests: a test that writes copies first. ``conftest.py`` puts every test that uses the build
in one xdist group (``--dist loadgroup``), so that the other worker never waits on the lock.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

GROUP = "shared_build"          # the xdist group of the tests that read the shared build


def session_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder every worker of this test run shares."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def locked(path: Path) -> Iterator[None]:
    with open(path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def once(top: Path, name: str, make: Callable[[Path], Any]) -> tuple[Path, Any]:
    """``make(top / name)`` once per run (its JSON result kept beside it); (folder, result)."""
    folder, done = top / name, top / f"{name}.json"
    with locked(top / f"{name}.lock"):
        if not done.exists():
            if folder.exists():                 # a worker died half-way: start again
                shutil.rmtree(folder)
            result = make(folder)
            done.write_text(json.dumps(result), encoding="utf-8")
    return folder, json.loads(done.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Build:
    """``cardgen build --out OUT`` of every game: its exit code, its problems and its outputs."""

    out: Path
    code: int
    problems: list[dict]
    texts_folder: Path

    def game(self, slug: str) -> Path:
        return self.out / slug

    def problems_of(self, slug: str) -> list[dict]:
        """The problems reported in the game's own files (rules/, cards/, templates/, maps/, art/)."""
        return [p for p in self.problems if f"/{slug}/" in "/" + str(p.get("file", ""))]

    def pages(self, pdf: Path) -> list[str]:
        """The text of every page of a PDF of this build (pdfplumber), extracted once per run."""
        return page_texts(pdf, self.texts_folder)


_TEXTS: dict[Path, list[str]] = {}


def page_texts(pdf: Path, cache: Path) -> list[str]:
    """:func:`tests.conftest.pdf_pages` of a file that does not change during the run, extracted
    once per run (kept as JSON under ``cache``, named by the file's path)."""
    if pdf not in _TEXTS:
        def extract(_: Path) -> list[str]:
            with pdfplumber.open(pdf) as doc:
                return [p.extract_text() or "" for p in doc.pages]
        name = hashlib.sha256(str(pdf.resolve()).encode()).hexdigest()[:24]
        _TEXTS[pdf] = once(cache, name, extract)[1]
    return _TEXTS[pdf]


def full_build(tmp_path_factory: pytest.TempPathFactory, build: Callable[[Path], tuple[int, list[dict]]]) -> Build:
    """Every game built once per run with ``build(out) -> (exit code, problems)``."""
    top = session_folder(tmp_path_factory)

    def make(out: Path) -> dict:
        code, problems = build(out)
        return {"code": code, "problems": problems}
    out, result = once(top, "full-build", make)
    texts = top / "texts"
    texts.mkdir(exist_ok=True)
    return Build(out, result["code"], result["problems"], texts)

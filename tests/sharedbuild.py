"""Work the suite does once per session, whichever test asks first: the build of every game from
the project's own sources, and the text of its PDFs' pages.

With pytest-xdist each worker is a session of its own; the result is made once under a file
lock in the folder the workers' temporary folders share (``basetemp``'s parent under xdist, the
session's ``basetemp`` without it) and read back by every worker. The outputs are read-only for
the tests: a test that writes copies first.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def session_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder every worker of this test run shares."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "made-once"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def locked(path: Path, wait: bool = True) -> Iterator[bool]:
    """Holds an exclusive lock on ``path``; without ``wait``, yields False at once when another
    process holds it."""
    with open(path, "a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def once(top: Path, name: str, make: Callable[[Path], Any], wait: bool = True) -> tuple[Path, Any] | None:
    """``make(top / name)`` once per run (its JSON result kept beside it); (folder, result).
    Without ``wait``, None when another worker is making it right now."""
    folder, done = top / name, top / f"{name}.json"
    with locked(top / f"{name}.lock", wait) as mine:
        if not mine:
            return None
        if not done.exists():
            if folder.exists():                 # a worker died half-way: start again
                shutil.rmtree(folder)
            result = make(folder)
            done.write_text(json.dumps(result), encoding="utf-8")
    return folder, json.loads(done.read_text(encoding="utf-8"))


class Build:
    """``cardgen build GAME --out OUT`` of each game, made when a test first asks for the game:
    its exit code, its problems and its outputs. One build per game (not one of every game at
    once) lets the two workers build two games at the same time."""

    def __init__(self, top: Path, build: Callable[[str, Path], tuple[int, list[dict]]]):
        self.top, self._build = top, build
        self.texts_folder = top / "texts"
        self.texts_folder.mkdir(exist_ok=True)
        self._done: dict[str, tuple[Path, dict]] = {}

    def _made(self, slug: str, wait: bool = True) -> tuple[Path, dict] | None:
        def make(out: Path) -> dict:
            code, problems = self._build(slug, out)
            return {"code": code, "problems": problems}
        if slug not in self._done:
            made = once(self.top, f"build-{slug}", make, wait)
            if made is None:
                return None
            self._done[slug] = made
        return self._done[slug]

    def games(self, slugs: list[str]) -> dict[str, Path]:
        """The output folders of several games; the games another worker is building now are
        taken last, so that two workers asking for the same games build different ones."""
        pending = list(slugs)
        while pending:
            ready = [slug for slug in pending if self._made(slug, wait=False) is not None]
            pending = [slug for slug in pending if slug not in ready]
            if pending and not ready:
                self._made(pending[0])          # all busy: wait for one
        return {slug: self.game(slug) for slug in slugs}

    def game(self, slug: str) -> Path:
        """The game's output folder (``OUT/GAME``)."""
        out, result = self.top / f"build-{slug}", self._result(slug)
        assert result["code"] == 0, result["problems"]
        return out / slug

    def _result(self, slug: str) -> dict:
        made = self._made(slug)
        assert made is not None         # waited for
        return made[1]

    def code(self, slug: str) -> int:
        return int(self._result(slug)["code"])

    def problems(self, slug: str) -> list[dict]:
        return list(self._result(slug)["problems"])

    def pages(self, pdf: Path) -> list[str]:
        """The text of every page of a PDF of this build (pdfplumber), extracted once per run."""
        return page_texts(pdf, self.texts_folder)


_TEXTS: dict[Path, list[str]] = {}


def text_pages(data: bytes) -> list[str]:
    """The text of every page of a PDF, line by line as it prints (poppler's ``pdftotext
    -layout``, the runs of spaces that keep its columns folded to one): what a reader sees on
    each line, the way pdfplumber reads it, many times faster."""
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils (pdftotext) not installed")
    r = subprocess.run(["pdftotext", "-q", "-layout", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True,
                       check=True)
    pages = r.stdout.decode("utf-8").split("\f")
    if pages and pages[-1] == "":
        pages.pop()
    return ["\n".join(line for line in (_SPACES.sub(" ", ln).strip() for ln in page.splitlines()) if line)
            for page in pages]


_SPACES = re.compile(r"\s{2,}")


def page_texts(pdf: Path, cache: Path) -> list[str]:
    """:func:`tests.conftest.pdf_pages` of a file that does not change during the run, extracted
    once per run (kept as JSON under ``cache``, named by the file's path)."""
    if pdf not in _TEXTS:
        def extract(_: Path) -> list[str]:
            return text_pages(pdf.read_bytes())
        name = hashlib.sha256(str(pdf.resolve()).encode()).hexdigest()[:24]
        made = once(cache, name, extract)
        assert made is not None
        _TEXTS[pdf] = made[1]
    return _TEXTS[pdf]

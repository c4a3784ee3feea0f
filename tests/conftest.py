"""Shared test helpers: the project root, a CLI runner, and throw-away game copies.

The suite stands alone: an audit hook (``sys.addaudithook``) fails any test that opens or lists a
path outside the clone, the temporary folder, Python's own folders or the system's — a clone with
nothing beside it passes exactly as this one does (``.ci/run``)."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest
import reportlab.rl_config  # noqa: F401 - reads ~/.reportlab_mods at import, before the audit hook below
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.core.problems import Problems
from tests import sharedbuild

pytest.register_assert_rewrite("tests.checklogs")   # shared checker assertions report like test files

ROOT = Path(__file__).resolve().parent.parent
# the user's printers file (~/.config/cardgen/printers.yaml) is never read: none, unless a test names one
os.environ["CARDGEN_PRINTERS"] = os.path.join(tempfile.mkdtemp(prefix="cardgen-no-printers-"), "printers.yaml")

# --- the suite never reads outside the clone ----------------------------------------------------
_SYSTEM = ("/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev", "/run", "/var", "/opt",
           "/snap", "/nix")
_ALLOWED = tuple(sorted({os.path.abspath(p) for p in (
    str(ROOT), tempfile.gettempdir(), os.path.realpath(tempfile.gettempdir()), sys.prefix, sys.base_prefix,
    sys.exec_prefix, os.path.realpath(sys.base_prefix), *site.getsitepackages(), site.getusersitepackages(),
    *sysconfig.get_paths().values(), os.path.expanduser("~/.cache"), os.path.expanduser("~/.config"),
    os.path.expanduser("~/.local"), *_SYSTEM)}))
_WATCHED = {"open": 0, "os.listdir": 0, "os.scandir": 0, "glob.glob": 0, "os.walk": 0}
OUTSIDE: list[str] = []          # every outside path a test tried to open, for the session's verdict


class OutsideTheClone(RuntimeError):
    """A test (or the code it runs) opened a path outside the clone: a user's clone lacks it."""


_BESIDE = os.path.abspath(ROOT.parent / "shared")      # the folder a developer's clone has beside it


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _inside(path: str) -> bool:
    if _under(path, _BESIDE) and not _under(path, str(ROOT)):
        return False            # even when the clone lies in an allowed folder (a copy in /tmp)
    return any(_under(path, a) for a in _ALLOWED)


def _audit(event: str, args: tuple) -> None:
    if event not in _WATCHED or not args:
        return
    target = args[0]
    if isinstance(target, int) or target is None:
        return
    try:
        path = os.path.abspath(os.fsdecode(target))
    except (TypeError, ValueError):
        return
    if not _inside(path):
        OUTSIDE.append(f"{event} {path}")
        raise OutsideTheClone(f"the suite must not read outside the clone: {event} {path}")


sys.addaudithook(_audit)


def pytest_sessionfinish(session, exitstatus):
    if OUTSIDE:     # also when the code under test caught the exception
        print("\npaths opened outside the clone:\n  " + "\n  ".join(sorted(set(OUTSIDE))), file=sys.stderr)
        session.exitstatus = 1


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden files from current output")


@pytest.fixture
def update_goldens(request) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def full_build(tmp_path_factory) -> sharedbuild.Build:
    """``cardgen build GAME`` of each game from the project's sources, once per test run (shared
    by the xdist workers, each game built when first asked for): read it, never write into it."""
    return sharedbuild.Build(sharedbuild.session_folder(tmp_path_factory),
                             lambda slug, out: problems_json("build", slug, "--out", str(out)))


def run_cli(*args: str, root: Path = ROOT) -> tuple[int, str]:
    """Run ``cardgen --root ROOT args…``; returns (exit code, stdout)."""
    res = CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)
    return res.exit_code, res.stdout


def problems_json(*args: str, root: Path = ROOT) -> tuple[int, list[dict]]:
    code, out = run_cli(*args, "--format", "json", root=root)
    return code, json.loads(out)["problems"]


class GameCopy:
    """A copy of the project's YAML for one game in a temp folder, to break on purpose."""

    def __init__(self, tmp: Path, slug: str):
        self.root = tmp
        self.slug = slug
        for part in ("rules", "cards", "templates", "maps", "art"):
            src = ROOT / part / slug
            if src.exists():
                shutil.copytree(src, tmp / part / slug)
        (tmp / "rules").mkdir(exist_ok=True)
        (tmp / "cards").mkdir(exist_ok=True)

    def path(self, rel: str) -> Path:
        return self.root / rel

    def edit(self, rel: str, old: str, new: str, count: int = 1) -> int:
        """Replace ``old`` by ``new`` in a file; returns the 1-based line of the change."""
        p = self.root / rel
        text = p.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {rel}"
        line = text[: text.index(old)].count("\n") + 1
        p.write_text(text.replace(old, new, count), encoding="utf-8")
        return line

    def write(self, rel: str, text: str) -> Path:
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        return p

    def validate(self, *files: str) -> tuple[int, list[dict]]:
        return problems_json("validate", self.slug, *[str(self.root / f) for f in files], root=self.root)

    def only(self, *printables: str) -> GameCopy:
        """Make game.yaml print only these printables (fast builds); returns self."""
        rel = f"rules/{self.slug}/game.yaml"
        line = next(ln for ln in self.path(rel).read_text(encoding="utf-8").splitlines()
                    if ln.startswith("printables:"))
        self.edit(rel, line, f"printables: [{', '.join(printables)}]")
        return self

    def build(self, *flags: str) -> tuple[int, list[dict], Path]:
        """``cardgen build`` of this game into ``<copy>/build``: exit code, problems, output folder."""
        out = self.root / "build"
        code, probs = problems_json("build", self.slug, "--out", str(out), *flags, root=self.root)
        return code, probs, out / self.slug


@pytest.fixture
def game_copy(tmp_path):
    """``game_copy('loot_battles')`` → a GameCopy in a temp folder."""
    return lambda slug: GameCopy(tmp_path, slug)


def has_problem(problems: list[dict], rule: str, file_end: str | None = None, line: int | None = None) -> bool:
    for p in problems:
        if p["rule"] != rule:
            continue
        if file_end and not str(p["file"]).endswith(file_end):
            continue
        if line is not None and p["line"] != line:
            continue
        return True
    return False


def pdf_pages(data: bytes) -> list[str]:
    """The extracted text of every page of a PDF."""
    return sharedbuild.text_pages(data)


def rulebook_pages(root: Path, slug: str) -> list[str]:
    """The text of every page of a game's current rulebook, typeset from the sources under root."""
    import cardgen.boards  # noqa: F401 - registers the board: images
    from cardgen.content.loader import load_game
    from cardgen.rulebook import Rulebook

    problems = Problems()
    book = Rulebook(load_game(root, slug, problems), problems)
    data = book.pdf(book.current)
    assert data is not None and not problems.has_errors, [p.text() for p in problems]
    return pdf_pages(data)


def flat(text: str) -> str:
    """Whitespace folded; typographic apostrophes as typed (the typesetter's smart punctuation)."""
    return " ".join(text.replace("’", "'").split())


def qpdf_check(path: Path) -> None:
    """qpdf --check passes (skipped when qpdf is not installed)."""
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf not installed")
    r = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


__all__ = ["run_cli", "problems_json", "GameCopy", "has_problem", "qpdf_check", "Problems"]

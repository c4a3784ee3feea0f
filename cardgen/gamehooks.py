"""The one place the framework meets a game's own code: its package.

A game package defines ``PACKAGE``, a :class:`cardgen.play.package.GamePackage` table
(engine, initial state, setups, agents, measures, file checks, printables, board hooks).
No package is needed: a game may be YAML only. Found by slug, never registered on import.
What the framework takes from it is that one typed table — read with :func:`package`,
:func:`engine` and :func:`board_hook` — so a reader (and mypy) goes from a call to the
implementation through ``PACKAGE``; a module without it gives nothing.

Where a game's package is found (the first that exists):

1. the project's own ``games/<slug>/`` folder (a package: ``games/<slug>/__init__.py``), the
   project being the folder given by :func:`use_project` (the command line gives its root), else
   the nearest folder upwards from the current one holding ``rules/`` and ``cards/``. It is
   imported by path under a name unique to the project (``cardgen_project_<hash>.<slug>``), so
   ``sys.path`` is never changed and two projects never share a module; inside the package,
   modules import each other relatively (``from .state import State``);
2. ``cardgen.games.<slug>``: the games that ship with cardgen.

Nothing is ever written inside the installed package.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cardgen.core.lazymod import lazy

if TYPE_CHECKING:
    from cardgen.play.package import GamePackage

# a game of YAML only has no package: the table's module (and the play core under it) loads
# when a game's package is found
play_package = lazy("cardgen.play.package")
pkgutil = lazy("pkgutil")

PARENT = "cardgen.games"
#: a project's own game packages, in the project folder
PROJECT_GAMES = "games"

_project: list[Path] = []


def use_project(root: Path | None) -> None:
    """The project whose ``games/`` folder holds game packages (None: found from the current folder)."""
    _project[:] = [Path(root).resolve()] if root is not None else []


@contextlib.contextmanager
def project(root: Path) -> Iterator[Path]:
    """Use the project ``root`` for the time of a command (the one before it afterwards)."""
    before = list(_project)
    use_project(root)
    try:
        yield _project[0]
    finally:
        _project[:] = before


def project_root() -> Path | None:
    """The project in use: the one given, else the nearest folder upwards holding rules/ and cards/."""
    if _project:
        return _project[0]
    here = Path.cwd()
    for p in [here, *here.parents]:
        if (p / "rules").is_dir() and (p / "cards").is_dir():
            return p
    return None


def project_parent(root: Path) -> str:
    """The module name a project's games are imported under (one per project folder)."""
    name = "cardgen_project_" + hashlib.sha1(str(root).encode("utf-8")).hexdigest()[:10]
    if name not in sys.modules:
        parent = ModuleType(name, f"the game packages of the cardgen project {root}")
        parent.__path__ = [str(root / PROJECT_GAMES)]
        sys.modules[name] = parent
    return name


def project_games(root: Path | None = None) -> list[str]:
    """The slugs of a project's own game packages (``games/<slug>/__init__.py``)."""
    root = root if root is not None else project_root()
    if root is None or not (root / PROJECT_GAMES).is_dir():
        return []
    return sorted(p.parent.name for p in (root / PROJECT_GAMES).glob("*/__init__.py"))


def installed() -> list[str]:
    """The slugs of every game package: the project's own and those under ``cardgen.games``
    (found on disk, not imported)."""
    spec = importlib.util.find_spec(PARENT)
    shipped = [] if spec is None or not spec.submodule_search_locations else \
        [m.name for m in pkgutil.iter_modules(spec.submodule_search_locations) if m.ispkg]
    return sorted({*shipped, *project_games()})


def where(slug: str) -> Path | None:
    """The folder of the game's package, or None when it has none."""
    root = project_root()
    if root is not None and (root / PROJECT_GAMES / slug / "__init__.py").is_file():
        return root / PROJECT_GAMES / slug
    spec = importlib.util.find_spec(PARENT)
    for base in (spec.submodule_search_locations or []) if spec is not None else []:
        if (Path(base) / slug / "__init__.py").is_file():
            return Path(base) / slug
    return None


def module(slug: str) -> ModuleType | None:
    root = project_root()
    parents = [PARENT]
    if root is not None and (root / PROJECT_GAMES / slug / "__init__.py").is_file():
        parents.insert(0, project_parent(root))
    for parent in parents:
        try:
            return importlib.import_module(f"{parent}.{slug}")
        except ModuleNotFoundError as e:
            if e.name in (f"{parent}.{slug}", parent):
                continue
            raise
    return None


def package(slug: str) -> GamePackage | None:
    m = module(slug)
    if m is None:
        return None
    pkg = getattr(m, "PACKAGE", None)
    return pkg if isinstance(pkg, play_package.GamePackage) else None


def engine(slug: str) -> type | None:
    """The game's playtest checker (``PACKAGE.engine``), or None."""
    pkg = package(slug)
    return pkg.engine if pkg is not None else None


def board_hook(slug: str, name: str) -> Callable[..., Any] | None:
    """A hook a board file names (``hook: NAME``: ``PACKAGE.hooks[NAME]``), or None."""
    pkg = package(slug)
    return pkg.hooks.get(name) if pkg is not None else None

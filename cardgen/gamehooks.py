"""The one place the framework meets a game's own code: the package ``cardgen.games.<slug>``.

A game package defines ``PACKAGE``, a :class:`cardgen.play.package.GamePackage` table
(engine, initial state, setups, agents, measures, file checks, printables, board hooks).
No package is needed: a game may be YAML only. Found by slug, never registered on import.
A module without ``PACKAGE`` is read for hooks as module attributes.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import TYPE_CHECKING

from cardgen.core.lazymod import lazy

if TYPE_CHECKING:
    from cardgen.play.package import GamePackage

# a game of YAML only has no package: the table's module (and the play core under it) loads
# when a game's package is found
play_package = lazy("cardgen.play.package")
pkgutil = lazy("pkgutil")

PARENT = "cardgen.games"


def installed() -> list[str]:
    """The slugs of the game packages under ``cardgen.games`` (found on disk, not imported)."""
    spec = importlib.util.find_spec(PARENT)
    if spec is None or not spec.submodule_search_locations:
        return []
    return sorted(m.name for m in pkgutil.iter_modules(spec.submodule_search_locations) if m.ispkg)

_OLD_NAMES = {"engine": "Engine"}


def module(slug: str) -> ModuleType | None:
    for parent in (PARENT,):
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
    if isinstance(pkg, play_package.GamePackage):
        return pkg
    # a module of the older shape: hooks as attributes
    return play_package.GamePackage(engine=getattr(m, "Engine", None), check_file=getattr(m, "check_file", None),
                       check_game=getattr(m, "check_game", None), printables=getattr(m, "printables", None),
                       hooks={k: v for k, v in vars(m).items() if callable(v) and not k.startswith("_")})


def hook(slug: str, name: str):
    """A named hook of the game's package (``engine``, ``check_file``…, or a board hook), or None."""
    pkg = package(slug)
    if pkg is None:
        return None
    name = {v: k for k, v in _OLD_NAMES.items()}.get(name, name)
    if name in play_package.GamePackage.__dataclass_fields__:
        return getattr(pkg, name)
    return pkg.hooks.get(name)

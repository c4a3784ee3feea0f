"""The one place the framework meets a game's own code: the package ``cardgen.games.<slug>``.

A game package defines ``PACKAGE``, a :class:`cardgen.play.package.GamePackage` table
(engine, initial state, setups, agents, measures, file checks, printables, board hooks).
No package is needed: a game may be YAML only. Found by slug, never registered on import.
A module without ``PACKAGE`` is read for hooks as module attributes.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cardgen.play.package import GamePackage

_OLD_NAMES = {"engine": "Engine"}


def module(slug: str) -> ModuleType | None:
    for parent in ("cardgen.games",):
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
    if isinstance(pkg, GamePackage):
        return pkg
    # a module of the older shape: hooks as attributes
    return GamePackage(engine=getattr(m, "Engine", None), check_file=getattr(m, "check_file", None),
                       check_game=getattr(m, "check_game", None), printables=getattr(m, "printables", None),
                       hooks={k: v for k, v in vars(m).items() if callable(v) and not k.startswith("_")})


def hook(slug: str, name: str):
    """A named hook of the game's package (``engine``, ``check_file``…, or a board hook), or None."""
    pkg = package(slug)
    if pkg is None:
        return None
    name = {v: k for k, v in _OLD_NAMES.items()}.get(name, name)
    if name in GamePackage.__dataclass_fields__:
        return getattr(pkg, name)
    return pkg.hooks.get(name)

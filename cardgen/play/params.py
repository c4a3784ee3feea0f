"""Typed access to a game's ``params.yaml``: every rules number is read here, once.

``Params(data, file).int("players.max")`` — a dotted path; a missing key or a value of the
wrong type raises :class:`ParamError`, which the checker reports as ``LOG-GAME`` at the file.
The walk itself is :func:`cardgen.core.params.lookup` (re-exported here), the project's one.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from cardgen.core.params import ParamMissing, lookup

_MISSING = object()
T = TypeVar("T")


class ParamError(Exception):
    """A rules parameter the engine needs is missing or of the wrong type."""

    def __init__(self, path: str, message: str, file: Path):
        super().__init__(message)
        self.path, self.message, self.file = path, message, file


class Params:
    """A typed, read-only view of ``params.yaml``."""

    def __init__(self, data: Mapping[str, Any], file: Path):
        self.data = data
        self.file = Path(file)

    @classmethod
    def of(cls, game: Any) -> Params:
        """The view of a loaded game's ``params.yaml`` (empty when it has none)."""
        return cls(game.params if isinstance(game.params, dict) else {}, game.rules_dir / "params.yaml")

    def _get(self, path: str, default: Any) -> Any:
        try:
            return lookup(self.data, path)
        except ParamMissing as e:
            if default is not _MISSING:
                return default
            raise ParamError(path, f"{self.file.name} lacks '{e.args[0]}', which the rules engine needs",
                             self.file) from None

    def _bad(self, path: str, v: Any, what: str) -> ParamError:
        return ParamError(path, f"'{path}' in {self.file.name} must be {what}, not {v!r}", self.file)

    def has(self, path: str) -> bool:
        return lookup(self.data, path, _MISSING) is not _MISSING

    def raw(self, path: str, default: Any = _MISSING) -> Any:
        return self._get(path, default)

    def int(self, path: str, default: Any = _MISSING) -> int:
        v = self._get(path, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self._bad(path, v, "a whole number")
        return v

    def number(self, path: str, default: Any = _MISSING) -> float:
        v = self._get(path, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self._bad(path, v, "a number")
        return v

    def bool(self, path: str, default: Any = _MISSING) -> bool:
        v = self._get(path, default)
        if not isinstance(v, bool):
            raise self._bad(path, v, "true or false")
        return v

    def str(self, path: str, default: Any = _MISSING) -> str:
        v = self._get(path, default)
        if not isinstance(v, builtins.str):
            raise self._bad(path, v, "a text")
        return v

    def choice(self, path: builtins.str, choices: Sequence[builtins.str], default: Any = _MISSING) -> builtins.str:
        v = self._get(path, default)
        if v not in choices:
            raise ParamError(path, f"'{path}' in {self.file.name} is {v!r}; the rules engine knows "
                             f"{', '.join(map(repr, choices))}", self.file)
        return str(v)

    def mapping(self, path: builtins.str, default: Any = _MISSING) -> Mapping[builtins.str, Any]:
        v = self._get(path, default)
        if not isinstance(v, Mapping):
            raise self._bad(path, v, "a mapping")
        return v

    def list(self, path: builtins.str, default: Any = _MISSING) -> list[Any]:
        v = self._get(path, default)
        if not isinstance(v, (list, tuple)):
            raise self._bad(path, v, "a list")
        return list(v)

    def names(self, path: builtins.str) -> dict[builtins.str, builtins.str]:
        """A mapping of ids to display names (``{id: {name: …}}`` or ``{id: name}``)."""
        out = {}
        for k, v in self.mapping(path).items():
            out[str(k)] = str(v.get("name", k)) if isinstance(v, Mapping) else str(v if v is not None else k)
        return out


__all__ = ["ParamError", "ParamMissing", "Params", "lookup"]


def per_game(read: Callable[[Any], T]) -> Callable[[Any], T]:
    """``read(game)`` made once per loaded game: kept for the last game asked (a simulation asks
    for the same game again and again; a new load is read anew)."""
    last: list[tuple[Any, T]] = []

    def once(game: Any) -> T:
        if not last or last[0][0] is not game:
            last[:] = [(game, read(game))]
        return last[0][1]
    return once

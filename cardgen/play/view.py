"""An observation built only when an agent reads it.

Most playouts are random: the agent never looks at what it may see, and building that view
(every fighter's stats, the pool, the table) every step costs more than the step itself. A
:class:`LazyView` is the observation of one state at one moment, made on the first read; read
after the state has moved on, it raises instead of showing a later position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from cardgen.play.api import GameState

MOVED = "an observation is read when it is made: the state has moved on"


class LazyView(Mapping[str, Any]):
    """``make()`` of ``state`` as it is now, built on the first read."""

    __slots__ = ("_state", "_at", "_make", "_built")

    def __init__(self, state: GameState, make: Callable[[], dict[str, Any]]):
        self._state, self._at, self._make = state, len(state.history), make
        self._built: dict[str, Any] | None = None

    def _view(self) -> dict[str, Any]:
        if self._built is None:
            if len(self._state.history) != self._at:
                raise RuntimeError("an observation read after its state moved on (read it before applying)")
            self._built = self._make()
        return self._built

    def __getitem__(self, key: str) -> Any:
        return self._view()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._view())

    def __len__(self) -> int:
        return len(self._view())


class KeyedView(Mapping[str, Any]):
    """What ``me`` may see of ``state``, each key computed on its first read by ``see[key](state,
    me)`` (random play reads none); read after the state has moved on, it raises."""

    __slots__ = ("_state", "_at", "_see", "_me", "_seen")

    def __init__(self, state: GameState, see: Mapping[str, Callable[[Any, Any], Any]], me: Any):
        self._state, self._at, self._see, self._me = state, len(state.history), see, me
        self._seen: dict[str, Any] = {}

    def __iter__(self) -> Iterator[str]:
        return iter(self._see)

    def __len__(self) -> int:
        return len(self._see)

    def __getitem__(self, key: str) -> Any:
        if key in self._seen:
            return self._seen[key]
        see = self._see[key]
        if len(self._state.history) != self._at:
            raise RuntimeError(MOVED)
        v = self._seen[key] = see(self._state, self._me)
        return v

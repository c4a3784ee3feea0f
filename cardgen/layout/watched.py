"""What a card's template sees of the other cards: ``cards`` (each card's fields by its id) and
``counts``, each read reaching the lay-out's recorder (the cache's dependencies)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from cardgen.content.model import Card
from cardgen.layout.cache import Recorder


class Recording(Protocol):
    """The lay-out, as the watched mappings see it: what it is recording now (None: nothing)."""

    _recording: Recorder | None


class Fields(Mapping):
    """Each card's fields by its id, read from the card when asked (a kept card's values are
    decoded only when a template reads them)."""

    def __init__(self, by_id: dict[str, Card]):
        self._by_id = by_id

    def __getitem__(self, key: Any) -> Any:
        return self._by_id[key].fields

    def __iter__(self) -> Iterator:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)


class Watched(Mapping):
    """``cards`` / ``counts`` as a template sees them: reads reach the layout's recorder."""

    def __init__(self, data: Mapping, layout: Recording, shape_only: bool):
        self._data, self._layout, self._shape_only = data, layout, shape_only

    def _note(self, key: Any = None) -> None:
        rec = self._layout._recording
        if rec is None:
            return
        if self._shape_only or key is None:
            rec.shape = True
        else:
            rec.card(str(key))

    def __getitem__(self, key: Any) -> Any:
        self._note(key)
        return self._data[key]

    def __iter__(self) -> Iterator:
        self._note()
        return iter(self._data)

    def __len__(self) -> int:
        self._note()
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        self._note(key)
        return key in self._data

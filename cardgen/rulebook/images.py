"""The image kinds a rulebook's Markdown can picture, as one explicit table.

``![alt](card:<id>)`` and ``card-back:`` come from the rulebook itself (the game's own card layout);
the kinds below draw on other pipelines' scenes. Each entry is ``factory(rulebook)`` returning a
resolver ``fn(target, alt, loc, problems) -> CardPicture | Flowable | None``. A new kind is a new
line here — nothing registers itself when imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgen.rulebook import boardpictures, diagrams, presets

#: ``board:<name>`` — hex maps, zone boards, mats and token sheets (cardgen.rulebook.boardpictures);
#: ``preset:<file>`` — a deck-like file's reference sheet (cardgen.rulebook.presets);
#: ``diagram:<name>`` — a setup or flow diagram of ``rules/<game>/diagrams.yaml`` (cardgen.rulebook.diagrams).
IMAGE_SCHEMES: dict[str, Callable[[Any], Any]] = {
    boardpictures.SCHEME: boardpictures.factory,
    presets.PRESET: presets.preset_factory,
    diagrams.SCHEME: diagrams.factory,
}

"""Boss Fight's own measures of a played game (for the simulation report): damage by source
(the weapon or piece) and by side, the boss's Health left, heroes lost, rounds."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.games.boss_fight.vocab import BOSS
from cardgen.play.api import GameState


def measures(state: GameState) -> dict[str, Any]:
    events = state.log_events()
    by_source: Counter = Counter()
    by_side: Counter = Counter()
    for e in events:
        if e["kind"] == "attack" and e.get("damage"):
            by_source[str(e.get("with") or e.get("source") or e.get("card"))] += int(e["damage"])
            by_side["boss" if e["character"] == BOSS else "heroes"] += int(e["damage"])
    r = state.result()
    return {"damage_by_source": dict(sorted(by_source.items())), "damage_by_side": dict(by_side),
            "boss_hp_left": r["hp"].get(BOSS), "heroes_dead": sum(1 for k in r["dead"] if k != BOSS),
            "rounds": r["round"]}

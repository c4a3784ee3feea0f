"""Loot & Battles: the trace of a replayed log (``cardgen check --trace``) — each event's line as
the state played it: a Battle begun, a blow and what it left, a round's end with the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.games.loot_battles.play import LootState
from cardgen.play.api import Action


def _last(state: LootState, kind: str) -> Mapping[str, Any] | None:
    return next((e for e in reversed(state.events) if e["kind"] == kind), None)


def roll_name(s: LootState, a: Action | Mapping[str, Any]) -> str:
    """The roll of an attack (an action or the event of one), in words: its weapons, or the class
    attack."""
    player: Any = a.get("player")
    p = s._by(player)
    names = [s.rules.cards[c].name for c in a.get("with") or () if c in s.rules.cards]
    return " + ".join(names) if names else f"{p.class_card.name} class attack"


def _blow(state: LootState, mine: Mapping[str, Any]) -> str:
    kind = mine["kind"]
    name = mine.get("target") or ", ".join(mine.get("targets") or ())
    t = state.fighter(name)
    if kind == "attack":
        who = f"{mine['player']} → {name} with {roll_name(state, mine)}"
    else:
        who = f"{mine['enemy']} → {name}"
    roll = f"[{', '.join(map(str, mine.get('dice') or ()))}]"
    if t is None:
        return f"{who}: {roll}"
    if mine.get("hit") is False:
        return f"{who}: {roll} misses; {t.name} Dodge {t.dodge}"
    return f"{who}: {roll} hits for {mine.get('damage')}; {t.brief()}"


def table(state: LootState) -> list[str]:
    """The players and the enemies standing, one line each."""
    out = ["        players: " + " · ".join(p.brief() for p in state.seats)]
    enc = state.encounter()
    if enc is not None and enc.placed:
        alive = enc.alive()
        out.append(
            "        enemies: "
            + (" · ".join(f"{e.brief()} →{e.front}" for e in alive) if alive else "none left")
        )
    return out


def describe(state: LootState, event: Mapping[str, Any]) -> list[str]:
    """The trace lines of ``event`` (its first line goes under the event's line number)."""
    kind = str(event.get("kind"))
    if kind in ("attack", "enemy_attack"):
        mine = _last(state, kind)
        return [_blow(state, mine)] if mine is not None else [kind]
    if kind in ("encounter_chosen", "encounter_drawn") and state.battle is not None:
        b, r = state.battle, state.rules
        e = r.enemy_cards.get(str(b.first.get("enemy")))
        foe = e.name if e else b.first.get("enemy")
        plus = f", +{b.first.get('reinforcement')}" if b.first.get("reinforcement") else ""
        lead = state.players[state.leader]
        return [f"Battle {b.number}: {b.first.name} ({b.first.get('count')} × {foe}{plus}, "
                f"loot {b.first.get('loot')}), Leader {lead}"]
    if kind == "round_end":
        last = _last(state, "round_end")
        n = event.get("round") or (last["round"] if last is not None else "?")
        return [kind, f"      end of round {n} (Armor restored)", *table(state)]
    return [kind]

"""Loot & Battles on the shared referee: enemies placed as the log rolls them — a count the rules
do not give (LB-TGT-1, a reinforcement's +N: LB-SETUP-4), a die no d6 shows, the next Encounter's
enemies while this one's still stand — named, and played as recorded."""

from __future__ import annotations

from typing import Any

from cardgen.games.loot_battles.follow import end_encounter
from cardgen.games.loot_battles.play import LootState
from cardgen.play.dice import die_slip, off_die
from cardgen.play.replay import Finding


def placement(state: LootState, event: dict[str, Any]) -> list[Finding]:
    """Enemies placed: as many as the log rolls dice for (one die each, LB-TGT-1; a reinforcement's
    +N, LB-SETUP-4) — a count the rules do not give is named and played as recorded."""
    if event["kind"] != "enemies_placed" or not isinstance(event.get("rolls"), list):
        return []
    b = state.battle
    if state.phase == "fight" and b is not None and state.pending is None:
        enc = b.queue[b.index]
        if b.index + 1 >= len(b.queue):
            return [Finding("LB-SETUP-3",
                            "enemies are placed for a chosen Encounter; its enemies are already placed")]
        alive = end_encounter(state, enc)  # the log goes on to the next Encounter: so does the state
        return [Finding("LB-ENC-1", f"the log places the enemies of the next Encounter, but an Encounter "
                        f"ends when its enemies are all defeated; {alive} still stand(s)"),
            *placement(state, event)]
    if state.phase == "reinforce" and b is not None:
        due = int(b.first.get("reinforcement") or 0)
        state.phase, state.drawn = "place", []  # the log fights without them: as recorded
        state._enter()
        return [Finding("LB-SETUP-4", f"{b.first.name} is marked +{due}: draw {due} reinforcement "
                        "Encounter(s) before the fight"), *placement(state, event)]
    if state.phase != "place":
        return [Finding("LB-SETUP-3", "enemies are placed for a chosen Encounter; no Encounter is chosen")]
    rolls, enc = event["rolls"], state._enc()
    out = _faces(state, event)
    if len(rolls) == state.need or not rolls:
        return out
    count, card = state.need, enc.card
    state.need = len(rolls)
    extra = int(card.get("reinforcement") or 0) if enc.reinforcement else 0
    if extra:
        return [*out, Finding("LB-SETUP-4", f"{card.name} as a reinforcement has {count} enemies "
                              f"({card.get('count')} + {extra}); the log places {len(rolls)}", "rolls")]
    return [*out, Finding("LB-TGT-1", f"{card.name} has {count} enemies, one d{state.rules.target_die} each; "
                          f"the log rolls {len(rolls)}", "rolls")]


def _faces(state: LootState, event: dict[str, Any]) -> list[Finding]:
    """A placing die no die shows: named; the enemy is placed in front of the Leader."""
    die, out = state.rules.target_die, []
    enemy = str(state._enc().card.get("enemy"))
    lead = state.rules.default_numbers(state.seats).get(state.players[state.leader]) or [1]
    rolls = event["rolls"] = list(event["rolls"])
    for i, v in enumerate(rolls):
        if off_die(v, die):
            out.append(Finding("LB-TGT-1", die_slip(f"the d{die} placing {enemy}#{i + 1}", v, die), "rolls"))
            rolls[i] = lead[0]
    return out

"""Loot & Battles on the shared referee: the log's stated consequences of a blow compared with
the ones the state produced (:func:`claims`), and the enemies it places in front of each player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.games.loot_battles.follow import FOLLOWED, Follow, restored_slip
from cardgen.games.loot_battles.play import LootState
from cardgen.games.loot_battles.play_log import MARKERS
from cardgen.games.loot_battles.state import Enemy
from cardgen.play.replay import Finding, Findings
from cardgen.play.resync import slip_settled

#: a stated consequence of a blow → the rule a wrong one breaks
CLAIM_RULES = {"hit": "LB-ATK-3", "damage": "LB-ATK-4", "hp_left": "LB-DMG-1", "armor_left": "LB-DMG-1",
               "dodge_left": "LB-ATK-3", "ko": "LB-DMG-1"}


def claims(state: LootState, event: Mapping[str, Any], follow: Follow) -> Findings | None:
    """The consequences of a blow the log states and the state's own event of it does not give;
    None when they agree. The log's markers are compared by ``follow`` (the replay's), which
    follows the blow's stated values too."""
    if event.get("kind") in MARKERS:
        return follow.marker(state, event)
    if event.get("kind") not in ("attack", "enemy_attack") or not state.events:
        return None
    mine = next((e for e in reversed(state.events) if e["kind"] == event["kind"]), None)
    if mine is None:
        return None
    found = _aimed(event, mine, follow) + _values(state, event, mine, follow)
    follow.blow(state, event, mine)
    return found


def _aimed(event: Mapping[str, Any], mine: Mapping[str, Any], follow: Follow) -> list[Finding]:
    """LB-RND-1: an enemy's attack on a player other than the one it stands in front of (LB-DMG-1:
    one knocked out before it)."""
    target, found = event.get("target"), []
    front = follow.fronts.get(mine["enemy"], mine["target"]) if "enemy" in mine else mine.get("target")
    if event["kind"] == "enemy_attack" and target is not None and target != front:
        found.append(Finding("LB-RND-1",
                             f"{mine['enemy']} stands in front of {front} and attacks {front}, not {target}",
                             "target"))
        if target in follow.down:
            found.append(Finding("LB-DMG-1", f"{target} is knocked out until the Battle ends"))
    return found


def _values(state: LootState, event: Mapping[str, Any], mine: Mapping[str, Any],
            follow: Follow) -> list[Finding]:
    """Each stated value of the blow the state's does not match (a wrong hit or damage: only it,
    what the blow leaves follows from it)."""
    found: list[Finding] = []
    wrong = set()
    for key, rule in CLAIM_RULES.items():
        stated = event.get(key)
        if stated is None or key not in mine or (key == "ko" and "hp_left" in wrong):
            continue
        slip = (
            restored_slip(state.fighter(mine.get("target")), stated, key)
            if key == "dodge_left"
            else None
        )
        if slip is not None:
            found.append(slip)
        elif not _same(event, mine, key, follow):
            wrong.add(key)
            found.append(Finding(rule, said_wrong(state, mine, key, stated), key))
            if key in ("hit", "damage"):
                break  # what the blow leaves follows from it: one slip
    return found


#: a stated stat a blow leaves → the stat's name
STATS = {"hp_left": "Health", "armor_left": "Armor", "dodge_left": "Dodge"}


def said_wrong(s: LootState, mine: Mapping[str, Any], key: str, stated: Any) -> str:
    """A stated consequence of a blow the rules do not give, in the designer's words: whose stat,
    the roll against the Dodge, the damage with its arithmetic."""
    who, computed = mine.get("target"), mine[key]
    if key in STATS:
        return f"the log says {who}'s {STATS[key]} is {stated}, but the rules give {computed}"
    if key == "ko":
        left = mine.get("hp_left")
        return (f"the log says {who} is down, but {left} Health is left" if stated
                else f"the log says {who} still stands, but its Health is 0")
    if key == "hit":
        return _hit_wrong(s, mine, bool(stated))
    return f"the log says the damage is {stated}, but {_damage_why(s, mine)}"      # (damage)


def _hit_wrong(s: LootState, mine: Mapping[str, Any], said: bool) -> str:
    """LB-ATK-3: the roll against the Dodge it had to beat (the Dodge before a miss lowered it)."""
    total, hit, left = sum(mine.get("dice") or ()), bool(mine["hit"]), mine.get("dodge_left")
    was = left if hit else (left + s.rules.dodge_loss if isinstance(left, int) and left > 0 else None)
    dodge = f"{mine.get('target')}'s Dodge" + ("" if was is None else f" {was}")
    verb = "beats" if hit else "does not beat"
    return f"the log says the roll {'hits' if said else 'misses'}, but {total} {verb} {dodge}"


def _damage_why(s: LootState, mine: Mapping[str, Any]) -> str:
    """LB-ATK-4: the damage the rules give, and why (an enemy card's damage, a player's weapons
    and class damage)."""
    computed = mine["damage"]
    if mine["kind"] == "enemy_attack":
        foe = s.fighter(mine.get("enemy"))
        return f"a {foe.card.name} deals {computed}" if isinstance(foe, Enemy) and foe.card else \
            f"the rules give {computed}"
    foe = s.fighter(mine.get("target"))
    if foe is None or mine.get("player") not in s.seat_of:
        return f"the rules give {computed}"
    items = [s.rules.cards[c] for c in mine.get("with") or () if c in s.rules.cards]
    total = sum(mine["dice"]) if mine.get("dice") else None
    _, why = s.rules.damage(items, total, foe, s._by(mine["player"]))
    return f"the rules give {computed} ({why})"


def _same(event: Mapping[str, Any], mine: Mapping[str, Any], key: str, follow: Follow) -> bool:
    stated = event[key]
    if key in FOLLOWED:
        return slip_settled(follow.offsets, (mine.get("target"), key), stated, mine[key])
    if key == "ko" and isinstance(event.get("hp_left"), int):
        return bool(stated == (event["hp_left"] <= 0))  # as the stated Health has it (followed)
    return bool(stated == mine[key])


def placed_as_stated(s: LootState, placed: Mapping[str, Any]) -> list[Finding]:
    """LB-TGT-1: the enemies the log places in front of each player, as the dice place them
    (followed as recorded)."""
    if s.phase != "fight" or s.battle is None:
        return []
    enc, out = s._enc(), []
    fronts = {e.name: e.front for e in enc.enemies}
    for name, refs in placed.items():
        stated = sorted(str(r) for r in (refs if isinstance(refs, list) else [refs]))
        computed = sorted(e for e, p in fronts.items() if p == name)
        if stated != computed:
            out.append(Finding("LB-TGT-1",
                               f"the log places {', '.join(stated) or 'nobody'} in front of {name}; the "
                               f"dice place {', '.join(computed) or 'nobody'}", "placed"))
            for e in enc.enemies:
                e.front = name if e.name in stated else e.front
    if out:
        s._cp, s._nxt = None, False
    return out

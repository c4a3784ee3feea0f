"""Loot & Battles: a playtest log's events as the playable state's actions.

:func:`actions_for` turns one log event, its names read as ids (:mod:`.names`), into the actions
and chance outcomes that play it on a :class:`.play.LootState` (an implicit ``ready`` or ``end_turn`` too), so
a test can prove every event of a legal log is among the state's legal actions at its point.
The log's markers (``round_end``, ``encounter_end``, ``battle_end``, ``leader_passed``) map
onto nothing: the state moves on by itself. Events the state cannot follow — dice left out,
loot drawn unnamed, target numbers other than the default deal — raise :class:`Unfollowable`.
"""

from __future__ import annotations

from typing import Any

from cardgen.games.loot_battles.play import LootState
from cardgen.play.api import Action
from cardgen.play.replay import allowed_at

MARKERS = ("round_end", "encounter_end", "battle_end", "leader_passed")


class Unfollowable(Exception):
    """The event leaves out what the state needs to play it (a die, a card)."""


def actions_for(state: LootState, ev: dict[str, Any]) -> list[Action]:
    """The actions (and chance outcomes) that play ``ev`` from ``state``, in order; the state is
    left as it was (a clone plays them to find implicit steps)."""
    kind = ev["kind"]
    if kind in MARKERS:
        return []
    s = state.clone()
    out: list[Action] = []

    def step(a: Action) -> None:
        out.append(a)
        if allowed_at(s, a):        # an action the rules refuse is the replay's to name, not played here
            s.apply_action(a)

    leader = s.players[s.leader]
    if kind in ("encounter_chosen", "encounter_drawn") and s.phase == "equip":
        step(Action.make("ready", by=leader))
    if kind == "encounter_chosen":
        step(Action.make(kind, encounter=ev["encounter"], by=ev.get("by") or leader))
    elif kind == "encounter_drawn":
        for c in ev.get("cards") or []:
            step(Action.make("draw", card=c))
        step(Action.make(kind, pick=ev["pick"], by=ev.get("by") or leader))
    elif kind in ("reinforcements_drawn", "loot_drawn"):
        cards = ev.get("cards") or []
        if ev.get("count") not in (None, len(cards)):
            raise Unfollowable("loot drawn unnamed")
        for c in cards:
            step(Action.make("draw", card=c))
    elif kind == "enemies_placed":
        for v in ev["rolls"]:
            step(Action.make("place", value=v))
    elif kind in ("equip", "unequip"):
        step(Action.make(kind, player=ev["player"], card=ev["card"]))
    elif kind in ("attack", "heal", "pass", "enemy_attack") and s.phase != "fight":
        fields = {k: v for k, v in ev.items() if k in ("player", "target", "targets", "with", "enemy")}
        step(Action.make("enemy_turn" if kind == "enemy_attack" else kind, **fields))
    elif kind in ("attack", "heal", "pass"):
        p = s.seats[s.players.index(ev["player"])]
        if s.turn_open is not None and s.turn_open != p.name:
            step(Action.make("end_turn", player=s.turn_open))
        if kind == "pass":
            step(Action.make("pass", player=p.name))
        elif kind == "heal":
            spell = ev.get("with") or next((c.id for c in s.rules.healers(p)), None)
            step(Action.make("heal", player=p.name, target=ev["target"], **{"with": spell}))
        else:
            enc = s._enc()
            with_ = list(ev["with"]) if ev.get("with") else None
            if with_ is None:       # the one roll left; none left: the roll again (a slip the replay names)
                groups = s._unused(p, enc) or s.rules.groups(p)
                n = len(ev.get("dice") or ())
                groups = {n: groups[n]} if len(groups) > 1 and n in groups else groups
                with_ = [c.id for c in next(iter(groups.values()))] or None if len(groups) == 1 else None
            targets = list(ev.get("targets") or [ev.get("target")])
            fields = {"target": targets[0]} if len(targets) == 1 else {"targets": targets}
            step(Action.make("attack", player=p.name, **fields, **{"with": with_}))
            for d in ev.get("dice") or []:
                step(Action.make("die", value=d))
    elif kind == "enemy_attack":
        if s.turn_open is not None:
            step(Action.make("end_turn", player=s.turn_open))
        step(Action.make("enemy_turn", enemy=ev["enemy"], **_aim(s, ev, ev["enemy"])))
        for d in ev.get("dice") or ():
            step(Action.make("die", value=d))
    return out


#: what a log states of a blow
STATED = ("hit", "damage", "hp_left", "armor_left", "dodge_left", "ko")


def _aim(s: LootState, ev: dict[str, Any], enemy: str) -> dict[str, str]:
    """An enemy's attack on a player other than the one it stands in front of: played on the
    log's target when what the log states of the blow is not what it does to its own player
    (the enemy or the order is the slip); on its own player otherwise (the target is)."""
    target, enc = ev.get("target"), s._enc()
    foe = enc.foe(enemy)
    if foe is None or foe.ko or target == foe.front or target not in s.seat_of or s._by(target).ko:
        return {}
    c = s.clone()
    c.apply_action(Action.make("enemy_turn", enemy=enemy))
    for d in ev.get("dice") or ():
        if c.pending is not None:
            c.apply_action(Action.make("die", value=d))
    mine = c.events[-1] if c.events and c.events[-1]["kind"] == "enemy_attack" else {}
    same = all(ev.get(k) is None or k not in mine or ev[k] == mine[k] for k in STATED)
    return {} if same else {"target": target}

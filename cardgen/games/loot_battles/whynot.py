"""Loot & Battles on the shared referee: the catalogue rule an action the state does not allow
breaks (:func:`why_not`) — whose turn it is, what a player's kit allows, a phase the action does
not belong to."""

from __future__ import annotations

from typing import Any

from cardgen.games.loot_battles.play import LootState
from cardgen.games.loot_battles.state import Encounter
from cardgen.games.loot_battles.trace import roll_name
from cardgen.games.loot_battles.turns import open_turn
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.dice import die_slip
from cardgen.play.replay import Finding, Findings


def card_name(s: LootState, cid: object) -> str:
    """A card as printed (its name); a name the log wrote that is no card, as written."""
    c = s.rules.cards.get(str(cid))
    return c.name if c is not None else str(cid)


def defeated(enc: Encounter, names: list[Any]) -> list[Finding]:
    """LB-DMG-1: the first of the targets ``names`` no standing enemy of ``enc`` is called."""
    for t in names:
        foe = enc.foe(t)
        if foe is None or foe.ko:
            return [Finding("LB-DMG-1", f"{t} was defeated and removed: it cannot be attacked")]
    return []


def _again(s: LootState, a: Action) -> list[Finding]:
    """LB-ATK-2: an attack with a roll the player already made this turn."""
    enc = s._enc()
    used = enc.used.get(a.get("player"), set())
    if a.kind != "attack" or not any(k in used for k in (a.get("with") or ("class",))):
        return []
    return [Finding("LB-ATK-2",
                    f"{a.get('player')} already rolled {roll_name(s, a)} this turn (one roll per weapon)")]


def _twice_in_turn(s: LootState, a: Action) -> list[Finding]:
    """LB-HEAL-1 / LB-RND-1: a turn is one attack (one roll per weapon group), one heal or one pass."""
    name = a.get("player")
    kinds = s._enc().turn.get(name, set())
    if ("heal" in kinds and a.kind == "attack") or ("attack" in kinds and a.kind == "heal"):
        return [
            Finding("LB-HEAL-1",
                    f"{name} both heals and attacks this turn; a Healing spell is cast instead of attacking")
        ]
    if kinds and ("pass" in kinds or a.kind == "pass" or "heal" in kinds):
        done = "passed" if "pass" in kinds else "healed" if "heal" in kinds else "attacked"
        return [Finding("LB-RND-1",
                        f"{name} already {done} this turn: a player's turn is one attack (one roll per "
                        "weapon group), one heal or one pass")]
    return []


def _why_player(s: LootState, a: Action) -> list[Finding]:
    who = s.current_player()
    name = a.get("player")
    if name in s.seat_of and s._by(name).ko:
        return [Finding("LB-DMG-1", f"{name} is knocked out until the Battle ends"), *_again(s, a)]
    if a.kind == "attack" and open_turn(s, name) and _again(s, a):
        return [*_again(s, a), *why_kit(s, a, fallback=False)]
    if who < 0 or name != s.players[who]:
        now = "the enemies" if who == CHANCE else s.players[who] if who >= 0 else "nobody"
        return [Finding("LB-RND-1", f"{name} acts, but it is {now}'s turn now")]
    return why_kit(s, a)


def why_kit(s: LootState, a: Action, fallback: bool = True) -> list[Finding]:
    """What a player's heal or attack gets wrong, whoever's turn it is."""
    name = a.get("player")
    p = s._by(name)
    if a.kind == "heal":
        spell = s.rules.cards.get(a.get("with") or "")
        if a.get("target") == name:
            return [Finding("LB-HEAL-1", "a Healing spell heals another player, not its caster")]
        if spell is None or spell.id not in p.equipment:
            return [Finding("LB-HEAL-1", f"{name} holds no such Healing spell")]
        return [Finding("LB-DMG-1", f"{a.get('target')} is knocked out until the Battle ends: no healing")]
    if a.kind != "attack":
        return [Finding("LB-RND-1", f"'{a.kind}' is not {name}'s to do now")] if fallback else []
    enc = s._enc()
    names = list(a.get("targets") or ()) or [a.get("target")]
    out = defeated(enc, names)
    out += [
        Finding("LB-EQUIP-1", f"{name} has no {card_name(s, c)} equipped")
        for c in a.get("with") or ()
        if c not in p.equipment
    ][:1]
    front = [e.name for e in enc.alive() if e.front == name]
    far = [t for t in names if t not in front]
    if s.rules.melee_only(p) and front and far:
        out.append(Finding("LB-ATK-1",
                           f"{name} has only Melee attacks and must attack an enemy in front of them "
                           f"({', '.join(front)}), not {far[0]}",
                           "targets" if a.get("targets") else "target"))
    if out or not fallback:
        return out
    return [Finding("LB-ATK-2", f"{name} has no such roll left this turn (one roll per weapon)")]


def _why_equip(s: LootState, a: Action) -> list[Finding]:
    """LB-LOOT-1 (not among the Loot drawn) and LB-EQUIP-1 (a category's limit, the hands)."""
    r, card, name = s.rules, a.get("card"), a.get("player")
    out = []
    if not s.pool[card]:
        missing = f"no {card_name(s, card)} among the Loot drawn and not yet equipped"
        out.append(Finding("LB-LOOT-1", missing, "card"))
    p = s._by(name) if name in s.seat_of else None
    if p is not None and card in r.cards:
        held = [i for i in p.equipment if i in r.cards]
        cat = r.category[card]
        limit = r.equip_limits.get(cat)
        same = [i for i in held if r.category[i] == cat] + [card]
        if limit is not None and len(same) > int(limit):
            kit = ", ".join(card_name(s, i) for i in same)
            out.append(Finding("LB-EQUIP-1",
                               f"a player equips at most {limit} {cat}; {name} would hold {kit}", "card"))
        elif sum(r.hands_of[i] for i in held) + r.hands_of[card] > r.hands:
            kit_ids = [i for i in [*held, card] if r.hands_of[i]]
            kit = ", ".join(card_name(s, i) for i in kit_ids)
            need = sum(r.hands_of[i] for i in kit_ids)
            out.append(Finding("LB-EQUIP-1", f"{name} has {r.hands} hands; {kit} need {need}", "card"))
    return out or [Finding("LB-EQUIP-1", f"{name} cannot equip {card_name(s, card)} now")]


def why_not(state: GameState, action: Action) -> Findings:
    """The catalogue rule ``action`` breaks at ``state`` (it is not among the legal actions)."""
    assert isinstance(state, LootState)
    s, who = state, state.current_player()
    if who == TERMINAL:
        how = "the players won" if s.winner == "players" else "the players lost"
        return "LB-END-1", f"event '{action.kind}' after the game has ended ({how})"
    early = _why_out_of_phase(s, action)
    if early is not None:
        return early
    if action.kind == "enemy_turn":
        foe = s._enc().foe(action.get("enemy"))
        if foe is not None and foe.ko:
            return "LB-DMG-1", f"{foe.name} was defeated and removed: it does not attack"
        return "LB-RND-1", f"{action.get('enemy')} does not attack now"
    if (
        action.kind in ("attack", "heal", "pass")
        and action.get("player") in s.seat_of
        and s._by(action["player"]).ko
    ):
        return _why_player(s, action)
    if action.kind in ("attack", "heal", "pass") and s.pending is None and open_turn(s, action.get("player")):
        twice = _twice_in_turn(s, action)
        if twice or _again(s, action):
            return twice or _why_player(s, action)
    if action.kind == "equip" and (s.phase == "equip" or s.battle is None):
        return _why_equip(s, action)
    if action.kind in ("equip", "unequip"):
        return _why_kit_change(s, action)
    if action.kind in ("encounter_chosen", "encounter_drawn", "ready"):
        return "LB-SETUP-3", f"'{action.kind}' is not the Leader's to do now"
    if who == CHANCE and action.kind != "end_turn":
        return ("LB-RND-1",
                f"{action.get('player')} acts, but the enemies in front of the last player attack first")
    return _why_player(s, action)


def _why_out_of_phase(s: LootState, action: Action) -> tuple[str, str] | None:
    """A fight's action with no fight, a die or a target die that no die shows, a card not in the
    deck; None when the action is none of these."""
    if action.kind in ("attack", "heal", "pass", "enemy_turn", "end_turn") and s.phase != "fight":
        kind = "enemy_attack" if action.kind == "enemy_turn" else action.kind
        return ("LB-TGT-1", f"'{kind}' with no enemies placed (each Encounter's enemies are placed with a "
                f"d{s.rules.target_die} each before the fight)")
    if action.kind == "die":
        return "LB-ATK-2", die_slip(f"a die{_whose_die(s)}", action.get("value"), s.rules.attack_die)
    if action.kind == "place":
        return "LB-TGT-1", f"a target die shows {action.get('value')!r}"
    if action.kind == "draw":
        card = s.rules.cards.get(action.get("card") or "")   # (drawn out of turn: named by slips.py)
        rule = "LB-LOOT-1" if s.phase == "loot" else "LB-SETUP-3"
        if card is not None and card.type == "loot":
            return rule, f"the Loot deck holds {card.copies} {card.name}; all were drawn already"
        return rule, f"{card_name(s, action.get('card'))} is not in the deck"
    return None


def _whose_die(s: LootState) -> str:
    """`` of <who>``: the attacker whose roll a die belongs to ('' when none is rolling)."""
    pend = s.pending
    if pend is None:
        return ""
    who = pend.get("player") if pend.get("kind") == "attack" else pend.get("enemy")
    return f" of {who.name}" if who is not None else ""


def _why_kit_change(s: LootState, a: Action) -> tuple[str, str]:
    """LB-EQUIP-1: an unequip of a card the player does not hold, an equip or unequip out of turn."""
    name, card = a.get("player"), a.get("card")
    if a.kind == "unequip" and name in s.seat_of and card not in s._by(name).equipment:
        return "LB-EQUIP-1", f"{name} has no {card_name(s, card)} equipped"
    return "LB-EQUIP-1", f"{name} cannot {a.kind} {card_name(s, card)} now"

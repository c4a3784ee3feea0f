"""Bone Wars — the damage a log states, against what the state's last blow did (BW-ATK-6…10,
BW-END-1): one problem for one slip, with the blow's arithmetic; then kept as recorded (the
log plays on from it). Used by the contract's ``claims``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardgen.games.bone_wars.rules import Blocked, Monster, Rules, blocked_combat
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.play.resync import ResyncReferee

Claim = tuple[str, str, str]        # (rule, message, the event's field)


def fight_text(r: Rules, a: Monster, b: Monster, ra: int, rb: int, res: Blocked) -> tuple[str, str]:
    """The dice arithmetic of a blocked attack and its result, as the messages say it."""
    pen = f" − {res.penalty} ({r.trait('intimidating')})" if res.penalty else ""
    at, bt = res.attack_total, res.block_total
    dice = f"{a.name} {ra} + {a.str}{pen} = {at} vs {b.name} {rb} + {b.def_} = {bt}"
    how = ("blocked, no damage" if bt > at else "hit" if at > bt
           else f"tie, half damage ({a.atk} ÷ {r.tie_div}, rounded {r.tie_round})")
    return dice, how


def blow_text(s: BoneWarsState, p: str) -> str:
    """How the last blow took ``p``'s HP where it is: ' (the arithmetic)', or ''."""
    out, hp = s.last, s.hp[p]
    if out is None:
        return ""
    if out.blow:
        a, roll, _ = out.blow
        rolled = f"{p} rolls {roll} against {a.name}'s Str {a.str}: " if roll is not None else ""
        if p not in out.player_dmg:
            return f" ({rolled}no damage)"
        return f" ({rolled + 'not higher; ' if rolled else ''}{a.name}'s Atk {a.atk}: {hp + a.atk} − {a.atk} = {hp})"
    if out.fight and p in out.player_dmg:
        a, b, _ra, _rb, res, before = out.fight
        over = out.player_dmg[p]
        return f" ({a.name} tramples: {res.damage} damage − {b.name}'s {before} HP left = {over}; " \
               f"{hp + over} − {over} = {hp})"
    return ""


def player_hit(s: BoneWarsState, p: str, resync: ResyncReferee, amount: Any, hp: Any,
               f_amount: str = "damage") -> Claim | None:
    """A player's damage and HP stated after a blow (``take_damage``, ``damage`` with a player)."""
    out = s.last
    rule = (out.player_rule.get(p) if out else None) or ("BW-ATK-9" if out is not None and out.blocked
                                                          else "BW-ATK-10")
    computed = out.player_dmg.get(p, 0) if out else 0
    bad_amount = amount is not None and amount != computed
    bad_hp = hp is not None and not resync.in_step(f"{p}'s HP", hp, s.hp[p])
    how = blow_text(s, p)
    found: Claim | None = None
    if bad_amount and bad_hp:
        found = rule, f"the log says {p} takes {amount} and has {hp} HP, but the rules give {computed} and " \
                      f"{s.hp[p]} HP{how}", f_amount
    elif bad_amount:
        found = rule, f"the log says the damage to {p} is {amount!r}, but the rules give {computed!r}{how}", f_amount
    elif bad_hp:
        found = rule, f"the log says {p}'s HP is {hp!r}, but the rules give {s.hp[p]!r}{how}", "hp_left"
    if hp is not None:                          # as recorded
        s.hp[p] = hp
    elif amount is not None:
        s.hp[p] -= amount - computed
    if amount is not None and out is not None:
        out.player_dmg[p] = amount
    if s.hp[p] <= 0 and p not in s.out:
        s.eliminate(p)
        if out is not None:
            out.eliminated.append(p)
    elif s.hp[p] > 0 and p in s.out and out is not None and p in out.eliminated:
        out.eliminated.remove(p)
        s.uneliminate(p)
    return found


def monster_hit(s: BoneWarsState, resync: ResyncReferee, m: Monster, amount: Any, hp: Any) -> Claim | None:
    """A monster's damage and HP left stated after a blocked attack (BW-ATK-7, or BW-ATK-6 when
    the stated damage is the one without an Intimidating blocker's penalty)."""
    out = s.last
    computed = out.monster_dmg.get(m.name, 0) if out else 0
    found = _monster_claim(s, resync, m, amount, hp, computed)
    if hp is not None and hp != m.hp_left:      # as recorded (HP left wins over the amount)
        m.damage, m.view = m.hp - hp, None
    elif amount is not None:
        m.damage += amount - computed
        m.view = None
    if amount is not None and out is not None:
        out.monster_dmg[m.name] = amount
    if s.alive(m) and m.damage >= m.hp:
        s.destroy(m)
        if out is not None:
            out.destroyed.append(m.name)
    elif not s.alive(m) and m.damage < m.hp and out is not None and m.name in out.destroyed:
        out.destroyed.remove(m.name)
        s.restore(m)
    return found


def _monster_claim(s: BoneWarsState, resync: ResyncReferee, m: Monster, amount: Any, hp: Any,
                   computed: int) -> Claim | None:
    bad_amount = amount is not None and amount != computed
    bad_hp = hp is not None and not resync.in_step(f"{m.name}'s HP left", hp, m.hp_left)
    if not (bad_amount or bad_hp):
        return None
    said = " and ".join(x for x in (f"takes {amount}" if amount is not None else "",
                                    f"has {hp} HP left" if hp is not None else "") if x)
    rules_say = " and ".join(x for x in (f"{computed}" if amount is not None else "",
                                         f"{m.hp_left} HP left" if hp is not None else "") if x)
    field = "amount" if bad_amount else "hp_left"
    fight = s.last.fight if s.last is not None else ()
    if not fight or fight[1] is not m:
        return "BW-ATK-7", f"the log says {m.name} {said}, but the rules give {rules_say}", field
    a, b, ra, rb, res, before = fight
    dice, how = fight_text(s.rules, a, b, ra, rb, res)
    if res.penalty:
        alt = blocked_combat(replace(s.rules, penalty=0), a, b, ra, rb)
        if (amount is None or amount == alt.damage) and (hp is None or hp == max(0, before - alt.damage)):
            dice0, how0 = fight_text(s.rules, a, b, ra, rb, alt)
            return "BW-ATK-6", f"the log says {m.name} {said}: that is {a.name}'s attack without {m.name}'s " \
                               f"{s.rules.trait('intimidating')} penalty ({dice0}: {how0}); with it, {dice}: {how}", field
    return "BW-ATK-7", f"the log says {m.name} {said}, but the rules give {rules_say} ({dice}: {how})", field

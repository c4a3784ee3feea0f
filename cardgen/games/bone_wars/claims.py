"""Bone Wars — what a log states, against what the state did (the contract's ``claims``), and
the trace of ``cardgen check --trace`` (read from the state only). A stated consequence that
differs is one problem for one slip, with the blow's arithmetic, then kept as recorded (the log
plays on from it): the damage of a blow (BW-ATK-6…10, BW-END-1), a monster's stats and Traits
(BW-CREATE-5), destroyed monsters and eliminated players, the HP at a turn's end."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from cardgen.games.bone_wars.rules import Blocked, Monster, Rules, blocked_combat
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.play.lookup import Names, log_name, log_player
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
    rule = "BW-ATK-9" if out is not None and out.fight else "BW-ATK-10"
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


def monster(s: BoneWarsState, value: Any, field: str) -> Monster:
    m = s.find(value) if isinstance(value, str) else None
    return m or log_name(Names("monster", [*s.graveyard.items(), *s.monsters.items()]), value, field,
                         " (a monster is named by its 'create' event)")


def _stats(s: BoneWarsState, event: Mapping[str, Any], resync: ResyncReferee) -> Claim | None:
    name, r = str(event.get("monster") or "").strip(), s.rules
    m = s.find(name)
    if m is None:
        return None
    for k, v in (event.get("stats") or {}).items():
        if v is not None and v != m.stat(k):
            return ("BW-CREATE-5", f"the log says {m.name}'s {r.stat_names.get(k, k)} is {v!r}, but the "
                    f"rules give {m.stat(k)!r}", "stats")
    if event.get("traits") is not None:
        stated = {str(t).strip().lower() for t in event["traits"]}
        if stated != m.traits:
            return ("BW-CREATE-5", f"the log gives {m.name} the Traits {r.trait_list(stated) or 'none'}, "
                    f"but the union of its parts' is {r.trait_list(m.traits) or 'none'}", "traits")
    return None


def _damage(s: BoneWarsState, event: Mapping[str, Any], resync: ResyncReferee) -> Claim | None:
    if event["kind"] == "take_damage" or event.get("player") is not None:
        f = "damage" if event["kind"] == "take_damage" else "amount"
        p = log_player(s.players, event["player"], "player")
        return player_hit(s, p, resync, event.get(f), event.get("hp_left"), f)
    m = monster(s, event["monster"], "monster")
    return monster_hit(s, resync, m, event.get("amount"), event.get("hp_left"))


def _destroyed(s: BoneWarsState, event: Mapping[str, Any], resync: ResyncReferee) -> Claim | None:
    """As recorded; no problem when the HP left stated was the slip."""
    m = monster(s, event["monster"], "monster")
    alt = resync.unslipped(f"{m.name}'s HP left", m.hp_left)
    if s.alive(m):
        s.destroy(m)
        if alt is None or alt > 0:
            return ("BW-ATK-8", f"{m.name} has {m.damage} damage and {m.hp} HP: a monster is destroyed when "
                    "its damage reaches its HP", "monster")
    return None


def _eliminated(s: BoneWarsState, event: Mapping[str, Any], resync: ResyncReferee) -> Claim | None:
    """As recorded; no problem when the HP stated was the slip."""
    p, hp = log_player(s.players, event["player"], "player"), s.hp
    alt = resync.unslipped(f"{p}'s HP", hp[p])
    if p not in s.out:
        s.eliminate(p)
        if alt is None or alt > 0:
            return "BW-END-1", f"{p} has {hp[p]} HP: a player is removed at 0 HP or less", "player"
    return None


def _hp(s: BoneWarsState, event: Mapping[str, Any], resync: ResyncReferee) -> Claim | None:
    """Every player's HP at a turn's end: the first wrong one named, all kept as recorded."""
    wrong = None
    for key, v in (event["hp"].items() if isinstance(event.get("hp"), Mapping) else ()):
        q = log_player(s.players, key, "hp")
        if isinstance(v, int) and v != s.hp[q]:
            if not resync.in_step(f"{q}'s HP", v, s.hp[q]):
                wrong = wrong or (s.hp_rule[q], f"the log says {q}'s HP is {v!r}, but the rules give "
                                  f"{s.hp[q]!r}", "hp")
            s.hp[q] = v             # as recorded
    return wrong


#: each event kind's stated consequences: (state, event, the checker's referee) → the first wrong one
CLAIMS: dict[str, Callable[[BoneWarsState, Mapping[str, Any], ResyncReferee], Claim | None]] = {
    "create": _stats, "add_part": _stats, "replace_part": _stats, "take_damage": _damage, "damage": _damage,
    "destroyed": _destroyed, "eliminated": _eliminated, "end_turn": _hp}


def brief(s: BoneWarsState, m: Monster) -> str:
    flags = []
    if m.tapped:
        flags.append("attacked" + (", can block" if "vigilant" in m.traits else ", cannot block"))
    tr = m.traits
    return (f"{m.name} [{' + '.join(c.name for c in m.parts)}] Str {m.str} Def {m.def_} Atk {m.atk} "
            f"HP {m.hp_left}/{m.hp}" + (f" · {s.rules.trait_list(tr)}" if tr else "")
            + (f" ({', '.join(flags)})" if flags else ""))


def table(s: BoneWarsState, title: str) -> list[str]:
    """The table after a turn (or at the end): HP, hands and monsters of every player."""
    lines = [f"      {title} — center pile {s.pile}, discard {len(s.discard)}"]
    for p in s.players:
        if p in s.out:
            lines.append(f"        {p}: out of the game")
            continue
        mons = s.owned(p)
        lines.append(f"        {p}: {s.hp[p]} HP, hand {s.hands[p].size}" + ("" if mons else ", no monsters"))
        lines += [f"          {brief(s, m)}" for m in mons]
    return lines


def describe(s: BoneWarsState, event: Mapping[str, Any]) -> list[str]:
    """What ``event`` did on the state (just played), as trace lines."""
    k, p, m = event.get("kind"), event.get("player"), s.find(str(event.get("monster")))
    if k == "draw":
        drawn = s.parts.get(str(event.get("card")))
        hand = s.hands[p].size if p in s.hands else '?'
        return [f"{p} draws {drawn.name if drawn else 'a card'} (hand {hand}, pile {s.pile})"]
    if k in ("create", "add_part", "replace_part") and m is not None:
        part = s.parts.get(str(event.get("card")))
        name = part.name if part else "?"
        does = {"create": "creates", "add_part": f"adds {name}:", "replace_part": f"puts in {name}:"}[k]
        return [f"{p} {does} {brief(s, m)}"]
    if k == "attack" and s.combat is not None:
        a, t = s.combat.attacker, s.combat.defender
        return [f"{a.name} (Str {a.str}, Atk {a.atk}) attacks {t}"
                + ("" if s.combat.able else f"; {t} has no monster able to block it")]
    if k == "block" and s.combat is not None:
        c = s.combat
        if c.blocker is not None:
            return [f"{c.defender} blocks with {brief(s, c.blocker)}"]
        if c.able:
            able = ", ".join(b.name for b in c.able)
            return [f"{c.defender} does not block (could with {able}): takes the damage"]
        return [f"{c.defender} does not block"]
    if k in ("roll", "take_damage") and s.last is not None:
        return _blow(s)
    if k == "end_turn":
        return [f"{p} ends the turn"]
    return []


def _blow(s: BoneWarsState) -> list[str]:
    last = s.last
    assert last is not None
    if last.fight:
        a, b, ra, rb, res, before = last.fight
        dice, how = fight_text(s.rules, a, b, ra, rb, res)
        if res.block_total > res.attack_total:
            return [f"{dice}: blocked, no damage"]
        out = [f"{dice}: {how}; {b.name} takes {res.damage} ({b.hp_left} of {b.hp} HP left)"]
        if b.name in last.destroyed:
            out.append(f"{b.name} is destroyed; its parts go to the discard pile")
        if b.owner in last.player_dmg:
            out.append(f"{a.name} tramples: {b.owner} takes the {last.player_dmg[b.owner]} left over: "
                       f"{s.hp[b.owner]} HP")
        return out + [f"{q} is out of the game" for q in last.eliminated]
    a, roll, d = last.blow
    rolled = f"{d} rolls {roll} against {a.name}'s Str {a.str}: " if roll is not None else ""
    if d not in last.player_dmg:
        return [f"{rolled}no damage"]
    out = [f"{rolled}not higher"] if rolled else []
    return out + [f"{d} takes {a.atk} from {a.name}: {s.hp[d]} HP"] + [f"{q} is out of the game"
                                                                          for q in last.eliminated]

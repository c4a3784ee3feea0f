"""Bone Wars — the trace of ``cardgen check --trace``: each event as the state played it (the
combat's arithmetic included) and the table after each turn. Read from the state only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.games.bone_wars.claims import fight_text
from cardgen.games.bone_wars.rules import Monster
from cardgen.games.bone_wars.state import BoneWarsState


def brief(s: BoneWarsState, m: Monster) -> str:
    flags = []
    if m.tapped:
        flags.append("attacked" + (", can block" if m.has("vigilant") else ", cannot block"))
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
    k, p = event.get("kind"), event.get("player")
    last, mons = s.last, {**s.graveyard, **s.monsters}
    if k == "draw":
        drawn = s.parts.get(str(event.get("card")))
        return [f"{p} draws {drawn.name if drawn else 'a card'} (hand {s.hands[p].size if p in s.hands else '?'}, "
                f"pile {s.pile})"]
    if k in ("create", "add_part", "replace_part") and str(event.get("monster")) in mons:
        m = mons[str(event["monster"])]
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
            return [f"{c.defender} does not block (could with {', '.join(b.name for b in c.able)}): takes the damage"]
        return [f"{c.defender} does not block"]
    if k in ("roll", "take_damage") and last is not None:
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

"""Boss Fight's legal actions, computed over the state's table (the same rules functions that
play a log): each placement hex and facing, each Move card's reachable hex (and the boss's
facing), each Attack card's weapon and target in range and sight, each Item card, each card
sacrificed, and the end of a turn once its actions are used.

Card text beyond the catalogue's rules (effects, feats, abilities, free moves and attacks that a
card grants with ``source:``) is not generated: the log records those as the table resolved them.
"""

from __future__ import annotations

from typing import Any

from cardgen.core import hexgrid as hg
from cardgen.core.hexgrid import Hex, rotate
from cardgen.games.boss_fight.placement import hero_starts
from cardgen.games.boss_fight.rules_combat import damage_formula
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.table import Table
from cardgen.play.api import Action, Made


def _off(e: Table, h: Hex) -> list[int]:
    return list(hg.to_offset(h, e.map.style))


def place_actions(e: Table, f: Fighter) -> list[Action]:
    """BF-PLACE-1: the boss on clear tiles of its zone in every facing; a hero on a free clear
    tile of the hero zone, at the placement distance from the boss while such a tile is free."""
    out: list[Action] = []
    if f.side == "boss":                    # the same on every copy of a game on one map: found once
        key = ("place", f.key, tuple(f.cells), f.anchor, e.rubble)
        got = e.sight_memo.get(key)
        if got is not None:
            return list(got)
        zone = e._zone("boss")
        tiles = sorted(zone if zone else e.map.tiles, key=lambda h: hg.to_offset(h, e.map.style)[::-1])
        for at in tiles:
            for rot in range(6):
                cells = [at + rotate(c - f.anchor, rot) for c in f.cells]
                if all(e._clear(h) and (not zone or h in zone) for h in cells):
                    out.append(Action.make("place", character=f.key, at=_off(e, at), rotate=rot))
        e.sight_memo[key] = tuple(out)
        return out
    zone = e._zone("hero")
    taken = {h for g in e.fighters.values() if g is not f and g.alive for h in g.hexes()}
    pool = [h for h in (zone if zone else e.map.tiles) if e._clear(h) and h not in taken]
    boss = e.boss()
    if boss.origin is not None:
        bhexes = frozenset(boss.hexes())
        far = e.sight_memo.get(("hero starts", bhexes))
        if far is None:
            far = frozenset(hero_starts(e.map, bhexes, e.distance, zone))
            e.sight_memo["hero starts", bhexes] = far
        if any(h in far for h in pool):
            pool = [h for h in pool if h in far]
    for h in sorted(pool, key=lambda h: hg.to_offset(h, e.map.style)[::-1]):
        out.append(Action.make("place", character=f.key, at=_off(e, h)))
    return out


def attack_lines(e: Table, f: Fighter, atype: str) -> list[tuple[str, int, bool]]:
    """The attacks ``f`` can make of type ``atype`` whose reach the rules say: what makes each, its range,
    whether it needs sight — what it carries, the same for every copy of the game (found once)."""
    key = ("lines", f.key, atype, id(f.equipment), id(f.pieces), id(f.abilities))
    got = e.sight_memo.get(key)
    if got is None:
        got = e.sight_memo[key] = [(w, int(ln["range"]), bool(ln.get("sight")))
                                   for w, ln in e._attack_lines(f, atype)
                                   if ln.get("range") is not None and ln.get("damage") is not None
                                   and ln.get("stat") is not None]
    return got


def can_attack(e: Table, f: Fighter, t: Fighter, reach: int, sight: bool, known: dict[Any, Any]) -> bool:
    """BF-LOS-1/2: the target is within ``reach``, and in sight (or seen on the attacker's previous
    turn) when the attack needs ``sight``. ``known``: the distance and sight to each target found
    so far for ``f`` where it stands (one list of actions asks them of every card and weapon)."""
    d = known.get(t.key, False)
    if d is False:
        d = known[t.key] = e._dist(f, t)
    if d is None or d > reach:
        return False
    if not sight or t.key in f.seen_last:
        return True
    seen = known.get((t.key, "sight"))
    if seen is None:
        seen = known[t.key, "sight"] = e.sees(f, t)
    return bool(seen)


def hand_cards(e: Table, f: Fighter) -> list[str]:
    """The cards ``f`` may hold: those known by name and, while some in hand are unnamed (a log
    that records draws by count), any its deck still has a copy of."""
    if not f.hand.unknown:
        return sorted(f.hand.known)
    return sorted(set(f.hand.known) | {cid for cid in f.total if e._pool(f, cid) > 0})


#: a character's action with a card and no other choice (discard, item, a plain attack), or its
#: end of turn (card None): made once, shared by every state (a few per character and card)
_PLAIN: Made[Action] = Made(lambda k: Action(k[0], (("character", k[1]),) if k[2] is None else
                                             (("character", k[1]), ("card", k[2]))))


def move_actions(e: Table, f: Fighter, cid: str, ends: tuple[tuple[int, ...], ...]) -> list[Action]:
    """``f``'s Move card ``cid`` to each of ``ends`` (each action made once, :data:`_MOVES`)."""
    made = _MOVES[f.key, cid]
    return [made[d] for d in ends]


def _moves(k: tuple[str, str]) -> Made[Action]:
    head = (("character", k[0]), ("card", k[1]))
    return Made(lambda d: Action("move", (*head, ("to", d))) if len(d) == 2 else
                Action("move", (*head, ("to", d[:2]), ("rotate", d[2]))))


#: a Move card's action to each hex (a hero's (col, row), the boss's (col, row, rotation)), made
#: once per character, card and end: a few thousand a game at most, shared by every state
_MOVES: Made[Made[Action]] = Made(_moves)


#: an Attack card's action on a target with a weapon (its fields as Action.make freezes them), made once
_ATTACKS: Made[Action] = Made(lambda k: Action("attack", (("character", k[0]), ("card", k[1]),
                                                          ("target", k[2]), ("with", k[3]))))


def turn_actions(e: Table, f: Fighter) -> list[Action]:
    """BF-ACT-1…3, BF-MOVE-1/2, BF-LOS-1/2: what ``f`` may do now in its turn."""
    end = [_PLAIN["end_turn", f.key, None]]
    if not f.alive:
        return end
    mine = e.current is f
    used = e.used_actions if mine else 0
    need = e.need if mine else e._need_actions(f)
    if used >= need or f.hand.size == 0:
        return end
    attacks = e.attacks if mine else 0
    limit = e.attack_limit if mine else e.attack_cap
    out: list[Action] = []
    targets = [t for t in e.fighters.values() if t.side != f.side and t.alive]
    known: dict[Any, Any] = {}                                  # each target's distance and sight
    moves: dict[int, tuple[tuple[int, ...], ...]] = {}           # tiles → where a Move of that many ends
    stuck = any(s in e.no_move for s in f.statuses)
    capped = f.side == "boss" and attacks >= limit
    for cid in hand_cards(e, f):
        kind, tiles, atype = e.plays[cid]
        if kind == "move" and not stuck:
            ends = moves.get(tiles)
            if ends is None:
                ends = moves[tiles] = e.move_ends(f.key, tiles)
            out += move_actions(e, f, cid, ends)
        elif kind == "attack" and not capped:
            if atype is None:
                out.append(_PLAIN["attack", f.key, cid])
            else:
                for wid, reach, sight in attack_lines(e, f, atype):
                    for t in targets:
                        if can_attack(e, f, t, reach, sight, known):
                            out.append(_ATTACKS[f.key, cid, t.key, wid])
        elif kind == "item":
            out.append(_PLAIN["item", f.key, cid])
        out.append(_PLAIN["discard", f.key, cid])
    return out


def player_actions(e: Table, f: Fighter) -> list[Action]:
    if e.phase == "place" and f.placed is None:
        return place_actions(e, f)
    return turn_actions(e, f)


def attack_event(e: Table, chosen: Action, roll: int) -> dict[str, Any]:
    """The log event of a chosen attack once the defender rolled ``roll``, with its stated
    consequences: BF-CMB-1 (a roll of ``defence_miss`` misses, else it adds to the defence),
    BF-CMB-2 (the damage formula)."""
    f, t = e.fighters[chosen["character"]], e.fighters[chosen["target"]]
    atype = str(e.cards[chosen["card"]].get("attack"))
    line = next(ln for w, ln in e._attack_lines(f, atype) if w == chosen["with"])
    stat = str(line["stat"])
    hit = roll != e.miss
    dmg = damage_formula(int(line["damage"]), e.stat(f, stat), e.stat(t, stat) + roll, e.formula)[0] if hit else 0
    return {**{k: v for k, v in chosen.items}, "defence": roll, "damage": dmg, "hp_left": t.hp - dmg}

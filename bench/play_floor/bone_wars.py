"""The play floor of Bone Wars: one random game, written the shortest, fastest plain-Python way,
with no game-state API (no Action objects, no observation, no history, no log). What the engine
(``cardgen/games/bone_wars/state.py``) is measured against in ``bench/playspeed.py``.

The same game the uniform random agent plays on the state, choice for choice: the turn-order
d20s (tied highest re-roll), the deal, each turn's draw, then uniformly one of the legal
actions — a create or an edit (one a turn, before the first attack), an attack by a monster
that may (once a turn; not fresh unless Haste) on an opponent still in, or the end of the turn;
the defender's block (any able monster, or none), d20 + Str (− Intimidating) against d20 + Def
with the tie's half damage and Trample's overflow, or unblocked: the Atk taken, or (when nothing
could block) a d20 above the attacker's Str for none. Every number is read once from the loaded
game's params and Part cards.
"""

from __future__ import annotations

import random
from typing import Any

# a part: (id, type, str, def, atk, hp, traits); a monster: a list (see M_* below)
M_OWNER, M_PARTS, M_STR, M_DEF, M_ATK, M_HP, M_TRAITS, M_DMG, M_FRESH, M_ATTACKED, M_TAPPED = range(11)
MEET = ("flying", "marine")


class Floor:
    """The rules' numbers and the Part cards as plain tuples, read once."""

    def __init__(self, game: Any):
        p = game.params
        self.hand, self.hp, self.die = int(p["hand_size"]), int(p["starting_hp"]), int(p["die"])
        self.draws, self.edits, self.max_parts = int(p["draw_per_turn"]), int(p["edits_per_turn"]), int(p["max_parts"])
        self.penalty = int(p["intimidating_str_penalty"])
        self.tie_div, self.tie_up = max(1, int(p["tie_damage"]["divisor"])), p["tie_damage"]["rounding"] == "up"
        self.reroll = p["turn_order_tie"] == "reroll"
        self.to_hand, self.damage_stays = p["replaced_part_to"] == "hand", bool(p["damage_stays_on_replace"])
        self.parts = {c.id: (c.id, str(c.get("part")), int(c.get("str") or 0), int(c.get("def") or 0),
                             int(c.get("atk") or 0), int(c.get("hp") or 0), frozenset(c.get("traits") or ()))
                      for c in game.cards if c.type == "part"}
        self.pile = sorted(c.id for c in game.cards if c.type == "part" for _ in range(int(c.copies)))


def _meets(ta: frozenset, tb: frozenset) -> bool:
    for t in MEET:
        if (t in ta and t not in tb and "reach" not in tb) or (t in tb and t not in ta and "reach" not in ta):
            return False
    return True


def _set(m: list, parts: list) -> None:
    m[M_PARTS] = parts
    m[M_STR], m[M_DEF] = sum(x[2] for x in parts), sum(x[3] for x in parts)
    m[M_ATK], m[M_HP] = sum(x[4] for x in parts), sum(x[5] for x in parts)
    m[M_TRAITS] = frozenset().union(*(x[6] for x in parts))


def play_setup(f: Floor, setup: dict, rng: random.Random, max_steps: int = 20_000) -> str | None:
    """One random game of the setup's players to its end: the winner, or None (stuck / the cap)."""
    return play(f, len(setup["players"]), rng, max_steps)


def play(f: Floor, n: int, rng: random.Random, max_steps: int = 20_000) -> str | None:
    rand, die = rng.randrange, f.die
    contenders, first = list(range(n)), None
    while first is None:                                    # BW-SETUP-3
        rolls = [(rand(die), i) for i in contenders]
        top = max(r for r, _ in rolls)
        tied = [i for r, i in rolls if r == top]
        if len(tied) == 1 or not f.reroll:
            first = tied[0]
        contenders = tied
    pile = list(f.pile)
    rng.shuffle(pile)
    hands: list[list[str]] = [[pile.pop() for _ in range(f.hand)] for _ in range(n)]
    hp, out = [f.hp] * n, [False] * n
    monsters: list[list] = []
    turn, cur, steps = 1, first, 0
    while steps < max_steps:
        steps += 1
        for m in monsters:                                  # BW-ATK-5: untapped from their controller's turn
            if m[M_OWNER] == cur:
                m[M_TAPPED] = False
        for _ in range(min(f.draws, len(pile))):
            hands[cur].append(pile.pop())
        edits, attacked = 0, False
        while True:
            steps += 1
            hand = sorted(set(hands[cur]))
            opts: list[tuple] = []
            mine = [m for m in monsters if m[M_OWNER] == cur]
            if not attacked and edits < f.edits and hand:
                opts += [(0, c) for c in hand]
                for m in mine:
                    types = {x[1]: x for x in m[M_PARTS]}
                    room = len(m[M_PARTS]) < f.max_parts
                    for c in hand:
                        old = types.get(f.parts[c][1])
                        if old is not None:
                            opts.append((2, c, m, old))
                        elif room:
                            opts.append((1, c, m))
            foes = [t for t in range(n) if t != cur and not out[t]]
            for m in mine:
                if m[M_ATTACKED] != turn and (m[M_FRESH] != turn or "haste" in m[M_TRAITS]):
                    opts += [(3, m, t) for t in foes]
            k = rand(len(opts) + 1)
            if k == len(opts):                               # end_turn
                break
            o = opts[k]
            if o[0] < 3:                                     # a create or an edit
                edits += 1
                hands[cur].remove(o[1])
                part = f.parts[o[1]]
                if o[0] == 0:
                    m = [cur, [], 0, 0, 0, 0, frozenset(), 0, turn, 0, False]
                    _set(m, [part])
                    monsters.append(m)
                elif o[0] == 1:
                    _set(o[2], [*o[2][M_PARTS], part])
                else:
                    m, old = o[2], o[3]
                    ps = m[M_PARTS]
                    i = ps.index(old)
                    _set(m, [*ps[:i], part, *ps[i + 1:]])
                    if f.to_hand:
                        hands[cur].append(old[0])
                    if not f.damage_stays:
                        m[M_DMG] = 0
                    m[M_FRESH] = turn
                    if m[M_DMG] >= m[M_HP]:                  # BW-ATK-8 ruling
                        monsters.remove(m)
                continue
            attacked = True
            a, d = o[1], o[2]
            a[M_ATTACKED], a[M_TAPPED] = turn, True
            able = [b for b in monsters if b[M_OWNER] == d and (not b[M_TAPPED] or "vigilant" in b[M_TRAITS])
                    and _meets(a[M_TRAITS], b[M_TRAITS])]
            steps += 2
            k = rand(len(able) + 1)
            hurt = 0
            if k < len(able):                                # blocked: BW-ATK-6…9
                b = able[k]
                at = rand(die) + 1 + a[M_STR] - (f.penalty if "intimidating" in b[M_TRAITS] else 0)
                bt = rand(die) + 1 + b[M_DEF]
                if bt <= at:
                    dmg = a[M_ATK] if at > bt else (-(-a[M_ATK] // f.tie_div) if f.tie_up else a[M_ATK] // f.tie_div)
                    before = max(0, b[M_HP] - b[M_DMG])
                    b[M_DMG] += dmg
                    if b[M_DMG] >= b[M_HP]:
                        monsters.remove(b)
                        if "trample" in a[M_TRAITS] and dmg > before:
                            hurt = dmg - before
            elif able or rand(2) == 0 or rand(die) + 1 <= a[M_STR]:   # unblocked: BW-ATK-10
                hurt = a[M_ATK]
            if hurt:
                hp[d] -= hurt
                if hp[d] <= 0:                               # BW-END-1, BW-END-2
                    out[d] = True
                    monsters = [m for m in monsters if m[M_OWNER] != d]
                    alive = [t for t in range(n) if not out[t]]
                    if len(alive) == 1:
                        return str(alive[0])
        turn += 1
        cur = next(t for t in ((cur + k) % n for k in range(1, n + 1)) if not out[t])
        if not pile and not monsters and not any(hands[t] for t in range(n) if not out[t]):
            return None                                      # stuck: nobody can ever act again
    return None

"""The play floor of Loot & Battles: one random game, written the shortest, fastest plain-Python
way, with no game-state API (no Action objects, no legal-action lists kept, no log). What an
engine on the API is measured against in ``bench/simulate.py`` — as the hand-written reportlab
sheet is the floor of a card sheet.

Same game as ``cardgen/games/loot_battles/play.py`` played by the uniform random agent (every
number read once from the loaded game's cards and params): the Leader equips and unequips at
random until ready, chooses or draws the Encounter, reinforcements, target dice, rounds from the
Leader leftwards with each player's attacks (one roll per Attack group), heals or pass, the
enemies in front attacking after their player, Armor first, Dodge lost on a miss, knock-outs
moving enemies left, the unique effects, Battles won until the party has won enough.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

H, A, D, MH, MA, MD, KO = range(7)      # a fighter: [health, armor, dodge, max…, ko] (+ enemy: front, card)


class Floor:
    """The game's numbers and cards as plain tuples, read once."""

    def __init__(self, game: Any):
        p, cards = game.params, game.cards
        self.win = {int(k): int(v) for k, v in p["battles_to_win"].items()}
        self.first_loot, self.n_drawn = list(p["first_encounter_loot"]), int(p["encounters_drawn"])
        self.tdie, self.adie, self.loss = int(p["target_die"]), int(p["attack_die"]), int(p["dodge_loss_on_miss"])
        self.limits, self.hands, self.hands_used = dict(p["equip_limits"]), int(p["hands"]), dict(p["hands_used"])
        self.final_loot = bool(p.get("final_battle_loot", False))
        self.max_rounds = int((p.get("simulate") or {}).get("max_rounds") or 0)
        fx = p.get("unique_effects") or {}
        self.cls = {c.id: c for c in cards if c.type == "class"}
        self.enemy = {c.id: (int(c.get("health") or 0), int(c.get("armor") or 0), int(c.get("dodge") or 0),
                             int(c.get("damage") or 0), int(c.get("attack") or 1)) for c in cards if c.type == "enemy"}
        self.enc = {c.id: (str(c.get("enemy")), int(c.get("count") or 0), int(c.get("reinforcement") or 0),
                           int(c.get("loot") or 0), c.copies) for c in cards if c.type == "encounter"}
        # item: (id, category, damage|None, type, attack, armor, dodge, health|None, hits, effects)
        self.item = {}
        for c in cards:
            if c.type == "loot":
                e = dict(fx.get(c.id) or {}) if c.get("rank") == "unique" else {}
                dmg = c.get("damage")
                self.item[c.id] = (c.id, c.get("category"), None if dmg is None else int(dmg), c.get("damage_type"),
                                   0 if e.get("never_misses") else int(c.get("attack") or 0), int(c.get("armor") or 0),
                                   int(c.get("dodge") or 0), c.get("health"), int(c.get("hits") or 1), e)
        self.loot_copies = {c.id: c.copies for c in cards if c.type == "loot"}


def _draw(deck: dict[str, int], rng: random.Random) -> str:
    r = rng.random() * sum(deck.values())
    for c, n in sorted(deck.items()):
        if n > 0:
            r -= n
            if r < 0:
                return c
    return next(c for c, n in sorted(deck.items(), reverse=True) if n > 0)


def play(f: Floor, classes: list[str], starting_loot: bool, rng: random.Random, max_steps: int = 20_000) -> str | None:
    """One random game to its end: 'players', 'enemies' or None (a stalemate / the cap)."""
    n = len(classes)
    cl = [f.cls[c] for c in classes]
    base = [(int(c.get("health") or 0), int(c.get("armor") or 0), int(c.get("dodge") or 0)) for c in cl]
    eq: list[list[str]] = [[] for _ in range(n)]
    pl = [[b[0], b[1], b[2], b[0], b[1], b[2], False] for b in base]
    target, won, leader, steps = f.win.get(n) or 1, 0, 0, 0
    enc_deck = {k: v[4] for k, v in f.enc.items()}
    loot_deck, pool = dict(f.loot_copies), {}

    def refresh(i: int) -> None:
        its = [f.item[x] for x in eq[i]]
        p = pl[i]
        p[MA] = p[A] = max(0, base[i][1] + sum(t[5] for t in its))
        p[MD] = p[D] = max(0, base[i][2] + sum(t[6] for t in its))

    def loot(k: int) -> None:
        nonlocal steps
        for _ in range(min(k, sum(loot_deck.values()))):
            c = _draw(loot_deck, rng)
            loot_deck[c] -= 1
            pool[c] = pool.get(c, 0) + 1
            steps += 1

    def may_equip(i: int, c: str) -> bool:
        its = [f.item[x] for x in eq[i]] + [f.item[c]]
        cat = f.item[c][1]
        lim = f.limits.get(cat)
        if lim is not None and sum(1 for t in its if t[1] == cat) > lim:
            return False
        return sum(f.hands_used.get(t[1], 0) for t in its) <= f.hands

    def order() -> list[int]:
        return [(leader + k) % n for k in range(n) if not pl[(leader + k) % n][KO]]

    if starting_loot:
        loot(n)
    winner = None
    while winner is None and steps < max_steps:
        while True:             # the equip phase: the Leader's random choices until ready
            opts = [(i, c, True) for i in range(n) for c in sorted(pool) if pool[c] and may_equip(i, c)]
            opts += [(i, c, False) for i in range(n) for c in dict.fromkeys(eq[i])]
            steps += 1
            k = rng.randrange(len(opts) + 1)
            if k == len(opts):
                break
            i, c, on = opts[k]
            if on:
                pool[c] -= 1
                eq[i].append(c)
            else:
                eq[i].remove(c)
                pool[c] = pool.get(c, 0) + 1
            refresh(i)
        if won == 0:
            firsts = [c for c in f.enc if f.enc[c][3] in f.first_loot and enc_deck[c]]
            first = firsts[rng.randrange(len(firsts))]
            enc_deck[first] -= 1
        else:
            if sum(enc_deck.values()) < f.n_drawn:
                enc_deck = {k: v[4] for k, v in f.enc.items()}
            drawn = []
            for _ in range(f.n_drawn):
                c = _draw(enc_deck, rng)
                enc_deck[c] -= 1
                drawn.append(c)
            steps += f.n_drawn + 1
            picks = list(dict.fromkeys(drawn))
            first = picks[rng.randrange(len(picks))]
        queue = [(first, False)]
        need = f.enc[first][2]
        if need:
            if sum(enc_deck.values()) < need:
                enc_deck = {k: v[4] for k, v in f.enc.items()}
                enc_deck[first] -= 1
            for _ in range(need):
                c = _draw(enc_deck, rng)
                enc_deck[c] -= 1
                queue.append((c, True))
                steps += 1
        for card, reinf in queue:
            if winner is not None:
                break
            ename, count, extra = f.enc[card][:3]
            eh, ea, ed, edmg, eatk = f.enemy[ename]
            active = [i for i in range(n) if not pl[i][KO]] or list(range(n))
            owner = {v: active[(v - 1) % len(active)] for v in range(1, f.tdie + 1)}
            foes = [[eh, ea, ed, eh, ea, ed, False, owner[rng.randint(1, f.tdie)]]
                    for _ in range(count + (extra if reinf else 0))]
            steps += len(foes)
            for p in pl:
                if not p[KO]:
                    p[A] = p[MA]
            rounds = 1
            while winner is None and steps < max_steps:
                excused: set[int] = set()
                for q in order():
                    if winner is not None or not any(not e[KO] for e in foes):
                        break
                    if pl[q][KO]:
                        continue
                    # the player's turn: attacks (one roll per Attack group), a heal, or pass
                    used: set[int] = set()
                    groups: dict[int, list[tuple]] = {}
                    for x in eq[q]:
                        t = f.item[x]
                        if t[2] is not None:
                            groups.setdefault(t[4] or (0 if t[9].get("never_misses") else int(cl[q].get("attack") or 1)),
                                              []).append(t)
                    if not groups:
                        groups = {int(cl[q].get("attack") or 1): []}
                    melee = {t[3] for g in groups.values() for t in g} == {"melee"} if any(groups.values()) \
                        else cl[q].get("damage_type") == "melee"
                    healers = [f.item[x] for x in eq[q] if f.item[x][7] is not None and f.item[x][2] is None]
                    opened = False
                    while True:
                        alive = [e for e in foes if not e[KO]]
                        if not alive:
                            break
                        front = [e for e in alive if e[7] == q]
                        allowed = front if front and melee else alive
                        opts: list[Any] = []
                        for g, its in sorted(groups.items()):
                            if g in used:
                                continue
                            hits = max((t[8] for t in its), default=1)
                            never = any(t[9].get("never_misses") for t in its)
                            for k in range(1, (min(hits, len(allowed)) if never else 1) + 1):
                                opts += [(g, ts) for ts in combinations(allowed, k)]
                        if not opened:
                            opts += [("heal", h, j) for h in healers for j in range(n) if j != q and not pl[j][KO]]
                        steps += 1
                        k = rng.randrange(len(opts) + 1)
                        if k == len(opts) or opts[k][0] == "heal":
                            if k < len(opts):
                                _, h, j = opts[k]
                                pl[j][H] = min(pl[j][MH], pl[j][H] + int(h[7]))
                            break
                        g, ts = opts[k]
                        its = groups[g]
                        used.add(g)
                        opened = True
                        total = sum(rng.randint(1, f.adie) for _ in range(g))
                        steps += g
                        never = any(t[9].get("never_misses") for t in its)
                        hits = max((t[8] for t in its), default=1)
                        tl = list(ts) * hits if never and len(ts) < hits else list(ts)
                        for t in tl[:hits] if never else tl:
                            if t[KO]:
                                continue
                            if not never and total <= t[D]:
                                t[D] = max(0, t[D] - f.loss)
                                continue
                            if its:
                                dmg = 0
                                for it in its:
                                    d, at = it[2], it[9].get("double_damage_at")
                                    dmg += d * 2 if at and total >= at * t[D] else d
                                if any(it[3] == cl[q].get("damage_type") for it in its):
                                    dmg += int(cl[q].get("damage") or 0)
                                for it in its:
                                    if it[9].get("heal_on_hit"):
                                        pl[q][H] = min(pl[q][MH], pl[q][H] + int(it[9]["heal_on_hit"]))
                            else:
                                dmg = int(cl[q].get("damage") or 0)
                            a = min(t[A], dmg)
                            t[A] -= a
                            t[H] = max(0, t[H] - (dmg - a))
                            if t[H] <= 0:
                                t[KO] = True
                        if len(used) == len(groups):
                            break
                    # the enemies in front of q attack (in a random order, as the chance node picks)
                    while winner is None:
                        due = [i for i, e in enumerate(foes) if not e[KO] and e[7] == q and i not in excused]
                        if not due:
                            break
                        ei = due[rng.randrange(len(due))]
                        excused.add(ei)
                        e, t = foes[ei], pl[q]
                        total = sum(rng.randint(1, f.adie) for _ in range(eatk))
                        steps += 1 + eatk
                        if total <= t[D]:
                            t[D] = max(0, t[D] - f.loss)
                            continue
                        a = min(t[A], edmg)
                        t[A] -= a
                        t[H] = max(0, t[H] - (edmg - a))
                        for x in eq[q]:
                            frac = f.item[x][9].get("reflect")
                            back = int(edmg * float(frac)) if frac else 0
                            if back:
                                a = min(e[A], back)
                                e[A] -= a
                                e[H] = max(0, e[H] - (back - a))
                                e[KO] = e[KO] or e[H] <= 0
                        if t[H] <= 0:
                            t[KO] = True
                            nxt = next((pl[(q + k) % n] for k in range(1, n + 1) if not pl[(q + k) % n][KO]), None)
                            if nxt is None:
                                winner = "enemies"
                                break
                            j = pl.index(nxt)
                            for k2, e2 in enumerate(foes):
                                if not e2[KO] and e2[7] == q:
                                    e2[7] = j
                                    excused.add(k2)     # simplified: they attack from the next round
                            break
                if winner is not None:
                    break
                for p in pl:                # the round's (or the Encounter's) end
                    if not p[KO]:
                        p[A] = p[MA]
                        for x in eq[pl.index(p)]:
                            h = f.item[x][9].get("heal_per_round")
                            if h:
                                p[H] = min(p[MH], p[H] + int(h))
                for e in foes:
                    e[A] = e[MA]
                if not any(not e[KO] for e in foes):
                    leader = (leader + 1) % n
                    break
                rounds += 1
                if f.max_rounds and rounds > f.max_rounds:
                    return None
        if winner is not None:
            break
        won += 1
        for p in pl:
            p[H], p[A], p[D], p[KO] = p[MH], p[MA], p[MD], False
        if won >= target:
            if f.final_loot:
                loot(f.enc[first][3])
            return "players"
        loot(f.enc[first][3])
    return winner

"""The play floor of Biomechanic Dino Battles: one random game, written the shortest, fastest
plain-Python way, with no game-state API (no Action objects, no events, no observation, no
history, no log). What the engine (``cardgen/games/dino_battles/``) is measured against in
``bench/playspeed.py``.

The same game the uniform random agent plays on the state, choice for choice (each choice
uniform over the same legal actions, each draw uniform over the cards left): the Initiative
roll, the opening hands, keep (set the Comp Cards aside) or take a new hand, the placement
(an active Dinosaur and any multiset of up to ``bench_max`` more); each turn the Startup
poison and Wound damage, the Main phases (bench, Upgrade, Item, Combat card, retreat paying
the Retreat Cost from hand, Action, use an Item, done) in Initiative order, the Combat phase
(first move by EVA; attack — plain or a Special Attack the Combat Deck pays —, pass, or agree
to end; the answer: counterattack, evade, defend or none; paralysis rolls; Spiked, Poisonous,
Wound and Paralyze), K.O.s (Comp Cards taken, the new active Dinosaur), the End phase draws,
and the end: K.O.s, no Dinosaur left, or a Main Deck run out. Every number is read once from
the loaded game's params, cards and deck files.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import yaml

ATK, EVA, DEF, HP, RETREAT, PARA, POISON, WOUND, SPIKED, SPECIALS = range(2, 12)   # a card (after id, type)
# a Dinosaur in play: [card, hp, upgrades, wound tokens, poison turns, paralyzed, evade bonus]
D_CARD, D_HP, D_UPS, D_WOUND, D_POISON, D_PARA, D_BONUS = range(7)
MOVES = ("attack", "evade", "defend")


def _card(c: Any) -> tuple:
    g = c.get
    specials = tuple((str(s["name"]), tuple((k, int(v)) for k, v in (s.get("cost") or {}).items() if v))
                     for s in g("specials") or [] if isinstance(s, dict) and s.get("name"))
    return (c.id, c.type, int(g("atk") or 0), int(g("eva") or 0), int(g("def") or 0), int(g("hp") or 0),
            int(g("retreat_cost") or 0), bool(g("paralyze")), int(g("poisonous") or 0), int(g("wound") or 0),
            int(g("spiked") or 0), specials, c.name, str(g("subtype") or ""), bool(g("permanent")))


class Floor:
    """The rules' numbers, the cards and the decks as plain tuples, read once."""

    def __init__(self, game: Any):
        p = game.params
        nh = p["new_hand"]
        self.die, self.hand_size, self.comp_n = p["die_sides"], p["hand_size"], p["comp_cards"]
        self.bench_max = p["bench_max"]
        self.free_new, self.penalty = nh["free_new_hands"], nh["penalty_per_new_hand"]
        self.min_hand = nh["min_hand_size"]
        self.nodino_free, self.nodino_counts = nh["no_dinosaur_free"], nh["no_dinosaur_counts"]
        self.even_a = str(p["initiative"]["even"]).upper().startswith("A")
        self.pass_from, self.item_max = p["initiative_passes_from_turn"], p["item_zone_max"]
        self.upgrade_max = p["upgrade_same_name_max"]
        self.draw_up, self.poison_hp, self.wound_hp = p["draw_up_to"], p["poison_hp"], p["wound_hp_per_token"]
        self.para_odd = p["paralyze_fails_on"] == "odd"
        self.comp_per_ko, self.kos_to_win = p["comp_cards_per_ko"], p["kos_to_win"]
        self.unanswered, self.failed_spends = p["unanswered_attack_hits"], p["failed_move_spends_cards"]
        self.poison_stacks, self.spike_triggers = p["poison_stacks"], p["spike_damage_triggers"]
        self.draw_tie = p["simultaneous_end"] == "draw"
        self.deck_tie_draw = p["deck_out_tie"] == "draw"
        self.cards = {c.id: _card(c) for c in game.cards}
        self.decks: dict[str, list[str]] = {}
        self.dir = game.cards_dir / "decks"
        self.turn = 0                                   # the turn of the game being played

    def deck(self, name: str) -> list[str]:
        if name not in self.decks:
            body = yaml.safe_load((self.dir / f"{name}.yaml").read_text(encoding="utf-8"))["deck"]["cards"]
            self.decks[name] = sorted(c for c, n in body.items() for _ in range(int(n)))
        return self.decks[name]


class Side:
    __slots__ = ("deck", "hand", "comps", "active", "bench", "combat", "items", "kos", "new_hands", "sizes")

    def __init__(self, deck: list[str]):
        self.deck, self.hand, self.comps = deck, {}, []
        self.active: list | None = None
        self.bench: list[list] = []
        self.combat = {"attack": 0, "evade": 0, "defend": 0}
        self.items: dict[str, int] = {}
        self.kos = self.new_hands = 0
        self.sizes: list[int] = []


class Over(Exception):
    """The game ended: ``args[0]`` the winner's seat (None: a draw), ``args[1]`` how."""


def _stat(d: list, k: int) -> int:
    return max(0, d[D_CARD][k] + sum(u[k] for u in d[D_UPS]))


def _level(d: list, k: int) -> int:
    return d[D_CARD][k] + sum(u[k] for u in d[D_UPS])


def _take(hand: dict, c: str) -> None:
    if hand[c] == 1:
        del hand[c]
    else:
        hand[c] -= 1


def _multisets(hand: dict, k: int) -> list[tuple]:
    if k <= 1:
        return [()] if k <= 0 else [(c,) for c in hand]
    if k > sum(hand.values()):
        return []
    return list(set(combinations(sorted(c for c, n in hand.items() for _ in range(n)), k)))


def play_setup(f: Floor, setup: dict, rng: random.Random) -> tuple[int | None, str, int]:
    """One random game of the setup's two decks: the winner's seat (None: a draw), how it ended
    (kos, no_dinosaurs, deck_out) and its last turn."""
    f.turn = 0
    try:
        _play(f, [Side(list(f.deck(str(p["deck"])))) for p in setup["players"]], rng)
    except Over as e:
        return e.args[0], e.args[1], f.turn
    raise AssertionError("a game ends only by Over")


def _draw(f: Floor, s: Side, n: int, rng: random.Random, to: dict | None = None) -> None:
    hand = s.hand if to is None else to
    deck = s.deck
    for _ in range(min(n, len(deck))):
        j = rng.randrange(len(deck))
        deck[j], deck[-1] = deck[-1], deck[j]
        c = deck.pop()
        hand[c] = hand.get(c, 0) + 1


def _deck_out(f: Floor, sides: list[Side], i: int) -> None:
    if not sides[i].deck:
        s, o = sides[i], sides[1 - i]
        if s.kos != o.kos:
            raise Over(i if s.kos > o.kos else 1 - i, "deck_out")
        raise Over(None if f.deck_tie_draw else 1 - i, "deck_out")


def _play(f: Floor, sides: list[Side], rng: random.Random) -> None:
    init = 0 if ((rng.randrange(f.die) + 1) % 2 == 0) == f.even_a else 1
    for i, s in enumerate(sides):
        _draw(f, s, f.hand_size, rng)
        s.sizes.append(f.hand_size)
        _deck_out(f, sides, i)
    for i in (0, 1):
        _keep(f, sides, i, rng)
    for s in sides:
        _place(f, s, rng)
    turn = 0
    while True:
        turn += 1
        f.turn = turn
        if turn >= f.pass_from:
            init = 1 - init
        order = (init, 1 - init)
        for i in order:                                 # BDB-ABIL-2
            for d in _in_play(sides[i]):
                loss = f.wound_hp * d[D_WOUND]
                if d[D_POISON] > 0:
                    loss += f.poison_hp
                    d[D_POISON] -= 1
                d[D_HP] -= loss
        _kos(f, sides, order, rng)
        used: set[str] = set()
        _main(f, sides, order, used, rng)
        _combat(f, sides, init, order, rng)
        _main(f, sides, order, used, rng)
        owed = [min(len(s.deck), max(0, f.draw_up - sum(s.hand.values()))) for s in sides]
        for i in order:                                 # BDB-END-1, BDB-END-3
            if owed[i]:
                _draw(f, sides[i], owed[i], rng)
                _deck_out(f, sides, i)


def _keep(f: Floor, sides: list[Side], i: int, rng: random.Random) -> None:
    """BDB-SETUP-2, 3: keep the hand (the Comp Cards set aside), or take a new hand."""
    s = sides[i]
    while True:
        nodino = not any(f.cards[c][1] == "dinosaur" for c in s.hand)
        if not nodino and rng.randrange(2) == 0:
            comps: dict[str, int] = {}
            _draw(f, s, f.comp_n, rng, comps)
            s.comps = [c for c, n in comps.items() for _ in range(n)]
            _deck_out(f, sides, i)
            return
        free = nodino and f.nodino_free
        counted = s.new_hands + (0 if free and not f.nodino_counts else 1)
        smaller = f.penalty * max(0, counted - f.free_new)
        size = s.sizes[-1] if free else max(f.min_hand, f.hand_size - smaller)
        s.new_hands = counted
        for c, n in s.hand.items():
            s.deck += [c] * n
        s.hand = {}
        s.sizes.append(size)
        _draw(f, s, size, rng)
        _deck_out(f, sides, i)


def _place(f: Floor, s: Side, rng: random.Random) -> None:
    """BDB-SETUP-4: an active Dinosaur and up to ``bench_max`` more, every multiset alike."""
    opts = []
    dinos = {c: n for c, n in s.hand.items() if f.cards[c][1] == "dinosaur"}
    for a in dinos:
        pool = sorted(c for c, n in dinos.items() for _ in range(n - (c == a)))
        for k in range(min(f.bench_max, len(pool)) + 1):
            opts += [(a, b) for b in set(combinations(pool, k))]
    a, b = opts[rng.randrange(len(opts))]
    for c in (a, *b):
        _take(s.hand, c)
    s.active = _dino(f.cards[a])
    s.bench = [_dino(f.cards[c]) for c in b]


def _dino(card: tuple) -> list:
    return [card, card[HP], [], 0, 0, False, 0]


def _in_play(s: Side) -> list[list]:
    return [s.active, *s.bench] if s.active is not None else s.bench


def _kos(f: Floor, sides: list[Side], order: tuple, rng: random.Random) -> None:
    """Every knocked-out Dinosaur (BDB-KO-1), in Initiative order; then the end (BDB-END-2)."""
    rand = rng.randrange
    while True:
        hit = next(((i, d) for i in order for d in _in_play(sides[i]) if d[D_HP] <= 0), None)
        if hit is None:
            return
        i, d = hit
        s, o = sides[i], sides[1 - i]
        k = rand(min(f.comp_per_ko, len(s.comps)) + 1)
        for _ in range(k):
            c = s.comps.pop(rand(len(s.comps)))
            s.hand[c] = s.hand.get(c, 0) + 1
        o.kos += 1
        if d is s.active:
            s.active = None
            if s.bench:
                s.active = s.bench.pop(rand(len(s.bench)))
            else:
                dinos = sorted(c for c in s.hand if f.cards[c][1] == "dinosaur")
                if dinos:
                    c = dinos[rand(len(dinos))]
                    _take(s.hand, c)
                    s.active = _dino(f.cards[c])
        else:
            s.bench.remove(d)
        if any(x[D_HP] <= 0 for j in order for x in _in_play(sides[j])):
            continue
        won = [j for j in (0, 1) if sides[j].kos >= f.kos_to_win]
        lost = [j for j in (0, 1) if not _in_play(sides[j])]
        how = "kos" if won else "no_dinosaurs"
        if len(won) == 2 or len(lost) == 2 or (won and lost and won[0] in lost):
            raise Over(None if f.draw_tie else order[0], how)
        if won or lost:
            raise Over(won[0] if won else 1 - lost[0], how)


def _main(f: Floor, sides: list[Side], order: tuple, used: set[str], rng: random.Random) -> None:
    """A Main phase (BDB-MAIN-1…3, BDB-ACT-1): each player's plays until done, in Initiative order."""
    for i in order:
        s = sides[i]
        while True:
            opts = _plays(f, s, used)
            k = rng.randrange(len(opts) + 1)
            if k == len(opts):                                # done
                break
            _play_main(f, s, opts[k], used)


def _plays(f: Floor, s: Side, used: set[str]) -> list[tuple]:
    cards, opts = f.cards, []
    for c in s.hand:
        card = cards[c]
        t = card[1]
        if t == "dinosaur":
            if len(s.bench) < f.bench_max:
                opts.append((0, c))
        elif t == "upgrade":
            opts += [(1, c, d) for d in s.bench if sum(u[12] == card[12] for u in d[D_UPS]) < f.upgrade_max]
        elif t == "item":
            if sum(s.items.values()) < f.item_max:
                opts.append((2, c))
        elif t in ("combat", "action"):
            opts.append((3 if t == "combat" else 5, c))
    if s.active is not None and s.bench:
        opts += [(4, pay, d) for pay in _multisets(s.hand, s.active[D_CARD][RETREAT]) for d in s.bench]
    return opts + [(6, c) for c in s.items if not (cards[c][14] and c in used)]


def _play_main(f: Floor, s: Side, o: tuple, used: set[str]) -> None:
    kind, c = o[0], o[1]
    if kind == 4:                                         # retreat
        for x in c:
            _take(s.hand, x)
        s.bench.remove(o[2])
        s.bench.append(s.active)
        s.active = o[2]
        return
    if kind == 6:                                         # use an Item
        if f.cards[c][14]:
            used.add(c)
        else:
            _take(s.items, c)
        return
    _take(s.hand, c)
    if kind == 0:
        s.bench.append(_dino(f.cards[c]))
    elif kind == 1:
        o[2][D_UPS].append(f.cards[c])
        o[2][D_HP] += f.cards[c][HP]
    elif kind == 2:
        s.items[c] = s.items.get(c, 0) + 1
    elif kind == 3:
        s.combat[f.cards[c][13]] += 1


def _payable(s: Side, cost: tuple) -> bool:
    cd = s.combat
    return (cd["attack"] + cd["evade"] + cd["defend"]) > 0 and all(cd[k] >= v for k, v in cost)


def _combat(f: Floor, sides: list[Side], init: int, order: tuple, rng: random.Random) -> None:
    """The Combat phase (BDB-CMB-1…6, BDB-ABIL-1…3)."""
    rand = rng.randrange
    a, b = sides
    ea = _stat(a.active, EVA) if a.active else -1
    eb = _stat(b.active, EVA) if b.active else -1
    first = 0 if ea > eb else 1 if eb > ea else init
    passed = False
    empty = not any(s.combat[m] for s in sides for m in MOVES)
    while not empty:
        i = first if not passed else 1 - first
        s = sides[i]
        opts: list[Any] = []
        if s.active is not None:
            if _payable(s, (("attack", 1),)):
                opts.append((("attack", 1),))
            opts += [cost for _name, cost in s.active[D_CARD][SPECIALS] if _payable(s, cost)]
        n = len(opts)
        k = rand(n + 1 + (not passed))
        if k > n:                                         # both agree: the phase ends
            break
        nxt = 1 - first
        if k == n:                                        # pass
            if not passed:
                passed = True
                continue
        else:
            total = _move(f, s, s.active, opts[k], ATK, rng)
            if total is None:                             # paralyzed: the move fails
                if i == first and not passed:
                    passed = True
                    continue
            else:
                nxt = _answer(f, sides, i, s.active, total, nxt, rng)
                _kos(f, sides, order, rng)
        first, passed = nxt, False
        empty = not any(s.combat[m] for s in sides for m in MOVES)
    for s in sides:
        for d in _in_play(s):
            d[D_PARA], d[D_BONUS] = False, 0


def _move(f: Floor, s: Side, d: list, cost: tuple, stat: int, rng: random.Random,
          answer: bool = False) -> int | None:
    """A move's paralysis roll, its cards paid and its total (None: it fails). A counterattack
    uses up the evade bonus even when it fails; an attack only when it is made."""
    bonus = d[D_BONUS] if stat == ATK else 0
    if answer and stat == ATK:
        d[D_BONUS] = 0
    ok = not d[D_PARA] or ((rng.randrange(f.die) + 1) % 2 == 1) != f.para_odd
    if ok or f.failed_spends:
        for k, v in cost:
            s.combat[k] = max(0, s.combat[k] - v)
    if not ok:
        return None
    if stat == ATK:
        d[D_BONUS] = 0
    return rng.randrange(f.die) + 1 + _stat(d, stat) + bonus


def _answer(f: Floor, sides: list[Side], i: int, x: list, a_total: int, nxt: int, rng: random.Random) -> int:
    """The attacked player's answer and the damage (BDB-CMB-2…5); the next first move."""
    t = sides[1 - i]
    y = t.active
    opts: list[tuple] = []
    if y is not None:
        if _payable(t, (("attack", 1),)):
            opts.append((ATK, (("attack", 1),)))
        opts += [(ATK, cost) for _name, cost in y[D_CARD][SPECIALS] if _payable(t, cost)]
        opts += [(st, ((m, 1),)) for st, m in ((EVA, "evade"), (DEF, "defend")) if _payable(t, ((m, 1),))]
    k = rng.randrange(len(opts) + 1)
    o = _move(f, t, y, opts[k][1], opts[k][0], rng, True) if k < len(opts) else None
    if o is None:
        _hits(f, [(x, y, a_total)] if f.unanswered else [])
    elif opts[k][0] == ATK:
        _hits(f, [(x, y, a_total), (y, x, o)])
    elif opts[k][0] == EVA:
        if o > a_total:
            y[D_BONUS] = o - a_total
            return 1 - i
        _hits(f, [(x, y, a_total)])
    else:
        _hits(f, [(x, y, a_total - o)] if a_total > o else [(y, x, o - a_total)])
    return nxt


def _hits(f: Floor, hits: list[tuple]) -> None:
    """Combat damage dealt at once; then the dealers' abilities and the Spiked damage back."""
    for _src, dst, n in hits:
        if dst is not None and n > 0:
            dst[D_HP] -= n
    for src, dst, n in hits:
        if dst is not None and src is not None and n > 0:
            _afflict(f, src, dst)
            spikes = _level(dst, SPIKED)
            if spikes > 0:
                src[D_HP] -= spikes
                if f.spike_triggers:
                    _afflict(f, dst, src)


def _afflict(f: Floor, src: list, dst: list) -> None:
    if src[D_CARD][PARA] or any(u[PARA] for u in src[D_UPS]):
        dst[D_PARA] = True
    p = _level(src, POISON)
    if p > 0:
        dst[D_POISON] = dst[D_POISON] + p if f.poison_stacks else max(dst[D_POISON], p)
    w = _level(src, WOUND)
    if w > 0:
        dst[D_WOUND] += w

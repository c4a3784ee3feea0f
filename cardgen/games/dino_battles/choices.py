"""Biomechanic Dino Battles: the choices the rules allow a player now, read off the table (the
same table ``cardgen check`` replays a log on) and the player's hand.

Each function lists :class:`~cardgen.play.api.Action` values in the log's vocabulary (the
fields that are the player's choice; dice and stated consequences are added when the move is
made). ``hand`` is the cards a player holds by id — the true hand in a played game, or what a
log's hidden cards could be (see :func:`possible_hand`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from cardgen.games.dino_battles.pieces import Dino, Side
from cardgen.games.dino_battles.table import Table
from cardgen.play.api import Action, Made


def distinct(hand: Counter, eng: Table, kind: str) -> list[str]:
    """The distinct cards of type ``kind`` in ``hand``, sorted."""
    return sorted(c for c, n in hand.items() if n > 0 and eng.cards[c].type == kind)


def possible_hand(eng: Table, s: Side) -> Counter:
    """What ``s`` may hold as the log reveals it: the known cards, and for hidden ones any card
    the Main Deck still has copies of."""
    hand = Counter(s.hand_known)
    unknown = s.hand_unknown
    if unknown:
        for c, n in s.deck_cards.items():
            left = n - s.seen[c]
            if left > 0:
                hand[c] += min(left, unknown)
    return hand


# -- setup ---------------------------------------------------------------------------------------

def keep_or_new(eng: Table, s: Side, hand: Counter) -> list[Action]:
    """BDB-SETUP-2, 3: keep the hand (set the Comp Cards aside) or take a new hand; a hand with no
    Dinosaur must be redrawn (no penalty)."""
    if not distinct(hand, eng, "dinosaur"):
        return [Action.make("new_hand", player=s.name, no_dinosaur=True)]
    return [Action.make("comp_cards", player=s.name), Action.make("new_hand", player=s.name)]


def placements(eng: Table, s: Side, hand: Counter) -> list[Action]:
    """BDB-SETUP-4: an active Dinosaur from hand and up to ``bench_max`` more on the bench."""
    out = []
    for active in distinct(hand, eng, "dinosaur"):
        rest = Counter(hand)
        rest[active] -= 1
        pool = sorted(c for c in rest.elements() if eng.cards[c].type == "dinosaur")
        seen: set[tuple[str, ...]] = set()
        for k in range(0, min(eng.bench_max, len(pool)) + 1):
            for bench in itertools.combinations(pool, k):
                if bench not in seen:
                    seen.add(bench)
                    out.append(Action.make("place", player=s.name, active=active, bench=list(bench)))
    return out


# -- the Main phases -----------------------------------------------------------------------------

def main_plays(eng: Table, s: Side, hand: Counter, used: set[str]) -> list[Action]:
    """Every play of a Main phase (BDB-MAIN-1…3, BDB-ACT-1): bench a Dinosaur, attach an Upgrade
    to a benched one, place an Item, add a Combat card to the Combat Deck, switch the active
    Dinosaur (paying the Retreat Cost from hand), play an Action, use an Item, or be done.
    ``used``: the Permanent Items already used this turn (using one again changes nothing the
    rules model)."""
    t = made[s.name]
    dinos, ups, items, combat, actions = [], [], [], [], []
    cards = eng.cards
    for c in sorted(hand):                      # a hand holds no card 0 times
        kind = cards[c].type
        if kind == "combat":
            combat.append(t["combat_to_deck"][c])
        elif kind == "dinosaur":
            dinos.append(c)
        elif kind == "upgrade":
            ups.append(c)
        elif kind == "item":
            items.append(c)
        elif kind == "action":
            actions.append(c)
    out = [t["bench"][c] for c in dinos] if len(s.bench) < eng.bench_max else []
    for u in ups:
        uname = cards[u].name
        out += [t["upgrade"][u, d.label] for d in s.bench
                if (sum(1 for x in d.upgrades if x.name == uname) if d.upgrades else 0) < eng.upgrade_max]
    if items and s.items < eng.item_max:
        out += [t["item"][c] for c in items]
    out += combat
    if s.active is not None and s.bench:
        cost, to, r = int(s.active.card.get("retreat_cost") or 0), [d.label for d in s.bench], t["retreat"]
        if cost <= 2:                           # made once; dearer discards are too many to keep
            out += [r[d, pay] for pay in _multisets(hand, cost) for d in to]
        else:
            out += [r.make((d, pay)) for pay in _multisets(hand, cost) for d in to]      # made, not kept
    out += [t["action"][c] for c in actions]
    if s.items_known:
        out += [t["use_item"][c] for c in sorted(c for c, n in s.items_known.items() if n > 0)
                if not (cards[c].get("permanent") and c in used)]
    out.append(t["done"][None])
    return out


#: the fields of each kind of action :func:`made` makes, after the player
_FIELDS = {"bench": ("dino",), "upgrade": ("card", "dino"), "item": ("card",),
           "action": ("card",), "use_item": ("card",), "done": (), "retreat": ("to", "discard"),
           "attack": (), "counterattack": (), "evade": (), "defend": (), "pass": (), "no_answer": (),
           "attack+": ("special",), "counterattack+": ("special",)}


def _kind(kind: str, player: str, fields: tuple[str, ...]) -> Made[Action]:
    """``player``'s actions of ``kind`` by their fields' values (one value, a tuple of them, or None)."""
    who = (("player", player),)
    if not fields:
        return Made(lambda _: Action(kind, who))
    if len(fields) == 1:
        return Made(lambda v: Action(kind, who + ((fields[0], v),)))
    return Made(lambda vs: Action(kind, who + tuple(zip(fields, vs))))


def _table(player: str) -> dict[str, Made[Action]]:
    t = {k: _kind(k.rstrip("+"), player, f) for k, f in _FIELDS.items()}
    t["combat_to_deck"] = Made(lambda c: Action("combat_to_deck", (("player", player), ("cards", (c,)))))
    return t


#: every player's actions by kind, by their values: made once (legal actions are a playout's hot
#: path). ``done`` and the plain moves are keyed by None; a Combat card by the card (its value is
#: the one-card list); a Special Attack's move by its name, as ``attack+``/``counterattack+``.
made: Made[dict[str, Made[Action]]] = Made(_table)


def _multisets(hand: Counter, k: int) -> list[tuple[str, ...]]:
    if k <= 1:
        return [()] if k <= 0 else [(c,) for c in sorted(hand)]
    if k > sum(hand.values()):
        return []
    return sorted(set(itertools.combinations(sorted(hand.elements()), k)))


# -- combat --------------------------------------------------------------------------------------

def specials(d: Dino | None) -> list[tuple[str, tuple[tuple[str, int], ...]]]:
    """The active Dinosaur's Special Attacks: (name, the Combat cards they cost), read once per card."""
    if d is None:
        return []
    held = _SPECIALS.get(id(d.card))
    if held is None or held[0] is not d.card:
        if len(_SPECIALS) > 4096:
            _SPECIALS.clear()
        held = _SPECIALS[id(d.card)] = (d.card, [
            (str(sp["name"]), tuple((k, int(v)) for k, v in (sp.get("cost") or {}).items() if v))
            for sp in d.card.get("specials") or [] if isinstance(sp, dict) and sp.get("name")])
    return held[1]


_SPECIALS: dict[int, tuple[Any, list[tuple[str, tuple[tuple[str, int], ...]]]]] = {}


def payable(s: Side, cost: tuple[tuple[str, int], ...]) -> bool:
    deck = s.combat_deck                # get: a kind it lacks costs no Counter __missing__ call
    return sum(deck.values()) > 0 and all([deck.get(k, 0) >= v for k, v in cost])


_ONE = {kind: ((kind, 1),) for kind in ("attack", "evade", "defend")}
_AGREED = Action.make("phase", phase="postcombat_main", combat_end="agreed")


def moves(eng: Table, s: Side) -> list[Action]:
    """The player with the move (BDB-CMB-1, 2): attack (or a Special Attack the Combat Deck pays
    for), or pass; at the start of an exchange, both may agree to end the Combat phase."""
    t = made[s.name]
    out = []
    if s.active is not None:
        if payable(s, _ONE["attack"]):
            out.append(t["attack"][None])
        out += [t["attack+"][name] for name, cost in specials(s.active) if payable(s, cost)]
    out.append(t["pass"][None])
    c = eng.cmb
    if c is not None and not c.passed:
        out.append(_AGREED)
    return out


def answers(eng: Table, s: Side) -> list[Action]:
    """The attacked player (BDB-CMB-2…5): counterattack (or with a Special Attack), evade, defend,
    or no answer."""
    t = made[s.name]
    out = []
    if s.active is not None:
        if payable(s, _ONE["attack"]):
            out.append(t["counterattack"][None])
        out += [t["counterattack+"][name] for name, cost in specials(s.active) if payable(s, cost)]
        out += [t[kind][None] for kind in ("evade", "defend") if payable(s, _ONE[kind])]
    out.append(t["no_answer"][None])
    return out


# -- knock-outs ----------------------------------------------------------------------------------

def comp_choices(eng: Table, s: Side, d: Dino) -> list[Action]:
    """BDB-KO-1: the owner of a knocked-out Dinosaur takes up to ``comp_cards_per_ko`` Comp Cards."""
    most = min(eng.comp_per_ko, s.comp)
    return [Action.make("knock_out", player=s.name, dino=d.label, comp_cards=k) for k in range(most + 1)]


def replacements(eng: Table, s: Side, hand: Counter) -> list[Action]:
    """BDB-KO-1: a knocked-out active Dinosaur is replaced by a benched one, or with the bench
    empty by a Dinosaur from hand (BDB-END-2: none left loses)."""
    if s.bench:
        return [Action.make("new_active", player=s.name, dino=d.label) for d in s.bench]
    dinos = distinct(hand, eng, "dinosaur")
    if dinos:
        return [Action.make("new_active", player=s.name, dino=c) for c in dinos]
    return [Action.make("new_active", player=s.name)]


#: the stat a move adds to its die; the fields of a Main-phase play naming the cards it spends
STAT_OF = {"attack": "atk", "counterattack": "atk", "evade": "eva", "defend": "def"}
_SPENT = {"bench": ("dino",), "upgrade": ("card",), "item": ("card",), "action": ("card",),
          "combat_to_deck": ("cards",), "retreat": ("discard",), "place": ("active", "bench")}


def cards_spent(a: Action) -> list[str]:
    """The cards a Main-phase play takes from the hand (a field's card, or each of its list)."""
    vals = [a.get(f, ()) for f in _SPENT.get(a.kind, ())]
    return [str(c) for v in vals for c in (v if isinstance(v, tuple) else (v,))]


def dino_view(d: Dino | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"label": d.label, "card": d.card.id, "hp": d.hp, "max_hp": d.max_hp, "upgrades": [u.id for u in d.upgrades],
            "wound_tokens": d.wound_tokens, "poisoned": d.poison_turns, "paralyzed": d.paralyzed,
            "evade_bonus": d.evade_bonus}

"""Biomechanic Dino Battles: the pieces of a game in progress — a Dinosaur in play, a player's
side of the table (hand, decks, zones), the Combat phase's exchange.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field
from typing import Any

from cardgen.content.model import Card
from cardgen.core.problems import Loc
from cardgen.core.record import record
from cardgen.play.hidden import Hand, counts

# ---------------------------------------------------------------------------------------
# State


def shallow(obj: Any) -> Any:
    """A shallow copy of a plain object (without :func:`copy.copy`'s protocol: a clone makes many)."""
    out = object.__new__(type(obj))
    out.__dict__.update(obj.__dict__)
    return out


@record(eq=False)
class Dino:
    card: Card
    label: str
    owner: str
    hp: int
    upgrades: list[Card] = field(default_factory=list)
    wound_tokens: int = 0
    poison_turns: int = 0
    paralyzed: bool = False
    evade_bonus: int = 0
    hp_rule: str = "BDB-KO-1"        # the rule of the last change to its HP (for an HP stated later)
    ko_at: Loc | None = None            # set when its HP fell to 0 or less (a K.O. not yet recorded)
    prepaid: bool = False               # its next Startup loss was taken early (BDB-ABIL-2, applied as recorded)

    def copy(self) -> Dino:
        """An independent copy (the card data and the upgrades list shared: the rules replace the
        list, never change it in place)."""
        d: Dino = shallow(self)
        return d

    @property
    def name(self) -> str:
        return self.card.name if "#" not in self.label else f"{self.card.name} #{self.label.rsplit('#', 1)[1]}"

    def stat(self, key: str) -> int:
        return max(0, int(self.card.get(key) or 0) + sum(int(u.get(key) or 0) for u in self.upgrades))

    @property
    def max_hp(self) -> int:
        return int(self.card.get("hp") or 0) + sum(int(u.get("hp") or 0) for u in self.upgrades)

    def flag(self, key: str) -> bool:
        return bool(self.card.get(key)) or any(bool(u.get(key)) for u in self.upgrades)

    def level(self, key: str) -> int:
        return int(self.card.get(key) or 0) + sum(int(u.get(key) or 0) for u in self.upgrades)

    def startup_loss(self, poison_hp: int, wound_hp: int) -> int:
        """The HP it loses at the next Startup (BDB-ABIL-2): poison, and each Wound token."""
        return (poison_hp if self.poison_turns > 0 else 0) + wound_hp * self.wound_tokens

    @property
    def who(self) -> str:
        return f"{self.owner}'s {self.name}"

    def statuses(self) -> list[str]:
        """Its Wound tokens, poison and paralysis, as the trace shows them."""
        return ([f"wound {self.wound_tokens}"] if self.wound_tokens else []) + \
            ([f"poisoned {self.poison_turns}"] if self.poison_turns else []) + (["paralyzed"] if self.paralyzed else [])

    def brief(self) -> str:
        if self.ko_at is not None:      # knocked out, not yet recorded: its statuses ended with the K.O.
            return f"{self.name} {self.hp}/{self.max_hp} [knocked out]"
        marks = self.statuses()
        if self.upgrades:
            marks.append("+" + ", ".join(u.name for u in self.upgrades))
        return f"{self.name} {self.hp}/{self.max_hp}" + (f" [{'; '.join(marks)}]" if marks else "")


@record(eq=False)
class Side:
    name: str
    index: int                          # 0: player A, 1: player B
    loc: Loc
    deck_name: str = ""
    deck_cards: Counter = field(default_factory=Counter)     # card id → copies in the Main Deck
    deck_left: int = 0
    seen: Counter = field(default_factory=Counter)           # copies known to have left the Main Deck
    cards: Hand = field(default_factory=Hand)                # the hand: cards the log named, and hidden ones
    comp: int = 0
    drew: bool = False
    comp_done: bool = False
    placed: bool = False
    new_hands: int = 0
    hand_sizes: list[int] = field(default_factory=list)
    active: Dino | None = None
    bench: list[Dino] = field(default_factory=list)
    combat_deck: Counter = field(default_factory=Counter)    # subtype → cards
    items_known: Counter = field(default_factory=Counter)    # Items in the zone whose name the log revealed
    items_unknown: int = 0
    junk: Counter = field(default_factory=Counter)
    junk_unknown: int = 0
    kos: int = 0                                              # K.O.s scored (opposing Dinosaurs knocked out)
    knocked_out: list[str] = field(default_factory=list)     # own Dinosaurs knocked out
    made: Counter = field(default_factory=Counter)           # Dinosaurs put in play, per card (for labels)
    out_at: int | None = None                                # the order in which the deck ran out

    def copy(self, dinos: dict[int, Dino]) -> Side:
        """An independent copy; ``dinos`` receives each Dinosaur's copy by the original's id."""
        t: Side = shallow(self)
        t.seen, t.combat_deck, t.junk = counts(self.seen), counts(self.combat_deck), counts(self.junk)
        t.cards = Hand(counts(self.cards.known), self.cards.hidden)
        # made, items_known, hand_sizes and knocked_out are shared: the rules replace them, never change them
        if self.active is not None:
            t.active = dinos[id(self.active)] = self.active.copy()
        bench = t.bench = []
        for d in self.bench:
            bench.append(c := d.copy())
            dinos[id(d)] = c
        return t

    @property
    def hand(self) -> int:
        return self.cards.size

    @property
    def hand_known(self) -> Counter:
        return self.cards.known

    @property
    def hand_unknown(self) -> int:
        return self.cards.hidden

    def drop_known(self) -> None:
        """A known card leaves the hand unseen (the first one the log named)."""
        top = next(iter(self.cards.known))
        self.cards.known[top] -= 1
        if not self.cards.known[top]:
            del self.cards.known[top]

    @property
    def in_play(self) -> list[Dino]:
        return [self.active, *self.bench] if self.active is not None else list(self.bench)

    @property
    def items(self) -> int:
        return sum(self.items_known.values()) + self.items_unknown


@record
class Combat:
    first: int                        # index of the player with the first move of this exchange
    passed: bool = False
    attack: dict | None = None        # the attack awaiting its answer
    exchange: int = 1
    over: bool = False

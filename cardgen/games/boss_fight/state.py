"""Boss Fight playtest state: a pile of cards and a fighter, as the rules engine tracks them."""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from cardgen.content.model import Card
from cardgen.core.hexgrid import Hex, rotate
from cardgen.core.problems import Loc
from cardgen.core.record import record
from cardgen.games.boss_fight.builds import Piece
from cardgen.games.boss_fight.vocab import HIDDEN


@record
class Pile:
    """Cards of one zone: those known by name and a number of unnamed ones."""

    known: Counter = field(default_factory=Counter)
    unknown: int = 0

    @property
    def size(self) -> int:
        return sum(self.known.values()) + self.unknown

    def take(self, cid: str | None) -> bool:
        """Remove a card (named, else an unnamed one); False when it is not there."""
        n = self.known.get(cid, 0) if cid is not None else 0
        if n > 0:
            if n == 1:
                del self.known[cid]         # (no count of 0 kept)
            else:
                self.known[cid] = n - 1
            return True
        if self.unknown > 0:
            self.unknown -= 1
            return True
        return False

    def put(self, cid: str | None, n: int = 1) -> None:
        if cid is None or cid == HIDDEN:
            self.unknown += n
        else:
            self.known[cid] += n


@record
class Fighter:
    """The boss or a hero, as the game goes."""

    key: str
    name: str
    side: str                          # boss | hero
    card: Card | None                  # the hero card
    stats: dict[str, int]
    feat_cost: int | None
    equipment: list[Card]
    abilities: list[Card]
    pieces: list[Piece]
    total: Counter                     # the action deck as built
    cells: list[Hex]                   # footprint (build cells); a hero: [0, 0]
    legs: int = 0
    hp: int = 0
    hp_rule: str = "BF-CMB-2"
    deck: int = 0
    hand: Pile = field(default_factory=Pile)
    discard: Pile = field(default_factory=Pile)
    expended: Pile = field(default_factory=Pile)
    used: Pile = field(default_factory=Pile)
    origin: Hex | None = None          # where build cell [0, 0] is (heroes: their hex)
    rot: int = 0
    anchor: Hex = Hex(0, 0)            # the boss's default anchor cell
    placed: Loc | None = None
    dead: Loc | None = None
    statuses: dict[str, int] = field(default_factory=dict)     # status → the turn number it ends after
    mods: list[list] = field(default_factory=list)              # [stat, delta, until, turn]
    turns: int = 0                     # turns started
    seen_now: set[str] = field(default_factory=set)            # sight during the turn in progress
    seen_last: set[str] = field(default_factory=set)           # sight during its previous turn
    seen_when: dict[str, int] = field(default_factory=dict)    # enemy → last round it was seen
    used_abilities: dict[str, int] = field(default_factory=dict)   # ability → round last used
    letter: str = "?"
    cure_loc: Loc | None = None        # BF-STATUS-2: where this turn's roll removed the poison
    cure_roll: int = 0
    after_cure: int = 0                # the poison damage its actions since would have cost
    _at: tuple | None = None           # (origin, rotation, its hexes, as (q, r)): the last found

    @property
    def alive(self) -> bool:
        return self.dead is None

    def hexes(self) -> tuple[Hex, ...]:
        if self.origin is None:
            return ()
        at = self._at
        if at is None or at[0] is not self.origin or at[1] != self.rot:     # found again when it moved
            o, k = self.origin, self.rot
            hexes = tuple(o + rotate(c, k) for c in self.cells)
            at = self._at = (o, k, hexes, tuple(sorted((h.q, h.r) for h in hexes)))
        return at[2]

    def qr(self) -> tuple[tuple[int, int], ...]:
        """Its hexes as (q, r), sorted: a key for where it stands."""
        at = self._at
        if at is not None and at[0] is self.origin and at[1] == self.rot:
            return at[3]  # type: ignore[no-any-return]
        return self._at[3] if self.hexes() and self._at is not None else ()

"""Dino Battles' value of a position for search agents (``GamePackage.evaluate``): the deck race.

Under good play most games end with a Main Deck running out (rules/dino_battles/notes/
strong-play.md): every card played from hand is drawn again in the End phase, and with the
K.O.s level the player whose deck ran out first loses. The value is a logistic model of who
wins from a few figures of each side — K.O.s, the share of the table's Dinosaur HP, Dinosaurs in
play, the cards left in the Main Deck, in hand and in the Combat Deck, the Initiative — and of
the race between them (the difference of the decks, relative to what is left of both, counted
double when the K.O.s are level; a K.O. lead, weighing more as the decks run down). Its weights
are ``simulate.search.weights`` in ``rules/dino_battles/params.yaml``, fitted by
``bench/fit_dino_value.py`` on games between greedy-like agents of graded thrift.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardgen.content.model import Game
from cardgen.games.dino_battles.pieces import Side
from cardgen.play.api import GameState
from cardgen.play.params import Params
from cardgen.play.search import Evaluate

#: the figures of one side against the other, by the name their weight has in params.yaml
FEATURES = ("kos", "hp", "dinos", "deck", "hand", "combat", "items", "initiative", "race", "race_level",
            "lead_late")


def features(state: GameState, me: int, need: int, full: int) -> list[float]:
    """Player ``me``'s figures against the other's (``need``: K.O.s to win; ``full``: a Main Deck)."""
    sides: list[Side] = state.sides          # type: ignore[attr-defined]
    s, o = sides[me], sides[1 - me]
    hp_s, hp_o = (sum(max(0, d.hp) for d in x.in_play) for x in (s, o))
    race = (s.deck_left - o.deck_left) / (s.deck_left + o.deck_left + 6)
    left = (s.deck_left + o.deck_left) / (2 * full)
    init = getattr(state, "initiative", None)
    return [s.kos / need, hp_s / ((hp_s + hp_o) or 1), len(s.in_play) / 4, s.deck_left / full, s.hand / 6,
            sum(s.combat_deck.values()) / 6, s.items / 5, 1.0 if init == me else 0.0,
            race, race if s.kos == o.kos else 0.0, (s.kos - o.kos) / need * (1 - left)]


def weights(p: Params) -> list[float]:
    w: Mapping[str, float] = {k: float(v) for k, v in p.mapping("simulate.search.weights").items()}
    return [w.get(k, 0.0) for k in FEATURES]


def evaluate(game: Game) -> Evaluate:
    """Each player's chance to win a game not yet over: the logistic of the weighted difference
    of the two sides' figures (:func:`features`)."""
    p = Params.of(game)
    need, full, w = p.int("kos_to_win"), p.int("deck_size"), weights(p)

    def value(state: GameState) -> list[float]:
        x = features(state, 0, need, full)
        y = features(state, 1, need, full)
        z = sum(wi * (a - b) for wi, a, b in zip(w, x, y))
        z = max(-30.0, min(30.0, z))
        v = 1.0 / (1.0 + pow(2.718281828459045, -z))
        return [v, 1.0 - v]
    return value

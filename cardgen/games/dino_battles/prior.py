"""Biomechanic Dino Battles — the search's prior (``GamePackage.prior``): greedy, thrifty by the
deck race (rules/dino_battles/notes/strong-play.md).

Every card played from hand is a card drawn again in the End phase, and with the K.O.s level the
player whose Main Deck runs out first loses (BDB-END-3). Greedy feeds every Combat card it holds
to its Combat Deck and attacks whenever it can; the prior is greedy with three changes, each a
number of ``simulate.search.prior`` in ``rules/dino_battles/params.yaml``:

- **Thrift.** It feeds its Combat Deck a card of a kind only while the deck holds fewer than
  ``combat_deck[kind]`` cards of it (the card ids are the moves: ``attack``, ``evade``,
  ``defend``): none of its Attack cards, so it attacks only while it has to (below) and keeps
  its hand, and so its Main Deck, full — it answers attacks with the one Evade and Defend it keeps.
- **Behind, it fights.** While the opponent has more K.O.s, thrift loses anyway (a deck that runs
  out then ends the game on the K.O.s): it plays as greedy, every card in, to win a K.O. back.
- **A stall guard.** From turn ``patience`` on it plays as greedy. A full hand draws nothing and
  nothing forces a card out, so two thrifty players can hold full hands for ever (the rules' gap,
  told to the designer); greedy spends, and the decks move again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.games.dino_battles.agents import greedy
from cardgen.play.api import Action
from cardgen.play.package import Agent
from cardgen.play.params import Params


def prior(game: Game) -> Agent:
    """The search agents' prior: greedy, thrifty while the K.O.s are level or ahead and the game is
    young (see the module's text)."""
    p = Params.of(game)
    caps = {str(k): int(v) for k, v in p.mapping("simulate.search.prior.combat_deck").items()}
    patience = p.int("simulate.search.prior.patience")
    base = greedy(game)

    def agent(obs: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if any(a.kind == "combat_to_deck" for a in legal) and thrifty(obs, patience):
            deck = obs["sides"][obs["player"]]["combat_deck"]
            legal = [a for a in legal
                     if a.kind != "combat_to_deck" or deck.get(a["cards"][0], 0) < caps.get(a["cards"][0], 0)]
        return base(obs, legal, rng)
    return agent


def thrifty(obs: Mapping[str, Any], patience: int) -> bool:
    """True while the prior keeps its cards: before turn ``patience``, and not behind in K.O.s."""
    sides = obs["sides"]
    me = sides[obs["player"]]
    behind = any(s["kos"] > me["kos"] for i, s in enumerate(sides) if i != obs["player"])
    return int(obs["turn"] or 0) < patience and not behind

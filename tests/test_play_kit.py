"""The play core's small shared pieces a game configures instead of writing them (issue 29, Bone
Wars first): actions made once by key (``api.Made``), the walk's index among equal outcomes
(``dice.walk_index``), a die off its faces (``dice.off_die``/``die_slip``), a determinization's
deal (``hidden.redeal``), an observation read key by key (``view.KeyedView``), a log's name
(``lookup.log_name``) and what a game reads once (``params.per_game``)."""

from __future__ import annotations

import math
import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.content.playlog import LogError
from cardgen.play.api import Action, Made, walk
from cardgen.play.dice import die_slip, off_die, walk_index
from cardgen.play.hidden import redeal
from cardgen.play.lookup import Names, log_name, log_player
from cardgen.play.params import per_game
from cardgen.play.view import MOVED, KeyedView

FAST = settings(max_examples=60, deadline=None)


def test_made_builds_each_action_once() -> None:
    calls: list[str] = []

    def make(card: str) -> Action:
        calls.append(card)
        return Action.make("draw", card=card)
    made: Made[Action] = Made(make)
    assert made["a"] is made["a"] and made["b"] == Action.make("draw", card="b")
    assert calls == ["a", "b"] and "c" not in made


@FAST
@given(st.integers(1, 400), st.integers(0, 10**6), st.integers(-3, 3))
def test_walk_index_is_the_walks_at_its_boundaries(n: int, k: int, ulps: int) -> None:
    outs = [(i, 1.0 / n) for i in range(n)]
    acc, sums = 0.0, []
    for _, p in outs:
        acc += p
        sums.append(acc)
    r = sums[k % n]
    for _ in range(abs(ulps)):
        r = math.nextafter(r, math.inf if ulps > 0 else -math.inf)
    r = min(max(r, 0.0), math.nextafter(1.0, 0.0))
    assert walk_index(n, r) == walk(outs, r)


@pytest.mark.parametrize("value, off", [(1, False), (20, False), (0, True), (21, True), (True, True),
                                        ("3", True), (2.0, True), (None, True)])
def test_a_die_off_its_faces(value: Any, off: bool) -> None:
    assert off_die(value, 20) is off
    assert die_slip("ana's d20", 21, 20) == "ana's d20 shows 21, but a d20 shows 1–20"


@FAST
@given(st.lists(st.sampled_from("abcdef"), max_size=30), st.lists(st.integers(0, 6), max_size=4),
       st.integers(0, 99))
def test_redeal_keeps_the_cards_and_the_sizes(cards: list[str], sizes: list[int], seed: int) -> None:
    pool = Counter(cards)
    sizes = [min(n, len(cards)) for n in sizes]
    while sum(sizes) > len(cards):
        sizes[sizes.index(max(sizes))] -= 1
    piles, rest = redeal(pool, sizes, random.Random(seed))
    assert [sum(p.values()) for p in piles] == sizes
    assert sum(piles, Counter()) + rest == pool
    assert all(list(p) == sorted(p) for p in [*piles, rest])       # card order: draws iterate it
    shuffled = Counter(reversed(list(pool.elements())))             # the same cards, listed otherwise
    assert redeal(shuffled, sizes, random.Random(seed)) == (piles, rest)


def test_a_keyed_view_computes_each_key_once_and_refuses_once_moved() -> None:
    seen: list[str] = []
    state: Any = SimpleNamespace(history=[], hp={"ana": 3})

    def hp(s: Any, me: str) -> int:
        seen.append(me)
        return int(s.hp[me])
    view = KeyedView(state, {"hp": hp, "me": lambda s, me: me}, "ana")
    assert list(view) == ["hp", "me"] and len(view) == 2 and not seen     # nothing read yet
    assert view["hp"] == 3 and view["hp"] == 3 and seen == ["ana"]
    state.history.append(Action("end_turn"))
    assert view["hp"] == 3                          # read before the move: kept
    with pytest.raises(RuntimeError, match=MOVED):
        view["me"]
    with pytest.raises(KeyError):
        view["hand"]


def test_log_name_is_the_logs_field_error() -> None:
    names = Names("player", [("ana", "ana"), ("ben", "ben")])
    assert log_name(names, "ANA", "target") == "ana"
    with pytest.raises(LogError) as e:
        log_name(names, "anna", "target", " (a player of the header)", "players: ana, ben")
    said = "'target' names no player: 'anna' (a player of the header)"
    assert (e.value.rule, e.value.message) == ("LOG-FIELD", said)
    assert "did you mean 'ana'" in str(e.value.hint)        # a near miss wins over the given hint
    with pytest.raises(LogError) as e:
        log_name(names, "zed", "target", "", "players: ana, ben")
    assert e.value.hint == "players: ana, ben"


def test_log_player_names_a_player_of_the_table() -> None:
    assert log_player(["ana", "ben"], "ben", "player") == "ben"
    assert log_player(["ana", "ben"], " BEN ", "target") == "ben"
    with pytest.raises(LogError) as e:
        log_player(["ana", "ben"], "zed", "target")
    assert (e.value.message, e.value.hint) == ("'target' names no player: 'zed'", "players: ana, ben")


def test_per_game_reads_once_per_loaded_game() -> None:
    reads: list[object] = []

    @per_game
    def read(game: object) -> int:
        reads.append(game)
        return len(reads)
    one, two = object(), object()
    assert (read(one), read(one), read(two), read(two), read(one)) == (1, 1, 2, 2, 3)

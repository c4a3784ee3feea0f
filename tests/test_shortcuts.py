"""The play core's shortcuts for search, each beside what it stands for: ``index_below`` is
``randrange`` and ``shuffle`` is ``Random.shuffle`` (the same results and the same draws after
them), and an :class:`Action`'s kept key
and hash are the ones it would compute (never pickled: a string's hash differs by process)."""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.play.api import Action
from cardgen.play.dice import index_below, shuffle


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), sizes=st.lists(st.integers(1, 2**40), min_size=1, max_size=30))
def test_index_below_is_randrange(seed: int, sizes: list[int]) -> None:
    a, b = random.Random(seed), random.Random(seed)
    assert [index_below(a, n) for n in sizes] == [b.randrange(n) for n in sizes]
    assert a.getstate() == b.getstate()


def test_index_below_small_sizes_draw_as_randrange_does() -> None:
    a, b = random.Random(7), random.Random(7)
    for n in list(range(1, 70)) * 50:
        assert index_below(a, n) == b.randrange(n)
    assert a.random() == b.random()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(0, 300))
def test_shuffle_is_random_shuffle(seed: int, n: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    x, y = list(range(n)), list(range(n))
    shuffle(a, x)
    b.shuffle(y)
    assert x == y and a.getstate() == b.getstate()


class Loaded(random.Random):
    def randrange(self, *args: object, **kw: object) -> int:  # type: ignore[override]
        return 0


    def shuffle(self, x: list) -> None:  # type: ignore[override]
        x.reverse()


def test_another_generator_is_asked_its_own_randrange_and_shuffle() -> None:
    assert {index_below(Loaded(3), 50) for _ in range(20)} == {0}
    x = [1, 2, 3]
    shuffle(Loaded(3), x)
    assert x == [3, 2, 1]


def test_an_action_keeps_the_key_and_hash_it_computes() -> None:
    a = Action.make("move", to=3, who="p1", path=[1, 2], extra={"b": 1, "a": 2})
    b = Action("move", tuple(reversed(a.items)))
    assert a == b and b == a and hash(a) == hash(b)
    assert a.key() == ("move", tuple(sorted(a.items))) and hash(a) == hash(a.key())
    assert a != Action.make("move", to=4, who="p1", path=[1, 2], extra={"b": 1, "a": 2})
    assert a != Action("jump", a.items) and a != "move" and a is not None
    assert len({a, b, Action("move", a.items)}) == 1


def test_an_action_copies_and_pickles_by_its_fields() -> None:
    a = Action.make("draw", card="c1", player="p2")
    hash(a)
    for c in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert "_hash" not in vars(c) and "_key" not in vars(c)
        assert c == a and hash(c) == hash(a) and c.items == a.items

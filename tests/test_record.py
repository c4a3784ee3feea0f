"""cardgen.core.record behaves as dataclasses.dataclass: each class shape below is made both ways
from the same source and the two are held equal on everything a caller can see."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import sys
import textwrap
import types
from typing import ClassVar

import pytest

from cardgen.core import recordinit
from cardgen.core.record import record

SHAPES = {
    "required": """
        class K:
            '''Doc.'''
            x: int
            y: str
    """,
    "defaults": """
        class K:
            x: float
            y: float = 1.5
            tags: tuple = ()
            name: str | None = None
    """,
    "factories": """
        class K:
            x: int
            items: list = field(default_factory=list)
            seen: dict = field(default_factory=dict, repr=False, compare=False)
    """,
    "init_false": """
        class K:
            x: int
            memo: dict = field(init=False, repr=False, compare=False, default_factory=dict)
            count: int = field(init=False, default=0)
    """,
    "post_init": """
        class K:
            x: int
            double: int = field(init=False, default=0)

            def __post_init__(self):
                object.__setattr__(self, "double", self.x * 2)
    """,
    "undocumented": """
        class K:
            x: int
            y: int = 2
    """,
    "one_field": """
        class K:
            x: float
    """,
    "no_fields": """
        class K:
            pass
    """,
    "own_methods": """
        class K:
            x: int

            def __repr__(self):
                return "mine"

            def __eq__(self, other):
                return True
    """,
    "own_hash": """
        class K:
            x: int

            def __hash__(self):
                return 7
    """,
    "classvar": """
        class K:
            kind: ClassVar[str] = "k"
            x: int = 0
    """,
}

OPTIONS = [{}, {"frozen": True}, {"slots": True}, {"frozen": True, "slots": True}, {"eq": False},
           {"order": True}, {"frozen": True, "order": True, "slots": True}, {"repr": False}]


def _make(src: str, deco, module: str):
    mod = types.ModuleType(module)
    sys.modules[module] = mod      # pickle finds the class by its module
    ns = mod.__dict__
    ns.update({"field": dataclasses.field, "ClassVar": __import__("typing").ClassVar, "deco": deco})
    exec(compile("from __future__ import annotations\n@deco\n" + textwrap.dedent(src).strip() + "\n",
                 module, "exec"), ns)
    return ns["K"]


def _twins(shape: str, opts: dict):
    made = []
    for name, fn in (("dc", dataclasses.dataclass), ("rec", record)):
        module = f"_rec_{shape}_{name}_{'_'.join(sorted(opts)) or 'plain'}"
        made.append(_make(SHAPES[shape], fn(**opts), module))
    return made


def _args(cls) -> list[tuple]:
    sig = inspect.signature(cls)
    required = [p for p in sig.parameters.values() if p.default is inspect.Parameter.empty]
    base = [1.0 if "float" in str(p.annotation) else 1 for p in required]
    return [tuple(base), tuple(v + 1 for v in base), tuple(base)]


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the behaviour compared
        return ("raised", type(e).__name__, str(e))


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(sorted(o)) or "plain")
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_record_is_dataclass(shape, opts):
    dc, rec = _twins(shape, opts)
    assert str(inspect.signature(rec)) == str(inspect.signature(dc))
    assert rec.__doc__ == dc.__doc__
    assert [f.name for f in dataclasses.fields(rec)] == [f.name for f in dataclasses.fields(dc)]
    assert getattr(rec, "__match_args__", None) == getattr(dc, "__match_args__", None)
    assert getattr(rec, "__slots__", None) == getattr(dc, "__slots__", None)
    assert (rec.__hash__ is None) == (dc.__hash__ is None)
    assert dataclasses.is_dataclass(rec)
    a_args, b_args, c_args = _args(dc)
    da, db, dc2 = dc(*a_args), dc(*b_args), dc(*c_args)
    ra, rb, rc = rec(*a_args), rec(*b_args), rec(*c_args)
    if opts.get("repr", True):
        assert repr(ra).replace("_rec", "") == repr(da).replace("_rec", "")
    else:
        assert " object at 0x" in repr(ra) or shape == "own_methods"
    for x, y, u, v in ((da, dc2, ra, rc), (da, db, ra, rb), (da, 3, ra, 3)):
        assert (x == y) == (u == v)
        assert (x != y) == (u != v)
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            assert _outcome(getattr(x, op), y) == _outcome(getattr(u, op), v)
    assert _outcome(lambda: hash(da) == hash(dc2)) == _outcome(lambda: hash(ra) == hash(rc))
    if dc.__hash__ is not None and opts.get("frozen"):
        assert _outcome(lambda: hash(ra)) == _outcome(lambda: hash(da))
    for name in [f.name for f in dataclasses.fields(dc)] + ["other"]:
        want = _outcome(setattr, da, name, 5)
        if want[:2] == ("raised", "TypeError") and "super(type, obj)" in want[2]:
            # CPython 3.11's frozen slots dataclass fails its own check (gh-90562); a record says why
            want = ("raised", "FrozenInstanceError", f"cannot assign to field {name!r}")
        assert _outcome(setattr, ra, name, 5) == want
    for fn in (copy.copy, copy.deepcopy, lambda o: pickle.loads(pickle.dumps(o))):
        twin = fn(ra)
        assert dataclasses.asdict(twin) == dataclasses.asdict(ra)
        if opts.get("eq", True):
            assert twin == ra
    assert dataclasses.asdict(ra) == dataclasses.asdict(da)
    assert dataclasses.asdict(dataclasses.replace(ra)) == dataclasses.asdict(dataclasses.replace(da))


def test_factories_give_each_instance_its_own():
    @record
    class K:
        items: list = dataclasses.field(default_factory=list)

    a, b = K(), K()
    a.items.append(1)
    assert b.items == [] and K(items=[2]).items == [2]


def test_frozen_subclass_of_frozen_record_and_mismatch():
    @record(frozen=True)
    class Base:
        x: int

    @record(frozen=True)
    class Sub(Base):
        y: int = 0

    s = Sub(1, 2)
    assert (s.x, s.y) == (1, 2) and s == Sub(1, 2) and s != Base(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.x = 3
    with pytest.raises(TypeError, match="non-frozen"):
        @record
        class Thawed(Base):
            z: int = 0


def test_unsupported_shapes_are_refused():
    with pytest.raises(TypeError, match="keyword-only"):
        @record
        class K:
            x: int = dataclasses.field(kw_only=True, default=0)
    with pytest.raises(ValueError, match="eq must be true"):
        record(eq=False, order=True)


def test_the_project_declares_records():
    """Every class of cardgen's own that dataclass would make is a record (start-up: a build imports
    forty of them); a game scaffolded for a designer may use dataclass as it likes."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent / "cardgen"
    plain = [f"{p.relative_to(root)}:{n}" for p in root.rglob("*.py") if "scaffold/files" not in p.as_posix()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if line.strip() == "@dataclass" or line.lstrip().startswith("@dataclass(")]
    assert not plain, f"use cardgen.core.record.record: {plain}"


REFUSED = {
    "mutable_default": """
        class K:
            x: list = []
    """,
    "default_then_required": """
        class K:
            x: int = 0
            y: int
    """,
    "field_without_annotation": """
        class K:
            x: int
            y = field(default=0)
    """,
    "classvar_factory": """
        class K:
            x: ClassVar[list] = field(default_factory=list)
    """,
}


@pytest.mark.parametrize("shape", sorted(REFUSED))
def test_refused_as_dataclass_refuses(shape):
    """A shape ``dataclass`` refuses, a record refuses with the same exception, when it is made."""
    seen = []
    for name, deco in (("dc", dataclasses.dataclass), ("rec", record)):
        try:
            _make(REFUSED[shape], deco, f"_rec_refused_{shape}_{name}")
            seen.append(None)
        except (TypeError, ValueError) as e:
            seen.append(type(e))
    assert seen[0] is not None and seen == [seen[0], seen[0]]


def test_init_compiled_when_first_needed():
    """A record's ``__init__`` is compiled at its first instance, or when its signature is read,
    and is then the class's own (no stand-in left, no ``__signature__``)."""
    @record(frozen=True, slots=True)
    class A:
        x: int
        y: int = 2

    @record
    class B:
        x: int

    stand_in = A.__dict__["__init__"]
    assert "__signature__" in A.__dict__ and stand_in.__qualname__.endswith("A.__init__")
    assert A(1) == A(1, 2) and repr(A(x=3)) == "test_init_compiled_when_first_needed.<locals>.A(x=3, y=2)"
    assert A.__dict__["__init__"] is not stand_in and "__signature__" not in A.__dict__
    assert str(inspect.signature(B)) == "(x: 'int') -> None"
    assert "__signature__" not in B.__dict__ and B.__init__.__annotations__ == {"x": "int", "return": None}
    assert stand_in(object.__new__(A), 5, 6) is None      # a stand-in held from before still works
    assert A.__doc__ == "A(x: 'int', y: 'int' = 2)" and B(4).x == 4


def test_a_stand_in_raced_by_another_thread(monkeypatch):
    """Two threads making a record's first instance at once: the one that finds the stand-in's
    ``__signature__`` gone after compiling (the other removed it) goes on with its instance."""
    @record
    class C:
        x: int

    compile_init = recordinit._init

    def raced(cls, flds, frozen):
        fn = compile_init(cls, flds, frozen)
        cls.__init__ = fn
        del cls.__signature__           # what the other thread did meanwhile
        return fn
    monkeypatch.setattr(recordinit, "_init", raced)
    assert C(3).x == 3 and "__signature__" not in C.__dict__


def test_a_frozen_record_with_slots_sets_its_fields_through_its_twin():
    """A frozen record with slots and three fields or more sets them as plain attributes of a twin
    class and is its own class again before ``__post_init__``; a plain subclass's instance (no
    ``__init__`` of its own) is set field by field, and a class with ``__init_subclass__`` has no
    twin (making one would run it)."""
    seen = []

    @record(frozen=True, slots=True)
    class P:
        x: int
        y: int = 2
        items: list = dataclasses.field(default_factory=list)

        def __post_init__(self):
            seen.append(type(self))

    class Q(P):
        __slots__ = ()

    p, q = P(1), Q(1, 3, [4])
    assert type(p) is P and (p.x, p.y, p.items) == (1, 2, []) and seen == [P, Q]
    assert type(q) is Q and (q.x, q.y, q.items) == (1, 3, [4]) and P(1) is not p and P(1).items is not p.items
    assert {c.__qualname__ for c in P.__subclasses__()} == {f"{P.__qualname__}.<twin>", Q.__qualname__}
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.y

    class Counted:
        __slots__ = ()
        made: ClassVar[list] = []

        def __init_subclass__(cls, **kw):
            super().__init_subclass__(**kw)
            Counted.made.append(cls.__name__)

    @record(frozen=True, slots=True)
    class R(Counted):
        x: int
        y: int
        z: int

    assert recordinit.twin(R) is None and R(1, 2, 3).z == 3
    assert Counted.made == ["R", "R"]        # the class, and the class made again with slots: no twin
    assert recordinit.twin(P) is not None


def test_maker_makes_what_the_class_makes():
    """``maker(cls)`` makes the instance ``cls(...)`` makes (its class, fields, defaults, fresh
    factories, ``__post_init__``), for a frozen record with slots, and is the class itself for any
    other (not frozen, no slots, its own ``__init__``)."""
    seen = []

    @record(frozen=True, slots=True, order=True)
    class P:
        x: int
        y: float = 2.5
        items: list = dataclasses.field(default_factory=list)
        n: int = dataclasses.field(init=False, default=7)

        def __post_init__(self):
            seen.append(type(self))

    make = recordinit.maker(P)
    assert make is not P and make.__name__ == "make_P"
    a, b = make(1), make(x=1, items=[3])
    assert type(a) is P and a == P(1) and repr(a) == repr(P(1))
    assert (b.x, b.y, b.items, b.n) == (1, 2.5, [3], 7) and make(1).items is not a.items
    assert seen == [P, P, P, P, P] and make(1, 2.0) < make(1, 3.0)
    assert [p.name for p in inspect.signature(make).parameters.values()] == ["x", "y", "items"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 2
    with pytest.raises(TypeError):
        make()
    assert copy.copy(a) == a and copy.deepcopy(b) == b

    @record(frozen=True)
    class NoSlots:
        x: int

    @record(frozen=True, slots=True)
    class Own:
        x: int

        def __init__(self, x):
            object.__setattr__(self, "x", x)

    assert [recordinit.maker(c) for c in (NoSlots, Own)] == [NoSlots, Own]
    for opts in ({}, {"slots": True}):                  # not frozen: made, its fields set as usual
        @record(**opts)
        class Thawed:
            x: int
            items: list = dataclasses.field(default_factory=list)

            def __post_init__(self):
                seen.append(type(self))

        make = recordinit.maker(Thawed)
        t = make(1)
        assert make is not Thawed and type(t) is Thawed and t == Thawed(1) and t.items is not make(1).items
        assert seen[-3:] == [Thawed] * 3

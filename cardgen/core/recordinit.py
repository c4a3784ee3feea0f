"""A record's ``__init__`` (:mod:`cardgen.core.record`): written as ``dataclass`` writes it,
compiled when the class's first instance is made, and for a frozen record with slots, its
fields set through a twin class.

A frozen class refuses assignment in its own ``__setattr__``, so ``dataclass`` sets each field
through ``object.__setattr__``, and a record through the field's slot descriptor (``__set__``):
a call through the descriptor machinery per field, ~600 instructions, where a plain
``self.x = x`` costs a tenth of that. A frozen record with slots gets a *twin*: a subclass that
adds nothing to its instances' layout and sets attributes as ``object`` does. Its ``__init__``
makes the new instance one of the twin (``__class__`` set by ``object``'s own descriptor), sets
the fields as plain attributes and makes it one of the class again, before ``__post_init__``
(a text line of a card, seven fields: 2,400 of its 6,500 instructions saved). An instance of a
subclass that did not write an ``__init__`` of its own is set field by field as before, and so
is every record whose class, or a base, has an ``__init_subclass__`` (a twin would run it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field
from types import MemberDescriptorType
from typing import Any, TypeVar

T = TypeVar("T")

_SET_CLASS = object.__dict__["__class__"].__set__     # an instance's class, set past its __setattr__


class _Factory:
    """The default of a parameter whose field has a default factory (shown as ``<factory>``)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


class Deferred:
    """A record's ``__init__`` compiled when it is first needed (a build makes instances of about
    two thirds of the records it imports): until then the class holds a stand-in ``__init__``,
    which compiles the real one, puts it in its place and runs it, and this object as its
    ``__signature__``, which ``inspect.signature`` reads before it looks at ``__init__``: read, it
    does the same and answers None (no signature of its own: ``inspect`` goes on to the
    compiled ``__init__``, as for any class)."""

    __slots__ = ("cls", "flds", "frozen")

    def __init__(self, cls: Any, flds: tuple[Field, ...], frozen: bool) -> None:
        self.cls, self.flds, self.frozen = cls, flds, frozen

    def stand_ins(self) -> tuple[Callable[..., None], Deferred]:
        compiled = self.compiled

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            compiled()(self, *args, **kwargs)
        __init__.__qualname__ = f"{self.cls.__qualname__}.__init__"
        __init__.__module__ = self.cls.__module__
        __init__.__record__ = (self.flds, self.frozen)   # type: ignore[attr-defined]  # (what maker reads)
        return __init__, self

    def compiled(self) -> Callable[..., None]:
        """The class's ``__init__``, compiled now if it was not yet."""
        cls = self.cls
        if cls.__dict__.get("__signature__") is self:
            cls.__init__ = _init(cls, self.flds, self.frozen)
            try:
                del cls.__signature__
            except AttributeError:      # another thread compiled it meanwhile (the same __init__)
                pass
        init: Callable[..., None] = cls.__dict__["__init__"]
        return init

    def __get__(self, obj: Any, owner: Any = None) -> None:
        self.compiled()


def _init(cls: Any, flds: tuple[Field, ...], frozen: bool) -> Callable[..., None]:
    """``__init__`` as ``dataclass`` writes it: one compile per class; for a frozen record with
    slots, its fields set as plain attributes of the twin (:func:`twin`) when the instance is
    the class's own."""
    names, params, values = _parts(flds)
    body = []
    if not frozen:
        body += [f"  self.{n} = {value}" for n, value in values]
    else:
        one_by_one = []
        for n, value in values:
            if isinstance(slot := getattr(cls, n, None), MemberDescriptorType):
                names[f"__put_{n}"] = slot.__set__     # what object.__setattr__ calls, without its lookup
                one_by_one.append(f"__put_{n}(self, {value})")
            else:
                one_by_one.append(f"__set(self, {n!r}, {value})")
        double = twin(cls) if len(values) > 2 else None       # (two fields: no gain)
        if double is None:
            body += [f"  {line}" for line in one_by_one]
        else:
            names.update({"__cls": cls, "__twin": double, "__set_class": _SET_CLASS})
            body += (["  if type(self) is __cls:", "   __set_class(self, __twin)"]
                     + [f"   self.{n} = {value}" for n, value in values]
                     + ["   self.__class__ = __cls", "  else:"] + [f"   {line}" for line in one_by_one])
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    fn = _compiled("__init__", params, body, names)
    fn.__qualname__ = f"{cls.__qualname__}.__init__"
    fn.__module__ = cls.__module__
    fn.__annotations__ = {f.name: f.type for f in flds if f.init} | {"return": None}
    fn.__record__ = (flds, frozen)      # type: ignore[attr-defined]  # (what maker reads)
    return fn


def _parts(flds: tuple[Field, ...]) -> tuple[dict[str, Any], list[str], list[tuple[str, str]]]:
    """The names an ``__init__`` of ``flds`` reads (defaults, factories), its parameters, and each
    field set with the expression of its value."""
    names: dict[str, Any] = {"__set": object.__setattr__, "__factory": _FACTORY}
    params = ["self"]
    values = []                 # (field name, the expression of its value)
    for f in flds:
        n = f.name
        if f.default is not MISSING:
            names[f"__dflt_{n}"] = f.default
        if f.default_factory is not MISSING:
            names[f"__fct_{n}"] = f.default_factory
        if f.init:
            if f.default is not MISSING:
                params.append(f"{n}=__dflt_{n}")
                values.append((n, n))
            elif f.default_factory is not MISSING:
                params.append(f"{n}=__factory")
                values.append((n, f"__fct_{n}() if {n} is __factory else {n}"))
            else:
                params.append(n)
                values.append((n, n))
        elif f.default_factory is not MISSING:
            values.append((n, f"__fct_{n}()"))
        elif f.default is not MISSING:
            values.append((n, f"__dflt_{n}"))
    return names, params, values


def _compiled(name: str, params: list[str], body: list[str], names: dict[str, Any]) -> Callable[..., Any]:
    """The function ``name`` of ``params`` and ``body`` (lines indented by two), its free names
    from ``names``."""
    src = (f"def __create(__names):\n def {name}({', '.join(params)}):\n"
           + "".join(f" {line}\n" for line in body or ["  pass"]) + f" return {name}\n")
    scope: dict[str, Any] = {}
    exec(src, names, scope)         # noqa: S102 - the class's own field names, as dataclass does
    fn: Callable[..., Any] = scope["__create"](names)
    return fn


def maker(cls: type[T]) -> Callable[..., T]:
    """A function that makes an instance of the record ``cls`` as ``cls(...)`` does (the same
    parameters, the same fields, ``__post_init__`` run) without the class's call (its
    ``__init__`` found and called from C): the instance made, its fields set as plain attributes;
    for a frozen record (with slots and a twin), made as one of the twin, then made one of
    ``cls`` (a card's text line: ~2,700 instructions, where the class's call costs ~4,000).
    ``cls`` itself for any other class (its own ``__init__`` or ``__new__``, or frozen without
    a twin)."""
    made = getattr(cls.__dict__.get("__init__"), "__record__", None)     # (fields, frozen): record's own
    if made is None or cls.__new__ is not object.__new__:
        return cls
    flds, frozen = made
    names, params, values = _parts(flds)
    names.update({"__cls": cls, "__new": object.__new__})
    if frozen:
        names["__twin"] = twin(cls)
        if names["__twin"] is None:
            return cls
    body = ([f"  self = __new({'__twin' if frozen else '__cls'})"]
            + [f"  self.{n} = {value}" for n, value in values]
            + (["  self.__class__ = __cls"] if frozen else [])
            + (["  self.__post_init__()"] if hasattr(cls, "__post_init__") else []) + ["  return self"])
    fn = _compiled("make", params[1:], body, names)
    fn.__qualname__ = fn.__name__ = f"make_{cls.__name__}"
    fn.__module__ = cls.__module__
    return fn


def twin(cls: Any) -> type | None:
    """A subclass of the frozen record ``cls`` (with slots) whose instances are laid out as its
    own and set their attributes as ``object`` does, so that an instance of ``cls`` may be one of
    it while its fields are set; None when ``cls`` has no slots of its own, or it or a base has an
    ``__init_subclass__`` (which making the twin would run)."""
    own = cls.__dict__
    if "__record_twin__" in own:        # made before (by __init__ or maker)
        made: type | None = own["__record_twin__"]
        return made
    if "__slots__" not in own or any("__init_subclass__" in c.__dict__ for c in cls.__mro__[:-1]):
        made = None
    else:
        made = type(cls)(cls.__name__, (cls,), {
            "__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
            "__module__": cls.__module__, "__qualname__": f"{cls.__qualname__}.<twin>"})
    type.__setattr__(cls, "__record_twin__", made)
    return made

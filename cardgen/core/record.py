"""Records: dataclasses that cost a fraction as much to declare.

``dataclasses.dataclass`` writes the source of every method it adds (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, a frozen class's ``__setattr__`` and ``__delattr__``, the orderings)
and compiles each one; its field scan reads every string annotation with regular expressions:
about 0.3 ms a class, 13 ms of every command's start-up for the fifty classes a build imports.
:func:`record` finds the fields itself as ``dataclass`` finds them (the bases', then the class's
own annotations: ``Field`` objects in ``__dataclass_fields__``, so ``fields``, ``replace``,
``asdict`` and ``is_dataclass`` work as usual; ``__match_args__``, ``__slots__`` by making the
class again), compiles ``__init__`` alone (the method every instance runs), when first needed
(:mod:`cardgen.core.recordinit`), and gives the others as functions over the class's fields, read by one
``operator.attrgetter``. The behaviour is ``dataclass``'s: ``tests/test_record.py`` holds the two
side by side (signatures, docs, repr, equality, hashing, order, frozen fields, copies and pickles,
``replace``, inheritance, ``__post_init__``, the shapes both refuse).

Not supported (a ``TypeError`` when the class is made): ``InitVar``, ``KW_ONLY`` and keyword-only
fields, ``unsafe_hash``. A record has no ``__dataclass_params__`` (its options are its methods);
every record of the project is a record, so inheritance checks frozen against frozen here
(:func:`_check_bases`).
"""

from __future__ import annotations

import abc
import dataclasses
import inspect
import reprlib
import sys
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError
from operator import attrgetter
from types import MemberDescriptorType
from typing import Any, ClassVar, TypeVar, get_origin, overload

from cardgen.core.recordinit import Deferred, maker

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover - Python 3.10: the type checker's hint only
    def dataclass_transform(**_kw: Any) -> Callable[[Any], Any]:
        return lambda f: f

C = TypeVar("C", bound=type)

# how ``dataclasses`` marks a field and a class variable in ``__dataclass_fields__`` (``fields``,
# ``replace`` and ``asdict`` read the mark): its own two sentinels, read from the module
# (not in the type stubs)
_FIELD: Any = getattr(dataclasses, "_FIELD")  # noqa: B009
_FIELD_CLASSVAR: Any = getattr(dataclasses, "_FIELD_CLASSVAR")  # noqa: B009


@overload
def record(cls: C, /) -> C: ...
@overload
def record(*, frozen: bool = False, slots: bool = False, eq: bool = True, order: bool = False,
           repr: bool = True) -> Callable[[C], C]: ...


@dataclass_transform(field_specifiers=(dataclasses.field, Field))
def record(cls: Any = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True,
           order: bool = False, repr: bool = True) -> Any:
    """``@dataclass`` with the same options (``frozen``, ``slots``, ``eq``, ``order``, ``repr``)."""
    if order and not eq:
        raise ValueError("eq must be true if order is true")

    def wrap(c: C) -> C:
        return _make(c, frozen=frozen, slots=slots, eq=eq, order=order, show=repr)

    return wrap if cls is None else wrap(cls)


def _make(cls: Any, *, frozen: bool, slots: bool, eq: bool, order: bool, show: bool) -> Any:
    _check_bases(cls, frozen)
    own = cls.__dict__             # the class body's own methods are kept, as dataclass keeps them
    every = _fields(cls)
    flds = tuple(f for f in every.values() if f._field_type is _FIELD)
    cls.__dataclass_fields__ = every
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(f.name for f in flds if f.init)  # type: ignore[misc]
    if slots:
        cls = _slotted(cls, flds)
        own = cls.__dict__
    cls.__record_frozen__ = frozen
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    explicit_init = "__init__" in own
    if not explicit_init:
        cls.__init__, cls.__signature__ = Deferred(cls, flds, frozen).stand_ins()
    if not own.get("__doc__"):
        cls.__doc__ = cls.__name__ + (_signature(flds) if not explicit_init
                                      else str(inspect.signature(cls)).replace(" -> None", ""))
    if show and "__repr__" not in own:
        cls.__repr__ = _repr([f.name for f in flds if f.repr])
    compared = [f.name for f in flds if f.compare]
    get = _getter(compared)
    if eq and "__eq__" not in own:
        cls.__eq__ = _eq(get)
    if eq and not explicit_hash:
        cls.__hash__ = _hash(get) if frozen else None
    if order:
        for name, op in (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                                "Consider using functools.total_ordering")
            setattr(cls, name, _order(get, op))
    if frozen:
        for name in ("__setattr__", "__delattr__"):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        names = frozenset(f.name for f in flds)
        cls.__setattr__, cls.__delattr__ = _frozen(cls, names)
        if slots:
            if "__getstate__" not in own:
                cls.__getstate__ = _getstate
            if "__setstate__" not in own:
                cls.__setstate__ = _setstate
    if getattr(cls, "__abstractmethods__", None):
        abc.update_abstractmethods(cls)
    return cls


def _fields(cls: Any) -> dict[str, Any]:
    """The class's fields as ``dataclass`` finds them: the bases' (last base first), then its own
    annotations in order, each a ``Field`` (:func:`_field`), a ``ClassVar`` one marked as such
    (outside :func:`dataclasses.fields`)."""
    every: dict[str, Any] = {}      # (the fields: ``Field``s with the mark the stubs leave out)
    for base in cls.__mro__[-1:0:-1]:
        inherited = getattr(base, "__dataclass_fields__", None)
        if inherited is not None:
            every.update(inherited)
    own = cls.__dict__
    annotations = own.get("__annotations__", {})
    for name, kind in annotations.items():
        every[name] = _field(cls, name, kind, own.get(name, MISSING))
    for name, value in own.items():
        if isinstance(value, Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    _check_order(every)
    return every


def _field(cls: Any, name: str, kind: Any, default: Any) -> Any:
    """The field ``name`` annotated ``kind``: its default, or the ``field(...)`` it was given, as a
    ``Field`` marked as ``dataclass`` marks it; the class attribute of a field given by
    ``field(...)`` is its default or none, as ``dataclass`` leaves it."""
    what = _kind(kind)
    if what in ("InitVar", "KW_ONLY"):
        raise TypeError(f"{cls.__name__}.{name}: a record takes no {what}")
    given = isinstance(default, Field)
    f: Any
    if given:
        f = default
        if f.kw_only is True:
            raise TypeError(f"{cls.__name__}.{name}: a record takes no keyword-only fields")
    else:
        if isinstance(default, MemberDescriptorType):    # a slot of the class's own
            default = MISSING
        f = dataclasses.field(default=default)
    f.name = name
    f.type = kind
    if what == "ClassVar":
        if f.default_factory is not MISSING:
            raise TypeError(f"field {name} cannot have a default factory")
        f._field_type = _FIELD_CLASSVAR
    else:
        f._field_type = _FIELD
        if f.default is not MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                             "use default_factory")
    if given:
        if f.default is MISSING:
            delattr(cls, name)
        else:
            setattr(cls, name, f.default)
    return f


def _check_order(every: dict[str, Any]) -> None:
    """``dataclass``'s refusal of a required field after one with a default."""
    defaulted = False
    for f in every.values():
        if f._field_type is not _FIELD or not f.init:
            continue
        if f.default is MISSING and f.default_factory is MISSING:
            if defaulted:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
        else:
            defaulted = True


def _kind(annotation: Any) -> str:
    """``"ClassVar"``, ``"InitVar"``, ``"KW_ONLY"`` for such an annotation (a name or its text, as
    ``dataclass`` reads a string annotation: a name, maybe a module's, before any ``[``), else ""."""
    if isinstance(annotation, str):
        head = annotation.split("[", 1)[0].strip().rsplit(".", 1)[-1]
        return head if head in ("ClassVar", "InitVar", "KW_ONLY") else ""
    if annotation is ClassVar or get_origin(annotation) is ClassVar:
        return "ClassVar"
    if annotation is dataclasses.InitVar or isinstance(annotation, dataclasses.InitVar):
        return "InitVar"
    return "KW_ONLY" if annotation is dataclasses.KW_ONLY else ""


def _slotted(cls: Any, flds: tuple[Field, ...]) -> Any:
    """The class made again with ``__slots__`` for its fields (those no base has a slot for), as
    ``dataclass(slots=True)`` makes it."""
    inherited: set[str] = set()
    for base in cls.__mro__[1:-1]:
        have = base.__dict__.get("__slots__")
        if isinstance(have, str):
            inherited.add(have)
        elif have is not None:
            inherited.update(have)
    body = dict(cls.__dict__)
    names = tuple(f.name for f in flds)
    body["__slots__"] = tuple(n for n in names if n not in inherited)
    for n in names:
        body.pop(n, None)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    qualname = cls.__qualname__
    cls = type(cls)(cls.__name__, cls.__bases__, body)
    cls.__qualname__ = qualname
    return cls


def _signature(flds: tuple[Field, ...]) -> str:
    """The text of the class's signature (``inspect.signature``'s, without ``-> None``)."""
    params = []
    for f in flds:
        if not f.init:
            continue
        text = f"{f.name}: {inspect.formatannotation(f.type)}"
        if f.default is not MISSING:
            text += f" = {f.default!r}"
        elif f.default_factory is not MISSING:
            text += " = <factory>"
        params.append(text)
    return f"({', '.join(params)})"


def _check_bases(cls: Any, frozen: bool) -> None:
    for base in cls.__mro__[1:]:
        was = base.__dict__.get("__record_frozen__")
        if was is None:
            continue
        if was and not frozen:
            raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
        if frozen and not was:
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one")
        return


def _getter(names: list[str]) -> Callable[[Any], tuple]:
    """The compared fields of an instance as a tuple (what ``dataclass`` compares and hashes)."""
    if not names:
        return lambda o: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda o: (one(o),)
    return attrgetter(*names)


def _repr(names: list[str]) -> Callable[[Any], str]:
    @reprlib.recursive_repr("...")
    def __repr__(self: Any) -> str:
        return (self.__class__.__qualname__ + "("
                + ", ".join([f"{n}={getattr(self, n)!r}" for n in names]) + ")")
    return __repr__


def _eq(get: Callable[[Any], tuple]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return get(self) == get(other)
        return NotImplemented
    return __eq__


def _hash(get: Callable[[Any], tuple]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(get(self))
    return __hash__


def _order(get: Callable[[Any], tuple], op: str) -> Callable[[Any, Any], Any]:
    compare: Callable[[tuple, tuple], bool] = {
        "<": tuple.__lt__, "<=": tuple.__le__, ">": tuple.__gt__, ">=": tuple.__ge__}[op]

    def method(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return compare(get(self), get(other))
        return NotImplemented
    return method


def _frozen(cls: Any, names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)


__all__ = ["maker", "record"]

"""The one dotted-parameter lookup: ``players.max`` in a game's ``params.yaml``.

- :func:`lookup` walks a dotted path (or a sequence of keys) through nested mappings; a missing
  key raises :class:`ParamMissing`, a ``KeyError`` that names the missing dotted prefix, the key
  that failed and the keys that were there (for a "did you mean").
- :func:`resolve` reads a ``{param: a.b}`` value in content (constraints, card field bounds and
  choices, board files): the parameter's value, or a ``RULES-PARAM`` problem worded one way
  everywhere — "parameter 'a.b' is not defined in params.yaml", with the nearest key.

The rules engines read params through :class:`cardgen.play.params.Params`, the simulator's
``--vary`` through :func:`lookup`: one walk for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardgen.core.problems import Loc, Problems, did_you_mean

_MISSING: Any = object()


class ParamMissing(KeyError):
    """A dotted path that is not in the parameters; ``args[0]`` is the missing dotted prefix."""

    def __init__(self, prefix: str, part: Any, known: list[str]):
        super().__init__(prefix)
        self.prefix, self.part, self.known = prefix, part, known

    def hint(self) -> str | None:
        """A "did you mean" for the key that failed, among those that were there."""
        return did_you_mean(str(self.part), self.known)


def lookup(data: Any, path: str | Sequence[Any], default: Any = _MISSING) -> Any:
    """The value at a dotted ``path`` (or a sequence of keys) in nested mappings.

    A digit key also finds an integer key (``levels.2`` in ``levels: {2: …}``). Raises
    :class:`ParamMissing` unless ``default`` is given.
    """
    keys = path.split(".") if isinstance(path, str) else list(path)
    node = data
    for i, key in enumerate(keys):
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, Mapping) and isinstance(key, str) and key.isdigit() and int(key) in node:
            node = node[int(key)]
        else:
            if default is not _MISSING:
                return default
            known = [str(k) for k in node] if isinstance(node, Mapping) else []
            raise ParamMissing(".".join(str(k) for k in keys[: i + 1]), key, known)
    return node


def is_ref(value: Any) -> bool:
    """Whether ``value`` is a ``{param: dotted.path}`` reference."""
    return isinstance(value, dict) and set(value) == {"param"}


def missing(path: Any, what: str = "") -> str:
    """The one wording of a parameter that is not there."""
    return f"{what + ': ' if what else ''}parameter '{path}' is not defined in params.yaml"


def find(path: Any, params: Any, problems: Problems, loc: Loc | None, what: str = "") -> tuple[bool, Any]:
    """(True, the value at ``path``), or (False, None) with a ``RULES-PARAM`` problem at ``loc``."""
    try:
        return True, lookup(params, str(path))
    except ParamMissing as e:
        problems.error("RULES-PARAM", missing(path, what), loc, hint=e.hint())
        return False, None


def resolve(value: Any, params: Any, problems: Problems, loc: Loc | None, what: str = "") -> Any:
    """``{param: a.b}`` → the parameter's value (None, reported, when it is not there); any other
    value unchanged."""
    if is_ref(value):
        return find(value["param"], params, problems, loc, what)[1]
    return value


__all__ = ["ParamMissing", "find", "is_ref", "lookup", "missing", "resolve"]

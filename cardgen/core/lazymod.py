"""Heavy third-party modules that load on first use, so a command that never touches them
(``cardgen build`` never rasterises; a card template of plain ``{{ card.x }}`` fields never
needs Jinja) does not pay for importing them.

A table of modules can also hold stand-ins (``layout.elements.KINDS``: a kind's module loads when
a template first uses it).

``pdfium = lazy("pypdfium2")`` at the top of a module stands for ``import pypdfium2 as pdfium``:
the name is bound at once, the module is imported at the first attribute read. For third-party
modules, and for a module of cardgen's own that is there to wrap one (``core.sandbox``, built on
Jinja's classes); cardgen's other modules are imported as usual.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


# Stands for the module of its name until an attribute is read, then imports it and hands the
# attribute on (kept, so the next read is a plain lookup). Its ``__doc__`` is the module's (a
# property: so the class has no docstring of its own).
class _Later(ModuleType):
    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        value = getattr(importlib.import_module(self.__name__), attr)
        setattr(self, attr, value)
        return value

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        """The module's docstring (a stand-in's own would be None): imports the module."""
        return importlib.import_module(self.__name__).__doc__


def lazy(name: str) -> Any:
    """The module ``name``, imported when first used."""
    return _Later(name)

"""Heavy third-party modules that load on first use, so a command that never touches them
(``cardgen build`` never rasterises) does not pay for importing them.

``pdfium = lazy("pypdfium2")`` at the top of a module stands for ``import pypdfium2 as pdfium``:
the module object is there at once, its code runs at the first attribute read (importlib's
``LazyLoader``). For third-party modules only: cardgen's own modules are imported as usual.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The module ``name``, executed on first use (at once if it is already loaded or cannot be
    found, so a missing package fails as a plain import would)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return importlib.import_module(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module

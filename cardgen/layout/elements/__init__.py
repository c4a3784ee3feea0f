"""Drawing verbs for card templates: one module per element kind.

Each module holds ``SPEC`` (its keys as typed options) and ``draw(values, ctx)``, which
returns scene primitives in bleed-box coordinates. A game may add kinds by registering
a module here under a new name.

``KINDS`` names every verb's module; each is imported when a template first uses its kind
(through :func:`cardgen.core.lazymod.lazy`), so a game of rectangles and text does not load
the pictograms, the art placement or the footprint geometry.
"""

from types import ModuleType

from cardgen.core.lazymod import lazy

KINDS: dict[str, ModuleType] = {
    "rect": lazy("cardgen.layout.elements.rect"), "frame": lazy("cardgen.layout.elements.frame"),
    "line": lazy("cardgen.layout.elements.line"), "text": lazy("cardgen.layout.elements.text"),
    "badge": lazy("cardgen.layout.elements.badge"), "icon": lazy("cardgen.layout.elements.icon"),
    "image": lazy("cardgen.layout.elements.image"), "footprint": lazy("cardgen.layout.elements.footprint"),
    "art": lazy("cardgen.layout.elements.art"),
}


def register(name: str, module: ModuleType) -> None:
    """Add a drawing verb (a module with SPEC and draw)."""
    KINDS[name] = module

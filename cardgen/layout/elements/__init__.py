"""Drawing verbs for card templates: one module per element kind.

Each module is an :class:`~cardgen.layout.elements.base.ElementKind`: ``SPEC`` (its keys as
typed options), ``draw(values, ctx)``, which returns scene primitives in bleed-box coordinates,
and ``text_sizes(values)``, the sizes its text may print at (the legibility floor). A game may
add kinds by registering a module here under a new name.

``KINDS`` names every verb's module; each is imported when a template first uses its kind
(through :func:`cardgen.core.lazymod.lazy`), so a game of rectangles and text does not load
the pictograms, the art placement or the footprint geometry.
"""

from cardgen.core.lazymod import lazy
from cardgen.layout.elements.base import ElementKind

KINDS: dict[str, ElementKind] = {
    "rect": lazy("cardgen.layout.elements.rect"), "frame": lazy("cardgen.layout.elements.frame"),
    "line": lazy("cardgen.layout.elements.line"), "text": lazy("cardgen.layout.elements.text"),
    "badge": lazy("cardgen.layout.elements.badge"), "icon": lazy("cardgen.layout.elements.icon"),
    "image": lazy("cardgen.layout.elements.image"), "footprint": lazy("cardgen.layout.elements.footprint"),
    "art": lazy("cardgen.layout.elements.art"),
}


def register(name: str, module: ElementKind) -> None:
    """Add a drawing verb (a module with SPEC, TEXT_BOUNDED, draw and text_sizes)."""
    KINDS[name] = module

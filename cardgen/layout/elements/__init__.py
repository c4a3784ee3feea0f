"""Drawing verbs for card templates: one module per element kind.

Each module holds ``SPEC`` (its keys as typed options) and ``draw(values, ctx)``, which
returns scene primitives in bleed-box coordinates. A game may add kinds by registering
a module here under a new name.
"""

from types import ModuleType

from cardgen.layout.elements import art, badge, footprint, frame, icon, image, line, rect, text

KINDS: dict[str, ModuleType] = {
    "rect": rect, "frame": frame, "line": line, "text": text, "badge": badge, "icon": icon, "image": image,
    "footprint": footprint, "art": art,
}


def register(name: str, module: ModuleType) -> None:
    """Add a drawing verb (a module with SPEC and draw)."""
    KINDS[name] = module

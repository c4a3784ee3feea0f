"""Art files: what size a picture is (PNG and JPEG in pixels, SVG in points) and an SVG read as a
reportlab drawing (svglib). Every read goes through the project's checks: :mod:`cardgen.core.sources`
(inside the project, a regular file, a size cap) and, for PNG and JPEG, :mod:`cardgen.core.images`
(fully decoded under Pillow's pixel-bomb limit). Each file version is read once."""

from __future__ import annotations

import hashlib
import io
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen.core import sources
from cardgen.core.images import ImageError, checked, image_size
from cardgen.core.record import record

RASTER = (".png", ".jpg", ".jpeg")
VECTOR = (".svg",)
KINDS = RASTER + VECTOR


@record(frozen=True)
class ArtInfo:
    """A picture's size (pixels, or points for a vector picture) and whether it is vector."""

    width: float          # pixels (raster) or points (vector)
    height: float
    vector: bool


def info(path: Path) -> ArtInfo:
    """The picture's size; raises :class:`~cardgen.core.images.ImageError` (its ``rule``: FILE-MISSING,
    PATH-ESCAPE, FILE-KIND, FILE-SIZE, IMAGE-READ, IMAGE-BOMB) when it cannot be used."""
    if path.suffix.lower() in VECTOR:
        d = svg_drawing(str(path))
        if d is None or not d.width or not d.height:
            raise ImageError("IMAGE-READ", f"{path.name} is not a readable SVG picture")
        return ArtInfo(float(d.width), float(d.height), True)
    if path.suffix.lower() not in RASTER:
        raise ImageError("IMAGE-READ", f"{path.name} is no PNG, JPEG or SVG file")
    w, h = image_size(path)
    return ArtInfo(float(w), float(h), False)


def svg_drawing(path: str) -> Any:
    """The SVG as a reportlab Drawing; None when it cannot be read (raises ImageError for a file
    the project's checks refuse)."""
    return _svg_file(path)[0]


def svg_digest(path: str) -> str:
    """A digest of the SVG file's bytes: the name of its form in a PDF, the same for the same
    picture wherever the project lies ("" when it cannot be read; raises ImageError as
    :func:`svg_drawing` does)."""
    return _svg_file(path)[1]


def _svg_file(path: str) -> tuple[Any, str]:
    real, st = checked(path)
    return _svg(str(real), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=64)
def _svg(path: str, _mtime: int, _size: int) -> tuple[Any, str]:
    """(the drawing or None, the digest of the bytes): the file read once for both."""
    from svglib.svglib import svg2rlg  # 0.3 s of imports (lxml…): paid only when a card has SVG art
    logging.getLogger("svglib").setLevel(logging.CRITICAL)
    try:
        data = sources.read_bytes(path, cap=sources.MAX_IMAGE_BYTES)
    except Exception:  # noqa: BLE001 - an unreadable SVG is a problem on the card, never a crash
        return None, ""
    digest = hashlib.sha256(data).hexdigest()[:16]
    try:
        return svg2rlg(io.BytesIO(data)), digest
    except Exception:  # noqa: BLE001 - a broken SVG is a problem on the card, never a crash
        return None, digest

"""Art files: what size an image is (PNG and JPEG in pixels, SVG in points) and an SVG read
as a reportlab drawing (svglib) — each read once per file version."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image as PILImage
from PIL import UnidentifiedImageError

RASTER = (".png", ".jpg", ".jpeg")
VECTOR = (".svg",)
KINDS = RASTER + VECTOR


@dataclass(frozen=True)
class ArtInfo:
    width: float          # pixels (raster) or points (vector)
    height: float
    vector: bool


def info(path: Path) -> ArtInfo | None:
    """The image's size, or None when the file is no readable image of a supported kind."""
    try:
        st = path.stat()
    except OSError:
        return None
    return _info(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=512)
def _info(path: str, _mtime: int, _size: int) -> ArtInfo | None:
    suffix = Path(path).suffix.lower()
    if suffix in VECTOR:
        d = _svg(path, _mtime, _size)
        return ArtInfo(float(d.width), float(d.height), True) if d is not None and d.width and d.height else None
    if suffix not in RASTER:
        return None
    try:
        with PILImage.open(path) as im:
            if im.format not in ("PNG", "JPEG"):
                return None
            w, h = im.size
    except (OSError, UnidentifiedImageError, ValueError, PILImage.DecompressionBombError):
        return None
    return ArtInfo(float(w), float(h), False) if w and h else None


def svg_drawing(path: str) -> Any:
    """The SVG as a reportlab Drawing (None when svglib cannot read it)."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return _svg(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=64)
def _svg(path: str, _mtime: int, _size: int) -> Any:
    from svglib.svglib import svg2rlg  # 0.3 s of imports (lxml…): paid only when a card has SVG art
    logging.getLogger("svglib").setLevel(logging.CRITICAL)
    try:
        return svg2rlg(path)
    except Exception:  # noqa: BLE001 - a broken SVG is a problem on the card, never a crash
        return None

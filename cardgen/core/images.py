"""Pictures the project links (card art, rulebook images): opened and decoded at validate.

A picture is read through :mod:`cardgen.core.sources` (inside the project, a regular file, a size
cap) and decoded by Pillow under its decompression-bomb limit, so a file that is no image,
a truncated one or a "pixel bomb" is a problem at validate, never a crash in build.
"""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path

from PIL import Image as PILImage

from cardgen.core import sources

MAX_PIXELS = PILImage.MAX_IMAGE_PIXELS or 89_478_485     # Pillow's own decompression-bomb limit


class ImageError(Exception):
    """A picture that cannot be used; ``rule`` is the problem's rule ID."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule, self.message = rule, message


_SEEN: dict[tuple[str, int, int], tuple[int, int] | ImageError] = {}     # by file and version


def checked(path: str | os.PathLike) -> tuple[Path, os.stat_result]:
    """A picture file through the project's checks: (its real path, its stat); ImageError otherwise."""
    try:
        real = sources.resolve(path, cap=sources.MAX_IMAGE_BYTES)
        return real, real.stat()
    except sources.SourceError as e:
        raise ImageError(e.rule, e.message) from e
    except OSError as e:
        raise ImageError("FILE-MISSING", f"cannot read {path}: {e.strerror or e}") from e


def image_size(path: str | os.PathLike) -> tuple[int, int]:
    """(width, height) in pixels of a checked, fully decoded picture; raises :class:`ImageError`."""
    real, st = checked(path)
    key = (str(real), st.st_mtime_ns, st.st_size)
    if key not in _SEEN:
        try:
            _SEEN[key] = _decode(path, real)
        except ImageError as e:
            _SEEN[key] = e
    found = _SEEN[key]
    if isinstance(found, ImageError):
        raise found
    return found


def _decode(path: str | os.PathLike, real: Path) -> tuple[int, int]:
    try:
        data = sources.read_bytes(real, cap=sources.MAX_IMAGE_BYTES)
    except sources.SourceError as e:
        raise ImageError(e.rule, e.message) from e
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(io.BytesIO(data)) as im:
                if im.width * im.height > MAX_PIXELS:
                    raise PILImage.DecompressionBombError(f"{im.width} × {im.height} pixels")
                im.load()
                size = im.size
    except (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning) as e:
        raise ImageError("IMAGE-BOMB", f"image {Path(path).name} is too large to decode ({e}); "
                         f"at most {MAX_PIXELS:,} pixels") from e
    except PILImage.UnidentifiedImageError as e:
        raise ImageError("IMAGE-READ", f"{Path(path).name} is not a PNG or JPEG picture") from e
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError) as e:
        raise ImageError("IMAGE-READ", f"{Path(path).name} is not a readable PNG or JPEG picture ({e})") from e
    return size


__all__ = ["ImageError", "MAX_PIXELS", "image_size"]

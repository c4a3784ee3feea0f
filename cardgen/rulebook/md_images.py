"""Rulebook images: an image target turned into a card picture, another pipeline's picture
(``board:``, ``preset:``, ``diagram:`` — see :mod:`cardgen.rulebook.images`) or a picture file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.platypus import Image as RLImage

from cardgen.core import sources
from cardgen.core.images import ImageError, image_size
from cardgen.core.problems import Loc, Problems, did_you_mean


class ImageResolver:
    """Turns an image target into a CardPicture (``card:<id>``) or a flowable (a file).

    ``schemes`` maps a URL scheme to ``fn(target, alt, loc, problems) -> CardPicture |
    Flowable | None``; other games' pipelines (maps, mats) add theirs.
    """

    def __init__(self, root: Path, schemes: dict[str, Callable] | None = None):
        self.root = root
        self.schemes = dict(schemes or {})

    def resolve(self, src: str, alt: str, base: Path, loc: Loc, problems: Problems, width: float):
        scheme, sep, rest = src.partition(":")
        if sep and scheme in self.schemes:
            return self.schemes[scheme](rest, alt, loc, problems)
        if sep and len(scheme) > 1 and "/" not in scheme:
            problems.error("RULEBOOK-MARKDOWN", f"unknown image kind '{scheme}:'", loc,
                           hint=did_you_mean(scheme, self.schemes) or
                           f"known: {', '.join(sorted(self.schemes)) or 'none'}, or a file path")
            return None
        path = (base / src).resolve()
        try:
            path.relative_to(self.root.resolve())
        except ValueError:
            problems.error("PATH-ESCAPE", f"image '{src}' lies outside the project folder", loc)
            return None
        if not path.is_file():
            problems.error("FILE-MISSING", f"image file '{src}' does not exist", loc)
            return None
        try:
            w, h = image_size(path)     # the whole file, not only its header: typesetting reads it all
        except ImageError as e:
            problems.error(e.rule, f"cannot use image '{src}': {e.message}", loc,
                           hint="link a PNG or JPEG picture")
            return None
        img = RLImage(str(sources.resolve(path, cap=sources.MAX_IMAGE_BYTES)))     # checked: read as decoded
        s = min(1.0, width / w) if w else 1.0
        img.drawWidth, img.drawHeight = w * s, h * s
        return img

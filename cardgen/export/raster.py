"""One card face → PNG pixels, through the PDF renderer and pdfium.

The face is laid out with a bleed wide enough to cover the target's page (a service's trim
plus its bleed, centred on the card), drawn on a one-page PDF of exactly that page and
rasterised at the target's resolution, so the image has the service's pixel size exactly.
"""

from __future__ import annotations

import io

from PIL import Image as PILImage

from cardgen.core.lazymod import lazy
from cardgen.core.record import record
from cardgen.render.pdf import render
from cardgen.scene import Clip, Document, Page, Symbol, translate

pdfium = lazy("pypdfium2")     # loaded when a face is rasterised, not by every command

MM_IN = 25.4


@record(frozen=True)
class Target:
    """What an image covers: the trim (mm), the bleed kept around it (mm), the resolution."""

    trim_w: float
    trim_h: float
    bleed: float
    dpi: int

    @property
    def px(self) -> tuple[int, int]:
        return (round((self.trim_w + 2 * self.bleed) / MM_IN * self.dpi),
                round((self.trim_h + 2 * self.bleed) / MM_IN * self.dpi))

    @property
    def page_mm(self) -> tuple[float, float]:
        """The page whose pixels are exactly :attr:`px` at :attr:`dpi`."""
        w, h = self.px
        return w / self.dpi * MM_IN, h / self.dpi * MM_IN


def layout_bleed(target: Target, w: float, h: float) -> float:
    """The bleed to lay a ``w`` × ``h`` card out with so that it covers the target's page."""
    pw, ph = target.page_mm
    return max(0.0, (pw - w) / 2, (ph - h) / 2) + 0.01


def face_pdf(items: list, symbols: dict[str, Symbol], w: float, h: float, laid_bleed: float,
             target: Target) -> bytes:
    """The face (laid out in a ``laid_bleed`` bleed box) centred on the target's page."""
    pw, ph = target.page_mm
    dx, dy = (pw - w) / 2 - laid_bleed, (ph - h) / 2 - laid_bleed
    page = Page(pw, ph, [Clip(0, 0, pw, ph, tuple(translate(items, dx, dy)))], label="face")
    doc = Document("card face", [page], subject="card face")
    doc.symbols.update(symbols)
    return render(doc)


def png(pdf_bytes: bytes, target: Target, mode: str = "RGB") -> bytes:
    """The page as a PNG of exactly the target's pixels, its DPI in the file."""
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        image = doc[0].render(scale=target.dpi / 72).to_pil()
    finally:
        doc.close()
    if image.size != target.px:
        image = image.crop((0, 0, *target.px)) if image.width >= target.px[0] and image.height >= target.px[1] \
            else image.resize(target.px)
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", dpi=(target.dpi, target.dpi))
    return out.getvalue()


def open_png(data: bytes) -> PILImage.Image:
    return PILImage.open(io.BytesIO(data))

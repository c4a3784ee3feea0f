"""Every face of the chosen cards rendered for a target, in parallel over the cores.

Faces are laid out anew with the bleed the target needs (see :mod:`.raster`); text or icons
that come closer to the trim than the target's safe margin are ``CARD-SAFE`` warnings naming
the card, the element and its template line.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import replace

from cardgen.content.model import Card, Game
from cardgen.core.fonts import Metrics
from cardgen.core.lazymod import lazy
from cardgen.core.problems import Problems
from cardgen.core.record import record
from cardgen.export.raster import Target, face_pdf, layout_bleed, png
from cardgen.layout.card import CardLayout
from cardgen.scene import Image, Text, Use, translate

multiprocessing = lazy("multiprocessing")     # worker processes for an export only

SIDES = ("front", "back")


@record(frozen=True)
class Face:
    card_id: str
    side: str
    data: bytes


_JOB: dict = {}       # the game and target, inherited by forked workers


def _render(args: tuple[str, str]) -> tuple[str, str, bytes, list]:
    game: Game = _JOB["game"]
    target: Target = _JOB["target"]
    card_id, side = args
    card = next(c for c in game.cards if c.id == card_id)
    ct = game.card_types[card.type]
    bleed = game.print.bleed
    problems = Problems()
    layout = CardLayout(game, problems)
    items = layout.draw(card, side)
    warnings = safe_warnings(layout, card, side, items, ct.width, ct.height, bleed, _JOB["safe"])
    data = png(face_pdf(items, layout.symbols, ct.width, ct.height, bleed, target), target)
    return card_id, side, data, [(p.rule, p.severity, p.message, p.loc, p.hint) for p in problems] + warnings


def safe_warnings(layout: CardLayout, card: Card, side: str, items: list, w: float, h: float, bleed: float,
                  safe: float) -> list:
    """CARD-SAFE: text and pictures of the face that reach into the safe margin or the bleed
    (the frame's own band and backgrounds may; words and icons may not)."""
    if side != "front" or safe <= 0:
        return []
    lo_x, lo_y, hi_x, hi_y = bleed + safe, bleed + safe, bleed + w - safe, bleed + h - safe
    m = Metrics()
    out = []
    flat: list = []
    for it in items:
        if isinstance(it, Use) and it.name in layout.symbols:
            flat += translate(layout.symbols[it.name].items, it.x, it.y)
        else:
            flat.append(it)
    for it in flat:
        if isinstance(it, Text) and it.text.strip():
            tw = m.width_mm(it.text, it.font, it.size)
            x0 = it.x - (tw / 2 if it.align == "center" else tw if it.align == "right" else 0)
            box = (x0, it.y - it.size * 0.26, x0 + tw, it.y + it.size * 0.07)    # cap height and descent, mm
        elif isinstance(it, Image):
            box = (it.x, it.y, it.x + it.w, it.y + it.h)
        else:
            continue
        if box[0] < lo_x - 0.05 or box[1] < lo_y - 0.05 or box[2] > hi_x + 0.05 or box[3] > hi_y + 0.05:
            what = f"'{it.text[:30]}'" if isinstance(it, Text) else "a picture"
            out.append(("CARD-SAFE", "warning", f"card '{card.id}' ({card.name}): {what} comes within "
                        f"{safe:g} mm of the trim (the service's safe area)", card.loc, None))
            break
    return out


def render_faces(game: Game, cards: list[Card], target: Target, safe: float, workers: int | None = None,
                 progress: Callable[[int], None] | None = None) -> Iterator[tuple[str, str, bytes, list]]:
    """(card id, side, PNG, problems) for both faces of every card, in card order."""
    bleeds = {layout_bleed(target, game.card_types[c.type].width, game.card_types[c.type].height) for c in cards}
    view = replace(game, print=replace(game.print, bleed=max(bleeds, default=game.print.bleed)))
    _JOB.update(game=view, target=target, safe=safe)
    jobs = [(c.id, side) for c in cards for side in SIDES]
    n = workers or os.cpu_count() or 1
    if n <= 1 or len(jobs) < 8:
        for j in jobs:
            yield _render(j)
            if progress:
                progress(1)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(n) as pool:
        for res in pool.imap(_render, jobs, chunksize=max(1, len(jobs) // (n * 8))):
            yield res
            if progress:
                progress(1)

"""Tabletop Simulator decks: sheets of up to 10 × 7 faces (at most 4,096 px a side) and a
saved object (``ObjectStates`` of ``DeckCustom``) that imports as the decks, each card named
and at its count.

TTS addresses a card as ``deck number × 100 + its slot on the sheet``; a deck whose cards
share one back uses that back image, otherwise a back sheet (``UniqueBack``). The last slot
of a full 10 × 7 sheet is left empty, as TTS shows it for hidden cards.
"""

from __future__ import annotations

import io
import math

from PIL import Image as PILImage

from cardgen.core.record import record

COLS, ROWS, MAX_SIDE = 10, 7, 4096
PER_SHEET = COLS * ROWS - 1


@record
class Deck:
    name: str
    cards: list[tuple[str, str, int]]       # (card id, card name, copies)


def grid(n: int) -> tuple[int, int]:
    cols = min(COLS, max(2, n))
    rows = max(2, math.ceil(n / cols))
    return cols, rows


def sheet(images: list[bytes], cols: int, rows: int) -> bytes:
    """The faces on a grid, scaled down evenly so the sheet stays within 4,096 px a side."""
    first = PILImage.open(io.BytesIO(images[0]))
    cw, ch = first.size
    scale = min(1.0, MAX_SIDE / (cols * cw), MAX_SIDE / (rows * ch))
    cw, ch = max(1, int(cw * scale)), max(1, int(ch * scale))
    out = PILImage.new("RGB", (cols * cw, rows * ch), "white")
    for k, data in enumerate(images):
        im = PILImage.open(io.BytesIO(data)).convert("RGB")
        if im.size != (cw, ch):
            im = im.resize((cw, ch), PILImage.Resampling.LANCZOS)
        out.paste(im, ((k % cols) * cw, (k // cols) * ch))
    buf = io.BytesIO()
    out.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def _transform(x: float) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def build(decks: list[Deck], faces: dict[tuple[str, str], bytes], url: str, stem: str
          ) -> tuple[dict[str, bytes], dict]:
    """Sheet images (name → PNG) and the saved object for ``decks``; ``url`` prefixes image names."""
    files: dict[str, bytes] = {}
    states = []
    number = 0
    for d_index, deck in enumerate(decks):
        custom: dict[str, dict] = {}
        contained, ids = [], []
        for start in range(0, len(deck.cards), PER_SHEET):
            chunk = deck.cards[start:start + PER_SHEET]
            number += 1
            cols, rows = grid(len(chunk))
            face_name = f"{stem}-{number}-faces.png"
            files[face_name] = sheet([faces[(cid, "front")] for cid, _, _ in chunk], cols, rows)
            backs = [faces[(cid, "back")] for cid, _, _ in chunk]
            unique = len(set(backs)) > 1
            back_name = f"{stem}-{number}-back{'s' if unique else ''}.png"
            files[back_name] = sheet(backs, cols, rows) if unique else backs[0]
            custom[str(number)] = {"FaceURL": url + face_name, "BackURL": url + back_name, "NumWidth": cols,
                                   "NumHeight": rows, "BackIsHidden": True, "UniqueBack": unique, "Type": 0}
            for slot, (_cid, name, copies) in enumerate(chunk):
                for _ in range(copies):
                    card_id = number * 100 + slot
                    ids.append(card_id)
                    contained.append({"Name": "Card", "Nickname": name, "Description": "", "CardID": card_id,
                                      "Transform": _transform(0.0)})
        states.append({"Name": "DeckCustom", "Nickname": deck.name, "Description": "",
                       "Transform": _transform(d_index * 3.0), "DeckIDs": ids, "CustomDeck": custom,
                       "ContainedObjects": contained})
    return files, {"SaveName": stem, "ObjectStates": states}

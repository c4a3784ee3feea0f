"""Token sheets (``tokens:`` files): round or square counters with cut marks, fronts and backs.

Each sheet's front page is followed by its back page; a token's back stands behind its front
(mirrored left-right for long-edge duplex, top-bottom for short-edge, shifted by the
printer's duplex offset) — the same imposition as the cards. A token's count is written
once: either ``count`` in the tokens file or ``component: <id>`` naming a component the
game's card files already count.
"""

from __future__ import annotations

import math
from pathlib import Path

from cardgen.boards import common
from cardgen.boards.symbols import SYMBOLS, icon_symbol, symbol_items
from cardgen.boards.tiling import MARGIN, printable_area
from cardgen.content.gamespec import DEFAULT_LIMITS
from cardgen.core.fonts import METRICS
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict
from cardgen.layout.imposition import back_position
from cardgen.layout.legibility import MIN_PT
from cardgen.scene import Circle, Line, Page, Polygon, Rect, Text

SHAPES = ("round", "square", "hex")      # hex: pointy-top, like the hex maps; ``size`` across flats
BLEED = 1.0          # colour printed beyond the cut line

FACE_SPEC = {
    "label": Opt("str", default=None, doc="printed name (default: the token's name)"),
    "value": Opt("str", default=None, doc="a big number or letter in the middle"),
    "symbol": Opt("enum", choices=SYMBOLS, default=None),
    "icon": Opt("str", default=None, doc="a game icon (game.yaml icons), drawn with its pictogram as on the cards"),
    "color": Opt("color", default=None, doc="background"),
    "ink": Opt("color", default=None, doc="text and symbol colour"),
}
TOKEN_SPEC = {
    "id": Opt("str", required=True),
    "name": Opt("str", default=None, doc="default: the component's name"),
    "count": Opt("any", default=None, doc="how many to print: a number, {param: …}, or a list of them added up"),
    "component": Opt("str", default=None, doc="a component id whose count is printed"),
    "card": Opt("str", default=None, doc="a card id whose copies are printed as tokens"),
    "shape": Opt("enum", choices=SHAPES, default=None),
    "size": Opt("length", default=None, min=5, doc="diameter, side, or a hex's width across flats"),
    "times": Opt("any", default=None, doc="the count multiplied by this: a number, {param: …}, or a list of them "
                 "multiplied (one per player, two per dial …)"),
    "numbered": Opt("bool", default=False, doc="print the copies 1, 2, 3 … (figures, start tiles)"),
    **FACE_SPEC,
    "back": Opt("map", default=None, doc="the back: same keys as the front (default: the front again)"),
}
SHEET_SPEC = {
    "name": Opt("str", required=True),
    "shape": Opt("enum", choices=SHAPES, default="round"),
    "size": Opt("length", default=20.0, min=5),
    "gap": Opt("length", default=4.0, min=2, doc="between neighbouring tokens"),
    "color": Opt("color", default="#ffffff"),
    "ink": Opt("color", default="#000000"),
    "back": Opt("map", default=None, doc="default back of every token"),
    "items": Opt("list", required=True),
}


@record
class Face:
    label: str
    value: str | None
    symbol: str
    color: str
    ink: str


@record
class TokenDef:
    id: str
    name: str
    count: int
    shape: str
    size: float
    front: Face
    back: Face
    loc: Loc
    numbered: bool = False

    @property
    def extent(self) -> float:
        """The side of the square cell the token is cut from (a hex: its height across corners)."""
        return self.size * 2 / math.sqrt(3) if self.shape == "hex" else self.size


@record
class Sheet:
    path: Path
    name: str
    gap: float
    tokens: list[TokenDef]
    loc: Loc


def _face(raw: dict | None, base: Face, game, problems: Problems) -> Face | None:
    if not raw:
        return base
    r = common.check(raw, FACE_SPEC, problems, "token face", game.colors)
    if not r.ok:
        return None
    v = r.values
    mark = icon_symbol(v["icon"], game, problems, raw.at("icon") if isinstance(raw, YDict) else None) or v["symbol"]
    value = v["value"] if v["value"] is not None else (None if mark is not None else base.value)
    symbol = mark if mark is not None else ("none" if v["value"] is not None else base.symbol)
    return Face(v["label"] if v["label"] is not None else base.label, value, symbol,
                v["color"] or base.color, v["ink"] or base.ink)


def load(path: Path, doc: YDict, game, problems: Problems) -> Sheet | None:
    found = common.section(doc, "tokens", SHEET_SPEC, problems, path.name, game.colors)
    if found is None:
        return None
    v, td = found
    comps = {c.id: c for c in game.components}
    out: list[TokenDef] = []
    ok = True
    seen: set[str] = set()
    for i, raw in enumerate(td["items"]):
        loc = td["items"].at(i)
        rr = common.mapping(raw, loc, TOKEN_SPEC, problems, f"token {i + 1}", game.colors)
        if not rr.ok:
            ok = False
            continue
        t = rr.values
        if t["id"] in seen:
            problems.error("TOKEN-DUPLICATE", f"token id '{t['id']}' is used twice", raw.at("id"))
            ok = False
            continue
        seen.add(t["id"])
        name = t["name"]
        given = [k for k in ("count", "component", "card") if t[k] is not None]
        if len(given) != 1:
            problems.error("TOKEN-COUNT", f"token '{t['id']}' needs exactly one of count, component and card "
                           f"(it has {', '.join(given) or 'none'}): write the number once",
                           raw.at(given[1]) if len(given) > 1 else loc)
            ok = False
            continue
        if t["component"] is not None:
            comp = comps.get(t["component"])
            if comp is None:
                problems.error("TOKEN-COMPONENT", f"token '{t['id']}' names unknown component '{t['component']}'",
                               raw.at("component"), hint=did_you_mean(t["component"], comps))
                ok = False
                continue
            count = comp.count
            name = name or comp.name
        elif t["card"] is not None:
            card = game.cards_by_id.get(t["card"])
            if card is None:
                problems.error("TOKEN-COMPONENT", f"token '{t['id']}' names unknown card '{t['card']}'",
                               raw.at("card"), hint=did_you_mean(t["card"], game.cards_by_id))
                ok = False
                continue
            count = card.copies
            name = name or card.name
        else:
            count = _count(t["count"], game, problems, raw.at("count"), t["id"])
            if count is None:
                ok = False
                continue
        if t["times"] is not None:
            factor = _count(t["times"], game, problems, raw.at("times"), t["id"], product=True)
            if factor is None:
                ok = False
                continue
            count *= factor
        name = name or t["id"]
        mark = icon_symbol(t["icon"], game, problems, raw.at("icon") if isinstance(raw, YDict) else None) or t["symbol"]
        front = Face(t["label"] if t["label"] is not None else name, t["value"], mark or "none",
                     t["color"] or v["color"], t["ink"] or v["ink"])
        back_raw = raw.get("back") if raw.get("back") is not None else td.get("back")
        back = _face(back_raw, front, game, problems)
        if back is None:
            ok = False
            continue
        out.append(TokenDef(t["id"], name, count, t["shape"] or v["shape"], t["size"] or v["size"], front, back,
                            loc, t["numbered"]))
    if not ok:
        return None
    return Sheet(path, v["name"], v["gap"], out, td.loc)


def _count(raw, game, problems: Problems, loc: Loc, tid: str, product: bool = False) -> int | None:
    """A count: a number or ``{param: …}``, or a list of them added up (``product``: multiplied)."""
    parts = raw if isinstance(raw, list) else [raw]
    total = 1 if product else 0
    for p in parts:
        v = _in_cards(p, game, problems, loc) if isinstance(p, dict) and "cards" in p else common.param(p, game,
                                                                                                         problems, loc)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            problems.error("YAML-TYPE", f"count of token '{tid}' must be whole numbers ≥ 0, not {v!r}", loc)
            return None
        total = total * v if product else total + v
    limit = (game.meta.get("limits") or {}).get("count") or DEFAULT_LIMITS["count"]
    if total > limit:
        problems.error("TOKEN-COUNT", f"count of token '{tid}' is {total:,}, more than the game's limit of "
                       f"{limit:,}", loc, hint="raise limits.count in game.yaml if the game really needs more")
        return None
    return total


def _in_cards(raw: dict, game, problems: Problems, loc: Loc) -> int | None:
    """``{cards: FIELD, type: TYPE}``: FIELD added up over every copy of the game's cards of TYPE (a list
    counts its entries: the hexes of every boss piece's footprint)."""
    field, ctype = raw.get("cards"), raw.get("type")
    if not isinstance(field, str) or not isinstance(ctype, str) or set(raw) != {"cards", "type"}:
        problems.error("YAML-TYPE", "a count from the cards is {cards: FIELD, type: TYPE}, not " + repr(dict(raw)), loc)
        return None
    vals = [(c.fields.get(field), c.copies) for c in game.cards if c.type == ctype and field in c.fields]
    if not vals and (game.failed_ids or game.unread_files or any(u.get("type") in (None, ctype) for u in game.unread_cards)):
        return None         # the cards that would have it failed to load: reported there, once
    if not vals:
        problems.error("YAML-TYPE", f"no card of type '{ctype}' has a field '{field}' to count", loc)
        return None
    return sum((len(v) if isinstance(v, list) else int(v or 0)) * n for v, n in vals)


# --------------------------------------------------------------------------- drawing


def _fit(text: str, font: str, size: float, width: float, min_size: float = 4.0) -> float:
    while size > min_size and METRICS.width_mm(text, font, size) > width:
        size -= 0.25
    return size


def face_items(t: TokenDef, face: Face, x: float, y: float, fonts: dict[str, str]) -> list:
    """One side of a token whose cut box (``t.extent`` square) has its top-left corner at (x, y)."""
    s = t.size
    cx, cy = x + t.extent / 2, y + t.extent / 2
    out: list = []
    if t.shape == "hex":
        out.append(Polygon(hex_corners(cx, cy, s + 2 * BLEED), face.color, None, 0))
        out.append(Polygon(hex_corners(cx, cy, s * 0.88), None, face.ink, max(0.2, s * 0.012)))
        out.append(Polygon(hex_corners(cx, cy, s), None, "#000000", 0.15))   # the cut line
    elif t.shape == "round":
        out.append(Circle(cx, cy, s / 2 + BLEED, face.color, None, 0))
        out.append(Circle(cx, cy, s / 2 - s * 0.06, None, face.ink, max(0.2, s * 0.012)))
        out.append(Circle(cx, cy, s / 2, None, "#000000", 0.15))        # the cut line
    else:
        out.append(Rect(x - BLEED, y - BLEED, s + 2 * BLEED, s + 2 * BLEED, face.color, None, 0))
        out.append(Rect(x + s * 0.06, y + s * 0.06, s * 0.88, s * 0.88, None, face.ink, max(0.2, s * 0.012), s * 0.06))
        out.append(Rect(x, y, s, s, None, "#000000", 0.15))                  # the cut line
    has_label = bool(face.label)
    if face.value:
        vs = _fit(face.value, fonts["bold"], s * 1.05, s * 0.6)
        vy = cy + vs * 25.4 / 72 * 0.35 - (s * 0.06 if has_label else 0)
        out.append(Text(cx, vy, face.value, fonts["bold"], vs, face.ink, "center"))
    elif face.symbol and face.symbol != "none":
        out += symbol_items(face.symbol, cx, cy - (s * 0.1 if has_label else 0), s * (0.42 if has_label else 0.55),
                            face.ink, face.color)
    if has_label:
        inner = s * (0.7 if t.shape == "round" else 0.8)     # the chord of a round token at the label's line
        ls = _fit(face.label, fonts["bold"], max(MIN_PT, s * 0.3), inner)   # under MIN_PT: TEXT-SMALL
        out.append(Text(cx, cy + s * 0.27, face.label, fonts["bold"], ls, face.ink, "center"))
    return out


def hex_corners(cx: float, cy: float, flats: float) -> tuple[tuple[float, float], ...]:
    """A pointy-top hexagon ``flats`` wide across its flats, centred on (cx, cy)."""
    r = flats / math.sqrt(3)
    return tuple((cx + r * math.cos(math.radians(-90 + 60 * k)), cy + r * math.sin(math.radians(-90 + 60 * k)))
                 for k in range(6))


def numbered(t: TokenDef, face: Face, copy: int) -> Face:
    """The face of copy ``copy`` (0-based): its number in the middle when the token is numbered."""
    if not t.numbered:
        return face
    return Face(face.label, str(copy + 1), "none", face.color, face.ink)


TICK = 4.0          # crop mark length
TICK_GAP = 1.0      # between a crop mark and the printed colour


def _shelves(sheet: Sheet, width: float) -> list[tuple[float, list[tuple[TokenDef, int]], bool, bool]]:
    """Rows of tokens of one size each, in the file's order: [(size, [(token, copy), …], first of its
    size, last of its size), …]."""
    groups: dict[tuple[str, float], list[tuple[TokenDef, int]]] = {}
    for t in sheet.tokens:
        groups.setdefault((t.shape, t.size), []).extend((t, k) for k in range(t.count))
    rows = []
    for copies in groups.values():
        size = copies[0][0].extent
        per = max(1, int((width + sheet.gap) // (size + sheet.gap)))
        for i in range(0, len(copies), per):
            rows.append((size, copies[i:i + per], i == 0, i + per >= len(copies)))
    return rows


def _marks(xs: list[float], top: float, bottom: float, ys: list[float], left: float, right: float) -> list:
    """Crop marks: short lines on the cut lines, outside the block of tokens."""
    out = []
    b = BLEED + TICK_GAP
    for x in xs:
        out += [Line(x, top - b - TICK, x, top - b, "#000000", 0.2),
                Line(x, bottom + b, x, bottom + b + TICK, "#000000", 0.2)]
    for y in ys:
        out += [Line(left - b - TICK, y, left - b, y, "#000000", 0.2),
                Line(right + b, y, right + b + TICK, y, "#000000", 0.2)]
    return out


def pages(sheet: Sheet, game, fonts: dict[str, str]) -> tuple[list[Page], list[dict]]:
    """Front and back pages; returns the pages and a manifest of every token's cut box."""
    ps = game.print
    W, H = ps.page_w, ps.page_h
    aw, ah = printable_area(W, H)            # A4 and Letter: the area both hold; A3: the whole sheet
    cw, ch = aw - 2 * MARGIN, ah - 2 * MARGIN
    bx, by = (W - cw) / 2, (H - ch) / 2
    inner_w = cw - 2 * (BLEED + TICK_GAP + TICK)
    top0 = by + 8 + BLEED + TICK_GAP + TICK
    bottom_limit = by + ch - (BLEED + TICK_GAP + TICK)
    out: list[Page] = []
    manifest: list[dict] = []
    title = f"{game.title} — {sheet.name}"
    front, back = Page(W, H, label="front"), Page(W, H, label="back")     # replaced by new_pages() before use
    y = top0
    block: list = []          # the current block of same-size shelves: (x0, size, n, y)

    def new_pages():
        nonlocal front, back, y
        front = Page(W, H, label="front")
        back = Page(W, H, label="back")
        front.items.append(Text(bx, by + 4, f"{title} · fronts · print double-sided ({ps.duplex}-edge flip) at "
                                "100 %; cut on the black lines", fonts["bold"], 8, "#000000"))
        back.items.append(Text(W - bx, by + 4, f"{title} · backs", fonts["bold"], 8, "#000000", "right"))
        out.extend([front, back])
        manifest.extend([{"page": len(out) - 1, "side": "front", "tokens": []},
                         {"page": len(out), "side": "back", "tokens": []}])
        y = top0

    def close_block():
        if not block:
            return
        size = block[0][1]
        ncols = max(n for _, _, n, _, _ in block)
        x0 = block[0][0]
        if block[0][4]:           # hexes: cut along their printed outline, not on a grid
            block.clear()
            return
        xs = sorted({x0 + c * (size + sheet.gap) + d for c in range(ncols) for d in (0, size)})
        ys = sorted({yy + d for _, _, _, yy, _ in block for d in (0, size)})
        front.items.extend(_marks(xs, block[0][3], block[-1][3] + size, ys, x0,
                                  x0 + ncols * size + (ncols - 1) * sheet.gap))
        block.clear()

    new_pages()
    for size, copies, first, _last in _shelves(sheet, inner_w):
        if first:
            close_block()
            if y > top0:
                y += 2 * (BLEED + TICK_GAP + TICK) - sheet.gap
        if y + size > bottom_limit:
            close_block()
            new_pages()
        per = max(1, int((inner_w + sheet.gap) // (size + sheet.gap)))
        gw = per * size + (per - 1) * sheet.gap
        x0 = bx + (cw - gw) / 2
        if block and block[0][1] != size:
            close_block()
        if block and block[0][4] != (copies[0][0].shape == "hex"):
            close_block()
        block.append((x0, size, len(copies), y, copies[0][0].shape == "hex"))
        for c, (t, copy) in enumerate(copies):
            x = x0 + c * (size + sheet.gap)
            front.items += face_items(t, numbered(t, t.front, copy), x, y, fonts)
            bxx, byy = back_position(x, y, size, size, ps)
            back.items += face_items(t, numbered(t, t.back, copy), bxx, byy, fonts)
            manifest[-2]["tokens"].append({"id": t.id, "copy": copy + 1, "shape": t.shape,
                                           "box": [round(x, 4), round(y, 4), size, size]})
            manifest[-1]["tokens"].append({"id": t.id, "copy": copy + 1, "shape": t.shape,
                                           "box": [round(bxx, 4), round(byy, 4), size, size]})
        y += size + sheet.gap
    close_block()
    return out, manifest


def all_defs(game, problems: Problems, files=None) -> dict[str, TokenDef]:
    """Every token the game's token files define, by id (for mats that show where they go)."""
    files = files if files is not None else common.board_files(game.maps_dir, problems)
    out: dict[str, TokenDef] = {}
    for path, doc in files["tokens"]:
        sheet = load(path, doc, game, problems)
        if sheet:
            for t in sheet.tokens:
                out[t.id] = t
    return out

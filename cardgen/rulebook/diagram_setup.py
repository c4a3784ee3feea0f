"""The setup diagram: the table seen from above at the start of a game, drawn from data.

``kind: setup`` in ``rules/<game>/diagrams.yaml``::

    setup:
      kind: setup
      middle:                      # what lies in the middle of the table, for everyone
        - {card: encounter, pile: true, face: down, label: "Encounter deck"}
        - {board: [297, 210], label: "The map"}           # a board, mat or map: its size in mm
        - {tokens: 10, color: armor, label: "Armor Break tokens"}
      seats:                       # each player's place; a group of alike seats per entry
        - name: Player             # "Player 1", "Player 2", … (or names: [Player A, Player B])
          count: {param: players.max}
          side: bottom             # top | bottom (default: the seats are shared out, bottom first)
          items:
            - {card: class, label: "Class card"}
            - {card: part, fan: "{{ params.hand_size }}", face: down, label: "Hand"}
            - {dice: [health, armor, dodge], label: "Health, Armor, Dodge"}

An item is one of ``card: <card type>`` (its real size; ``pile: true`` a deck, ``fan: N`` a hand of
N, ``row: N`` N cards side by side, ``face: up|down``, ``color``), ``board: [w, h]`` (mm; with
``rows: [{label, items}, …]`` bands of items lying on it, e.g. a rink's zones or a mat's areas),
``area: [w, h]`` (a place left free, dashed), ``dice: N`` or a list of colours, ``tokens: N``
(``color``); every item may have a ``label``.
Cards and boards keep their proportions at one common scale; labels print at their own size.
"""

from __future__ import annotations

from dataclasses import field

from cardgen.content.model import Game
from cardgen.core.problems import did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, YList
from cardgen.rulebook.diagram_kit import (
    BOLD,
    INK,
    ITALIC,
    MUTED,
    SANS,
    SIZE,
    SMALL,
    Reader,
    line_mm,
    widest,
    wrap,
)
from cardgen.scene import Circle, Line, Rect, Text, translate

ITEM_KEYS = ("card", "pile", "fan", "row", "face", "color", "label", "board", "rows", "area", "dice", "tokens")
KINDS = ("card", "board", "area", "dice", "tokens")
ROW_KEYS = ("label", "items")
SEAT_KEYS = ("name", "names", "count", "side", "items")
SETUP_KEYS = ("kind", "middle", "seats")
DIE_MM, TOKEN_MM = 16.0, 20.0          # a die's edge and a token's diameter on the table
TABLE, SEAT, CARD_BACK, CARD_HEAD = "#efe6d2", "#fbf8f1", "#7a6a55", "#a89a84"
LABEL_W = 26.0                          # labels wrap at this width (mm) or the picture's
GAP, PAD = 2.5, 2.0
SCALES = [x / 100 for x in range(24, 7, -1)]


@record
class Item:
    kind: str                           # card | board | area | dice | tokens
    label: str = ""
    w: float = 0.0                      # real size, mm
    h: float = 0.0
    mode: str = "single"                # single | pile | fan | row
    n: int = 1
    face: str = "up"
    color: str = INK
    colors: list[str] = field(default_factory=list)
    rows: list[tuple[str, list[Item]]] = field(default_factory=list)     # a board's bands


@record
class Seat:
    title: str
    side: str | None
    items: list[Item]


@record
class Setup:
    middle: list[Item]
    seats: list[Seat]


def read(spec: YDict, r: Reader, game: Game) -> Setup | None:
    """The setup diagram of ``spec``; None (with problems) when it is not well made."""
    r.keys(spec, SETUP_KEYS, "a setup diagram")
    middle = _items(r.items(spec, "middle", required=False), r, game)
    seats: list[Seat] = []
    groups = r.items(spec, "seats")
    for i in range(len(groups)):
        g = r.mapping(groups, i, "a seat")
        if g is None or not r.keys(g, SEAT_KEYS, "a seat"):
            continue
        side = g.get("side")
        if side is not None and side not in ("top", "bottom"):
            r.bad(g, "side", f"side '{side}': write top or bottom")
            side = None
        items = _items(r.items(g, "items"), r, game)
        if "names" in g:
            names = r.items(g, "names")
            titles = [str(r.text(names, j) or "") for j in range(len(names))] if names else []
        else:
            name = r.text(g, "name", "Player") or "Player"
            n = r.number(g, "count", 1, low=1) or 1
            titles = [name] if n == 1 else [f"{name} {k}" for k in range(1, n + 1)]
        seats += [Seat(t, side, list(items)) for t in titles]
    if not seats and not r.failed:
        r.bad(spec, "seats", "a setup diagram needs at least one seat")
    return None if r.failed else Setup(middle, seats)


def _items(seq: YList, r: Reader, game: Game) -> list[Item]:
    out: list[Item] = []
    for i in range(len(seq)):
        d = r.mapping(seq, i, "an item")
        if d is None or not r.keys(d, ITEM_KEYS, "an item"):
            continue
        kinds = [k for k in KINDS if k in d]
        if len(kinds) != 1:
            r.bad(seq, i, "an item is exactly one of card, board, area, dice or tokens" +
                  (f"; this one is {' and '.join(kinds)}" if kinds else ""))
            continue
        kind = kinds[0]
        it = Item(kind, label=r.text(d, "label", "") or "")
        if kind == "card":
            key = str(d["card"])
            ct = game.card_types.get(key)
            if ct is None:
                r.bad(d, "card", f"unknown card type '{key}'",
                      did_you_mean(key, game.card_types) or f"card types: {', '.join(game.card_types)}")
                continue
            it.w, it.h = ct.width, ct.height
            face = str(d.get("face", "up"))
            if face not in ("up", "down"):
                r.bad(d, "face", f"face '{face}': write up or down")
            it.face = face
            modes = [m for m in ("pile", "fan", "row") if m in d]
            if len(modes) > 1:
                r.bad(d, modes[1], f"a card item is one of pile, fan or row, not {' and '.join(modes)}")
            elif modes == ["pile"]:
                if d["pile"] is not True:
                    r.bad(d, "pile", "pile: true, or leave it out")
                it.mode = "pile"
            elif modes:
                it.mode, it.n = modes[0], r.number(d, modes[0], 1, low=1) or 1
            it.color = r.color(d, "color", CARD_BACK if it.face == "down" else CARD_HEAD)
        elif kind in ("board", "area"):
            size = d[kind]
            if (not isinstance(size, list) or len(size) != 2 or
                    not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in size)):
                r.bad(d, kind, f"{kind}: [width, height] in mm, both above 0")
                continue
            it.w, it.h = float(size[0]), float(size[1])
            it.color = r.color(d, "color", "#dfe8ee" if kind == "board" else MUTED)
            if "rows" in d and kind == "board":
                rows = r.items(d, "rows")
                for j in range(len(rows)):
                    band = r.mapping(rows, j, "a row of a board")
                    if band is not None and r.keys(band, ROW_KEYS, "a row of a board"):
                        it.rows.append((r.text(band, "label", "") or "",
                                        _items(r.items(band, "items", required=False), r, game)))
        for key in ("pile", "fan", "row", "face", "rows"):
            if key in d and kind != ("board" if key == "rows" else "card"):
                r.bad_key(d, key, f"'{key}' is for {'a board' if key == 'rows' else 'cards'}, not {kind}")
        if kind == "dice":
            raw = d["dice"]
            if isinstance(raw, list):
                it.colors = [r.color(raw, j, INK) for j in range(len(raw))] if isinstance(raw, YList) else []
                it.n = len(it.colors)
            else:
                it.n = r.number(d, "dice", 1, low=1) or 1
                it.colors = [r.color(d, "color", INK)] * it.n
            it.w = it.h = DIE_MM
        elif kind == "tokens":
            it.n = r.number(d, "tokens", 1, low=1) or 1
            it.color = r.color(d, "color", "#b08d57")
            it.w = it.h = TOKEN_MM
        out.append(it)
    return out


# --------------------------------------------------------------------------- drawing


@record
class Block:
    """Something drawn at (0, 0): its size and primitives."""

    w: float
    h: float
    items: list


def _card(x: float, y: float, w: float, h: float, it: Item) -> list:
    if it.face == "down":
        return [Rect(x, y, w, h, fill=it.color, stroke=INK, width=0.2, radius=0.8),
                Rect(x + 0.9, y + 0.9, w - 1.8, h - 1.8, stroke="#ffffff", width=0.2, radius=0.5)]
    return [Rect(x, y, w, h, fill="#ffffff", stroke=INK, width=0.25, radius=0.8),
            Rect(x + 0.8, y + 0.8, w - 1.6, h * 0.16, fill=it.color)]


def _picture(it: Item, s: float) -> tuple[float, float, list]:
    """An item's drawing at scale ``s``: (w, h, primitives)."""
    if it.kind == "card":
        w, h = it.w * s, it.h * s
        if it.mode == "pile":
            o = 0.7
            return w + 2 * o, h + 2 * o, [*_card(2 * o, 2 * o, w, h, it), *_card(o, o, w, h, it), *_card(0, 0, w, h, it)]
        if it.mode == "fan":
            step = max(w * 0.3, 1.8)
            return w + (it.n - 1) * step, h, [p for k in range(it.n) for p in _card(k * step, 0, w, h, it)]
        if it.mode == "row":
            step = w + 1.2
            return w + (it.n - 1) * step, h, [p for k in range(it.n) for p in _card(k * step, 0, w, h, it)]
        return w, h, _card(0, 0, w, h, it)
    if it.kind == "board":
        w, h = it.w * s, it.h * s
        return w, h, [Rect(0, 0, w, h, fill=it.color, stroke=INK, width=0.3, radius=1.0)]
    if it.kind == "area":
        w, h = it.w * s, it.h * s
        return w, h, _dashed(0, 0, w, h, it.color)
    if it.kind == "dice":
        d = max(DIE_MM * s, 3.6)
        out: list = []
        for k, col in enumerate(it.colors):
            x = k * (d + 1.0)
            out += [Rect(x, 0, d, d, fill=col, stroke=INK, width=0.2, radius=d * 0.2),
                    Circle(x + d / 2, d / 2, d * 0.11, fill="#ffffff")]
        return len(it.colors) * (d + 1.0) - 1.0, d, out
    r = max(TOKEN_MM * s, 4.0) / 2
    shown = min(it.n, 4)
    step = r * 0.9
    return 2 * r + (shown - 1) * step, 2 * r, [Circle(r + k * step, r, r, fill=it.color, stroke=INK, width=0.2)
                                                for k in range(shown)]


def _dashed(x: float, y: float, w: float, h: float, color: str) -> list:
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
    return [Line(a[0], a[1], b[0], b[1], stroke=color, width=0.3, dash=(1.2, 0.9)) for a, b in zip(corners, corners[1:])]


def _board(it: Item, s: float, max_w: float) -> Block:
    """A board with bands: its title on top, each band's label and items, the board at least its
    real size at scale ``s``."""
    inner_w = max_w - 2 * PAD
    title = wrap(it.label, BOLD, SIZE, inner_w) if it.label else []
    bands: list[tuple[list[str], Block]] = []
    for label, items in it.rows:
        lines = wrap(label, ITALIC, SMALL, inner_w) if label else []
        bands.append((lines, _flow([_block(x, s, inner_w) for x in items], inner_w, GAP, GAP)))
    w = min(max_w, max([it.w * s] + [widest(title, BOLD, SIZE) + 2 * PAD] +
                       [max(widest(lines, ITALIC, SMALL), b.w) + 2 * PAD for lines, b in bands]))
    y = PAD
    out: list = []
    for k, t in enumerate(title):
        out.append(Text(w / 2, y + line_mm(SIZE) * (k + 0.75), t, BOLD, SIZE, INK, "center"))
    y += line_mm(SIZE) * len(title) + (1.0 if title else 0.0)
    for k, (lines, b) in enumerate(bands):
        if k:
            out.append(Line(PAD / 2, y, w - PAD / 2, y, stroke=MUTED, width=0.2, dash=(1.0, 0.8)))
            y += 1.2
        for j, t in enumerate(lines):
            out.append(Text(w / 2, y + line_mm(SMALL) * (j + 0.75), t, ITALIC, SMALL, MUTED, "center"))
        y += line_mm(SMALL) * len(lines) + (0.8 if lines else 0.0)
        out += translate(b.items, (w - b.w) / 2, y)
        y += b.h + (1.2 if b.items else 0.0)
    h = max(it.h * s, y + PAD)
    return Block(w, h, [Rect(0, 0, w, h, fill=it.color, stroke=INK, width=0.3, radius=1.0),
                        *translate(out, 0, (h - y - PAD) / 2)])


def _block(it: Item, s: float, max_w: float) -> Block:
    if it.kind == "board" and it.rows:
        return _board(it, s, max_w)
    gw, gh, prims = _picture(it, s)
    lh = line_mm(SMALL)
    if it.kind in ("board", "area") and it.label:
        lines = wrap(it.label, SANS, SIZE, gw - 4)
        if widest(lines, SANS, SIZE) <= gw - 4 and len(lines) * line_mm(SIZE) <= gh - 3:
            y = (gh - len(lines) * line_mm(SIZE)) / 2 + SIZE * 0.36 * 0.8
            for k, t in enumerate(lines):
                prims.append(Text(gw / 2, y + k * line_mm(SIZE) + line_mm(SIZE) * 0.6, t, SANS, SIZE, INK, "center"))
            return Block(gw, gh, prims)
    lines = wrap(it.label, SANS, SMALL, max(gw, min(LABEL_W, max_w))) if it.label else []
    w = max(gw, widest(lines, SANS, SMALL))
    out = translate(prims, (w - gw) / 2, 0)
    for k, t in enumerate(lines):
        out.append(Text(w / 2, gh + 1.0 + lh * (k + 0.75), t, SANS, SMALL, MUTED, "center"))
    return Block(w, gh + (1.2 + lh * len(lines) if lines else 0), out)


def _flow(blocks: list[Block], max_w: float, gap: float, vgap: float) -> Block:
    """Blocks left to right, a new row when the next would pass ``max_w``; rows centred."""
    rows: list[list[Block]] = [[]]
    for b in blocks:
        row = rows[-1]
        if row and sum(x.w for x in row) + gap * len(row) + b.w > max_w:
            rows.append([b])
        else:
            row.append(b)
    widths = [sum(b.w for b in row) + gap * (len(row) - 1) for row in rows if row]
    w = max(widths, default=0.0)
    out: list = []
    y = 0.0
    for row, rw in zip([r for r in rows if r], widths):
        x = (w - rw) / 2
        rh = max(b.h for b in row)
        for b in row:
            out += translate(b.items, x, y + (rh - b.h) / 2)
            x += b.w + gap
        y += rh + vgap
    return Block(w, max(y - vgap, 0.0), out)


def _seat(seat: Seat, s: float, max_w: float) -> Block:
    inner = _flow([_block(it, s, max_w - 2 * PAD) for it in seat.items], max_w - 2 * PAD, GAP, GAP)
    title_h = line_mm(SIZE) + 0.8
    w = max(inner.w, widest([seat.title], BOLD, SIZE)) + 2 * PAD
    h = title_h + inner.h + 2 * PAD
    out: list = [Rect(0, 0, w, h, fill=SEAT, stroke=MUTED, width=0.3, radius=1.5),
                 Text(PAD, PAD + line_mm(SIZE) * 0.75, seat.title, BOLD, SIZE, INK)]
    out += translate(inner.items, (w - inner.w) / 2, PAD + title_h)
    return Block(w, h, out)


def _sides(seats: list[Seat]) -> tuple[list[Seat], list[Seat]]:
    top = [x for x in seats if x.side == "top"]
    bottom = [x for x in seats if x.side == "bottom"]
    free = [x for x in seats if x.side is None]
    n_bottom = max(0, (len(seats) + 1) // 2 - len(bottom))
    return top + free[n_bottom:][::-1], bottom + free[:n_bottom]     # numbered round the table


def _side(seats: list[Seat], s: float, inner_w: float, per_row: int) -> Block | None:
    """One side's seats, ``per_row`` to a row, each as wide as a row allows; None when a card or a
    board is wider than its seat."""
    n = min(per_row, len(seats))
    seat_w = (inner_w - 3.0 * (n - 1)) / n
    blocks = [_seat(x, s, seat_w) for x in seats]
    if any(b.w > seat_w + 1e-6 for b in blocks):
        return None
    rows = [blocks[k:k + n] for k in range(0, len(blocks), n)]
    parts = [_flow(row, inner_w, 3.0, 3.0) for row in rows]
    out: list = []
    y, w = 0.0, max(p.w for p in parts)
    for p in parts:
        out += translate(p.items, (w - p.w) / 2, y)
        y += p.h + 3.0
    return Block(w, y - 3.0, out)


def _table(setup: Setup, s: float, width: float, per_row: int) -> Block | None:
    m = 3.0
    inner_w = width - 2 * m
    top, bottom = _sides(setup.seats)
    middle = _flow([_block(it, s, inner_w) for it in setup.middle], inner_w, 4.0, 3.0) if setup.middle else None
    if middle is not None and middle.w > inner_w + 1e-6:
        return None
    parts = [_side(top, s, inner_w, per_row) if top else None, middle,
             _side(bottom, s, inner_w, per_row) if bottom else None]
    if (top and parts[0] is None) or (bottom and parts[2] is None):
        return None
    y, out = m, [Rect(0, 0, width, 0, fill=TABLE)]     # the table's height is known at the end
    for p in parts:
        if p is None or not p.items:
            continue
        out += translate(p.items, (width - p.w) / 2, y)
        y += p.h + 5.0
    h = y - 5.0 + m
    out[0] = Rect(0, 0, width, h, fill=TABLE, stroke="#c9b99a", width=0.4, radius=4.0)
    return Block(width, h, out)


def draw(setup: Setup, width: float) -> tuple[list, float, float]:
    """The diagram for ``width`` mm: as many seats side by side as fit, then the largest common
    scale of the cards and boards that keeps the table no taller than about its width."""
    top, bottom = _sides(setup.seats)
    fallback = None
    for per_row in range(max(len(top), len(bottom), 1), 0, -1):
        for s in SCALES:
            b = _table(setup, s, width, per_row)
            if b is None:
                continue
            if b.h <= width * 1.1:
                return b.items, b.w, b.h
            if fallback is None or b.h < fallback.h:
                fallback = b
    if fallback is None:        # nothing fits even at the smallest scale: one seat a row, overflowing
        fallback = _table(setup, SCALES[-1], width, 1) or Block(width, 10.0, [])
    return fallback.items, fallback.w, fallback.h


__all__ = ["Setup", "Seat", "Item", "read", "draw"]

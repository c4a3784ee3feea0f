"""Play mats (``mats:`` files): rows of card slots and token rings, one mat per player.

A mat is rows of groups; a group is ``count`` slots of one card size (slot = card plus
``slot_margin`` on every side) under one label, or a row of rings where the game's tokens go
(``tokens: [ids]`` from the game's tokens file, drawn at the token's size), or a track of
numbered boxes a marker moves along (``track: {from: 0, to: …}``; ``to`` may be a number,
``{param: …}`` or ``{cards: FIELD, type: TYPE}``, the largest value of that field among the
game's cards). A track longer than :data:`TRACK_ROW` boxes is printed as two dials, tens and
units, each with its own marker. Counts may be ``{param: …}``, or ``{collection: KIND, most:
KEY}``: sized from the game's own files (a boss mat holds as many pieces as the largest preset
boss has). Card slots may wrap (``columns``: slots per line). Mats larger than a sheet are tiled
like every board; a seam never runs through a card slot (the slot moves past it).
"""

from __future__ import annotations

from pathlib import Path

from cardgen.boards import common
from cardgen.boards.tiling import NO_SEAMS, SLOT_PAD, Board, Seams
from cardgen.content.collection_files import collection_files
from cardgen.core.fonts import METRICS
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, YList, load_yaml
from cardgen.scene import Circle, Rect, Text

GROUP_SPEC = {
    "label": Opt("str", required=True),
    "count": Opt("any", default=1, doc="slots in the group: a number, {param: …} or {collection: KIND, most: KEY} "
                 "(the longest list KEY of the game's KIND files)"),
    "card": Opt("any", default=None, doc="card size of these slots (default: the mat's): a name, or "
                "{width, height} (a pile's tab in a compact mat)"),
    "note": Opt("str", default="", doc="a line under the label"),
    "highlight": Opt("bool", default=False),
    "numbered": Opt("bool", default=True, doc="number the slots 1, 2, … when there are several"),
    "tokens": Opt("list", default=None, item=Opt("str"), doc="token ids: rings where those tokens go"),
    "columns": Opt("int", default=None, min=1, doc="token rings, or card slots, per line"),
    "track": Opt("map", default=None, doc="{from, to}: numbered boxes for a marker (Health, K.O.s …)",
                 fields={"from": Opt("any", default=0), "to": Opt("any", required=True)}),
}
MAT_SPEC = {
    "name": Opt("str", required=True),
    "card": Opt("str", required=True, doc="card size name"),
    "slot_margin": Opt("length", default=3.0),
    "gap": Opt("length", default=5.0),
    "copies": Opt("list", default=[""], item=Opt("str"), doc="one mat per entry, titled with it"),
    "color": Opt("color", default="#333333", doc="slot outlines and labels"),
    "highlight": Opt("color", default="#b3261e", doc="highlighted slots"),
    "fill": Opt("color", default="#f7f5f0", doc="mat background"),
    "rows": Opt("list", required=True, doc="rows of groups, top to bottom"),
    "compact": Opt("map", default=None, doc="the mat on fewer sheets, printed with `print: mats: compact`: "
                   "name, rows (and slot_margin, gap), in place of the full mat's", fields={
                       "name": Opt("str", default=None), "rows": Opt("list", required=True),
                       "slot_margin": Opt("length", default=None), "gap": Opt("length", default=None)}),
}
LABEL_H = 14.0            # group label and its note above the slots
TRACK_BOX = 10.0          # a track box: room for a 9 mm marker or a die
TRACK_GAP = 3.0           # between the tracks of a group of several (one per Dinosaur …)
TRACK_ROW = 16            # longer tracks become two dials, tens and units
RING_GAP = 6.0
RING_LABEL = 6.0
PAD = 4.0
SLOT_RADIUS = 3.0         # a card slot's corners (what tells a slot from the other boxes)


@record
class Group:
    label: str
    count: int
    size: tuple[float, float]
    note: str
    highlight: bool
    numbered: bool
    tokens: list | None
    columns: int | None = None
    track: tuple[int, int] | None = None


@record
class Mat:
    path: Path
    loc: Loc
    name: str
    copies: list[str]
    margin: float
    gap: float
    rows: list[list[Group]]
    color: str
    highlight: str
    fill: str


def load(path: Path, doc: YDict, game, problems: Problems, token_defs: dict | None) -> list[Mat]:
    r = common.check(doc, {"mats": Opt("list", required=True)}, problems, path.name)
    if not r.ok:
        return []
    out = []
    for i, md in enumerate(doc["mats"]):
        rr = common.mapping(md, doc["mats"].at(i), MAT_SPEC, problems, f"mat {i + 1}", game.colors)
        if not rr.ok:
            continue
        v = rr.values
        card = common.card_size(v["card"], game, problems, md.at("card"))
        rows, ok = _rows(md["rows"], md, v["name"], card, game, problems, token_defs)
        if v["compact"] is not None:      # checked always; printed instead with `print: mats: compact`
            small, raw = {k: x for k, x in v["compact"].items() if x is not None}, md["compact"]["rows"]
            crows, cok = _rows(raw, md, small.get("name", v["name"]), card, game, problems, token_defs)
            if game.print.mats == "compact":
                v, rows, ok = {**v, **small}, crows, cok
        if ok and card is not None:
            out.append(Mat(path, md.loc, v["name"], v["copies"] or [""], v["slot_margin"], v["gap"], rows,
                           v["color"], v["highlight"], v["fill"]))
    return out


def _rows(raw_rows, md, name: str, card, game, problems: Problems,
          token_defs: dict | None) -> tuple[list[list[Group]], bool]:
    """A mat's rows of groups, and whether every one of them was read."""
    rows: list[list[Group]] = []
    ok = True
    for ri, row in enumerate(raw_rows):
        if not isinstance(row, list):
            problems.error("YAML-TYPE", f"row {ri + 1} of mat '{name}' must be a list of groups",
                           raw_rows.at(ri) if isinstance(raw_rows, YList) else md.loc)
            ok = False
            continue
        groups = []
        for gi, gd in enumerate(row):
            g = _group(gd, row.at(gi) if isinstance(row, YList) else md.loc, card, game, problems, token_defs,
                       f"group {gi + 1} of row {ri + 1}")
            if g is None:
                ok = False
            else:
                groups.append(g)
        rows.append(groups)
    return rows, ok


def _group(gd, loc, card, game, problems: Problems, token_defs: dict | None, what: str) -> Group | None:
    r = common.mapping(gd, loc, GROUP_SPEC, problems, what)
    if not r.ok:
        return None
    v = r.values
    count = _count(v["count"], game, problems, gd.at("count"), what)
    if count is None:
        return None
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        problems.error("YAML-TYPE", f"count of {what} must be a whole number ≥ 1, not {count!r}", gd.at("count"))
        return None
    size = common.card_size(v["card"], game, problems, gd.at("card")) if v["card"] else card
    if size is None:
        return None
    track = None
    if v["track"] is not None:
        ends = [_track_end(v["track"][k], game, problems, gd["track"].at(k) if k in gd["track"] else gd.at("track"),
                           f"'{k}' of the track of {what}") for k in ("from", "to")]
        first, last = ends
        if first is None or last is None:
            return None
        if last <= first:
            problems.error("YAML-TYPE", f"the track of {what} must end above its start ({first}), not at {last}",
                           gd.at("track"))
            return None
        track = (first, last)
    toks = None
    if v["tokens"] is not None:
        if token_defs is None:
            return None         # the token files are broken (reported there): which tokens exist is unknown
        toks = []
        for i, tid in enumerate(v["tokens"]):
            t = token_defs.get(tid)
            if t is None:
                raw = gd["tokens"]
                problems.error("TOKEN-UNKNOWN", f"{what} names unknown token '{tid}' (the game's tokens file "
                               "defines the tokens)", raw.at(i) if isinstance(raw, YList) else gd.at("tokens"),
                               hint=did_you_mean(tid, token_defs))
                return None
            toks.append(t)
    return Group(v["label"], count, size, v["note"], v["highlight"], v["numbered"], toks, v["columns"], track)


def _count(value, game, problems: Problems, loc, what: str) -> int | None:
    """A group's count: a number, ``{param: …}``, or ``{collection: KIND, most: KEY}``: the longest
    list ``KEY`` among the game's ``KIND`` files (the most pieces of any preset boss)."""
    if not (isinstance(value, dict) and "collection" in value):
        return common.param(value, game, problems, loc)
    kind, key = value.get("collection"), value.get("most")
    if not isinstance(kind, str) or not isinstance(key, str) or set(value) != {"collection", "most"}:
        problems.error("YAML-TYPE", f"the count of {what} must be {{collection: KIND, most: KEY}} (a kind of the "
                       "game's files and the list to count), not " + repr(dict(value)), loc)
        return None
    lengths = []
    for path in collection_files(game):
        doc = load_yaml(path, Problems())
        body = doc.get(kind) if isinstance(doc, dict) else None
        if isinstance(body, dict) and isinstance(body.get(key), list):
            lengths.append(len(body[key]))
    if not lengths:
        problems.error("YAML-TYPE", f"the count of {what}: no '{kind}' file of the game has a list '{key}'", loc)
        return None
    return max(lengths)


def _track_end(value, game, problems: Problems, loc, what: str) -> int | None:
    """A track's end: a number, ``{param: …}``, or ``{cards: FIELD, type: TYPE}`` (the largest value)."""
    if isinstance(value, dict) and "cards" in value:
        if not isinstance(value["cards"], str) or not isinstance(value.get("type"), (str, type(None))):
            problems.error("YAML-TYPE", f"{what}: 'cards' names a card field and 'type' a card type, each as text",
                           loc, hint="for example {cards: hp, type: dinosaur}")
            return None
        cards = [c for c in game.cards if value.get("type") in (None, c.type)]
        vals = [c.fields.get(value["cards"]) for c in cards]
        vals = [x for x in vals if isinstance(x, int) and not isinstance(x, bool)]
        if not vals and (game.failed_ids or game.unread_files
                         or any(value.get("type") in (None, u.get("type")) for u in game.unread_cards)):
            return None         # the cards that would have it failed to load: reported there, once
        if not vals:
            problems.error("YAML-TYPE", f"{what}: no card{' of type ' + str(value.get('type')) if value.get('type') else ''}"
                           f" has a whole-number '{value['cards']}'", loc)
            return None
        return max(vals)
    v = common.param(value, game, problems, loc)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        if v is not None:
            problems.error("YAML-TYPE", f"{what} must be a whole number ≥ 0, not {v!r}", loc)
        return None
    return v


def _track_rows(g: Group) -> list[tuple[str, list[int]]]:
    """The rows of boxes of a track: one row, or the tens and the units of a long one."""
    lo, hi = g.track or (0, 0)
    if hi - lo + 1 <= TRACK_ROW:
        return [("", list(range(lo, hi + 1)))]
    return [("×10", list(range(0, hi // 10 + 1))), ("×1", list(range(10)))]


def _ring_grid(g: Group) -> tuple[int, int, float]:
    tokens = g.tokens or []
    d = max((t.size for t in tokens), default=20.0) + 4
    cols = min(g.columns or len(tokens), len(tokens)) or 1
    rows = -(-len(tokens) // cols)
    return cols, rows, d


def _slot_grid(g: Group, m: Mat) -> tuple[int, int, float, float]:
    """Slots per line, lines, and one slot's size (card plus margin) of a group of card slots."""
    per = min(g.columns or g.count, g.count)
    return per, -(-g.count // per), g.size[0] + 2 * m.margin, g.size[1] + 2 * m.margin


def _track_lead(g: Group) -> float:
    """The column before a track's boxes: its number (one track of several) and ×10 / ×1."""
    caps = any(cap for cap, _ in _track_rows(g))
    return TRACK_BOX * ((1 if caps else 0) + (1 if g.count > 1 else 0))


def _group_size(g: Group, m: Mat) -> tuple[float, float]:
    if g.track is not None:
        track_rows = _track_rows(g)
        each = len(track_rows) * (TRACK_BOX + 2)
        return (max(_track_lead(g) + max(len(b) for _, b in track_rows) * TRACK_BOX, 40.0),
                LABEL_H + g.count * each + (g.count - 1) * TRACK_GAP)
    if g.tokens is not None:
        cols, rows, d = _ring_grid(g)
        cell_w = d + RING_GAP + 8
        return max(cols * cell_w - RING_GAP, 40.0), LABEL_H + rows * (d + RING_LABEL + 2)
    per, lines, sw, sh = _slot_grid(g, m)
    return per * sw + (per - 1) * m.gap, LABEL_H + lines * sh + (lines - 1) * m.gap


@record
class Placed:
    """A group where the mat draws it: its corner, and for card slots where each column and line
    of slots starts (moved off the seams of a tiling, so no cut runs through a slot)."""

    group: Group
    x: float
    y: float
    w: float
    h: float
    cols: list[float]
    lines: list[float]


def _off(seams: tuple[float, ...], a: float, length: float) -> float:
    """The start of a span of ``length`` at ``a`` or after, with no seam through it (nor within
    the tiling's slot pad of it)."""
    clear = SLOT_PAD + 0.5
    moved = True
    while moved:
        moved = False
        for s in seams:
            if a - clear < s < a + length + clear:
                a, moved = s + clear, True
    return a


def _fits(seams: tuple[float, ...], length: float) -> bool:
    """True when a span of ``length`` fits between every two neighbouring seams (so :func:`_off` ends)."""
    gaps = [b - a for a, b in zip(sorted(seams), sorted(seams)[1:])]
    return all(length + 2 * (SLOT_PAD + 0.5) < gp for gp in gaps)


def _place_row(row: list[Group], m: Mat, x: float, y: float, seams: Seams) -> list[Placed]:
    out = []
    for g in row:
        gw, gh = _group_size(g, m)
        if g.track is not None or g.tokens is not None:     # rings and tracks step past a seam like slots
            x = _off(seams.xs, x, gw) if _fits(seams.xs, gw) else x
            gy = _off(seams.ys, y, gh) if _fits(seams.ys, gh) else y         # with its label
            out.append(Placed(g, x, gy, gw, gh + gy - y, [], []))
            x += gw + 3 * m.gap
            continue
        per, lines, sw, sh = _slot_grid(g, m)
        cols, cx = [], x
        for _ in range(per):
            cx = _off(seams.xs, cx, sw)
            cols.append(cx)
            cx += sw + m.gap
        ys, ly = [], y + LABEL_H
        for _ in range(lines):
            ly = _off(seams.ys, ly, sh)
            ys.append(ly)
            ly += sh + m.gap
        w, h = cols[-1] + sw - x, ys[-1] + sh - y
        out.append(Placed(g, x, y, w, h, cols, ys))
        x += w + 3 * m.gap
    return out


def scene(m: Mat, copy: str, game, fonts: dict[str, str], seams: Seams | None = None) -> Board:
    """One mat as a drawing. With ``seams`` (where a tiling cuts it) every label slides within its
    slot or group off the cut lines, and card slots move past a cut line rather than straddle it;
    the board's ``relayout`` draws it again for other seams."""
    seams = seams or NO_SEAMS
    gap = m.gap
    widths = []
    for row in m.rows:
        sizes = [_group_size(g, m) for g in row]
        widths.append(sum(s[0] for s in sizes) + 3 * gap * (len(sizes) - 1))
    inner = max(widths, default=100)
    title = f"{game.title} — {m.name}" + (f" · {copy}" if copy else "")
    placed: list[Placed] = []
    y = 17.0
    for row, rw in zip(m.rows, widths):
        got = _place_row(row, m, PAD if seams.xs else PAD + (inner - rw) / 2, y, seams)
        placed += got
        y += max((p.h for p in got), default=0) + gap
    W = max([PAD + inner] + [p.x + p.w for p in placed]) + PAD
    H = y + PAD - gap
    items: list = [seams.nudge(Text(PAD, 11, title, fonts["bold"], 14, m.color), PAD, W - PAD)]
    for p in placed:
        items += _draw_group(p, m, fonts, seams)
    bg = [Rect(0, 0, W, H, m.fill, None, 0), Rect(1.5, 1.5, W - 3, H - 3, None, m.color, 0.6, 4.0)]
    board = Board(title, W, H, bg + items)
    board.avoid = [(r.x, r.y, r.x + r.w, r.y + r.h) for r in items if isinstance(r, Rect) and r.fill == "#ffffff"]
    board.slots = [(r.x, r.y, r.x + r.w, r.y + r.h) for r in items if isinstance(r, Rect) and r.radius == SLOT_RADIUS]
    # a token's ring and a track's row of boxes are kept whole too (no seam cuts a status ring)
    board.slots += [(c.cx - c.r, c.cy - c.r, c.cx + c.r, c.cy + c.r) for c in items
                    if isinstance(c, Circle) and c.fill == "#ffffff"]
    board.slots += _track_spans(placed)
    board.relayout = lambda s: scene(m, copy, game, fonts, s)
    return board


def _track_spans(placed: list[Placed]) -> list[tuple[float, float, float, float]]:
    """The box of every row of every track (its boxes, end to end)."""
    out = []
    for p in placed:
        g = p.group
        if g.track is None:
            continue
        rows = _track_rows(g)
        each = len(rows) * (TRACK_BOX + 2) + TRACK_GAP
        for t in range(g.count):
            for r, (_cap, boxes) in enumerate(rows):
                by = p.y + LABEL_H + t * each + r * (TRACK_BOX + 2)
                out.append((p.x + _track_lead(g), by, p.x + _track_lead(g) + len(boxes) * TRACK_BOX, by + TRACK_BOX))
    return out


def _draw_group(p: Placed, m: Mat, fonts, seams: Seams) -> list:
    g, x, y = p.group, p.x, p.y
    col = m.highlight if g.highlight else m.color
    gw = p.w
    out: list = [seams.nudge(Text(x, y + 5, g.label, fonts["bold"], 11, col), x, x + gw)]
    if g.note:
        out.append(seams.nudge(Text(x, y + 10, g.note, fonts["italic"], _fit(g.note, fonts["italic"], 7.5, gw),
                                    "#555555"), x, x + gw))
    y0 = y + LABEL_H
    if g.track is not None:
        rows = _track_rows(g)
        lead = _track_lead(g)
        each = len(rows) * (TRACK_BOX + 2) + TRACK_GAP
        for t in range(g.count):
            if g.count > 1:
                out.append(Text(x + TRACK_BOX / 2, y0 + t * each + TRACK_BOX / 2 + 1.8, str(t + 1), fonts["bold"], 11,
                                col, "center"))
            for r, (cap, boxes) in enumerate(rows):
                by = y0 + t * each + r * (TRACK_BOX + 2)
                if cap:
                    out.append(Text(x + lead - TRACK_BOX / 2, by + TRACK_BOX / 2 + 1.4, cap, fonts["bold"], 8, col,
                                    "center"))
                for k, n in enumerate(boxes):
                    bx = x + lead + k * TRACK_BOX
                    out.append(Rect(bx, by, TRACK_BOX, TRACK_BOX, "#ffffff", col, 0.8 if g.highlight else 0.4, 1.0))
                    out.append(Text(bx + TRACK_BOX / 2, by + TRACK_BOX / 2 + 1.4, str(n), fonts["bold"], 9,
                                    "#7a7a7a", "center"))
        return out
    if g.tokens is not None:
        cols, _rows, d = _ring_grid(g)
        cell_w = d + RING_GAP + 8
        for i, t in enumerate(g.tokens):
            r, c = divmod(i, cols)
            cx = x + c * cell_w + cell_w / 2 - RING_GAP / 2
            cy = y0 + r * (d + RING_LABEL + 2) + d / 2
            out.append(Circle(cx, cy, d / 2, "#ffffff", t.front.ink, 0.8))
            out.append(Circle(cx, cy, t.size / 2, None, "#cccccc", 0.2))
            out.append(seams.nudge(Text(cx, cy + d / 2 + 3.8, t.name, fonts["bold"],
                                        _fit(t.name, fonts["bold"], 7, cell_w - 2), col, "center"),
                                   cx - cell_w / 2, cx + cell_w / 2))
        return out
    per, _lines, sw, sh = _slot_grid(g, m)
    for k in range(g.count):
        line, c = divmod(k, per)
        sx, sy = p.cols[c], p.lines[line]
        out.append(Rect(sx, sy, sw, sh, "#ffffff", col, 1.0 if g.highlight else 0.5, SLOT_RADIUS))
        # the card's own outline inside the slot
        out.append(Rect(sx + m.margin, sy + m.margin, g.size[0], g.size[1], None, "#c8c8c8", 0.2, 2.0))
        label = g.label + (f" {k + 1}" if g.count > 1 and g.numbered else "")
        size = _fit(label, fonts["bold"], 10, sw - 8)
        out.append(seams.nudge(Text(sx + sw / 2, sy + sh / 2 + 1.5, label, fonts["bold"], size,
                                    "#9a9a9a" if not g.highlight else col, "center"), sx + 2, sx + sw - 2))
    return out


def _fit(text: str, font: str, size: float, width: float) -> float:
    while size > 5 and METRICS.width_mm(text, font, size) > width:
        size -= 0.25
    return size

"""A board of zones in a row with card slots, end targets, tracks and a table panel (``board:``
files): a playing field for two sides facing each other.

The board file names everything, words included: the card size its slots hold, the two sides,
the zones from left to right (which side's home zone each is, which holds a side's end — its
target and its keeper's slot — and which the centre spot), the labels printed on slots, ends
and the centre spot, the tracks (``from``/``to``, per side or shared, marked steps) and a table
panel whose entries are read from cards of a given type or, when the game has none, from a
parameter. Rules numbers are ``{param: …}`` references to the game's params.yaml, so the board
follows the rules. Nothing here names a game: the game's words live in its board file.
"""

from __future__ import annotations

import math
from dataclasses import field
from pathlib import Path

from cardgen.boards import common
from cardgen.boards.dietable import load_table, table_panel, whole_number
from cardgen.boards.tiling import NO_SEAMS, Board, Seams, text_box
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict
from cardgen.scene import Circle, Line, Polygon, Rect, Rotate, Text

TRACK_SPEC = {
    "label": Opt("str", required=True),
    "from": Opt("any", required=True), "to": Opt("any", required=True),
    "per_side": Opt("bool", default=False, doc="one track for each side"),
    "start": Opt("any", default=None, doc="the step where the markers start"),
    "marks": Opt("any", default=None, doc="steps marked specially"),
    "mark_label": Opt("str", default="", doc="what a marked step means"),
}
ZONE_SPEC = {
    "name": Opt("str", required=True),
    "side": Opt("int", default=None, min=0, max=1, doc="whose home zone (0 left, 1 right)"),
    "also": Opt("str", default="", doc="a second name, e.g. what the zone is to the other side"),
    "end": Opt("bool", default=False, doc="the side's end stands in this zone: its target and its keeper's slot"),
    "centre": Opt("bool", default=False, doc="the centre spot (and the centre line) stand in this zone"),
}
SIDE_SLOT_SPEC = {
    "label": Opt("str", required=True, doc="printed after the side's name"),
    "card": Opt("bool", default=False, doc="a card slot (the board's card size); else a box for a marker"),
    "note": Opt("str", default="", doc="a line under the label"),
}
BOARD_SPEC = {
    "name": Opt("str", required=True),
    "card": Opt("str", required=True, doc="card size name the slots hold"),
    "slot_margin": Opt("length", default=3.0, doc="free paper round a card in its slot"),
    "gap": Opt("length", default=4.0, doc="between slots"),
    "slots_per_side": Opt("any", required=True, doc="card slots per side in each zone"),
    "keeper_label": Opt("str", default="", doc="after the side's name on the keeper's slot at its end"),
    "slot_label": Opt("str", default="", doc="after the side's name on every other slot"),
    "end_label": Opt("str", default="", doc="printed under each end's target"),
    "centre_labels": Opt("list", default=[], item=Opt("str"), doc="printed left and right of the centre spot"),
    "sides": Opt("list", required=True, doc="two sides: {name, color}"),
    "zones": Opt("list", required=True),
    "tracks": Opt("list", default=[]),
    "side_slots": Opt("list", default=[], doc="each side's own places beside the field: a card slot or a "
                      "marker box ({label, card, note})"),
    "track_box": Opt("length", default=16.0, min=5, doc="a track step's box: fits a track marker"),
    "table": Opt("map", default=None),
    "colors": Opt("map", default={}, doc="surface, border, line, blue_line, ink, panel"),
}
@record
class Track:
    label: str
    lo: int
    hi: int
    per_side: bool
    start: int | None
    marks: list[int]
    mark_label: str


@record
class ZoneBoard:
    path: Path
    loc: Loc
    name: str
    card: tuple[float, float]
    margin: float
    gap: float
    slots: int
    keeper_label: str
    slot_label: str
    end_label: str
    centre_labels: list[str]
    sides: list[tuple[str, str]]
    zones: list[dict]
    tracks: list[Track]
    box: float
    table: dict | None
    colors: dict[str, str] = field(default_factory=dict)
    side_slots: list[dict] = field(default_factory=list)


def load(path: Path, doc: YDict, game, problems: Problems) -> ZoneBoard | None:
    found = common.section(doc, "board", BOARD_SPEC, problems, path.name)
    if found is None:
        return None
    v, bd = found
    ok = True
    card = common.card_size(v["card"], game, problems, bd.at("card"))
    slots = whole_number(v["slots_per_side"], game, problems, bd.at("slots_per_side"), "slots_per_side")
    if slots is not None and slots < 1:
        problems.error("YAML-RANGE", f"slots_per_side is {slots}, below its minimum 1", bd.at("slots_per_side"))
        slots = None
    sides = []
    for i, raw in enumerate(bd["sides"]):
        rr = common.mapping(raw, bd["sides"].at(i), {"name": Opt("str", required=True),
                                                     "color": Opt("color", required=True)},
                            problems, f"side {i + 1}", game.colors)
        if rr.ok:
            sides.append((rr.values["name"], rr.values["color"]))
        else:
            ok = False
    if len(v["sides"]) != 2:
        problems.error("YAML-TYPE", f"a board has 2 sides, not {len(v['sides'])}", bd.at("sides"))
        ok = False
    zones = []
    for i, zd in enumerate(bd.get("zones") or []):
        rr = common.mapping(zd, bd["zones"].at(i), ZONE_SPEC, problems, f"zone {i + 1}")
        if rr.ok:
            zones.append(rr.values)
        else:
            ok = False
    tracks = []
    for i, td in enumerate(bd.get("tracks") or []):
        rr = common.mapping(td, bd["tracks"].at(i), TRACK_SPEC, problems, f"track {i + 1}")
        if not rr.ok:
            ok = False
            continue
        tv = rr.values
        lo = whole_number(tv["from"], game, problems, td.at("from"), f"'from' of track '{tv['label']}'")
        hi = whole_number(tv["to"], game, problems, td.at("to"), f"'to' of track '{tv['label']}'")
        start = whole_number(tv["start"], game, problems, td.at("start"), "start") if tv["start"] is not None else None
        marks = common.param(tv["marks"], game, problems, td.at("marks")) if tv["marks"] is not None else []
        if lo is None or hi is None or (tv["start"] is not None and start is None) or marks is None:
            ok = False
            continue
        if not isinstance(marks, list) or not all(isinstance(m, int) for m in marks):
            problems.error("YAML-TYPE", f"marks of track '{tv['label']}' must be a list of steps", td.at("marks"))
            ok = False
            continue
        if hi < lo:
            problems.error("YAML-RANGE", f"track '{tv['label']}' runs from {lo} to {hi}", td.at("to"))
            ok = False
            continue
        bad = [m for m in marks + ([start] if start is not None else []) if not lo <= m <= hi]
        if bad:
            problems.error("YAML-RANGE", f"track '{tv['label']}' ({lo}–{hi}) has no step {bad[0]}",
                           td.at("marks") if bad[0] in marks else td.at("start"))
            ok = False
            continue
        tracks.append(Track(tv["label"], lo, hi, tv["per_side"], start, list(marks), tv["mark_label"]))
    side_slots = []
    for i, sd in enumerate(bd.get("side_slots") or []):
        rr = common.mapping(sd, bd["side_slots"].at(i), SIDE_SLOT_SPEC, problems, f"side slot {i + 1}")
        if rr.ok:
            side_slots.append(rr.values)
        else:
            ok = False
    table = None
    if v["table"] is not None:
        table = load_table(bd["table"], game, problems)
        ok = ok and table is not None
    cols = {}
    for k, c in (v["colors"] or {}).items():
        col = common.color(c, game, problems, bd["colors"].at(k), f"colour '{k}'")
        if col:
            cols[k] = col
    if not ok or card is None or slots is None:
        return None
    return ZoneBoard(path, bd.loc, v["name"], card, v["slot_margin"], v["gap"], slots, v["keeper_label"],
                     v["slot_label"], v["end_label"], list(v["centre_labels"]), sides, zones, tracks,
                     v["track_box"], table, cols, side_slots)




# --------------------------------------------------------------------------- drawing

PAD = 6.0


FACING = (90.0, -90.0)           # each side's words turned to read from its own end (side 0 at the left)


def _slot(x: float, y: float, w: float, h: float, label: str, color: str, fonts, seams: Seams,
          fill="#ffffff", side: int | None = None) -> list:
    """A card slot with its label: along the slot, read from the side's own end, for a side's slot."""
    text = Text(x + w / 2, y + h / 2 + 1.5, label, fonts["bold"], 9, color, "center")
    if side is None:
        return [Rect(x, y, w, h, fill, color, 0.5, 2.0), seams.nudge(text, x + 2, x + w - 2)]
    return [Rect(x, y, w, h, fill, color, 0.5, 2.0), facing(text, side)]


def facing(t: Text, side: int) -> Rotate:
    """Text ``t`` turned about its middle to read from side ``side``'s end of the board."""
    x0, y0, x1, y1 = text_box(t)
    return Rotate((x0 + x1) / 2, (y0 + y1) / 2, FACING[side], (t,))


def scene(m: ZoneBoard, fonts: dict[str, str], seams: Seams | None = None) -> Board:
    """The board as one drawing. With ``seams`` (where a tiling cuts it) every word keeps off the
    cut lines: labels slide within their slot or zone, the table's columns fill the stretches
    between seams; the board's ``relayout`` draws it again for other seams."""
    seams = seams or NO_SEAMS
    ink = m.colors.get("ink", "#10243a")
    surface = m.colors.get("surface", "#f3f9fd")
    border = m.colors.get("border", "#1b3a5c")
    red = m.colors.get("line", "#c8343c")
    blue = m.colors.get("blue_line", "#2f6db5")
    panel = m.colors.get("panel", "#d6eaf6")
    cw, ch = m.card
    sw, sh = cw + 2 * m.margin, ch + 2 * m.margin
    g = m.gap
    n = m.slots
    label_h = 12.0
    row_w = n * sw + (n - 1) * g
    lane = 16.0                      # between the two rows: the centre spot and the target's mouth
    zone_h = label_h + 2 * sh + lane + 8
    net_w = 10.0
    pocket_w = net_w + 3 + sw + g + 2
    widths = [row_w + 2 * PAD + (pocket_w if z["end"] else 0) for z in m.zones]
    field_w = sum(widths)
    x0, y0 = PAD, PAD                # the title goes under the field: the field fits one sheet's height
    items: list = []
    # the field: a surface with rounded ends, a border around
    items.append(Rect(x0, y0, field_w, zone_h, surface, border, 1.6, 30.0))
    x = x0
    side_name = [s[0] for s in m.sides]
    side_col = [s[1] for s in m.sides]
    mid_y = y0 + label_h + 2 + sh + lane / 2
    for zi, (z, zw) in enumerate(zip(m.zones, widths)):
        end_left = z["end"] and z["side"] == 0
        inner_x = x + PAD + (pocket_w if end_left else 0)
        title = (f"{side_name[z['side']]} · " if z["side"] is not None else "") + z["name"]
        cx = inner_x + row_w / 2
        items.append(seams.nudge(Text(cx, y0 + 7.5, title, fonts["bold"], 12, side_col[z["side"]]
                                      if z["side"] is not None else ink, "center"), x + 2, x + zw - 2))
        if z["also"]:
            items.append(seams.nudge(Text(cx, y0 + 11.5, z["also"], fonts["italic"], 7.5, ink, "center"),
                                     x + 2, x + zw - 2))
        if z["end"]:
            side = z["side"]
            if end_left:
                net_x = x + PAD
                gl = net_x + net_w
                gx = gl + 3
            else:
                gx = inner_x + row_w + g + 2
                gl = gx + sw + 3
                net_x = gl
            gy = mid_y - sh / 2
            items.append(Line(gl, y0 + 8, gl, y0 + zone_h - 8, red, 0.8))
            items += _pocket(gl, mid_y, sw + 7, sh / 2 + 6, end_left, red)
            items.append(Rect(net_x, mid_y - 22, net_w, 44, "#ffffff", red, 0.8))
            for k in range(1, 6):
                yy = mid_y - 22 + k * 44 / 6
                items.append(Line(net_x, yy, net_x + net_w, yy, red, 0.2))
            items.append(Line(net_x + net_w / 2, mid_y - 22, net_x + net_w / 2, mid_y + 22, red, 0.2))
            if m.end_label:
                items.append(facing(Text(net_x + net_w / 2, mid_y + 27, m.end_label, fonts["bold"], 6, red,
                                         "center"), side))
            items += _slot(gx, gy, sw, sh, _label(side_name[side], m.keeper_label), side_col[side], fonts, seams,
                           side=side)
        fx = inner_x + row_w / 2
        if z["centre"]:    # the centre line first: the slots (and the cards on them) cover it
            items.append(Line(fx, y0 + label_h + 1, fx, y0 + zone_h - 1, red, 1.2))
        # card slots: side 0 on the top row, side 1 below
        for row in range(2):
            sy = y0 + label_h + row * (sh + lane) + 2
            for k in range(n):
                sx = inner_x + k * (sw + g)
                items += _slot(sx, sy, sw, sh, _label(side_name[row], m.slot_label), side_col[row], fonts, seams,
                               side=row)
        if z["centre"]:
            left, right = (m.centre_labels + ["", ""])[:2]
            items += [Circle(fx, mid_y, 7.0, "#ffffff", red, 0.8), Circle(fx, mid_y, 2.5, red, None, 0)]
            if left:
                items.append(seams.nudge(Text(fx - 9, mid_y + 1.2, left, fonts["bold"], 6, red, "right"),
                                         inner_x, fx - 8))
            if right:
                items.append(seams.nudge(Text(fx + 9, mid_y + 1.2, right, fonts["bold"], 6, red, "left"),
                                         fx + 8, inner_x + row_w))
        x += zw
        if zi < len(m.zones) - 1:
            items.append(Rect(x - 1.5, y0 + 1, 3.0, zone_h - 2, blue, None, 0))
    y = y0 + zone_h + 14
    title_y = y - 1                  # the board's name and slot size, between the field and the tracks
    y += 4
    # tracks
    box = m.box
    track_rows: list[tuple[str, Track, str, int | None]] = []
    for t in m.tracks:
        if t.per_side:
            for s in range(2):
                track_rows.append((f"{side_name[s]} {t.label}", t, side_col[s], s))
        else:
            track_rows.append((t.label, t, ink, None))
    label_w = 0.0                    # track names stand above their boxes
    tx0 = x0
    cursor_x, cursor_y, row_h = tx0, y, box + 13
    placed: list = []
    for lbl, t, col, side in track_rows:
        steps = t.hi - t.lo + 1
        w = label_w + steps * box
        if cursor_x > tx0 and cursor_x + w > x0 + field_w:
            cursor_x, cursor_y = tx0, cursor_y + row_h
        placed.append((cursor_x, cursor_y, lbl, t, col, side))
        cursor_x += w + 10
    for px, py, lbl, t, col, side in placed:
        items += _track(px, py + 4.5, label_w, box, lbl, t, col, fonts, ink, seams, side)
    y = cursor_y + row_h + 2 if placed else y
    if m.side_slots:
        items_, y = _side_slots(m, x0, y, field_w, sw, sh, side_name, side_col, fonts, ink, seams)
        items += items_
    if m.table:
        ph, panel_items = table_panel(m.table, x0, y, field_w, fonts, ink, panel, seams)
        items += panel_items
        y += ph
    W = field_w + 2 * PAD
    H = y + PAD
    head = [Rect(0, 0, W, H, "#ffffff", None, 0),
            seams.nudge(Text(PAD, title_y, m.name, fonts["bold"], 16, ink), 0, W),
            seams.nudge(Text(W - PAD, title_y, f"slots hold {cw:g} × {ch:g} mm cards", fonts["regular"], 8, ink,
                             "right"), W / 2, W - PAD)]
    board = Board(m.name, W, H, head + items)
    board.avoid = [(r.x, r.y, r.x + r.w, r.y + r.h) for r in items if isinstance(r, Rect) and r.radius == 2.0]
    board.slots = list(board.avoid)          # card slots and the Exhausted boxes: never cut
    board.relayout = lambda s: scene(m, fonts, s)
    return board


def _label(side: str, label: str) -> str:
    return f"{side} {label}" if label else side


def _pocket(gl: float, cy: float, rx: float, ry: float, left: bool, red: str) -> list:
    """A half-ellipse in front of the end line at x = ``gl``, holding the keeper's slot."""
    pts = []
    for k in range(33):
        a = -math.pi / 2 + math.pi * k / 32
        dx = math.cos(a) * rx
        pts.append((gl + dx if left else gl - dx, cy + math.sin(a) * ry))
    return [Polygon(tuple(pts), "#dbeefa", red, 0.6)]


def _track(x: float, y: float, label_w: float, box: float, label: str, t: Track, col: str, fonts, ink,
           seams: Seams, side: int | None = None) -> list:
    """A track: its name above, a numbered box per step (a side's numbers read from its own end)."""
    steps = t.hi - t.lo + 1
    out: list = [seams.nudge(Text(x, y - 1.5, label, fonts["bold"], 9, col), x, x + label_w + steps * box)]
    for i, v in enumerate(range(t.lo, t.hi + 1)):
        bx = x + label_w + i * box
        marked = v in t.marks
        start = v == t.start
        out.append(Rect(bx, y, box, box, "#fde7e7" if marked else "#ffffff", col, 0.4))
        num = Text(bx + box / 2, y + box / 2 + 1.8, str(v), fonts["bold" if marked or start else "regular"],
                   10 if marked else 9, ink, "center")
        out.append(seams.nudge(num, bx + 0.5, bx + box - 0.5) if side is None else facing(num, side))
        if marked and t.mark_label:
            out.append(seams.nudge(Text(bx + box / 2, y + box + 3.6, t.mark_label.upper(), fonts["bold"], 6.5,
                                        "#b3261e", "center"), bx - 2, bx + box + 2))
        if start:
            out.append(seams.nudge(Text(bx + box / 2, y + box + 3.6, "START", fonts["bold"], 6.5, col, "center"),
                                   bx - 2, bx + box + 2))
    return out


def _side_slots(m: ZoneBoard, x0: float, y: float, field_w: float, sw: float, sh: float, names: list[str],
                cols: list[str], fonts, ink: str, seams: Seams) -> tuple[list, float]:
    """Each side's own places in one row: side 0 from the left edge, side 1 ending at the right."""
    out: list = []
    gap = 8.0
    sizes = [(sw, sh) if ss["card"] else (max(2.4 * m.box, 40.0), 1.6 * m.box) for ss in m.side_slots]
    group_w = sum(w for w, _ in sizes) + gap * (len(sizes) - 1)
    row_h = max(h for _, h in sizes) + 10
    for side in range(2):
        x = x0 if side == 0 else x0 + field_w - group_w
        for ss, (w, h) in zip(m.side_slots, sizes):
            col = cols[side]
            label = _label(names[side], ss["label"])
            out.append(seams.nudge(Text(x, y + 4, label, fonts["bold"], 9, col), x, x + w))
            if ss["note"]:
                out.append(seams.nudge(Text(x, y + 8, ss["note"], fonts["italic"], 6.5, ink), x, x + w + gap))
            if ss["card"]:
                out += _slot(x, y + 10, w, h, label, col, fonts, seams, side=side)
            else:
                out.append(Rect(x, y + 10, w, h, "#ffffff", col, 0.8, 2.0))
            x += w + gap
    return out, y + row_h + 6


def slot_boxes(m: ZoneBoard) -> tuple[float, float]:
    """The slot size (card plus margin on each side)."""
    return m.card[0] + 2 * m.margin, m.card[1] + 2 * m.margin

"""The flow diagram: steps of play in boxes, joined by arrows, drawn from data.

``kind: flow`` in ``rules/<game>/diagrams.yaml``::

    round:
      kind: flow
      steps:
        - {id: start, shape: start, text: "Set up", note: "Example: three players …"}
        - {id: turn, text: "The next player takes a turn"}
        - {id: won, shape: ask, text: "All enemies defeated?", yes: loot}    # no: the next step
        - {id: lost, shape: end, text: "The party loses", beside: true}
        - {id: loot, text: "Claim the loot", then: start}

Steps stand in one column, in list order. A step goes on to the next step of the column unless
``then`` names another; a question (``shape: ask``) goes to ``yes`` and ``no`` (either one left
out: the next step); an ``end`` goes nowhere. A step with ``beside: true`` stands to the right of
the step before it, which must lead to it. Arrows to any other step run down the left side.
``note`` prints beside a step, in italics (the running example). Shapes: step, start, ask, end.
"""

from __future__ import annotations

from dataclasses import field

from cardgen.core.problems import did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict
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
    width_mm,
    wrap,
)
from cardgen.scene import Line, Polygon, Rect, Text

STEP_KEYS = ("id", "text", "shape", "note", "then", "yes", "no", "beside")
SHAPES = ("step", "start", "ask", "end")
FILL = {"step": "#ffffff", "start": "#e3ecf5", "ask": "#fbf1d9", "end": "#e3ecf5"}
PAD, VGAP, LANE, POINT, SHIFT = 1.5, 4.6, 3.0, 3.0, 1.5
FIRST_LANE = 5.5          # room for a yes or no between the boxes and the first lane


@record
class Step:
    id: str
    text: str
    shape: str = "step"
    note: str = ""
    beside: bool = False
    out: list[tuple[str, str, YDict, str]] = field(default_factory=list)   # (label, target, node, key)


def read(spec: YDict, r: Reader) -> list[Step] | None:
    """The steps of a flow diagram; None (with problems) when it is not well made."""
    r.keys(spec, ("kind", "steps"), "a flow diagram")
    seq = r.items(spec, "steps")
    steps: list[Step] = []
    nodes: list[YDict] = []
    seen: dict[str, int] = {}
    for i in range(len(seq)):
        d = r.mapping(seq, i, "a step")
        if d is not None:
            _yes_no(d)
        if d is None or not r.keys(d, STEP_KEYS, "a step"):
            continue
        sid = str(d.get("id") or "")
        if not sid:
            r.bad(seq, i, "a step needs an id (for the arrows; it is not printed)")
            continue
        if sid in seen:
            r.bad(d, "id", f"step id '{sid}' is used twice")
            continue
        seen[sid] = i
        shape = str(d.get("shape", "step"))
        if shape not in SHAPES:
            r.bad(d, "shape", f"unknown shape '{shape}'", f"shapes: {', '.join(SHAPES)}")
            shape = "step"
        text = r.text(d, "text")
        if not text:
            r.bad(d, "text" if "text" in d else "id", f"step '{sid}' has no text")
        beside = d.get("beside", False)
        if not isinstance(beside, bool):
            r.bad(d, "beside", "beside: true, or leave it out")
            beside = False
        steps.append(Step(sid, text or "", shape, r.text(d, "note", "") or "", beside))
        nodes.append(d)
    if r.failed:
        return None
    column = [s for s in steps if not s.beside]
    after = {s.id: (column[k + 1].id if k + 1 < len(column) else None) for k, s in enumerate(column)}
    for s, d in zip(steps, nodes):
        if s.beside or s.shape == "end":
            for key in ("then", "yes", "no"):
                if key in d:
                    r.bad_key(d, key, f"'{key}': {'a step beside another' if s.beside else 'an end'} leads nowhere")
            continue
        keys = ("yes", "no") if s.shape == "ask" else ("then",)
        for key in ("then", "yes", "no"):
            if key in d and key not in keys:
                r.bad_key(d, key, f"'{key}' is for {'a question' if key != 'then' else 'a step that is no question'}",
                          "a question (shape: ask) has yes and no; other steps have then")
        for key in keys:
            target = str(d[key]) if key in d else after[s.id]
            if target is None:
                r.bad(d, "id", f"step '{s.id}' is the last of the column: give it '{key}' or make it an end")
            elif target not in seen:
                r.bad(d, key, f"no step '{target}'", did_you_mean(target, seen))
            else:
                s.out.append(("" if key == "then" else key, target, d, key))
    for k, (s, d) in enumerate(zip(steps, nodes)):
        if s.beside:
            prev = next((p for p in reversed(steps[:k]) if not p.beside), None)
            if prev is None or not any(t == s.id for _, t, _, _ in prev.out):
                r.bad(d, "beside", f"step '{s.id}' stands beside the step before it, which must lead to it")
    for s in steps:
        for _, t, d, key in s.out:
            dest = steps[[x.id for x in steps].index(t)]
            if dest.beside and not any(t == b.id for b in _beside_of(steps, s)):
                r.bad(d, key, f"step '{t}' stands beside another step; only that step may lead to it")
    return None if r.failed else steps


def _yes_no(d: YDict) -> None:
    """YAML reads the keys ``yes`` and ``no`` as true and false: give them back their names."""
    for flag, name in ((True, "yes"), (False, "no")):
        if flag in d and name not in d:
            d[name] = d.pop(flag)
            for locs in (d.key_locs, d.val_locs):
                if flag in locs:
                    locs[name] = locs.pop(flag)


def _beside_of(steps: list[Step], s: Step) -> list[Step]:
    k = steps.index(s)
    out = []
    for x in steps[k + 1:]:
        if not x.beside:
            break
        out.append(x)
    return out


# --------------------------------------------------------------------------- drawing


def _box(s: Step, x: float, y: float, w: float, lines: list[str], h: float) -> list:
    font = BOLD if s.shape in ("start", "end") else SANS
    fill = FILL[s.shape]
    if s.shape == "ask":
        p = POINT
        out: list = [Polygon(((x, y + h / 2), (x + p, y), (x + w - p, y), (x + w, y + h / 2), (x + w - p, y + h),
                              (x + p, y + h)), fill=fill, stroke=INK, width=0.3)]
    else:
        out = [Rect(x, y, w, h, fill=fill, stroke=INK, width=0.3, radius=h / 2 if s.shape != "step" else 1.0)]
    lh = line_mm(SIZE)
    top = y + (h - lh * len(lines)) / 2
    for k, t in enumerate(lines):
        out.append(Text(x + w / 2, top + lh * (k + 0.75), t, font, SIZE, INK, "center"))
    return out


def _arrow(points: list[tuple[float, float]]) -> list:
    out: list = [Line(a[0], a[1], b[0], b[1], stroke=INK, width=0.3) for a, b in zip(points, points[1:])]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    dx, dy = x1 - x0, y1 - y0
    n = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / n, dy / n
    a, b = 1.8, 0.9
    out.append(Polygon(((x1, y1), (x1 - a * ux - b * uy, y1 - a * uy + b * ux),
                        (x1 - a * ux + b * uy, y1 - a * uy - b * ux)), fill=INK))
    return out


def _label(x: float, y: float, text: str, align: str = "left") -> list:
    return [Text(x, y, text, ITALIC, SMALL, MUTED, align)] if text else []


def draw(steps: list[Step], width: float) -> tuple[list, float, float]:
    """The flow diagram laid out for ``width`` mm: of a few widths of its boxes, the lowest."""
    return min((_draw(steps, width, share) for share in (0.46, 0.52, 0.58, 0.64)), key=lambda d: d[2])


def _draw(steps: list[Step], width: float, share: float) -> tuple[list, float, float]:
    column = [s for s in steps if not s.beside]
    row_of = {s.id: k for k, s in enumerate(column)}
    beside: dict[int, list[Step]] = {}
    for s in steps:
        if s.beside:
            k = max(row_of[p.id] for p in column if steps.index(p) < steps.index(s))
            beside.setdefault(k, []).append(s)
            row_of[s.id] = k
    col_ids = {c.id for c in column}

    def near(s: Step, t: str) -> str:
        """How an arrow from ``s`` to ``t`` runs: down (to the next step), side (beside) or far."""
        if t in col_ids and row_of[t] == row_of[s.id] + 1:
            return "down"
        return "side" if any(b.id == t for b in beside.get(row_of[s.id], [])) else "far"

    far = [(s, t, label) for s in column for label, t, _, _ in s.out if near(s, t) == "far"]
    lanes_w = 2.0 + FIRST_LANE + LANE * max(1, len(far))
    cw = min(80.0, (width - lanes_w) * share)
    cx = lanes_w
    rx = cx + cw + 6.0
    rw = width - rx
    lh, nh = line_mm(SIZE), line_mm(SMALL)
    boxes: dict[str, tuple[float, float, float, float]] = {}
    out: list = []
    y = 0.0
    mids: list[float] = []
    for k, s in enumerate(column):
        inset = 2 * POINT if s.shape == "ask" else 0.0
        lines = wrap(s.text, BOLD if s.shape in ("start", "end") else SANS, SIZE, cw - 2 * PAD - inset)
        h = lh * len(lines) + 2 * PAD
        out += _box(s, cx, y, cw, lines, h)
        boxes[s.id] = (cx, y, cw, h)
        ry = y
        for b in beside.get(k, []):
            bl = wrap(b.text, BOLD, SIZE, rw - 2 * PAD)
            bw = min(rw, max(20.0, max(_w(t) for t in bl) + 2 * PAD + 2))
            bh = lh * len(bl) + 2 * PAD
            by = y + h / 2 - bh / 2 if ry == y else ry
            out += _box(b, rx, by, bw, bl, bh)
            boxes[b.id] = (rx, by, bw, bh)
            ry = by + bh + 1.5
        bottom = y + h
        if s.note:
            notes = wrap(s.note, ITALIC, SMALL, rw)
            ny = ry if ry > y else y
            for j, t in enumerate(notes):
                out.append(Text(rx, ny + nh * (j + 0.8), t, ITALIC, SMALL, MUTED))
            bottom = max(bottom, ny + nh * len(notes))
        mids.append(y + h / 2)
        y = max(bottom, ry - 1.5) + VGAP
    height = y - VGAP
    # arrows
    lanes: list[list[tuple[float, float]]] = []
    far_sorted = sorted(far, key=lambda e: abs(row_of[e[1]] - row_of[e[0].id]))
    outgoing: dict[str, int] = {}
    for s, *_ in far_sorted:
        outgoing[s.id] = outgoing.get(s.id, 0) + 1
    used: dict[str, int] = {}
    far_in, far_out = {t for _, t, _ in far}, {s.id for s, _, _ in far}   # a box both ways: in above, out below
    steps_by = {s.id: s for s in steps}
    for s, t, label in far_sorted:
        x0, y0, _, h0 = boxes[s.id]
        x1, y1, _, h1 = boxes[t]
        n, j = outgoing[s.id], used.get(s.id, 0)
        used[s.id] = j + 1
        sy = y0 + h0 / 2 + (j - (n - 1) / 2) * 2.4 + (SHIFT if s.id in far_in else 0.0)
        ty = y1 + h1 / 2 - (SHIFT if t in far_out else 0.0)
        lo, hi = min(sy, ty), max(sy, ty)
        lane = next((i for i, iv in enumerate(lanes) if all(hi < a - 1.0 or lo > b + 1.0 for a, b in iv)), None)
        if lane is None:
            lanes.append([])
            lane = len(lanes) - 1
        lanes[lane].append((lo, hi))
        lx = cx - FIRST_LANE - LANE * lane
        sx = x0 + (POINT * abs(sy - (y0 + h0 / 2)) / (h0 / 2) if s.shape == "ask" else 0.0)
        tx = x1 + (POINT * abs(ty - (y1 + h1 / 2)) / (h1 / 2) if steps_by[t].shape == "ask" else 0.0)
        out += _arrow([(sx, sy), (lx, sy), (lx, ty), (tx, ty)])
        out += _label(sx - 0.8, sy + nh * 0.85, label, "right")     # under its line, clear of the arrows in
    for s in column:
        x0, y0, w0, h0 = boxes[s.id]
        for label, t, _, _ in s.out:
            x1, y1, w1, h1 = boxes[t]
            how = near(s, t)
            if how == "down":
                out += _arrow([(x0 + w0 / 2, y0 + h0), (x1 + w1 / 2, y1)])
                out += _label(x0 + w0 / 2 + 1.2, y0 + h0 + nh * 0.95, label)
            elif how == "side":
                my = y1 + h1 / 2
                out += _arrow([(x0 + w0, my), (x1, my)])
                out += _label((x0 + w0 + x1) / 2, my - 0.9, label, "center")
    return out, width, height


def _w(text: str) -> float:
    return width_mm(text, BOLD, SIZE)


__all__ = ["Step", "read", "draw"]

"""A die table on a board: its entries read from cards of one type (the die face and the effect
text, ``{{ }}`` expressions rendered as the card templates render them) or, when the game has
none, from a parameter; drawn as a panel of columns that keep clear of tiling seams."""

from __future__ import annotations

from typing import Any

from cardgen.boards import common
from cardgen.boards.tiling import Seams
from cardgen.content.collection_files import pool
from cardgen.content.constraints import evaluate
from cardgen.content.entries import ANY_KEY, bad_keys
from cardgen.core.fonts import METRICS
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems
from cardgen.core.yamlsrc import YDict, YList, loc_of
from cardgen.layout.templates import is_expr, make_env
from cardgen.scene import Rect, Text

TABLE_SPEC = {
    "title": Opt("str", required=True),
    "subtitle": Opt("str", default=""),
    "card_type": Opt("str", default=None, doc="cards of this type are the entries"),
    "key": Opt("str", default="face", doc="card field: the die face"),
    "text": Opt("str", default="text", doc="card field: the effect"),
    "fallback": Opt("any", default=None, doc="{param: …}: entries [{face, name, text}] when no card exists"),
    "die": Opt("any", default=None, doc="faces of the die rolled on the table"),
    "effects": Opt("str", default=None, doc="params.yaml key: per card id, the `effect` that {{ }} "
                   "expressions in the card text read (as the card templates' `expand` filter)"),
}


def whole_number(v: Any, game, problems: Problems, loc: Loc | None, what: str) -> int | None:
    v = common.param(v, game, problems, loc)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        problems.error("YAML-TYPE", f"{what} must be a whole number, not {v!r}", loc)
        return None
    return v



def _expand(text: str, game, effect: dict, td: YDict, problems: Problems) -> str | None:
    """Card text holding {{ }} expressions, rendered as the card templates render it."""
    if not is_expr(text):
        return text
    try:
        return make_env().from_string(text).render(params=game.params, effect=effect)
    except Exception as e:  # noqa: BLE001 - a template error in content is a problem, not a traceback
        problems.error("BOARD-TABLE", f"the table's card text does not render: {e}", td.at("effects")
                       if "effects" in td else td.loc, hint="name the params key of the effects with 'effects:'")
        return None


def _cards_reported(game, card_type: str) -> bool:
    """The table's cards already break a content rule: one failed to load (reported at its line),
    or a constraint over cards of its type finds a problem."""
    if any(u.get("type") == card_type or ANY_KEY in bad_keys(u) for u in game.unread_cards):
        return True
    mine = [c for c in game.constraints if isinstance(c, dict) and isinstance(c.get("where"), dict)
            and card_type in (lambda t: t if isinstance(t, list) else [t])(c["where"].get("type"))]
    found = Problems()
    evaluate(mine, {"cards": pool(game)}, game.params, found)
    return found.has_errors


def load_table(td: YDict, game, problems: Problems) -> dict | None:
    r = common.check(td, TABLE_SPEC, problems, "table")
    if not r.ok:
        return None
    v = r.values
    die = whole_number(v["die"], game, problems, td.at("die"), "die") if v["die"] is not None else None
    entries: list[tuple[int, str, str]] = []
    source = ""
    if v["card_type"]:
        effects = (game.params or {}).get(v["effects"]) or {} if v["effects"] else {}
        if not isinstance(effects, dict):
            problems.error("RULES-PARAM", f"'{v['effects']}' in params.yaml (the table's effects) must be a mapping "
                           f"of card id → effect, not {effects!r}", loc_of(game.params, v["effects"]) or td.at("effects"))
            return None
        for c in game.cards:
            if c.type == v["card_type"]:
                face = c.get(v["key"])
                text = _expand(str(c.get(v["text"]) or ""), game, effects.get(c.id) or {}, td, problems)
                if text is None:
                    return None
                entries.append((face if isinstance(face, int) else 0, c.name, text))
        source = f"cards of type '{v['card_type']}'"
    if not entries and v["fallback"] is not None:
        raw = common.param(v["fallback"], game, problems, td.at("fallback"))
        if raw is None:
            return None
        if not isinstance(raw, list):
            problems.error("YAML-TYPE", "the table's fallback must be a list of {face, name, text}", td.at("fallback"))
            return None
        for i, e in enumerate(raw):
            if not isinstance(e, dict) or not {"face", "text"} <= set(e):
                problems.error("YAML-TYPE", f"table entry {i + 1} must have face and text",
                               raw.at(i) if isinstance(raw, YList) else td.at("fallback"))
                return None
            entries.append((int(e["face"]), str(e.get("name", "")), str(e["text"])))
        source = "params"
    if not entries:
        problems.error("BOARD-TABLE", f"the table '{v['title']}' has no entries: no cards of type "
                       f"'{v['card_type']}' and no fallback", td.loc)
        return None
    entries.sort()
    if die is not None:
        faces = [e[0] for e in entries]
        if sorted(faces) != list(range(1, die + 1)):
            if source != "params" and _cards_reported(game, v["card_type"]):
                return None         # the card rules already report these cards: one slip, one problem
            problems.error("BOARD-TABLE", f"the table '{v['title']}' needs one entry for each face 1–{die}, "
                           f"has {', '.join(map(str, faces))}", td.loc)
            return None
    return {"title": v["title"], "subtitle": v["subtitle"], "entries": entries, "source": source, "die": die}


def _columns(x: float, w: float, seams: Seams, n_entries: int) -> list[tuple[float, float]]:
    """The table's text columns (left, width): the stretches between seams when it is tiled,
    else two or three even columns."""
    inner = (x + 6, x + w - 6)
    gaps = [(a, b) for a, b in seams.gaps_x(*inner) if b - a >= 60.0]
    if seams.xs and gaps:
        cols = [(a + (3 if a > inner[0] else 0), b - a - (3 if a > inner[0] else 0) - (3 if b < inner[1] else 0))
                for a, b in gaps]
        return cols[:max(1, n_entries)]
    ncol = 3 if w > 500 else 2
    colw = (w - 12 - (ncol - 1) * 8) / ncol
    return [(x + 6 + c * (colw + 8), colw) for c in range(ncol)]


def table_panel(table: dict, x: float, y: float, w: float, fonts, ink: str, panel: str,
                 seams: Seams) -> tuple[float, list]:
    entries = table["entries"]
    cols = _columns(x, w, seams, len(entries))
    size = 7.5
    lh = size * 25.4 / 72 * 1.25
    # entries in face order down the columns, the first columns taking one more when they do not divide
    per, extra = divmod(len(entries), len(cols))
    counts = [per + (1 if c < extra else 0) for c in range(len(cols))]
    head_h = 12.0
    placed, col_heights, k = [], [], 0
    for (cx, colw), n in zip(cols, counts):
        hh = 0.0
        for face, name, text in entries[k:k + n]:
            lines = common.wrap(text, fonts["regular"], size, colw - 12)
            placed.append((cx, hh, face, name, lines))
            hh += max(3.2 + lh + 0.6 + len(lines) * lh, 10) + 1.5
        col_heights.append(hh)
        k += n
    ph = head_h + max(col_heights, default=0) + 2
    title = seams.nudge(Text(x + 6, y + 8, table["title"], fonts["bold"], 12, ink), x + 2, x + w - 2)
    out: list = [Rect(x, y, w, ph, panel, ink, 0.4, 3.0), title]
    if table["subtitle"]:
        sx = title.x + METRICS.width_mm(table["title"], fonts["bold"], 12) + 4
        out.append(seams.nudge(Text(sx, y + 8, table["subtitle"], fonts["italic"], 8, ink), sx, x + w - 2))
    for cx, dy, face, name, lines in placed:
        cy = y + head_h + dy
        out.append(Rect(cx, cy - 0.5, 9, 9, "#ffffff", ink, 0.4, 1.5))
        out.append(Text(cx + 4.5, cy + 5.8, str(face), fonts["bold"], 11, ink, "center"))
        out.append(Text(cx + 12, cy + 3.2, name, fonts["bold"], 8.5, ink))
        ly = cy + 3.2 + lh + 0.6
        for ln in lines:
            out.append(Text(cx + 12, ly, ln, fonts["regular"], size, ink))
            ly += lh
    return ph + 4, out

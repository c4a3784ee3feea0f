r"""The ``mats:`` file: each mat read and checked into a :class:`Mat` of rows of :class:`Group`\ s
(the options, counts sized from params or the game's own files, track ends, token ids). What a
mat looks like is :mod:`cardgen.boards.mats`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.boards import common
from cardgen.content.collection_files import collection_files
from cardgen.content.model import Game
from cardgen.core.options import Opt
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, YList, load_yaml

GROUP_SPEC = {
    "label": Opt("str", required=True),
    "count": Opt("any", default=1, doc="slots in the group: a number, {param: …} or "
                 "{collection: KIND, most: KEY} "
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


def load(path: Path, doc: YDict, game: Game, problems: Problems, token_defs: dict | None) -> list[Mat]:
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


Size = tuple[float, float]


def _rows(raw_rows: Any, md: YDict, name: str, card: Size | None, game: Game, problems: Problems,
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


def _group(gd: Any, loc: Loc | None, card: Size | None, game: Game, problems: Problems,
           token_defs: dict | None, what: str) -> Group | None:
    r = common.mapping(gd, loc, GROUP_SPEC, problems, what)
    if not r.ok:
        return None
    v = r.values
    count = _count(v["count"], game, problems, gd.at("count"), what)
    if count is None:
        return None
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        problems.error("YAML-TYPE", f"count of {what} must be a whole number ≥ 1, not {count!r}",
                       gd.at("count"))
        return None
    size = common.card_size(v["card"], game, problems, gd.at("card")) if v["card"] else card
    if size is None:
        return None
    track = None
    if v["track"] is not None:
        ends = [_track_end(v["track"][k], game, problems,
                           gd["track"].at(k) if k in gd["track"] else gd.at("track"),
                           f"'{k}' of the track of {what}") for k in ("from", "to")]
        first, last = ends
        if first is None or last is None:
            return None
        if last <= first:
            problems.error("YAML-TYPE",
                           f"the track of {what} must end above its start ({first}), not at {last}",
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
                               "defines the tokens)",
                               raw.at(i) if isinstance(raw, YList) else gd.at("tokens"),
                               hint=did_you_mean(tid, token_defs))
                return None
            toks.append(t)
    return Group(v["label"], count, size, v["note"], v["highlight"], v["numbered"], toks, v["columns"], track)


def _count(value: Any, game: Game, problems: Problems, loc: Loc | None, what: str) -> int | None:
    """A group's count: a number, ``{param: …}``, or ``{collection: KIND, most: KEY}``: the longest
    list ``KEY`` among the game's ``KIND`` files (the most pieces of any preset boss)."""
    if not (isinstance(value, dict) and "collection" in value):
        return common.param(value, game, problems, loc)
    kind, key = value.get("collection"), value.get("most")
    if not isinstance(kind, str) or not isinstance(key, str) or set(value) != {"collection", "most"}:
        problems.error("YAML-TYPE", f"the count of {what} must be {{collection: KIND, most: KEY}} "
                       "(a kind of the "
                       "game's files and the list to count), not " + repr(dict(value)), loc)
        return None
    lengths = []
    for path in collection_files(game):
        doc = load_yaml(path, Problems())
        body = doc.get(kind) if isinstance(doc, dict) else None
        if isinstance(body, dict) and isinstance(body.get(key), list):
            lengths.append(len(body[key]))
    if not lengths:
        problems.error("YAML-TYPE", f"the count of {what}: no '{kind}' file of the game has a list '{key}'",
                       loc)
        return None
    return max(lengths)


def _track_end(value: Any, game: Game, problems: Problems, loc: Loc | None, what: str) -> int | None:
    """A track's end: a number, ``{param: …}``, or ``{cards: FIELD, type: TYPE}`` (the largest value)."""
    if isinstance(value, dict) and "cards" in value:
        if not isinstance(value["cards"], str) or not isinstance(value.get("type"), (str, type(None))):
            problems.error("YAML-TYPE",
                           f"{what}: 'cards' names a card field and 'type' a card type, each as text",
                           loc, hint="for example {cards: hp, type: dinosaur}")
            return None
        cards = [c for c in game.cards if value.get("type") in (None, c.type)]
        got = [c.fields.get(value["cards"]) for c in cards]
        vals: list[int] = [x for x in got if isinstance(x, int) and not isinstance(x, bool)]
        if not vals and (game.failed_ids or game.unread_files
                         or any(value.get("type") in (None, u.get("type")) for u in game.unread_cards)):
            return None         # the cards that would have it failed to load: reported there, once
        if not vals:
            kind = f" of type {value['type']}" if value.get("type") else ""
            problems.error("YAML-TYPE", f"{what}: no card{kind}"
                           f" has a whole-number '{value['cards']}'", loc)
            return None
        return max(vals)
    v = common.param(value, game, problems, loc)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        if v is not None:
            problems.error("YAML-TYPE", f"{what} must be a whole number ≥ 0, not {v!r}", loc)
        return None
    return v

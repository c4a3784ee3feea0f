"""Load a game from its folders: ``rules/<game>/game.yaml`` (settings and card types),
``rules/<game>/params.yaml`` (rules parameters), ``rules/<game>/constraints.yaml``,
and every ``cards/<game>/*.yaml`` (card and component definitions)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from cardgen.content import spreadsheets
from cardgen.content.entries import ANY_KEY
from cardgen.content.fontroles import checked_fonts
from cardgen.content.gamefiles import card_files, escaping, sheet_files
from cardgen.content.icontext import check_icons
from cardgen.content.model import Card, CardType, Component, Game, Icon, PrintSettings
from cardgen.content.sheetfit import fit, make_grid, usable_margin
from cardgen.content.slips import check_refs, ids_in, once_for_defaults, with_rule
from cardgen.core import sources
from cardgen.core.lazymod import lazy
from cardgen.core.options import Opt, check_mapping, check_value, opt_from_yaml
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.units import PAPER_MM
from cardgen.core.yamlsrc import YDict, load_mapping, load_yaml, loc_of

difflib = lazy("difflib")                               # "did you mean": only for a misspelt key

DEFAULT_LIMITS = {"copies": 1000, "count": 10000}     # game.yaml ``limits`` may change them

GAME_SPEC: dict[str, Opt] = {
    "title": Opt("str", required=True, doc="the game's printed title"),
    "subtitle": Opt("str", default=None, doc="a line under the title"),
    "designer": Opt("str", default=None, doc="who designed it"),
    "print": Opt("map", required=True, doc="paper and duplex settings", fields={
        "paper": Opt("enum", choices=tuple(PAPER_MM), required=True, doc="A4 or Letter"),
        "bleed": Opt("length", required=True, min=0, doc="bleed around each card"),
        "duplex": Opt("enum", choices=("long", "short"), required=True, doc="which edge the paper flips on"),
        "offset": Opt("list", item=Opt("length"), default=[0.0, 0.0],
                      doc="x, y shift of back pages to correct a printer's duplex drift"),
        "crop_marks": Opt("bool", default=True, doc="draw crop marks outside the trim"),
        "draft": Opt("bool", default=False, doc="build as a draft by default: construction problems are "
                     "warnings, broken cards print as error cards, sheets carry a DRAFT mark"),
        "safe": Opt("length", default=3.0, min=0, doc="safe margin inside the trim (shown on proofs)"),
        "gutter": Opt("length", default=0.0, min=0, max=30, doc="space between neighbouring cards' bleeds; "
                      "with one, crop marks run between the cards too"),
        "margin": Opt("length", default=4.2, min=0, max=30, doc="the printer's unprintable margin: no card, "
                      "bleed or mark is printed in it (fewer cards a sheet or a narrower bleed, with a warning)"),
        "registration": Opt("enum", choices=("none", "silhouette"), default="none",
                            doc="silhouette: Silhouette Studio type 1 registration marks on front sheets "
                            "and a cut file (SVG of the trims) per sheet, instead of crop marks"),
        "card_numbers": Opt("bool", default=True, doc="each card front's number and edition (23/60 · v1.0)"),
        "ink_saver": Opt("bool", default=False, doc="card backs as a light tint with an outline (saves ink)"),
        "layout": Opt("enum", choices=("duplex", "fold"), default="duplex", doc="fold: each card's front and "
                      "back side by side on one side of the paper, to fold and glue (no duplex printing)"),
        "boards": Opt("enum", choices=("tiled", "poster"), default="tiled", doc="tiled: a board or mat larger "
                      "than the paper is split over sheets to tape together; poster: each is one page of its "
                      "own size, true scale, for a copy shop's large-format printer"),
        "mats": Opt("enum", choices=("full", "compact"), default="full",
                    doc="compact: a play mat that offers a compact layout (`compact:` in its mats file) "
                    "prints it, on fewer sheets"),
    }),
    "card_sizes": Opt("map", required=True, doc="named card sizes: {name: {width, height}}"),
    "colors": Opt("map", default={}, doc="palette: name → '#rrggbb'"),
    "icons": Opt("map", default={}, doc="icons: name → {glyph, color, draw (its pictogram), words (its glossary entry)}"),
    "fonts": Opt("map", default={}, doc="font roles → bundled font names"),
    "card_types": Opt("map", required=True, doc="card types: template, back, size, fields"),
    "printables": Opt("list", item=Opt("str"), required=True, doc="what `cardgen build` writes"),
    "collections": Opt("map", default={}, doc="deck-like file kinds: {kind: {folder, keys, doc}}"),
    "tokens": Opt("list", default=[], doc="token sheets: counters to print"),
    "limits": Opt("map", default={}, doc="upper bounds that keep a typo from exhausting memory in build", fields={
        "copies": Opt("int", min=1, max=10**6, default=DEFAULT_LIMITS["copies"], doc="most copies of one card design"),
        "count": Opt("int", min=1, max=10**6, default=DEFAULT_LIMITS["count"],
                     doc="most pieces of one component or token"),
    }),
}


CARD_TYPE_SPEC: dict[str, Opt] = {
    "name": Opt("str", required=True, doc="the type's name as printed"),
    "template": Opt("str", required=True, doc="front template in templates/<game>/"),
    "back": Opt("str", default=None, doc="back template in templates/<game>/"),
    "size": Opt("str", required=True, doc="a name from card_sizes"),
    "fields": Opt("map", default={}, doc="the type's card fields and their types"),
    "rule": Opt("str", default=None, doc="the catalogue rule a bad field of this type reports (a field's own "
                "`rule:` wins; else YAML-TYPE/RANGE/MISSING-KEY)"),
}

COMMON_FIELDS: dict[str, Opt] = {
    "id": Opt("str", required=True, doc="stable card id, unique in the game"),
    "name": Opt("str", required=True, doc="the card's printed name"),
    "type": Opt("str", required=True, doc="a card type of game.yaml"),
    "copies": Opt("int", default=1, min=0, max=DEFAULT_LIMITS["copies"],
                  doc="how many the game holds (default 1; at most game.yaml limits.copies)"),
    "set": Opt("str", default=None, doc="the card's set"),
    "art": Opt("str", default=None, doc="its picture: a PNG, JPEG or SVG file under art/<game>/ (placed by "
               "the template's art element)"),
}

COMPONENT_SPEC: dict[str, Opt] = {
    "id": Opt("str", required=True), "name": Opt("str", required=True),
    "kind": Opt("enum", choices=("token", "die", "board", "marker", "other"), required=True),
    "count": Opt("int", required=True, min=0, max=DEFAULT_LIMITS["count"]),
    "color": Opt("color", default=None, doc="its colour, where it matters"),
    "text": Opt("str", default=None, doc="what it is for"),
}


CARD_SIZE_SPEC: dict[str, Opt] = {
    "width": Opt("length", required=True, min=1, doc="the trimmed card's width"),
    "height": Opt("length", required=True, min=1, doc="the trimmed card's height"),
}

COLLECTION_SPEC: dict[str, Opt] = {
    "folder": Opt("str", default=None, doc="the folder under cards/<game>/ holding such files"),
    "keys": Opt("list", item=Opt("str"), default=[], doc="keys such a file may hold besides name, cards, notes"),
    "doc": Opt("str", default=None, doc="what such a file is"),
}


ICON_SPEC = {"glyph": Opt("str", required=True, doc="the character standing for the icon where it cannot be drawn "
                          "(plain-text exports; an icon with no drawing)"),
             "color": Opt("color", default=None),
             "draw": Opt("str", default=None, doc="the drawn pictogram (sword, shield, skull, …) printed wherever the "
                         "icon stands: card and rulebook text, an icon element, a badge, an art placeholder"),
             "words": Opt("str", default=None, doc="what the icon stands for, in the rulebook's Icons glossary "
                          "(an icon with no words is left out of it)")}


def checked_collections(raw: YDict, problems: Problems) -> dict[str, dict]:
    """game.yaml ``collections``: each kind checked; a folder stays inside the game's card folder."""
    out: dict[str, dict] = {}
    for kind, spec in raw.items():
        r = check_mapping(spec, COLLECTION_SPEC, problems, f"collection '{kind}'", fill_absent=False, at=raw.at(kind))
        folder = r.values.get("folder")
        if folder is not None and ("\0" in folder or Path(folder).is_absolute() or ".." in Path(folder).parts):
            problems.error("YAML-TYPE", f"folder of collection '{kind}' must lie inside cards/<game>/, "
                           f"not {folder!r}", spec.at("folder"))
            continue
        if r.ok:
            out[str(kind)] = r.values
    return out


def _length(value: Any, default: float) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def check_sizes_fit(sizes: dict[str, tuple[float, float]], ps: PrintSettings, problems: Problems,
                    where: Any, why: str = "") -> None:
    """Each card size, with its bleed, holds at least one card on the paper (YAML-RANGE at the size)."""
    for name, (w, h) in sizes.items():
        # with its full bleed on the paper (exports keep it), and on sheets inside the margins
        if make_grid(ps.page_w, ps.page_h, w, h, ps.bleed, floor=ps.bleed).per_page == 0 \
                or fit(ps, w, h).grid.per_page == 0:
            problems.error("YAML-RANGE", f"card size '{name}' ({w:g} × {h:g} mm with {ps.bleed:g} mm bleed) "
                           f"does not fit on {ps.paper} paper inside its {usable_margin(ps):g} mm margin{why}", where.at(name) if isinstance(where, YDict)
                           else None)


def load_game(root: Path, slug: str, problems: Problems) -> Game | None:
    """Load everything of one game; problems are collected, None only if unusable.

    Every file it reads must lie inside ``root`` (:mod:`cardgen.core.sources`)."""
    with sources.project(root):
        return _load_game(root, slug, problems)


def _load_game(root: Path, slug: str, problems: Problems) -> Game | None:
    if escaping(root, slug, problems):
        return None
    game_file = root / "rules" / slug / "game.yaml"
    raw = load_yaml(game_file, problems)
    if raw is None:
        return None
    res = check_mapping(raw, GAME_SPEC, problems, "game.yaml")
    v = res.values
    if v.get("collections"):
        v["collections"] = checked_collections(raw["collections"], problems)
    if not isinstance(raw, dict) or v.get("card_sizes") is None or v.get("card_types") is None:
        return None
    colors = {}
    for k, c in (v.get("colors") or {}).items():
        ok, cv = check_value(c, Opt("color"), raw["colors"].at(k), problems, f"colour '{k}'")
        if ok:
            colors[k] = cv
    pr = v.get("print") or {}
    paper = pr.get("paper") or "A4"
    pw, ph = PAPER_MM.get(paper, PAPER_MM["A4"])
    off = pr.get("offset") or [0.0, 0.0]
    if len(off) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in off):
        if len(off) != 2 or not problems.has_errors:     # an item of the wrong type is reported by its check
            problems.error("YAML-TYPE", "print offset must be two lengths [x, y]", raw["print"].at("offset"))
        off = [0.0, 0.0]
    settings = PrintSettings(paper=paper, page_w=pw, page_h=ph, bleed=pr.get("bleed") or 0.0,
                             duplex=pr.get("duplex") or "long", offset=(off[0], off[1]),
                             crop_marks=bool(pr.get("crop_marks", True)), draft=pr.get("draft") is True,
                             safe=float(pr.get("safe", 3.0)) if isinstance(pr.get("safe", 3.0), (int, float))
                             else 3.0, gutter=float(pr.get("gutter") or 0.0)
                             if isinstance(pr.get("gutter") or 0.0, (int, float)) else 0.0,
                             margin=_length(pr.get("margin", 4.2), 4.2),
                             registration=pr.get("registration") or "none",
                             origin={k: "game" if isinstance(raw.get("print"), dict) and k in raw["print"]
                                     else "built-in" for k in ("paper", "duplex", "offset", "margin")},
                             card_numbers=pr.get("card_numbers", True) is not False, ink_saver=pr.get("ink_saver") is True,
                             layout="fold" if pr.get("layout") == "fold" else "duplex",
                             boards="poster" if pr.get("boards") == "poster" else "tiled",
                             mats="compact" if pr.get("mats") == "compact" else "full")
    sizes: dict[str, tuple[float, float]] = {}
    bad_sizes: set = set()          # reported: the card types using them, and their cards, are not again
    broken_types: set = set()
    for name, sd in raw["card_sizes"].items():
        r = check_mapping(sd, CARD_SIZE_SPEC, problems, f"card size '{name}'", at=raw["card_sizes"].at(name))
        if r.ok:
            sizes[name] = (r.values["width"], r.values["height"])
        else:
            bad_sizes.add(name)
    check_sizes_fit(sizes, settings, problems, raw["card_sizes"])
    icons: dict[str, Icon] = {}
    for name, idef in (v.get("icons") or {}).items():
        r = check_mapping(idef, ICON_SPEC, problems, f"icon '{name}'", colors, at=loc_of(raw.get("icons"), name))
        if r.ok:     # the drawing's name is checked with the layout's pictograms (builder.pipeline)
            icons[name] = Icon(name, r.values["glyph"], r.values["color"], r.values.get("draw"), idef.at("draw"),
                               r.values.get("words"))
    fonts = checked_fonts(v.get("fonts") or YDict(), problems)
    limits = {**DEFAULT_LIMITS, **(v.get("limits") or {})}
    params_file = root / "rules" / slug / "params.yaml"
    params = load_mapping(params_file, problems, "params.yaml") if params_file.exists() else YDict()
    card_types: dict[str, CardType] = {}
    for key, td in raw["card_types"].items():
        where = f"card type '{key}'"
        r = check_mapping(td, CARD_TYPE_SPEC, problems, where, at=raw["card_types"].at(key))
        tv = r.values
        if not r.ok or tv["size"] in bad_sizes:     # reported: its cards are not also of an unknown type
            broken_types.add(key)
            continue
        if tv["size"] not in sizes:
            problems.error("YAML-UNKNOWN-KEY", f"{where} uses unknown card size '{tv['size']}'", td.at("size"),
                           hint=did_you_mean(tv["size"], sizes))
            broken_types.add(key)
            continue
        fields: dict[str, Opt] = {}
        fdefs = tv["fields"] if isinstance(tv["fields"], YDict) else YDict()
        for fname, fspec in fdefs.items():
            if fname in COMMON_FIELDS:
                problems.error("YAML-TYPE", f"field '{fname}' of {where} is a common card field; "
                               "declare only type-specific fields", fdefs.key_at(fname))
                continue
            o = opt_from_yaml(fspec, fdefs.at(fname), problems, f"field '{fname}' of {where}", params)
            if o is not None:
                fields[fname] = with_rule(o, tv.get("rule"))
            else:
                broken_types.add(key)
        if key in broken_types:     # a field's declaration is broken (reported): its cards wait
            continue
        w, h = sizes[tv["size"]]
        card_types[key] = CardType(key, tv["name"], tv["template"], tv["back"], tv["size"], w, h, fields, td.loc,
                                   td.at("template"), td.at("back"))

    cons_file = root / "rules" / slug / "constraints.yaml"
    constraints: list[Any] = []
    if cons_file.exists():
        cdoc = load_yaml(cons_file, problems)
        if isinstance(cdoc, dict):
            r = check_mapping(cdoc, {"constraints": Opt("list", required=True)}, problems, "constraints.yaml")
            constraints = (cdoc.get("constraints") or []) if r.ok else []     # (a YList: its items' places)
    cards: list[Card] = []
    components: list[Component] = []
    failed: set[str] = set()
    unread: list[dict] = []
    unread_files: list[Path] = []
    unread_comps: list[dict] = []
    for f in card_files(root / "cards" / slug):
        if not load_card_file(f, card_types, colors, cards, components, problems, failed, unread, unread_comps,
                              limits, broken_types):
            unread_files.append(f)
            failed |= ids_in(f)         # known but unreadable: names of them are not "no such card"
    for f in sheet_files(root / "cards" / slug):
        load_sheet_file(f, card_types, colors, cards, problems, failed, unread)
    seen: dict[str, Card] = {}
    retyped: set[str] = set()       # card types with a card whose id is a slip (used twice): its real id is unknown
    for c in cards:
        if c.id in seen:
            problems.error("CARD-DUPLICATE-ID", f"card id '{c.id}' is used twice (first at "
                           f"{seen[c.id].loc})", c.at("id"))
            retyped.add(c.type)
        else:
            seen[c.id] = c
    check_refs(cards, card_types, failed, problems, retyped)
    texts = {k: {f for f, o in {"name": COMMON_FIELDS["name"], **t.fields}.items() if o.type == "str"}
             for k, t in card_types.items()}
    return Game(slug=slug, title=v.get("title") or slug, root=root, meta=v, params=params,
                icon_slips=check_icons(cards, texts, icons, problems),
                card_types=card_types, cards=cards, components=components, constraints=constraints,
                colors=colors, icons=icons, print=settings, printables=list(v.get("printables") or []),
                fonts=fonts, game_file=game_file, unread_cards=unread,
                unread_files=unread_files, failed_ids=failed, unread_components=unread_comps)


def bad_component_keys(raw: YDict) -> frozenset[str]:
    """The keys of a component that failed its checks whose value is not known."""
    bad = {str(k) for k in raw if k not in COMPONENT_SPEC}
    bad |= {k for k, o in COMPONENT_SPEC.items() if (o.required and k not in raw) or
            (k in raw and not check_value(raw[k], o, Loc(""), Problems(), k)[0])}
    return frozenset(bad | ({"count"} if bad else set()))


def bad_keys(raw: dict, card_types: dict[str, CardType], colors: dict) -> frozenset[str]:
    """The keys of a card that failed its checks whose value is not known: misspelt (and the key
    it was meant to be), missing, or of the wrong value; ``*`` when its card type is unknown."""
    type_key = raw.get("type")
    ctype = card_types.get(type_key) if isinstance(type_key, str) else None
    if ctype is None:
        return frozenset({ANY_KEY})
    spec = {**COMMON_FIELDS, **ctype.fields}
    bad = set()
    for k, v in raw.items():
        if k not in spec:
            bad |= {str(k), *difflib.get_close_matches(str(k), list(spec), n=1, cutoff=0.6)}
        elif not check_value(v, spec[k], Loc(""), Problems(), str(k), colors)[0]:
            bad.add(str(k))
    bad |= {k for k, o in spec.items() if o.required and k not in raw}
    return frozenset(bad)


def _bounded(spec: dict[str, Opt], key: str, limits: dict | None) -> dict[str, Opt]:
    """``spec`` with ``key``'s maximum from the game's ``limits`` (game.yaml)."""
    out = dict(spec)
    if limits and limits.get(key) is not None:
        out[key] = dataclasses.replace(spec[key], max=limits[key])
    return out


def load_card_file(path: Path, card_types: dict[str, CardType], colors: dict, cards: list[Card],
                   components: list[Component], problems: Problems, failed: set[str] | None = None,
                   unread: list[dict] | None = None, unread_components: list[dict] | None = None,
                   limits: dict | None = None, broken_types: set | None = None) -> bool:
    """The file's cards and components; a card that fails its checks (reported) adds its id to
    ``failed`` and its raw keys, defaults merged, to ``unread``. False when the file is unreadable."""
    doc = load_yaml(path, problems)
    if doc is None:
        return False
    check_mapping(doc, {"defaults": Opt("map", default={}, doc="keys every card of the file gets"),
                        "cards": Opt("list", default=[]), "components": Opt("list", default=[])},
                  problems, path.name)
    if not isinstance(doc, dict):
        return False
    defaults, card_list = doc.get("defaults") or {}, doc.get("cards") or []
    if not isinstance(defaults, dict) or not isinstance(card_list, list):
        return False        # reported above: the file's cards cannot be read
    mark = len(problems.items)
    specs: dict[str, dict[str, Opt]] = {}
    for i, cd in enumerate(card_list):
        card = parse_card(cd, defaults, card_types, colors, problems, doc["cards"].at(i), limits, broken_types,
                          specs)
        if card is not None:
            cards.append(card)
        elif isinstance(cd, dict):
            if failed is not None and isinstance(cd.get("id"), str):
                failed.add(cd["id"])
            if unread is not None:
                raw = YDict({**defaults, **cd})
                raw.loc = getattr(cd, "loc", doc["cards"].at(i))
                raw.bad = bad_keys(raw, card_types, colors)      # type: ignore[attr-defined]
                unread.append(raw)
    once_for_defaults(problems, mark, defaults, len(card_list))
    comps = doc.get("components") or []
    for i, cd in enumerate(comps if isinstance(comps, list) else []):
        rr = check_mapping(cd, _bounded(COMPONENT_SPEC, "count", limits), problems, f"component {i + 1}", colors,
                           at=loc_of(comps, i))
        if rr.ok:
            vv = rr.values
            components.append(Component(vv["id"], vv["name"], vv["kind"], vv["count"], vv,
                                        getattr(cd, "loc", doc["components"].at(i))))
        elif isinstance(cd, YDict) and unread_components is not None:     # known but invalid: counts wait
            cd.bad = bad_component_keys(cd)         # type: ignore[attr-defined]
            unread_components.append(cd)
    return True


def load_sheet_file(path: Path, card_types: dict[str, CardType], colors: dict, cards: list[Card],
                    problems: Problems, failed: set[str] | None = None, unread: list[dict] | None = None) -> None:
    """A spreadsheet's cards (CSV or XLSX, see :mod:`.sheets`), checked as YAML cards are."""
    for row in spreadsheets.read(path, card_types, COMMON_FIELDS, problems):
        card = parse_card(row, {}, card_types, colors, problems, row.loc)
        if card is not None:
            cards.append(card)
        else:
            if failed is not None and isinstance(row.get("id"), str):
                failed.add(row["id"])
            if unread is not None:
                unread.append(row)


def parse_card(cd: Any, defaults: dict, card_types: dict[str, CardType], colors: dict,
               problems: Problems, loc: Loc, limits: dict | None = None,
               broken_types: set | None = None, specs: dict[str, dict[str, Opt]] | None = None) -> Card | None:
    """Defaults → the card's own keys → type check against its card type's fields. ``specs``: the
    fields' specs per card type, kept by a caller that parses many cards of the same types and limits."""
    if not isinstance(cd, dict):
        problems.error("YAML-TYPE", "a card must be a mapping of fields", loc)
        return None
    merged = YDict()
    merged.loc = getattr(cd, "loc", loc)
    kl, vl = merged.key_locs, merged.val_locs
    for src in (defaults, cd):
        merged.update(src)
        if isinstance(src, YDict):          # positions as src.key_at(k) and src.at(k) give them
            skl, svl, sloc = src.key_locs, src.val_locs, src.loc
            for k in src:
                kl[k] = kloc = skl.get(k) or sloc
                vl[k] = svl.get(k) or kloc
    label = f"card '{merged.get('id', '?')}'"
    ctype_key = merged.get("type")
    ctype = card_types.get(ctype_key) if isinstance(ctype_key, str) else None
    if ctype is None and broken_types and ctype_key in broken_types:
        return None         # its card type failed to load (reported at the type)
    if ctype is None:
        if "type" not in merged:
            problems.error("YAML-MISSING-KEY", f"{label} lacks required key 'type'", merged.loc)
        else:
            problems.error("CARD-UNKNOWN-TYPE", f"{label} has unknown type {ctype_key!r}", merged.at("type"),
                           hint=did_you_mean(str(ctype_key), card_types))
        return None
    spec = specs.get(ctype.key) if specs is not None else None
    if spec is None:
        spec = _bounded(COMMON_FIELDS, "copies", limits)
        spec.update(ctype.fields)
        if specs is not None:
            specs[ctype.key] = spec
    r = check_mapping(merged, spec, problems, label, colors)
    if not r.ok:
        return None
    v = r.values
    mloc = merged.loc
    flocs = {k: vl.get(k) or kl.get(k) or mloc for k in merged}      # merged.at(k)
    return Card(id=v["id"], name=v["name"], type=ctype.key, copies=v["copies"], fields=v, loc=merged.loc,
                field_locs=flocs, own=_own_keys(cd))


_OWN: dict[tuple, frozenset] = {}      # a card's own keys: one frozenset per key list (immutable, shared)


def _own_keys(cd: dict) -> frozenset:
    """``frozenset(cd)``, one for all cards writing the same keys in the same order (~0.5 KiB a card)."""
    keys = tuple(cd)
    if (own := _OWN.get(keys)) is None:
        if len(_OWN) > 10_000:
            _OWN.clear()
        own = _OWN[keys] = frozenset(keys)
    return own

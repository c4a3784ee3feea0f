"""Load a game from its folders: ``rules/<game>/game.yaml`` (settings and card types),
``rules/<game>/params.yaml`` (rules parameters), ``rules/<game>/constraints.yaml``,
and every ``cards/<game>/*.yaml`` (card and component definitions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.content.cardfile import load_card_file, load_sheet_file
from cardgen.content.cardmemo import CardMemo
from cardgen.content.fontroles import checked_fonts
from cardgen.content.gamefiles import card_files, escaping, sheet_files
from cardgen.content.gamespec import (
    CARD_SIZE_SPEC,
    CARD_TYPE_SPEC,
    COLLECTION_SPEC,
    COMMON_FIELDS,
    DEFAULT_LIMITS,
    GAME_SPEC,
    ICON_SPEC,
)
from cardgen.content.icontext import check_icons
from cardgen.content.model import Card, CardType, Component, Game, Icon, PrintSettings
from cardgen.content.sheetfit import fit, make_grid, usable_margin
from cardgen.content.slips import check_refs, ids_in, with_rule
from cardgen.core import sources
from cardgen.core.options import Opt, check_mapping, check_value, opt_from_yaml
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.units import PAPER_MM
from cardgen.core.yamlsrc import YDict, load_mapping, load_yaml, loc_of


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


def load_game(root: Path, slug: str, problems: Problems, memo: CardMemo | None = None) -> Game | None:
    """Load everything of one game; problems are collected, None only if unusable. ``memo``: the
    cards the build cache kept (:mod:`.cardmemo`): a card file's unchanged cards are not parsed.

    Every file it reads must lie inside ``root`` (:mod:`cardgen.core.sources`)."""
    with sources.project(root):
        return _load_game(root, slug, problems, memo)


def _load_game(root: Path, slug: str, problems: Problems, memo: CardMemo | None = None) -> Game | None:
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
                              limits, broken_types, memo):
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

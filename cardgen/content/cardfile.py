"""Cards and components from one file (YAML or a spreadsheet): each card's defaults, its own keys
and its card type's fields checked; a card that fails keeps what is known of it, for the checks
that must not report it twice."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from cardgen.content import cardmemo, spreadsheets
from cardgen.content.entries import ANY_KEY
from cardgen.content.gamespec import COMMON_FIELDS, COMPONENT_SPEC
from cardgen.content.model import Card, CardType, Component, make_card
from cardgen.content.slips import once_for_defaults
from cardgen.core.lazymod import lazy
from cardgen.core.options import Opt, check_mapping, check_value
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, loc_of, new_ydict

difflib = lazy("difflib")                               # "did you mean": only for a misspelt key


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
                   limits: dict | None = None, broken_types: set | None = None,
                   memo: cardmemo.CardMemo | None = None) -> bool:
    """The file's cards and components; a card that fails its checks (reported) adds its id to
    ``failed`` and its raw keys, defaults merged, to ``unread``. False when the file is unreadable.
    ``memo``: the cards kept by the build cache (:mod:`.cardmemo`): only the changed ones parsed."""
    doc, fm, plan = cardmemo.read(memo, path, problems)
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
    for k, kept, i in plan or [(i, None, i) for i in range(len(card_list))]:
        if kept is not None:
            cards.append(kept)
            continue
        cd = card_list[i]
        here = len(problems.items)
        card = parse_card(cd, defaults, card_types, colors, problems, doc["cards"].at(i), limits,
                          broken_types, specs)
        if card is not None:
            cards.append(card)
            if fm is not None and len(problems.items) == here:
                fm.keep(k, card)
        elif isinstance(cd, dict):
            if failed is not None and isinstance(cd.get("id"), str):
                failed.add(cd["id"])
            if unread is not None:
                raw = YDict({**defaults, **cd})
                raw.loc = getattr(cd, "loc", doc["cards"].at(i))
                raw.bad = bad_keys(raw, card_types, colors)      # type: ignore[attr-defined]
                unread.append(raw)
    once_for_defaults(problems, mark, defaults, len(plan) if plan else len(card_list))
    if fm is not None:
        fm.save()
    _components(doc, colors, components, problems, unread_components, limits)
    return True


def _components(doc: Any, colors: dict, components: list[Component], problems: Problems,
                unread_components: list[dict] | None, limits: dict | None) -> None:
    """The file's components (a component that fails its checks waits in ``unread_components``)."""
    comps = doc.get("components") or []
    for i, cd in enumerate(comps if isinstance(comps, list) else []):
        rr = check_mapping(cd, _bounded(COMPONENT_SPEC, "count", limits), problems, f"component {i + 1}",
                           colors, at=loc_of(comps, i))
        if rr.ok:
            vv = rr.values
            components.append(Component(vv["id"], vv["name"], vv["kind"], vv["count"], vv,
                                        getattr(cd, "loc", doc["components"].at(i))))
        elif isinstance(cd, YDict) and unread_components is not None:     # known but invalid: counts wait
            cd.bad = bad_component_keys(cd)         # type: ignore[attr-defined]
            unread_components.append(cd)


def load_sheet_file(path: Path, card_types: dict[str, CardType], colors: dict, cards: list[Card],
                    problems: Problems, failed: set[str] | None = None,
                    unread: list[dict] | None = None) -> None:
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
               broken_types: set | None = None,
               specs: dict[str, dict[str, Opt]] | None = None) -> Card | None:
    """Defaults → the card's own keys → type check against its card type's fields. ``specs``: the
    fields' specs per card type, kept by a caller that parses many cards of the same types and limits."""
    if not isinstance(cd, dict):
        problems.error("YAML-TYPE", "a card must be a mapping of fields", loc)
        return None
    merged = new_ydict()
    merged.loc = getattr(cd, "loc", loc)
    kl, vl = merged.key_locs, merged.val_locs
    for src in (defaults, cd):
        merged.update(src)
        if isinstance(src, YDict):          # positions as src.key_at(k) and src.at(k) give them
            skl, svl, sloc = src.key_locs, src.val_locs, src.loc
            if skl.keys() == svl.keys() == src.keys():     # (a position is never false)
                kl.update(skl)
                vl.update(svl)
                continue
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
    return make_card(id=v["id"], name=v["name"], type=ctype.key, copies=v["copies"], fields=v, loc=merged.loc,
                field_locs=_field_locs(merged), own=_own_keys(cd))


def _field_locs(merged: YDict) -> dict[str, Loc]:
    """``merged.at(k)`` for each key: its value positions themselves when they hold every key in
    the keys' order (a position is never false; ``merged`` is dropped after), else key by key."""
    vl = merged.val_locs
    if list(vl) == list(merged):
        return vl
    kl, mloc = merged.key_locs, merged.loc
    return {k: vl.get(k) or kl.get(k) or mloc for k in merged}


_OWN: dict[tuple, frozenset] = {}      # a card's own keys: one frozenset per key list (immutable, shared)


def _own_keys(cd: dict) -> frozenset:
    """``frozenset(cd)``, one for all cards writing the same keys in the same order (~0.5 KiB a card)."""
    keys = tuple(cd)
    if (own := _OWN.get(keys)) is None:
        if len(_OWN) > 10_000:
            _OWN.clear()
        own = _OWN[keys] = frozenset(keys)
    return own

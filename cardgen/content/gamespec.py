"""What each game file may say: the typed options (:mod:`cardgen.core.options`) of ``game.yaml``,
its card types, sizes, icons and collections, every card's common fields and a component's."""

from __future__ import annotations

from cardgen.core.options import Opt
from cardgen.core.units import PAPER_MM

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
                      "bleed or mark is printed in it (fewer cards a sheet or a narrower bleed, "
                      "with a warning)"),
        "registration": Opt("enum", choices=("none", "silhouette"), default="none",
                            doc="silhouette: Silhouette Studio type 1 registration marks on front sheets "
                            "and a cut file (SVG of the trims) per sheet, instead of crop marks"),
        "card_numbers": Opt("bool", default=True, doc="each card front's number and edition (23/60 · v1.0)"),
        "ink_saver": Opt("bool", default=False, doc="card backs as a light tint with an outline (saves ink)"),
        "layout": Opt("enum", choices=("duplex", "fold"), default="duplex", doc="fold: each card's front and "
                      "back side by side on one side of the paper, to fold and glue (no duplex printing)"),
        "boards": Opt("enum", choices=("tiled", "poster"), default="tiled",
                      doc="tiled: a board or mat larger "
                      "than the paper is split over sheets to tape together; poster: each is one page of its "
                      "own size, true scale, for a copy shop's large-format printer"),
        "mats": Opt("enum", choices=("full", "compact"), default="full",
                    doc="compact: a play mat that offers a compact layout (`compact:` in its mats file) "
                    "prints it, on fewer sheets"),
    }),
    "card_sizes": Opt("map", required=True, doc="named card sizes: {name: {width, height}}"),
    "colors": Opt("map", default={}, doc="palette: name → '#rrggbb'"),
    "icons": Opt("map", default={},
                 doc="icons: name → {glyph, color, draw (its pictogram), words (its glossary entry)}"),
    "fonts": Opt("map", default={}, doc="font roles → bundled font names"),
    "card_types": Opt("map", required=True, doc="card types: template, back, size, fields"),
    "printables": Opt("list", item=Opt("str"), required=True, doc="what `cardgen build` writes"),
    "collections": Opt("map", default={}, doc="deck-like file kinds: {kind: {folder, keys, doc}}"),
    "tokens": Opt("list", default=[], doc="token sheets: counters to print"),
    "limits": Opt("map", default={}, fields={
        "copies": Opt("int", min=1, max=10**6, default=DEFAULT_LIMITS["copies"],
                      doc="most copies of one card design"),
        "count": Opt("int", min=1, max=10**6, default=DEFAULT_LIMITS["count"],
                     doc="most pieces of one component or token"),
    }, doc="upper bounds that keep a typo from exhausting memory in build"),
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
    "keys": Opt("list", item=Opt("str"), default=[],
                doc="keys such a file may hold besides name, cards, notes"),
    "doc": Opt("str", default=None, doc="what such a file is"),
}


ICON_SPEC = {"glyph": Opt("str", required=True,
                          doc="the character standing for the icon where it cannot be drawn "
                          "(plain-text exports; an icon with no drawing)"),
             "color": Opt("color", default=None),
             "draw": Opt("str", default=None,
                         doc="the drawn pictogram (sword, shield, skull, …) printed wherever the "
                         "icon stands: card and rulebook text, an icon element, a badge, an art placeholder"),
             "words": Opt("str", default=None,
                          doc="what the icon stands for, in the rulebook's Icons glossary "
                          "(an icon with no words is left out of it)")}

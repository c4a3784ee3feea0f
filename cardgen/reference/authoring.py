"""The reference part of ``docs/authoring.md``, generated from the code so it cannot drift: every
template element kind with its options, the card field declarations, every constraint kind with
its arguments, the glyph coverage of the bundled fonts and what a game package may provide.
``tests/test_standalone.py`` keeps the checked-in text current (``make goldens`` rewrites it)."""

from __future__ import annotations

import dataclasses
import inspect
import re

from cardgen.content import constraints
from cardgen.core.fonts import available, charset
from cardgen.core.options import KINDS as OPTION_KINDS
from cardgen.core.options import MISSING, Opt
from cardgen.layout.elements import KINDS
from cardgen.play.package import GamePackage
from cardgen.reference.logschema import type_text

BEGIN = "<!-- begin generated reference: make goldens (pytest --update-goldens) -->"
END = "<!-- end generated reference -->"

COMMON = {"kind": "the element kind (below)",
          "x": "across from the trim's left (length, default 0): the element's left edge — but the centre of a "
               "`badge` or an `icon`, and a `line`'s start",
          "y": "down from the trim's top (length, default 0): the element's top edge — but the centre of a "
               "`badge` or an `icon`, and a `line`'s start",
          "when": "a Jinja2 test; the element is drawn only where it is true",
          "remove": "true: drop an element inherited through `extends`",
          "callout": "the part's name for players (\"Health\"): an annotated picture of the card in the rulebook "
                     "(`![…](card:ID \"annotated\")`) points it out"}

#: symbols designers reach for, by family; the table says which each bundled font can print
SYMBOLS = {
    "arrows": "←↑→↓↔↕⇒⇐", "shapes": "■□▲△▼▽◆◇●○★☆", "suits": "♠♣♥♦♤♧♡♢",
    "dice": "⚀⚁⚂⚃⚄⚅", "marks": "✓✔✗✘×÷±−–—…•·°", "math": "≤≥≠≈∞√∑",
    "weather/misc": "☀☁☂☃☠☢⚔⚡⚑", "superscripts": "¹²³⁴⁵", "fractions": "½⅓¼¾",
}


def _default(opt: Opt) -> str:
    if opt.required:
        return "required"
    if opt.default is MISSING or opt.default is None:
        return "—"
    return opt.kind.doc_default(opt.default)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def elements_md() -> list[str]:
    out = ["### Template elements", "", "Every element takes these keys:", "", "| key | meaning |", "| --- | --- |"]
    out += [f"| `{k}` | {v} |" for k, v in COMMON.items()]
    out.append("")
    for name, mod in sorted(KINDS.items()):
        doc = _cell((mod.__doc__ or "").strip().split("\n\n")[0])
        out += [f"#### `{name}`", "", doc, "", "| option | type | default | meaning |", "| --- | --- | --- | --- |"]
        out += [f"| `{k}` | {_cell(type_text(o))}{o.kind.doc_note()} | {_default(o)} | {_cell(o.doc)} |" for k, o in mod.SPEC.items()
                if k not in COMMON]
        out.append("")
    return out


def fields_md() -> list[str]:
    types = ", ".join(f"`{t}`" for t, kind in OPTION_KINDS.items() if kind.by_name)
    return ["### Card field declarations (`card_types.<type>.fields` in game.yaml)", "",
            f"A field is a type name ({types}) or a mapping:", "",
            "| key | meaning |", "| --- | --- |",
            "| `type` | one of the type names |",
            "| `enum` | a list of allowed values, or `{param: name}`: the list in params.yaml |",
            "| `min`, `max` | bounds of a number: a number or `{param: name}` |",
            "| `optional` | true: the card may leave it out (absent fields are `none` in templates) |",
            "| `default` | the value when the card leaves it out |",
            "| `item` | the type of each item of a `list` |",
            "| `fields` | the fields of a `map`, declared the same way |",
            "| `ref` | the value (or each item) is the id of a card of this card type (`CARD-REF`) |",
            "| `rule` | a bad value is reported under this catalogue rule ID |",
            "| `doc` | what the field means |", "",
            "A card type's own `rule:` (beside `template` and `fields`) is the rule of each of its fields "
            "that names none (a Dinosaur's `rule: BDB-CARD-2`: its bad or missing values break BDB-CARD-2).", ""]


def constraints_md() -> list[str]:
    out = ["### Constraint kinds (`constraints.yaml`)", "",
           "Every constraint takes `rule` (its catalogue ID), `kind`, `of` (the collection: `cards`, "
           "`components` or a deck-like kind), `label` and `doc`. Arguments:", "",
           "| argument | must be |", "| --- | --- |"]
    out += [f"| `{k}` | {what} |" for k, (_, what) in sorted(constraints.ARG_TYPES.items())
            if k not in ("rule", "kind", "of", "label", "doc")]
    out += ["", "| kind | what it checks |", "| --- | --- |"]
    for name, fn in constraints.KINDS.items():
        doc = _cell((fn.__doc__ or "").strip().split("\n\n")[0]) or "—"
        needs = constraints.NEEDS.get(name, ())
        out.append(f"| `{name}` | {doc}{' Needs ' + ', '.join(f'`{n}`' for n in needs) + '.' if needs else ''} |")
    return [*out, ""]


def glyphs_md() -> list[str]:
    fonts = available()
    out = ["### Glyph coverage of the bundled fonts", "",
           "What each font can print of the symbols designers reach for (any other character: "
           "`cardgen validate` says `TEXT-GLYPH`). A symbol no font has is better drawn as an icon "
           "(`icons:` in game.yaml) or an image.", "",
           "| symbols | " + " | ".join(f.replace("Liberation", "") for f in fonts) + " |",
           "| --- |" + " --- |" * len(fonts)]
    for fam, chars in SYMBOLS.items():
        cells = []
        for f in fonts:
            have = "".join(c for c in chars if ord(c) in charset(f))
            cells.append("all" if have == chars else (have or "none"))
        out.append(f"| {fam}: {chars} | " + " | ".join(cells) + " |")
    return [*out, ""]


def package_md() -> list[str]:
    docs: dict[str, str] = {}
    pending: list[str] = []
    for line in inspect.getsource(GamePackage).splitlines():       # ``#:`` comments above each field
        if m := re.match(r"\s*#:\s*(.*)", line):
            pending.append(m.group(1))
        elif m := re.match(r"\s*(\w+):", line):
            docs[m.group(1)], pending = " ".join(pending), []
    out = ["### The game package (`cardgen/games/<game>/__init__.py`)", "",
           "`PACKAGE = GamePackage(...)` (cardgen/play/package.py); every entry is optional:", "",
           "| entry | what it is |", "| --- | --- |"]
    out += [f"| `{f.name}` | {_cell(docs.get(f.name, ''))} |" for f in dataclasses.fields(GamePackage)]
    out += ["", "The play core (`cardgen/play/`) provides `GameState` and `Action` (api.py: `CHANCE`, "
            "`TERMINAL`), `BaseEngine` and `Referee` (referee.py: `violation`, `die`, `claim`, `trace`), "
            "`Params` (typed params.yaml), `Names` (lookup with did-you-mean), dice and draw outcomes, "
            "`Hand`, and seeded `play` with `as_jsonl`; tests/playkit.py is the self-consistency proof.", ""]
    return out


def reference() -> str:
    return "\n".join([BEGIN, "", "## Reference", "", *elements_md(), *fields_md(), *constraints_md(),
                      *glyphs_md(), *package_md(), END])


def refresh(text: str) -> str:
    """``text`` (docs/authoring.md) with its generated region replaced (appended when absent)."""
    if BEGIN in text and END in text:
        return text[: text.index(BEGIN)] + reference() + text[text.index(END) + len(END):]
    return text.rstrip("\n") + "\n\n" + reference() + "\n"

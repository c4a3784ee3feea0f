"""Playtest-log references generated from a rules engine's typed HEADER and EVENTS.

- A JSON Schema per game (``docs/schemas/<game>.schema.json``). It describes the YAML
  document form (header keys, ``events``, ``expect``, ``allow``); ``$defs/header`` and
  ``$defs/event`` describe the lines of the JSON Lines form. It is a guide for editors
  and programs that write logs: the checker stays the authority (it also resolves
  names, dice and the rules).
- The event reference of ``docs/playtest-logs.md``: a table per event kind, between the
  markers :data:`BEGIN` and :data:`END`.

``python -m cardgen.reference.logschema [GAME ...]`` writes the schemas of the named games (every
game with a rules engine when none is named) and refreshes the reference. The test
suite checks that both are current (``pytest --update-goldens`` rewrites them).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardgen import gamehooks
from cardgen.core.options import MISSING, Opt, json_schema
from cardgen.core.yamllib import yaml

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Keys every log may carry, whatever the game (see cardgen.builder.check._check_shape).
COMMON_HEADER = {
    "game": None,
    "rules_version": Opt("str", doc="the rules version the table played"),
    "title": Opt("str", doc="a title for the session"),
    "date": Opt("str", doc="when the session was played"),
    "notes": Opt("any", doc="free notes"),
}
COMMON_EVENT = {
    "note": Opt("any", doc="a free note on this event"),
    "turn": Opt("any", doc="free: the turn, as the table counted it"),
    "round": Opt("any", doc="free: the round, as the table counted it"),
}


def opt_schema(opt: Opt) -> dict[str, Any]:
    """The JSON Schema of one typed option (its kind's keywords, with its description and default)."""
    return json_schema(opt)


def event_schema(kind: str, spec: dict[str, Opt]) -> dict[str, Any]:
    props: dict[str, Any] = {"kind": {"const": kind}}
    for k, o in COMMON_EVENT.items():
        if k not in spec:
            props[k] = opt_schema(o)
    props.update({k: opt_schema(o) for k, o in spec.items()})
    return {"title": kind, "type": "object", "properties": props,
            "required": ["kind", *[k for k, o in spec.items() if o.required]], "additionalProperties": False}


def log_schema(slug: str, engine_cls: Any, title: str | None = None) -> dict[str, Any]:
    """The JSON Schema of ``slug``'s playtest logs, from ``engine_cls.HEADER`` and ``.EVENTS``."""
    header: dict[str, Any] = {"game": {"const": slug, "description": "the game's slug"}}
    for k, o in COMMON_HEADER.items():
        if o is not None and k not in engine_cls.HEADER:
            header[k] = opt_schema(o)
    header.update({k: opt_schema(o) for k, o in engine_cls.HEADER.items()})
    required = ["game", *[k for k, o in engine_cls.HEADER.items() if o.required]]
    events = [event_schema(k, spec) for k, spec in engine_cls.EVENTS.items()]
    expect = {"type": "object", "description": "claims about the final state, checked against the "
              "checker's 'final' (" + ", ".join(sorted(engine_cls.EXPECT_RULES)) + ")"}
    allow = {"type": "array", "description": "rules the table deliberately played differently: reported as notes",
             "items": {"type": "object", "required": ["rule", "reason"], "additionalProperties": False,
                       "properties": {"rule": {"type": "string"}, "reason": {"type": "string"}}}}
    doc_props = {**header, "events": {"type": "array", "items": {"$ref": "#/$defs/event"}},
                 "expect": expect, "allow": allow}
    return {
        "$schema": DRAFT,
        "title": f"{title or slug} playtest log",
        "description": "A playtest log for `cardgen check " + slug + "` (docs/playtest-logs.md). "
                       "Generated from the rules engine by cardgen.reference.logschema: do not edit.",
        "type": "object",
        "properties": doc_props,
        "required": [*required, "events"],
        "additionalProperties": False,
        "$defs": {
            "header": {"type": "object", "properties": header, "required": required, "additionalProperties": False,
                       "description": "the first line of the JSON Lines form"},
            "event": {"oneOf": [{"$ref": f"#/$defs/{k}"} for k in engine_cls.EVENTS],
                      "description": "one event: a line of the JSON Lines form"},
            **{k: e for k, e in zip(engine_cls.EVENTS, events)},
        },
    }


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def module_names() -> list[str]:
    """The game packages under ``cardgen.games``, not imported."""
    return gamehooks.installed()


def engine_of(slug: str) -> Any:
    """The game package's rules engine, or None when it has none."""
    return gamehooks.engine(slug)


def engines() -> dict[str, Any]:
    """Every game package under ``cardgen.games`` that defines an engine."""
    found = {slug: engine_of(slug) for slug in module_names()}
    return {slug: eng for slug, eng in found.items() if eng is not None}


# -- the Markdown event reference ----------------------------------------------------------

BEGIN = "<!-- begin generated event reference: python -m cardgen.reference.logschema (or pytest --update-goldens) -->"
END = "<!-- end generated event reference -->"


def type_text(opt: Opt) -> str:
    """The docs' type column of an option: "whole number 1–6", "list of text"."""
    return opt.kind.type_text(opt)


def _rows(fields: Mapping[str, Any], prefix: str = "") -> list[str]:
    rows = []
    for k, o in fields.items():
        need = "required" if o.required else ("default " + json.dumps(o.default) if o.default not in (MISSING, None)
                                              else "optional")
        doc = (o.doc or "").replace("|", "\\|")
        rows.append(f"| `{prefix}{k}` | {type_text(o)} | {need} | {doc} |")
        sub = o.kind.nested(o)
        if sub:
            rows += _rows(dict(sub), f"{prefix}{k}{o.kind.row_suffix}.")
    return rows


def markdown_reference(slug: str, engine_cls: Any, title: str | None = None) -> str:
    """The header keys and event kinds of ``slug``'s logs, as Markdown tables."""
    head = "| key | type | presence | meaning |\n| --- | --- | --- | --- |"
    out = [f"### {title or slug} (`{slug}`)", "",
           f"Schema: [`schemas/{slug}.schema.json`](schemas/{slug}.schema.json).", "",
           "Header (besides `game`, `rules_version`, `title`, `date`, `notes`):", "", head,
           *_rows(engine_cls.HEADER), ""]
    if engine_cls.EXPECT_RULES:
        out += ["`expect` may claim: " + ", ".join(f"`{k}` ({v})" for k, v in engine_cls.EXPECT_RULES.items()) + ".",
                ""]
    for kind, spec in engine_cls.EVENTS.items():
        out += [f"#### `{kind}`", ""]
        out += [head.replace("key", "field"), *_rows(spec), ""] if spec else ["No fields.", ""]
    return "\n".join(out)


def docs_reference(root: Path) -> str:
    """The generated part of docs/playtest-logs.md: every engine's reference."""
    parts = [markdown_reference(slug, eng, game_title(root, slug)) for slug, eng in engines().items()]
    return "\n".join([BEGIN, "", *parts, END])


def refresh_docs(text: str, reference: str) -> str:
    """``text`` with its generated region replaced by ``reference`` (appended when absent)."""
    if BEGIN in text and END in text:
        return text[: text.index(BEGIN)] + reference + text[text.index(END) + len(END):]
    return text.rstrip("\n") + "\n\n" + reference + "\n"


def docs_path(root: Path) -> Path:
    return root / "docs" / "playtest-logs.md"


def schema_path(root: Path, slug: str) -> Path:
    return root / "docs" / "schemas" / f"{slug}.schema.json"


def game_title(root: Path, slug: str) -> str:
    """The game's title from its game.yaml (the slug when unreadable)."""
    try:
        meta = yaml.safe_load((root / "rules" / slug / "game.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return slug
    return str(meta.get("title") or slug) if isinstance(meta, dict) else slug


def write(root: Path, slugs: list[str] | None = None) -> list[Path]:
    found = engines()
    out = []
    for slug in slugs or list(found):
        if slug not in found:
            raise SystemExit(f"cardgen.reference.logschema: no rules engine for {slug!r} (known: {', '.join(found)})")
        path = schema_path(root, slug)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(log_schema(slug, found[slug], game_title(root, slug))), encoding="utf-8")
        out.append(path)
    docs = docs_path(root)
    if docs.exists():
        docs.write_text(refresh_docs(docs.read_text(encoding="utf-8"), docs_reference(root)), encoding="utf-8")
        out.append(docs)
    return out


def main(argv: list[str] | None = None) -> None:
    root = Path.cwd()
    for p in write(root, list(argv if argv is not None else sys.argv[1:])):
        print(p)


if __name__ == "__main__":
    main()

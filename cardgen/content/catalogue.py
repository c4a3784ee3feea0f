"""Rule catalogues: the project's own knowledge of each game's rules, as data.

A game's catalogue is ``rules/<game>/catalogue.yaml``: the game's title, a paragraph about the
catalogue, and sections of rules, each rule an ID (stable), a statement and the project's
rulings (decisions where the designer's text is silent). A section says which command checks
its rules: ``validate`` (content and construction) or ``check`` (play, replayed from logs); a rule may say otherwise,
or ``rulebook`` — stated for the players, checked by no command under its own ID.

The framework's own rule IDs (``YAML-TYPE``, ``LOG-FIELD`` …) are ``cardgen/framework_rules.yaml``,
in groups; ``docs/problems.md`` is generated from it and each game's ``docs/rules/<game>.md``
from its catalogue (``pytest --update-goldens`` rewrites both).
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path

from cardgen.content.gamefiles import list_games
from cardgen.core import sources
from cardgen.core.options import Opt, check_mapping
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, load_yaml, loc_of, parse_yaml

FRAMEWORK_FILE = Path(__file__).parent.parent / "framework_rules.yaml"
RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+$")
CHECKED_BY = ("validate", "check", "rulebook")     # rulebook: stated for players, no command checks it by ID

CATALOGUE_SPEC: dict[str, Opt] = {
    "game": Opt("str", required=True, doc="the game's title"),
    "about": Opt("str", default="", doc="where the rules come from; what a ruling is"),
    "sections": Opt("list", required=True, doc="the catalogue's sections, in order"),
}
SECTION_SPEC: dict[str, Opt] = {
    "name": Opt("str", required=True, doc="the section's heading"),
    "checked_by": Opt("enum", choices=CHECKED_BY, required=True,
                      doc="`validate` for content and construction rules, `check` for play rules"),
    "rules": Opt("list", required=True, doc="the section's rules"),
}
RULE_SPEC: dict[str, Opt] = {
    "id": Opt("str", required=True, doc="the stable rule ID, e.g. BW-ATK-6"),
    "title": Opt("str", default=None, doc="a short title (default: the statement's opening words)"),
    "statement": Opt("str", required=True, doc="the rule as the game states it"),
    "rulings": Opt("list", item=Opt("str"), default=[], doc="the project's decisions where the text is silent"),
    "checked_by": Opt("enum", choices=CHECKED_BY, default=None, doc="overrides the section's `checked_by`"),
}
FRAMEWORK_SPEC: dict[str, Opt] = {
    "intro": Opt("str", default="", doc="the opening paragraph of docs/problems.md"),
    "groups": Opt("list", required=True, doc="groups of rules, each {name, intro, after, rules}"),
}
GROUP_SPEC: dict[str, Opt] = {
    "name": Opt("str", required=True), "intro": Opt("str", default=""), "after": Opt("str", default=""),
    "severity": Opt("bool", default=False, doc="the group's table has a severity column"),
    "rules": Opt("list", required=True),
}
FRAMEWORK_RULE_SPEC: dict[str, Opt] = {
    "id": Opt("str", required=True), "severity": Opt("enum", choices=("error", "warning", "note"), default="error"),
    "meaning": Opt("str", required=True),
}


@record(frozen=True)
class Rule:
    """One rule of a catalogue (or of the framework's list)."""

    id: str
    section: str
    statement: str
    rulings: tuple[str, ...] = ()
    checked_by: str = "check"
    title: str = ""
    loc: Loc | None = None
    severity: str = "error"


@record
class Catalogue:
    """A game's rule catalogue: its rules in order, by ID."""

    slug: str
    game: str
    about: str
    path: Path
    sections: list[tuple[str, str]] = field(default_factory=list)     # (name, checked_by)
    rules: dict[str, Rule] = field(default_factory=dict)

    def in_scope(self, checked_by: str = "check") -> list[str]:
        return [r.id for r in self.rules.values() if r.checked_by == checked_by]

    @property
    def prefix(self) -> str:
        """The ID prefix its rules share (``BW`` for ``BW-ATK-6``), or '' for an empty catalogue."""
        firsts = {rid.split("-")[0] for rid in self.rules}
        return firsts.pop() if len(firsts) == 1 else ""


def title_of(statement: str) -> str:
    """A rule's short title from its statement: the words before a colon, else its first sentence,
    cut at a word to at most 60 characters."""
    text = " ".join(statement.replace("`", "").split())
    head = text.split(":")[0]
    if ":" in text and len(head) <= 48:
        return head
    first = re.split(r"(?<=[.;])\s", text)[0].rstrip(".;")
    if len(first) <= 60:
        return first
    return first[:60].rsplit(" ", 1)[0].rstrip(",;") + "…"


def catalogue_path(root: Path, slug: str) -> Path:
    return root / "rules" / slug / "catalogue.yaml"


def load_catalogue(root: Path, slug: str, problems: Problems) -> Catalogue | None:
    """A game's catalogue, its problems reported; None when the game has none (yet) or it is unusable."""
    path = catalogue_path(root, slug)
    if not path.is_file():
        return None
    raw = load_yaml(path, problems)
    if raw is None:
        return None
    top = check_mapping(raw, CATALOGUE_SPEC, problems, "catalogue.yaml")
    sections = top.values.get("sections")
    if not top.ok and not isinstance(sections, list):
        return None
    game, about = top.values.get("game"), top.values.get("about")
    cat = Catalogue(slug, game if isinstance(game, str) else slug, about if isinstance(about, str) else "", path)
    for si, sec in enumerate(sections if isinstance(sections, list) else []):
        s = check_mapping(sec, SECTION_SPEC, problems, "a catalogue section", at=loc_of(sections, si))
        name, by, rules = s.values.get("name"), s.values.get("checked_by"), s.values.get("rules")
        name = name if isinstance(name, str) else ""
        by = by if by in CHECKED_BY else "check"
        cat.sections.append((name, by))
        for ri, r in enumerate(rules if isinstance(rules, list) else []):
            v = check_mapping(r, RULE_SPEC, problems, f"a rule of section '{name}'", at=loc_of(rules, ri)).values
            rid, loc = v.get("id"), getattr(r, "loc", None)
            stmt = v.get("statement")
            if not isinstance(rid, str) or not isinstance(stmt, str) or not stmt.strip():
                continue            # reported by check_mapping (a missing or mistyped key)
            if not RULE_ID.match(rid):
                problems.error("RULES-CATALOGUE", f"rule ID '{rid}' is not of the form PREFIX-WORD-N (BW-ATK-6)",
                               r.at("id") if isinstance(r, YDict) else loc)
                continue
            if rid in cat.rules:
                first = cat.rules[rid].loc
                problems.error("RULES-CATALOGUE", f"rule ID '{rid}' appears twice in the catalogue (first at line "
                               f"{first.line if first else 0})",
                               r.at("id") if isinstance(r, YDict) else loc)
                continue
            rulings = tuple(x for x in v.get("rulings") or () if isinstance(x, str)) \
                if isinstance(v.get("rulings"), list) else ()
            title, by_rule = v.get("title"), v.get("checked_by")
            title = title if isinstance(title, str) and title.strip() else title_of(stmt)
            by_rule = by_rule if by_rule in CHECKED_BY else by
            cat.rules[rid] = Rule(rid, str(name), stmt, rulings, by_rule, title, loc)
    return cat


def load_framework_rules(problems: Problems | None = None) -> tuple[dict, dict[str, Rule]]:
    """The framework's own rules: (the file's checked top level, rules by ID)."""
    problems = problems if problems is not None else Problems()
    scratch = Problems()
    # package data, not a project source: read as shipped (the project's path checks do not apply)
    raw = parse_yaml(sources.read_bytes(FRAMEWORK_FILE, FRAMEWORK_FILE.parent).decode("utf-8"), str(FRAMEWORK_FILE),
                     scratch)
    problems.extend(p for p in scratch if p.rule != "YAML-MOJIBAKE")   # its examples of mojibake are meant
    top = check_mapping(raw, FRAMEWORK_SPEC, problems, "framework_rules.yaml").values
    out: dict[str, Rule] = {}
    groups = []
    for g in top.get("groups") or []:
        gv = check_mapping(g, GROUP_SPEC, problems, "a rule group").values
        rows = []
        for r in gv.get("rules") or []:
            rv = check_mapping(r, FRAMEWORK_RULE_SPEC, problems, "a framework rule").values
            rule = Rule(rv["id"], gv["name"], rv["meaning"], (), "validate", rv["meaning"], getattr(r, "loc", None),
                        rv.get("severity") or "error")
            out.setdefault(rule.id, rule)
            rows.append(rule)
        groups.append({**gv, "rules": rows})
    return {**top, "groups": groups}, out


def all_rules(root: Path, problems: Problems | None = None) -> dict[str, Rule]:
    """Every rule the project knows: the framework's, then every game's catalogue."""
    problems = problems if problems is not None else Problems()
    _, out = load_framework_rules(problems)
    for slug in list_games(root):
        cat = load_catalogue(root, slug, problems)
        if cat is not None:
            out.update(cat.rules)
    return out


def rule_titles(root: Path) -> dict[str, str]:
    """Rule ID → its title, for the JSON output of problems."""
    return {rid: r.title for rid, r in all_rules(root).items()}

"""Documents generated from the rule data and the code: ``docs/rules/<game>.md`` from a game's
catalogue, ``docs/problems.md`` from the framework's rule list, and the reference part of
``docs/authoring.md`` (cardgen.reference.authoring). Tests keep the checked-in files current
(``pytest --update-goldens`` rewrites them)."""

from __future__ import annotations

from pathlib import Path

from cardgen.content.catalogue import Catalogue, Rule, load_catalogue, load_framework_rules
from cardgen.content.gamefiles import list_games
from cardgen.core import sources
from cardgen.core.problems import Problems
from cardgen.reference.authoring import refresh as refresh_reference

GENERATED = "<!-- generated from {src} by cardgen; edit that file, then run `pytest --update-goldens` -->"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def rule_text(rule: Rule) -> str:
    """The statement followed by its rulings, as one paragraph."""
    parts = [" ".join(rule.statement.split())]
    parts += [f"**Ruling:** {' '.join(r.split())}" for r in rule.rulings]
    return " ".join(parts)


def _by(rule: Rule, section_by: str) -> str:
    if rule.checked_by == section_by:
        return ""
    return {"validate": " *(checked by `cardgen validate`)*", "check": " *(checked by `cardgen check`)*",
            "rulebook": " *(stated in the rulebook; no command checks it)*"}[rule.checked_by]


def catalogue_markdown(cat: Catalogue, root: Path) -> str:
    """A game's catalogue as Markdown: one table of rules per section."""
    src = cat.path.relative_to(root).as_posix()
    out = [f"# {cat.game} — rules catalogue", "", GENERATED.format(src=src), ""]
    if cat.about:
        out += [" ".join(cat.about.split()), ""]
    for name, by in cat.sections:
        rules = [r for r in cat.rules.values() if r.section == name]
        what = "`cardgen validate`" if by == "validate" else "`cardgen check`"
        out += [f"## {name}", "", f"Checked by {what}.", "", "| ID | rule |", "| --- | --- |"]
        out += [f"| {r.id} | {_cell(rule_text(r))}{_by(r, by)} |" for r in rules]
        out.append("")
    return "\n".join(out)


def problems_markdown() -> str:
    """docs/problems.md: the framework's rule IDs, by group."""
    top, _ = load_framework_rules()
    out = ["# Problem rule IDs", "", GENERATED.format(src="cardgen/framework_rules.yaml"), ""]
    if top.get("intro"):
        out += [" ".join(top["intro"].split()), ""]
    for g in top["groups"]:
        if g.get("intro"):
            out += [" ".join(g["intro"].split()), ""]
        if g.get("severity"):
            out += ["| rule | severity | meaning |", "| --- | --- | --- |"]
            out += [f"| `{r.id}` | {r.severity} | {_cell(r.statement)} |" for r in g["rules"]]
        else:
            out += ["| rule | meaning |", "| --- | --- |"]
            out += [f"| `{r.id}` | {_cell(r.statement)} |" for r in g["rules"]]
        out.append("")
        if g.get("after"):
            out += [" ".join(g["after"].split()), ""]
    return "\n".join(out)


def generated_docs(root: Path) -> dict[Path, str]:
    """Every generated document of the project: path → its current text."""
    docs: dict[Path, str] = {root / "docs" / "problems.md": problems_markdown()}
    authoring = root / "docs" / "authoring.md"
    if authoring.is_file():
        docs[authoring] = refresh_reference(sources.read_bytes(authoring, root).decode("utf-8"))
    for slug in list_games(root):
        cat = load_catalogue(root, slug, Problems())
        if cat is not None:
            docs[root / "docs" / "rules" / f"{slug}.md"] = catalogue_markdown(cat, root)
    return docs

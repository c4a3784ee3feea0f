"""``cardgen rules explain RULE-ID``: everything the project knows of one rule — its catalogue
entry (title, game, section, statement, rulings), the rulings of the game's ``params.yaml`` that
name it, and where the current rulebook states it (the chapter lines tagged ``rule="…"``)."""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path

from cardgen.content.catalogue import Catalogue, Rule, load_catalogue, load_framework_rules
from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.core import sources
from cardgen.core.lazymod import lazy
from cardgen.core.problems import Problems, display_path
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, load_yaml, plain

rulebook = lazy("cardgen.rulebook")             # the rulebook's Jinja and names: only when a ruling
rulebook_jinja = lazy("cardgen.rulebook.jinja")     # holds an expression ({{ params.… }}, {{ cards.… }})

_TAG = re.compile(r'\brule="([^"]*)"')


@record
class Explained:
    """One rule and where the project states, decides and prints it."""

    rule: Rule
    game: str | None = None                 # the game's title; None for a framework rule
    slug: str | None = None
    rulings: list[tuple[str, str]] = field(default_factory=list)         # (file:line, text)
    rulebook: list[tuple[str, str]] = field(default_factory=list)        # (file:line, heading)

    def as_dict(self) -> dict:
        r = self.rule
        return {"id": r.id, "title": r.title, "game": self.slug, "section": r.section, "checked_by": r.checked_by,
                "severity": r.severity, "statement": " ".join(r.statement.split()),
                "rulings": [" ".join(x.split()) for x in r.rulings],
                "clarifications": [{"at": at, "text": t} for at, t in self.rulings],
                "rulebook": [{"at": at, "heading": h} for at, h in self.rulebook],
                "source": str(r.loc) if r.loc else None}

    def text(self) -> str:
        r = self.rule
        if self.game is None:
            return "\n".join([f"{r.id} ({r.severity}) — cardgen's own rule: {r.section}", "",
                              f"    {' '.join(r.statement.split())}", "", "Listed in cardgen/framework_rules.yaml "
                              "(docs/problems.md)."]) + "\n"
        how = {"validate": "checked by `cardgen validate`", "check": "checked by `cardgen check`",
               "rulebook": "stated in the rulebook; no command checks it by ID"}[r.checked_by]
        out = [f"{r.id} — {r.title}", f"{self.game} · {r.section} · {how}"]
        if r.loc:
            out.append(f"{r.loc}")
        out += ["", *_wrap(r.statement)]
        if r.rulings or self.rulings:
            out += ["", "Rulings:"]
            out += [f"  - {' '.join(x.split())}" for x in r.rulings]
            out += [f"  - {at}: {' '.join(t.split())}" for at, t in self.rulings]
        out += ["", "The rulebook states it:" if self.rulebook else "The rulebook has no section tagged with it."]
        out += [f"  {at}: {h}" for at, h in self.rulebook]
        return "\n".join(out) + "\n"


def _wrap(text: str, width: int = 92) -> list[str]:
    lines, cur = [], "   "
    for w in text.split():
        if len(cur) + len(w) + 1 > width:
            lines.append(cur)
            cur = "   "
        cur += " " + w
    return [*lines, cur]


def known_ids(root: Path) -> tuple[dict[str, tuple[Rule, Catalogue | None]], Problems]:
    """Every rule ID of the project, with its game's catalogue (None for the framework's)."""
    problems = Problems()
    _, fw = load_framework_rules(problems)
    out: dict[str, tuple[Rule, Catalogue | None]] = {rid: (r, None) for rid, r in fw.items()}
    for slug in list_games(root):
        cat = load_catalogue(root, slug, problems)
        if cat is not None:
            out.update({rid: (r, cat) for rid, r in cat.rules.items()})
    return out, problems


def explain(root: Path, rid: str) -> Explained | None:
    rules, _ = known_ids(root)
    if rid not in rules:
        return None
    rule, cat = rules[rid]
    if cat is None:
        return Explained(rule)
    ex = Explained(rule, cat.game, cat.slug)
    params_file = root / "rules" / cat.slug / "params.yaml"
    params = load_yaml(params_file, Problems()) if params_file.is_file() else None
    names: dict | None = None
    for r in (params.get("rulings") or []) if isinstance(params, dict) else []:
        if isinstance(r, YDict) and r.get("id") == rid and isinstance(r.get("text"), str):
            loc = r.loc
            if names is None and ("{{" in r["text"] or "{%" in r["text"]):
                names = context(root, cat.slug, params if isinstance(params, dict) else {})
            ex.rulings.append((f"{display_path(loc.file)}:{loc.line}" if loc else display_path(str(params_file)),
                               filled(r["text"], names or {})))
    folder = root / "rules" / cat.slug / "rulebook"
    for md in [] if sources.escapes(folder, root) else sorted(folder.glob("*.md")):    # (linked out: not listed)
        try:
            lines = sources.read_bytes(md, root).decode("utf-8", "replace").splitlines()
        except sources.SourceError:         # `cardgen validate` reports it
            continue
        for i, ln in enumerate(lines):
            m = _TAG.search(ln)
            if m and rid in m.group(1).split():
                head = next((x.strip() for x in lines[i + 1:i + 3] if x.startswith("#")), ln.strip())
                ex.rulebook.append((f"{display_path(str(md))}:{i + 2 if head != ln.strip() else i + 1}", head))
    return ex


def context(root: Path, slug: str, params: dict) -> dict:
    """The names a ruling's expressions see, the rulebook's (``params``, ``cards``, ``game``…); just
    ``params`` when the game does not load."""
    game = load_game(root, slug, Problems())
    if game is None:
        return {"params": plain(params)}
    book = rulebook.Rulebook(game, Problems())
    return dict(rulebook_jinja.build_context(game, book.current, book.versions))


def filled(text: str, names: dict) -> str:
    """A ruling's text with its ``{{ params.… }}`` and ``{{ cards.… }}`` filled in, as the rulebook
    prints it; the text as written when it is no valid expression (``cardgen validate`` says why)."""
    if "{{" not in text and "{%" not in text:
        return text
    try:
        env = rulebook_jinja.make_environment([], list(names))
        return str(env.from_string(text).render(**names))
    except Exception:  # noqa: BLE001 - any Jinja error: the text as written
        return text

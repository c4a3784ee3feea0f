"""The rule registry: every rule ID cardgen can report exists — in its game's catalogue
(``rules/<game>/catalogue.yaml``) or in the framework's own list (``cardgen/framework_rules.yaml``).

Reporters, read from the code and the data: the framework's ``error("…")``/``warning``/``note``,
``LogError("…")``, ``violation("…")`` and ``rule = "…"`` (cardgen/ outside the game packages);
each game's engine and package (quoted IDs of its catalogue's prefix); each game's constraints
(``rule:``), card field declarations (``rule:``), rulings (``params.yaml``'s ``rulings``) and the
rulebook's tags (``rule="…"``). Every game of the project, however many."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.content.catalogue import all_rules, load_catalogue, load_framework_rules
from cardgen.content.gamefiles import list_games
from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import load_yaml, plain
from tests.conftest import ROOT

GAMES = list_games(ROOT)
ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+"
_REPORTED = re.compile(rf'(?:\b(?:error|warning|note|LogError|violation)\(\s*|\brule\s*=\s*|_rule\s*=\s*)"({ID})"')


def game_code(slug: str) -> list[Path]:
    """A game's own code: its package under cardgen/games/."""
    return sorted((ROOT / "cardgen" / "games" / slug).rglob("*.py"))


def framework_code() -> list[Path]:
    games = ROOT / "cardgen" / "games"
    return [p for p in sorted((ROOT / "cardgen").rglob("*.py")) if not p.is_relative_to(games) or p.parent == games]


def test_every_rule_the_framework_reports_is_in_its_list():
    _, known = load_framework_rules()
    known = {**known, **all_rules(ROOT)}        # a docstring may cite a catalogue's ID as an example
    reported: dict[str, str] = {}
    for p in framework_code():
        for m in _REPORTED.finditer(p.read_text(encoding="utf-8")):
            reported.setdefault(m.group(1), str(p.relative_to(ROOT)))
    assert {"YAML-TYPE", "LOG-FIELD", "RULES-PARAM", "TEXT-GLYPH"} <= set(reported), sorted(reported)
    missing = {rid: where for rid, where in reported.items() if rid not in known}
    assert not missing, f"reported but not in cardgen/framework_rules.yaml: {missing}"


def _yaml_rule_refs(slug: str) -> dict[str, str]:
    """Rule IDs the game's YAML names: constraints, field declarations, rulings, rulebook tags."""
    refs: dict[str, str] = {}
    rules = ROOT / "rules" / slug

    def walk(node, where: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "rule" and isinstance(v, str) and re.fullmatch(ID, v):
                    refs.setdefault(v, where)
                walk(v, where)
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    for name in ("constraints.yaml", "game.yaml"):
        if (rules / name).is_file():
            walk(plain(load_yaml(rules / name, Problems())), f"rules/{slug}/{name}")
    params = plain(load_yaml(rules / "params.yaml", Problems())) if (rules / "params.yaml").is_file() else {}
    for r in (params or {}).get("rulings") or []:
        if isinstance(r, dict) and isinstance(r.get("id"), str):
            refs.setdefault(r["id"], f"rules/{slug}/params.yaml (rulings)")
    for md in sorted((rules / "rulebook").glob("*.md")):
        for m in re.finditer(r'\brule="([^"]*)"', md.read_text(encoding="utf-8")):
            for rid in m.group(1).split():
                refs.setdefault(rid, str(md.relative_to(ROOT)))
    return refs


@pytest.mark.parametrize("slug", GAMES)
def test_every_rule_a_game_names_is_in_its_catalogue(slug):
    cat = load_catalogue(ROOT, slug, Problems())
    known = all_rules(ROOT)
    own = set(cat.rules) if cat else set()
    refs = _yaml_rule_refs(slug)
    code = "".join(p.read_text(encoding="utf-8") for p in game_code(slug))
    if cat is not None and cat.prefix:
        for rid in re.findall(rf'"({cat.prefix}-[A-Z0-9]+-\d+)"', code):
            refs.setdefault(rid, f"the {slug} engine")
    for m in _REPORTED.finditer(code):         # framework IDs the game's code reports (LOG-FIELD …)
        refs.setdefault(m.group(1), f"the {slug} engine")
    if cat is None:
        own_refs = sorted(rid for rid in refs if rid not in known)
        assert not own_refs, f"{slug} names rules but has no rules/{slug}/catalogue.yaml: {own_refs}"
        return
    stray = {rid: where for rid, where in refs.items() if rid not in own and rid not in known}
    assert not stray, f"{slug}: rule IDs in no catalogue: {stray}"
    foreign = {rid: where for rid, where in refs.items() if rid not in own and known.get(rid)
               and known[rid].checked_by != "validate" and "-" in rid and rid.split("-")[0] != cat.prefix}
    assert not foreign, f"{slug} names another game's rules: {foreign}"

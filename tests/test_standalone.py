"""The repository stands alone: the suite never reads beside the clone (the audit hook of
conftest fails any test that does), the rule catalogues are the project's own data, and the
documents generated from them are current (``pytest --update-goldens`` rewrites them)."""

from __future__ import annotations

import difflib
import os
import shutil

import pytest

from cardgen.content.catalogue import load_catalogue, load_framework_rules
from cardgen.content.gamefiles import list_games
from cardgen.core.problems import Problems
from cardgen.reference.ruledocs import generated_docs
from tests import conftest
from tests.conftest import ROOT, run_cli

GAMES = list_games(ROOT)


def test_a_read_beside_the_clone_fails_the_test():
    beside = ROOT.parent / "shared" / "specs" / "README.md"
    n = len(conftest.OUTSIDE)
    with pytest.raises(conftest.OutsideTheClone):
        beside.read_text(encoding="utf-8")
    with pytest.raises(conftest.OutsideTheClone):
        os.listdir(ROOT.parent / "shared")
    assert len(conftest.OUTSIDE) >= n + 2
    del conftest.OUTSIDE[n:]            # provoked on purpose: not a failure of the session
    (ROOT / "pyproject.toml").read_text(encoding="utf-8")          # inside: fine


def test_nothing_in_the_code_or_the_makefile_names_a_folder_beside_the_clone():
    texts = {p: p.read_text(encoding="utf-8") for p in [*ROOT.glob("cardgen/**/*.py"), *ROOT.glob("tests/*.py"),
                                                        ROOT / "Makefile"]}
    bad = [str(p.relative_to(ROOT)) for p, t in texts.items()
           if p.name not in ("test_standalone.py", "conftest.py") and ('"shared"' in t or "parent.parent.parent" in t)]
    assert not bad, bad


@pytest.mark.parametrize("slug", GAMES)
def test_every_catalogue_loads_without_problems(slug):
    problems = Problems()
    cat = load_catalogue(ROOT, slug, problems)
    assert not problems.items, [p.text() for p in problems]
    if cat is None:
        pytest.skip(f"{slug} has no catalogue yet")
    assert cat.rules and cat.prefix, slug
    for r in cat.rules.values():
        assert r.statement and r.title and r.section and r.checked_by in ("validate", "check", "rulebook"), r


def test_the_framework_rules_load_and_are_distinct_from_every_game():
    problems = Problems()
    top, rules = load_framework_rules(problems)
    assert not problems.items and len(rules) > 40 and {"YAML-TYPE", "LOG-FIELD", "RULEBOOK-LINK"} <= set(rules)
    for slug in GAMES:
        cat = load_catalogue(ROOT, slug, Problems())
        assert not (cat and set(cat.rules) & set(rules)), slug


def test_generated_documents_are_current(update_goldens):
    docs = generated_docs(ROOT)
    assert ROOT / "docs" / "problems.md" in docs
    stale = []
    for path, text in docs.items():
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old == text:
            continue
        if update_goldens:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        else:
            stale.append(f"{path.relative_to(ROOT)}:\n" + "".join(list(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), "checked in", "generated"))[:20]))
    for path in sorted((ROOT / "docs" / "rules").glob("*.md")):      # a catalogue's page whose game is gone
        if path not in docs:
            if update_goldens:
                path.unlink()
            else:
                stale.append(f"{path.relative_to(ROOT)}: no longer generated (its game has no catalogue)")
    assert not stale, "stale generated documents (run `make goldens`):\n" + "\n".join(stale)


def test_validate_reports_a_broken_catalogue_at_its_line(game_copy):
    g = game_copy("bone_wars")
    line = g.edit("rules/bone_wars/catalogue.yaml", "  - id: BW-SETUP-2\n", "  - id: BW-SETUP-1\n")
    g.edit("rules/bone_wars/catalogue.yaml", "checked_by: check", "checked_by: sometimes")
    code, probs = g.validate()
    assert code == 1
    assert any(p["rule"] == "RULES-CATALOGUE" and p["line"] == line and "twice" in p["message"] for p in probs), probs
    assert any(p["rule"] == "YAML-TYPE" and "checked_by" in p["message"] for p in probs), probs


def test_a_game_without_a_rulebook_yet_builds_what_it_has(game_copy):
    g = game_copy("bone_wars")
    shutil.rmtree(g.path("rules/bone_wars/rulebook"))
    shutil.rmtree(g.path("rules/bone_wars/versions"))
    g.only("cards", "rulebook")
    code, probs, out = g.build()
    assert code == 0, probs
    assert [p["rule"] for p in probs] == ["RULEBOOK-META"] and probs[0]["severity"] == "warning"
    assert (out / "cards.pdf").is_file() and not (out / "rulebook.pdf").exists()


@pytest.mark.parametrize("text", [
    "", "[]", "game: X\nsections: 3\n", "game: X\nsections: [3, [a], {name: 1, checked_by: no, rules: 7}]\n",
    "game: [X]\nabout: {a: 1}\nsections:\n- name: S\n  checked_by: check\n  rules:\n  - {id: 5, statement: [x]}\n"
    "  - {id: X-A-1, statement: '', rulings: 3, title: [t]}\n  - {id: X-A-2, statement: ok, rulings: [1, two], "
    "title: 7, checked_by: maybe}\n  - 9\n",
    "game: X\nsections:\n- name: S\n  checked_by: check\n  rules:\n  - {id: bad id, statement: s}\n",
    "\xff\xfe", "game: X\nsections:\n- {name: S, checked_by: check, rules: [{id: X-A-1, statement: s, x: 1}]}\n",
])
def test_a_hostile_catalogue_is_reported_never_raised(game_copy, text):
    g = game_copy("bone_wars")
    g.path("rules/bone_wars/catalogue.yaml").write_bytes(text.encode("utf-8", "surrogateescape")
                                                         if "\xff" not in text else b"\xff\xfe")
    code, probs = g.validate()
    assert code in (0, 1) and all(p["rule"] for p in probs)
    ex = run_cli("rules", "explain", "X-A-2", root=g.root)
    assert ex[0] in (0, 2)

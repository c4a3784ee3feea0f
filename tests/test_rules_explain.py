"""``cardgen rules explain RULE-ID`` and the rule titles of the JSON output, read from the
catalogues (``rules/<game>/catalogue.yaml``) and the framework's list."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cardgen.cli import main
from cardgen.content.catalogue import load_catalogue
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import Rulebook
from cardgen.rulebook.jinja import build_context
from tests.conftest import ROOT, problems_json, run_cli


def test_explain_prints_the_rule_its_section_rulings_and_rulebook_place():
    code, out = run_cli("rules", "explain", "BW-ATK-6")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "BW-ATK-6 — Blocked combat"
    assert lines[1] == "Bone Wars · Attacking and defending · checked by `cardgen check`"
    assert "attacker rolls d20 + Str, blocker rolls d20 + Def" in " ".join(out.split())
    # the ruling of params.yaml, with its line
    text = (ROOT / "rules" / "bone_wars" / "params.yaml").read_text(encoding="utf-8").splitlines()
    n = next(i for i, ln in enumerate(text, 1) if "{id: BW-ATK-6," in ln)
    assert f"params.yaml:{n}: Intimidating's Str penalty applies in full" in out
    # where the rulebook states it: the heading under the tag
    chapter = (ROOT / "rules" / "bone_wars" / "rulebook" / "04-combat.md").read_text(encoding="utf-8").splitlines()
    h = next(i for i, ln in enumerate(chapter, 1) if ln == "## The combat roll")
    assert f"04-combat.md:{h}: ## The combat roll" in out


def test_explain_prints_catalogue_rulings_and_json():
    code, out = run_cli("rules", "explain", "bw-atk-7", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["id"] == "BW-ATK-7" and doc["game"] == "bone_wars"
    assert doc["rulings"] == ["rounded down."] and doc["rulebook"]


def test_explain_a_framework_rule():
    code, out = run_cli("rules", "explain", "YAML-TYPE")
    assert code == 0 and out.startswith("YAML-TYPE (error) — cardgen's own rule") and "wrong type" in out


def test_an_unknown_rule_is_a_usage_error_with_the_nearest_id():
    res = CliRunner().invoke(main, ["--root", str(ROOT), "rules", "explain", "BW-ATK-66"])
    assert res.exit_code == 2 and "did you mean 'BW-ATK-6'?" in res.output


def test_json_problems_carry_the_rule_title(game_copy):
    code, probs = problems_json("check", "bone_wars", str(ROOT / "examples" / "logs" / "bone_wars" / "table-slips.yaml"))
    cat = load_catalogue(ROOT, "bone_wars", Problems())
    assert code == 1 and probs
    for p in probs:
        if p["rule"] in cat.rules:
            assert p["title"] == cat.rules[p["rule"]].title
    g = game_copy("bone_wars")
    g.edit("rules/bone_wars/game.yaml", "duplex: long", "duplex: sideways")
    code, probs = g.validate()
    assert code == 1 and any(p["rule"] == "YAML-TYPE" and p["title"] == "a value of the wrong type" for p in probs), probs


def test_the_rulebook_reads_the_catalogue():
    game = load_game(ROOT, "bone_wars", Problems())
    book = Rulebook(game, Problems())
    ctx = build_context(game, book.current, book.versions)
    assert ctx["rules"]["BW-ATK-6"]["title"] == "Blocked combat"
    assert ctx["rules"]["BW-ATK-7"]["rulings"] == ["rounded down."]
    by_rule = {r["id"]: r for r in ctx["rulings_by_rule"]()}
    assert by_rule["BW-ATK-6"]["title"] == "Blocked combat" and by_rule["BW-ATK-6"]["texts"]


def test_rulings_print_their_parameters_filled_in():
    """A ruling of params.yaml written with ``{{ params.… }}`` prints its values, as the rulebook
    does (BW-CARD-3: "60 Part cards; at least 4 × 7 + 20 = 48"); its twin, a plain ruling, as written."""
    import yaml

    from cardgen.reference.explain import explain, filled
    ids = set()
    for params in sorted((ROOT / "rules").glob("*/params.yaml")):
        for r in yaml.safe_load(params.read_text(encoding="utf-8")).get("rulings") or []:
            if "{{" in r.get("text", ""):
                ids.add(r["id"])
    assert len(ids) >= 5
    for rid in sorted(ids):
        ex = explain(ROOT, rid)
        assert ex is not None and ex.rulings and not any("{{" in t or "}}" in t for _, t in ex.rulings), (rid, ex.rulings)
    ex = explain(ROOT, "BW-CARD-3")
    assert ex is not None and any("60 Part cards; at least 4 × 7 + 20 = 48" in t for _, t in ex.rulings), ex.rulings
    assert filled("no parameters here", {}) == "no parameters here"
    assert filled("{{ params.nope.deeper }}", {}) == "{{ params.nope.deeper }}"      # broken: as written
    assert filled("d{{ params.die }}", {"params": {"die": 6}}) == "d6"

"""Games are data: a sixth game is files only, and the framework names no game.

A new game in a fresh project — YAML for its settings, parameters, constraints, cards and
templates, no Python — validates, lists its cards, builds true-to-size sheets and has its
broken constraints reported at their lines, without a line of ``cardgen/`` changed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardgen.builder.pipeline import validate
from cardgen.core.problems import Problems
from tests.conftest import ROOT, problems_json, qpdf_check, run_cli

MM = 72 / 25.4
SLUG = "pebble_race"

FILES = {
    f"rules/{SLUG}/game.yaml": """\
title: Pebble Race
designer: A. Tester
print: {paper: A4, bleed: 3mm, duplex: long, crop_marks: true}
card_sizes:
  mini: {width: 44mm, height: 68mm}
colors:
  ink: "#202020"
  sand: "#e8d9b0"
icons:
  step: {glyph: "→", color: ink}
card_types:
  runner:
    name: Runner
    template: front
    back: back
    size: mini
    fields:
      speed: {type: int, min: 1, max: {param: max_speed}}
      text: str
printables: [cards, duplex-calibration]
""",
    f"rules/{SLUG}/params.yaml": "players: {min: 2, max: 4}\nmax_speed: 6\nrunners: 4\n",
    f"rules/{SLUG}/constraints.yaml": """\
constraints:
  - {rule: PR-CARD-1, kind: count, where: {type: runner}, count: unique, exactly: {param: runners}}
""",
    f"cards/{SLUG}/runners.yaml": """\
defaults: {type: runner, copies: 2}
cards:
  - {id: hare, name: Hare, speed: 6, text: "Moves {step} six."}
  - {id: tortoise, name: Tortoise, speed: 1, text: "Never stops."}
  - {id: fox, name: Fox, speed: 4, text: "Sly."}
  - {id: crow, name: Crow, speed: 5, text: "Flies over pebbles."}
""",
    f"templates/{SLUG}/front.yaml": """\
elements:
  ground: {kind: rect, bleed: true, fill: sand}
  name: {kind: text, x: 3mm, y: 4mm, w: 38mm, h: 8mm, text: "{{ card.name }}", font: bold, size: 12, min_size: 8}
  speed: {kind: badge, x: 22mm, y: 30mm, r: 8mm, fill: ink, value: "{{ card.speed }}", size: 14, color: "#ffffff"}
  text: {kind: text, x: 3mm, y: 44mm, w: 38mm, h: 20mm, text: "{{ card.text }}", size: 9, min_size: 6}
""",
    f"templates/{SLUG}/back.yaml": """\
elements:
  ground: {kind: rect, bleed: true, fill: ink}
  title: {kind: text, x: 3mm, y: 30mm, w: 38mm, h: 8mm, text: "{{ game.title }}", font: bold, size: 12,
          min_size: 8, color: "#ffffff", align: center}
""",
}


def make_project(root: Path) -> Path:
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def test_a_yaml_only_game_validates_lists_and_builds_true_to_size(project):
    code, out = run_cli("validate", SLUG, "--format", "json", root=project)
    assert code == 0, out
    code, out = run_cli("cards", SLUG, "--format", "json", root=project)
    assert code == 0
    cards = json.loads(out)["cards"]
    assert sorted(c["id"] for c in cards) == ["crow", "fox", "hare", "tortoise"]
    assert all(c["copies"] == 2 and c["type"] == "runner" for c in cards)

    code, out = run_cli("build", SLUG, root=project)
    assert code == 0, out
    built = project / "build" / SLUG
    assert sorted(p.name for p in built.iterdir()) == ["cards.json", "cards.pdf", "duplex-calibration.pdf"]
    manifest = json.loads((built / "cards.json").read_text())
    fronts = [c for page in manifest["pages"] if page["side"] == "front" for c in page["cards"]]
    assert len(fronts) == 8                                        # 4 runners × 2 copies
    for c in fronts:
        _x, _y, w, h = c["trim"]
        assert abs(w - 44) < 0.1 and abs(h - 68) < 0.1             # the game's own card size
    reader = PdfReader(built / "cards.pdf")
    assert len(reader.pages) == 2                                  # one front sheet, its back
    text = reader.pages[0].extract_text()
    assert "Hare" in text and "Tortoise" in text
    for pdf in built.glob("*.pdf"):
        qpdf_check(pdf)


def test_a_yaml_only_game_has_its_rules_enforced_at_their_lines(project):
    cards = project / "cards" / SLUG / "runners.yaml"
    cards.write_text(cards.read_text().replace('  - {id: crow, name: Crow, speed: 5, text: "Flies over pebbles."}\n', ""))
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1
    assert [(p["rule"], Path(p["file"]).name, p["line"]) for p in probs] == [("PR-CARD-1", "constraints.yaml", 2)]
    assert not (project / "build").exists()


def test_a_card_that_fails_its_checks_is_not_counted_as_missing(project):
    """One broken card is one problem: the constraints that would count it wait for it."""
    cards = project / "cards" / SLUG / "runners.yaml"
    cards.write_text(cards.read_text().replace("speed: 6,", "speed: 7,"))      # above params' max_speed
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1
    assert [(Path(p["file"]).name, p["line"]) for p in probs] == [("runners.yaml", 3)], probs
    assert "speed" in probs[0]["message"]


def test_an_unreadable_card_file_makes_the_counts_wait(project):
    """One slip, one problem: the counts over the pool cannot know what the file holds, so they wait
    for it (issue 20); once it reads, the count it was hiding is reported."""
    more = project / "cards" / SLUG / "more.yaml"
    more.write_text("cards:\n  - {id: x, name: [X\n")
    cards = project / "cards" / SLUG / "runners.yaml"
    cards.write_text(cards.read_text().replace('  - {id: crow, name: Crow, speed: 5, text: "Flies over pebbles."}\n', ""))
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1
    assert [p["rule"] for p in probs] == ["YAML-SYNTAX"] and probs[0]["file"].endswith("more.yaml"), probs
    more.unlink()
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and any(p["rule"] == "PR-CARD-1" for p in probs), probs


def test_a_card_too_tall_for_the_paper_asked_for_is_a_problem_not_a_traceback(project):
    game = project / "rules" / SLUG / "game.yaml"
    game.write_text(game.read_text().replace("mini: {width: 44mm, height: 68mm}", "mini: {width: 100mm, height: 270mm}"))
    # inside the printer's 4.2 mm margins and 3 mm for crop marks, with ≥ 1 mm bleed: 272 mm of
    # A4's 282.6 mm, more than Letter's 265 mm
    code, probs = problems_json("build", SLUG, root=project)                  # fits A4
    assert code == 0, probs
    code, probs = problems_json("build", SLUG, "--paper", "Letter", root=project)   # not Letter
    assert code == 1 and [(p["rule"], Path(p["file"]).name, p["line"]) for p in probs] == \
        [("YAML-RANGE", "game.yaml", 5)], probs


def test_a_game_without_an_engine_says_check_is_not_supported(project, tmp_path):
    log = tmp_path / "log.yaml"
    log.write_text(f"game: {SLUG}\nevents: []\n")
    code, out = run_cli("check", SLUG, str(log), root=project)
    assert code == 2


def test_the_framework_names_no_game():
    """Outside the game packages (``cardgen/games/``) no module names a game by slug or title."""
    names = set()
    for game_file in (ROOT / "rules").glob("*/game.yaml"):
        names.add(game_file.parent.name)
        names.add(yaml.safe_load(game_file.read_text(encoding="utf-8"))["title"])
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names)), re.I)
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
            for p in sorted((ROOT / "cardgen").rglob("*.py")) if "games" not in p.relative_to(ROOT).parts
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert len(names) >= 10 and not hits, hits


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=60), st.sampled_from(["runner", "hare", "{step}", "{nope}", "â‰¥", "63mm"]))
KEYS = st.sampled_from(["id", "name", "type", "copies", "speed", "text", "set", "spped", "image"])
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(KEYS, inner, max_size=3)), max_leaves=6)
CARD_FILES = st.one_of(st.dictionaries(st.sampled_from(["cards", "defaults", "components", "extra"]),
                                       st.one_of(st.lists(st.dictionaries(KEYS, VALUES, max_size=7), max_size=4),
                                                 VALUES), max_size=3),
                       VALUES)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(CARD_FILES)
def test_no_card_file_makes_validation_raise(tmp_path, doc):
    """Whatever a card file holds, validation reports problems; it never raises."""
    root = tmp_path / "p"
    if not root.exists():
        make_project(root)
    (root / "cards" / SLUG / "fuzz.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    validate(root, SLUG, Problems())


ELEMENT_KEYS = st.sampled_from(["kind", "x", "y", "w", "h", "r", "text", "size", "min_size", "fill", "stroke",
                                "value", "when", "font", "align", "bleed", "src", "color", "remove", "shape"])
ELEMENT_VALUES = st.one_of(SCALARS, st.sampled_from(["text", "rect", "badge", "frame", "icon", "image", "line",
                                                     "5mm", "2.5in", "-3mm", "{{ card.name }}", "{{ card.nope }}",
                                                     "{{ 1/0 }}", "{% if %}", "card.speed > 3", "ink", "#12345",
                                                     "../../etc/passwd", "icon.png"]))
TEMPLATES = st.one_of(st.fixed_dictionaries({"elements": st.dictionaries(
                          st.text("abcxyz", min_size=1, max_size=4),
                          st.one_of(st.dictionaries(ELEMENT_KEYS, ELEMENT_VALUES, max_size=8), SCALARS), max_size=4)},
                          optional={"extends": st.sampled_from(["back", "front", "nope", 3])}),
                      VALUES)
CONSTRAINTS = st.fixed_dictionaries({"constraints": st.lists(st.dictionaries(
    st.sampled_from(["rule", "kind", "where", "except", "per", "exactly", "min", "max", "groups", "of", "field",
                     "count", "label", "totals", "group_by", "fields", "max_from"]),
    st.one_of(VALUES, st.sampled_from(["count", "copies", "sum", "declared_total", "required", "PR-X-1",
                                       {"type": "runner"}, {"param": "runners"}, {"param": "nope"}, "speed"]))),
    max_size=3)})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TEMPLATES, CONSTRAINTS)
def test_no_template_or_constraint_makes_validation_raise(tmp_path, template, constraints):
    """Whatever a template or the constraints hold, validation reports problems; it never raises."""
    root = tmp_path / "q"
    if not root.exists():
        make_project(root)
    (root / "templates" / SLUG / "front.yaml").write_text(yaml.safe_dump(template, allow_unicode=True),
                                                          encoding="utf-8")
    (root / "rules" / SLUG / "constraints.yaml").write_text(yaml.safe_dump(constraints, allow_unicode=True),
                                                            encoding="utf-8")
    validate(root, SLUG, Problems())

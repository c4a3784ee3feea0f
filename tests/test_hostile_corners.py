"""Hostile input, the last corners (issue 33): integers too long to print in any base, top-level
values that are no mapping and floods of bad entries (every problem at its file and line), game
folders that are symlinks out of the project. Each breaking case beside its legal twin."""

from __future__ import annotations

import shutil

import pytest

from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import MAX_INT_DIGITS, parse_yaml
from tests.conftest import problems_json, run_cli
from tests.hostilekit import project_fixture  # noqa: F401 - the fixture
from tests.test_games_are_data import SLUG


def _yaml(text: str) -> tuple[object, list[str]]:
    probs = Problems()
    data = parse_yaml(text, "f.yaml", probs)
    return data, [p.text() for p in probs]


# --- integers too long to print, in every base and every place of a file ----------------------

HUGE = {
    "decimal": "9" * (MAX_INT_DIGITS + 1),
    "decimal past Python's cap": "9" * 5000,
    "hex": "0x" + "f" * 5000,
    "negative hex": "-0x" + "f" * 5000,
    "hex with underscores": "0x_" + "f" * 5000,
    "octal": "0" + "7" * 6000,
    "binary": "0b" + "1" * 20000,
    "sexagesimal": "1" + ":59" * 3000,
    "tagged hex": "!!int 0x" + "f" * 5000,
}


@pytest.mark.parametrize("where", ["n: {}\n", "a: 1\nn: [1, {}]\n", "? {}\n: 1\n", "- x\n- {}\n"])
@pytest.mark.parametrize("name", sorted(HUGE))
def test_an_integer_too_long_to_print_is_one_problem_at_its_place(name, where):
    text = where.format(HUGE[name])
    line = next(i for i, row in enumerate(text.splitlines(), 1) if HUGE[name][:8] in row)
    col = text.splitlines()[line - 1].index(HUGE[name][:8]) + 1
    _data, lines = _yaml(text)
    assert len(lines) == 1 and lines[0].startswith(f"f.yaml:{line}:{col}: YAML-TYPE error: not a valid integer"), lines


@pytest.mark.parametrize("legal", ["9" * MAX_INT_DIGITS, "0x" + "f" * 800, "1" + ":59" * 100, "1.5e99999", "0o777"])
def test_its_legal_twin_long_but_printable_loads(legal):
    data, lines = _yaml(f"n: {legal}\n")
    assert lines == [] and isinstance(data, dict)
    repr(data["n"])                     # printable, whatever it is


@pytest.mark.parametrize("value", ["0x" + "f" * 5000, "1" + ":59" * 3000, "9" * 5000])
def test_a_huge_integer_in_a_card_field_is_a_problem_not_a_traceback(project, value):
    f = project / "cards" / SLUG / "runners.yaml"
    text = f.read_text(encoding="utf-8")
    f.write_text(text.replace("speed: 4", f"speed: {value}"), encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    mine = [(p["rule"], p["line"]) for p in probs if p["file"].endswith("runners.yaml")]
    assert code == 1 and mine == [("YAML-TYPE", 5)], probs
    f.write_text(text.replace("speed: 4", "speed: 0x5"), encoding="utf-8")         # the twin: hex, in range
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 0, probs


# --- a file whose value is no mapping; a flood of bad entries: every problem at its file:line ---

@pytest.mark.parametrize("text, line", [
    ("!!set {a, b}\n", 1), ("# a comment\n---\n42\n", 3), ("hello\n", 1), ("!!omap [a: 1]\n", 1),
    ("!!pairs [a: 1]\n", 1), ("!!binary aGVsbG8=\n", 1), ("2020-01-01\n", 1), ("true\n", 1), ("1.5\n", 1),
    ("\n\n  'quoted'\n", 3),
])
@pytest.mark.parametrize("rel", [f"cards/{SLUG}/runners.yaml", f"rules/{SLUG}/game.yaml", f"rules/{SLUG}/params.yaml",
                                 f"templates/{SLUG}/front.yaml", f"rules/{SLUG}/constraints.yaml"])
def test_a_file_that_holds_no_mapping_is_one_problem_at_its_line(project, rel, text, line):
    (project / rel).write_text(text, encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and all(p["file"] and p["line"] >= 1 for p in probs), probs
    mine = [(p["rule"], p["line"]) for p in probs if p["file"].endswith(rel.rsplit("/", 1)[-1])]
    assert mine == [("YAML-TYPE", line)], probs


@pytest.mark.parametrize("text", ["", "# only a comment\n", "null\n", "~\n"])
def test_its_legal_twin_an_empty_card_file_is_no_cards(project, text):
    (project / "cards" / SLUG / "more.yaml").write_text(text, encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 0, probs


@pytest.mark.parametrize("entry", ["  - {{id: c{i}, name: C{i}, speed: 99, text: x, type: runner}}", "  - {i}",
                                   "  - {{id: c{i}, name: C{i}, speed: 1, text: x, type: nope}}"])
def test_fifteen_thousand_bad_entries_are_each_at_their_line(project, entry):
    rows = [entry.format(i=i) for i in range(15_000)]
    (project / "cards" / SLUG / "runners.yaml").write_text("cards:\n" + "\n".join(rows) + "\n", encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and len(probs) >= 15_000
    assert all(p["file"] and p["line"] >= 1 for p in probs), [p for p in probs if not p["line"]][:3]
    lines = {p["line"] for p in probs if p["file"].endswith("runners.yaml")}
    assert set(range(2, 15_002)) <= lines


# --- game folders that are symlinks out of the project: refused whole, one problem each ----------

@pytest.mark.parametrize("rel", [f"rules/{SLUG}", f"cards/{SLUG}", f"templates/{SLUG}", "cards", "templates"])
def test_a_game_folder_linked_out_of_the_project_is_one_problem_and_no_game(project, tmp_path, rel):

    outside = tmp_path / "outside" / rel
    outside.parent.mkdir(parents=True)
    shutil.move(str(project / rel), str(outside))
    (project / rel).symlink_to(outside, target_is_directory=True)
    for args in (("validate", SLUG), ("validate",), ("cards", SLUG)):
        code, probs = problems_json(*args, root=project)
        assert code == 1 and [(p["rule"], p["file"].endswith(rel), p["line"]) for p in probs] == \
            [("PATH-ESCAPE", True, 1)], (args, probs)
    code, _out = run_cli("build", SLUG, root=project)
    assert code == 1 and not (project / "build" / SLUG).exists()


def test_a_sub_folder_linked_out_is_refused_and_its_legal_twin_a_link_inside_is_read(project, tmp_path):

    decks = project / "cards" / SLUG / "more"
    decks.mkdir()
    shutil.copy(project / "cards" / SLUG / "runners.yaml", decks / "x.yaml")
    inside = project / "shared_templates"
    shutil.move(str(project / "templates" / SLUG), str(inside))
    (project / "templates" / SLUG).symlink_to(inside, target_is_directory=True)     # inside: fine
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 0, probs
    shutil.move(str(decks), str(tmp_path / "more"))
    decks.symlink_to(tmp_path / "more", target_is_directory=True)
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and [(p["rule"], p["file"].endswith("cards/pebble_race/more")) for p in probs] == \
        [("PATH-ESCAPE", True)], probs


# --- a value that is no mapping where one is due, inside a file: at its own line ------------------

@pytest.mark.parametrize("rel, old, new", [
    (f"rules/{SLUG}/game.yaml", "  mini: {width: 44mm, height: 68mm}", "  mini: 7"),
    (f"rules/{SLUG}/game.yaml", '  step: {glyph: "→", color: ink}', "  step: 7"),
    (f"rules/{SLUG}/game.yaml", "  runner:\n    name: Runner\n    template: front\n    back: back\n    size: mini\n"
     "    fields:\n      speed: {type: int, min: 1, max: {param: max_speed}}\n      text: str\n", "  runner: 7\n"),
    (f"rules/{SLUG}/constraints.yaml", "  - {rule: PR-CARD-1", "  - 7\n  - {rule: PR-CARD-1"),
    (f"cards/{SLUG}/runners.yaml", "cards:", "components: [7]\ncards:"),
])
def test_a_nested_value_that_is_no_mapping_is_at_its_line(project, rel, old, new):
    f = project / rel
    text = f.read_text(encoding="utf-8")
    bad = text.replace(old, new)
    line = next(n for n, row in enumerate(bad.splitlines(), 1) if "7" in row and row.strip().endswith(("7", "[7]")))
    f.write_text(bad, encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and all(p["file"] and p["line"] >= 1 for p in probs), probs
    assert any(p["file"].endswith(rel.rsplit("/", 1)[-1]) and p["line"] == line for p in probs), (line, probs)
    f.write_text(text, encoding="utf-8")                    # the twin: as it was
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 0, probs


def test_a_die_tables_effects_that_are_no_mapping_are_a_problem_not_a_traceback(game_copy):
    g = game_copy("bones_on_ice")
    params = g.root / "rules" / "bones_on_ice" / "params.yaml"
    rows = params.read_text(encoding="utf-8").splitlines(True)
    start = next(i for i, row in enumerate(rows) if row.startswith("chaos_effects:"))
    end = next(i for i in range(start + 1, len(rows)) if rows[i].strip() and not rows[i].startswith((" ", "#")))
    params.write_text("".join(rows[:start] + ["chaos_effects: 7\n"] + rows[end:]), encoding="utf-8")
    code, probs = g.validate()
    assert code == 1 and any(p["rule"] == "RULES-PARAM" and p["file"].endswith("params.yaml") and p["line"] == start + 1
                             for p in probs), probs


def test_rules_explain_does_not_list_a_rulebook_linked_out(game_copy, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "elsewhere"      # (game_copy's project is tmp_path)
    g = game_copy("bone_wars")
    book = g.root / "rules" / "bone_wars" / "rulebook"
    code, before = run_cli("rules", "explain", "BW-ATK-6", root=g.root)
    assert code == 0 and "The rulebook states it:" in before                 # the twin: inside, listed
    shutil.move(str(book), str(outside))
    book.symlink_to(outside, target_is_directory=True)
    code, out = run_cli("rules", "explain", "BW-ATK-6", root=g.root)
    assert code == 0 and "The rulebook has no section tagged with it." in out and "elsewhere" not in out
    code, probs = problems_json("validate", "bone_wars", root=g.root)
    assert code == 1 and [(p["rule"], p["file"].endswith("rulebook")) for p in probs] == [("PATH-ESCAPE", True)]


@pytest.mark.parametrize("key", ["template: front", "back: back"])
def test_a_template_name_too_long_for_the_file_system_is_not_found(project, key):
    """A name no file system can hold (5,000 characters) is TEMPLATE-MISSING at its line, not an
    OSError (ENAMETOOLONG) traceback; its twin, the real name, builds."""
    f = project / "rules" / SLUG / "game.yaml"
    text = f.read_text(encoding="utf-8")
    name, _ = key.split(": ")
    f.write_text(text.replace(key, f"{name}: {'x' * 5000}"), encoding="utf-8")
    line = text[: text.index(key)].count("\n") + 1
    code, probs = problems_json("validate", SLUG, root=project)
    assert code == 1 and [(p["rule"], p["line"]) for p in probs] == [("TEMPLATE-MISSING", line)], probs


@pytest.mark.parametrize("speed, ok", [("9" * 5000, False), ("-" + "9" * 4400, False), ("4", True)])
def test_a_spreadsheet_cell_of_thousands_of_digits_is_a_problem_at_its_row(project, speed, ok):
    """A CSV cell of more digits than Python converts stays text, and the field's check says so at
    its row; its twin, a small number, is read as one."""
    (project / "cards" / SLUG / "runners.yaml").unlink()
    rows = ["id,name,type,copies,speed,text", "hare,Hare,runner,2,6,Fast.", "tortoise,Tortoise,runner,2,1,Slow.",
            f"fox,Fox,runner,2,{speed},Sly.", "crow,Crow,runner,2,5,Flies."]
    (project / "cards" / SLUG / "pool.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, probs = problems_json("validate", SLUG, root=project)
    if ok:
        assert code == 0, probs
        return
    assert code == 1 and [(p["file"].endswith("pool.csv"), p["line"]) for p in probs] == [(True, 4)], probs


def test_a_game_folder_linked_to_the_root_of_the_disk_is_never_walked(project, monkeypatch):
    """``cards/<game>`` → ``/``: the build's change detection does not walk the disk (it would take
    hours), the build stops at once with one PATH-ESCAPE."""
    from pathlib import Path
    walked = []
    real = Path.rglob

    def rglob(self, pattern):
        walked.append(self)
        return real(self, pattern)

    shutil.rmtree(project / "cards" / SLUG)
    (project / "cards" / SLUG).symlink_to("/", target_is_directory=True)
    monkeypatch.setattr(Path, "rglob", rglob)
    code, probs = problems_json("build", SLUG, root=project)
    assert code == 1 and [p["rule"] for p in probs] == ["PATH-ESCAPE"], probs
    assert project / "cards" / SLUG not in walked, walked

"""Hostile input, the last corners (issue 33): integers too long to print in any base, top-level
values that are no mapping and floods of bad entries (every problem at its file and line), game
folders that are symlinks out of the project. Each breaking case beside its legal twin."""

from __future__ import annotations

import pytest

from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import MAX_INT_DIGITS, parse_yaml
from tests.conftest import problems_json
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

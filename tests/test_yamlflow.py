"""A deck's one-line JSON-style mappings read without libyaml's events (core/yamlflow.py) give what
the full loader gives: the same values, types, positions and problems; lines it cannot read as
YAML would are left to libyaml, and a file where an emptied mapping is not met where it stood
is read as written."""

from __future__ import annotations

import json
import random

import pytest

from cardgen.core import yamlflow, yamlsrc
from cardgen.core.problems import Problems
from tests.test_yamlplain import _full, _same

DECK = ('defaults: {type: card}\ncards:\n'
        '  - {"id": "1", "name": "Gilded Serpent", "atk": 7, "def": -12, "cost": 0,'
        ' "rules": "Draw: one, then \'two\' #3."}\n'
        '  - {"id": "2", "name": "Déjà vu — 😀 ünïcode",'
        ' "flag": true, "off": false, "none": null, "empty": ""}\n'
        '  - {}\n'
        '  -   {  "spaced":   1 ,"tight": 2  }  \n'
        '  - id: "4"\n    name: block style\n')
READ = [
    DECK,
    '- {"a": "1"}\n- {"b": 2}\n',                               # a list at the top, no indentation
    'x:\n- {"a": 1}\n- {"a": 2}\ny: [1, 2]\n',                  # a list at its key's indentation
    'a:\n  b:\n    - {"deep": "er"}\n  c: d\n',
    'k: Ã©tÃ©\nl:\n  - {"m": "Ã©tÃ©"}\n',                    # mojibake: the warning at the same place
]
LEFT = [                                                        # lines libyaml reads, as before
    '- {"a": "tab\there"}\n',                                   # a tab
    '- {"a": "esc\\"aped"}\n',                                  # an escape
    '- {"a": 1.5}\n- {"b": 1e5}\n- {"c": 01}\n',    # numbers that are not whole (YAML 1.1: 1e5 is text)
    '- {"a": 1, "a": 2}\n',                                     # a key twice: YAML-DUPLICATE-KEY
    '- {"a": 1} # note\n',                                      # a comment after it
    '- {"a": 1,}\n- {a: 1}\n- {"a":1}\n- {"a" : 1}\n',         # not JSON's style
    '- {"a": [1, 2]}\n- {"a": {"b": 1}}\n',                     # nested values
    '- {"a": True}\n- {"a": Null}\n- {"a": yes}\n',
    '- {"a": 1}\r\n- {"b": 2}\r\n',                             # another line break
    '- {"a": "x\x85y"}\n', '- {"a": "x\u2028y"}\n', '- {"a": "\ufeffx"}\n', '- {"a": "x\x7fy"}\n',
    '- {"a": "x\ny"}\n', '- {"a": "x\n  y", "b": 1}\n',       # a string on two lines: folded
    '- {"a": "x\x01y"}\n', '- {"a": "x\x1fy"}\n',
]
MISPLACED = [                                                   # an emptied mapping not met where it stood
    'a: |\n  - {"a": 1}\n  text\n',                             # inside a block of text
    'a: plain\n  - {"a": 1}\n',                                 # inside a plain scalar's lines
    'a: "quoted\n  - {"a": 1}\n  "\n',
    'a: [\n  - {"a": 1}\n  ]\n',                                # a syntax error: the full loader reports it
    '- {"a": 1}\n- &x {"b": 2}\n- *x\n',                        # an anchor elsewhere: the full loader
]


def _parse(text: str) -> tuple:
    p = Problems()
    return yamlsrc.parse_yaml(text, "f.yaml", p), [str(x) for x in p.items]


@pytest.mark.parametrize("text", READ + LEFT + MISPLACED)
def test_same_values_positions_and_problems(text, monkeypatch):
    got, problems = _parse(text)
    want, want_problems = _full(text, monkeypatch)
    assert _same(got, want)
    assert problems == want_problems


@pytest.mark.parametrize("text", READ + MISPLACED)
def test_json_style_lines_are_read_here(text):
    assert yamlflow.pre_read(text) is not None


def test_the_deck_lines_read_and_the_others_left():
    skeleton, found = yamlflow.pre_read(DECK)
    assert sorted(found) == [(2, 4), (3, 4), (4, 4), (5, 6)]      # the block-style card is libyaml's
    assert skeleton.splitlines()[2:6] == ["  - {}"] * 3 + ["  -   {}  "]
    assert found[(3, 4)][1] == ("name", 16, "Déjà vu — 😀 ünïcode", 24)
    assert [v for _, _, v, _ in found[(3, 4)][2:]] == [True, False, None, ""]


@pytest.mark.parametrize("text", LEFT)
def test_other_lines_are_left_to_libyaml(text):
    assert yamlflow.pre_read(text) is None


def test_a_file_without_such_lines_is_not_touched():
    assert yamlflow.pre_read("a: 1\nb:\n  - c\n  - {d: 1}\n") is None


# characters a generated deck may hold, and some YAML refuses or reads otherwise
_CHARS = ["a", "Z", " ", "#", ":", ",", "'", "{", "}", "[", "]", "&", "*", "!", "%", "@", "`", "|", ">", "-",
          "?", "é", "—", "ß", "😀", "\u00a0", "日本"]
_ODD = ['"', "\\", "\t", "\x85", "\x7f", "\ufeff", "\u2028", "\x01", "\ud7ff", "\ue000", "\ufffd"]


def _value(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return str(rng.choice([0, 1, -1, 7, 123456789012345678, 10 ** 19, -3]))
    if kind == 1:
        return rng.choice(["true", "false", "null", "1.5", "01", "-0", "1e5", "True"])
    chars = [rng.choice(_ODD if rng.random() < 0.02 else _CHARS) for _ in range(rng.randrange(12))]
    return json.dumps("".join(chars), ensure_ascii=False)


def _deck(rng: random.Random) -> str:
    lines = ["cards:"]
    for _ in range(rng.randrange(1, 8)):
        keys = rng.sample(["id", "name", "atk", "rules", "x y", "é", "#", ""], rng.randrange(5))
        if rng.random() < 0.1 and keys:
            keys.append(keys[0])                    # a key twice
        pairs = [f"{json.dumps(k, ensure_ascii=False)}: {_value(rng)}" for k in keys]
        lines.append("  - {" + ", ".join(pairs) + "}" + rng.choice(["", "", " ", " # c"]))
        if rng.random() < 0.1:
            lines.append(rng.choice(["  - plain", "  - |", "    - {\"a\": 1}", "notes: |", "  # comment"]))
    return "\n".join(lines) + "\n"


def test_random_decks_read_as_the_full_loader_reads_them(monkeypatch):
    rng = random.Random(34)
    used = 0
    for _ in range(400):
        text = _deck(rng)
        used += yamlflow.pre_read(text) is not None
        got, problems = _parse(text)
        want, want_problems = _full(text, monkeypatch)
        assert _same(got, want), text
        assert problems == want_problems, text
    assert used > 250               # most decks had a line read here


def test_a_string_on_two_lines_leaves_its_mapping_and_not_the_next():
    text = '- {"a": "x\n  y"}\n- {"b": "z"}\n- {"c": 1, "d": "e\n"}\n- {"f": "g"}\n'
    assert sorted(yamlflow.pre_read(text)[1]) == [(2, 2), (5, 2)]


@pytest.mark.parametrize("odd", ["\\", "\t", "\x7f", "\x00", "\x1b"])
def test_an_odd_character_elsewhere_in_an_ascii_file_keeps_the_strict_lines(odd):
    text = f'# {odd}\n- {{"a": "b"}}\n- {{"c": "d{odd}"}}\n'
    assert sorted(yamlflow.pre_read(text)[1]) == [(1, 2)]

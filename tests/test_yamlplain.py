"""The fast YAML path (events straight to values) gives what the full loader gives: the same
values, positions and problems; files it does not handle go to the full loader."""

from __future__ import annotations

import pytest

from cardgen.core import yamlplain, yamlsrc
from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import YDict, YList

PLAIN = [
    "a: 1\nb: [x, 'y', \"z\"]\nc: {d: 2.5, e: true, f: null, g: 2024-01-02}\n",
    "defaults: {type: card}\ncards:\n  - {id: '1', name: Rat, atk: 3}\n  - id: '2'\n    name: Bat\n    tags:\n      - a\n      - b\n",
    "- 1\n- - 2\n  - - 3\n- {}\n- []\n- ''\n",
    "just a string\n",
    "---\nk: |\n  block\n  text\nm: >-\n  folded\n...\n",
    "k: Ã©tÃ©\n",            # mojibake: the warning comes from the caller, after either path
    # scalars met again (numbers, flags and nulls are constructed once per text): each its own type
    "a: [1, 1, 1.0, 1.0, '1', \"1\", true, True, yes, null, ~, '', 010, 0x1F, 1_000, -0, -0.0, .inf, 1, 1.0, true]\n"
    "b: {x: 1, y: 1.0, z: yes, w: no, v: Null, u: 2024-01-02, t: 2024-01-02, s: Yes}\n",
    "[" * 100 + "1" + "]" * 100 + "\n",      # nested exactly to the limit
    "a:\n  - b: [1, {c: [x, y]}, [], {}]\n    d: e\n  - f\ng: h\n",      # closing back out to each level
]
UNUSUAL = [
    "a: &x 1\nb: *x\n",                     # anchors and aliases
    "a: 1\na: 2\n",                         # a repeated key: YAML-DUPLICATE-KEY
    "base: &b {x: 1}\nc: {<<: *b, y: 2}\n",  # a merge key
    "a: !!str 1\n",                         # a tag
    "1: one\n",                             # a key that is not a string
    "a: 1\n---\nb: 2\n",                    # two documents
    "a: [1, 2\n",                           # a syntax error
    "a: 99999999999999999999999999\nb: 2024-02-30\n",   # a scalar the constructor refuses
    "",                                     # no document
    "[" * 101 + "]" * 101 + "\n",           # nested past the limit
]


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, YDict):
        return (a.loc == b.loc and list(a.items()) == list(b.items()) and list(a.key_locs.items()) == list(b.key_locs.items())
                and list(a.val_locs.items()) == list(b.val_locs.items()) and all(_same(a[k], b[k]) for k in a))
    if isinstance(a, YList):
        return a.loc == b.loc and a.item_locs == b.item_locs and len(a) == len(b) and all(map(_same, a, b))
    return a == b


def _full(text: str, monkeypatch) -> tuple:
    with monkeypatch.context() as m:
        m.setattr(yamlsrc, "read_plain", lambda *a: yamlplain.UNUSUAL)
        p = Problems()
        return yamlsrc.parse_yaml(text, "f.yaml", p), [str(x) for x in p.items]


def _fast_used(text: str) -> bool:
    loader = yamlsrc._make_loader("f.yaml", Problems())(text)
    return yamlplain.read_plain(loader, loader, "f.yaml", YDict, YList, yamlsrc.MAX_DEPTH) is not yamlplain.UNUSUAL


@pytest.mark.parametrize("text", PLAIN + UNUSUAL)
def test_same_values_positions_and_problems(text, monkeypatch):
    p = Problems()
    got = yamlsrc.parse_yaml(text, "f.yaml", p)
    want, want_problems = _full(text, monkeypatch)
    assert _same(got, want)
    assert [str(x) for x in p.items] == want_problems


@pytest.mark.parametrize("text", PLAIN)
def test_plain_files_take_the_fast_path(text):
    assert _fast_used(text)


@pytest.mark.parametrize("text", UNUSUAL)
def test_other_files_go_to_the_full_loader(text):
    assert not _fast_used(text)


def test_new_ydict_is_an_empty_ydict():
    d, e, plain = yamlsrc.new_ydict(), yamlsrc.new_ydict(), yamlsrc.YDict()
    assert type(d) is yamlsrc.YDict and d == {} and vars(d) == vars(plain)
    assert d.key_locs is not e.key_locs and d.val_locs is not e.val_locs
    d["a"] = 1
    assert d.at("a") is d.loc and e == {}

"""PyYAML loaded without compiling its reader's pattern (``cardgen.core.yamllib``): the stand-in
answers as the compiled pattern does, PyYAML's own reader still refuses what it refused, and
``re``'s cache is left as it was."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from cardgen.core.yamllib import NON_PRINTABLE, _OnFirstUse, yaml

TEXTS = ["", "plain text", "tab\there", "nul\x00", "bell\x07", "del\x7f", "nel\x85", "nbsp\xa0", "é ≥ ✓",
         "surrogate\ud800", "bom\ufeff", "\ufffe", "\uffff", "astral \U0001f600", "cr\r\nlf", "c1\x9f"]


def test_the_text_is_pyyamls():
    # the reader's own pattern (compiled already or a stand-in): the same text
    assert yaml.reader.Reader.NON_PRINTABLE.pattern == NON_PRINTABLE


@pytest.mark.parametrize("text", TEXTS)
def test_the_stand_in_answers_as_the_pattern(text):
    compiled = re.compile(NON_PRINTABLE)
    stand_in = _OnFirstUse(NON_PRINTABLE)
    got, want = stand_in.search(text), compiled.search(text)
    assert (got and (got.start(), got.group())) == (want and (want.start(), want.group()))
    assert stand_in.findall(text) == compiled.findall(text)


def test_pyyamls_reader_still_refuses_a_control_character():
    with pytest.raises(yaml.reader.ReaderError) as e:
        yaml.load("a: 1\nb: x\x07y\n", Loader=yaml.SafeLoader)      # noqa: S506 - the pure-Python loader
    assert e.value.position == 9 and e.value.character == 7
    assert yaml.load("a: é ≥ \U0001f600\n", Loader=yaml.SafeLoader) == {"a": "é ≥ \U0001f600"}  # noqa: S506


def test_a_fresh_process_loads_yaml_with_the_stand_in_and_leaves_res_cache():
    code = ("import re, sys; import cardgen.core.yamllib as y; import yaml;"
            "print(type(yaml.reader.Reader.NON_PRINTABLE).__name__);"
            "print(any(k[1] == y.NON_PRINTABLE for k in getattr(re, '_cache', {})));"
            "print(type(re.compile(y.NON_PRINTABLE)).__name__)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    out = run.stdout.split()
    assert out == ["_OnFirstUse", "False", "Pattern"]

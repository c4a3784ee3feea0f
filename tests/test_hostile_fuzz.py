"""Property tests for hostile input: mutated files of every kind never give a traceback.

Hypothesis takes a real file of each kind (game settings, parameters, constraints, cards,
templates, maps, decks, playtest logs in YAML and JSON Lines, rulebook chapters), mutates it
(hostile snippets spliced in: aliases, deep nesting, NUL and ESC, NaN, huge numbers, bad
dates, Jinja bombs; lines deleted or repeated; bytes flipped) and runs the checks that read
it. Every run ends in problems (or a LogError for a log), within seconds.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen import boards, rulebook
from cardgen.builder import pipeline
from cardgen.builder.check import replay
from cardgen.content.loader import load_game
from cardgen.content.playlog import LogError
from cardgen.core.problems import Problems
from tests.conftest import ROOT
from tests.test_games_are_data import SLUG, make_project

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_N", 15)),          # FUZZ_N=200: a longer hunt
                deadline=None, suppress_health_check=list(HealthCheck))
SNIPPETS = ["&a [1, 2]", "*a", "*nope", "[" * 150, "{" * 120, "\x00", "\x1b[2J", "\u2028", ".nan", "-.inf",
            "9" * 5000, "2026-11-31", "!!timestamp 99999-01-01", "!!binary zz", "!!python/object:os.system ls",
            "{{ 7**99999999 }}", "{{ 'x' * 10**10 }}", "{% for i in range(100000) %}{% endfor %}",
            "{% include 'self.md' %}", "{{ ''.__class__ }}", "copies: 100000000", "count: 100000000",
            "../../../etc/passwd", "/dev/zero", "? [a]\n: b", "- - - - - -", ": :", "'", '"', "#", "|", ">",
            "NaN", "Infinity", '{"allow": 5}', "null", "~", "{}", "[]", "0x1F", "1e999", "-0", "true",
            "0x" + "f" * 5000, "1" + ":59" * 3000, "0b" + "1" * 20000, "0" + "7" * 6000, "!!set {a, b}\n",
            "!!omap [a: 1]", "7\n", "--- 7\n", "- 7\n"]


@st.composite
def mutations(draw, text: str) -> str:
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "repeat", "flip"]))
        if op == "insert":
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif op == "repeat":
            lines = text.splitlines(keepends=True)
            if lines:
                i = draw(st.integers(0, len(lines) - 1))
                lines.insert(i, lines[i] * draw(st.integers(1, 3)))
                text = "".join(lines)
        elif text:
            i = min(at, len(text) - 1)
            text = text[:i] + chr(draw(st.integers(0, 0x2fff))) + text[i + 1:]
    return text


def _mutated(path: Path):
    return mutations(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def pebble(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("pebble"))


def _bounded(fn) -> None:
    t = time.monotonic()
    fn()
    assert time.monotonic() - t < 20


@pytest.mark.parametrize("rel", [f"rules/{SLUG}/game.yaml", f"rules/{SLUG}/params.yaml",
                                 f"rules/{SLUG}/constraints.yaml", f"cards/{SLUG}/runners.yaml",
                                 f"templates/{SLUG}/front.yaml"])
def test_mutated_game_files(pebble, rel):
    path = pebble / rel
    original = path.read_text(encoding="utf-8")

    @FUZZ
    @given(text=_mutated(path))
    def run(text):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        found = Problems()
        try:
            _bounded(lambda: pipeline.validate(pebble, SLUG, found))
        finally:
            path.write_text(original, encoding="utf-8")
        nowhere = [p.text() for p in found if p.loc is None or not p.loc.file or p.loc.line < 1]
        assert not nowhere, nowhere             # every problem at its file and line
    run()


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("games")
    for slug in ("boss_fight", "dino_battles", "bones_on_ice"):
        for part in ("rules", "cards", "templates", "maps"):
            if (ROOT / part / slug).exists():
                shutil.copytree(ROOT / part / slug, root / part / slug)
    return root


def test_mutated_map_file(games):
    path = games / "maps" / "boss_fight" / "arena.yaml"
    original = path.read_text(encoding="utf-8")
    game = load_game(games, "boss_fight", Problems())

    @FUZZ
    @given(text=_mutated(path))
    def run(text):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            _bounded(lambda: boards.check_game(game, Problems()))
        finally:
            path.write_text(original, encoding="utf-8")
    run()


def test_mutated_deck_file(games, tmp_path):
    src = games / "cards" / "dino_battles" / "decks" / "iron_herd.yaml"
    game = load_game(games, "dino_battles", Problems())
    path = tmp_path / "deck.yaml"

    @FUZZ
    @given(text=_mutated(src))
    def run(text):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        _bounded(lambda: pipeline.check_file(game, path, Problems()))
    run()


@pytest.mark.parametrize("log", ["loot_battles/win-2p.yaml", "loot_battles/loss-3p.jsonl",
                                 "dino_battles/ko-win.yaml", "boss_fight/heroes-win-pillars.jsonl"])
def test_mutated_playtest_logs(tmp_path, log):
    src = ROOT / "examples" / "logs" / log
    slug = log.split("/")[0]
    path = tmp_path / Path(log).name

    @FUZZ
    @given(text=_mutated(src))
    def run(text):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")

        def go():
            try:
                replay(ROOT, slug, path)
            except LogError as e:
                assert e.rule != "CHECK-INTERNAL" or "Recursion" in e.message, e.message
        _bounded(go)
    run()


def test_mutated_rulebook_chapter(games):
    path = games / "rules" / "bones_on_ice" / "rulebook" / "06-winning.md"
    original = path.read_text(encoding="utf-8")
    game = load_game(games, "bones_on_ice", Problems())

    @settings(FUZZ, max_examples=8)
    @given(text=_mutated(path))
    def run(text):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            _bounded(lambda: rulebook.check(game, Problems()))
        finally:
            path.write_text(original, encoding="utf-8")
    run()

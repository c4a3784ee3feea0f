"""Never a traceback for bad input: board files and deck-like files, fuzzed.

Random YAML structures (keys of the real schemas plus typos, values of every type, parameter
references, units, paths) and one-value mutations of the real files go through what
``cardgen validate GAME`` / ``cardgen build GAME`` do with boards and what
``cardgen validate GAME FILE`` does with decks, parties and boss builds. Problems are fine;
an exception is a bug.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen import boards
from cardgen.builder.pipeline import Laid, check_file
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from tests.conftest import ROOT, GameCopy, has_problem

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=20),
                    st.sampled_from(["25mm", "-3mm", "0mm", "2.5in", "1e9mm", "ink", "#12345", "#fbf8f0", "pointy",
                                     "flat", "round", "square", "hex", ".", "#", "../../etc/passwd", "poker",
                                     "tarot", "boss", "hero", "clear", "walk", "aldric", "raptor_leg", "{nope}",
                                     {"param": "rounds"}, {"param": "nope"}, {"param": "party_heroes.max"},
                                     [0, 0], [1, -1, 2], ["a", "b"]]))
BOARD_KEYS = st.sampled_from([
    # map / terrain
    "name", "description", "orientation", "hex_size", "layout", "legend", "zones", "start", "symbol", "fill",
    "pattern", "pattern_color", "passable", "blocks_sight", "note", "label", "coords", "color",
    # board (zones in a row)
    "card", "slot_margin", "gap", "slots_per_side", "slot_label", "keeper_label", "end_label", "centre_labels",
    "sides", "side", "also",
    "end", "centre", "track_box", "tracks", "per_side", "from", "to", "start", "marks", "mark_label", "table",
    "title", "subtitle", "card_type", "key",
    # mats / tokens
    "highlight", "rows", "count", "numbered", "tokens", "columns", "copies", "shape", "size", "ink", "items",
    "id", "back", "width", "height", "w", "h", "x", "y", "hexes",
    # typos
    "nmae", "hex_szie", "itmes"])
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(BOARD_KEYS, inner, max_size=4)),
                      max_leaves=10)
BOARD_KINDS = ("map", "terrain", "board", "mats", "tokens")
RANDOM_BOARDS = st.one_of(st.dictionaries(st.sampled_from(BOARD_KINDS + ("maps", "extra")),
                                          st.one_of(st.dictionaries(BOARD_KEYS, VALUES, max_size=8),
                                                    st.lists(st.dictionaries(BOARD_KEYS, VALUES, max_size=8),
                                                             max_size=3),
                                                    VALUES), min_size=1, max_size=2),
                          VALUES)


def _places(node, path=()):
    """Every place in a parsed YAML document: the path of keys and indices that leads to it."""
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _places(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _places(v, path + (i,))


@st.composite
def mutated(draw, doc):
    """``doc`` with one place replaced by a random value, deleted, or given a stray key."""
    doc = copy.deepcopy(doc)
    places = [p for p in _places(doc) if p]
    where = draw(st.sampled_from(places))
    parent = doc
    for step in where[:-1]:
        parent = parent[step]
    how = draw(st.sampled_from(["replace", "replace", "replace", "delete", "stray"]))
    if how == "delete":
        del parent[where[-1]]
    elif how == "stray" and isinstance(parent, dict):
        parent[draw(BOARD_KEYS)] = draw(VALUES)
    else:
        parent[where[-1]] = draw(VALUES)
    return doc


def _real(rel: str):
    return yaml.safe_load((ROOT / rel).read_text(encoding="utf-8"))


BOARD_FILES = {slug: sorted(p.name for p in (ROOT / "maps" / slug).glob("*.yaml"))
               for slug in ("boss_fight", "bones_on_ice", "dino_battles")}
BOARD_DOCS = {(slug, name): _real(f"maps/{slug}/{name}") for slug, names in BOARD_FILES.items() for name in names}

_GAMES: dict[Path, object] = {}


def fuzz(examples: int) -> settings:
    """The suite's budget; ``CARDGEN_FUZZ_EXAMPLES=2000`` hunts longer."""
    return settings(max_examples=int(os.environ.get("CARDGEN_FUZZ_EXAMPLES", examples)), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _game(tmp_path: Path, slug: str):
    """A copy of ``slug`` under ``tmp_path``, loaded once per test function (examples overwrite its files)."""
    root = tmp_path / slug
    if root not in _GAMES:
        GameCopy(root, slug)
        p = Problems()
        _GAMES[root] = load_game(root, slug, p)
        assert _GAMES[root] is not None, p.errors
    return _GAMES[root]


def _through_boards(game, slug: str, name: str, doc) -> None:
    """Validate the game's boards with ``doc`` as ``maps/<slug>/<name>``, and build them if that passes."""
    path = game.maps_dir / name
    original = path.read_text(encoding="utf-8")
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    try:
        problems = Problems()
        boards.check_game(game, problems)
        if not problems.errors:
            laid = Laid(game, None)
            for build in boards.PRINTABLES.values():
                build(laid, problems=problems)
    finally:
        path.write_text(original, encoding="utf-8")


BOARD_CASES = st.sampled_from(sorted(BOARD_DOCS))


@fuzz(20)
@given(BOARD_CASES, RANDOM_BOARDS)
def test_no_random_board_file_makes_boards_raise(tmp_path, case, doc):
    """Whatever a board file holds, validating and building the boards reports problems; it never raises."""
    slug, name = case
    _through_boards(_game(tmp_path, slug), slug, name, doc)


@fuzz(20)
@given(st.data())
def test_no_mutated_board_file_makes_boards_raise(tmp_path, data):
    """A real board file with one value changed, dropped or added never makes the boards raise."""
    slug, name = data.draw(BOARD_CASES)
    doc = data.draw(mutated(BOARD_DOCS[(slug, name)]))
    _through_boards(_game(tmp_path, slug), slug, name, doc)


DECK_KEYS = st.sampled_from(["deck", "party", "boss", "name", "side", "cards", "pieces", "equipment", "abilities",
                             "heroes", "id", "at", "rotate", "as", "piece", "points_limit", "notes", "count",
                             "nmae", "peices"])
CARD_IDS = st.sampled_from(["walk", "basic_attack", "aldric", "maelis", "serpent_coils", "raptor_leg",
                            "bone_cleaver", "thick_hide", "bastion_trike", "titanium_plating", "nope", ""])
DECK_VALUES = st.recursive(
    st.one_of(SCALARS, CARD_IDS),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(DECK_KEYS, inner, max_size=4),
                            st.dictionaries(CARD_IDS, st.one_of(st.integers(-3, 40), inner), max_size=4)),
    max_leaves=10)
PIECES = st.lists(st.dictionaries(DECK_KEYS, st.one_of(DECK_VALUES, st.lists(st.integers(-5, 5), max_size=3),
                                                       st.sampled_from([0, 1, 5, 60, -1, "90", 1.5]))),
                  max_size=4)
DECK_BODIES = st.dictionaries(DECK_KEYS, st.one_of(
    DECK_VALUES, PIECES, st.dictionaries(CARD_IDS, st.integers(-2, 30), max_size=5),
    st.lists(st.dictionaries(DECK_KEYS, DECK_VALUES, max_size=5), max_size=4)), max_size=7)
DECK_FILES = st.one_of(st.dictionaries(st.sampled_from(["deck", "party", "boss", "board"]), DECK_BODIES,
                                       min_size=1, max_size=2), DECK_VALUES)
PRESETS = {slug: sorted(str(p.relative_to(ROOT)) for p in (ROOT / "cards" / slug / sub).glob("*.yaml"))
           for slug, sub in (("boss_fight", "presets"), ("dino_battles", "decks"))}
PRESET_DOCS = {(slug, rel): _real(rel) for slug, rels in PRESETS.items() for rel in rels}


def _through_check_file(game, doc) -> None:
    """``cardgen validate GAME FILE`` on ``doc``."""
    path = game.root / "fuzz_deck.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    check_file(game, path, Problems())


@fuzz(60)
@given(st.sampled_from(sorted(PRESETS)), DECK_FILES)
def test_no_random_deck_file_makes_validation_raise(tmp_path, slug, doc):
    """Whatever a deck, party or boss build holds, ``validate GAME FILE`` reports problems; it never raises."""
    _through_check_file(_game(tmp_path, slug), doc)


@fuzz(80)
@given(st.data())
def test_no_mutated_preset_makes_validation_raise(tmp_path, data):
    """A real preset or deck with one value changed, dropped or added never makes validation raise."""
    slug, rel = data.draw(st.sampled_from(sorted(PRESET_DOCS)))
    _through_check_file(_game(tmp_path, slug), data.draw(mutated(PRESET_DOCS[(slug, rel)])))


# Findings, kept: each raised before it was reported.

def test_empty_board_option_is_reported_at_its_line(game_copy):
    """``hex_size:`` / ``gap:`` with no value were a silent None the drawing tripped over."""
    g = game_copy("boss_fight")
    line = g.edit("maps/boss_fight/arena.yaml", "hex_size: 25mm", "hex_size:")
    mat_line = g.edit("maps/boss_fight/mat.yaml", "gap: 5mm", "gap:")
    p = Problems()
    game = load_game(g.root, "boss_fight", p)
    boards.check_game(game, p)
    assert has_problem([x.as_dict() for x in p.items], "YAML-TYPE", "arena.yaml", line), p.errors
    assert has_problem([x.as_dict() for x in p.items], "YAML-TYPE", "mat.yaml", mat_line), p.errors
    assert "is empty" in str(p.errors)


def test_deck_side_of_the_wrong_type_is_reported(tmp_path):
    """``side: []`` in a deck raised (a list is no side name)."""
    game = _game(tmp_path, "boss_fight")
    path = game.root / "fuzz_deck.yaml"
    path.write_text("deck:\n  name: D\n  side: []\n  cards: {walk: 6}\n", encoding="utf-8")
    p = Problems()
    check_file(game, path, p)
    assert has_problem([x.as_dict() for x in p.items], "YAML-TYPE", "fuzz_deck.yaml", 3), p.errors


def test_a_number_for_a_map_layout_is_read_as_its_text(tmp_path):
    """``layout: 1`` raised (the rows were split from the file's number, not the option's text):
    it is a one-hex layout of symbol '1', reported as an unknown symbol at its line."""
    game = _game(tmp_path, "boss_fight")
    path = game.maps_dir / "arena.yaml"
    original = path.read_text(encoding="utf-8")
    path.write_text("map:\n  name: The Open Arena\n  orientation: pointy\n  hex_size: 25mm\n  layout: 1\n",
                    encoding="utf-8")
    try:
        p = Problems()
        boards.check_game(game, p)
    finally:
        path.write_text(original, encoding="utf-8")
    found = [x.as_dict() for x in p.items]
    assert has_problem(found, "MAP-TERRAIN", "arena.yaml", 5), p.errors
    assert "unknown map symbol '1'" in str(p.errors)
    p = Problems()
    boards.check_game(game, p)          # its legal twin: the game's own layout
    assert not p.errors, p.errors

"""Never a traceback for bad input: random game settings, parameters and rulebook sources.

Hypothesis writes random YAML structures (the real schemas' keys plus typos, values of the
wrong type, nested lists and maps, ``{param: …}`` references, units, colours, hostile paths)
and random Markdown chapters built from realistic fragments; validation, the card build and
the rulebook check and typesetting report problems — they never raise.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.builder.pipeline import validate
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.printables import cards as card_sheets
from cardgen.rulebook import Rulebook
from tests.conftest import ROOT, GameCopy
from tests.test_games_are_data import FILES, SLUG, make_project

FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

WORDS = ["title", "subtitle", "designer", "print", "paper", "bleed", "duplex", "offset", "crop_marks",
         "card_sizes", "mini", "width", "height", "colors", "ink", "sand", "icons", "step", "glyph", "color",
         "fonts", "regular", "bold", "italic", "card_types", "runner", "name", "template", "back", "size", "fields", "speed",
         "type", "min", "max", "enum", "ref", "item", "optional", "doc", "rule", "param", "printables",
         "collections", "folder", "keys", "tokens", "players", "max_speed", "runners", "tittle", "prnt", "sizes"]
ODD = ["63mm", "2.5in", "-3mm", "0mm", "300mm", "90mm", "1e9mm", "5 cm", "A4", "Letter", "long", "short", "#202020", "#12345",
       "ink", "nope", "cards", "duplex-calibration", "rulebook", "../../etc/passwd", "/dev/null", "front",
       "back", "mini", "int", "str", "color", "bool", "list", "float", "length", "runner", "max_speed",
       "{step}", "≥", "Ω\u202e\u0000", "", "LiberationSerif-Bold", "Comic Sans", "fr\0nt"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**9, 10**9), st.floats(allow_nan=True),
                    st.text(max_size=20), st.sampled_from(ODD), st.dates())
KEYS = st.sampled_from(WORDS)
PARAM_REFS = st.fixed_dictionaries({"param": st.one_of(st.sampled_from(["max_speed", "players", "players.max",
                                                                        "nope", "runners.x", ""]), SCALARS)})
VALUES = st.recursive(st.one_of(SCALARS, PARAM_REFS),
                      lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=4)),
                      max_leaves=8)


def _game_yaml() -> dict:
    return yaml.safe_load(FILES[f"rules/{SLUG}/game.yaml"])


def _paths(node, prefix=()):
    """Every path to a value of a nested structure."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _replace(node, path, value):
    if not path:
        return value
    node[path[0]] = _replace(node[path[0]], path[1:], value)
    return node


@st.composite
def mutated(draw, doc: dict):
    """``doc`` with a few values deep inside replaced by random values, keys added or dropped."""
    doc = yaml.safe_load(yaml.safe_dump(doc))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths[1:] or [()]))
        what = draw(st.sampled_from(["replace", "add", "drop"]))
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        if what == "drop" and path and isinstance(parent, dict):
            del parent[path[-1]]
        elif what == "add" and isinstance(parent, dict):
            parent[draw(KEYS)] = draw(VALUES)
        else:
            doc = _replace(doc, path, draw(VALUES))
    return doc


FIELD_DECLS = st.one_of(st.sampled_from(["int", "str", "color", "bool", "float", "length", "nope"]),
                        st.dictionaries(st.sampled_from(["type", "min", "max", "enum", "ref", "item", "optional",
                                                         "doc", "rule", "tpye"]),
                                        st.one_of(VALUES, st.sampled_from(["int", "str", "runner", "list"]),
                                                  st.just({"param": "max_speed"}),
                                                  st.just({"type": "str"})), max_size=4))

SANE_FIELDS = st.fixed_dictionaries({
    "speed": st.fixed_dictionaries({"type": st.sampled_from(["int", "number", "any"])},
                                   optional={"min": st.one_of(st.integers(-1, 7), st.floats(), st.just({"param": "players.min"})),
                                             "max": st.sampled_from([6, 3, 1.5, {"param": "max_speed"},
                                                                     {"param": "players.max"}]),
                                             "optional": st.booleans(), "rule": st.just("PR-CARD-2")}),
    "text": st.sampled_from(["str", "any", {"type": "str", "optional": True}])})


def _write(root: Path, rel: str, doc) -> None:
    (root / rel).write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")


def _validate_and_build(root: Path) -> None:
    problems = Problems()
    laid = validate(root, SLUG, problems)
    if laid is not None and not problems.has_errors:
        card_sheets.build(laid)


@FUZZ
@given(st.data())
def test_no_game_or_params_file_makes_validation_or_the_build_raise(tmp_path, data):
    """Whatever game.yaml and params.yaml hold, validation and the card build report problems."""
    root = tmp_path / "p"
    if not root.exists():
        make_project(root)
    game = data.draw(st.one_of(mutated(_game_yaml()), VALUES, st.dictionaries(KEYS, VALUES, max_size=6),
                               st.just(_game_yaml())))
    if isinstance(game, dict) and data.draw(st.booleans()):
        fields = data.draw(st.one_of(SANE_FIELDS, st.dictionaries(st.sampled_from(["speed", "text", "id", "team"]),
                                                                 FIELD_DECLS, max_size=3)))
        game.setdefault("card_types", {})
        if isinstance(game["card_types"], dict) and isinstance(game["card_types"].get("runner"), dict):
            game["card_types"]["runner"]["fields"] = fields
    params = yaml.safe_load(FILES[f"rules/{SLUG}/params.yaml"])
    params = data.draw(st.one_of(st.just(params), mutated(params), VALUES,
                                 st.fixed_dictionaries({**{k: st.just(v) for k, v in params.items()},
                                                        "max_speed": st.one_of(st.integers(-2, 9), VALUES)})))
    _write(root, f"rules/{SLUG}/game.yaml", game)
    _write(root, f"rules/{SLUG}/params.yaml", params)
    _validate_and_build(root)


REAL = "bones_on_ice"


@FUZZ
@given(st.data())
def test_no_mutation_of_a_real_game_yaml_makes_validation_raise(tmp_path, data):
    """A real game's settings with a value deep inside replaced by a value of another type."""
    root = tmp_path / "g"
    if not root.exists():
        GameCopy(root, REAL)
    original = yaml.safe_load((ROOT / "rules" / REAL / "game.yaml").read_text(encoding="utf-8"))
    (root / "rules" / REAL / "game.yaml").write_text(yaml.safe_dump(data.draw(mutated(original)),
                                                                    allow_unicode=True), encoding="utf-8")
    validate(root, REAL, Problems())


# --- rulebook sources ---------------------------------------------------------------------------
BOOK = "bones_on_ice"
META_KEYS = st.sampled_from(["title", "version", "edition", "date", "subtitle", "authors", "chapters", "page",
                             "booklet", "accent", "cover", "summary", "verison", "titel"])
META_VALUES = st.one_of(VALUES, st.sampled_from(["1.0", "7.9", "v2", "1.10", "1..2", "-x", "A5", "half-letter",
                                                 "blue_line", "#abc", "01-a.md", "02-b.md", "../game.yaml",
                                                 "_macros.md", "nope.md", "femurs_sully", "no_such_card"]),
                        st.lists(st.sampled_from(["01-a.md", "02-b.md", "x.txt", "../x.md", "a\0.md", "/etc/x.md", "femurs_sully",
                                                  "nope"]), max_size=3))
SANE_META = {"chapters": st.sampled_from([["01-a.md"], ["02-b.md", "01-a.md"], ["01-a.md", "nope.md"]]),
             "page": st.sampled_from(["A5", "Letter", "half-letter", "B5"]), "booklet": st.booleans(),
             "accent": st.sampled_from(["blue_line", "#123456", "nope"]),
             "cover": st.lists(st.sampled_from(["femurs_sully", "titans_keeper", "no_such_card"]), max_size=2),
             "summary": st.text(max_size=40), "authors": st.lists(st.text(max_size=10), max_size=2)}
METAS = st.one_of(st.dictionaries(META_KEYS, META_VALUES, max_size=8),
                  st.fixed_dictionaries({"title": st.just("Bones"), "version": st.sampled_from(["8.0", "7.8", "9"]),
                                         "edition": st.just("Fuzz"), "date": st.just("2026-11")},
                                        optional={k: st.one_of(v, META_VALUES) for k, v in SANE_META.items()}),
                  st.fixed_dictionaries({"title": st.just("Bones"), "version": st.sampled_from(["8.0", "9"]),
                                         "edition": st.just("Fuzz"), "date": st.dates()},
                                        optional=SANE_META),
                  VALUES)
MD_FRAGMENTS = st.sampled_from([       # Jinja2-clean: whatever is wrong is the Markdown's
    "# A heading\n", "## Sub {#sub}\n", "{id=rink rule=\"BOI-SETUP-2\"}\n## Tagged\n", "###### deep\n",
    "{id=rink}\n## Same anchor twice\n", "{nope=1 id=}\n## Bad attributes\n", "# \n", "#no space\n",
    "Plain text with **bold**, *italic* and `code`.\n", "**unclosed bold and *italic\n",
    "See [the rink](#rink) and [nowhere](#nowhere).\n", "[link](http://example.com) [](#) [x](#)\n",
    "| a | b |\n| --- | --- |\n| 1 | 2 |\n", "| a | b |\n| --- |\n| 1 | 2 | 3 |\n", "| lonely |\n",
    "| a |\n| :-: |\n|\n", "|" * 30 + "\n| --- |\n", "| " + "wide cell " * 60 + "|\n| --- |\n| x |\n",
    "Term\n: its definition\n", ": a definition without a term\n", "Term\n:\n",
    "---\nnew_page: false\n---\n", "---\n[broken: front\n---\n", "---\nnew_page: [1]\nnope: 2\n---\n",
    "---\n- a list\n---\n", "> **Note:** a callout\n", "> \n", "1. one\n2. two\n   - nested\n",
    "- a\n    - b\n        - c\n            - d\n", "99999999999999999999. big\n",
    "{{ params.teams }} teams\n", "{{ rulebook.version }}\n", "{% for x in params.zones %}{{ x }} {% endfor %}\n",
    "{# comment #}\n", "{% import \"_macros.md\" as m with context %}{{ m.own() }}\n",
    "{{ cards.femurs_sully.name }}\n", "{stamina} and {nope} and {}\n",
    "![the rink](board:rink)\n", "![nothing](board:nope)\n", "![a card](card:femurs_sully)\n",
    "![a card](card:no_such_card)\n", "![back](card-back:femurs_sully)\n", "![preset](preset:nope)\n",
    "![file](../../etc/passwd)\n", "![file](missing.png)\n", "![](unknown:scheme)\n", "![x]()\n",
    "![dir](.)\n", "![rules](rulebook.yaml)\n",
    "\u202e\u0000\ufeff weird 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \U0001F480 \u0301\n", "<div>raw html</div>\n", "```\nfenced\n```\n",
    "```\nunclosed fence\n", "    indented code\n", "\\\n", "***\n", "[^1]\n\n[^1]: a footnote\n",
    "&amp; &nbsp; &#0; &#xFFFFFF;\n", "x" * 400 + "\n", "\t\ttabs\r\n", "",
])
JINJA_FAULTS = st.sampled_from([
    "{{ params.nope }}\n", "{{ params.zones[99] }}\n", "{{ cards.no_such_card.name }}\n", "{{ 1/0 }}\n",
    "{% if %}\n", "{% endfor %}\n", "{{ unclosed\n", "{% include \"../../../etc/passwd\" %}\n",
    "{% include \"nope.md\" %}\n", "{{ ''.__class__.__mro__ }}\n", "{{ icon('nope') }}\n", "{{ icon(3) }}\n",
    "{{ range(10**9) | list }}\n", "{% extends \"_macros.md\" %}\n", "{{ m.own() }}\n", "{{ params | tojson }}\n",
])
MARKDOWN = st.one_of(st.lists(MD_FRAGMENTS, max_size=8).map("\n".join),
                     st.tuples(st.lists(MD_FRAGMENTS, max_size=5), JINJA_FAULTS).map(lambda t: "\n".join([*t[0], t[1]])),
                     st.text(max_size=200))


def _book_game(tmp: Path):
    root = tmp / "b"
    if not root.exists():
        GameCopy(root, BOOK)
    game = load_game(root, BOOK, Problems())
    assert game is not None
    return game


def _write_book(folder: Path, meta, chapters: list[str]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "rulebook.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True), encoding="utf-8")
    shutil.copy(ROOT / "rules" / BOOK / "rulebook" / "_macros.md", folder / "_macros.md")
    for i, md in enumerate(chapters):
        (folder / f"0{i + 1}-{'ab'[i % 2]}.md").write_text(md, encoding="utf-8")


def _check_and_typeset(game) -> None:
    problems = Problems()
    book = Rulebook(game, problems)
    book.check()
    if not problems.has_errors:
        book.files()


@FUZZ
@given(METAS, st.lists(MARKDOWN, min_size=1, max_size=2))
def test_no_rulebook_source_makes_the_rulebook_raise(tmp_path, meta, chapters):
    """Whatever the current rulebook's metadata and chapters hold, check and typesetting report problems."""
    game = _book_game(tmp_path)
    shutil.rmtree(game.rules_dir / "versions", ignore_errors=True)
    _write_book(game.rules_dir / "rulebook", meta, chapters)
    _check_and_typeset(game)


@settings(FUZZ, max_examples=12)         # each clean example typesets the real current rulebook thrice
@given(st.sampled_from(["7.8", "7.9", "1.0", "bad name", "8.0"]), METAS, st.lists(MARKDOWN, min_size=1, max_size=2))
def test_no_older_version_makes_the_rulebook_raise(tmp_path, folder, meta, chapters):
    """An older version's folder with random metadata and chapters beside the real current rulebook."""
    game = _book_game(tmp_path)
    shutil.rmtree(game.rules_dir / "versions", ignore_errors=True)
    _write_book(game.rules_dir / "versions" / folder, meta, chapters)
    _check_and_typeset(game)


# --- what the property tests found, kept as plain cases ---------------------------------------------
@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def _problems_of(root: Path, slug: str = SLUG) -> list[tuple[str, int, str]]:
    problems = Problems()
    validate(root, slug, problems)
    return [(p.rule, p.loc.line, p.message) for p in problems]


def test_a_game_without_print_settings_is_reported_not_raised(project):
    game = project / "rules" / SLUG / "game.yaml"
    game.write_text(game.read_text().replace("print: {paper: A4, bleed: 3mm, duplex: long, crop_marks: true}\n", ""))
    assert [(r, m) for r, _line, m in _problems_of(project) if r == "YAML-MISSING-KEY"] == [
        ("YAML-MISSING-KEY", "game.yaml lacks required key 'print' (paper and duplex settings)")]


def test_icons_or_fonts_of_the_wrong_shape_are_reported_not_raised(project):
    game = project / "rules" / SLUG / "game.yaml"
    game.write_text(game.read_text().replace('  step: {glyph: "→", color: ink}', "  - step") + "fonts: [bold]\n")
    probs = _problems_of(project)
    assert {(r, line) for r, line, _m in probs} >= {("YAML-TYPE", 10), ("YAML-TYPE", 21)}, probs


def test_a_field_bound_that_is_no_number_is_reported_at_its_line(project):
    game = project / "rules" / SLUG / "game.yaml"
    game.write_text(game.read_text().replace("max: {param: max_speed}", "max: [6]"))
    (project / "rules" / SLUG / "params.yaml").write_text("players: {min: 2, max: 4}\nmax_speed: {a: 1}\n"
                                                         "runners: 4\n")
    assert [(r, line) for r, line, _m in _problems_of(project)][:1] == [("YAML-TYPE", 18)]
    game.write_text(game.read_text().replace("max: [6]", "max: {param: max_speed}"))
    probs = _problems_of(project)
    assert probs[0][:2] == ("YAML-TYPE", 18) and "not {'a': 1}" in probs[0][2], probs


def test_collections_of_the_wrong_shape_or_outside_the_cards_are_reported(project):
    game = project / "rules" / SLUG / "game.yaml"
    text = game.read_text()
    game.write_text(text + "collections:\n  deck: [decks]\n")
    assert [(r, line) for r, line, _m in _problems_of(project)] == [("YAML-TYPE", 22)]
    game.write_text(text + "collections:\n  deck: {folder: ../../etc}\n")
    assert [(r, line) for r, line, _m in _problems_of(project)] == [("YAML-TYPE", 22)]
    game.write_text(text + "collections:\n  deck: {folder: decks, keys: [side], doc: a deck}\n")
    assert _problems_of(project) == []


def test_an_image_that_is_no_picture_is_reported_by_the_check(tmp_path):
    """Found by the property test: a linked file that is no image passed the check and broke typesetting."""
    game = _book_game(tmp_path)
    shutil.rmtree(game.rules_dir / "versions")
    meta = {"title": "Bones", "version": "8.0", "edition": "Fuzz", "date": "2026-11"}
    _write_book(game.rules_dir / "rulebook", meta, ["# A heading\n\nText.\n\n![rules](rulebook.yaml)\n"])
    problems = Problems()
    assert Rulebook(game, problems).files() == {}
    assert [(p.rule, Path(p.loc.file).name, p.loc.line) for p in problems] == [("IMAGE-READ", "01-a.md", 5)]


def test_fonts_must_be_bundled_fonts_for_known_roles(project):
    """Found by the property test: any font name reached the text measurer and raised there."""
    game = project / "rules" / SLUG / "game.yaml"
    game.write_text(game.read_text() + "fonts: {bold: ../../etc/passwd, bolt: LiberationSerif-Bold,\n"
                    "        italic: LiberationSerif-Italic}\n")
    assert [(r, line) for r, line, _m in _problems_of(project)] == [("YAML-TYPE", 21), ("YAML-UNKNOWN-KEY", 21)]
    game.write_text(game.read_text().replace("bold: ../../etc/passwd, bolt:", "bold:"))
    assert _problems_of(project) == []


def test_a_name_holding_a_nul_byte_is_reported_not_raised(project, tmp_path):
    """Found by the property tests: a NUL byte in a template or chapter name raised in the path lookup."""
    game = project / "rules" / SLUG / "game.yaml"
    game.write_text(game.read_text().replace("template: front", 'template: "fr\\0nt"'))
    assert [(r, line) for r, line, _m in _problems_of(project)][:1] == [("PATH-ESCAPE", 14)]
    book = _book_game(tmp_path)
    shutil.rmtree(book.rules_dir / "versions")
    meta = {"title": "Bones", "version": "8.0", "edition": "Fuzz", "date": "2026-11", "chapters": ["01-a.md", "a\0.md"]}
    _write_book(book.rules_dir / "rulebook", meta, ["# A heading\n"])
    problems = Problems()
    Rulebook(book, problems).check()
    assert [(p.rule, p.loc.line) for p in problems] == [("RULEBOOK-META", 3)], list(problems)   # chapters: sorted first


def test_a_card_size_or_bleed_that_cannot_be_printed_is_reported_at_its_line(project):
    """Found by the property test: a zero, negative or oversized card, or a bleed too wide, passed
    validation and raised in the imposition of the build."""
    game = project / "rules" / SLUG / "game.yaml"
    text = game.read_text()
    for old, new, rule, line in [("width: 44mm", "width: 0mm", "YAML-RANGE", 5),
                                 ("height: 68mm", "height: -68mm", "YAML-RANGE", 5),
                                 ("width: 44mm", "width: 300mm", "YAML-RANGE", 5),
                                 ("bleed: 3mm", "bleed: -3mm", "YAML-RANGE", 3),
                                 ("bleed: 3mm", "bleed: 90mm", "YAML-RANGE", 5),
                                 ("min: 1,", "min: .nan,", "YAML-TYPE", 18)]:
        game.write_text(text.replace(old, new))
        assert [(r, n) for r, n, _m in _problems_of(project)][:1] == [(rule, line)], new


def test_an_author_that_looks_like_markup_is_printed_as_text(tmp_path):
    """Found by the fuzzer: ``authors: ['<?']`` reached the title page's paragraph unescaped and made
    the typesetter raise ("parse ended with 1 unclosed tags")."""
    game = _book_game(tmp_path)
    shutil.rmtree(game.rules_dir / "versions", ignore_errors=True)
    _write_book(game.rules_dir / "rulebook", {"title": "Bones", "version": "8.0", "edition": "Fuzz", "date": "2026-11",
                                                "authors": ["<?"]}, ["# Rules\n\nPlay.\n"])
    _check_and_typeset(game)

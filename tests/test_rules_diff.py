"""``cardgen rules diff``: the typeset text of two rulebook versions compared word by word, changed
numbers flagged as rule changes apart from rewording, and the changelog draft; booklets that end on
a back cover and keep their bookmarks; older versions that picture their own cards.

Each rule has its breaking case and its legal twin; the booklet is read back from the PDF.
"""

from __future__ import annotations

import io
import json
import re

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from reportlab.pdfgen import canvas

from cardgen.cli import main
from cardgen.cli.rules import rules
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import Rulebook, impose_booklet
from cardgen.rulebook.booklet import slots
from cardgen.rulebook.diff import edit, section_edits, word_diff
from cardgen.rulebook.plaintext import Passage, Section, markup_text
from tests.conftest import GameCopy, has_problem, pdf_pages, problems_json, run_cli

if "rules" not in main.commands:          # the lead wires it into cli.py; until then, here
    main.add_command(rules)

LB = "loot_battles"
BOI = "bones_on_ice"


def cli(*args: str, root=None) -> tuple[int, str]:
    """Exit code and everything printed (stdout and stderr)."""
    res = CliRunner().invoke(main, ["--root", str(root), *args] if root else list(args), catch_exceptions=False)
    return res.exit_code, res.output


# --- the word diff ---------------------------------------------------------------------------------

def test_a_changed_number_is_a_rule_change():
    e = edit("Each team recovers 8 Stamina, never above 20.", "Each team recovers 6 Stamina, never above 20.")
    assert e.kind == "rule" and e.numbers == [("8", "6")]
    assert ("-", "8 ") in e.words and ("+", "6 ") in e.words


def test_same_numbers_in_other_words_is_rewording():
    e = edit("Each team recovers 8 Stamina, never above 20.", "Both teams get back 8 Stamina, up to 20.")
    assert e.kind == "reworded" and e.numbers == []


def test_a_die_is_a_number_a_name_is_not():
    assert edit("Roll a d6.", "Roll a d8.").kind == "rule"
    assert edit("The 1v1 follows.", "Then the duel follows.").kind == "reworded"      # "1v1" names a phase


def test_a_passage_split_in_two_is_rewording_not_a_rule_change():
    old = Section(("Pass",), 2, "pass", [Passage("Pay 1 Stamina to pass. The opponent may pay 1 Stamina to intercept.")])
    new = Section(("Pass",), 2, "pass", [Passage("Pay 1 Stamina to pass."),
                                         Passage("The opponent may then pay 1 Stamina to intercept it.")])
    assert [e.kind for e in section_edits(old, new)] and all(e.kind != "rule" for e in section_edits(old, new))
    new.passages[1] = Passage("The opponent may then pay 2 Stamina to intercept it.")
    assert any(e.kind == "rule" for e in section_edits(old, new))      # the twin: a number did change


def test_word_diff_gives_the_text_back():
    words, _ = word_diff("a set of d4 and d6, for each player.", "a set of d4, d6 and d8 for each player.")
    assert "".join(t for op, t in words if op != "-").strip() == "a set of d4, d6 and d8 for each player."
    old = "".join(t for op, t in words if op != "+")            # the old side, up to its spacing
    assert re.sub(r"\s", "", old) == re.sub(r"\s", "", "a set of d4 and d6, for each player.")


def test_markup_is_read_as_printed():
    assert markup_text('Pay 1 <font name="x" color="#0a0">♦</font> <b>Stamina</b>; see '
                       '<a href="#chaos" color="#123">The Chaos Table</a><super><a href="#fn-1">1</a></super>'
                       ' &amp; more') == "Pay 1 ♦ Stamina; see The Chaos Table[1] & more"


# --- the command -----------------------------------------------------------------------------------

def test_diff_reads_the_typeset_text_not_the_markdown():
    code, out = run_cli("rules", "diff", BOI, "7.8", "current", "--no-color")
    assert code == 0
    assert "~ changed  Stamina and dice › What things cost › Boost" in out
    assert "[-When-] {+Before any roll+}" in out                           # word by word
    assert "1 ♦ Stamina" in out                                           # {{ m.stamina(…) }} and {stamina} rendered
    for raw in ("{{", "{%", "{stamina}", ":::", "](#", "**"):
        assert raw not in out, raw
    assert "\x1b[" not in out                                             # plain when not a terminal
    code, colored = run_cli("rules", "diff", BOI, "7.8", "current", "--color")
    assert code == 0 and "\x1b[32m" in colored and "\x1b[31m" in colored


def test_changed_numbers_are_flagged_as_rule_changes(tmp_path):
    g = GameCopy(tmp_path, LB)
    code, out = run_cli("rules", "diff", LB, "0.9", "current", "--format", "json", root=g.root)
    before = json.loads(out)
    table = [c for c in before["changes"] if c["section"] == "Setting up › How long the game lasts"]
    assert not any(e["kind"] == "rule" and ["7", "8"] in e["numbers"] for c in table for e in c["edits"])
    # the old version kept its own number: 7 Battles for 4 players then, 8 today
    g.edit("rules/loot_battles/params.yaml", "4: 7,", "4: 8,")
    g.write("rules/loot_battles/versions/0.9/params.yaml", "battles_to_win: {4: 7}\n")
    code, out = run_cli("rules", "diff", LB, "0.9", "current", "--format", "json", root=g.root)
    assert code == 0
    doc = json.loads(out)
    rule = [e for c in doc["changes"] for e in c["edits"] if e["kind"] == "rule" and ["7", "8"] in e["numbers"]]
    assert rule and rule[0]["old"].startswith("4 | 7") and rule[0]["new"].startswith("4 | 8")
    assert doc["counts"]["passages_rule"] == before["counts"]["passages_rule"] + 1
    code, text = run_cli("rules", "diff", LB, "0.9", "current", root=g.root)
    assert re.search(r"^    RULE   4 \| \[-7-\] ?\{\+8\+\}.*\(7 → 8\)$", text, re.M)


def test_changelog_draft_lists_rule_changes_before_rewording(tmp_path):
    out_file = tmp_path / "CHANGELOG.md"
    code, out = run_cli("rules", "diff", BOI, "7.8", "current", "--changelog", str(out_file))
    assert code == 0 and out_file.is_file()
    md = out_file.read_text(encoding="utf-8")
    assert md.startswith("# Bones on Ice: changes from v7.8 to v7.9")
    heads = re.findall(r"^## (.+)$", md, re.M)
    assert heads == ["Rule changes", "New and removed", "Rewording"]
    rules_part = md[md.index("## Rule changes"):md.index("## New and removed")]
    assert "### Welcome to Bones on Ice › What’s in the box" in rules_part and "— → d6" in rules_part
    assert "- **New section: Clarifications**" in md
    assert "Version 7.9 keeps every rule" in md                            # the version's summary
    assert "{{" not in md and ":::" not in md


def test_changelog_into_a_missing_folder_is_a_usage_error(tmp_path):
    code, out = cli("rules", "diff", BOI, "7.8", "current", "--changelog", str(tmp_path / "nope" / "c.md"))
    assert code == 2 and "does not exist" in out
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize("args, hint", [
    ((BOI, "7.7", "current"), "did you mean"),
    ((BOI, "v7.8", "lastest"), "did you mean"),
    (("bones_on_ics", "7.8", "current"), "did you mean 'bones_on_ice'"),
])
def test_unknown_game_or_version_exits_2_with_a_hint(args, hint):
    code, out = cli("rules", "diff", *args)
    assert code == 2 and hint in out
    assert "Traceback" not in out


def test_known_names_in_every_spelling_exit_0():
    for a, b in (("7.8", "current"), ("v7.8", "7.9"), ("7.9", "latest")):
        code, _ = cli("rules", "diff", BOI, a, b, "--sections")
        assert code == 0, (a, b)


def test_sections_only_prints_no_passages():
    code, out = run_cli("rules", "diff", BOI, "7.8", "current", "--sections")
    assert code == 0 and "~ changed  Playing a round" in out
    assert not re.search(r"^    (RULE|reword|new|gone) ", out, re.M)


# --- the booklet -----------------------------------------------------------------------------------

def _numbered(n: int, outline: bool = True) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(148 * 72 / 25.4, 210 * 72 / 25.4), invariant=1)
    for i in range(1, n + 1):
        c.setFont("Helvetica", 40)
        c.drawCentredString(210, 300, f"P{i}")
        if outline:
            c.bookmarkPage(f"p{i}")
            c.bookmarkPage(f"s{i}")
            c.addOutlineEntry(f"Chapter {i}", f"p{i}", level=0)
            c.addOutlineEntry(f"Section {i}.1", f"s{i}", level=1)
        c.showPage()
    c.save()
    return buf.getvalue()


def _back() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(148 * 72 / 25.4, 210 * 72 / 25.4), invariant=1)
    c.setFont("Helvetica", 40)
    c.drawCentredString(210, 300, "BACK")
    c.showPage()
    c.save()
    return buf.getvalue()


def _halves(data: bytes) -> list[tuple[str, str]]:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [(p.crop((0, 0, p.width / 2, p.height)).extract_text().strip(),
                 p.crop((p.width / 2, 0, p.width, p.height)).extract_text().strip()) for p in pdf.pages]


def test_text_runs_onto_the_back_cover_without_one_and_never_with_one():
    bare = _halves(impose_booklet(_numbered(8), 210.0, 297.0))
    assert bare[0][0] == "P8"                                   # the breaking case: page 8 is the back cover
    got = _halves(impose_booklet(_numbered(8), 210.0, 297.0, back=_back()))
    assert got[0] == ("BACK", "P1")                             # first sheet, outside: back cover and title
    pages = [t for side in got for t in side if t]
    assert sorted(pages, key=lambda t: (t == "BACK", t)) == [f"P{i}" for i in range(1, 9)] + ["BACK"]
    assert slots(8, True)[-1] == 8 and slots(8, True).count(None) == 3


def test_booklet_keeps_the_outline_on_the_right_sheet_sides():
    data = impose_booklet(_numbered(6), 210.0, 297.0, back=_back())
    r = PdfReader(io.BytesIO(data))
    top = [x for x in r.outline if not isinstance(x, list)]
    assert [x.title for x in top] == [f"Chapter {i}" for i in range(1, 7)]
    assert all(isinstance(x, list) and x[0].title.startswith("Section") for x in r.outline if isinstance(x, list))
    halves = _halves(data)
    for x in top:
        side = r.get_destination_page_number(x)
        assert f"P{x.title.split()[-1]}" in halves[side], (x.title, side, halves[side])
    assert r.trailer["/Root"].get("/PageMode") == "/UseOutlines"
    assert not PdfReader(io.BytesIO(impose_booklet(_numbered(6, outline=False), 210.0, 297.0))).outline


@pytest.fixture(scope="module")
def boi_built(tmp_path_factory):
    g = GameCopy(tmp_path_factory.mktemp("boi_diff"), BOI).only("rulebook")
    code, probs, out = g.build()
    assert code == 0, probs
    return g, out


def test_the_real_booklet_ends_on_its_back_cover_with_bookmarks(boi_built):
    _, out = boi_built
    data = (out / "rulebook-booklet.pdf").read_bytes()
    left, right = _halves(data)[0]
    assert left.startswith("Bones on Ice") and "Rulebook · Version 7.9" in left and "Changes" not in left
    assert right.startswith("Bones on Ice") and "RULEBOOK" in right            # the title page
    titles = [x.title for x in PdfReader(io.BytesIO(data)).outline if not isinstance(x, list)]
    assert titles[:2] == ["Contents", "Welcome to Bones on Ice"] and "Changes since v7.8" in titles


# --- older versions picture their own cards ---------------------------------------------------------

def _text(path) -> str:
    return "\n".join(pdf_pages(path.read_bytes()))


def test_an_older_book_pictures_the_cards_of_its_version(boi_built):
    _, out = boi_built
    old, cur = _text(out / "rulebook-v7.8.pdf"), _text(out / "rulebook.pdf")
    assert "The cards pictured are those of version 7.8." in old and "cards pictured" not in cur
    assert "use per round" not in old and "use per round" in cur        # the 7.9 ruling on the Spirit cards
    assert "The defending skaters try to stop" in old and "The defending skaters try to stop" not in cur


def test_a_version_without_card_data_says_it_pictures_todays_cards(tmp_path):
    g = GameCopy(tmp_path, LB)
    for own in ("cards.yaml", "params.yaml"):           # v0.9 without the card data it ships with
        (g.root / "rules" / LB / "versions" / "0.9" / own).unlink()
    book = Rulebook(load_game(g.root, LB, Problems()), Problems())
    old = book.versions[0]
    assert book.pictured(old) == f"The cards pictured are today's (version {book.current.version})."
    assert book.game_of(old) is book.game and book.pictured(book.current) == ""


def test_version_card_data_naming_an_unknown_card_is_an_error(tmp_path):
    g = GameCopy(tmp_path, BOI)
    g.write("rules/bones_on_ice/versions/7.8/cards.yaml",
            "cards:\n  - {id: action_shot, text: \"Shoot.\"}\n")
    code, probs = problems_json("validate", BOI, root=g.root)
    assert code == 1 and has_problem(probs, "RULEBOOK-CARD", "versions/7.8/cards.yaml", 2)
    assert any("action_shoot" in (p.get("hint") or "") + p["message"] for p in probs)
    g.write("rules/bones_on_ice/versions/7.8/cards.yaml",                 # the legal twin
            "cards:\n  - {id: action_shoot, text: \"Shoot.\"}\n")
    code, probs = problems_json("validate", BOI, root=g.root)
    assert code == 0, probs


def test_version_card_data_is_checked_as_card_fields(tmp_path):
    g = GameCopy(tmp_path, BOI)
    g.write("rules/bones_on_ice/versions/7.8/cards.yaml", "cards:\n  - {id: femurs_sully, reflexes: d7}\n")
    code, probs = problems_json("validate", BOI, root=g.root)
    assert code == 1 and any(p["file"].endswith("versions/7.8/cards.yaml") and p["line"] == 2 for p in probs)
    g.write("rules/bones_on_ice/versions/7.8/cards.yaml", "cards:\n  - {id: femurs_sully, reflexes: d6}\n")
    code, probs = problems_json("validate", BOI, root=g.root)
    assert code == 0, probs


def test_version_params_with_a_key_today_lacks_is_a_warning_with_a_hint(tmp_path):
    g = GameCopy(tmp_path, BOI)
    g.write("rules/bones_on_ice/versions/7.8/params.yaml", "stamina:\n  recovry: 6\n")
    code, probs = problems_json("validate", BOI, root=g.root)
    warn = [p for p in probs if p["rule"] == "RULEBOOK-META" and "recovry" in p["message"]]
    assert code == 0 and warn and warn[0]["severity"] == "warning" and warn[0]["line"] == 2
    assert "recovery" in (warn[0].get("hint") or warn[0]["message"])


def test_a_broken_chapter_is_reported_at_its_line_and_exits_1(tmp_path):
    g = GameCopy(tmp_path, BOI)
    g.edit("rules/bones_on_ice/versions/7.8/01-welcome.md", "{{ params.rounds }}\nrounds.", "{{ params.roundz }}\nrounds.")
    code, out = run_cli("rules", "diff", BOI, "7.8", "current", root=g.root)
    assert code == 1
    assert re.search(r"versions/7\.8/01-welcome\.md:\d+:\d+: RULEBOOK-JINJA error: .*roundz.*did you mean 'rounds'", out)
    code, out = run_cli("rules", "diff", BOI, "7.8", "current", "--format", "json", root=g.root)
    doc = json.loads(out)
    assert code == 1 and doc["changes"] == [] and doc["problems"][0]["rule"] == "RULEBOOK-JINJA"


def test_a_renamed_section_is_matched_not_removed_and_added(tmp_path):
    g = GameCopy(tmp_path, BOI)
    g.edit("rules/bones_on_ice/rulebook/02-setup.md", "## The rink\n", "## The ice rink\n")
    code, out = run_cli("rules", "diff", BOI, "7.8", "current", "--sections", root=g.root)
    assert code == 0 and "~ changed  Setting up › The ice rink   (renamed from “The rink”)" in out
    assert not re.search(r"^[-+] \w+ +Setting up › The (ice )?rink", out, re.M)
    # the twin: a heading and text with nothing in common is a section removed and one added
    g.edit("rules/bones_on_ice/rulebook/06-winning.md", "## The shootout\n", "## Ties\n")
    g.write("rules/bones_on_ice/rulebook/06-winning.md",
            (g.path("rules/bones_on_ice/rulebook/06-winning.md").read_text(encoding="utf-8").split("## Ties")[0]
             + "## Ties\n\nA tie stands: both teams share the game.\n"))
    code, out = run_cli("rules", "diff", BOI, "7.8", "current", "--sections", root=g.root)
    assert code == 0 and "+ added    Winning the game › Ties" in out and "- removed  Winning the game › The shootout" in out

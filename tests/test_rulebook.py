"""Rulebooks: typeset from Markdown + YAML, numbers from the game's YAML, versions, diff, booklet.

Read back from the PDFs: the table of contents against the headings and the pages they stand on,
the outline, the text a number change produces, the booklet's page order.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.cli.rules import rules
from cardgen.content.catalogue import load_catalogue
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.rulebook import Rulebook, booklet_order, check, impose_booklet
from cardgen.rulebook.booklet import padded
from cardgen.rulebook.jinja import line_map
from tests.conftest import ROOT, GameCopy, has_problem, pdf_pages, problems_json, qpdf_check, run_cli
from tests.rulebooks import assert_toc_matches, outline, rulebook_build, rulebook_names, rulings

GAME = "loot_battles"
CUR = "rules/loot_battles/rulebook"
OLD = "rules/loot_battles/versions/0.9"
CATALOGUE = load_catalogue(ROOT, "loot_battles", Problems())

if "rules" not in main.commands:          # the lead wires it into cli.py; until then, here
    main.add_command(rules)


@pytest.fixture(scope="module")
def built(full_build):
    """The game's part of the session's build of every game: (exit code, its problems, its outputs)."""
    code, probs, out = rulebook_build(full_build, GAME)
    assert code == 0, probs
    return code, out, probs


@pytest.fixture(scope="module")
def texts(built, full_build):
    """The text of every page of rulebook.pdf, read once."""
    return full_build.pages(built[1] / "rulebook.pdf")


def page_texts(path: Path) -> list[str]:
    return pdf_pages(path.read_bytes())


# --- outputs -------------------------------------------------------------------------------------

def test_build_writes_every_version_and_the_booklet(built):
    _, out, probs = built
    assert not [p for p in probs if p["rule"].startswith("RULEBOOK")]        # the legal twin of every rule
    names = rulebook_names(out)
    assert names == ["rulebook-booklet.pdf", "rulebook-designer.pdf", "rulebook-v0.9.pdf", "rulebook.pdf"]
    for name in names:
        qpdf_check(out / name)
    booklet = PdfReader(str(out / "rulebook-booklet.pdf"))
    w, h = float(booklet.pages[0].mediabox.width), float(booklet.pages[0].mediabox.height)
    assert (round(w), round(h)) == (842, 595)                                 # A4 landscape sheets
    assert len(booklet.pages) % 2 == 0


def test_toc_matches_headings_and_their_pages(built, texts):
    _, out, _ = built
    problems = Problems()
    book = Rulebook(load_game(ROOT, GAME, problems), problems)
    heads = [h.text for h in book.headings(book.current) if h.level <= 2]
    assert_toc_matches((out / "rulebook.pdf").read_bytes(), texts, heads, "0.9")


def test_outline_and_internal_links(built):
    _, out, _ = built
    reader = PdfReader(str(out / "rulebook.pdf"))
    entries = outline(reader)
    tops = [t for lvl, t, _ in entries if lvl == 0]
    assert tops == ["Contents", "Welcome to Loot & Battles", "Setting up", "Playing a Battle", "Enemies",
                    "Loot", "Glossary", "Clarifications", "Icons", "Changes since v0.9"]
    assert any(lvl == 2 for lvl, _, _ in entries)                       # h3 headings are bookmarked too
    pages = [p for _, _, p in entries]
    assert pages == sorted(pages)
    links = [a.get_object() for a in reader.pages[1].get("/Annots") or []]
    assert any(a.get("/Subtype") == "/Link" and ("/Dest" in a or "/A" in a) for a in links)


def test_running_header_and_footer(built, texts):
    _, out, _ = built
    for n, text in enumerate(texts[1:], start=2):
        assert "Loot & Battles — Rulebook" in text
        assert "Version 1.0 · First Edition" in text
        assert re.search(rf"(^|\s){n}\s*$", text), n
    assert "Version 0.9 · Design Challenge Draft" in pdf_pages((out / "rulebook-v0.9.pdf").read_bytes())[1]


def test_every_catalogue_rule_and_ruling_is_in_the_rulebook(texts, built):
    problems = Problems()
    game = load_game(ROOT, GAME, problems)
    book = Rulebook(game, problems)
    tagged = {r for h in book.headings(book.current) for r in h.rules}
    ids = set(CATALOGUE.rules)
    assert ids and ids <= tagged, sorted(ids - tagged)
    text = " ".join(texts).replace("\n", " ")
    designer = " ".join(page_texts(built[1] / "rulebook-designer.pdf")).replace("\n", " ")
    for r in rulings(game):
        assert r["id"] in designer and r["id"] not in text      # rule IDs: the designer's edition only
        assert r["text"].split(":")[0][:25] in text


def test_cards_are_drawn_by_the_card_pipeline(texts):
    unique_page = next(t for t in texts if "Unique items" in t and "Mirror Aegis" in t)
    # the card's own printed text (from templates + cards YAML), not the rulebook's prose
    assert "Loot & Battles" in unique_page and "sword_unique" not in unique_page      # no internal ids


# --- numbers come from the YAML -------------------------------------------------------------------

def _current_pdf_text(root: Path, *needles: str) -> str:
    """Text of the pages of the current rulebook that hold any of ``needles``."""
    problems = Problems()
    book = Rulebook(load_game(root, GAME, problems), problems)
    data = book.pdf(book.current)
    assert data is not None, [p.text() for p in problems]
    pages = [i for i, p in enumerate(PdfReader(io.BytesIO(data)).pages)
             if any(n in (p.extract_text() or "") for n in needles)]
    texts = pdf_pages(data)
    return "\n".join(texts[i] for i in pages)


def test_a_number_changed_in_yaml_changes_the_rulebook(game_copy, texts):
    before = "\n".join(texts)
    assert re.search(r"^4 7$", before, re.M) and re.search(r"^Rats 1 0 4 \+1", before, re.M)
    g = game_copy(GAME)
    g.edit("rules/loot_battles/params.yaml", "4: 7,", "4: 8,")
    g.edit("cards/loot_battles/enemies.yaml", "name: Rat, enemy: rats, health: 1,", "name: Rat, enemy: rats, health: 2,")
    after = _current_pdf_text(g.root, "Battles to win", "Attack roll")
    assert re.search(r"^4 8$", after, re.M) and not re.search(r"^4 7$", after, re.M)
    assert re.search(r"^Rats 2 0 4 \+1", after, re.M)


# --- versions and diff ------------------------------------------------------------------------------

def test_diff_lists_changed_added_sections():
    code, out = run_cli("rules", "diff", GAME, "0.9", "1.0")
    assert code == 0
    assert "~ changed  Setting up › How long the game lasts" in out
    assert "+ added    Clarifications" in out
    assert not re.search(r"^[~+-] \w+ +Enemies", out, re.M)       # unchanged chapters are not listed
    code, out = run_cli("rules", "diff", GAME, "v0.9", "current", "--format", "json")
    doc = json.loads(out)
    kinds = {(c["kind"], c["section"]) for c in doc["changes"]}
    assert ("changed", "Loot › Equipping items") in kinds and ("added", "Clarifications") in kinds
    code, out = run_cli("rules", "diff", GAME, "1.0", "0.9")
    assert "- removed  Clarifications" in out


def test_diff_sees_an_edited_section(game_copy):
    g = game_copy(GAME)
    g.edit(f"{CUR}/04-enemies.md", "Learn them:", "Know them:")
    code, out = run_cli("rules", "diff", GAME, "0.9", "current", root=g.root)
    assert code == 0 and "~ changed  Enemies\n" in out
    assert "shrug off blows. [-Learn-] {+Know+} them" in out


def test_unknown_version_is_usage_error():
    code, _ = run_cli("rules", "diff", GAME, "0.8", "1.0")
    assert code == 2


def test_versions_listed():
    code, out = run_cli("rules", "versions", GAME, "--format", "json")
    assert code == 0
    vs = json.loads(out)["versions"]
    assert [(v["version"], v["pdf"], v["current"]) for v in vs] == [
        ("0.9", "rulebook-v0.9.pdf", False), ("1.0", "rulebook.pdf", True)]


# --- booklet -------------------------------------------------------------------------------------

EXPECTED = {
    8: [(7, 0), (1, 6), (5, 2), (3, 4)],
    12: [(11, 0), (1, 10), (9, 2), (3, 8), (7, 4), (5, 6)],
    16: [(15, 0), (1, 14), (13, 2), (3, 12), (11, 4), (5, 10), (9, 6), (7, 8)],
}


@pytest.mark.parametrize("n", [8, 12, 16])
def test_booklet_order(n):
    assert booklet_order(n) == EXPECTED[n]


def test_booklet_pads_to_multiple_of_four():
    assert padded(5) == 8 and padded(8) == 8 and padded(1) == 4
    sides = booklet_order(6)
    assert sides == [(None, 0), (1, None), (5, 2), (3, 4)]


def _numbered_pdf(n: int) -> bytes:
    from reportlab.pdfgen import canvas
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(148 * 72 / 25.4, 210 * 72 / 25.4), invariant=1)
    for i in range(1, n + 1):
        c.setFont("Helvetica", 40)
        c.drawCentredString(210, 300, f"P{i}")
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("n", [8, 12, 16])
def test_booklet_imposes_pages_in_order(n):
    data = impose_booklet(_numbered_pdf(n), 210.0, 297.0)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert len(pdf.pages) == n // 2
        got = []
        for page in pdf.pages:
            w = page.width
            left = page.crop((0, 0, w / 2, page.height)).extract_text().strip()
            right = page.crop((w / 2, 0, w, page.height)).extract_text().strip()
            got.append((int(left[1:]) - 1, int(right[1:]) - 1))
    assert got == EXPECTED[n]


# --- bad input: FILE:LINE and a clear message, exit 1 --------------------------------------------------

BREAKS = [
    ("RULEBOOK-JINJA", f"{CUR}/03-battle.md", "{{ params.dodge_loss_on_miss }}.", "{{ params.dodge_los_on_miss }}."),
    ("RULEBOOK-JINJA", f"{CUR}/03-battle.md", "draw {{ params.encounters_drawn }} cards",
     "draw {{ params.encounters_drawn } cards"),
    ("RULEBOOK-CARD", f"{CUR}/03-battle.md", "{% set r1 = cards.enc_rats_4 %}", "{% set r1 = cards.enc_rats_44 %}"),
    ("RULEBOOK-CARD", f"{CUR}/01-welcome.md", "(card:growlers)", "(card:growler)"),
    ("RULEBOOK-CARD", f"{CUR}/rulebook.yaml", "cover: [class_melee,", "cover: [class_mele,"),
    ("RULEBOOK-TABLE", f"{CUR}/02-setup.md", "| ---: | ---: |\n{% for n, b", "| ---: |\n{% for n, b"),
    ("RULEBOOK-TABLE", f"{CUR}/02-setup.md", "| {{ n }} | {{ b }} |", "| {{ n }} | {{ b }} | {{ b }} |"),
    ("RULEBOOK-META", f"{CUR}/rulebook.yaml", 'version: "1.0"', "version: 1.0"),
    ("RULEBOOK-LINK", f"{CUR}/02-setup.md", "(#first-encounter)", "(#first-encountr)"),
    ("RULEBOOK-TEXT", f"{CUR}/04-enemies.md", "Learn them:", "Learn them (â‰¥ 2):"),
    ("RULEBOOK-JINJA", f"{OLD}/05-loot.md", "{{ c.text | expand(card=c, effect=params.unique_effects.get(c.id, {})) }}",
     "{{ c.text }}"),                               # a card text's own {{ }} printed unexpanded
    ("TEXT-GLYPH", f"{CUR}/06-glossary.md", "A player who is not knocked out.", "A player who is not knocked out ✓."),
]


@pytest.mark.parametrize("rule,rel,old,new", BREAKS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKS)])
def test_bad_input_reported_at_its_line(game_copy, rule, rel, old, new):
    g = game_copy(GAME).only("rulebook")
    line = g.edit(rel, old, new)
    code, probs, out = g.build()
    assert code == 1
    assert has_problem(probs, rule, rel.split("/", 2)[-1], line), probs
    assert not out.exists() or not list(out.iterdir())               # nothing written


def test_version_folder_without_metadata(game_copy):
    g = game_copy(GAME).only("rulebook")
    g.path(f"{OLD}/rulebook.yaml").unlink()
    code, probs, _ = g.build()
    assert code == 1
    assert has_problem(probs, "RULEBOOK-META", "versions/0.9/rulebook.yaml", 1), probs
    p = next(p for p in probs if p["rule"] == "RULEBOOK-META")
    assert "no metadata" in p["message"] and "title, version, edition and date" in p["message"]


def test_metadata_missing_a_key(game_copy):
    g = game_copy(GAME).only("rulebook")
    g.edit(f"{CUR}/rulebook.yaml", "edition: First Edition\n", "")
    start = next(i for i, ln in enumerate(g.path(f"{CUR}/rulebook.yaml").read_text().splitlines(), 1)
                 if ln.startswith("title:"))
    code, probs, _ = g.build()
    assert code == 1 and has_problem(probs, "RULEBOOK-META", "rulebook/rulebook.yaml", start), probs


def test_check_reports_without_typesetting(game_copy):
    g = game_copy(GAME)
    line = g.edit(f"{CUR}/03-battle.md", "{{ params.dodge_loss_on_miss }}.", "{{ params.nope }}.")
    problems = Problems()
    check(load_game(g.root, GAME, problems), problems)
    bad = [p for p in problems if p.rule == "RULEBOOK-JINJA"]
    assert bad and bad[0].loc.line == line and "params has no key 'nope'" in bad[0].message


def test_clean_sources_check_clean():
    problems = Problems()
    check(load_game(ROOT, GAME, problems), problems)
    assert not problems.has_errors, [p.text() for p in problems]


# --- the Jinja2 line map --------------------------------------------------------------------------

def test_line_map_points_generated_rows_at_the_loop_body():
    src = "# T\n\n| a | b |\n| - | - |\n{% for x in xs %}\n| {{ x }} | y |\n{% endfor %}\nend\n"
    out = "# T\n\n| a | b |\n| - | - |\n| 1 | y |\n| 2 | y |\n| 3 | y |\nend\n"
    m = line_map(src, out)
    assert m[:4] == [1, 2, 3, 4]
    assert m[4:7] == [6, 6, 6]
    assert m[7] == 8


FEATURES = """---
toc: true
---
# Odds and ends

A footnote[^1], ~~struck~~ text, `code`, an [outside link](https://example.org) and a
[link inside](#odds-and-ends).

> A quoted rule of thumb.

- one
  - nested {melee}
- two

1. first
2. second

```
plain code block
```

---

{id=custom rule="LB-X-1"}
### Deep heading

![A file picture](pic.png)

![Back of a card](card-back:rats)

[^1]: The footnote text.
"""


def test_markdown_features_typeset(game_copy):
    from PIL import Image
    g = game_copy(GAME)
    g.write(f"{CUR}/08-features.md", FEATURES)
    Image.new("RGB", (40, 20), "#884422").save(g.path(f"{CUR}/pic.png"))
    problems = Problems()
    book = Rulebook(load_game(g.root, GAME, problems), problems)
    data = book.pdf(book.current)
    assert data is not None and not problems.has_errors, [p.text() for p in problems]
    text = " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages)
    for needle in ("The footnote text.", "plain code block", "A quoted rule of thumb.", "nested", "Deep heading",
                   "A file picture"):
        assert needle in text, needle
    assert "LB-X-1" not in text                 # a rule ID is printed in the designer's edition only
    assert any(h.anchor == "custom" and h.rules == ["LB-X-1"] for h in book.headings(book.current))


def test_content_errors_stop_only_their_own_rulebook_check(tmp_path):
    """A card error is reported alone (the rulebook would only repeat it), and does not hide
    another game's rulebook problems in the same run."""
    bw = GameCopy(tmp_path, "bone_wars")
    bw.edit("cards/bone_wars/tails.yaml", "defaults: {type: part, part: tail,", "defaults: {type: part, part: torso,")
    lb = GameCopy(tmp_path, GAME)
    line = lb.edit(f"{CUR}/03-battle.md", "{{ params.dodge_loss_on_miss }}.", "{{ params.dodge_los_on_miss }}.")
    code, probs = problems_json("validate", "bone_wars", GAME, root=tmp_path)
    assert code == 1
    assert has_problem(probs, "BW-CARD-2", "rules/bone_wars/constraints.yaml")
    assert not [p for p in probs if p["rule"].startswith("RULEBOOK") and "bone_wars" in p["file"]], probs
    assert has_problem(probs, "RULEBOOK-JINJA", "loot_battles/rulebook/03-battle.md", line), probs


def test_a_grouped_table_continued_on_a_new_page_names_its_group_again():
    """Bones on Ice's teams table: a team's skaters split over two pages keep their team name."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from cardgen.rulebook.flowables import GroupedTable, _para

    st = ParagraphStyle("cell")
    rows = [[Paragraph("Team", st), Paragraph("Skater", st)]]
    rows += [[Paragraph(f"Team {i // 4}" if i % 4 == 0 else "", st), Paragraph(f"skater {i}", st)] for i in range(16)]
    table = GroupedTable(rows, repeatRows=1)
    table.wrap(300, 1000)
    first, rest = table.split(300, 130)
    firsts = [_para(row[0]).text for row in rest._cellvalues]
    assert firsts[0] == "Team" and firsts[1].startswith("Team 1 <i>(continued)")      # header, then the group
    assert [_para(row[0]).text for row in first._cellvalues][-1] == ""                 # Team 1 began above
    ungrouped = GroupedTable([r[1:] for r in rows], repeatRows=1)                       # nothing blank: unchanged
    ungrouped.wrap(300, 1000)
    assert [_para(row[0]).text for row in ungrouped.split(300, 130)[1]._cellvalues][1].startswith("skater")

"""Nothing for developers on what players print: the text of every player-facing PDF of a full
build is scanned for rule IDs, file names, internal ids, coordinates and validator wording;
the designer's edition of the rulebook keeps the rule IDs."""

from __future__ import annotations

import pdfplumber
import pytest

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from tests.conftest import ROOT, problems_json
from tests.player_text import developer_text, games, patterns, player_pdfs


def test_the_scan_finds_each_kind_of_developer_text():
    pats = patterns(ROOT, "boss_fight")
    text = "Chasm (BF-MAP-1) · preset file boss_ember_wyrm.yaml · Spiked Tail (at [3, 1]) · the validator checks"
    found = developer_text(text, pats)
    assert {f.split(":")[0] for f in found} >= {"rule ID", "file name", "coordinates", "developer wording"}, found
    card = next(c.id for c in load_game(ROOT, "boss_fight", Problems()).cards if "_" in c.id)
    assert developer_text(f"Slots {card}: 1 of 2 used", pats) == [f"internal id: {card}"]
    assert developer_text("Dragon Skull · Size 1 hex · 12 points · Heroic Feat (expend 4)", pats) == []


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    out = tmp_path_factory.mktemp("players") / "build"
    code, probs = problems_json("build", "--out", str(out))
    assert code == 0, [p for p in probs if p["severity"] == "error"]
    return out


def test_no_player_printable_shows_developer_text(build):
    found: list[str] = []
    for slug in games(ROOT):
        pats = patterns(ROOT, slug)
        pdfs = player_pdfs(build, slug)
        assert pdfs, slug
        for pdf in pdfs:
            with pdfplumber.open(pdf) as doc:
                for n, page in enumerate(doc.pages, 1):
                    for hit in developer_text(page.extract_text() or "", pats):
                        found.append(f"{pdf.relative_to(build)} p.{n}: {hit}")
    assert not found, "\n".join(found[:40])


def test_the_designers_edition_keeps_the_rule_ids(build):
    pats = patterns(ROOT, "boss_fight")
    with pdfplumber.open(build / "boss_fight" / "rulebook-designer.pdf") as doc:
        text = "\n".join(p.extract_text() or "" for p in doc.pages)
    assert pats["rule ID"].search(text) and "BF-MAP-1" in text

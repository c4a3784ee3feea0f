"""Nothing for developers on what players print: the text of every player-facing PDF of a full
build is scanned for rule IDs, file names, internal ids, coordinates and validator wording;
the designer's edition of the rulebook keeps the rule IDs."""

from __future__ import annotations

import pytest

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from tests.conftest import ROOT
from tests.player_text import developer_text, games, patterns, player_pdfs


def test_the_scan_finds_each_kind_of_developer_text():
    pats = patterns(ROOT, "boss_fight")
    text = "Chasm (BF-MAP-1) · preset file boss_ember_wyrm.yaml · Spiked Tail (at [3, 1]) · the validator checks"
    found = developer_text(text, pats)
    assert {f.split(":")[0] for f in found} >= {"rule ID", "file name", "coordinates", "developer wording"}, found
    card = next(c.id for c in load_game(ROOT, "boss_fight", Problems()).cards if "_" in c.id)
    assert f"internal id: {card}" in developer_text(f"Slots {card}: 1 of 2 used", pats)
    assert developer_text("Dragon Skull · Size 1 hex · 12 points · Heroic Feat (expend 4)", pats) == []


@pytest.mark.parametrize("text,kind", [
    ("An action card may declare a deck limit (max_copies) that replaces the usual 3.", "YAML key"),
    ("it cannot pass a gap narrower than itself, even when rotated (the seed).", "seed"),
    ("(The seed subtracts the other way round.)", "seed"),
    ("put it in rules/boss_fight/game.yaml (print: offset)", "file path"),
    ("edit rules/<game>/game.yaml", "file path"),
    ("or pass --offset X,Y", "command"),
    ("run cardgen build boss_fight", "command"),
    ("Bone Cleaver (piece scythe), Siege Claw (piece claw)", "piece label"),
    ("scythe (Mantis Scythe): 1 of 1 used", "piece label"),
    ("Mantis Scythe (as scythe)", "piece label"),
])
def test_the_widened_scan_finds_developer_text(text, kind):
    assert kind in {f.split(":")[0] for f in developer_text(text, patterns(ROOT, "boss_fight"))}, text


@pytest.mark.parametrize("text", [
    "Rules text: the cardgen studio, after Benjamin Emdon's design document",
    "Mantis Scythe: 1 of 1 used — Bone Cleaver", "Bone Cleaver (piece Scythe)", "Mantis Scythe (as Scythe)",
    "An action card may print a deck limit of its own, which replaces the usual 3.",
    "Roll 1d6 — a 23/60 card, 3 slots, a Walk of 2 tiles",
])
def test_the_widened_scan_lets_player_text_pass(text):
    assert developer_text(text, patterns(ROOT, "boss_fight")) == [], text


@pytest.mark.parametrize("slug", games(ROOT))
def test_no_player_printable_shows_developer_text(full_build, slug):
    found: list[str] = []
    pats = patterns(ROOT, slug)
    out = full_build.game(slug).parent
    pdfs = player_pdfs(out, slug)
    assert pdfs, slug
    for pdf in pdfs:
        for n, text in enumerate(full_build.pages(pdf), 1):
            for hit in developer_text(text, pats):
                found.append(f"{pdf.relative_to(out)} p.{n}: {hit}")
    assert not found, "\n".join(found[:40])


def test_the_designers_edition_keeps_the_rule_ids(full_build):
    pats = patterns(ROOT, "boss_fight")
    text = "\n".join(full_build.pages(full_build.game("boss_fight") / "rulebook-designer.pdf"))
    assert pats["rule ID"].search(text) and "BF-MAP-1" in text

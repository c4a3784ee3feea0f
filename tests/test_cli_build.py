"""The command line: exit codes, JSON forms, atomic outputs, sources left untouched."""

from __future__ import annotations

import hashlib
import json

from tests.conftest import ROOT, run_cli


def test_unknown_game_is_usage_error():
    code, _ = run_cli("validate", "loot_battle")
    assert code == 2


def test_cards_json():
    code, out = run_cli("cards", "loot_battles", "--format", "json")
    assert code == 0
    cards = json.loads(out)["cards"]
    rat = next(c for c in cards if c["id"] == "rats")
    assert {"id", "name", "type", "set", "copies"} <= set(rat)
    assert rat["copies"] == 10 and rat["health"] == 1


def test_validate_json_shape():
    code, out = run_cli("validate", "loot_battles", "--format", "json")
    assert code == 0 and json.loads(out) == {"problems": []}


def test_check_without_engine_is_usage(tmp_path):
    log = tmp_path / "log.yaml"
    log.write_text("game: x\n")
    code, _ = run_cli("check", "loot_battles", str(log))
    assert code == 2   # unreadable log (or no engine yet): usage, never a traceback


def _digest(folder):
    """The outputs under a folder (the build cache, build/.cache, is no output)."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.relative_to(folder).parts}


def test_failed_build_writes_nothing_and_keeps_previous_output(game_copy):
    g = game_copy("loot_battles")
    out = g.root / "build"
    code, _ = run_cli("build", "loot_battles", "--out", str(out), root=g.root)
    assert code == 0
    before = _digest(out)
    sources = _digest(g.root / "cards")
    g.edit("cards/loot_battles/enemies.yaml", "- {id: rats, name: Rat,", "- {id: rats, name: Rat, copies: 11,")
    sources = _digest(g.root / "cards")
    code, _ = run_cli("build", "loot_battles", "--out", str(out), root=g.root)
    assert code == 1
    assert _digest(out) == before                       # previous output intact
    assert _digest(g.root / "cards") == sources         # sources never touched
    assert not [p for p in out.rglob("*.tmp")]          # no temp files left


def test_build_leaves_sources_untouched(tmp_path):
    before = _digest(ROOT / "cards" / "loot_battles")
    code, _ = run_cli("build", "loot_battles", "--out", str(tmp_path))
    assert code == 0
    assert _digest(ROOT / "cards" / "loot_battles") == before


def test_interrupted_write_keeps_old_file(tmp_path, monkeypatch):
    from cardgen.core import atomic
    target = tmp_path / "cards.pdf"
    target.write_bytes(b"old")

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", boom)
    try:
        atomic.write_bytes(target, b"new" * 1000)
    except KeyboardInterrupt:
        pass
    assert target.read_bytes() == b"old"
    assert list(tmp_path.iterdir()) == [target]


def test_bad_offset_is_usage_error(tmp_path):
    code, _ = run_cli("build", "loot_battles", "--out", str(tmp_path), "--offset", "banana")
    assert code == 2


def _commands(group, path=()):
    import click
    for name, cmd in sorted(group.commands.items()):
        yield (*path, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))


def test_help_documents_every_flag_and_argument():
    import click

    from cardgen.cli import main
    for path, cmd in [((), main), *_commands(main)]:
        code, out = run_cli(*path, "--help")
        assert code == 0, path
        for p in cmd.params:
            if isinstance(p, click.Option) and p.hidden:        # kept for old scripts, not offered
                assert p.help and not any(o in out for o in p.opts), (path, p.name)
            elif isinstance(p, click.Option):
                assert p.help and all(o in out for o in p.opts), (path, p.name)
            else:
                assert (p.metavar or p.name.upper()) in out, (path, p.name)
        if not isinstance(cmd, click.Group):           # every command reports, so every one takes --format
            assert "--format [text|json" in out, path
    code, out = run_cli("--help")
    assert "Exit codes: 0" in " ".join(out.split())


def test_build_shows_progress_and_reports_json(game_copy):
    from click.testing import CliRunner

    from cardgen.cli import main
    g = game_copy("loot_battles").only("cards", "duplex-calibration")
    out = g.root / "build"
    res = CliRunner().invoke(main, ["--root", str(g.root), "build", "loot_battles", "--out", str(out)])
    assert res.exit_code == 0 and "building" in res.stderr          # the progress bar, on stderr
    assert "wrote " in res.stderr and res.stdout == ""
    code, out_json = run_cli("build", "loot_battles", "--out", str(out), "--format", "json", root=g.root)
    doc = json.loads(out_json)
    assert code == 0 and doc["problems"] == [] and len(doc["written"]) == 3


def test_usage_errors_exit_2(tmp_path):
    for args in (["build", "nope"], ["cards", "nope"], ["build", "loot_battles", "--paper", "B5"],
                 ["build", "loot_battles", "--duplex", "diagonal"], ["validate", "loot_battles", str(tmp_path / "x.yaml")],
                 ["check", "loot_battles", str(tmp_path / "missing.yaml")], ["frobnicate"]):
        code, _ = run_cli(*args)
        assert code == 2, args
    code, _ = run_cli("build", "loot_battles", "--out", str(ROOT / "cards" / "out"))   # never into the sources
    assert code == 2 and not (ROOT / "cards" / "out").exists()
    deck = tmp_path / "party.yaml"                      # a game without deck-like files has nothing to check
    deck.write_text("party: [class_melee]\n")
    code, _ = run_cli("validate", "loot_battles", str(deck))
    assert code == 2


# --- errors a designer trusts mid-session -------------------------------------------------------

def _text(pdf: bytes) -> str:
    from tests.conftest import pdf_pages
    return " ".join(pdf_pages(pdf))


def test_a_draft_never_prints_none_for_a_left_out_required_field(game_copy):
    """A construction rule the draft relaxes, broken by the card itself, makes it an error card."""
    g = game_copy("dino_battles").only("cards")
    line = g.edit("cards/dino_battles/dinosaurs.yaml", "    hp: 90\n", "")
    code, probs, out = g.build("--draft")
    text = _text((out / "cards.pdf").read_bytes())
    assert code == 1 and "None" not in text and "ERROR" in text and "BDB-CARD-2" in text
    assert [(p["rule"], p["severity"]) for p in probs] == [("BDB-CARD-2", "warning")] and probs[0]["line"] < line


def test_a_draft_with_every_field_prints_no_error_card(game_copy):
    code, probs, out = game_copy("dino_battles").only("cards").build("--draft")
    assert code == 0 and probs == [] and "ERROR" not in _text((out / "cards.pdf").read_bytes())


def test_a_proof_of_a_card_with_bad_fields_shows_its_problems_and_error_card(game_copy, tmp_path):
    g = game_copy("loot_battles")
    l1 = g.edit("cards/loot_battles/classes.yaml", "    health: 10\n", "    health: ten\n")
    l2 = g.edit("cards/loot_battles/classes.yaml", "    armor: 2\n", "    armor: lots\n")
    code, out = run_cli("proof", "loot_battles", "class_melee", "--out", str(tmp_path), "--no-png",
                        "--format", "json", root=g.root)
    probs = json.loads(out)["problems"]
    assert code == 1 and sorted(p["line"] for p in probs) == [l1, l2]      # every problem, not the first
    text = _text((tmp_path / "proof.pdf").read_bytes())
    assert "ERROR" in text and "LB-CARD-1" in text and "has no card" not in out
    code, _ = run_cli("proof", "loot_battles", "class_meele", "--out", str(tmp_path), root=g.root)
    assert code == 2                                   # a card that is not there is still a usage error


def test_a_proof_of_a_sound_card_is_no_error_card(tmp_path):
    code, _ = run_cli("proof", "loot_battles", "class_melee", "--out", str(tmp_path), "--no-png")
    assert code == 0 and "ERROR" not in _text((tmp_path / "proof.pdf").read_bytes())


def test_build_only_reports_only_what_it_wrote(game_copy):
    g = game_copy("loot_battles").only("cards", "duplex-calibration", "rulebook")
    code, _, out = g.build()
    assert code == 0 and (out / "rulebook.pdf").is_file()
    for flags, want in ((("--only", "cards"), {"cards.pdf", "cards.json", "duplex-calibration.pdf"}),
                        (("--cards", "class_melee"), {"cards-class_melee.pdf", "cards-class_melee.json"})):
        code, doc = run_cli("build", "loot_battles", "--out", str(g.root / "build"), *flags, "--format", "json",
                            root=g.root)
        written = {p.rsplit("/", 1)[-1] for p in json.loads(doc)["written"]}
        assert code == 0 and written and written <= want and "rulebook.pdf" not in written, flags
        assert (out / "rulebook.pdf").is_file()          # kept, not reported


def test_a_misindented_line_is_reported_at_that_line_and_alone(game_copy):
    """One slip in a card file: one problem, at the slipped line — not the start of its list,
    and no follow-on problem in another file (the mat's hp track read the cards)."""
    from cardgen.core.problems import Problems
    from cardgen.core.yamlsrc import parse_yaml
    for text, line in (("cards:\n  - id: a\n    hp: 1\n   def: 2\n", 4),            # under-indented key
                       ("cards:\n  - id: a\n    specials:\n      - x\n     - y\n", 5),   # list item out of line
                       ("a:\n  b: 1\n  c: [1, 2\n", 3)):                               # flow: where it opens
        p = Problems()
        assert parse_yaml(text, "f.yaml", p) is None
        (prob,) = p.items
        assert (prob.rule, prob.loc.line) == ("YAML-SYNTAX", line), (text, prob.text())
    g = game_copy("dino_battles")
    line = g.edit("cards/dino_battles/dinosaurs.yaml", "    def: 5\n    hp: 90\n", "   def: 5\n    hp: 90\n")
    code, probs = g.validate()
    assert code == 1 and [(p["rule"], p["file"].rsplit("/", 1)[-1], p["line"]) for p in probs] == [
        ("YAML-SYNTAX", "dinosaurs.yaml", line)], probs


def test_the_correctly_indented_twin_validates_clean(game_copy):
    from cardgen.core.problems import Problems
    from cardgen.core.yamlsrc import parse_yaml
    p = Problems()
    assert parse_yaml("cards:\n  - id: a\n    hp: 1\n    def: 2\n", "f.yaml", p) == {"cards": [{"id": "a", "hp": 1,
                                                                                           "def": 2}]}
    assert not p.items
    code, probs = game_copy("dino_battles").validate()
    assert code == 0 and probs == []


def test_a_proof_of_a_card_missing_a_required_field_is_its_error_card(game_copy, tmp_path):
    g = game_copy("dino_battles")
    g.edit("cards/dino_battles/dinosaurs.yaml", "    hp: 90\n", "")
    code, out = run_cli("proof", "dino_battles", "chainsaw_rex", "--out", str(tmp_path), "--no-png",
                        "--format", "json", root=g.root)
    probs = json.loads(out)["problems"]
    text = _text((tmp_path / "proof.pdf").read_bytes())
    assert code == 1 and [p["rule"] for p in probs] == ["BDB-CARD-2"] and "lacks 'hp'" in probs[0]["message"]
    assert "None" not in text and "ERROR" in text
    code, _ = run_cli("proof", "dino_battles", "chainsaw_rex", "--out", str(tmp_path), "--no-png")   # its twin
    assert code == 0 and "ERROR" not in _text((tmp_path / "proof.pdf").read_bytes())

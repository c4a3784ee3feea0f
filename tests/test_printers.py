"""Printer profiles: the user's printers file, --printer on every printing command, cardgen calibrate.

Every test names its own printers file through CARDGEN_PRINTERS (or XDG_CONFIG_HOME): the real
home is never read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.content import printers
from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import parse_yaml
from tests.conftest import problems_json, run_cli


@pytest.fixture
def pfile(tmp_path, monkeypatch) -> Path:
    p = tmp_path / "conf" / "printers.yaml"
    monkeypatch.setenv("CARDGEN_PRINTERS", str(p))
    return p


def test_where_the_file_lives():
    assert printers.user_file({"CARDGEN_PRINTERS": "/x/p.yaml"}) == Path("/x/p.yaml")
    assert printers.user_file({"XDG_CONFIG_HOME": "/cfg"}) == Path("/cfg/cardgen/printers.yaml")
    assert printers.user_file({}).parts[-3:] == (".config", "cardgen", "printers.yaml")


def test_no_file_is_no_printers_and_the_game_decides(pfile, game_copy):
    assert not pfile.exists()
    g = game_copy("loot_battles").only("cards")
    code, probs, out = g.build()
    doc = json.loads((out / "cards.json").read_text())
    assert code == 0 and doc["print_sources"] == {"paper": "game", "duplex": "game", "offset": "game",
                                                  "margin": "built-in"}


def test_precedence_flag_over_printer_over_default_printer_over_game(pfile, game_copy):
    pfile.parent.mkdir()
    pfile.write_text("default: home\nprinters:\n  home: {offset: [1mm, 2mm], margin: 3mm}\n"
                     "  office: {duplex: short, offset: [-0.5mm, 0.5mm]}\n")
    g = game_copy("loot_battles").only("cards")
    code, _, out = g.build()
    doc = json.loads((out / "cards.json").read_text())
    assert code == 0 and doc["offset"] == [1.0, 2.0] and doc["margin"] == 3.0 and doc["duplex"] == "long"
    assert doc["print_sources"] == {"paper": "game", "duplex": "game", "offset": "default printer",
                                    "margin": "default printer"}
    code, _, out = g.build("--printer", "office", "--offset", "0.25mm,0mm")
    doc = json.loads((out / "cards.json").read_text())
    assert code == 0 and doc["duplex"] == "short" and doc["offset"] == [0.25, 0.0] and doc["margin"] == 4.2
    assert doc["print_sources"] == {"paper": "game", "duplex": "printer", "offset": "flag", "margin": "built-in"}


def test_unknown_printer_is_a_usage_error_with_did_you_mean(pfile):
    pfile.parent.mkdir()
    pfile.write_text("printers:\n  office: {duplex: long}\n")
    for cmd in (["build", "loot_battles"], ["proof", "loot_battles", "x"], ["export", "loot_battles", "--to", "png"]):
        from click.testing import CliRunner

        from cardgen.cli import main
        res = CliRunner().invoke(main, [*cmd, "--printer", "ofice"])
        assert res.exit_code == 2, cmd
        assert "unknown printer 'ofice'; did you mean 'office'?" in res.stderr, cmd


@pytest.mark.parametrize("text, line, col, rule", [
    ("printers:\n  office:\n    ofset: [1mm, 2mm]\n", 3, 5, "YAML-UNKNOWN-KEY"),
    ("printers:\n  office:\n    duplex: long\n    margin: lots\n", 4, 13, "YAML-TYPE"),
    ("printers:\n  office:\n    offset: [1mm]\n", 3, 13, "YAML-TYPE"),
    ("printers:\n  office: {duplex: long\n", 2, 11, "YAML-SYNTAX"),
    ("default: hom\nprinters:\n  home: {duplex: long}\n", 1, 10, "YAML-RANGE"),
])
def test_a_malformed_file_is_reported_at_its_line_exit_2(pfile, text, line, col, rule):
    pfile.parent.mkdir()
    pfile.write_text(text)
    code, out = run_cli("build", "loot_battles", "--printer", "office", "--format", "json")
    probs = json.loads(out)["problems"]
    assert code == 2 and len(probs) == 1, probs
    p = probs[0]
    assert (p["rule"], p["line"], p["column"]) == (rule, line, col) and p["file"].endswith("printers.yaml")


def test_the_legal_twin_of_the_malformed_file(pfile, game_copy):
    pfile.parent.mkdir()
    pfile.write_text("printers:\n  office:\n    offset: [1mm, 2mm]\n    margin: 4mm\n    duplex: long\n")
    code, probs, out = game_copy("loot_battles").only("cards").build("--printer", "office")
    assert code == 0 and probs == []
    assert json.loads((out / "cards.json").read_text())["margin"] == 4.0


def test_calibrate_makes_the_file_then_keeps_comments_and_other_printers(pfile, monkeypatch):
    code, _ = run_cli("calibrate", "office", "--offset", "0.5mm,-1mm")
    assert code == 0 and "office" in printers.load(Problems()).printers
    pfile.write_text("# my printers\ndefault: office   # at work\nprinters:\n"
                     "  office: {duplex: long, offset: [1mm, 2mm]}  # the HP\n"
                     "  home:\n    margin: 5mm   # an inkjet\n")
    assert run_cli("calibrate", "home", "--offset", "1mm,-0.5mm")[0] == 0
    assert run_cli("calibrate", "office", "--offset", "0mm,0.5mm", "--margin", "3mm")[0] == 0
    assert run_cli("calibrate", "lab", "--duplex", "short")[0] == 0
    text = pfile.read_text()
    for kept in ("# my printers", "# at work", "# the HP", "# an inkjet"):
        assert kept in text
    got = printers.load(Problems())
    assert got.default == "office"
    assert got.printers == {"lab": {"duplex": "short"},
                            "office": {"duplex": "long", "offset": [0.0, 0.5], "margin": 3.0},
                            "home": {"margin": 5.0, "offset": [1.0, -0.5]}}


def test_calibrate_refuses_a_malformed_file_and_leaves_it(pfile):
    pfile.parent.mkdir()
    pfile.write_text("printers:\n  office:\n    ofset: 1\n")
    code, out = run_cli("calibrate", "office", "--offset", "1mm,1mm", "--format", "json")
    assert code == 2 and json.loads(out)["problems"][0]["line"] == 3
    assert pfile.read_text() == "printers:\n  office:\n    ofset: 1\n"
    assert run_cli("calibrate", "office")[0] == 2                       # nothing to record
    assert run_cli("calibrate", "office", "--offset", "99mm,0")[0] == 2  # a typo, not a drift


def test_xdg_config_home_is_the_default_place(tmp_path, monkeypatch, game_copy):
    monkeypatch.delenv("CARDGEN_PRINTERS")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert run_cli("calibrate", "office", "--margin", "6mm")[0] == 0
    assert (tmp_path / "xdg" / "cardgen" / "printers.yaml").is_file()


def test_the_calibration_sheet_tells_the_player_to_run_calibrate(pfile, game_copy):
    from tests.conftest import pdf_pages
    code, _, out = game_copy("loot_battles").only("cards", "duplex-calibration").build()
    text = " ".join(pdf_pages((out / "duplex-calibration.pdf").read_bytes()))
    assert code == 0 and "cardgen calibrate PRINTER --offset" in text and "game.yaml" not in text


offsets = st.tuples(st.integers(-40, 40), st.integers(-40, 40)).map(lambda xy: [xy[0] / 4, xy[1] / 4])


@settings(max_examples=15, deadline=None)
@given(offsets, st.sampled_from(["long", "short", None]), st.booleans())
def test_any_recorded_reading_reads_back(off, duplex, comments):
    head = "# mine\n" if comments else ""
    text = head + "printers:\n  a:\n    margin: 5mm  # note\n  b: {duplex: long}\n"
    path = Path("/nonexistent/printers.yaml")
    raw = parse_yaml(text, str(path), Problems())
    values = {"offset": off, **({"duplex": duplex} if duplex else {})}
    for name in ("a", "b", "c"):
        new = printers._edited(text, raw, name, values)
        probs = Problems()
        back = printers._checked(parse_yaml(new, str(path), probs), path, probs)
        assert not probs.has_errors, new
        assert back.printers[name]["offset"] == off and back.printers[name].get("duplex") == (
            duplex or {"b": "long"}.get(name))
        assert set(back.printers) >= {"a", "b"} and (not comments or new.startswith("# mine"))


def test_problems_json_helper_sees_no_user_printers():
    code, probs = problems_json("validate", "loot_battles")
    assert code == 0 and probs == []

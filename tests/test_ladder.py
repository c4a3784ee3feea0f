"""The skill ladder: ratings that order agents by strength, the report (text, JSON against its
schema, HTML), the same bytes on 1 or 2 workers, and bad ladders as usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from cardgen import gamehooks
from cardgen.cli import main
from cardgen.simulate import command
from cardgen.simulate.ladder import bradley_terry, game_score, ladder, summary
from tests import simtoy
from tests.conftest import ROOT

TOY_ROOT = ROOT / "tests" / "data" / "dice_race"
EMPTY = {"first_seat": {"games": 0}, "win_rates": {}}
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "simulate-report.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def cli(monkeypatch):
    real = gamehooks.package
    monkeypatch.setattr(gamehooks, "package", lambda slug: simtoy.PACKAGE if slug == simtoy.SLUG else real(slug))

    def invoke(*args: str):
        return CliRunner().invoke(main, ["--root", str(TOY_ROOT), *args], catch_exceptions=False)
    return invoke


def test_bradley_terry_orders_by_wins() -> None:
    elo = bradley_terry(["a", "b", "c"], {(0, 1): [0.0] * 8 + [1.0] * 2, (0, 2): [0.0] * 10, (1, 2): [0.0] * 7 + [1.0] * 3})
    assert elo[0] == 0 and elo[0] < elo[1] < elo[2]
    even = bradley_terry(["a", "b"], {(0, 1): [1.0, 0.0] * 10})
    assert abs(even[1]) < 1e-6


def test_game_score_counts_seats_of_each_agent() -> None:
    rec = {"status": "finished", "returns": [0.0, 1.0], "agents": ["x", "y"]}
    assert game_score(rec, "x", "y") == 0.0 and game_score(rec, "y", "x") == 1.0
    assert game_score({**rec, "returns": [0.5, 0.5]}, "x", "y") == 0.5
    assert game_score({"status": "error"}, "x", "y") is None


def test_skill_vs_luck_of_a_sweep_and_a_coin_flip() -> None:
    def recs(scores: list[float]) -> list[dict]:
        return [{"status": "finished", "returns": [s, 1 - s], "agents": ["a", "b"]} for s in scores]
    sweep = ladder(["a", "b"], {(0, 1): recs([0.0] * 30)}, 1)
    assert sweep["strongest"] == "b" and sweep["skill"]["rate"] == 1.0
    even = ladder(["a", "b"], {(0, 1): recs([0.5] * 10)}, 1)
    assert even["skill"]["rate"] is None
    assert "cannot tell the agents apart" in summary(even, EMPTY, EMPTY)[0]
    coin = ladder(["a", "b"], {(0, 1): recs([0.0, 1.0] * 15)}, 1)
    assert coin["skill"]["rate"] is None or abs(coin["skill"]["rate"] - 0.5) < 1e-9


def test_ladder_report(cli, tmp_path: Path) -> None:
    args = ("simulate", simtoy.SLUG, "--ladder", "random,greedy,mcts:4", "--games", "16", "--format", "json")
    one = cli(*args, "--workers", "1")
    two = cli(*args, "--workers", "2", "--out", str(tmp_path))
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout
    report = json.loads(one.stdout)
    jsonschema.validate(report, SCHEMA)
    lad = report["ladder"]
    assert [r["agent"] for r in lad["ratings"]] == ["random", "greedy", "mcts:4"]
    assert report["agents"] == [lad["strongest"]]
    assert lad["summary"] and "first mover wins" in " ".join(lad["summary"]) and "first-listed seat wins" in " ".join(lad["summary"])
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Skill ladder" in page and "Balance under strong play" in page
    note = (tmp_path / "note.md").read_text(encoding="utf-8")      # a designer's note the rulebook can quote
    assert note.startswith("## Balance under strong play (cardgen simulate, seed 0)\n\n"
                           "*Simulated play: agents, not people — run on 20")
    assert "seed 0, 16 games per line up" in note
    assert all(f"- {s}" in note for s in lad["summary"]) and "the higher-rated agent wins" in note
    text = cli("simulate", simtoy.SLUG, "--ladder", "random,greedy", "--games", "8")
    assert text.exit_code == 0 and "skill vs luck" in text.stdout and "in plain words" in text.stdout


def test_the_strong_run_played_ahead_gives_the_same_bytes(cli, monkeypatch) -> None:
    """The strongest agent's run played beside the pairs (the guess right), after them (no guess,
    as before) or both (the guess wrong: played ahead, then again): one report."""
    args = ("simulate", simtoy.SLUG, "--ladder", "random,greedy,mcts:4", "--games", "12", "--format", "json",
            "--workers", "2")
    assert command.likely_strongest(simtoy.PACKAGE, ["random", "greedy", "mcts:4", "mcts:3"]) == "mcts:4"
    assert command.likely_strongest(simtoy.PACKAGE, ["random", "greedy"]) is None
    ahead = cli(*args)
    assert ahead.exit_code == 0, ahead.output
    for guess in (None, "random", "greedy"):           # one of them right, the other wrong
        monkeypatch.setattr(command, "likely_strongest", lambda package, names, g=guess: g)
        assert cli(*args).stdout == ahead.stdout


@pytest.mark.parametrize("ladder_arg,expect", [("random", "two or more"), ("random,random", "two or more"),
                                               ("random,gredy", "did you mean 'greedy'?"),
                                               ("random,mcts:abc", "no budget")])
def test_bad_ladders(cli, ladder_arg: str, expect: str) -> None:
    res = cli("simulate", simtoy.SLUG, "--ladder", ladder_arg, "--games", "2")
    assert res.exit_code == 2 and expect in res.output, res.output


def test_ladder_refuses_agent_options(cli) -> None:
    res = cli("simulate", simtoy.SLUG, "--ladder", "random,greedy", "--agent", "greedy", "--games", "2")
    assert res.exit_code == 2 and "--ladder plays its own agents" in res.output


def test_a_run_that_compares_nothing_writes_no_note(cli, tmp_path: Path) -> None:
    res = cli("simulate", simtoy.SLUG, "--games", "4", "--out", str(tmp_path))
    assert res.exit_code == 0 and (tmp_path / "report.json").is_file() and not (tmp_path / "note.md").exists()

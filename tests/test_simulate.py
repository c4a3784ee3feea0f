"""`cardgen simulate`: seeded simulated playtests and their report, proved on the toy Dice Race
(tests/simtoy.py, its project in tests/data/dice_race) and on every real game whose package
has a game state.

Determinism (1 vs 2 workers, local vs a Dask LocalCluster: the same bytes), Wilson intervals,
bad inputs (exit 2 with "did you mean", exit 1 for broken setup files and engine errors), the
JSON schema, playtest logs that replay with no violation, and the HTML report rendered by
headless Chromium.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen import gamehooks
from cardgen.builder import check as checker
from cardgen.cli import main
from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.content.playlog import read
from cardgen.core.problems import Problems
from cardgen.simulate import run, spec, stats, worker
from cardgen.simulate.spec import SimError
from tests import simtoy
from tests.conftest import ROOT

TOY_ROOT = ROOT / "tests" / "data" / "dice_race"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "simulate-report.schema.json").read_text(encoding="utf-8"))
DECKS = TOY_ROOT / "cards" / "dice_race" / "decks"


@pytest.fixture(scope="module")
def toy():
    problems = Problems()
    g = load_game(TOY_ROOT, simtoy.SLUG, problems)
    assert g is not None and not problems.has_errors, [p.text() for p in problems.errors]
    return g


@pytest.fixture
def cli(monkeypatch):
    """``cardgen --root <toy project> ARGS`` with the toy's package found by its slug."""
    real = gamehooks.package
    monkeypatch.setattr(gamehooks, "package", lambda slug: simtoy.PACKAGE if slug == simtoy.SLUG else real(slug))

    def invoke(*args: str, root: Path = TOY_ROOT):
        return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)
    return invoke


@pytest.fixture
def toy_copy(tmp_path) -> Path:
    """A copy of the toy project, to keep a designer's own files in (cardgen reads only files
    inside the project)."""
    root = tmp_path / "project"
    shutil.copytree(TOY_ROOT, root)
    return root


def toy_json(toy, workers=None, cluster=None, **kw) -> str:
    plan = spec.make_plan(toy, simtoy.PACKAGE, **kw)
    return run.to_json(run.simulate(plan, workers=workers, cluster=cluster).report)


# --- statistics ---------------------------------------------------------------------------
def test_wilson_intervals_have_their_textbook_values():
    assert stats.wilson(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert stats.wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert stats.wilson(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert stats.wilson(81, 263) == pytest.approx((0.255289, 0.366210), abs=1e-6)   # by hand: centre 0.31075, half 0.05546
    assert stats.wilson(0, 0) == (0.0, 1.0)
    low, high = stats.wilson(500, 1000)
    assert low < 0.5 < high and high - low == pytest.approx(2 * 0.030930, abs=1e-5)


def test_distributions_and_histograms():
    d = stats.distribution(range(1, 101))
    assert (d["mean"], d["median"], d["p95"], d["min"], d["max"]) == (50.5, 50.5, 95, 1, 100)
    h = stats.histogram([3, 3, 4, 7])
    assert h["counts"] == [2, 1, 0, 0, 1] and h["edges"][0] == 2.5


def _rec(returns, played, drawn, measures=None):
    return {"status": "finished", "setup": 0, "players": ["a", "b"], "agents": ["random", "random"],
            "returns": returns, "played": played, "drawn": drawn, "length": {"steps": 10}, "measures": measures or {},
            "index": 0, "seed": 0}


def test_cards_flag_dead_cards_and_no_must_pick_from_survivorship():
    recs = []
    for k in range(100):
        win = k % 2
        # seat 0 always draws "ace" and "dud"; plays "ace" in its winning games only; never plays "dud"
        recs.append(_rec([float(win), 1.0 - win], [{"ace": 1} if win else {}, {}],
                         [{"ace": 1, "dud": 1}, {"dud": 1}]))
    cards = {c["card"]: c for c in stats.block(recs, [{}], "", None)["cards"]}
    # played only in the games it won: 100 % against 0 % — survivorship, not the card (drawing it
    # never varied, so there is no controlled comparison and no flag)
    assert cards["ace"]["win_played"]["rate"] == 1.0 and cards["ace"]["win_not_played"]["rate"] == 0.0
    assert not cards["ace"]["must_pick"] and not cards["ace"]["dead"] and cards["ace"]["effect"] is None
    assert cards["dud"]["dead"] and not cards["dud"]["must_pick"]
    assert cards["dud"]["drawn"] == 200 and cards["dud"]["played"] == 0
    # a card type of which no card is ever seen played: its plays are not visible, none is "dead"
    typed = {c["card"]: c for c in stats.block(recs, [{}], "", None, {"ace": "boost", "dud": "relic"})["cards"]}
    assert not typed["dud"]["dead"]
    typed = {c["card"]: c for c in stats.block(recs, [{}], "", None, {"ace": "boost", "dud": "boost"})["cards"]}
    assert typed["dud"]["dead"]


def test_a_card_one_side_holds_is_compared_within_that_side():
    """No draws known: seat 1 (say the boss) plays "claw" in half its games and wins 70 % either
    way, seat 2 never has it: "claw" is no must-pick for being the winning side's card."""
    recs = [_rec([1.0, 0.0] if k % 10 < 7 else [0.0, 1.0], [{"claw": 1} if (k // 10) % 2 else {}, {}], [{}, {}])
            for k in range(200)]
    claw = stats.block(recs, [{}], "", None)["cards"][0]
    assert claw["win_not_played"]["games"] == 100 and not claw["must_pick"]
    assert claw["win_played"]["rate"] == pytest.approx(claw["win_not_played"]["rate"], abs=0.05)


def test_draws_and_games_nobody_won_are_told_apart():
    recs = [_rec([0.5, 0.5], [{}, {}], [{}, {}]), _rec([0.0, 0.0], [{}, {}], [{}, {}]),
            _rec([1.0, 0.0], [{}, {}], [{}, {}])]
    b = stats.block(recs, [{}], "", None)
    assert b["draws"]["count"] == 1 and b["no_winner"] == 1 and b["finished"] == 3


def test_measures_are_aggregated_by_kind():
    recs = [_rec([1.0, 0.0], [{}, {}], [{}, {}], {"hp": k, "won": k > 1, "end": "ko" if k else "time",
                                                  "damage": {"fire": k, "ice": 1}, "goals": [k, 1]}) for k in range(4)]
    m = stats.block(recs, [{}], "", None)["measures"]
    assert m["hp"]["kind"] == "number" and m["hp"]["mean"] == 1.5
    assert m["won"]["kind"] == "rate" and m["won"]["rate"] == 0.5
    assert m["end"] == {"kind": "values", "n": 4, "counts": {"ko": 3, "time": 1}}
    assert m["damage"]["totals"] == {"fire": 6, "ice": 4} and m["damage"]["mean_per_game"]["ice"] == 1
    assert m["goals"]["kind"] == "numbers" and m["goals"]["n"] == 8


def test_sides_come_from_what_the_setup_gives_each_seat():
    assert stats.profiles({"players": [{"name": "a", "class": "melee"}, {"name": "b", "class": "ranged"}]},
                          ["a", "b"]) == [{"class": "melee"}, {"class": "ranged"}]
    assert stats.profiles({"teams": [{"team": "x"}, {"team": "y"}]}, ["x", "y"]) == [{"team": "x"}, {"team": "y"}]
    assert stats.profiles({"map": "arena", "players": {"ana": ["boss"], "bo": ["h1", "h2"]}}, ["ana", "bo"]) == \
        [{"role": ["boss"]}, {"role": ["h1", "h2"]}]
    recs = [_rec([0.0, 1.0], [{}, {}], [{}, {}]), _rec([1.0, 0.0], [{}, {}], [{}, {}])]
    for r in recs:
        r["sides"] = [{"role": ["boss"]}, {"role": ["h1", "h2"]}]
    roles = {g["group"]: g for g in stats.block(recs, [{}], "", None)["win_rates"]["role"]}
    assert {k: (g["games"], g["wins"]) for k, g in roles.items()} == {"boss": (2, 1.0), "h1": (2, 1.0), "h2": (2, 1.0)}


# --- a run --------------------------------------------------------------------------------
def test_a_run_reports_win_rates_per_seat_agent_and_team(toy):
    report = json.loads(toy_json(toy, workers=1, games=400, seed=3, agents=["random", "greedy"]))
    jsonschema.validate(report, SCHEMA)
    b = report["results"][0]
    assert b["finished"] == 400 and b["errors"]["count"] == 0
    assert set(b["win_rates"]) == {"seat", "agent", "team"}
    teams = {g["group"]: g for g in b["win_rates"]["team"]}
    assert teams["hares"]["rate"] > teams["tortoises"]["rate"]            # a bonus step a roll shows
    assert sum(g["wins"] for g in b["win_rates"]["seat"]) == pytest.approx(400)
    assert {c["card"] for c in b["cards"]} == {"sprint", "jog", "dud", "rocket"}
    assert b["length"]["turns"]["max"] <= toy.params["max_turns"]
    assert b["measures"]["finish"]["counts"]["line"] + b["measures"]["finish"]["counts"].get("timeout", 0) == 400


def test_a_game_depends_on_its_seed_and_index_only(toy):
    plan = spec.make_plan(toy, simtoy.PACKAGE, games=60, seed=9, agents=["greedy", "random"])
    out = run.simulate(plan, workers=1)
    ctx = run.context(plan)
    agents = worker._agents(ctx, toy)
    for i in (0, 17, 59):
        alone = worker.play_one(ctx, 0, i, agents, toy.cards_by_id)
        assert alone == out.records[0][i]
        assert alone["seed"] == worker.game_seed(9, i)


def test_results_are_byte_identical_on_one_or_two_workers(toy):
    kw = dict(games=300, seed=5, agents=["random", "greedy"], vary="track.length=15,30")
    assert toy_json(toy, workers=1, **kw) == toy_json(toy, workers=2, **kw)


def test_a_dask_local_cluster_gives_the_same_bytes(toy):
    distributed = pytest.importorskip("distributed")
    kw = dict(games=200, seed=11, agents=["random", "greedy"], vary="teams.hares.bonus=0,2")
    local = toy_json(toy, workers=1, **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        remote = toy_json(toy, cluster=lc.scheduler_address, **kw)
    assert remote == local


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_cluster_that_does_not_answer_is_exit_2_within_seconds(cli):
    address = f"tcp://127.0.0.1:{_free_port()}"
    started = time.monotonic()
    res = cli("simulate", "dice_race", "--games", "5", "--cluster", address)
    assert res.exit_code == 2 and f"no Dask scheduler answers at {address}" in res.output
    assert time.monotonic() - started < 10
    res = cli("simulate", "dice_race", "--games", "5", "--cluster", "scheduler")
    assert res.exit_code == 2 and "'scheduler' is no scheduler address" in res.output


# --- the command line --------------------------------------------------------------------
def test_the_command_prints_the_report_and_is_quiet_off_a_terminal(cli):
    res = cli("simulate", "dice_race", "--games", "50", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert "win rate (95% Wilson interval)" in res.stdout and re.search(r"team +hares +[0-9.]+%", res.stdout)
    assert "simulating" not in res.stderr and "played 50 game(s)" in res.stderr


@pytest.mark.parametrize("args, words", [
    (["--agent", "gredy"], ["unknown agent 'gredy'", "greedy"]),
    (["--vary", "track.lenght=10,20"], ["unknown parameter 'track.lenght'", "track.length"]),
    (["--vary", "track.length=ten"], ["track.length", "not of the parameter's kind"]),
    (["--vary", "track=10"], ["'track' is a mapping"]),
    (["--setup", "standrd.yaml"], ["no such setup file", "standard"]),
    (["--log-every", "0", "--logs", "x"], ["--log-every"]),
])
def test_bad_inputs_are_exit_2_with_did_you_mean(cli, args, words):
    res = cli("simulate", "dice_race", "--games", "5", *args)
    assert res.exit_code == 2, res.output
    for w in words:
        assert w in res.output


def test_an_unknown_game_is_exit_2_with_did_you_mean(cli):
    res = cli("simulate", "dice_rase")
    assert res.exit_code == 2 and "did you mean 'dice_race'" in res.output


def test_a_setup_file_that_breaks_construction_rules_is_exit_1_with_the_validators_problems(cli, toy_copy, tmp_path):
    bad = toy_copy / "mine" / "short.yaml"
    bad.parent.mkdir()
    bad.write_text("deck:\n  name: short\n  cards: {sprint: 2, jog: 1}\n")
    res = cli("simulate", "dice_race", "--games", "5", "--setup", str(bad), "--format", "json", root=toy_copy)
    assert res.exit_code == 1
    assert [p["rule"] for p in json.loads(res.stdout)["problems"]] == ["DR-DECK-1"]
    outside = tmp_path / "outside.yaml"              # like `validate GAME FILE`: only files of the project
    outside.write_text("deck:\n  name: outside\n  cards: {sprint: 4, jog: 4}\n")
    res = cli("simulate", "dice_race", "--games", "5", "--setup", str(outside), "--format", "json", root=toy_copy)
    assert res.exit_code == 1
    assert [p["rule"] for p in json.loads(res.stdout)["problems"]] == ["PATH-ESCAPE"]


def test_setup_files_pick_what_is_played(cli, toy_copy):
    own = toy_copy / "mine" / "sprinters.yaml"
    own.parent.mkdir()
    own.write_text("deck:\n  name: sprinters\n  cards: {sprint: 4, jog: 4}\n")
    res = cli("simulate", "dice_race", "--games", "40", "--workers", "1", "--setup", str(own), "--format", "json",
              root=toy_copy)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["setup_files"] == [str(own)] and all("sprinters" in s["label"] for s in report["setups"])
    assert {c["card"] for c in report["results"][0]["cards"]} <= {"sprint", "jog"}


def test_without_setups_from_files_the_games_own_setups_naming_the_files_are_played(toy, toy_copy):
    pkg = dataclasses.replace(simtoy.PACKAGE, setups_from_files=None)
    plan = spec.make_plan(toy, pkg, games=4, setup_files=[str(DECKS / "rocket.yaml")])
    assert len(plan.setups) == 2 and all(s["deck"]["name"] == "rocket" for s in plan.setups)
    toy = load_game(toy_copy, simtoy.SLUG, Problems())
    own = toy_copy / "mine" / "mine.yaml"                 # a valid deck, but no setup of the game names it
    own.parent.mkdir()
    own.write_text("deck:\n  name: mine\n  cards: {sprint: 4, jog: 4}\n")
    with pytest.raises(SimError) as e:
        spec.make_plan(toy, pkg, games=4, setup_files=[str(own)])
    assert e.value.code == 2 and "none of Dice Race's setups uses" in e.value.message


def test_an_engine_error_names_the_game_and_its_seed_and_the_run_goes_on(cli):
    res = cli("simulate", "dice_race", "--games", "200", "--workers", "1", "--vary", "faults.crash_at=0,9",
              "--format", "json")
    assert res.exit_code == 1
    plain, faulty = json.loads(res.stdout)["results"]
    assert plain["errors"]["count"] == 0
    assert 0 < faulty["errors"]["count"] < 200 and faulty["finished"] + faulty["errors"]["count"] == 200
    err = faulty["errors"]["games"][0]
    assert err["seed"] == worker.game_seed(0, err["index"]) and "square 9" in err["error"]
    assert "stopped on an engine error" in res.stderr


def test_games_at_the_step_cap_are_unfinished_with_their_seeds_and_logged(cli, toy, tmp_path):
    res = cli("simulate", "dice_race", "--games", "60", "--workers", "1", "--max-steps", "12", "--format", "json",
              "--logs", str(tmp_path), "--log-every", "1000")
    assert res.exit_code == 0
    b = json.loads(res.stdout)["results"][0]
    assert b["unfinished"]["count"] > 0 and b["finished"] + b["unfinished"]["count"] == 60
    assert all(g["steps"] == 12 and g["seed"] == worker.game_seed(0, g["index"]) for g in b["unfinished"]["games"])
    logged = {int(p.stem.split("-")[1]) for p in tmp_path.glob("*.jsonl")}
    assert logged == {0} | {g["index"] for g in b["unfinished"]["games"]}       # game 0, and every unfinished one
    g = b["unfinished"]["games"][0]
    log = read(tmp_path / f"game-{g['index']:06d}.jsonl")
    assert len(log.events) == 12 and log.expect is None
    problems, _, _ = checker.replay_log(toy, simtoy.Engine, log)
    assert not problems.has_errors


def test_the_json_report_follows_its_schema(cli):
    res = cli("simulate", "dice_race", "--games", "80", "--workers", "1", "--agent", "greedy",
              "--vary", "hand_size=1,3", "--format", "json")
    assert res.exit_code == 0
    report = json.loads(res.stdout)
    jsonschema.validate(report, SCHEMA)
    assert [b["label"] for b in report["results"]] == ["hand_size=1", "hand_size=3"]
    assert report["vary"] == {"param": "hand_size", "values": [1, 3]}
    assert (TOY_ROOT / "rules" / "dice_race" / "params.yaml").read_text().count("hand_size: 3") == 1


def test_playtest_logs_replay_through_the_checker(cli, toy, tmp_path):
    logs = tmp_path / "logs"
    res = cli("simulate", "dice_race", "--games", "40", "--workers", "2", "--agent", "greedy", "--agent", "random",
              "--logs", str(logs), "--log-every", "4")
    assert res.exit_code == 0, res.output
    files = sorted(logs.glob("*.jsonl"))
    assert [f.name for f in files] == [f"game-{i:06d}.jsonl" for i in range(0, 40, 4)]
    for f in files:
        log = read(f)
        checker._check_shape(simtoy.Engine, log, simtoy.SLUG)
        problems, final, _ = checker.replay_log(toy, simtoy.Engine, log)
        assert not problems.has_errors, [p.text() for p in problems.items]
        assert log.expect is not None and final["winner"] == log.expect["winner"]


# --- the HTML report in a real browser -----------------------------------------------------
def test_the_html_report_renders_its_plots_in_headless_chromium(cli, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (make tools installs it)")
    out = tmp_path / "report"
    res = cli("simulate", "dice_race", "--games", "120", "--workers", "1", "--agent", "random", "--agent", "greedy",
              "--vary", "track.length=12,20,30", "--out", str(out))
    assert res.exit_code == 0, res.output
    page = out / "report.html"
    assert json.loads((out / "report.json").read_text())["schema"] == "cardgen-simulate/1"
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:|//)|<link|<script", page.read_text())  # nothing to fetch
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--hide-scrollbars"]
    dom = subprocess.run([browser, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True,
                         timeout=60).stdout
    for kind in ("win-rate", "length", "sweep"):
        assert f'data-plot="{kind}"' in dom, kind
    assert dom.count("<svg") >= 3 * 4 + 3 and "<path" in dom
    shot = tmp_path / "shot.png"
    subprocess.run([browser, *flags, "--window-size=1000,1400", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, timeout=60)

    img = Image.open(shot).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 16) or []
    bar_blue = sum(n for n, c in colours if abs(c[0] - 0x3b) < 12 and abs(c[1] - 0x6e) < 12 and abs(c[2] - 0xa8) < 12)
    assert bar_blue > 500, "no win-rate bars drawn"


def test_the_toy_setups_cover_every_deck_and_seat(toy):
    setups = simtoy.setups(toy, random.Random(0))
    assert len(setups) == 2 * len(list(DECKS.glob("*.yaml")))
    with pytest.raises(SimError) as e:
        spec.make_plan(toy, simtoy.PACKAGE, games=0)
    assert e.value.code == 2


# --- the real games ------------------------------------------------------------------------
def _playable() -> list[str]:
    out = []
    for slug in list_games(ROOT):
        pkg = gamehooks.package(slug)
        if pkg is not None and pkg.new_state is not None:
            out.append(slug)
    return out


REAL = _playable()
#: games per real game in the suite: enough for every agent to play, few for the slow games
REAL_GAMES = 4


@pytest.mark.skipif(not REAL, reason="no game has a game state yet")
@pytest.mark.parametrize("slug", REAL)
def test_every_real_game_simulates_and_its_logs_replay_with_cardgen_check(slug, tmp_path):
    agents = spec.agent_names(gamehooks.package(slug))
    logs, out = tmp_path / "logs", tmp_path / "out"
    args = ["simulate", slug, "--games", str(REAL_GAMES), "--workers", "1", "--logs", str(logs), "--out", str(out),
            "--format", "json"]
    for a in agents:
        args += ["--agent", a]
    res = CliRunner().invoke(main, ["--root", str(ROOT), *args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    jsonschema.validate(report, SCHEMA)
    b = report["results"][0]
    assert b["errors"]["count"] == 0 and b["finished"] + b["unfinished"]["count"] == REAL_GAMES
    files = sorted(logs.glob("*.jsonl"))
    assert len(files) == REAL_GAMES
    for f in files:
        run_check = CliRunner().invoke(main, ["--root", str(ROOT), "check", slug, str(f)], catch_exceptions=False)
        assert run_check.exit_code == 0, f"{f.name}: {run_check.output[-2000:]}"

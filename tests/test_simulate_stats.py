"""Statistics a designer can trust, each proved on a synthetic game with a known answer
(tests/simdeck.py): the first mover apart from seat order, a card's effect by a controlled
comparison (a known must-pick and dead card flagged, cards played in games that go well or
last long not), matchup tables, rule counters and histograms that show a distribution."""

from __future__ import annotations

import io
import json
import statistics

import jsonschema
import pytest

from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import parse_yaml
from cardgen.play import coverage
from cardgen.simulate import backends, command, html, run, spec, stats, tables, text
from cardgen.simulate.worker import search_weight
from tests import simdeck, simtoy
from tests.conftest import ROOT

TOY_ROOT = ROOT / "tests" / "data" / "dice_race"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "simulate-report.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def race():
    return run.simulate(simdeck.race_plan(1500), workers=1)


# --- first mover ---------------------------------------------------------------------------
@pytest.mark.parametrize("named", [False, True])
def test_the_first_mover_is_told_apart_from_the_first_seat(named: bool) -> None:
    """A coin decides who moves first, who then wins 70 %: the first mover's advantage is 20
    points, the first seat's none. With ``named`` seat 1 always acts first (a ready move) and
    the game names the first mover: the game's word wins over the first action."""
    b = run.simulate(simdeck.duel_plan(0.7, named, games=2000), workers=1).report["results"][0]
    (fm,) = b["first_mover"]
    assert fm["players"] == 2 and fm["games"] == 2000 and fm["fair"] == 0.5
    assert fm["low"] < 0.7 < fm["high"] and fm["advantage"] == pytest.approx(0.2, abs=0.03)
    fs = b["first_seat"]
    assert fs["low"] < 0.5 < fs["high"]
    out = text.render(run.simulate(simdeck.duel_plan(0.7, named, games=200), workers=1).report)
    assert "first mover (2 players):" in out and "first seat (seat order):" in out


def test_the_first_mover_falls_back_to_the_first_action_and_without_the_word_misreads_a_ready_move() -> None:
    plan = simdeck.duel_plan(0.7, True, games=400)
    recs = run.simulate(plan, workers=1).records[0]
    assert {r["first_mover"] for r in recs} == {0, 1}
    # the same games without the game's word: seat 1's ready move is the first action
    plain = [{**r, "first_mover": 0} for r in recs]
    assert tables.first_movers(plain)[0]["advantage"] == pytest.approx(0.0, abs=0.08)


# --- cards -----------------------------------------------------------------------------------
def test_a_known_must_pick_and_a_known_dead_card_are_flagged(race) -> None:
    cards = {c["card"]: c for c in race.report["results"][0]["cards"]}
    ace, dud = cards["ace"], cards["dud"]
    assert ace["must_pick"] and ace["effect"]["low"] > 0.05 and not ace["dead"]
    assert dud["dead"] and dud["played"] == 0 and dud["played_share"]["high"] < 0.05 and not dud["must_pick"]
    assert {c for c, row in cards.items() if row["must_pick"]} == {"ace"}
    assert {c for c, row in cards.items() if row["dead"]} == {"dud"}


def test_cards_played_when_things_go_well_or_games_last_long_are_not_flagged(race) -> None:
    cards = {c["card"]: c for c in race.report["results"][0]["cards"]}
    fin, late = cards["finisher"], cards["late"]
    # the survivorship trap is in the data: the finisher (+0) wins far more often when played …
    assert fin["win_played"]["low"] > fin["win_not_played"]["high"] + 0.2
    # … and its controlled effect is no gain: no flag
    assert not fin["must_pick"] and fin["effect"]["low"] < 0.05 < fin["effect"]["low"] + 0.2
    assert fin["effect"]["high"] < 0.05
    # the late card is played in the long games
    recs = race.records[0]
    played_late = [r["length"]["turns"] for r in recs for p in r["played"] if p.get("late")]
    not_late = [r["length"]["turns"] for r in recs if not any(p.get("late") for p in r["played"])]
    assert statistics.fmean(played_late) > statistics.fmean(not_late) + 1
    assert not late["must_pick"] and not late["dead"] and late["effect"]["high"] < 0.05


def test_without_visible_draws_no_card_is_called_a_must_pick() -> None:
    recs = [{"status": "finished", "setup": 0, "players": ["a", "b"], "agents": ["random"] * 2, "index": k, "seed": k,
             "returns": [1.0, 0.0] if k % 2 else [0.0, 1.0], "played": [{"ace": 1} if k % 2 else {}, {}],
             "drawn": [{"ace": 1}, {}], "length": {"steps": 3}, "measures": {}} for k in range(200)]
    (ace,) = stats.block(recs, [{}], "", None)["cards"]
    assert ace["effect"] is None and not ace["must_pick"]


def test_the_card_table_prints_the_effect_and_its_flags(race) -> None:
    out = text.render(race.report)
    line = next(x for x in out.splitlines() if x.strip().startswith("ace "))
    assert "must-pick" in line and "+" in line
    assert "dead" in next(x for x in out.splitlines() if x.strip().startswith("dud "))


def test_one_or_two_workers_give_the_same_bytes() -> None:
    a = run.to_json(run.simulate(simdeck.race_plan(120), workers=1).report)
    b = run.to_json(run.simulate(simdeck.race_plan(120), workers=2).report)
    assert a == b


def test_runs_played_together_give_what_each_gives_alone() -> None:
    plans = [simdeck.race_plan(60, seed=1), simdeck.duel_plan(0.7, games=50),
             simdeck.race_plan(40, agent="random")]
    together = run.simulate_all(plans, workers=2)
    for p, oc in zip(plans, together):
        assert run.to_json(oc.report) == run.to_json(run.simulate(p, workers=1).report)


def test_a_run_with_search_is_cut_finer() -> None:
    searched, plain = run.context(simdeck.race_plan(agent="mcts:5")), run.context(simdeck.race_plan())
    assert search_weight(searched) == 5 and search_weight(plain) == 0
    assert len(backends.chunks_of(searched, 1, 320, 2)) == 32
    assert len(backends.chunks_of(plain, 1, 320, 2)) == 8


# --- matchups ---------------------------------------------------------------------------------
def _game(setup: int, teams: tuple[str, str], win: int) -> dict:
    return {"status": "finished", "setup": setup, "players": ["a", "b"], "agents": ["random"] * 2, "index": 0,
            "seed": 0, "returns": [float(win == 0), float(win == 1)], "played": [{}, {}], "drawn": [{}, {}],
            "length": {"steps": 1}, "measures": {}, "sides": [{"team": teams[0]}, {"team": teams[1]}]}


def test_a_team_table_holds_each_pairing_with_its_interval() -> None:
    """wolves beat bears 30 of 40, bears beat wolves 10 of 40; mirrors are even. Setups name a
    map (a whole-game dimension): the team × map table."""
    setups = [{"map": "ice"}, {"map": "rock"}]
    games = [_game(k % 2, ("wolves", "bears"), 0 if k < 30 else 1) for k in range(40)]
    games += [_game(0, ("bears", "bears"), k % 2) for k in range(10)]
    b = stats.block(games, setups, "", None)
    team = next(t for t in b["matchups"] if t["rows_by"] == "team" and t["cols_by"] == "team")
    assert team["rows"] == ["bears", "wolves"] and team["cols"] == ["bears", "wolves"]
    cell = team["cells"][1][0]             # wolves against bears
    assert (cell["games"], cell["rate"]) == (40, 0.75) and cell["low"] < 0.75 < cell["high"]
    assert team["cells"][0][1]["rate"] == 0.25 and team["cells"][0][0]["rate"] == 0.5
    assert team["cells"][1][1] is None
    by_map = next(t for t in b["matchups"] if t["cols_by"] == "map")
    assert by_map["subject"] == "the row in games of the column" and by_map["cols"] == ["ice", "rock"]
    out = text.render({"title": "t", "games": 50, "seed": 0, "agents": ["random"], "setups": setups, "max_steps": 9,
                       "results": [b]})
    assert "team × team" in out and "75.0%" in out


def test_whole_game_dimensions_get_a_table_per_pair_for_the_first_seat() -> None:
    setups = [{"boss": b, "map": m, "players": {"p1": ["boss"], "p2": ["hero"]}} for b in ("wyrm", "golem") for m in ("ice", "pit")]
    games = [{**_game(k % 4, ("x", "y"), 0 if k % 4 == 0 else 1), "sides": None, "players": ["p1", "p2"]}
             for k in range(80)]
    b = stats.block(games, setups, "", None)
    pair = next(t for t in b["matchups"] if (t["rows_by"], t["cols_by"]) == ("boss", "map"))
    assert pair["subject"] == "seat 1 (role boss)"
    assert pair["cells"][pair["rows"].index("wyrm")][pair["cols"].index("ice")]["rate"] == 1.0
    assert pair["cells"][pair["rows"].index("golem")][pair["cols"].index("pit")]["rate"] == 0.0


# --- histograms -------------------------------------------------------------------------------
def test_a_long_tail_does_not_squash_the_histogram() -> None:
    xs = list(range(20, 60)) * 10 + [20_000]
    h = stats.histogram(xs)
    assert len(h["counts"]) >= 10 and h["clipped"] == [0, 1] and sum(h["counts"]) == len(xs)
    assert max(h["counts"]) < len(xs) / 5
    rows = text.bars(stats.histogram(list(range(199, 290, 3))))
    assert rows[0].split()[:2] == ["199–203", "█" * 40] and rows[-1].split()[0] == "289–293"
    assert text.bars(h)[-1].split()[0].endswith("+")            # the bin that holds the clipped tail says so
    assert stats.histogram([3, 3, 4, 7]) == {"edges": [2.5, 3.5, 4.5, 5.5, 6.5, 7.5], "counts": [2, 1, 0, 0, 1],
                                              "clipped": [0, 0]}


# --- rules in play ----------------------------------------------------------------------------
COVERAGE = """\
simulate:
  coverage:
    - {rule: DR-ACE-1, action: play, where: {card: ace}}
    - {rule: DR-DUD-1, action: play, where: {card: dud}}
    - {rule: DR-WIN-1, event: "*", where: {value: 6}}
    - {rule: DR-ACE-9, action: play}
    - {rule: DR-ACE-1, action: play, colour: red}
    - {rule: DR-WIN-1, action: play, measure: x}
"""


def test_coverage_entries_are_checked_at_their_lines() -> None:
    problems = Problems()
    data = parse_yaml(COVERAGE, "rules/x/params.yaml", problems)
    triggers = coverage.read_triggers(data, "rules/x/params.yaml", {"DR-ACE-1", "DR-DUD-1", "DR-WIN-1"}, problems)
    assert [t.rule for t in triggers] == ["DR-ACE-1", "DR-DUD-1", "DR-WIN-1"]
    got = [(p.rule, p.loc.line, p.message) for p in problems.errors]
    assert [(r, line) for r, line, _ in got] == [("SIM-COVERAGE", 6), ("SIM-COVERAGE", 7), ("SIM-COVERAGE", 8)]
    assert "DR-ACE-9" in got[0][2] and "did you mean 'DR-ACE-1'" in problems.errors[0].hint
    assert "colour" in got[1][2] and "exactly one of" in got[2][2]


def test_rule_counters_count_each_rule_and_flag_one_never_in_play() -> None:
    problems = Problems()
    data = parse_yaml(COVERAGE.split("    - {rule: DR-ACE-9")[0], "params.yaml", problems)
    plan = simdeck.race_plan(300)
    plan.triggers = coverage.read_triggers(data, "params.yaml", None, problems)
    plan.rules = {r: {"title": r.lower(), "rulings": ["ours"] if r == "DR-DUD-1" else []} for r in ("DR-ACE-1", "DR-DUD-1", "DR-WIN-1")}
    out = run.simulate(plan, workers=1)
    rows = {r["rule"]: r for r in out.report["results"][0]["rules_in_play"]}
    aces = sum(p.get("ace", 0) for r in out.records[0] for p in r["played"])
    assert rows["DR-ACE-1"]["times"] == aces > 0 and not rows["DR-ACE-1"]["never"]
    assert rows["DR-DUD-1"] == {**rows["DR-DUD-1"], "times": 0, "never": True, "games": 300}
    assert rows["DR-WIN-1"]["rate"] > 0.5 and rows["DR-WIN-1"]["times"] > rows["DR-WIN-1"]["wins"]
    page = html.render(out.report)
    assert "Rules in play" in page and "never came into play" in page and "to the project's ruling, not the seed's" in page
    report = text.render(out.report)
    assert "DR-DUD-1" in report and "NEVER came into play" in report and "the project's ruling (not the seed's):" in report


# --- strong play beside random ----------------------------------------------------------------
def test_compare_puts_each_side_beside_the_same_games_under_another_agent(tmp_path) -> None:
    """``--agent greedy --compare random``: each row's two figures are those of the two runs
    made apart (the comparison adds nothing of its own), with the sentences a designer quotes."""
    toy = load_game(TOY_ROOT, simtoy.SLUG, Problems())
    out, err = io.StringIO(), io.StringIO()
    opts = command.Options(games=60, agents=("greedy",), compare="random", workers=1, fmt="json", out=tmp_path)
    assert command.execute(toy, simtoy.PACKAGE, opts, out, err) == 0
    report = json.loads(out.getvalue())
    jsonschema.validate(report, SCHEMA)
    alone = run.simulate(spec.make_plan(toy, simtoy.PACKAGE, games=60, agents=["random"]), workers=1).report["results"][0]
    (blk,) = report["compare"]["blocks"]
    rows = {(r["attr"], r["group"]): r for r in blk["rows"]}
    for g in alone["win_rates"]["team"]:
        assert rows["team", g["group"]]["compared"]["rate"] == g["rate"]
    mine = {g["group"]: g for g in report["results"][0]["win_rates"]["team"]}
    assert all(rows["team", k]["this"]["rate"] == v["rate"] for k, v in mine.items())
    fm = report["results"][0]["first_mover"][0]
    assert any(s.startswith("under strong play (greedy in every seat) the first mover wins "
                            f"{100 * fm['rate']:.0f} % [{100 * fm['low']:.0f}–{100 * fm['high']:.0f}]")
               for s in blk["summary"])
    assert "beside random" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_an_unknown_compare_agent_is_a_usage_error() -> None:
    toy = load_game(TOY_ROOT, simtoy.SLUG, Problems())
    with pytest.raises(spec.SimError) as e:
        command.execute(toy, simtoy.PACKAGE, command.Options(games=2, compare="randon"), io.StringIO(), io.StringIO())
    assert e.value.code == 2 and "did you mean 'random'" in e.value.text()


def test_a_search_budget_that_would_take_hours_says_so_before_the_first_game(monkeypatch) -> None:
    toy = load_game(TOY_ROOT, simtoy.SLUG, Problems())
    plan = spec.make_plan(toy, simtoy.PACKAGE, games=10, agents=["mcts:100"])
    clock = iter(range(1_000_000))          # each timed stretch lasts one "second": the sums are exact
    monkeypatch.setattr(command.time, "monotonic", lambda: float(next(clock)))
    small = command.estimate(plan, {"mcts:100": 10}, 1)
    huge = command.estimate(spec.make_plan(toy, simtoy.PACKAGE, games=10, agents=["mcts:1000000"]), {"mcts:1000000": 10}, 1)
    # the timed game (every seat searching at mcts:10, P playouts) takes one "second": 10 games ×
    # half its P/10 decisions × 100 playouts × 1/P seconds a playout (the toy's setups alike: ×1)
    assert small == pytest.approx(50.0) and huge == pytest.approx(10_000 * small)
    monkeypatch.undo()
    said: list[str] = []

    def stop(*a, **k):
        said.append("played")
        raise KeyboardInterrupt
    monkeypatch.setattr(command, "estimate", lambda *a, **k: 5 * 3600.0)
    monkeypatch.setattr(run, "simulate", stop)
    err = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        command.execute(toy, simtoy.PACKAGE, command.Options(games=10, agents=("mcts:100000",)), io.StringIO(), err)
    assert "estimate: about 300.0 min of search" in err.getvalue() and "hours" in err.getvalue() and said == ["played"]


def test_teammates_are_not_each_others_opponents() -> None:
    """A boss against a party of two heroes who share every result: the role table pits each
    hero against the boss, never against the other hero."""
    games = [{**_game(0, ("x", "y"), 0), "returns": [1.0, 0.0, 0.0] if k % 3 else [0.0, 1.0, 1.0],
              "players": ["a", "b", "c"], "played": [{}] * 3, "drawn": [{}] * 3, "agents": ["random"] * 3,
              "sides": [{"role": "boss"}, {"role": "aldric"}, {"role": "wren"}]} for k in range(30)]
    b = stats.block(games, [{}], "", None)
    t = next(t for t in b["matchups"] if t["rows_by"] == "role" and t["cols_by"] == "role")
    cell = {(r, c): x for r, row in zip(t["rows"], t["cells"]) for c, x in zip(t["cols"], row)}
    assert cell["aldric", "wren"] is None and cell["wren", "aldric"] is None
    assert cell["boss", "aldric"]["rate"] == pytest.approx(2 / 3, abs=1e-6) and cell["aldric", "boss"]["games"] == 30

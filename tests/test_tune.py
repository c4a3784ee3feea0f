"""``cardgen tune`` on Dice Duel (tests/tunetoy.py), whose fair value is known in closed form:
the search finds it within the re-measured interval, a param nobody reads is unimportant, bad
tune files are reported at their line (each with its legal twin), sources change only with
--apply, a study resumes and is deterministic for a seed."""

from __future__ import annotations

import io
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen import gamehooks
from cardgen.cli import main
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.simulate.spec import SimError
from cardgen.tune import objectives, report, search, spec
from cardgen.tune.command import execute
from tests import tunetoy
from tests.conftest import ROOT

TOY_ROOT = ROOT / "tests" / "data" / "dice_race"
GOOD = "numbers:\n  teams.hares.bonus: {min: -2, max: 3}   # today 1\n  max_turns: {min: 10, max: 60, step: 5}\n"


def project(tmp_path: Path, tune_text: str | None = GOOD) -> Path:
    root = tmp_path / "project"
    shutil.copytree(TOY_ROOT, root)
    if tune_text is not None:
        (root / "rules" / "dice_race" / "tune.yaml").write_text(tune_text, encoding="utf-8")
    return root


def game(root: Path):
    problems = Problems()
    g = load_game(root, tunetoy.SLUG, problems)
    assert g is not None and not problems.has_errors
    return g


def problems_of(tmp_path: Path, text: str) -> list[str]:
    g = game(project(tmp_path, text))
    problems = Problems()
    assert (spec.load(g, problems) is None) == problems.has_errors
    return [p.text() for p in problems.errors]


def settings(**kw) -> search.Settings:
    base = {"objectives": objectives.parse(()), "trials": 12, "games": 200, "workers": 1}
    return search.Settings(**{**base, **kw})


def test_the_closed_form_fair_value():
    assert tunetoy.hare_share(6, 0, 0) == Fraction(1, 2)
    assert tunetoy.hare_share(6, 1, 0) == Fraction(47, 72)      # today's hares: 65.3 %
    assert all(tunetoy.hare_share(6, h, 0) != Fraction(1, 2) for h in (-2, -1, 1, 2, 3))


def test_tune_finds_the_fair_value_and_calls_the_idle_param_unimportant(tmp_path):
    g = game(project(tmp_path))
    sp = spec.load(g, Problems())
    r = search.search(g, tunetoy.PACKAGE, sp, settings(), tmp_path / "out")
    assert r.best == {"teams.hares.bonus": 0, "max_turns": 60}      # the idle knob keeps today's value
    assert tunetoy.hare_share(6, r.after.values["teams.hares.bonus"], 0) == Fraction(1, 2)
    after, before = r.after.measured[0], r.before.measured[0]
    assert after.low == 0.0                           # the fair point lies inside the re-measured interval
    assert before.low <= 11 / 72 <= before.high        # today's exact deviation, inside its interval
    assert r.significant(0)
    shares = r.importances[0]
    assert shares["max_turns"] < search.UNIMPORTANT < shares["teams.hares.bonus"]
    text = report.render(g, r, report.diff(g, r.after.values))
    assert "unimportant" in text and "<img" in text


def test_a_study_is_deterministic_and_resumes(tmp_path):
    g = game(project(tmp_path))
    sp = spec.load(g, Problems())
    a = search.search(g, tunetoy.PACKAGE, sp, settings(trials=4, games=60), tmp_path / "a")
    b = search.search(g, tunetoy.PACKAGE, sp, settings(trials=4, games=60), tmp_path / "b")
    assert a.history == b.history and a.after == b.after
    more = search.search(g, tunetoy.PACKAGE, sp, settings(trials=6, games=60), tmp_path / "a")
    assert len(more.history) == 6 and more.history[:4] == a.history


def test_an_improvement_inside_the_noise_is_called_so(tmp_path):
    text = "numbers:\n  max_turns: {min: 10, max: 60, step: 10}\n"
    g = game(project(tmp_path, text))
    r = search.search(g, tunetoy.PACKAGE, spec.load(g, Problems()), settings(trials=3, games=40), tmp_path / "o")
    assert not r.significant(0)
    assert "improved beyond" not in report.changes(g, r)


@pytest.mark.parametrize(("text", "expect"), [
    ("numbers:\n  teams.hares.bonsu: {min: 0, max: 2}\n", "tune.yaml:2:3: TUNE-PARAM error: no param 'teams.hares.bonsu'"),
    ("numbers:\n  teams.hares: {min: 0, max: 2}\n", "tune.yaml:2:3: TUNE-PARAM error: 'teams.hares' is"),
    ("numbers:\n  die: {min: 4, max: 8.5}\n", "tune.yaml:2:22: TUNE-RANGE error: die: max 8.5 is not an integer"),
    ("numbers:\n  die: {min: 4, max: 9, step: 2}\n", "TUNE-RANGE error: die: step 2 does not divide 4..9"),
    ("numbers:\n  die: {min: 6, max: 4}\n", "TUNE-RANGE error: die: min 6 is not below max 4"),
    ("numbers:\n  die: {min: 4}\n", "tune.yaml:2:8: TUNE-SHAPE error: die: expects"),
    ("number:\n  die: {min: 4, max: 8}\n", "tune.yaml:1:1: TUNE-SHAPE error: unknown key 'number'"),
    ("numbers:\n  deck_size: {min: 6, max: 8}\n", "tune.yaml:2:14: TUNE-BREAKS error: deck_size at 6 breaks "
                                                  "a construction rule: DR-DECK-1"),
    ("groups:\n  bonus: {params: [teams.hares.bonus, teams.hares.bonus], min: -1, max: 1}\n", "tuned twice"),
    ("groups:\n  bonus: {params: [teams.hares.bonus], min: -1, max: 1}\n", "TUNE-SHAPE error: group 'bonus'"),
])
def test_bad_tune_files_are_reported_at_their_line(tmp_path, text, expect):
    found = problems_of(tmp_path, text)
    assert len(found) == 1 and expect in found[0], found


@pytest.mark.parametrize("text", [
    "numbers:\n  teams.hares.bonus: {min: 0, max: 2}\n",
    "numbers:\n  die: {min: 4, max: 8}\n",
    "numbers:\n  die: {min: 4, max: 8, step: 2}\n",
    "numbers:\n  hand_size: {min: 1, max: 3}\n",
    "groups:\n  bonus: {params: [teams.hares.bonus, teams.tortoises.bonus], min: -1, max: 1}\n",
])
def test_their_legal_twins_pass(tmp_path, text):
    assert problems_of(tmp_path, text) == []


def test_a_group_moves_its_params_together(tmp_path):
    text = "groups:\n  bonus: {params: [teams.hares.bonus, teams.tortoises.bonus], min: -1, max: 2}\n"
    sp = spec.load(game(project(tmp_path, text)), Problems())
    assert sp is not None
    assert sp.knobs[0].values(2) == {"teams.hares.bonus": 3, "teams.tortoises.bonus": 2}


def test_unknown_objectives_are_usage_errors():
    with pytest.raises(SimError, match="unknown objective 'balanse'"):
        objectives.parse(["balanse"])
    with pytest.raises(SimError, match="length=LO..HI"):
        objectives.parse(["length=9..3"])
    assert [o.name for o in objectives.parse(["balance", "length=2..4"])] == ["balance", "length"]
    assert objectives.parse(["measure:gap=0..1"])[0].measure == "gap"
    with pytest.raises(SimError, match="measure:NAME=LO..HI"):
        objectives.parse(["measure:=0..1"])


def test_a_games_own_measure_is_an_objective(tmp_path):
    g = game(project(tmp_path, "numbers:\n  teams.hares.bonus: {min: 0, max: 3}\n"))
    sp = spec.load(g, Problems())
    s = settings(objectives=objectives.parse(["measure:gap=3..9"]), trials=6, games=100)
    r = search.search(g, tunetoy.PACKAGE, sp, s, tmp_path / "o")
    # the mean gap is 35/18, 2.06, 2.56, 3.22 for bonus 0..3 (closed form): the largest tried bonus is best
    assert r.best["teams.hares.bonus"] == max(p["teams.hares.bonus"] for _n, p, _v in r.history)
    s = settings(objectives=objectives.parse(["measure:goals=0..1"]), trials=2, games=20)
    with pytest.raises(SimError, match="'goals' is no measure") as e:
        search.search(g, tunetoy.PACKAGE, sp, s, tmp_path / "p")
    assert e.value.hint == "measures: gap, tie"


@pytest.fixture
def cli(monkeypatch):
    real = gamehooks.package
    monkeypatch.setattr(gamehooks, "package", lambda slug: tunetoy.PACKAGE if slug == tunetoy.SLUG else real(slug))

    def invoke(root: Path, *args: str):
        return CliRunner().invoke(main, ["--root", str(root), "tune", tunetoy.SLUG, *args], catch_exceptions=False)
    return invoke


def test_the_command_changes_sources_only_with_apply(tmp_path, cli):
    root = project(tmp_path, "numbers:\n  teams.hares.bonus: {min: -2, max: 3}\n")
    params = root / "rules" / "dice_race" / "params.yaml"
    old = params.read_text(encoding="utf-8")
    args = ["--trials", "8", "--games-per-trial", "100", "--workers", "1"]
    res = cli(root, *args, "--out", str(tmp_path / "o"))
    assert res.exit_code == 0, res.output
    assert params.read_text(encoding="utf-8") == old
    diff = (tmp_path / "o" / "params.diff").read_text(encoding="utf-8")
    assert "-  hares: {bonus: 1}" in diff and "+  hares: {bonus: 0}" in diff
    assert (tmp_path / "o" / "report.html").is_file()
    res = cli(root, *args, "--out", str(tmp_path / "o"), "--apply")
    assert res.exit_code == 0, res.output
    new = params.read_text(encoding="utf-8")
    assert new == old.replace("hares: {bonus: 1}", "hares: {bonus: 0}")       # comments and layout kept
    assert "rebuilding dice_race's printables" in res.output
    assert list((root / "build").rglob("*.pdf"))
    assert "`teams.hares.bonus`: 1 → 0" in (root / "rules" / "dice_race" / "notes" / "tune.md").read_text(encoding="utf-8")


def test_the_command_reports_a_bad_tune_file_before_any_game(tmp_path, cli):
    root = project(tmp_path, "numbers:\n  teams.hares.bonsu: {min: 0, max: 2}\n")
    res = cli(root, "--out", str(tmp_path / "o"))
    assert res.exit_code == 1
    assert "tune.yaml:2:3: TUNE-PARAM error" in res.output and "teams.hares.bonus" in res.output
    assert not (tmp_path / "o").exists()
    res = cli(root, "--objective", "nope", "--out", str(tmp_path / "o"))
    assert res.exit_code == 2 and "unknown objective" in res.output


def test_out_inside_the_sources_is_refused(tmp_path):
    root = project(tmp_path)
    g = game(root)
    with pytest.raises(SimError, match="inside the sources"):
        execute(g, tunetoy.PACKAGE, settings(), root / "rules" / "x", False, Problems(), io.StringIO())


def test_several_objectives_give_a_pareto_front(tmp_path):
    g = game(project(tmp_path))
    s = settings(objectives=objectives.parse(["balance", "first_seat", "length=1..2"]), trials=4, games=40)
    r = search.search(g, tunetoy.PACKAGE, spec.load(g, Problems()), s, tmp_path / "o")
    assert r.pareto and set(r.pareto) <= {n for n, _p, _v in r.history}
    assert r.after.measured[2].value == 0.0            # a duel is two rolls: inside 1..2
    assert len(r.importances) == 3
    assert "<img" in report.render(g, r, report.diff(g, r.after.values))


def test_ctrl_c_leaves_a_resumable_study_and_untouched_sources(tmp_path):
    root = project(tmp_path)
    params = root / "rules" / "dice_race" / "params.yaml"
    old = params.read_text(encoding="utf-8")
    g = game(root)
    sp = spec.load(g, Problems())

    def interrupt(n: int, _vals: list[float]) -> None:
        if n == 2:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        search.search(g, tunetoy.PACKAGE, sp, settings(trials=5, games=40), tmp_path / "o", interrupt)
    assert params.read_text(encoding="utf-8") == old
    r = search.search(g, tunetoy.PACKAGE, sp, settings(trials=5, games=40), tmp_path / "o")
    assert len(r.history) == 5 and [n for n, _p, _v in r.history][:2] == [0, 1]      # trials 0, 1 kept


def test_a_study_resumes_only_under_its_own_settings(tmp_path):
    g = game(project(tmp_path))
    sp = spec.load(g, Problems())
    search.search(g, tunetoy.PACKAGE, sp, settings(trials=2, games=30), tmp_path / "o")
    with pytest.raises(SimError, match="holds a study of other settings"):
        search.search(g, tunetoy.PACKAGE, sp, settings(trials=3, games=50), tmp_path / "o")


def test_the_race_on_the_trials_own_games_reuses_their_results(tmp_path, monkeypatch):
    """--check-games equal to --games-per-trial: the race would replay the very games each finalist
    played (the search's seed), so it plays none; only the trials and the fresh re-measure play."""
    g = game(project(tmp_path))
    sp = spec.load(g, Problems())
    assert sp is not None
    calls: list[tuple[int, int]] = []
    real = search.play

    def counted(game_, package, s, params, seed, games):
        calls.append((seed, games))
        return real(game_, package, s, params, seed, games)
    monkeypatch.setattr(search, "play", counted)
    r = search.search(g, tunetoy.PACKAGE, sp, settings(trials=6, games=100, check_games=100), tmp_path / "o")
    assert len(r.race) >= 2 and calls == [(0, 100)] * 6 + [(1, 100)] * 2
    assert {n: v for n, v in r.race} == {n: v for n, _p, v in r.history if n in {m for m, _ in r.race}}


# --- card fields: a team's dice, a card's number (cards: in tune.yaml) ---------------------------

CARD_TUNE = "cards:\n  jog.boost: {min: 0, max: 3}   # today 1: hares +0\n"


def test_tune_moves_a_card_field_to_its_fair_value_and_apply_edits_the_card_file(tmp_path):
    root = project(tmp_path, CARD_TUNE)
    g = game(root)
    sp = spec.load(g, Problems())
    assert sp is not None and [k.name for k in sp.knobs] == ["card:jog.boost"]
    r = search.search(g, tunetoy.PACKAGE, sp, settings(), tmp_path / "out")
    assert r.best["card:jog.boost"] == 0                  # bonus 1 + (0 − 1): the fair point
    assert r.after.values["card:jog.boost"] == 0 and r.significant(0)
    d = report.diff(g, r.after.values)
    assert "a/cards/dice_race/boosts.yaml" in d and '{id: jog, name: Jog, boost: 0, text: "One more."}' in d
    assert "`jog.boost (card)`: 1 → 0" in report.changes(g, r)
    before = (root / "rules" / "dice_race" / "params.yaml").read_bytes()
    written = report.apply(g, r)
    assert root / "cards" / "dice_race" / "boosts.yaml" in written
    assert "boost: 0, text" in (root / "cards" / "dice_race" / "boosts.yaml").read_text()
    assert (root / "rules" / "dice_race" / "params.yaml").read_bytes() == before     # no param moved
    assert game(root).cards_by_id["jog"].fields["boost"] == 0


def _boi(tmp_path: Path, text: str):
    g = load_game(ROOT, "bones_on_ice", Problems())
    assert g is not None
    path = tmp_path / "tune.yaml"
    path.write_text(text, encoding="utf-8")
    problems = Problems()
    return g, spec.load(g, problems, path), problems


def test_a_die_on_a_card_moves_along_its_declared_values(tmp_path):
    g, sp, problems = _boi(tmp_path, "cards:\n  femurs_sully.marksmanship: {min: d8, max: d12}\n"
                                     "groups:\n  femur_reflexes: {cards: [femurs_frank.reflexes, femurs_tess.reflexes], "
                                     "min: -1, max: 1}\n")
    assert sp is not None and not problems.has_errors, [p.text() for p in problems.items]
    one, group = sp.knobs
    assert (one.low, one.high, one.current, one.shown(one.low)) == (2, 4, 4, "d8")
    assert one.values(3) == {"card:femurs_sully.marksmanship": "d10"}
    assert group.values(1) == {"card:femurs_frank.reflexes": "d10", "card:femurs_tess.reflexes": "d8"}
    moved = spec.apply(g, {**one.values(2), **group.values(-1)})
    assert moved.cards_by_id["femurs_sully"].fields["marksmanship"] == "d8"
    assert moved.cards_by_id["femurs_tess"].fields["reflexes"] == "d4"
    assert g.cards_by_id["femurs_sully"].fields["marksmanship"] == "d12"          # the loaded game untouched
    d = report.diff(g, one.values(3))
    assert "-  - {id: femurs_sully" in d and "marksmanship: d10, text" in d


def test_a_field_the_card_leaves_out_is_tuned_from_its_default_and_written_on_the_card(tmp_path):
    """A team's own starting Stamina (a Team Spirit card's ``stamina``, default ``{param:
    stamina.start}``): no shipped card writes it, tune starts from the shared 20, and the
    proposal writes it on the card — in a flow mapping after the card's first line's last value,
    in a block mapping on a line of its own."""
    g, sp, problems = _boi(tmp_path, "cards:\n  femurs_spirit.stamina: {min: 10, max: 20}\n")
    assert sp is not None and not problems.has_errors, [p.text() for p in problems.items]
    (knob,) = sp.knobs
    assert (knob.current, knob.low, knob.high) == (20, 10, 20)
    assert "stamina" not in g.cards_by_id["femurs_spirit"].own
    d = report.diff(g, knob.values(14))
    assert ('+  - {id: femurs_spirit, name: Cold Snap, type: spirit, team_name: Frostbite Femurs, '
            'color: "#2a6fb0", cost: 3, stamina: 14,\n') in d
    assert d.count("\n+  ") == 1 and d.count("\n-  ") == 1        # that one line
    root = tmp_path / "block"
    (root / "cards").mkdir(parents=True)
    for part in ("rules", "templates", "maps"):
        shutil.copytree(ROOT / part / "bones_on_ice", root / part / "bones_on_ice")
    shutil.copytree(ROOT / "cards" / "bones_on_ice", root / "cards" / "bones_on_ice")
    femurs = root / "cards" / "bones_on_ice" / "team_femurs.yaml"
    text = femurs.read_text(encoding="utf-8")
    flow = text[text.index("  - {id: femurs_spirit"):text.index("  - {id: femurs_sully")]
    block = ("  - id: femurs_spirit\n    name: Cold Snap\n    type: spirit\n"
             "    team_name: Frostbite Femurs\n    color: \"#2a6fb0\"\n    cost: 3\n    text: Brr.\n")
    femurs.write_text(text.replace(flow, block), encoding="utf-8")
    gb = game_of(root, "bones_on_ice")
    texts = report.texts(gb, {"card:femurs_spirit.stamina": 16})
    assert "  - id: femurs_spirit\n    stamina: 16\n    name: Cold Snap\n" in texts[femurs]
    femurs.write_text(texts[femurs], encoding="utf-8")
    assert game_of(root, "bones_on_ice").cards_by_id["femurs_spirit"].fields["stamina"] == 16


def game_of(root: Path, slug: str):
    problems = Problems()
    g = load_game(root, slug, problems)
    assert g is not None and not problems.has_errors, [p.text() for p in problems.items]
    return g


@pytest.mark.parametrize(("text", "rule", "line"), [
    ("cards:\n  femurs_sully.marksmanship: {min: d7, max: d12}\n", "TUNE-RANGE", 2),
    ("cards:\n  femurs_sully.marksmanship: {min: d12, max: d8}\n", "TUNE-RANGE", 2),
    ("cards:\n  femurs_sullly.marksmanship: {min: d8, max: d12}\n", "TUNE-PARAM", 2),
    ("cards:\n  femurs_sully.name: {min: d8, max: d12}\n", "TUNE-PARAM", 2),
    ("groups:\n  mixed: {cards: [femurs_sully.marksmanship, femurs_spirit.cost], min: -1, max: 1}\n", "TUNE-SHAPE", 2),
])
def test_a_bad_card_knob_is_one_problem_at_its_line(tmp_path, text, rule, line):
    _g, sp, problems = _boi(tmp_path, text)
    assert sp is None
    assert [(p.rule, p.loc.line if p.loc else 0) for p in problems.errors] == [(rule, line)]


# --- skill vs luck as an objective ---------------------------------------------------------------

def _games(a_wins: int, b_wins: int, even: int) -> list[dict]:
    out = []
    for i in range(a_wins + b_wins + even):
        seats = ["mcts:50", "random"] if i % 2 else ["random", "mcts:50"]
        ret = [1.0, 0.0] if i < a_wins else [0.0, 1.0] if i < a_wins + b_wins else [0.5, 0.5]
        mine = seats.index("mcts:50")
        out.append({"status": "finished", "agents": seats, "returns": ret if mine == 0 else ret[::-1]})
    return out


def test_skill_is_the_stronger_agents_share_and_its_distance_from_the_target():
    (obj,) = objectives.parse(["skill=0.6..0.7"])
    m = objectives.skill(obj, _games(140, 40, 20))           # (140 + 10) / 200 = 0.75
    assert m.value == pytest.approx(0.05)
    assert m.low == 0 and m.high == pytest.approx(0.105, abs=0.001)   # Wilson [0.686, 0.805] reaches 0.7
    far = objectives.skill(obj, _games(850, 150, 0))         # 0.85 on 1,000 games: Wilson [0.827, 0.871]
    assert far.value == pytest.approx(0.15) and 0.12 < far.low < 0.15 < far.high < 0.18
    inside = objectives.skill(obj, _games(13, 7, 0))        # 0.65: inside the target
    assert inside.value == 0 and inside.low == 0
    weaker_first = objectives.skill(obj, [{**g, "agents": g["agents"][::-1]} for g in _games(140, 40, 20)])
    assert weaker_first.value == pytest.approx(0.05)         # whichever agent is stronger
    assert objectives.label(obj) == "skill in 0.6..0.7"


@pytest.mark.parametrize("text", ["skill=0.3..0.6", "skill=0.8..0.7", "skill=abc"])
def test_a_bad_skill_target_is_a_usage_error(text):
    with pytest.raises(SimError):
        objectives.parse([text])


def test_skill_needs_two_agents():
    (obj,) = objectives.parse(["skill=0.6..0.7"])
    with pytest.raises(SimError, match="two agents"):
        objectives.skill(obj, [{"status": "finished", "agents": ["random", "random"], "returns": [1.0, 0.0]}])


def test_a_short_study_proposes_its_best_trial_whole(tmp_path):
    """Fewer than four trials a knob: importances are noise, so no knob is reset to today's value:
    the proposal is the race's winner as it stands."""
    g = game(project(tmp_path))
    sp = spec.load(g, Problems())
    r = search.search(g, tunetoy.PACKAGE, sp, settings(trials=5), tmp_path / "out")
    won = min(r.race, key=lambda t: (sum(t[1]), t[0]))[0]
    assert r.best == next(p for n, p, _v in r.history if n == won)


def test_the_race_sends_a_lucky_trial_back(tmp_path, monkeypatch):
    """On the trials' few games a wrong number looks best (luck); replayed on more games, the
    right one wins the race and is the proposal."""
    g = game(project(tmp_path, "numbers:\n  teams.hares.bonus: {min: -2, max: 3}\n"))
    sp = spec.load(g, Problems())
    seen = []

    def play(game_, package, s, params, seed, games):
        bonus = params["teams.hares.bonus"]
        seen.append(games)
        value = 0.01 if (games == s.games and bonus == 2) else abs(bonus) / 10 + 0.02
        return [objectives.Measured(value, value, value)]
    monkeypatch.setattr(search, "play", play)
    s = settings(trials=12, games=50, check_games=400)
    r = search.search(g, tunetoy.PACKAGE, sp, s, tmp_path / "out")
    trial_best = min(r.history, key=lambda t: sum(t[2]))
    assert trial_best[1]["teams.hares.bonus"] == 2                 # the lucky trial led the study
    assert r.best["teams.hares.bonus"] == 0 and len(r.race) == search.FINALISTS
    assert 400 in seen
    assert "The best trials replayed on 400 games" in report.render(g, r, "")


def test_matchups_is_the_worst_cell_of_a_table_of_an_attribute_against_itself():
    def cell(rate):
        return {"rate": rate, "low": rate - 0.05, "high": rate + 0.05, "n": 100}
    block = {"finished": 300, "first_seat": {"fair": 0.5, "rate": 0.5, "low": 0.45, "high": 0.55},
             "win_rates": {"team": [cell(0.55), cell(0.45)]},
             "matchups": [
                 {"rows_by": "team", "cols_by": "team", "rows": ["a", "b", "c"], "cols": ["a", "b", "c"],
                  "cells": [[cell(0.99), cell(0.58), cell(0.47)], [cell(0.42), None, cell(0.51)],
                            [cell(0.53), cell(0.49), cell(0.5)]]},
                 {"rows_by": "team", "cols_by": "map", "rows": ["a"], "cols": ["x"], "cells": [[cell(0.9)]]}]}
    (m,) = objectives.parse(["matchups"])
    (b,) = objectives.parse(["balance"])
    got = objectives.measure(m, block, [])
    # a vs b; the mirrors and the team × map table aside
    assert got.value == pytest.approx(0.08) and got.low == pytest.approx(0.03)
    assert objectives.measure(b, block, []).value == pytest.approx(0.05)


def test_a_knob_that_looks_idle_is_kept_when_leaving_it_out_does_worse(tmp_path, monkeypatch):
    """Importances judge knobs one at a time; knobs may matter together. The proposal keeps an
    'idle' knob's found value unless the proposal trimmed of it does as well on fresh games."""
    g = game(project(tmp_path))
    sp = spec.load(g, Problems())
    fake = [{"teams.hares.bonus": 0.0, "max_turns": 1.0}]        # the knob that matters called idle
    monkeypatch.setattr(search, "importances", lambda st, knobs, n: fake)
    r = search.search(g, tunetoy.PACKAGE, sp, settings(), tmp_path / "out")
    assert r.best["teams.hares.bonus"] == 0                       # trimming it back to 1 would undo the fix
    assert r.significant(0)


def test_near_searches_around_todays_numbers_and_finds_the_fair_value(tmp_path):
    """--near: CMA-ES started at today's numbers (trial 0), its trials close to them."""
    g = game(project(tmp_path, "numbers:\n  teams.hares.bonus: {min: -2, max: 3}   # today 1\n"))
    sp = spec.load(g, Problems())
    r = search.search(g, tunetoy.PACKAGE, sp, settings(near=True, trials=10), tmp_path / "out")
    assert r.history[0][1] == {"teams.hares.bonus": 1}
    assert r.best == {"teams.hares.bonus": 0} and r.significant(0)


def test_near_is_for_one_objective():
    with pytest.raises(SimError, match="one objective"):
        search.sampler(settings(near=True, objectives=objectives.parse(["balance", "first_seat"])), [])


def test_only_moves_the_knobs_it_names(tmp_path):
    g = game(project(tmp_path))
    sp = spec.load(g, Problems())
    assert [k.name for k in spec.only(sp, ["teams.*"]).knobs] == ["teams.hares.bonus"]
    assert spec.only(sp, []) is sp
    with pytest.raises(SimError, match="--only max_turn: no knob") as e:
        spec.only(sp, ["max_turn"])
    assert e.value.code == 2 and "max_turns" in (e.value.hint or "")


def test_only_is_a_usage_error_on_the_command_line(tmp_path, cli):
    root = project(tmp_path)
    res = cli(root, "--only", "nothing*", "--trials", "1", "--games-per-trial", "4",
              "--out", str(tmp_path / "o"))
    assert res.exit_code == 2 and "no knob of tune.yaml matches" in res.output


def test_first_mover_is_the_worst_player_counts_advantage():
    def fm(n, r, fair):
        return {"players": n, "rate": r, "low": r - 0.02, "high": r + 0.02, "fair": fair}
    block = {"finished": 100, "first_seat": {"fair": 0.5, "rate": 0.5, "low": 0.45, "high": 0.55},
             "first_mover": [fm(2, 0.554, 0.5), fm(3, 0.364, 1 / 3), fm(4, 0.278, 0.25)]}
    (o,) = objectives.parse(["first_mover"])
    assert objectives.measure(o, block, []).value == pytest.approx(0.054)
    with pytest.raises(SimError, match="who moved first"):
        objectives.measure(o, {**block, "first_mover": []}, [])


# --- a real game: Bones on Ice with a die broken on purpose --------------------------------------

PROPOSAL = ROOT / "rules" / "bones_on_ice" / "notes" / "tune.md"


def _proposed() -> dict[str, object]:
    """The card numbers notes/tune.md proposes (passes 1–3 and 7), as `cardgen tune` wrote them."""
    found = re.findall(r"^- `(\w+\.\w+) \(card\)`: \S+ → (\S+)$", PROPOSAL.read_text(encoding="utf-8"), re.M)
    assert len(found) >= 20, "notes/tune.md lists the proposal"
    return {f"card:{k}": int(v) if v.isdigit() else v for k, v in found}


def test_a_broken_team_stat_is_moved_back_toward_balance(tmp_path):
    """Bones on Ice with the proposal applied, then Slapshot Sully's Marksmanship broken down to
    a d4 (the Femurs fall far behind): tune over that die, greedy in every seat, proposes a
    bigger die and says the worst team moved back toward 50 % beyond the noise."""
    base = load_game(ROOT, "bones_on_ice", Problems())
    assert base is not None
    broken = spec.apply(spec.apply(base, _proposed()), {"card:femurs_sully.marksmanship": "d4"})
    path = tmp_path / "tune.yaml"
    path.write_text("cards:\n  femurs_sully.marksmanship: {min: d4, max: d12}\n", encoding="utf-8")
    problems = Problems()
    sp = spec.load(broken, problems, path)
    assert sp is not None and not problems.has_errors, [p.text() for p in problems.items]
    (knob,) = sp.knobs
    assert knob.shown(knob.current) == "d4"
    pkg = gamehooks.package("bones_on_ice")
    assert pkg is not None
    r = search.search(broken, pkg, sp, settings(agents=("greedy",), trials=3, games=200, check_games=200),
                      tmp_path / "out")
    assert knob.shown(r.best[knob.name]) != "d4"
    assert r.significant(0)

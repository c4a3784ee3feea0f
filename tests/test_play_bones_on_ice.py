"""Bones on Ice on the game-state API (cardgen/games/bones_on_ice): the self-consistency proof
of tests/playkit.py — sound API, random games that replay through ``cardgen check`` with the
same result, one mutated event reported at its line — and every event of the legal example
logs among the state's legal actions (or chance outcomes) at its point."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardgen.builder import check as checker
from cardgen.content.playlog import read
from cardgen.games.bones_on_ice import BoiState
from cardgen.games.bones_on_ice.follow import Follower, Unmatched
from cardgen.games.bones_on_ice.state import SEEN
from cardgen.play.api import CHANCE, TERMINAL
from cardgen.tune.cardfields import with_fields
from tests import playkit

SLUG = "bones_on_ice"


def test_api_sound():
    playkit.assert_api_sound(SLUG)


def test_random_games_replay(tmp_path):
    playkit.assert_random_games_replay(SLUG, tmp_path)


def test_setups_are_every_pairing_in_both_seat_orders():
    setups = playkit.package(SLUG).setups(playkit.game(SLUG), random.Random(0))
    pairs = [tuple(t["team"] for t in s["teams"]) for s in setups]
    assert len(pairs) == len(set(pairs)) == 12 and all(a != b for a, b in pairs)


def test_a_game_starts_with_the_round_marker_and_a_face_off():
    state = playkit.new_state(SLUG, 0)
    assert state.current_player() == CHANCE
    assert [a for a, _ in state.chance_outcomes()][0].kind == "round_start"
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0
    assert {a.kind for a in state.legal_actions()} == {"faceoff"}
    assert len(state.legal_actions()) == 3              # the Attacker or a Defender, never the Goalie


def test_a_finished_game_is_decided_by_the_rules():
    for seed in range(6):
        state = playkit.random_game(SLUG, seed)
        res = state.result()
        assert state.current_player() == TERMINAL and res["round"] == 15
        if res["decided_by"] == "regulation":
            assert res["score"][res["winner"]] == max(res["score"].values())
        else:
            assert len(set(res["score"].values())) == 1 and res["shootout"] is not None
        assert sum(state.returns()) == 1.0


# --- one mutated event of a random game is reported at its line ---------------------------------

def _pick(events, rng, pred):
    idx = [i for i, e in enumerate(events) if pred(e)]
    return rng.choice(idx) if idx else None


def _goalie(events, team_of_defender):
    return {"femurs": "femurs_rattlebones", "titans": "titans_keeper", "cracklers": "cracklers_jawbone",
            "marauders": "marauders_kate"}[team_of_defender]


def mut_target(events, rng):
    """The defender of a Move or Shoot is the defending team's Goalie (BOI-MID-6)."""
    i = _pick(events, rng, lambda e: e["kind"] in ("move", "shoot"))
    if i is not None:
        team = events[i]["defender"].split("_")[0]
        events[i]["defender"] = _goalie(events, team)
    return i


def mut_die(events, rng):
    """A roll no die shows (BOI-ROLL-1)."""
    i = _pick(events, rng, lambda e: "rolls" in e and e["kind"] != "scramble")
    if i is not None:
        events[i]["rolls"][rng.randrange(2)] = rng.choice([0, 13])
    return i


def mut_actor(events, rng):
    """A Tactical Move by a skater of the team that did not win the Face-Off (BOI-MID-1)."""
    i = _pick(events, rng, lambda e: e["kind"] == "tactical_move")
    if i is not None:
        team = events[i]["skater"].split("_")[0]
        faceoff = next(e for e in reversed(events[:i]) if e["kind"] == "faceoff" and len(e["skaters"]) == 2)
        events[i]["skater"] = next(s for s in faceoff["skaters"] if not s.startswith(team + "_"))
    return i


def mut_score(events, rng):
    """A wrong score stated after a goal (BOI-1V1-1)."""
    i = _pick(events, rng, lambda e: e["kind"] in ("one_v_one", "penalty_shot") and e.get("goal"))
    if i is not None:
        team = next(iter(events[i]["score"]))
        events[i]["score"][team] += 1
    return i


def mut_winner(events, rng):
    """The other team named as the winner of a contested roll (the roll's rule)."""
    i = _pick(events, rng, lambda e: e["kind"] in ("move", "shoot", "intercept", "rebound") and "winner" in e)
    if i is not None:
        teams = sorted({k for e in events if e["kind"] == "recovery" for k in e["stamina"]})
        events[i]["winner"] = next(t for t in teams if t != events[i]["winner"])
    return i


def mut_stamina(events, rng):
    """A wrong Stamina stated after a Pass or Tactical Move (BOI-STAM-2)."""
    i = _pick(events, rng, lambda e: e["kind"] in ("pass", "tactical_move"))
    if i is not None:
        team = next(iter(events[i]["stamina"]))
        events[i]["stamina"][team] += -1 if events[i]["stamina"][team] > 0 else 1
    return i


@pytest.mark.parametrize("mutate", [mut_target, mut_die, mut_actor, mut_score, mut_winner, mut_stamina],
                         ids=lambda f: f.__name__)
def test_mutation_caught(tmp_path, mutate):
    assert playkit.assert_mutation_caught(SLUG, tmp_path, mutate) > 0


# --- completeness: every event of a legal example log is made of legal actions at its point ------

EXAMPLES = playkit.ROOT / "examples" / "logs" / SLUG


@pytest.mark.parametrize("name", ["regulation.yaml", "regulation.jsonl", "shootout.yaml"])
def test_every_event_of_the_example_logs_is_legal_in_the_state(name):
    log = read(EXAMPLES / name)
    state = playkit.package(SLUG).new_state(playkit.game(SLUG), log.header)
    events = [{"kind": ev.kind, **ev.fields} for ev in log.events]
    steps = Follower(state).follow(events)
    assert steps > len(events) and state.is_terminal()
    assert {k: v for k, v in state.result().items() if k != "teams"} == \
        {k: v for k, v in _final(name).items() if k != "teams"}


def _final(name):
    """What ``cardgen check`` gives as the example's final state."""
    from_log = read(EXAMPLES / name)
    engine = playkit.package(SLUG).engine
    _problems, final, _ = checker.replay_log(playkit.game(SLUG), engine, from_log)
    return final


def test_a_random_game_is_followed_back_from_its_own_log():
    for seed in range(5):
        played = playkit.random_game(SLUG, seed)
        state = playkit.new_state(SLUG, seed)
        Follower(state).follow(played.log_events())
        assert state.result() == played.result() and state.log_events() == played.log_events()


def test_a_state_without_a_log_builds_no_events_and_gives_its_log_by_replay():
    """The hot path of search (issue 29): a state of a simulation keeps no event dicts; its log is
    written on demand by replaying its actions on a state that keeps one — the same log; its
    observation, built when read, is the table as it stands."""
    played = playkit.random_game(SLUG, 3)
    assert not played.log and played.events == []
    twin = BoiState(played.s, log=True)
    for a in played.history:
        twin.apply_action(a)
    assert twin.events and played.log_events() == twin.log_events()
    mid = playkit.new_state(SLUG, 3)
    for a in played.history[: len(played.history) // 2]:
        mid.apply_action(a)
    copy = mid.clone()
    obs = copy.observation(0)
    assert dict(obs) == {k: see(copy, 0) for k, see in SEEN.items()}
    assert obs["round"] == mid.round and copy.events == []


def test_an_illegal_event_is_not_made_of_legal_actions():
    log = read(EXAMPLES / "regulation.yaml")
    events = [{"kind": ev.kind, **ev.fields} for ev in log.events]
    i = next(k for k, e in enumerate(events) if e["kind"] == "tactical_move")
    events[i] = dict(events[i], skater="rattlebones")           # the Goalie takes no action
    state = playkit.package(SLUG).new_state(playkit.game(SLUG), log.header)
    with pytest.raises(Unmatched) as e:
        Follower(state).follow(events)
    assert e.value.index == i


# --- simulate: the greedy agent and the game's measures ----------------------------------------

def _duel(seed, seats):
    state = playkit.new_state(SLUG, seed)
    pkg = playkit.package(SLUG)
    agents = [pkg.agents["greedy"](playkit.game(SLUG)) if s == "greedy" else playkit.random_agent for s in seats]
    played = playkit.play(state, agents, random.Random(seed), playkit.MAX_STEPS)
    assert played.finished
    return played.state


def test_the_greedy_agent_beats_random_play_and_its_games_replay(tmp_path):
    wins = 0.0
    n = 20
    for seed in range(n):
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        state = _duel(seed, seats)
        wins += state.returns()[seats.index("greedy")]
        if seed < 4:
            problems, final = playkit.replay_text(SLUG, playkit.as_jsonl(state), tmp_path)
            assert not [p for p in problems.items if p.severity == "error"]
    assert wins / n > 0.6, wins


def test_measures_of_a_played_game():
    state = playkit.random_game(SLUG, 2)
    m = playkit.package(SLUG).measures(state)
    assert m["rounds"] == 15 and m["goals"] == sum(state.result()["score"].values())
    assert m["goals_per_round"] == round(m["goals"] / 15, 4)
    assert m["shootout"] == (state.result()["decided_by"] != "regulation")
    assert sum(m["chaos"].values()) == 3                       # rounds 5, 10 and 15


def test_a_header_line_up_is_the_state_s_and_its_log_replays(tmp_path):
    header = {"game": SLUG, "teams": [
        {"team": "Frostbite Femurs", "skaters": ["sully", "frank", "titans_sam", "rattlebones"]},
        {"team": "titans", "skaters": ["bruno", "femurs_tess", "pat", "keeper"]}]}
    state = playkit.package(SLUG).new_state(playkit.game(SLUG), header)
    assert state.log_header()["teams"][0] == {"team": "femurs", "skaters": [
        "femurs_sully", "femurs_frank", "titans_sam", "femurs_rattlebones"]}
    playkit.play(state, playkit.random_agent, random.Random(3), playkit.MAX_STEPS)
    problems, final = playkit.replay_text(SLUG, playkit.as_jsonl(state), tmp_path)
    assert not [p for p in problems.items if p.severity == "error"] and final["winner"] == state.result()["winner"]


def test_the_greedy_agent_shoots_for_every_team():
    """Greedy takes the best shot a Mid-Game offers (issue 30: it used to skate the carrier forward,
    which spends the action a shot needs, so only the Cracklers — whose Team Spirit gives a skater
    that acted another action — shot often): every team shoots in most of its games."""
    game, pkg = playkit.game(SLUG), playkit.package(SLUG)
    greedy = pkg.agents["greedy"](game)
    setups = pkg.setups(game, random.Random(0))
    shots: Counter = Counter()
    played: Counter = Counter()
    rng = random.Random(3)
    for i in range(2 * len(setups)):
        state = pkg.new_state(game, setups[i % len(setups)])
        playkit.play(state, [greedy, greedy], rng)
        for t in setups[i % len(setups)]["teams"]:
            played[t["team"]] += 1
        shots.update(e["skater"].split("_")[0] for e in state.log_events() if e["kind"] == "shoot")
    assert set(played) == {"cracklers", "femurs", "marauders", "titans"}
    assert all(shots[t] >= played[t] for t in played), (dict(shots), dict(played))


def test_a_team_s_own_starting_stamina_starts_its_pool_and_more_of_it_wins_more():
    """A Team Spirit card's ``stamina`` (a project addition; left out: the shared stamina.start)
    is the team's Stamina at the start; on the same seeded greedy games the Femurs — who spend
    their pool to the last points on Cold Snap — win more of them starting with 20 than with 0."""
    game, pkg = playkit.game(SLUG), playkit.package(SLUG)
    assert pkg.new_state(game, {"teams": ["femurs", "titans"]}).stamina == [20, 20]

    def femur_wins(start: int) -> float:
        g = with_fields(game, {"card:femurs_spirit.stamina": start})
        assert pkg.new_state(g, {"teams": ["titans", "femurs"]}).stamina == [20, start]
        greedy = pkg.agents["greedy"](g)
        wins = 0.0
        for seed in range(160):
            teams = ["femurs", "marauders"] if seed % 2 == 0 else ["marauders", "femurs"]
            state = pkg.new_state(g, {"teams": teams})
            playkit.play(state, [greedy, greedy], random.Random(seed), playkit.MAX_STEPS)
            wins += state.returns()[teams.index("femurs")]
        return wins
    assert femur_wins(20) > femur_wins(0) + 4

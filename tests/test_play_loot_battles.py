"""Loot & Battles on the game-state API: random games end, replay through the checker with
the same result, and one mutated event is reported at its line; every event of the legal
example logs is among the state's legal actions at its point."""

from __future__ import annotations

import random
from typing import Any

from cardgen.builder import check as checker
from cardgen.content.playlog import read
from cardgen.games.loot_battles.names import LogNames
from cardgen.games.loot_battles.play_log import actions_for
from tests import playkit

GAME = "loot_battles"


def test_api_sound():
    playkit.assert_api_sound(GAME)


def test_random_games_replay(tmp_path):
    playkit.assert_random_games_replay(GAME, tmp_path)


# -- one mutated event, reported at its line ---------------------------------------------

def _pick(events: list[dict[str, Any]], rng: random.Random, ok) -> int | None:
    idx = [i for i, e in enumerate(events) if ok(e)]
    return rng.choice(idx) if idx else None


def _impossible_die(events, rng):
    i = _pick(events, rng, lambda e: e["kind"] in ("attack", "enemy_attack") and e.get("dice"))
    if i is not None:
        events[i]["dice"][0] = 7
    return i


def _wrong_damage(events, rng):
    i = _pick(events, rng, lambda e: e["kind"] in ("attack", "enemy_attack") and e.get("hit") and "damage" in e)
    if i is not None:
        events[i]["damage"] += 1
    return i


def _wrong_hp(events, rng):
    i = _pick(events, rng, lambda e: e["kind"] in ("attack", "enemy_attack") and "hp_left" in e)
    if i is not None:
        events[i]["hp_left"] += 1
    return i


def _defeated_target(events, rng):
    """An attack on an enemy felled earlier in the same Encounter (LB-DMG-1)."""
    down: list[str] = []
    cands = []
    for i, e in enumerate(events):
        if e["kind"] == "enemies_placed":
            down = []
        elif e["kind"] == "attack" and "target" in e:
            if down and e["target"] not in down:
                cands.append((i, rng.choice(down)))
            if e.get("ko"):
                down.append(e["target"])
    if not cands:
        return None
    i, dead = rng.choice(cands)
    events[i]["target"] = dead
    return i


def _out_of_turn(events, rng):
    """An attack made by another (active) player than the one whose turn it is."""
    players = sorted({e["player"] for e in events if e["kind"] == "attack"})
    i = _pick(events, rng, lambda e: e["kind"] == "attack" and len(players) > 1)
    if i is None:
        return None
    events[i]["player"] = next(p for p in players if p != events[i]["player"])
    return i


def test_impossible_die_caught(tmp_path):
    assert playkit.assert_mutation_caught(GAME, tmp_path, _impossible_die) > 0


def test_wrong_damage_caught(tmp_path):
    assert playkit.assert_mutation_caught(GAME, tmp_path, _wrong_damage) > 0


def test_wrong_health_caught(tmp_path):
    assert playkit.assert_mutation_caught(GAME, tmp_path, _wrong_hp) > 0


def test_defeated_target_caught(tmp_path):
    assert playkit.assert_mutation_caught(GAME, tmp_path, _defeated_target) > 0


def test_out_of_turn_caught(tmp_path):
    assert playkit.assert_mutation_caught(GAME, tmp_path, _out_of_turn) > 0


# -- completeness: the legal example logs are played by the state's own legal actions -----

def test_example_logs_are_legal_actions():
    logs = sorted(p for p in playkit.ROOT.joinpath("examples", "logs", GAME).iterdir()
                  if p.suffix in (".yaml", ".jsonl") and p.stem != "table-slips")
    assert logs
    for path in logs:
        log = read(path)
        state = playkit.package(GAME).new_state(playkit.game(GAME), log.header)
        for ev in log.events:
            event = LogNames(state.rules, state.players).event(state, {"kind": ev.kind, **ev.fields})
            for action in actions_for(state, event):
                assert action in playkit.legal_action_keys(state), \
                    f"{path.name}:{ev.loc.line}: {action} is not among the legal actions " \
                    f"{sorted(map(str, playkit.legal_action_keys(state)))[:8]}"
                state.apply_action(action)
        checker._check_shape(playkit.package(GAME).engine, log, GAME)
        _, final, _ = checker.replay_log(playkit.game(GAME), playkit.package(GAME).engine, log)
        mine = state.result()
        assert {k: mine[k] for k in ("winner", "battles_won", "leader", "loot_pool")} == \
            {k: final[k] for k in ("winner", "battles_won", "leader", "loot_pool")}, path.name
        assert len(state.log_events()) > 50, path.name


# -- the greedy agent and the game's measures ------------------------------------------------

def test_greedy_games_replay_and_win_more_than_random(tmp_path):
    from cardgen.play.playout import as_jsonl, play, random_agent
    pkg = playkit.package(GAME)
    agent = pkg.agents["greedy"](playkit.game(GAME))
    wins = {"greedy": 0, "random": 0}
    for seed in range(playkit.GAMES):
        for name, who in (("greedy", agent), ("random", random_agent)):
            state = playkit.new_state(GAME, seed)
            assert play(state, who, random.Random(seed), playkit.MAX_STEPS).finished
            wins[name] += state.winner == "players"
            if name == "greedy":
                problems, final = playkit.replay_text(GAME, as_jsonl(state), tmp_path)
                assert not problems.has_errors, [p.text() for p in problems.errors][:3]
                assert final["winner"] == state.winner
                m = pkg.measures(state)
                assert m["battles_won"] == state.battles_won and m["result"] in ("players", "enemies", "stalemate")
                assert sum(m["knockouts_by_encounter"].values()) >= (len(state.players) if state.winner ==
                                                                     "enemies" else 0)
    assert wins["greedy"] > wins["random"]

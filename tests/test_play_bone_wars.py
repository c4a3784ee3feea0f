"""Bone Wars on the game-state API (cardgen/games/bone_wars): the self-consistency proof of
tests/playkit.py — sound API, random games that replay through ``cardgen check`` with the same
result, one mutated event reported at its line — and every event of the legal example logs
among the state's legal actions (or chance outcomes) at its point."""

from __future__ import annotations

import math
import random

import pytest

from cardgen.content.loader import load_game
from cardgen.content.playlog import read
from cardgen.core.problems import Problems
from cardgen.games.bone_wars.agents import evaluate
from cardgen.play.api import CHANCE, TERMINAL, Action, walk
from cardgen.play.playout import as_jsonl, play, random_agent
from cardgen.play.replay import StateReferee
from cardgen.play.search import shares
from tests import playkit
from tests.conftest import ROOT

SLUG = "bone_wars"
EXAMPLES = ROOT / "examples" / "logs" / SLUG


def test_api_sound():
    playkit.assert_api_sound(SLUG)


def test_random_games_replay(tmp_path):
    playkit.assert_random_games_replay(SLUG, tmp_path)


def test_setups_are_every_player_count():
    setups = playkit.package(SLUG).setups(playkit.game(SLUG), random.Random(0))
    assert [len(s["players"]) for s in setups] == [2, 3, 4]


def test_setup_is_chance_and_a_turn_starts_with_a_draw():
    state = playkit.new_state(SLUG, 0)
    assert state.current_player() == CHANCE and state.chance_outcomes()[0][0].kind == "turn_order_roll"
    rng = random.Random(1)
    while state.history == [] or state.history[-1].kind != "draw":
        outs = state.chance_outcomes()
        assert outs, state.history[-3:]
        state.apply_action(outs[rng.randrange(len(outs))][0])
    assert sum(state.hands[p].size for p in state.players) == 7 * len(state.players) + 1
    assert state.current_player() == state.players.index(state.current)
    kinds = {a.kind for a in state.legal_actions()}
    assert kinds == {"create", "end_turn"}                      # nothing on the table yet


def test_observation_shows_only_ones_own_hand():
    state = playkit.random_game(SLUG, 3)
    obs = state.observation(0)
    assert obs["hand"] == state.hands[state.players[0]].cards()
    assert "hands" not in obs and set(obs["hand_sizes"]) == set(state.players)


def test_a_finished_game_has_one_winner():
    state = playkit.random_game(SLUG, 5)
    assert state.current_player() == TERMINAL
    assert sorted(state.returns()) == [0.0] * (len(state.players) - 1) + [1.0]


def _chance_nodes():
    """A state at each kind of chance node: turn-order d20, deal, draw, a blocked attack's two
    d20s and an unblocked defender's d20 (from seeded random games)."""
    found: dict[str, object] = {}
    for seed in range(40):
        state, rng = playkit.new_state(SLUG, seed), random.Random(seed)
        while state.current_player() != TERMINAL and len(found) < 5:
            who = state.current_player()
            if who == CHANCE:
                outs = state.chance_outcomes()
                a = outs[0][0]
                key = a.kind if a.kind != "roll" else ("dice" if a.get("attacker") else "defender")
                found.setdefault(key, state.clone())
                state.apply_action(walk(outs, rng.random()))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    assert sorted(found) == ["deal", "defender", "dice", "draw", "turn_order_roll"]
    return found.values()


def test_sample_chance_falls_where_the_walk_does_at_every_boundary():
    """The override computes the outcome from ``r`` without listing the outcomes: at each running
    total of the walk, just below and just above it, it gives the walk's outcome (float sums:
    ``k / 400`` is not always the walk's total; a bisection on ``k / n`` would miss)."""
    for state in _chance_nodes():
        outs = state.chance_outcomes()
        acc, rs = 0.0, [0.0, math.nextafter(1.0, 0.0)]
        for _, p in outs:
            acc += p
            rs += [acc, math.nextafter(acc, 0.0), math.nextafter(acc, 1.0)]
        for r in (r for r in rs if 0.0 <= r < 1.0):
            assert state.sample_chance(r) == walk(outs, r), (outs[0][0].kind, r)


# --- one mutated event of a random game is reported at its line ---------------------------------

def _pick(events, rng, pred):
    idx = [i for i, e in enumerate(events) if pred(e)]
    return rng.choice(idx) if idx else None


def mut_target(events, rng):
    """An attack on the attacker themselves (BW-ATK-2)."""
    i = _pick(events, rng, lambda e: e["kind"] == "attack")
    if i is not None:
        events[i]["target"] = events[i]["player"]
    return i


def mut_die(events, rng):
    """A d20 showing 21 or 0 (BW-ATK-6 / BW-ATK-10)."""
    i = _pick(events, rng, lambda e: e["kind"] == "roll")
    if i is not None:
        key = next(k for k in ("attacker", "blocker", "defender") if k in events[i])
        events[i][key] = rng.choice([0, 21])
    return i


def mut_actor(events, rng):
    """An attack by a player whose turn it is not (BW-TURN-1 / BW-ATK-2)."""
    i = _pick(events, rng, lambda e: e["kind"] == "attack")
    if i is not None:
        events[i]["player"] = events[i]["target"]
    return i


def mut_damage(events, rng):
    """A wrong HP stated after an unblocked attack (BW-ATK-10) or a blocked one (BW-ATK-7/9)."""
    i = _pick(events, rng, lambda e: e["kind"] in ("take_damage", "damage"))
    if i is not None:
        events[i]["hp_left"] += rng.choice([-1, 1])
    return i


def mut_stats(events, rng):
    """A wrong Str stated for a monster just built (BW-CREATE-5)."""
    i = _pick(events, rng, lambda e: e["kind"] in ("create", "add_part", "replace_part"))
    if i is not None:
        events[i]["stats"]["str"] += 1
    return i


@pytest.mark.parametrize("mutate", [mut_target, mut_die, mut_actor, mut_damage, mut_stats],
                         ids=lambda f: f.__name__)
def test_mutation_caught(tmp_path, mutate):
    assert playkit.assert_mutation_caught(SLUG, tmp_path, mutate) > 0


# --- completeness: every event of a legal example log is a legal action at its point ------------

@pytest.mark.parametrize("name", ["duel-2p.yaml", "three-way-3p.yaml", "three-way-3p.jsonl"])
def test_every_event_of_a_legal_log_is_a_legal_action(name):
    """Each action an event stands for (the contract's translation) is among the state's legal
    actions or chance outcomes at its point — or one the contract accepts for what a log may leave
    out: a card drawn face down, a monster created under the log's own name."""
    log = read(EXAMPLES / name)
    rules = playkit.package(SLUG).rules(playkit.game(SLUG))
    ref = StateReferee(rules, log.header)
    checked = accepted = 0
    for ev in log.events:
        event = {"kind": ev.kind, **ev.fields}
        twin = ref.state.clone()
        for action in rules.actions_of(twin, event):
            if action in playkit.legal_action_keys(twin):
                checked += 1
            else:
                assert rules.accepts(twin, action), (ev.loc, ev.kind, str(action))
                assert action.kind in ("draw", "create"), action
                accepted += 1
            twin.apply_action(action)
        assert not ref.event(ev.index, event), ev.loc
    assert ref.state.is_terminal() and checked > len(log.events) / 2


# --- simulate: the greedy agent and the game's measures ----------------------------------------

def test_greedy_beats_random_and_its_games_replay(tmp_path):
    pkg, g = playkit.package(SLUG), playkit.game(SLUG)
    greedy = pkg.agents["greedy"](g)
    wins = 0
    for seed in range(20):
        state = pkg.new_state(g, {"players": ["ana", "ben"]})
        seats = [greedy, random_agent] if seed % 2 == 0 else [random_agent, greedy]
        assert play(state, seats, random.Random(seed), playkit.MAX_STEPS).finished
        wins += state.winner == state.players[seed % 2]
        if seed < 3:
            problems, final = playkit.replay_text(SLUG, as_jsonl(state), tmp_path)
            assert not problems.has_errors and final == state.result()
        m = pkg.measures(state)
        assert m["winner_hp"] == state.hp[state.winner] > 0 and m["turns"] == state.turn
    assert wins >= 14, wins


def test_greedy_reads_its_weights_from_params(game_copy):
    g = game_copy(SLUG)
    g.edit("rules/bone_wars/params.yaml", "attack_odds: 0.45", "attack_odds: 0.99")
    loaded = load_game(g.root, SLUG, Problems())
    assert playkit.package(SLUG).agents["greedy"](loaded).w.attack_odds == 0.99


def test_the_result_names_the_first_mover():
    """The turn-order d20's winner is in the result (the simulation report's first-mover
    advantage reads ``first_mover``); a tie re-rolled names the re-roll's winner."""
    state = playkit.package(SLUG).new_state(playkit.game(SLUG), {
        "players": ["ana", "ben", "cy"], "turn_order_rolls": [{"ana": 3, "ben": 17, "cy": 17}, {"ben": 4, "cy": 9}]})
    assert state.result()["first_mover"] == "cy"
    played = playkit.random_game(SLUG, 2)
    assert played.result()["first_mover"] == played.rolled_first in played.players


def _greedy():
    return playkit.package(SLUG).agents["greedy"](playkit.game(SLUG))


def _mon(owner, s, d, a, hp=4, traits=(), tapped=False):
    return (owner, s, d, a, hp, frozenset(traits), tapped)


def test_greedy_counts_a_tie_as_the_half_damage_it_deals():
    """Issue 30: a tie deals half the Atk (BW-ATK-7), so it is part of an attack's odds. Str 2
    against Def 3 (d20 − 1 against d20) hits 42.75 % and ties 4.75 % of the time: with a tie's
    half of Atk 4 the attack lets 45.1 % of its Atk through — at least ``attack_odds`` (0.45)."""
    g = _greedy()
    obs = {"me": "ana", "hp": {"ana": 20, "ben": 20},
           "monsters": {"Rex": _mon("ana", 2, 0, 4), "Pal": _mon("ana", 0, 0, 0), "Wall": _mon("ben", 0, 3, 0)}}
    attack = Action.make("attack", player="ana", monster="Rex", target="ben")
    assert g.best_attack(obs, [attack]) == attack
    obs["monsters"]["Wall"] = _mon("ben", 0, 4, 0)       # the twin: Str 2 against Def 4 is too long a shot
    assert g.best_attack(obs, [attack]) is None


def test_greedy_does_not_count_a_tie_as_a_block_that_holds():
    """Str 3 against Def 3: the block holds only when the blocker rolls higher (47.5 %); a tie
    deals damage. Below ``block_odds`` (0.5), so no block; against Def 4 it holds 52.5 %: block."""
    g = _greedy()
    legal = [Action.make("block", player="ben", monster="Wall"), Action.make("block", player="ben", monster="none")]
    obs = {"me": "ben", "hp": {"ana": 20, "ben": 20}, "combat": ("Rex", "ben", "block", None),
           "monsters": {"Rex": _mon("ana", 3, 0, 4), "Wall": _mon("ben", 0, 3, 0)}}
    assert g.block(obs, legal)["monster"] == "none"
    obs["monsters"]["Wall"] = _mon("ben", 0, 4, 0)
    assert g.block(obs, legal)["monster"] == "Wall"


def test_a_monster_copy_has_every_slot_and_shares_only_what_never_changes():
    """``Monster.copy`` names its slots one by one (for speed): a slot added and not copied fails here.
    Its parts are shared (a change of parts makes a new list): a part added to the copy leaves the
    original as it was."""
    state = playkit.random_game(SLUG, 5)
    mons = [*state.monsters.values(), *state.graveyard.values()]
    assert mons
    for m in mons:
        twin, parts, hp = m.copy(), list(m.parts), m.hp
        assert all(getattr(twin, k) == getattr(m, k) for k in type(m).__slots__)
        twin.set_parts([*twin.parts, parts[0]])
        assert (m.parts, m.hp) == (parts, hp) and twin.hp == hp + parts[0].hp


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_determinization_played_on_leaves_the_state_as_it_was(seed):
    """A determinization shares the hands it deals anew and the unseen counts until it has dealt
    them, and the setup's records once play has begun: each, played to its end elsewhere, leaves the
    true state's log, hands and unseen counts as they were."""
    det, state = playkit.package(SLUG).determinize, playkit.new_state(SLUG, seed)
    rng, other, steps = random.Random(seed), random.Random(seed + 100), 0

    def seen() -> tuple:
        hands = {p: (dict(h.known), h.hidden) for p, h in state.hands.items()}
        return as_jsonl(state), hands, dict(state.unseen)
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            action = state.sample_chance(rng.random())
        else:
            if steps % 5 == 0:
                before = seen()
                play(det(state, who, other), random_agent, other)
                assert seen() == before
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
        steps += 1


def test_a_part_added_gives_what_its_parts_give():
    """``Monster.add`` (the sums kept) gives the stats, Traits and types ``set_parts`` gives the parts."""
    state = playkit.random_game(SLUG, 5)
    for m in [*state.monsters.values(), *state.graveyard.values()]:
        for part in state.parts.values():
            added, whole = m.copy(), m.copy()
            added.add(part)
            whole.set_parts([*m.parts, part])
            slots = type(m).__slots__
            assert [getattr(added, k) for k in slots] == [getattr(whole, k) for k in slots]


def test_greedy_weighs_each_kind_of_guard_once():
    """The guards are kept as their (Def, Traits): a second guard like the first changes no odds,
    a stronger one does (the attack's odds are against its best blocker)."""
    g = _greedy()
    attack = Action.make("attack", player="ana", monster="Rex", target="ben")
    mons = {"Rex": _mon("ana", 2, 0, 4), "Pal": _mon("ana", 0, 0, 0), "Wall": _mon("ben", 0, 3, 0)}
    obs = {"me": "ana", "hp": {"ana": 20, "ben": 20}, "monsters": mons}
    assert g.best_attack(obs, [attack]) == attack
    mons["Wall2"] = _mon("ben", 0, 3, 0)
    assert g.best_attack(obs, [attack]) == attack
    mons["Wall3"] = _mon("ben", 0, 4, 0)
    assert g.best_attack(obs, [attack]) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_clone_played_on_leaves_its_original_as_it_was(seed):
    """``clone`` copies what changes (hands, the unseen counts, monsters, the attack) and shares
    only what never does: clones taken along a game and each played to its end elsewhere leave
    the original to play on the very game a state never cloned plays, to the same log."""
    plain, cloned = playkit.new_state(SLUG, seed), playkit.new_state(SLUG, seed)
    rng, other = random.Random(seed), random.Random(seed + 100)
    steps = 0
    while not plain.is_terminal():
        if steps % 7 == 0:
            before = as_jsonl(cloned)
            play(cloned.clone(), random_agent, other)
            assert as_jsonl(cloned) == before
            assert (cloned.hands, cloned.unseen, cloned.hp) == (plain.hands, plain.unseen, plain.hp)
        who = plain.current_player()
        if who == CHANCE:
            action = plain.sample_chance(rng.random())
        else:
            legal = plain.legal_actions()
            assert cloned.legal_actions() == legal
            action = legal[rng.randrange(len(legal))]
        plain.apply_action(action)
        cloned.apply_action(action)
        steps += 1
    assert cloned.is_terminal() and cloned.result() == plain.result()
    assert as_jsonl(cloned) == as_jsonl(plain)


def test_the_search_value_is_the_results_hp_share():
    """``evaluate`` reads the HP and the players out from the table, not ``result()``: the same shares
    as the result's players give, at every tenth step of random games (eliminations included)."""
    game = playkit.game(SLUG)
    value, start = evaluate(game), game.params["starting_hp"]
    sharp = game.params["simulate"]["search"]["sharpness"]
    for seed in range(6):
        state, rng, steps = playkit.new_state(SLUG, seed), random.Random(seed), 0
        while not state.is_terminal():
            if steps % 10 == 0 or state.out:
                players = state.result()["players"]
                kept = [0.0 if players[p]["eliminated"] else players[p]["hp"] / start for p in state.players]
                assert value(state) == shares(kept, sharp)
            action = state.sample_chance(rng.random()) if state.current_player() == CHANCE else \
                rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1

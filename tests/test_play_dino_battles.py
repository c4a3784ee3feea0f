"""Biomechanic Dino Battles on the game-state API: the self-consistency proof (tests/playkit.py) —
random games end, replay through the checker with the same result, and one mutated event is
reported at its line — and completeness: every choice in the legal example logs is among the
state's legal choices at its point."""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from cardgen.builder.check import _check_shape
from cardgen.content.playlog import read
from cardgen.games.dino_battles import PACKAGE
from cardgen.games.dino_battles import choices as ch
from cardgen.games.dino_battles.slips import Slips
from cardgen.games.dino_battles.state import DinoState
from cardgen.play.api import Action
from cardgen.play.playout import as_jsonl, play, random_agent
from tests import playkit
from tests.conftest import ROOT

SLUG = "dino_battles"
N = playkit.GAMES


def test_api_sound():
    playkit.assert_api_sound(SLUG, n=N)


def test_random_games_replay_with_the_same_result(tmp_path):
    playkit.assert_random_games_replay(SLUG, tmp_path, n=N)


def test_setups_are_every_pairing_and_seat_order():
    setups = PACKAGE.setups(playkit.game(SLUG), random.Random(0))
    pairs = {tuple(p["deck"] for p in s["players"]) for s in setups}
    assert pairs == {("iron_herd", "iron_herd"), ("iron_herd", "steel_jaws"), ("steel_jaws", "iron_herd"),
                     ("steel_jaws", "steel_jaws")}


def test_observation_hides_the_other_hand():
    state = playkit.random_game(SLUG, 3)
    for p in range(2):
        obs = state.observation(p)
        assert obs["hand"] == dict(state.hands[p])
        assert all("hand" not in side or isinstance(side["hand"], int) for side in obs["sides"])


def _through_clones(seed: int, every: bool) -> tuple[Any, list[tuple[Any, int, dict[str, Any]]]]:
    """A seeded random game; with ``every``, each step is played on a clone of the state before it."""
    state, rng, left = playkit.new_state(SLUG, seed), random.Random(seed), []
    while not state.is_terminal():
        if every:
            left.append((state, len(state.history), state.result()))
            state = state.clone()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(random.Random(rng.random()).choices([a for a, _ in outcomes],
                                                                   [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state, left


@pytest.mark.parametrize("seed", range(3))
def test_a_game_played_on_clones_is_the_same_game(seed):
    """Issue 29: a clone copies the table (sides, Dinosaurs, the exchange under way) and shares the
    card data: a game whose every step is played on a fresh clone is the same game, and no state
    it left behind moved."""
    plain, _ = _through_clones(seed, every=False)
    cloned, left = _through_clones(seed, every=True)
    assert cloned.log_events() == plain.log_events() and cloned.result() == plain.result()
    for old, n, result in left[::23]:
        assert len(old.history) == n and old.result() == result
    mid = left[len(left) // 2][0]
    copy = mid.clone()
    for a, b in zip(mid.sides, copy.sides):
        assert a is not b and a.cards is not b.cards and a.combat_deck is not b.combat_deck
        for d, e in zip(a.in_play, b.in_play):
            assert d is not e and d.card is e.card          # the card's data is shared, never copied


# -- mutations: each one event changed, reported at its line -----------------------------------

def _actives(events: list[dict[str, Any]], upto: int) -> dict[str, str]:
    """Each player's active Dinosaur label before event ``upto``, as the referee replays them."""
    players = sorted({e["player"] for e in events if e.get("player")})
    header = {"game": SLUG, "players": [{"name": n, "deck": _DECK_OF[n]} for n in players]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "prefix.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in [header, *events[:upto]]) + "\n", encoding="utf-8")
        log = read(path)
    eng = _table(log)
    for ev in log.events:
        eng.before(ev)
        eng.apply(ev)
    return {s.name: s.active.label for s in eng.sides if s.active is not None}


_DECK_OF: dict[str, str] = {}


def _table(log: Any) -> DinoState:
    """The state a log is replayed on (as ``cardgen check`` does: every event played as recorded)."""
    _check_shape(PACKAGE.engine, log, SLUG)
    st = DinoState(playkit.game(SLUG), log.header, log.header_locs, Slips(replaying=True))
    st.start()
    st.deal_in([{"name": x.name, "deck": x.deck_name} for x in st.sides], replaying=True)
    return st


def _retreat_to_the_active(events, rng):
    """Illegal target: a switch to the Dinosaur that is already active (BDB-MAIN-1)."""
    idx = [i for i, e in enumerate(events) if e["kind"] == "retreat"]
    free = [i for i in idx if not events[i].get("discard")]
    if not idx:
        return None
    i = rng.choice(free or idx)
    act = _actives(events, i).get(events[i]["player"])
    if act is None:
        return None
    events[i]["to"] = act
    return i


def _impossible_die(events, rng):
    idx = [i for i, e in enumerate(events) if "roll" in e and e["kind"] != "initiative_roll"]
    if not idx:
        return None
    i = rng.choice(idx)
    events[i]["roll"] = 7 + rng.randrange(3)
    return i


def _out_of_turn(events, rng):
    idx = [i for i, e in enumerate(events) if e["kind"] == "first_move"]
    if not idx:
        return None
    i = rng.choice(idx)
    players = sorted({e["player"] for e in events if "player" in e})
    events[i]["player"] = next(p for p in players if p != events[i]["player"])
    return i


def _wrong_hp(events, rng):
    idx = [i for i, e in enumerate(events) if e.get("hp") and e["kind"] != "phase"]
    if not idx:
        return None
    i = rng.choice(idx)
    who = rng.choice(sorted(events[i]["hp"]))
    events[i]["hp"][who] += rng.choice([-3, -1, 1, 2])
    return i


@pytest.mark.parametrize("mutate", [_retreat_to_the_active, _impossible_die, _out_of_turn, _wrong_hp])
def test_one_mutated_event_is_reported_at_its_line(tmp_path, mutate, monkeypatch):
    # the mutations see only the events: the decks come from the seed's setup
    real = playkit.random_game

    def remember(slug: str, seed: int):
        state = real(slug, seed)
        _DECK_OF.clear()
        _DECK_OF.update({p["name"]: p["deck"] for p in state.log_header()["players"]})
        return state

    monkeypatch.setattr(playkit.testing, "random_game", remember)     # what assert_mutation_caught calls
    done = playkit.assert_mutation_caught(SLUG, tmp_path, mutate, n=N)
    assert done >= N // 3, f"only {done} games had an event to mutate"


# -- completeness: the example logs' choices are legal choices ------------------------------------

LEGAL_LOGS = sorted(p for p in (ROOT / "examples" / "logs" / SLUG).iterdir() if p.stem != "table-slips")


def _norm(eng: DinoState, e: dict[str, Any]) -> dict[str, Any]:
    """An event's choice fields, with Dinosaurs by their engine label."""
    s = eng._side(e["player"], None, "player") if e.get("player") else None
    out = {k: v for k, v in e.items() if k in ("player", "dino", "card", "to", "special", "active", "bench")}
    for k in ("dino", "to"):
        if k in out and s is not None and e["kind"] in ("upgrade", "retreat", "knock_out"):
            out[k] = eng._dino(s, out[k], None, k, None).label
    if "bench" in out:
        out["bench"] = sorted(out["bench"])
    return out


def _choices_for(eng: DinoState, e: dict[str, Any]) -> list[Action] | None:
    """The state's legal choices of the kind ``e`` is (None: a marker, a draw, a card's effect)."""
    kind = e["kind"]
    s = eng._side(e["player"], None, "player") if e.get("player") else None
    if s is None:
        return None
    hand = ch.possible_hand(eng, s)
    if kind == "place":
        return ch.placements(eng, s, hand)
    if kind in ("bench", "upgrade", "item", "combat_to_deck", "retreat", "action", "use_item"):
        if kind in ("action", "use_item") and eng.phase not in ("precombat_main", "postcombat_main"):
            return None                    # an Action or Item answering a move: its text is not modelled
        if kind == "use_item" and eng.sides[s.index].items_unknown:
            return None
        return ch.main_plays(eng, s, hand, set())
    if kind in ("attack", "pass") and eng.cmb is not None and eng.cmb.attack is None:
        return ch.moves(eng, s)
    if kind in ("counterattack", "evade", "defend", "no_answer") or (kind == "pass" and eng.cmb is not None):
        return ch.answers(eng, s)
    if kind == "knock_out":
        d = eng._dino(s, e["dino"], None, "dino", None)
        return ch.comp_choices(eng, s, d)
    return None


def _member(eng: DinoState, e: dict[str, Any], legal: list[Action]) -> bool:
    want = _norm(eng, e)
    kind = {"pass": "no_answer"}.get(e["kind"], e["kind"]) if eng.cmb is not None and eng.cmb.attack else e["kind"]
    for a in legal:
        if a.kind != kind:
            continue
        got = {k: (sorted(v) if k == "bench" else v) for k, v in a.as_event().items() if k in want or k == "cards"}
        if kind == "combat_to_deck":
            return all(Action.make(kind, player=want["player"], cards=[c]) in legal for c in e["cards"])
        if kind == "knock_out":
            got.pop("comp_cards", None)
        if kind == "retreat":
            got.pop("discard", None)
        if kind == "item" and "card" not in want:
            got.pop("card", None)
        got.pop("cards", None)
        if got == want:
            return True
    return False


@pytest.mark.parametrize("path", LEGAL_LOGS, ids=lambda p: p.name)
def test_every_choice_of_the_legal_examples_is_a_legal_action(path):
    log = read(path)
    eng = _table(log)
    checked = 0
    for ev in log.events:
        e = {"kind": ev.kind, **{k: v for k, v in ev.fields.items() if v is not None}}
        legal = _choices_for(eng, e)
        if legal is not None:
            assert _member(eng, e, legal), f"{path.name}:{ev.loc.line}: {e} is not among {[str(a) for a in legal]}"
            checked += 1
        if ev.kind in ("attack", "counterattack", "evade", "defend") and ev["roll"] is not None:
            assert 1 <= ev["roll"] <= eng.die_sides
        eng.before(ev)
        eng.apply(ev)
    assert checked >= 5


def test_games_per_second_is_reported(capsys):
    t = time.perf_counter()
    n = 10
    for seed in range(n):
        played = play(playkit.new_state(SLUG, seed), random_agent, random.Random(seed), playkit.MAX_STEPS)
        assert played.finished
    rate = n / (time.perf_counter() - t)
    print(f"dino_battles random play: {rate:.0f} games/s")
    assert rate > 1


# -- the greedy agent and the game's measures (for cardgen simulate) --------------------------------

def test_greedy_games_replay_and_beat_random(tmp_path):
    greedy = PACKAGE.agents["greedy"](playkit.game(SLUG))
    wins = 0
    n = 20
    for seed in range(n):
        agents = [greedy, random_agent] if seed % 2 == 0 else [random_agent, greedy]
        played = play(playkit.new_state(SLUG, seed), agents, random.Random(seed), playkit.MAX_STEPS)
        assert played.finished, f"seed {seed}"
        state = played.state
        wins += state.returns()[seed % 2] == 1.0
        if seed < 5:
            problems, final = playkit.replay_text(SLUG, as_jsonl(state), tmp_path)
            assert not problems.has_errors, [p.text() for p in problems.errors]
            assert final == state.result()
    assert wins >= n * 0.65, f"greedy won {wins} of {n} against random"


def test_measures_count_kos_by_species():
    state = playkit.random_game(SLUG, 1)
    m = PACKAGE.measures(state)
    assert set(m) == {"kos_by_species", "kos", "turns", "ended_by"}
    assert sum(m["kos_by_species"].values()) == sum(len(p["knocked_out"]) for p in state.result()["players"].values())
    assert m["ended_by"] in ("kos", "deck_out", "no_dinosaurs")

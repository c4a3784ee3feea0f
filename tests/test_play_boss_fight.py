"""Boss Fight on the game-state API: the self-consistency proof (tests/playkit.py) and the
completeness of the legal actions against the example logs."""

from __future__ import annotations

import random
from typing import Any

from tests import playkit

SLUG = "boss_fight"
N = max(1, playkit.GAMES // 3)          # a Boss Fight game is long: a third of the default


def test_api_sound():
    playkit.assert_api_sound(SLUG, n=N)


def test_random_games_replay(tmp_path):
    playkit.assert_random_games_replay(SLUG, tmp_path, n=N)


def _pick(events: list[dict[str, Any]], rng: random.Random, kind: str, need: str) -> int | None:
    hits = [i for i, e in enumerate(events) if e["kind"] == kind and e.get(need) is not None]
    return rng.choice(hits) if hits else None


def test_an_illegal_target_is_caught(tmp_path):
    def mutate(events, rng):
        i = _pick(events, rng, "attack", "target")
        if i is None:
            return None
        e = events[i]
        e["target"] = e["character"] if e["character"] != "boss" else next(
            x["character"] for x in events if x["kind"] == "place" and x["character"] != "boss")
        return i
    assert playkit.assert_mutation_caught(SLUG, tmp_path, mutate, n=N) > 0


def test_an_impossible_die_face_is_caught(tmp_path):
    def mutate(events, rng):
        i = _pick(events, rng, "attack", "defence")
        if i is None:
            return None
        events[i]["defence"] = 7
        return i
    assert playkit.assert_mutation_caught(SLUG, tmp_path, mutate, n=N) > 0


def test_an_out_of_turn_actor_is_caught(tmp_path):
    def mutate(events, rng):
        turns = [i for i, e in enumerate(events) if e["kind"] in ("move", "attack", "discard", "item")
                 and i > 0 and events[i - 1]["kind"] == "end_turn"]
        if not turns:
            return None
        i = rng.choice(turns)
        acted = {e["character"] for e in events[:i] if e["kind"] == "end_turn"}
        # the character that just ended its turn acts again in the same round
        events[i] = {**events[i - 1], "kind": "discard", "card": events[i].get("card")}
        events[i]["character"] = events[i - 1]["character"]
        assert acted
        return i
    assert playkit.assert_mutation_caught(SLUG, tmp_path, mutate, n=N) > 0


def test_a_wrong_stated_damage_is_caught(tmp_path):
    def mutate(events, rng):
        i = _pick(events, rng, "attack", "damage")
        if i is None:
            return None
        events[i]["damage"] += 1
        return i
    assert playkit.assert_mutation_caught(SLUG, tmp_path, mutate, n=N) > 0

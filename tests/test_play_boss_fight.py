"""Boss Fight on the game-state API: the self-consistency proof (tests/playkit.py) and the
completeness of the legal actions against the example logs."""

from __future__ import annotations

import os
import random
from typing import Any

from cardgen.builder import check as checker
from cardgen.content.playlog import read
from cardgen.games.boss_fight import Engine
from cardgen.games.boss_fight.legal import player_actions, turn_actions
from cardgen.games.boss_fight.slips import Slips
from cardgen.games.boss_fight.table import Table
from cardgen.play.api import CHANCE, Action
from cardgen.play.dice import pick
from cardgen.play.playout import as_jsonl, play
from tests import playkit
from tests.conftest import ROOT

SLUG = "boss_fight"
EXAMPLES = ROOT / "examples" / "logs" / SLUG
# A Boss Fight game is long (~750 random actions): 10 games per property in the suite, or
# CARDGEN_PLAY_GAMES when it is set.
N = playkit.GAMES if os.environ.get("CARDGEN_PLAY_GAMES") else 10


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
        e["target"] = e["character"]            # never an enemy (a hero placed first may be the target already)
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


def test_greedy_games_end_and_replay(tmp_path):
    pkg = playkit.package(SLUG)
    greedy = pkg.agents["greedy"](playkit.game(SLUG))
    finished = 0
    for seed in range(max(2, N // 2)):
        state = playkit.new_state(SLUG, seed)
        played = play(state, greedy, random.Random(seed), playkit.MAX_STEPS)
        assert played.finished
        finished += state.result()["winner"] is not None
        problems, final = playkit.replay_text(SLUG, as_jsonl(state), tmp_path)
        assert not [p.text() for p in problems.items if p.severity == "error"]
        m = pkg.measures(state)
        assert m["rounds"] == final["round"] and sum(m["damage_by_side"].values()) == sum(m["damage_by_source"].values())
    assert finished > 0, "greedy play never decides a game"


# --- completeness: every decision of a legal example log is among the legal actions -------------------

_CARD_TEXT = ("source", "range_bonus", "crosses", "swap", "anchor")   # card text the log records, not a decision


def _decision(e, ev) -> Action | None:
    """The state's action for a recorded event (None: not a decision the state makes — card text,
    claims, draws by count)."""
    f = ev.fields
    if any(f.get(k) is not None for k in _CARD_TEXT) or (ev.kind == "move" and f.get("bonus")):
        return None
    who = f.get("character")
    if ev.kind == "place":
        return Action.make("place", character=who, at=list(f["at"]),
                           rotate=(f.get("rotate") or 0) if who == "boss" else None)
    if ev.kind == "move" and f.get("card"):
        end = f["to"] if f.get("to") is not None else f["path"][-1]
        rot = (f["rotate"] if f.get("rotate") is not None else e.boss().rot) % 6 if who == "boss" else None
        return Action.make("move", character=who, card=f["card"], to=list(end), rotate=rot)
    if ev.kind == "attack" and f.get("card") and f.get("target") and f.get("with"):
        return Action.make("attack", character=who, card=f["card"], target=f["target"], **{"with": f["with"]})
    if ev.kind in ("item", "discard") and f.get("card") not in (None, "?"):
        return Action.make(ev.kind, character=who, card=f["card"])
    return None


def test_every_decision_of_the_example_logs_is_a_legal_action():
    g = playkit.game(SLUG)
    checked = 0
    for path in sorted(EXAMPLES.glob("*")):
        if path.stem == "table-slips":
            continue
        log = read(path)
        checker._check_shape(Engine, log, SLUG)
        slips = Slips(True)
        e = Table(g, log.header, log.header_locs, slips)
        e.start()
        for ev in log.events:
            want = _decision(e, ev)
            if want is not None:
                f = e._fighter(ev["character"], None, "character")
                legal = player_actions(e, f) if ev.kind == "place" else turn_actions(e, f)
                assert want in legal, f"{path.name}:{ev.loc.line}: {want} is not among {len(legal)} legal actions"
                checked += 1
            e.before(ev)
            e.apply(ev)
        assert not slips.take(), path
    assert checked > 50, checked


def test_a_clone_shares_nothing_the_game_changes():
    """A clone (a search agent's hot path: flat copies, cards, map and builds shared) played to
    its end leaves the original as it was, and the original then plays on to the very game it
    was (same log, same result)."""
    for seed in range(3):
        whole = playkit.random_game(SLUG, seed)
        cut = len(whole.history) // 2
        state = playkit.new_state(SLUG, seed)
        for a in whole.history[:cut]:
            state.apply_action(a)
        before = [state.observation(p) for p in range(len(state.players))], state.log_events(), state.result()
        twin = state.clone()
        play(twin, playkit.random_agent, random.Random(seed + 100))
        assert twin.is_terminal()
        assert ([state.observation(p) for p in range(len(state.players))], state.log_events(),
                state.result()) == before
        for a in whole.history[cut:]:
            state.apply_action(a)
        assert state.log_events() == whole.log_events() and state.result() == whole.result()


#: what a clone's table shares with its original: the game and the rules read once, never changed
SHARED = {"params", "header", "header_locs", "draws", "actions", "status_names", "draw_status",
          "action_status", "short_statuses", "no_move", "poison_cure", "legs_table", "formula",
          "attack_names", "combat_stats", "stat_names", "stat_short", "cards", "plays", "sight_memo"}


def test_a_clone_copies_every_container_the_game_changes():
    """A container the table gains must be copied by a clone or be named here (never changed)."""
    whole = playkit.random_game(SLUG, 1)
    state = playkit.new_state(SLUG, 1)
    for a in whole.history[: len(whole.history) // 2]:
        state.apply_action(a)
    old, new = state.eng.__dict__, state.clone().eng.__dict__
    same = {k for k, v in new.items() if isinstance(v, (list, dict, set)) and v is old[k]}
    assert same == SHARED
    for k, f in state.eng.fighters.items():
        twin = vars(new["fighters"][k])
        kept = {n for n, v in twin.items() if isinstance(v, (list, dict, set)) and v is vars(f)[n]}
        assert kept <= {"stats", "equipment", "abilities", "pieces", "total", "cells"}, (k, kept)


def _all_placed(setup: dict[str, Any], seed: int) -> Any:
    """A state of ``setup`` played at random until every piece is on the map."""
    state = playkit.package("boss_fight").new_state(playkit.game("boss_fight"), setup)
    rng = random.Random(seed)
    while any(f.origin is None for f in state.eng.fighters.values()):
        if state.current_player() == CHANCE:
            state.apply_action(pick(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_two_bosses_at_one_anchor_reach_their_own_hexes():
    """Every setup on one map shares the memo of where a Move may end: a boss of another shape at
    the same anchor and facing gets its own answer, the one its rules give (a memo keyed by the
    pieces' places alone once offered a boss a move ending on an obstacle)."""
    game = playkit.game("boss_fight")
    by_map: dict[str, dict[str, Any]] = {}
    for s in playkit.package("boss_fight").setups(game, random.Random(0)):
        by_map.setdefault(str(s.get("map")), {}).setdefault(str(s.get("boss")), s)
    setups = next(list(b.values()) for b in by_map.values() if len(b) >= 3)[:3]
    checked = 0
    for a in setups:
        for b in setups:
            if a is b:
                continue
            sa, sb = _all_placed(a, 1), _all_placed(b, 1)
            fa, fb = sa.eng.fighters["boss"], sb.eng.fighters["boss"]
            fb.origin, fb.rot, fb.anchor = fa.origin, fa.rot, fa.anchor
            sa.eng.move_ends("boss", 3)
            assert sb.eng.move_ends("boss", 3) == tuple(sorted(sb.eng.legal_moves("boss", 3))), (a, b)
            checked += 1
    assert checked == 6


def test_move_ends_are_the_legal_moves():
    """The fast Move ends (the bare terrain's reach, less the pieces, when no enemy is in the
    way) are the rules' own breadth-first ends at every decision of seeded random games, both
    where an enemy stands in the way and where none does."""
    fast = slow = 0
    for seed in range(3):
        whole = playkit.random_game(SLUG, seed)
        state = playkit.new_state(SLUG, seed)
        for a in whole.history:
            if state.current_player() != CHANCE and state.eng.phase != "place":
                e = state.eng
                for f in e.fighters.values():
                    if f.alive and f.origin is not None:
                        for tiles in (1, 2, 4):
                            ends = tuple(sorted(e.legal_moves(f.key, tiles)))
                            assert e.move_ends(f.key, tiles) == ends, (seed, f.key)
                            near = min((e._dist(f, g) or 99 for g in e.enemies_of(f) if g.alive), default=99)
                            fast, slow = (fast + 1, slow) if near > tiles + 1 else (fast, slow + 1)
            state.apply_action(a)
    assert fast > 50 and slow > 50, (fast, slow)

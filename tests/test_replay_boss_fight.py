"""The shared replay (cardgen.play.replay.StateReferee) over Boss Fight's one model: the legal
example logs and random games replay with no rejection; one mutated event is rejected at that
event with the rule `cardgen check` names for it; ``why_not`` names the rules of an action played
on a clone and leaves the state as it was; --strict stops at the first broken rule (issue 29)."""

from __future__ import annotations

import copy
import json
import random

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.games.boss_fight import PACKAGE
from cardgen.games.boss_fight.contract import BossRules
from cardgen.play.api import Action
from cardgen.play.replay import StateReferee
from tests import playkit

GAME = "boss_fight"
SEEDS = range(3)
LOGS = playkit.ROOT / "examples" / "logs" / GAME


def _rules() -> BossRules:
    return BossRules(playkit.game(GAME))


@pytest.mark.parametrize("name", ["boss-wins-arena.yaml", "heroes-win-pillars.yaml",
                                  "heroes-win-pillars.jsonl"])
def test_legal_example_logs_replay_with_no_rejection(name):
    ref, log = playkit.log_referee(_rules(), LOGS / name, PACKAGE.engine, GAME)
    assert ref.replay(playkit.events_of(log)) == []
    assert ref.state.result()["winner"] is not None


def test_the_table_slips_example_is_rejected_where_its_slips_are():
    ref, log = playkit.log_referee(_rules(), LOGS / "table-slips.yaml", PACKAGE.engine, GAME)
    found = ref.replay(playkit.events_of(log))
    assert found and all(r.rule.startswith("BF-") and r.at is not None for r in found)


def test_random_games_replay_with_no_rejection():
    playkit.assert_random_games_replay_clean(GAME, SEEDS, _rules)


def _wrong_damage(events: list[dict], rng: random.Random) -> int | None:
    hits = [i for i, e in enumerate(events) if e["kind"] == "attack" and e.get("damage") is not None]
    if not hits:
        return None
    i = rng.choice(hits)
    events[i]["damage"] += 1
    return i


def _impossible_die(events: list[dict], rng: random.Random) -> int | None:
    hits = [i for i, e in enumerate(events) if e["kind"] == "attack" and e.get("defence") is not None]
    if not hits:
        return None
    i = rng.choice(hits)
    events[i]["defence"] = 7
    return i


def _self_target(events: list[dict], rng: random.Random) -> int | None:
    hits = [i for i, e in enumerate(events) if e["kind"] == "attack" and e.get("target") is not None]
    if not hits:
        return None
    i = rng.choice(hits)
    events[i]["target"] = events[i]["character"]
    return i


@pytest.mark.parametrize("mutate,rules", [(_wrong_damage, {"BF-CMB-2"}), (_impossible_die, {"BF-CMB-1"}),
                                          (_self_target, {"BF-CMB-2"})])
def test_one_mutated_event_is_rejected_there_with_its_rule(mutate, rules):
    """An attack on its own maker is named by what it states (its damage and the Health left
    follow the attacker's own defence, not the rules': BF-CMB-2), as ``cardgen check`` names it."""
    done = 0
    for seed, state, events, i in playkit.mutated_games(GAME, SEEDS, mutate):
        ref = StateReferee(_rules(), state.log_header())
        for k, ev in enumerate(events[: i + 1]):
            ref.event(k, ev)
        assert ref.rejections and ref.rejections[0].step == i, (seed, events[i], ref.rejections)
        assert ref.rejections[0].rule in rules, (seed, events[i], ref.rejections[0].text())
        done += 1
    assert done > 0


def test_why_not_leaves_the_state_as_it_was():
    """``why_not`` plays the action on a clone: it names the rule and changes nothing."""
    rules = _rules()
    ref, events, at = playkit.referee_before(rules, GAME, 1, "discard")
    before = copy.deepcopy(ref.state.result())
    f = ref.state.eng.fighters[events[at]["character"]]
    absent = next(cid for cid in sorted(f.total) if not f.hand.known[cid])
    assert not f.hand.unknown
    bad = Action.make("discard", character=f.key, card=absent)
    named = rules.why_not(ref.state, bad)
    assert isinstance(named, list) and named and named[0].rule == "BF-ACT-2"
    assert ref.state.result() == before


@pytest.mark.parametrize("strict", [False, True])
def test_strict_stops_at_the_first_broken_rule(strict):
    """table-slips.yaml breaks several rules: --strict reports the first only, exit 1 either way."""
    args = ["check", GAME, str(LOGS / "table-slips.yaml"), "--format", "json"]
    args += ["--strict"] if strict else []
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 1, out.output
    problems = [p for p in json.loads(out.output)["problems"] if p["severity"] == "error"]
    assert (len(problems) == 1) if strict else (len(problems) > 1)

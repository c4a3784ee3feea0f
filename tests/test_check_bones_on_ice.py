"""The Bones on Ice playtest checker: every rule in scope broken at its line, with its legal
twin; complete games to the end (regulation and shootout); Team Spirits and Chaos entries;
unreadable logs; replay properties (YAML → JSON Lines, fuzzing, legal_next)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.builder import check as checker
from cardgen.content.loader import load_game
from cardgen.content.playlog import read
from cardgen.games.bones_on_ice import BoiRules, Engine
from cardgen.play.replay import StateReferee
from tests import checklogs, playkit
from tests.checklogs import errors, line_of, to_jsonl, write
from tests.conftest import ROOT

GAME = "bones_on_ice"
EXAMPLES = ROOT / "examples" / "logs" / GAME

# -- base logs (every number worked out in the comments) -------------------------------------
# Femurs: Sully A R d8 M d12, Frank D R d8 M d6, Tess D R d6 M d8, Rattlebones G R d12;
#         Cold Snap (3): one opposing skater rolls a d4.
# Titans: Bruno A R d6 M d10, Sam D R d10 M d6, Pat D R d12 M d4, Keeper G R d12;
#         Grave Wall (2): the Defense Bonus in every zone for the opponent's Mid-Game.
# The Femurs defend the left end: their Attack Zone is the Titans' Defensive Zone.

HEAD = """\
game: bones_on_ice
rules_version: "7.8"
teams:
  - {team: femurs}
  - {team: titans}
events:
"""

BASE = HEAD + """\
  # round 1: the Femurs lose the puck on a tied Interception (the interceptor defends)
  - {kind: round_start, round: 1}
  - {kind: faceoff, skaters: [sully, sam], rolls: [6, 4], winner: femurs}
  - {kind: tactical_move, skater: frank, zone: attack, stamina: {femurs: 19}}
  - {kind: pass, skater: sully, to: tess, stamina: {femurs: 18}}
  - {kind: intercept, skater: pat, rolls: [5, 5], winner: titans, stamina: {titans: 19}}
  - {kind: recovery, stamina: {femurs: 20, titans: 20}, score: {femurs: 0, titans: 0}}
  # round 2: the Titans score; Rattlebones stands in his own zone: 6 + 2 = 8 < 9
  - {kind: round_start, round: 2}
  - {kind: faceoff, skaters: [sully, sam], rolls: [2, 7], winner: titans}
  - {kind: pass, skater: sam, to: bruno, stamina: {titans: 19}}
  - {kind: shoot, skater: bruno, defender: frank, rolls: [8, 5], winner: titans}
  - {kind: one_v_one, skater: bruno, rolls: [9, 6], goal: true, score: {femurs: 0, titans: 1}}
  - {kind: recovery, stamina: {femurs: 20, titans: 20}}
  # round 3: a tied Face-Off re-rolled; Grave Wall (Pat 4 + 2 = 6 < 7); 6 + 2 Boost = 8 vs
  # Keeper 6 + 2 = 8: a Save; the rebound tie goes to the Goalie
  - {kind: round_start, round: 3}
  - {kind: faceoff, skaters: [sully, pat], rolls: [7, 7]}
  - {kind: faceoff, skaters: [sully, pat], rolls: [8, 3], winner: femurs}
  - {kind: team_spirit, team: titans, stamina: {titans: 18}}
  - {kind: pass, skater: sully, to: tess, stamina: {femurs: 19}}
  - {kind: shoot, skater: tess, defender: pat, rolls: [7, 4], winner: femurs}
  - {kind: one_v_one, rolls: [6, 6], boosts: [femurs], goal: false, stamina: {femurs: 18}}
  - {kind: rebound, rolls: [3, 3], winner: titans}
  - {kind: recovery, stamina: {femurs: 20, titans: 20}, score: {femurs: 0, titans: 1}}
expect:
  winner: null
  score: {femurs: 0, titans: 1}
  stamina: {femurs: 20, titans: 20}
"""

# Cracklers: Knuckles A R d12 M d8, Cleo D R d10 M d4, Roxy D R d8 M d6, Jawbone G R d10;
#            Bone Rush (2): a skater that has acted takes one more action.
# Marauders: Dora A R d6 M d12, Stan D R d6 M d10, Vic D R d8 M d8, Kate G R d10;
#            Dead Eye (3): roll the Marksmanship die twice, keep the higher.
RUSH = """\
game: bones_on_ice
rules_version: "7.8"
teams:
  - {team: cracklers}
  - {team: marauders}
events:
  # round 1: Knuckles skates in, Bone Rush, and shoots from the Attack Zone: 6 + 2 = 8 > 7
  - {kind: round_start, round: 1}
  - {kind: faceoff, skaters: [knuckles, vic], rolls: [9, 2], winner: cracklers}
  - {kind: move, skater: knuckles, zone: attack, defender: vic, rolls: [8, 5], winner: cracklers}
  - {kind: team_spirit, team: cracklers, skater: knuckles, stamina: {cracklers: 18}}
  - {kind: shoot, skater: knuckles, defender: vic, rolls: [6, 7], winner: cracklers}
  - {kind: one_v_one, rolls: [7, 6], goal: true, score: {cracklers: 1, marauders: 0}}
  - {kind: recovery}
  # round 2: Dead Eye keeps the 10 (> Cleo's 9); Dora 11 vs Jawbone 9 + 2: a Save; Dora keeps
  # the rebound, so the Mid-Game goes on
  - {kind: round_start, round: 2}
  - {kind: faceoff, skaters: [knuckles, vic], rolls: [3, 5], winner: marauders}
  - {kind: pass, skater: vic, to: dora}
  - {kind: team_spirit, team: marauders, skater: dora}
  - {kind: shoot, skater: dora, defender: cleo, rolls: [[4, 10], 9], winner: marauders}
  - {kind: one_v_one, rolls: [11, 9], goal: false}
  - {kind: rebound, rolls: [5, 2], winner: marauders}
  - {kind: tactical_move, skater: stan, zone: attack, stamina: {marauders: 15}}
  - {kind: recovery, stamina: {cracklers: 20, marauders: 20}, score: {cracklers: 1, marauders: 0}}
"""

# Filler rounds for the long logs: f = the Femurs' shot is blocked, F = the Femurs score
# (Sully 12 vs Keeper 1 + 2), T = the Titans score (Pat 4 vs Rattlebones 1 + 2).
# Rounds 5, 10 and 15 roll Thin Ice (5), which changes nothing here.
ROUND = {
    "f": ["{kind: faceoff, skaters: [sully, pat], rolls: [6, 2]}",
          "{kind: shoot, skater: sully, defender: pat, rolls: [1, 5]}"],
    "F": ["{kind: faceoff, skaters: [sully, pat], rolls: [6, 2]}",
          "{kind: shoot, skater: sully, defender: pat, rolls: [12, 1]}",
          "{kind: one_v_one, rolls: [12, 1], goal: true}"],
    "T": ["{kind: faceoff, skaters: [sully, pat], rolls: [1, 8]}",
          "{kind: shoot, skater: pat, defender: sully, rolls: [4, 1]}",
          "{kind: one_v_one, rolls: [4, 1], goal: true}"],
}


def game(spec: str, tail: str = "", head: str = HEAD) -> str:
    lines = []
    for n, kind in enumerate(spec, start=1):
        lines += [f"  # round {n}", f"  - {{kind: round_start, round: {n}}}"]
        if n in (5, 10, 15):
            lines.append("  - {kind: chaos, die: 5}")
        lines += [f"  - {x}" for x in ROUND[kind]] + ["  - {kind: recovery}"]
    return head + "\n".join(lines) + "\n" + tail


# The Femurs win 1–0 in regulation.
FULL = game("F" + "f" * 14, "expect:\n  winner: femurs\n  score: {femurs: 1, titans: 0}\n")
# 1–1 after 15 rounds; the Femurs won the last Face-Off and shoot first: 2–1 after 3 rounds.
SHOOTOUT = game("FT" + "f" * 13, """\
  # shootout
  - {kind: shootout, skater: sully, rolls: [12, 1], goal: true}
  - {kind: shootout, skater: bruno, rolls: [10, 1], goal: true}
  - {kind: shootout, skater: sully, rolls: [1, 12], goal: false}
  - {kind: shootout, skater: bruno, rolls: [1, 12], goal: false}
  - {kind: shootout, skater: sully, rolls: [12, 1], goal: true, score: {femurs: 2, titans: 1}}
  - {kind: shootout, skater: bruno, rolls: [1, 12], goal: false}
expect:
  winner: femurs
  score: {femurs: 1, titans: 1}
  shootout: {femurs: 2, titans: 1}
""")
# Still tied after 3 shootout rounds: sudden death until one team leads after both have shot.
SUDDEN = game("FT" + "f" * 13, """\
  - {kind: shootout, skater: sully, rolls: [1, 12]}
  - {kind: shootout, skater: bruno, rolls: [1, 12]}
  - {kind: shootout, skater: sully, rolls: [1, 12]}
  - {kind: shootout, skater: bruno, rolls: [1, 12]}
  - {kind: shootout, skater: sully, rolls: [12, 1]}
  - {kind: shootout, skater: bruno, rolls: [10, 1]}
  # sudden death
  - {kind: shootout, skater: sully, rolls: [1, 12]}
  - {kind: shootout, skater: bruno, rolls: [10, 1], goal: true}
expect:
  winner: titans
  shootout: {femurs: 1, titans: 2}
""")
# Round 5 with the Chaos Table: the Titans lead 1–0, so Sully takes the penalty shot (no zone
# bonus: 10 > 4).
CHAOS = game("Tfff", """\
  # round 5
  - {kind: round_start, round: 5}
  - {kind: chaos, die: 1, entry: chaos_penalty_shot}
  - {kind: penalty_shot, skater: sully, rolls: [10, 4], goal: true, score: {femurs: 1, titans: 1}}
  - {kind: faceoff, skaters: [sully, pat], rolls: [6, 2]}
  - {kind: shoot, skater: sully, defender: pat, rolls: [1, 5]}
  - {kind: recovery}
""")

BASES = {"BASE": BASE, "RUSH": RUSH, "FULL": FULL, "SHOOTOUT": SHOOTOUT, "SUDDEN": SUDDEN, "CHAOS": CHAOS}

# (rule, base, old, new, line of the report: a text the bad log holds at that line)
CASES = [
    # Setup and resources
    ("BOI-SETUP-1", "BASE", "  - {team: titans}\n", "  - {team: titans}\n  - {team: marauders}\n", "{team: marauders}"),
    ("BOI-SETUP-1", "BASE", "{team: titans}", "{team: titans, skaters: [bruno, sam, pat, rattlebones]}",
     "{team: titans,"),
    ("BOI-CARD-2", "BASE", "{team: titans}", "{team: titans, skaters: [bruno, sam, pat, sully]}", "{team: titans,"),
    ("BOI-SETUP-2", "BASE", "{kind: tactical_move, skater: frank, zone: attack,",
     "{kind: tactical_move, skater: rattlebones, zone: neutral,", "rattlebones"),
    ("BOI-STAM-1", "BASE", "{team: femurs}", "{team: femurs, stamina: 25}", "{team: femurs"),
    ("BOI-STAM-1", "BASE", "zone: attack, stamina: {femurs: 19}}", "zone: attack, stamina: {femurs: 0}}",
     "{kind: pass, skater: sully, to: tess, stamina: {femurs: 18}}"),
    ("BOI-STAM-2", "BASE", "to: tess, stamina: {femurs: 18}}", "to: tess, stamina: {femurs: 19}}", "to: tess"),
    ("BOI-STAM-2", "BASE", "boosts: [femurs], goal: false", "boosts: [femurs, femurs], goal: false", "boosts"),
    # Rolls
    ("BOI-ROLL-1", "BASE", "rolls: [6, 4], winner: femurs", "rolls: [9, 4], winner: femurs", "[9, 4]"),
    ("BOI-ROLL-1", "RUSH", "rolls: [6, 7], winner: cracklers", "rolls: [[6, 8], 7], winner: cracklers", "[[6, 8]"),
    ("BOI-ROLL-2", "BASE", "rolls: [5, 5], winner: titans", "rolls: [5, 5], winner: femurs", "[5, 5]"),
    ("BOI-ROLL-2", "BASE", "  - {kind: faceoff, skaters: [sully, pat], rolls: [8, 3], winner: femurs}\n", "",
     "{kind: pass, skater: sully, to: tess, stamina: {femurs: 19}}"),
    ("BOI-ZONE-1", "RUSH", "rolls: [6, 7], winner: cracklers", "rolls: [6, 7], winner: marauders", "[6, 7]"),
    ("BOI-ZONE-2", "BASE", "rolls: [9, 6], goal: true", "rolls: [8, 6], goal: true", "[8, 6]"),
    # Round
    ("BOI-ROUND-1", "BASE", "round_start, round: 2}", "round_start, round: 3}", "round: 3"),
    ("BOI-ROUND-1", "BASE", "  - {kind: recovery, stamina: {femurs: 20, titans: 20}, score: {femurs: 0, titans: 0}}\n",
     "", "round: 2"),
    ("BOI-FO-1", "BASE", "skaters: [sully, sam], rolls: [6, 4]", "skaters: [rattlebones, sam], rolls: [6, 4]",
     "rattlebones"),
    ("BOI-FO-1", "BASE", "rolls: [2, 7], winner: titans", "rolls: [2, 7], winner: femurs", "[2, 7]"),
    ("BOI-MID-1", "BASE", "tactical_move, skater: frank, zone: attack, stamina: {femurs: 19}",
     "tactical_move, skater: bruno, zone: attack, stamina: {titans: 19}", "bruno"),
    ("BOI-MID-1", "BASE", "winner: titans, stamina: {titans: 19}}\n",
     "winner: titans, stamina: {titans: 19}}\n  - {kind: tactical_move, skater: tess, zone: attack}\n",
     "skater: tess, zone"),
    ("BOI-MID-2", "RUSH", "{kind: move, skater: knuckles, zone: attack,", "{kind: move, skater: knuckles, zone: neutral,",
     "zone: neutral"),
    ("BOI-MID-2", "RUSH", "{kind: move, skater: knuckles,", "{kind: move, skater: cleo,", "skater: cleo"),
    ("BOI-MID-3", "BASE", "rolls: [8, 5], winner: titans", "rolls: [4, 5], winner: femurs", "skater: bruno, rolls: [9"),
    ("BOI-MID-3", "BASE", "  - {kind: one_v_one, skater: bruno, rolls: [9, 6], goal: true, score: {femurs: 0, titans: 1}}\n",
     "", "{kind: recovery, stamina: {femurs: 20, titans: 20}}"),
    ("BOI-MID-4", "BASE", "{kind: pass, skater: sully, to: tess, stamina: {femurs: 18}}",
     "{kind: pass, skater: sully, to: sam, stamina: {femurs: 18}}", "to: sam"),
    ("BOI-MID-4", "RUSH", "{kind: shoot, skater: knuckles, defender: vic, rolls: [6, 7], winner: cracklers}",
     "{kind: pass, skater: knuckles, to: jawbone}", "to: jawbone"),
    ("BOI-MID-5", "BASE", "tactical_move, skater: frank, zone: attack", "tactical_move, skater: sully, zone: attack",
     "skater: sully, zone"),
    ("BOI-1V1-1", "BASE", "rolls: [9, 6], goal: true, score: {femurs: 0, titans: 1}",
     "rolls: [9, 6], goal: false, score: {femurs: 0, titans: 0}", "goal: false"),
    ("BOI-1V1-1", "BASE", "rolls: [3, 3], winner: titans", "rolls: [3, 3], winner: femurs", "[3, 3]"),
    ("BOI-REC-1", "BASE", "{kind: recovery, stamina: {femurs: 20, titans: 20}, score: {femurs: 0, titans: 0}}",
     "{kind: recovery, stamina: {femurs: 18, titans: 20}, score: {femurs: 0, titans: 0}}", "femurs: 18"),
    ("BOI-CHAOS-1", "CHAOS", "  - {kind: chaos, die: 1, entry: chaos_penalty_shot}\n"
     "  - {kind: penalty_shot, skater: sully, rolls: [10, 4], goal: true, score: {femurs: 1, titans: 1}}\n", "",
     "{kind: faceoff, skaters: [sully, pat], rolls: [6, 2]}"),
    ("BOI-CHAOS-1", "CHAOS", "die: 1, entry: chaos_penalty_shot", "die: 1, entry: chaos_second_wind", "chaos_second"),
    ("BOI-CHAOS-1", "BASE", "  - {kind: round_start, round: 2}\n",
     "  - {kind: round_start, round: 2}\n  - {kind: chaos, die: 3}\n", "die: 3"),
    # End
    ("BOI-END-1", "FULL", "expect:", "  - {kind: round_start, round: 16}\nexpect:", "round: 16"),
    ("BOI-END-1", "FULL", "  winner: femurs", "  winner: titans", "winner: titans"),
    ("BOI-END-2", "SHOOTOUT", "  # shootout\n", "  # shootout\n  - {kind: round_start, round: 16}\n", "round: 16"),
    # rulings (params.yaml rulings)
    ("BOI-MID-6", "BASE", "defender: frank, rolls: [8, 5]", "defender: rattlebones, rolls: [8, 5]", "rattlebones"),
    ("BOI-MID-7", "BASE", "rolls: [8, 5], winner: titans}\n"
     "  - {kind: one_v_one, skater: bruno, rolls: [9, 6], goal: true, score: {femurs: 0, titans: 1}}\n",
     "rolls: [4, 5], winner: femurs}\n  - {kind: tactical_move, skater: bruno, zone: attack}\n",
     "skater: bruno, zone"),
    ("BOI-END-3", "SHOOTOUT", "  # shootout\n  - {kind: shootout, skater: sully, rolls: [12, 1], goal: true}\n"
     "  - {kind: shootout, skater: bruno, rolls: [10, 1], goal: true}\n",
     "  # shootout\n  - {kind: shootout, skater: bruno, rolls: [10, 1], goal: true}\n"
     "  - {kind: shootout, skater: sully, rolls: [12, 1], goal: true}\n", "skater: bruno"),
    ("BOI-END-3", "SHOOTOUT", "{kind: shootout, skater: bruno, rolls: [10, 1]", "{kind: shootout, skater: keeper, rolls: [1, 1]",
     "skater: keeper"),
    ("BOI-SPIRIT-1", "BASE", "  - {kind: team_spirit, team: titans, stamina: {titans: 18}}\n",
     "  - {kind: team_spirit, team: titans, stamina: {titans: 18}}\n  - {kind: team_spirit, team: titans}\n",
     "team: titans}\n"),
    ("BOI-SPIRIT-1", "BASE", "  - {kind: team_spirit, team: titans, stamina: {titans: 18}}\n"
     "  - {kind: pass, skater: sully, to: tess, stamina: {femurs: 19}}\n",
     "  - {kind: pass, skater: sully, to: tess, stamina: {femurs: 19}}\n"
     "  - {kind: team_spirit, team: titans, stamina: {titans: 18}}\n", "team_spirit"),
    ("BOI-CHAOS-2", "CHAOS", "penalty_shot, skater: sully,", "penalty_shot, skater: frank,", "skater: frank"),
]

# -- helpers ----------------------------------------------------------------------------------

cached_game = checklogs.cached_game_fixture(GAME, autouse=True)    # the game loaded once
run = partial(checklogs.run_quiet, GAME)


def check(path: Path, strict: bool = False) -> tuple[int, list[dict], dict, list[str]]:
    """The checker in process: exit code, problems, final state and the trace."""
    code, out, _ = run(path, strict)
    doc = json.loads(out)
    return code, doc["problems"], doc["final"], doc.get("trace", [])


# -- every rule: the break at its line, and the legal twin ----------------------------------

@pytest.mark.parametrize("base", sorted(BASES))
def test_base_logs_are_legal(tmp_path, base):
    code, probs, _, _ = check(write(tmp_path, BASES[base]))
    checklogs.assert_legal(code, probs)


@pytest.mark.parametrize("rule,base,old,new,at", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_broken_at_its_line(tmp_path, rule, base, old, new, at):
    text = BASES[base]
    assert text.count(old) == 1, f"{old!r} must occur once in {base}"
    start = text.index(old)
    bad = text.replace(old, new)
    line = line_of(bad, at, start)
    code, probs, _, _ = check(write(tmp_path, bad, "bad.yaml"))
    assert code == 1, probs
    errs = errors(probs)
    assert any((p["rule"], p["line"]) == (rule, line) for p in errs), (line, errs)
    assert all(p["file"].endswith("bad.yaml") for p in errs)


def test_text_output_names_file_line_rule(tmp_path):
    bad = BASE.replace("rolls: [6, 4], winner: femurs", "rolls: [9, 4], winner: femurs")
    path = write(tmp_path, bad)
    code, out, err = run(path, fmt="text", trace=False)
    assert code == 1
    line = line_of(bad, "[9, 4]")
    assert f"{path}:{line}:" in out or f"log.yaml:{line}:" in out
    assert "BOI-ROLL-1 error: Sully's Reflexes d8 shows 9, but a d8 shows 1–8" in out
    assert "1 violation(s)" in err


def test_a_slip_does_not_bury_the_rest(tmp_path):
    """The event is applied as recorded: the stated winner keeps the puck, later events stay legal."""
    bad = BASE.replace("rolls: [2, 7], winner: titans", "rolls: [2, 7], winner: femurs")
    bad = bad.replace("{kind: pass, skater: sam, to: bruno, stamina: {titans: 19}}",
                      "{kind: pass, skater: sully, to: tess, stamina: {femurs: 19}}")
    bad = bad.replace("{kind: shoot, skater: bruno, defender: frank, rolls: [8, 5], winner: titans}",
                      "{kind: shoot, skater: tess, defender: sam, rolls: [8, 5], winner: femurs}")
    bad = bad.replace("{kind: one_v_one, skater: bruno, rolls: [9, 6], goal: true, score: {femurs: 0, titans: 1}}",
                      "{kind: one_v_one, skater: tess, rolls: [8, 6], goal: false}\n"
                      "  - {kind: rebound, rolls: [1, 5], winner: titans}")
    code, probs, final, _ = check(write(tmp_path, bad))
    errs = errors(probs)
    assert [p["rule"] for p in errs][:1] == ["BOI-FO-1"]
    assert not [p for p in errs if p["rule"].startswith("BOI-MID")], errs


def test_strict_stops_at_the_first_violation(tmp_path):
    bad = BASE.replace("rolls: [6, 4], winner: femurs", "rolls: [9, 4], winner: femurs")
    bad = bad.replace("rolls: [2, 7], winner: titans", "rolls: [2, 7], winner: femurs")
    assert len(errors(check(write(tmp_path, bad))[1])) >= 2
    code, probs, _, _ = check(write(tmp_path, bad), strict=True)
    assert code == 1 and [p["rule"] for p in probs] == ["BOI-ROLL-1"]


def test_allow_turns_a_violation_into_a_note(tmp_path):
    bad = BASE.split("  # round 2")[0].replace("{team: femurs}", "{team: femurs, stamina: 2}").replace(
        "stamina: {femurs: 20, titans: 20}, score: {femurs: 0, titans: 0}",
        "stamina: {femurs: 4, titans: 20}, score: {femurs: 0, titans: 0}").replace(
        "zone: attack, stamina: {femurs: 19}", "zone: attack, stamina: {femurs: 1}").replace(
        "to: tess, stamina: {femurs: 18}}", "to: tess, stamina: {femurs: 0}}", 1)
    bad += "allow:\n  - {rule: BOI-STAM-1, reason: \"handicap: the Femurs start with 2 Stamina\"}\n"
    code, probs, final, _ = check(write(tmp_path, bad))
    # Stamina 2 → 1 (Tactical Move) → 0 (Pass): Exhausted, so the Recovery gives 4, not 8
    assert code == 0, probs
    assert [(p["rule"], p["severity"]) for p in probs] == [("BOI-STAM-1", "note")]
    assert final["stamina"]["femurs"] == 4


def test_exhausted_team_recovers_less(tmp_path):
    text = BASE.split("  # round 2")[0].replace("{team: femurs}", "{team: femurs, stamina: 2}").replace(
        "zone: attack, stamina: {femurs: 19}", "zone: attack").replace("to: tess, stamina: {femurs: 18}}", "to: tess}", 1)
    text += "allow:\n  - {rule: BOI-STAM-1, reason: handicap}\n"
    code, probs, _, _ = check(write(tmp_path, text))
    rec = [p for p in errors(probs) if p["rule"] == "BOI-REC-1"]
    assert rec and "rules give 4" in rec[0]["message"]
    assert rec[0]["line"] == line_of(text, "{kind: recovery, stamina: {femurs: 20")


# -- complete games ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,winner,decided,score", [
    ("regulation.yaml", "titans", "regulation", {"femurs": 1, "titans": 2}),
    ("regulation.jsonl", "titans", "regulation", {"femurs": 1, "titans": 2}),
    ("shootout.yaml", "marauders", "shootout", {"cracklers": 2, "marauders": 2}),
])
def test_complete_example_games(name, winner, decided, score):
    code, probs, final, trace = check(EXAMPLES / name)
    assert code == 0, probs
    assert (final["winner"], final["decided_by"], final["round"], final["score"]) == (winner, decided, 15, score)
    assert sum(1 for t in trace if "— round" in t) == 15
    assert "expect" in (EXAMPLES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name,winner,decided", [("FULL", "femurs", "regulation"), ("SHOOTOUT", "femurs", "shootout"),
                                                 ("SUDDEN", "titans", "shootout")])
def test_complete_games_end_with_the_right_winner(tmp_path, name, winner, decided):
    code, probs, final, _ = check(write(tmp_path, BASES[name]))
    assert code == 0, probs
    assert (final["winner"], final["decided_by"]) == (winner, decided)


@pytest.mark.parametrize("name", ["regulation.yaml", "shootout.yaml"])
def test_expect_of_the_examples_is_checked(tmp_path, name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    loser = next(t for t in doc["expect"]["score"] if t != doc["expect"]["winner"])
    bad = text.replace(f"  winner: {doc['expect']['winner']}", f"  winner: {loser}")
    code, probs, _, _ = check(write(tmp_path, bad))
    at = line_of(bad, f"winner: {loser}", bad.index("expect:"))
    assert code == 1 and [(p["rule"], p["line"]) for p in probs] == [("BOI-END-1", at)]


def test_the_log_ending_mid_game_has_no_winner(tmp_path):
    text = FULL.split("  # round 15")[0]
    code, probs, final, trace = check(write(tmp_path, text))
    assert code == 0 and final["winner"] is None and final["round"] == 14
    assert any("the log ends in round 14" in t or "end of round 14" in t for t in trace)


def test_the_slips_example_reports_each_slip_at_its_line():
    path = EXAMPLES / "table-slips.yaml"
    text = path.read_text(encoding="utf-8")
    code, probs, _, _ = check(path)
    assert code == 1
    found = {(p["rule"], p["line"], p["severity"]) for p in probs}
    # each slip is marked in the log with "# slip: RULE-ID"
    want = set()
    for n, line in enumerate(text.splitlines(), start=1):
        if line.startswith("  - ") and "# slip: " in line:
            rule = line.split("# slip: ")[1].split()[0]
            want.add((rule, n, "note" if "(allowed)" in line else "error"))
    assert want and want <= found, sorted(found)
    assert len(errors(probs)) == sum(1 for w in want if w[2] == "error")


# -- trace and final state ------------------------------------------------------------------------

def test_trace_reads_round_by_round(tmp_path):
    _, _, final, trace = check(write(tmp_path, BASE))
    text = "\n".join(trace)
    assert "— round 1 —" in text and "— round 3 —" in text
    assert "Face-Off: Sully 6 vs Sam 4 → Sully: the Femurs have the puck" in text
    assert "Pat intercepts: Sully 5 vs Pat 5 → intercepted" in text
    assert "1v1: Bruno 9 vs Rattlebones 6+2 Defense Bonus = 8 → GOAL! Femurs 0 – 1 Titans" in text
    assert "Tess 7 vs Pat 4+2 Grave Wall = 6 → through to the 1v1" in text
    assert "end of round 2: Femurs 0 – 1 Titans · Stamina Femurs 20, Titans 20 · puck: none" in text
    assert "rink: Femurs' Defensive Zone: Rattlebones | Neutral Zone:" in text
    assert final["score"] == {"femurs": 0, "titans": 1} and final["winner"] is None


def test_final_state_of_the_rush_log(tmp_path):
    code, probs, final, trace = check(write(tmp_path, RUSH))
    assert code == 0, probs
    assert final["stamina"] == {"cracklers": 20, "marauders": 20}
    text = "\n".join(trace)
    assert "Knuckles 6+2 Attack Bonus = 8 vs Vic 7 → through" in text
    assert "Dora [4, 10] vs Cleo 9 → through" in text
    assert "rink: Cracklers' Defensive Zone: Jawbone, Stan" in text


def test_dead_eye_needs_both_values_and_cold_snap_rolls_a_d4(tmp_path):
    bad = RUSH.replace("rolls: [[4, 10], 9]", "rolls: [[4, 10, 2], 9]")
    code, probs, _, _ = check(write(tmp_path, bad))
    assert [p["rule"] for p in errors(probs)] == ["BOI-SPIRIT-1"]
    # Cold Snap: Pat rolls a d4 for the Interception, so a 5 is off the die
    text = BASE.replace("  - {kind: intercept, skater: pat, rolls: [5, 5],",
                        "  - {kind: team_spirit, team: femurs, skater: pat}\n  - {kind: intercept, skater: pat, "
                        "rolls: [5, 5],")
    code, probs, _, _ = check(write(tmp_path, text))
    assert ("BOI-ROLL-1", "Pat's Reflexes d4 shows 5, but a d4 shows 1–4") in {
        (p["rule"], p["message"]) for p in probs}


def round5(chaos: str, mid: str) -> str:
    """Four filler rounds (the Titans lead 1–0), then round 5 with a Chaos roll."""
    return game("Tfff", "  # round 5\n  - {kind: round_start, round: 5}\n" + chaos + mid + "  - {kind: recovery}\n")


@pytest.mark.parametrize("die,entry,extra,expect_rules", [
    (3, "chaos_second_wind", "", []),                                   # Second Wind: the Femurs (trailing) +6
    (4, "chaos_power_play", "", ["BOI-CHAOS-2"]),                      # the Femurs win the Face-Off without a roll
    (5, "chaos_thin_ice", "boosts: [titans], ", ["BOI-CHAOS-2"]),      # no Boosts
    (6, "chaos_roaring_crowd", "", []),                                 # the Femurs add 1 to every roll
])
def test_chaos_entries(tmp_path, die, entry, extra, expect_rules):
    text = round5(f"  - {{kind: chaos, die: {die}, entry: {entry}}}\n",
                  "  - {kind: faceoff, skaters: [sully, pat], rolls: [6, 2]}\n"
                  f"  - {{kind: shoot, skater: sully, defender: pat, rolls: [1, 5], {extra}winner: titans}}\n")
    code, probs, final, trace = check(write(tmp_path, text))
    assert [p["rule"] for p in errors(probs)] == expect_rules, probs
    joined = "\n".join(trace)
    if die == 3:
        assert "Second Wind — Femurs recover 6 Stamina" in joined
    if die == 6:
        assert "Sully 6+1 Roaring Crowd = 7 vs Pat 2 → Sully" in joined
    if die == 4:   # rolls were recorded, but Power Play gives the Face-Off without one
        assert "Power Play gives it to Sully" in joined


def test_second_wind_on_a_level_score(tmp_path):
    text = game("TFf" + "f", "  - {kind: round_start, round: 5}\n  - {kind: chaos, die: 3, stamina: {femurs: 20, "
                "titans: 20}}\n")
    code, probs, _, trace = check(write(tmp_path, text))
    assert code == 0, probs
    assert any("Femurs and Titans recover 6" in t for t in trace)


def test_bone_shuffle_scrambles_after_the_face_off(tmp_path):
    scramble = "  - {kind: scramble, rolls: {sully: 6, frank: 1, tess: 3, bruno: 3, sam: 4, pat: 2}}\n"
    face = "  - {kind: faceoff, skaters: [sully, pat], rolls: [6, 2]}\n"
    shot = "  - {kind: shoot, skater: sully, defender: pat, rolls: [1, 5], winner: titans}\n"
    good = round5("  - {kind: chaos, die: 2}\n", face + scramble + shot)
    code, probs, _, trace = check(write(tmp_path, good))
    assert code == 0, probs
    # Sully in his Attack Zone (+2), Pat in his own Defensive Zone (+2)
    assert any("Sully 1+2 Attack Bonus = 3 vs Pat 5+2 Defense Bonus = 7" in t for t in trace)
    missing = round5("  - {kind: chaos, die: 2}\n", face + shot)
    code, probs, _, _ = check(write(tmp_path, missing))
    assert [(p["rule"], p["line"]) for p in errors(probs)] == [("BOI-CHAOS-2", line_of(missing, shot.strip()))]
    goalie = round5("  - {kind: chaos, die: 2}\n", face + scramble.replace("pat: 2", "pat: 2, keeper: 1") + shot)
    code, probs, _, _ = check(write(tmp_path, goalie))
    assert [p["rule"] for p in errors(probs)] == ["BOI-SETUP-2"]


# -- unreadable logs: exit 2 with file:line -----------------------------------------------------

@pytest.mark.parametrize("old,new,at,rule", [
    ("{kind: pass, skater: sam,", "{kind: pas, skater: sam,", "kind: pas,", "LOG-EVENT"),
    ("{kind: pass, skater: sam, to: bruno,", "{kind: pass, skater: sam,", "kind: pass, skater: sam,", "LOG-FIELD"),
    ("{kind: pass, skater: sam,", "{kind: pass, skater: samm,", "skater: samm", "LOG-FIELD"),
    ("rolls: [8, 5], winner: titans", "rolls: [8, 5, 1], winner: titans", "[8, 5, 1]", "LOG-FIELD"),
    ("zone: attack, stamina: {femurs: 19}", "zone: blue line, stamina: {femurs: 19}", "blue line", "LOG-FIELD"),
    ("game: bones_on_ice", "game: bone_wars", "game: bone_wars", "LOG-GAME"),
    ("{kind: recovery, stamina: {femurs: 20, titans: 20}}", "{kind: recovery, stamina: {femurs: 20, titans: 20}",
     "{kind: recovery, stamina: {femurs: 20, titans: 20}\n", "LOG-SYNTAX"),
    ("{team: titans}", "{team: zombies}", "{team: zombies}", "LOG-FIELD"),
])
def test_unreadable_logs_exit_2_with_the_line(tmp_path, old, new, at, rule):
    text = BASE.replace(old, new, 1)
    code, probs, final, _ = check(write(tmp_path, text))
    assert code == 2 and final is None
    assert probs[0]["rule"] == rule
    if rule != "LOG-SYNTAX":
        assert probs[0]["line"] == line_of(text, at)
    else:
        assert probs[0]["line"] >= line_of(text, at)
    code, out, err = run(write(tmp_path, text), fmt="text")
    assert code == 2 and "Traceback" not in err and f":{probs[0]['line']}:" in err


def test_unreadable_jsonl_names_its_line(tmp_path):
    lines = to_jsonl(BASE).splitlines()
    lines[5] = lines[5].replace('"kind": "intercept"', '"kind": "interception"')
    code, probs, _, _ = check(write(tmp_path, "\n".join(lines) + "\n", "log.jsonl"))
    assert code == 2 and (probs[0]["rule"], probs[0]["line"]) == ("LOG-EVENT", 6)


def test_missing_params_is_a_clear_error(game_copy, monkeypatch):
    monkeypatch.setattr(checker, "load_game", load_game)       # this test reads its own copy of the game
    g = game_copy(GAME)
    g.edit("rules/bones_on_ice/params.yaml", "  chaos_thin_ice: {effect: no_boost, who: all}\n", "")
    log = g.write("log.yaml", CHAOS.replace("die: 1, entry: chaos_penalty_shot", "die: 5").replace(
        "  - {kind: penalty_shot, skater: sully, rolls: [10, 4], goal: true, score: {femurs: 1, titans: 1}}\n", ""))
    from tests.conftest import run_cli
    code, out = run_cli("check", GAME, str(log), "--format", "json", root=g.root)
    doc = json.loads(out)
    assert code == 2 and doc["problems"][0]["rule"] == "LOG-GAME"
    assert "chaos_effects.chaos_thin_ice" in doc["problems"][0]["message"]


# -- the checker as a replay over the state --------------------------------------------------------

def _replayed(path):
    """A log replayed over the contract (the shared replay): the referee and its rejections."""
    log = read(path)
    ref = StateReferee(BoiRules(playkit.game(GAME)), log.header)
    return ref, ref.replay([{"kind": e.kind, **e.fields} for e in log.events])


@pytest.mark.parametrize("name", ["BASE", "RUSH", "SUDDEN", "CHAOS", "regulation.yaml", "shootout.yaml"])
def test_every_event_of_a_legal_log_is_legal_on_the_state(tmp_path, name):
    path = EXAMPLES / name if name.endswith(".yaml") else write(tmp_path, BASES[name])
    ref, rejected = _replayed(path)
    assert rejected == []
    over = name.startswith(("regulation", "shootout")) or name == "SUDDEN"
    assert ref.state.is_terminal() == over
    assert not over or (ref.state.legal_actions() == [] and ref.state.chance_outcomes() == [])


def test_nothing_is_legal_after_the_game_is_over(tmp_path):
    ref, rejected = _replayed(write(tmp_path, FULL))
    assert rejected == [] and ref.state.is_terminal() and ref.state.legal_actions() == []
    assert ref.state.chance_outcomes() == []


# -- properties -------------------------------------------------------------------------------------

LEGAL_TEXTS = [BASE, RUSH, CHAOS, SHOOTOUT, (EXAMPLES / "shootout.yaml").read_text(encoding="utf-8"),
               (EXAMPLES / "table-slips.yaml").read_text(encoding="utf-8")]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(LEGAL_TEXTS) - 1), cut=st.floats(0, 1))
def test_yaml_and_jsonl_replay_identically(which, cut):
    """A legal log (cut anywhere) re-serialised as JSON Lines replays the same; a cut legal log stays legal."""
    legal = which != len(LEGAL_TEXTS) - 1          # the slips example (the last) is not legal
    checklogs.assert_a_prefix_replays_the_same(GAME, LEGAL_TEXTS[which], cut, legal, messages=True, trace_text=True)


KINDS = list(Engine.EVENTS) + ["bogus"]
NAMES = ["sully", "pat", "keeper", "rattlebones", "femurs", "titans", "attack", "neutral", "defensive", "x", ""]
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 14), st.sampled_from(NAMES),
    st.lists(st.one_of(st.integers(-1, 13), st.lists(st.integers(0, 13), max_size=3), st.sampled_from(NAMES)),
             max_size=3),
    st.dictionaries(st.sampled_from(NAMES), st.one_of(st.integers(-1, 25), st.sampled_from(NAMES)), max_size=3))
FIELDS = sorted({f for spec in Engine.EVENTS.values() for f in spec} | {"kind", "bogus", "round"})


def header(draw, doc: dict) -> None:
    """The teams, the first team, the last team's skaters or the game, broken."""
    choice = draw(st.sampled_from(["teams", "team0", "skaters", "game"]))
    if choice == "teams":
        doc["teams"] = draw(VALUES)
    elif choice == "team0" and isinstance(doc.get("teams"), list) and doc["teams"]:
        doc["teams"][0] = draw(st.one_of(VALUES, st.fixed_dictionaries(
            {"team": st.sampled_from(["femurs", "titans", "cracklers", "x"]), "stamina": st.integers(-1, 30)})))
    elif choice == "skaters" and isinstance(doc.get("teams"), list) and doc["teams"]:
        if isinstance(doc["teams"][-1], dict):
            doc["teams"][-1]["skaters"] = draw(st.lists(st.sampled_from(NAMES + ["bruno", "sam"]), max_size=5))
    else:
        doc["game"] = draw(VALUES)


mutated = partial(
    checklogs.mutated, LEGAL_TEXTS[:4] + [FULL, SUDDEN],
    ["drop", "dup", "swap", "set", "set", "del", "kind", "header", "expect"], steps=5, values=VALUES, fields=FIELDS,
    kinds=KINDS, header=header, expect_keys=["winner", "score", "stamina", "nope"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])   # as the other games
@given(doc=mutated(), form=st.sampled_from(["yaml", "jsonl"]), strict=st.booleans())
def test_the_checker_never_raises_on_fuzzed_logs(doc, form, strict):
    checklogs.assert_the_checker_never_raises(GAME, doc, form, strict)


@pytest.mark.parametrize("old,new,rule", [
    ("  pass: 1\n", "  pass: 2\n", "BOI-STAM-2"),                                   # Sully's pass leaves 17
    ("  defense: 2 ", "  defense: 3 ", "BOI-ZONE-2"),                                # 6 + 3 = 9: a Save
    ("rounds: 15", "rounds: 14", "BOI-END-1"),                                     # FULL plays a round 15
])
def test_the_rules_numbers_come_from_params(game_copy, old, new, rule):
    g = game_copy(GAME)
    g.edit("rules/bones_on_ice/params.yaml", old, new)
    text = FULL if rule == "BOI-END-1" else BASE
    checklogs.assert_params_decide(GAME, g.root, text, rule)


def test_a_line_up_that_cannot_play_is_reported_once(tmp_path):
    """No Goalie among the Titans: the line-up is reported at its header line; the events and the
    expect are not replayed against a game that cannot start, so nothing else is reported."""
    text = BASE.replace("{team: titans}", "{team: titans, skaters: [bruno, sam, pat, sully]}")
    code, probs, final, trace = check(write(tmp_path, text))
    assert code == 1 and {(p["rule"], p["line"]) for p in probs} == {("BOI-CARD-2", 5), ("BOI-SETUP-1", 5)}, probs
    assert final["winner"] is None and any("cannot be played out" in t for t in trace)


# -- a team's own starting Stamina (a Team Spirit card's `stamina`, a project addition) ----------

ROUND1 = BASE.split("  # round 2")[0]
OWN_START = ROUND1.replace("{team: femurs}", "{team: femurs, stamina: 18}").replace(
    "zone: attack, stamina: {femurs: 19}", "zone: attack, stamina: {femurs: 17}").replace(
    "to: tess, stamina: {femurs: 18}}", "to: tess, stamina: {femurs: 16}}", 1)


def _check_in(g, text: str) -> tuple[int, list[dict]]:
    """The checker on ``text`` under the game copy ``g`` (its own cards)."""
    done = checker.check_output(g.root, GAME, write(g.root, text), strict=False, trace=False, fmt="json")
    return done.code, json.loads(done.stdout)["problems"]


def test_a_team_s_own_starting_stamina_is_where_the_checker_starts(game_copy):
    """The Femurs' Team Spirit card says 18: a log that starts them on 18 is legal (the Recovery
    tops 16 + 8 up to 20), the shared 20 in the header is BOI-STAM-1 at its line, and a header
    that leaves it out is checked from 18 (the Tactical Move's stated 19 is one too many)."""
    g = game_copy(GAME)
    shipped_code, shipped = _check_in(g, OWN_START)
    assert shipped_code == 1 and [p["rule"] for p in errors(shipped)][0] == "BOI-STAM-1"   # the rules give 20
    g.edit("cards/bones_on_ice/team_femurs.yaml", 'color: "#2a6fb0", cost: 3,',
           'color: "#2a6fb0", cost: 3, stamina: 18,')
    code, probs = _check_in(g, OWN_START)
    checklogs.assert_legal(code, probs)
    shared = OWN_START.replace("{team: femurs, stamina: 18}", "{team: femurs, stamina: 20}")
    code, probs = _check_in(g, shared)
    assert code == 1 and [(p["rule"], p["line"]) for p in errors(probs)][:1] == [
        ("BOI-STAM-1", line_of(shared, "{team: femurs, stamina: 20}"))], probs
    assert "the rules give 18" in errors(probs)[0]["message"]
    unstated = ROUND1
    code, probs = _check_in(g, unstated)
    assert code == 1 and errors(probs)[0]["rule"] == "BOI-STAM-2" and \
        errors(probs)[0]["line"] == line_of(unstated, "zone: attack, stamina: {femurs: 19}"), probs
